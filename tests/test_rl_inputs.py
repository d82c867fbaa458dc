"""What the RL environments do with action indices and seeds that are not plain whole numbers
(docs/rl.md): an index that is no integer is refused, never truncated into another action, and a
seed is one whole number >= 0 (numpy integers included), so that two seeds never share the
stream of later resets; a Session's calls before its first ``new()`` raise NotDealt. The
Session tests need numpy only; the AEC test skips without the ``rl`` extra."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest
from rummy101 import IllegalAction, RulesError
from rummy101.game import new_game
from rummy101.rl import ILLEGAL_MODES, IllegalActionIndex, NotDealt, Session


def _session(illegal: str = "lose") -> tuple[Session, int]:
    ses = Session("rummy101(players=2)", illegal=illegal)
    ses.new(seed=1)
    return ses, int(np.flatnonzero(ses.mask())[0])


@pytest.mark.parametrize("illegal", ILLEGAL_MODES)
@pytest.mark.parametrize("make", [lambda i: i + 0.5, lambda i: float(i), lambda i: str(i),
                                  lambda i: None, lambda i: np.array([i]),
                                  lambda i: np.float64(i), lambda i: True],
                         ids=["float", "whole-float", "str", "None", "1-d array", "np.float64",
                              "bool"])
def test_an_index_that_is_no_integer_is_refused_whatever_the_mode(illegal: str, make: Any) -> None:
    ses, legal = _session(illegal)
    bad = make(legal)
    with pytest.raises(IllegalActionIndex, match="is no action index: give a whole number"):
        ses.step(bad)
    assert ses.steps == 0 and not ses.state.history and not ses.done  # nothing was played


@pytest.mark.parametrize("make", [int, np.int64, np.uint16, lambda i: np.array(i)],
                         ids=["int", "np.int64", "np.uint16", "0-d array"])
def test_integer_indices_of_any_integer_type_are_played(make: Any) -> None:
    ses, legal = _session("raise")
    want = ses.codec.action(legal)
    ses.step(make(legal))
    assert ses.steps == 1 and ses.state.history[-1] == want


def test_none_for_the_agent_to_move_says_what_none_is_for() -> None:
    pytest.importorskip("pettingzoo")
    pytest.importorskip("gymnasium")
    from rummy101.rl import env

    e = env("rummy101(players=2)")
    e.reset(seed=3)
    with pytest.raises(IllegalActionIndex, match="None is only for an agent that is done"):
        e.step(None)


@pytest.mark.parametrize(
    "call",
    [
        lambda ses: ses.step(ses.codec.indices(ses.state.legal_actions())[0]),
        lambda ses: ses.step(0),
        lambda ses: ses.observe(0),
        lambda ses: ses.observe(1),
        lambda ses: ses.mask(),
        lambda ses: ses.play(ses.state.legal_actions()[0]),
        lambda ses: ses.render(),
    ],
    ids=["step-legal", "step-0", "observe-0", "observe-1", "mask", "play", "render"],
)
def test_a_session_before_new_says_to_call_new(call: Any) -> None:
    """Before ``new()`` a Session holds a placeholder game (seed 0): ``step`` and ``observe``
    played and showed it as if it were the match. Assigning ``state`` deals as ``new()`` does
    (tests/test_rl.py sets it)."""
    ses = Session("rummy101(players=2)")
    with pytest.raises(NotDealt, match=r"before new\(\): no match is dealt yet; call new\(\) first"):
        call(ses)
    assert ses.steps == 0 and not ses.state.history  # nothing was played
    assert ses.state.rules == ses.rules and not ses.done  # the placeholder still answers these
    dealt = new_game(ses.rules, 4)
    ses.state = dealt
    assert ses.observe(0)["action_mask"].any() == (dealt.current_player == 0)
    ses.step(int(np.flatnonzero(ses.mask())[0]))
    assert ses.steps == 1 and len(dealt.history) == 1


def _later_games(seed: Any) -> list[Any]:
    ses = Session("rummy101(players=2)")
    ses.new(seed)
    games = [ses.state.racks]
    for _ in range(3):
        ses.new()
        games.append(ses.state.racks)
    return games


def test_a_numpy_integer_seed_is_the_same_seed() -> None:
    assert _later_games(np.int64(5)) == _later_games(5) == _later_games(np.uint32(5))


@pytest.mark.parametrize("seed", [-3, 1.5, 2.0, "5", True, np.float64(3)])
def test_a_seed_that_is_no_whole_number_from_0_is_refused(seed: Any) -> None:
    ses = Session("rummy101(players=2)")
    with pytest.raises(RulesError, match="seed must be a whole number >= 0"):
        ses.new(seed)


def test_seeds_minus_s_and_s_do_not_share_their_later_games() -> None:
    """random.Random(-s) is random.Random(s): a negative seed used to replay the later resets
    of its positive twin. It is refused (as Gymnasium refuses it), so no two seeds share them."""
    with pytest.raises(RulesError):
        _later_games(-3)
    assert _later_games(3)[1:] != _later_games(4)[1:]


@pytest.mark.parametrize("spec, most", [("classic", 17), ("remi", 35), ("rummy101", 55)])
def test_table_slots_beyond_the_melds_a_table_can_hold_are_refused(spec: str, most: int) -> None:
    """A table never holds more melds than its pieces make (pairs of 2 in Rummy 101, else
    melds of 3): more slots only grow the space, ~0.25 MB and 16 ms a slot (table_slots=10**6
    ran out of memory building the codec)."""
    from rummy101.rl import ActionCodec, ObservationEncoder

    assert ActionCodec(spec, table_slots=min(most, 24)).table_slots == min(most, 24)
    for make in (ActionCodec, ObservationEncoder):
        with pytest.raises(RulesError, match=f"table_slots must be a whole number from 1 to {most}"):
            make(spec, table_slots=most + 1)


@pytest.mark.parametrize("slots", [2.5, True, "3", 0])
def test_table_slots_that_are_no_whole_number_are_refused(slots: Any) -> None:
    from rummy101.rl import ActionCodec

    with pytest.raises(RulesError, match="table_slots must be a whole number"):
        ActionCodec("classic", table_slots=slots)


@pytest.mark.parametrize("options", [{"max_cycles": 2.5}, {"max_cycles": "3"}, {"max_cycles": True},
                                     {"max_cycles": 0}],
                         ids=["float", "str", "bool", "zero"])
def test_max_cycles_is_a_whole_number_from_1(options: dict[str, Any]) -> None:
    with pytest.raises(RulesError, match="max_cycles must be None or a whole number >= 1"):
        Session("rummy101(players=2)", **options)


@pytest.mark.parametrize("options", [{"reward_scale": float("nan")}, {"reward_scale": float("inf")},
                                     {"illegal_reward": float("-inf")}, {"reward_scale": "x"}],
                         ids=["nan", "inf", "-inf", "str"])
def test_rewards_options_are_finite_numbers(options: dict[str, Any]) -> None:
    name = next(iter(options))
    with pytest.raises(RulesError, match=f"{name} must be a finite number"):
        Session("rummy101(players=2)", **options)
    assert Session("rummy101(players=2)", max_cycles=np.int64(5), reward_scale=1 / 101).max_cycles == 5


@pytest.mark.parametrize("bad", ["3", 2.5, "illegal index"])
def test_a_refused_step_keeps_the_reward_the_agent_has_not_acted_on(bad: Any) -> None:
    """A step that raises (an index that is no integer, or a masked-out index with
    illegal="raise") plays nothing, so ``last()`` still shows the reward delivered to the agent
    since it last acted (here a classic hand's score, CR-6): it was erased before the check."""
    pytest.importorskip("pettingzoo")
    pytest.importorskip("gymnasium")
    from rummy101.rl import env

    e = env("classic(players=2)", illegal="raise")
    e.reset(seed=1)
    rng = np.random.default_rng(0)
    for _agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        assert not (term or trunc), "the match ended before a hand scored mid-match"
        if reward:
            break
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    history = len(e.unwrapped.game.history)
    if bad == "illegal index":
        bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionIndex):
        e.step(bad)
    assert e.last()[1] == reward and len(e.unwrapped.game.history) == history


@pytest.mark.parametrize("seat", [0, 1])
def test_a_gym_step_before_reset_says_to_reset_and_plays_nothing(seat: int) -> None:
    """``gym_env(...)`` is the bare environment (no Gymnasium OrderEnforcing wrapper): a step
    before the first reset played the index on a placeholder game, for whichever seat was to
    move there (seat 0, not the agent's seat 1), or ended it as an illegal index, silently."""
    pytest.importorskip("gymnasium")
    import gymnasium
    from rummy101.rl import gym_env

    g = gym_env("rummy101(players=2)", opponents="random", seat=seat)
    with pytest.raises(gymnasium.error.ResetNeeded, match="reset"):
        g.step(0)
    assert not g.session.state.history and not g.session.done  # (g.game raises before a reset)
    obs, _ = g.reset(seed=2)
    g.step(int(np.flatnonzero(obs["action_mask"])[0]))  # after the reset steps are played
    assert g.game.history


def test_a_gym_reset_that_max_cycles_ends_before_the_agents_move_says_so() -> None:
    """max_cycles counts the bots' steps too: when they reach it before the agent's first move
    (seat 3 of 4, max_cycles=2), reset returned an observation whose mask allowed nothing, and
    the next step raised "the match is over" (a vector env's training loop crashed there)."""
    pytest.importorskip("gymnasium")
    from rummy101.rl import gym_env

    g = gym_env("rummy101(players=4)", opponents="random", seat=3, max_cycles=2)
    with pytest.raises(RulesError, match=r"max_cycles=2 ended the match before seat 3's first move"):
        g.reset(seed=0)
    g = gym_env("rummy101(players=4)", opponents="random", seat=3, max_cycles=200)
    obs, _ = g.reset(seed=0)
    assert obs["action_mask"].any()


@pytest.mark.parametrize(("name", "other"), [("Classic", "remi(players=2)"),
                                             ("Remi", "rummy101(players=3)"),
                                             ("Rummy101", "classic")])
def test_a_registered_gym_id_plays_only_its_own_variant(name: str, other: str) -> None:
    """``gymnasium.make("rummy101/Classic-v0", rules="remi(players=2)")`` built a Remi game
    under the Classic id (``rules=`` is for rule options, docs/rl.md); the versioned modules
    refuse it (``classic_v0.gym_env``), and so does the id now."""
    pytest.importorskip("gymnasium")
    import gymnasium
    import rummy101.rl  # noqa: F401  (registers the ids)

    with pytest.raises(RulesError, match="plays"):
        gymnasium.make(f"rummy101/{name}-v0", rules=other)
    own = {"Classic": "classic(players=3)", "Remi": "remi(players=2)", "Rummy101": "rummy101(players=2)"}
    assert str(gymnasium.make(f"rummy101/{name}-v0", rules=own[name]).unwrapped.rules) == own[name]


@pytest.mark.parametrize("reward", ["round", "match"])
def test_a_truncated_match_pays_the_finished_rounds_or_nothing(reward: str) -> None:
    """docs/rl.md: over a match played to its end both reward modes sum to the standings; an
    episode cut by max_cycles pays "round" the finished rounds (the standings so far) and
    "match" nothing (the match never ended)."""
    pytest.importorskip("pettingzoo")
    pytest.importorskip("gymnasium")
    from rummy101.rl import env

    e = env("classic(players=2)", reward=reward, max_cycles=3000)
    e.reset(seed=1)
    rng = np.random.default_rng(0)
    total = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, r, term, trunc, _ = e.last()
        total[agent] += r
        e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    game = e.unwrapped.game
    assert not game.is_terminal and game.round_scores() and any(game.standings())
    want = game.standings() if reward == "round" else [0] * game.n
    assert [total[a] for a in e.possible_agents] == want


@pytest.mark.parametrize("bad", ["player_9", "", None, 0, ["player_0"]])
def test_observing_an_agent_that_is_not_in_the_game_names_the_agents(bad: Any) -> None:
    pytest.importorskip("pettingzoo")
    pytest.importorskip("gymnasium")
    from rummy101.rl import env

    e = env("rummy101(players=2)")
    e.reset(seed=1)
    with pytest.raises(ValueError, match=r"unknown agent .*: the agents are player_0, player_1$"):
        e.observe(bad)  # was a bare KeyError (or "unhashable type: 'list'")
    assert set(e.observe("player_1")) == {"observation", "action_mask"}


@pytest.mark.parametrize("bad", [[], {"a": 1}, np.array([4])])
def test_table_slots_that_are_no_number_are_refused_by_name(bad: Any) -> None:
    with pytest.raises(RulesError, match=r"table_slots must be a whole number from 1 to "):
        Session("rummy101", table_slots=bad)  # was "unhashable type: 'list'"


@pytest.mark.parametrize(("bad", "message"), [
    (None, r"opponents must be a bot name or a list .*got NoneType None"),
    (3, r"opponents must be a bot name or a list .*got int 3"),
    (b"greedy", r"opponents must be a bot name or a list .*got bytes"),
    ([1, 2, 3], r"opponent 1 \(of type int\) is not a bot name or a bot object")])
def test_gym_opponents_that_are_no_bots_are_refused_at_construction(bad: Any,
                                                                    message: str) -> None:
    # None was "'NoneType' object is not iterable"; [1, 2, 3] an AttributeError at the first step
    pytest.importorskip("gymnasium")
    from rummy101.rl import gym_env

    with pytest.raises(RulesError, match=message):
        gym_env("rummy101", bad)


@pytest.mark.parametrize("bad", [[1], {"a": 1}, np.array([1, 2]), 1.0, True, -1, 2, None])
def test_observing_a_seat_that_is_no_seat_number_is_refused(bad: Any) -> None:
    ses, _ = _session()
    ses.observe(1)  # cached: 1.0 and True read these arrays before
    with pytest.raises(IllegalAction, match=r"seat .* does not exist: seats are 0\.\.1$"):
        ses.observe(bad)


def test_a_numpy_seat_number_is_a_seat() -> None:
    ses, _ = _session()
    got = ses.observe(np.int64(1))
    assert all((got[k] == ses.observe(1)[k]).all() for k in ("observation", "action_mask"))


def test_a_gym_reset_takes_a_numpy_seed_as_the_session_does() -> None:
    # Gymnasium's own seeding refused it first: "Seed must be a python integer"
    pytest.importorskip("gymnasium")
    from rummy101.rl import gym_env

    one, two = gym_env("rummy101(players=2)"), gym_env("rummy101(players=2)")
    got, want = one.reset(seed=np.int64(3))[0], two.reset(seed=3)[0]
    assert all((got[k] == want[k]).all() for k in ("observation", "action_mask"))
    assert one.np_random.integers(1 << 30) == two.np_random.integers(1 << 30)


@pytest.mark.parametrize("bad", [1.5, "3", -1, [3]])
def test_a_gym_reset_refuses_a_seed_as_the_session_does(bad: Any) -> None:
    # was gymnasium.error.Error, which is no ValueError
    pytest.importorskip("gymnasium")
    from rummy101.rl import gym_env

    with pytest.raises(RulesError, match="seed must be a whole number >= 0"):
        gym_env("rummy101(players=2)").reset(seed=bad)


@pytest.mark.parametrize("bad", [None, 3, np.int64(3), {"player_1": 0}, {}])
def test_a_parallel_step_without_the_movers_action_names_it(bad: Any) -> None:
    # was "'NoneType' object is not subscriptable", IndexError or KeyError 'player_0' from
    # inside PettingZoo's wrapper
    pytest.importorskip("pettingzoo")
    pytest.importorskip("gymnasium")
    from rummy101.rl import parallel_env

    par = parallel_env("rummy101(players=2)")
    obs, _ = par.reset(seed=1)
    with pytest.raises(ValueError, match=r"a parallel step takes a dict of actions by agent with "
                                         r"the action of the agent to move, 'player_0', got"):
        par.step(bad)
    index = int(np.flatnonzero(obs["player_0"]["action_mask"])[0])
    par.step({"player_0": index, "player_1": 0})  # nothing was played: the step still plays


class _Refused:
    """Answers the first legal action, and at its first discard a tile the rack does not hold."""

    name = "refused"

    def act(self, observation: Any, legal_actions: Any) -> Any:
        if any(a.verb == "discard" for a in legal_actions):
            return "discard 2S" if "discard 2S" not in legal_actions else "discard 3S"
        return legal_actions[0]


class _Raises:
    name = "raises"

    def act(self, observation: Any, legal_actions: Any) -> Any:
        raise ValueError("my bot broke")


@pytest.mark.parametrize(("bot", "cause"), [
    (_Refused(), r"IllegalAction: discard [23]S: .* \(CR-"), (_Raises(), r"ValueError: my bot broke")])
def test_an_opponent_that_fails_is_named_and_not_taken_for_the_agent(bot: Any, cause: str) -> None:
    """An opponent bot's illegal action came out of step() as a bare IllegalAction, which reads
    as the agent's own action refused, and its exception without the seat or bot; the seat to
    move was then the bot's, so a further step() played the agent's index for that bot."""
    pytest.importorskip("gymnasium")
    import gymnasium
    from rummy101.rl import OpponentFailed, gym_env

    g = gym_env("classic(players=2)", opponents=[bot])
    with pytest.raises(OpponentFailed, match=r"^the opponent bot of seat 1 \((refused|raises)\) "
                                             r"failed at game step \d+: " + cause):
        obs, _ = g.reset(seed=4)
        for _ in range(200):
            obs, *_ = g.step(int(np.flatnonzero(obs["action_mask"])[0]))
    with pytest.raises(gymnasium.error.ResetNeeded, match=r"call reset\(\): the opponent bot of seat 1"):
        g.step(0)
    g._opponent_specs = ["random"]  # a working opponent: reset() deals a match that goes on
    obs, _ = g.reset(seed=4)
    g.step(int(np.flatnonzero(obs["action_mask"])[0]))


def test_an_opponent_whose_constructor_raises_is_named_at_construction(tmp_path: Any,
                                                                        monkeypatch: Any) -> None:
    pytest.importorskip("gymnasium")
    from rummy101.bots import BotError
    from rummy101.rl import gym_env

    (tmp_path / "rlbadinit.py").write_text(
        "class BadInit:\n    def __init__(self, rng):\n        raise RuntimeError('no config')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(BotError, match=r"opponent of seat 0 \('rlbadinit:BadInit'\): making it "
                                       r"with a random.Random failed: RuntimeError: no config"):
        gym_env("classic(players=2)", opponents="rlbadinit:BadInit", seat=1)  # was RuntimeError


@pytest.mark.parametrize("make", ["env", "parallel_env", "gym_env"])
def test_an_unknown_option_lists_the_options(make: str) -> None:
    """was "Session.__init__() got an unexpected keyword argument 'rewards'"."""
    pytest.importorskip("gymnasium")
    pytest.importorskip("pettingzoo")
    from rummy101 import rl

    with pytest.raises(TypeError, match=r"unknown option 'rewards'; the options: .*match_rounds, "
                                        r"reward, reward_scale, illegal, .*max_cycles, render_mode"):
        getattr(rl, make)("classic", rewards="match")


def test_a_refused_index_lists_the_legal_ones() -> None:
    """illegal="raise" said "...; 2 indices are (the action mask)", a sentence cut short."""
    ses = Session("classic(players=2)", illegal="raise")
    ses.new(seed=1)
    legal = [int(j) for j in np.flatnonzero(ses.mask())]
    assert len(legal) == 2  # the take phase: draw, or take the discard
    shown = ", ".join(f"{j} ({ses.codec.action(j)})" for j in legal)
    with pytest.raises(IllegalActionIndex, match=r"^action index 2 \(discard AS\) is not legal for "
                                                 r"seat 0; 2 indices are legal now \(the action "
                                                 r"mask\): " + re.escape(shown) + "$"):
        ses.step(2)
    ses, _ = _session("raise")  # rummy101: more than five, the first five shown
    with pytest.raises(IllegalActionIndex, match=r"indices are legal now \(the action mask\): "
                                                 r"(\d+ \([^)]*\), ){5}\.\.\.$"):
        ses.step(int(np.flatnonzero(ses.mask() == 0)[0]))


@pytest.mark.parametrize("spec", ["classic(players=2)", "classic"])
def test_a_versioned_gym_env_given_rules_first_says_they_go_in_rules(spec: str) -> None:
    """rummy101.rl.gym_env(rules, opponents) but classic_v0.gym_env(opponents, seat, rules):
    classic_v0.gym_env("classic(players=2)") said "unknown bot 'classic(players=2)'"."""
    pytest.importorskip("gymnasium")
    from rummy101.rl import classic_v0

    with pytest.raises(RulesError, match=r"classic_v0.gym_env takes the opponents first; "
                                         rf"'{re.escape(spec)}' is a rule set: write "
                                         rf"gym_env\(rules='{re.escape(spec)}', opponents=\.\.\.\)"):
        classic_v0.gym_env(spec)
    assert classic_v0.gym_env(rules=spec, opponents="random").rules.variant == "classic"


def test_an_opponent_that_loops_is_stopped(monkeypatch: pytest.MonkeyPatch) -> None:
    """An opponent that lays melds and takes them back (reset) for ever made step() never
    return (the simulator stops such a round at MAX_STEPS); it raises OpponentFailed after
    OPPONENT_STEPS steps of the other seats in a row, with the last actions. (The bot gives up
    after 5,000 calls on its own, so that the old code fails rather than hangs.)"""
    pytest.importorskip("gymnasium")
    from rummy101.rl import OpponentFailed, gym_env, single

    class LaysFirst:
        name = "laysfirst"
        calls = 0

        def act(self, observation: Any, legal_actions: Any) -> Any:
            LaysFirst.calls += 1
            if LaysFirst.calls > 5000:
                raise RuntimeError("gave up")
            lays = [a for a in legal_actions if a.verb in ("run", "set", "pair", "add", "open")]
            draws = [a for a in legal_actions if a.verb == "draw"]
            discards = [a for a in legal_actions if a.verb == "discard"]
            return (lays or draws or discards or legal_actions)[0]

    monkeypatch.setattr(single, "OPPONENT_STEPS", 400, raising=False)
    g = gym_env("rummy101", opponents=[LaysFirst(), "greedy", "greedy"], seat=1)
    with pytest.raises(OpponentFailed, match=r"seat 0 \(laysfirst\) failed at game step 400: "
                                             r"RuntimeError: the other seats played 400 steps in "
                                             r"a row .*: a bot loops; the last actions: .*reset"):
        g.reset(seed=1)  # seed 1's deal: seat 0 holds melds it lays and resets for ever

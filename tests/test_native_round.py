"""The native greedy round (issue 12; cpp/src/round101.cpp, rummy101.bots.native_greedy) against
the Python flow, record for record: GreedyBot + strategy deciding on the rummy101 engine.

Every comparison plays the same position both ways and checks every action (as text), the end
position (``State ==``: racks, stock, table, discards, openings, thresholds, the joker button,
the turn record), the history, the round scores and results. Positions: fresh deals of every
option set the fast path takes (R101-1 players, R101-14 thresholds, R101-10 joker button), and
mid-round turn boundaries reached by random and greedy play (what search rollouts start from).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from rummy101 import available_backends, using_backend
from rummy101.bots import get_bot
from rummy101.bots import native_greedy as native_round
from rummy101.bots.greedy import GreedyBot
from rummy101.game import new_game
from rummy101.sim import play_game, runner

pytestmark = pytest.mark.skipif("native" not in available_backends(),
                                reason="the native core is not built")

#: The option sets the fast path plays (every rummy101 option, in combinations).
OPTION_SETS = (
    "rummy101",
    "rummy101(players=2)",
    "rummy101(players=3,threshold=increasing)",
    "rummy101(button_jokers=1)",
    "rummy101(players=2,threshold=increasing,button_jokers=2)",
)


@pytest.fixture(autouse=True)
def _native(monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.delenv(native_round.ENV_VAR, raising=False)
    with using_backend("native"):
        yield


def python_round(s: Any) -> list[str]:
    """Play the round of ``s`` to its end on the Python flow, fresh greedy bots in every seat
    (what ``play_round`` mirrors); the actions as text."""
    bots = [GreedyBot(random.Random(q)) for q in range(s.n)]
    r0 = s.round
    out = []
    while not s.is_terminal and s.round == r0:
        a = bots[s.current].act(s.observation(s.current), s.legal_actions())
        out.append(str(a))
        s.apply(a)
    return out


def compare(s: Any, where: str) -> int:
    """Play ``s`` natively and on the Python flow; assert the same actions and end state.
    Returns the number of actions compared."""
    t = s.copy()
    nr = native_round.play_round(t)
    assert t == s and t.history == s.history, "play_round must not change the state"
    expected = python_round(s)
    got = [str(a) for a in nr.actions()]
    if got != expected:
        k = next((i for i, (a, b) in enumerate(zip(got, expected)) if a != b),
                 min(len(got), len(expected)))
        pytest.fail(f"{where}: action {k} differs: native {got[k:k + 3]} python {expected[k:k + 3]}"
                    f" (after {expected[max(0, k - 3):k]})")
    native_round.finish_round(t, nr)
    assert t == s, f"{where}: end positions differ in " + ", ".join(
        f for f in s._EQ_FIELDS if getattr(s, f) != getattr(t, f))
    assert t.history == s.history
    assert t.round_results() == s.round_results() and t.round_scores() == s.round_scores()
    return len(got)


@pytest.mark.parametrize("rules", OPTION_SETS)
def test_fresh_rounds_record_for_record(rules: str) -> None:
    steps = sum(compare(new_game(rules, seed), f"{rules} seed {seed}") for seed in range(500))
    assert steps > 500 * 20


def to_boundary(s: Any, rng: random.Random, k: int, bot: str) -> bool:
    """Play ``k`` steps with ``bot`` in every seat, then on to the next turn boundary; False if
    the round ended first."""
    bots = [get_bot(bot, random.Random(rng.random())) for _ in range(s.n)]
    r0 = s.round
    for i in range(10_000):
        if s.is_terminal or s.round != r0:
            return False
        if i >= k and native_round.at_turn_boundary(s):
            return True
        s.apply(bots[s.current].act(s.observation(s.current), s.legal_actions()))
    raise AssertionError("no turn boundary reached")


def mid_round(rules: str, games: int, seed: int) -> int:
    rng = random.Random(seed)
    done = 0
    for g in range(games):
        s = new_game(rules, rng.randrange(10**9))
        if to_boundary(s, rng, rng.randrange(0, 90), "random" if g % 2 else "greedy"):
            compare(s, f"{rules} mid-round game {g} (seed {seed})")
            done += 1
    return done


@pytest.mark.parametrize("rules", OPTION_SETS)
def test_mid_round_starts_record_for_record(rules: str) -> None:
    assert mid_round(rules, 60, 12) >= 30


def test_play_game_fast_path_equals_python_flow(monkeypatch: pytest.MonkeyPatch) -> None:
    """Summary and full records, one-round games and matches (the next round dealt by the
    engine after each native round), on and off the fast path."""
    for rules, rounds in (("rummy101", None), ("rummy101(players=3,button_jokers=1)", 3),
                          ("rummy101(threshold=increasing)", 2)):
        for i in range(6):
            for record in ("summary", "full"):
                monkeypatch.setenv(native_round.ENV_VAR, "1")
                fast = play_game(rules, ["greedy"] * (3 if "players=3" in rules else 4), 9, i,
                                 match_rounds=rounds, record=record)
                monkeypatch.setenv(native_round.ENV_VAR, "0")
                slow = play_game(rules, ["greedy"] * (3 if "players=3" in rules else 4), 9, i,
                                 match_rounds=rounds, record=record)
                assert fast == slow and fast.to_json() == slow.to_json(), (rules, i, record)


def test_fast_path_is_taken_only_where_it_applies(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    real = native_round.play_round

    def counting(s: Any, *a: Any) -> Any:
        calls.append(1)
        return real(s, *a)

    monkeypatch.setattr(native_round, "play_round", counting)
    play_game("rummy101", ["greedy"] * 4, 1, 0)
    assert calls, "greedy by name on every seat, rummy101, native: the fast path"
    cases: list[tuple[str, list[Any], dict[str, str], str]] = [
        ("rummy101", ["greedy", "greedy", "greedy", "random"], {}, "native"),
        ("rummy101", [GreedyBot() for _ in range(4)], {}, "native"),  # bot objects
        ("rummy101", ["greedy"] * 4, {native_round.ENV_VAR: "0"}, "native"),
        ("rummy101", ["greedy"] * 4, {}, "pure"),
        ("remi", ["greedy"] * 4, {}, "native"),
    ]
    for rules, bots, env, backend in cases:
        calls.clear()
        for k, v in env.items():
            monkeypatch.setenv(k, v)
        with using_backend(backend):
            rec = play_game(rules, bots, 3, 0)
        for k in env:
            monkeypatch.delenv(k)
        assert not calls, (rules, bots, env, backend)
        assert rec.steps > 0


def test_a_round_the_core_cannot_play_goes_to_the_python_flow(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(s: Any, *a: Any) -> Any:
        raise RuntimeError("no")

    monkeypatch.setenv(native_round.ENV_VAR, "0")
    expected = play_game("rummy101", ["greedy"] * 4, 4, 2)
    monkeypatch.delenv(native_round.ENV_VAR)
    monkeypatch.setattr(native_round, "play_round", broken)
    assert play_game("rummy101", ["greedy"] * 4, 4, 2) == expected
    assert runner._native_rounds(new_game("rummy101", 0).rules, ["greedy"] * 4,
                                 [GreedyBot() for _ in range(4)]) is native_round


def test_play_round_refuses_a_position_inside_a_turn() -> None:
    s = new_game("rummy101", 3)
    s.apply(s.legal_actions()[0])  # the starter lays something: not a turn boundary
    assert not native_round.at_turn_boundary(s)
    with pytest.raises(ValueError, match="turn boundary"):
        native_round.play_round(s)


@pytest.mark.slow
@pytest.mark.parametrize("rules", OPTION_SETS)
def test_many_rounds_record_for_record(rules: str) -> None:
    for seed in range(10_000, 11_000):
        compare(new_game(rules, seed), f"{rules} seed {seed}")
    assert mid_round(rules, 400, 77) >= 200


def test_finish_round_without_history_and_the_action_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """finish_round(history=False) (play_game's summary records) moves the State as
    finish_round does except for the history; actions() decodes codes missing from its cache
    (an empty cache, and one filled while it decodes) to the same actions."""
    s = new_game("rummy101(players=3)", 21, match_rounds=2)
    nr = native_round.play_round(s)
    want = [str(a) for a in nr.actions()]
    monkeypatch.setattr(native_round, "_ACTIONS", {})
    assert [str(a) for a in nr.actions()] == want
    assert native_round._ACTIONS and [str(a) for a in nr.actions()] == want
    partial = dict(list(native_round._ACTIONS.items())[:3])
    monkeypatch.setattr(native_round, "_ACTIONS", partial)
    assert [str(a) for a in nr.actions()] == want
    full, bare = s.copy(), s.copy()
    native_round.finish_round(full, nr)
    native_round.finish_round(bare, nr, history=False)
    assert bare == full and bare.round == 1, "the next round dealt alike"
    assert bare.history == s.history and [str(a) for a in full.history[len(s.history):]] == want
    assert bare.round_results() == full.round_results()
    assert bare.round_scores() == full.round_scores()


def test_a_match_falling_back_mid_way_matches_the_python_flow(monkeypatch: pytest.MonkeyPatch) -> None:
    """play_game makes the seats' bots only when a round falls back to the Python flow: a core
    that fails from the second round of a match on gives the Python flow's record."""
    monkeypatch.setenv(native_round.ENV_VAR, "0")
    expected = play_game("rummy101(players=3)", ["greedy"] * 3, 6, 1, match_rounds=3)
    monkeypatch.delenv(native_round.ENV_VAR)
    real = native_round.play_round
    calls = []

    def first_only(s: Any, *a: Any) -> Any:
        calls.append(s.round)
        if s.round >= 1:
            raise RuntimeError("no")
        return real(s, *a)

    monkeypatch.setattr(native_round, "play_round", first_only)
    assert play_game("rummy101(players=3)", ["greedy"] * 3, 6, 1, match_rounds=3) == expected
    assert calls == [0, 1], "round 0 native, round 1 falls back, then the Python flow"


def test_registered_greedy_is_the_probe_bots_answer() -> None:
    """play_game skips making probe bots when registered_greedy says every seat's name makes a
    GreedyBot; wherever it says so, get_bot makes exactly a GreedyBot (and names that need the
    probes, such as option specs or other bots, are left to them)."""
    yes = (["greedy"] * 4, [" Greedy ", "GREEDY"], ["greedy"] * 2)
    no = (["greedy", "random", "greedy", "greedy"], ["greedy:x=1"] * 4, [], ["search"] * 4,
          ["greedy", GreedyBot(random.Random(0))])
    for bots in yes:
        assert native_round.registered_greedy(bots)
        assert all(type(get_bot(b)) is GreedyBot for b in bots)
    for bots in no:
        assert not native_round.registered_greedy(bots)

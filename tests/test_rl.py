"""RL environments (issue 13, docs/rl.md): the action space's exactness, hidden information,
rewards and illegal indices, and the PettingZoo / Gymnasium checkers. The env tests skip when
the ``rl`` extra (pettingzoo, gymnasium) is not installed; the codec and encoder tests need
numpy only."""

from __future__ import annotations

import random
import types
import warnings
from typing import Any

import numpy as np
import pytest
from oracles.generic import deal_hidden_again
from rummy101 import IllegalAction, backend_name
from rummy101.game import new_game, playable_variants
from rummy101.rl import ActionCodec, IllegalActionIndex, Session
from rummy101.rl.observe import ObservationEncoder

# Every playable variant with its rule options (rummy101.rl encodes each of these).
RULES = {
    "rummy101": ["rummy101(players=2)", "rummy101(players=3,threshold=increasing,button_jokers=2)",
                 "rummy101"],
    "classic": ["classic(players=2)", "classic(go_out=narrow,players=3)"],
    "remi": ["remi(players=2)", "remi"],
}
PLAYABLE = [spec for v in playable_variants() for spec in RULES.get(v, [])]
TWO = [RULES[v][0] for v in playable_variants() if v in RULES]
# The pure backend gives the native core's answers (the parity tests); on it (CI's second run)
# the exactness check plays fewer games, to keep this file within its time budget.
GAMES = 1 if backend_name() == "pure" else 3


def _rl() -> types.ModuleType:
    pytest.importorskip("pettingzoo")
    pytest.importorskip("gymnasium")
    from rummy101 import rl

    return rl


def _random_states(spec: str, games: int, seed: int, cap: int = 400, bot: str = "") -> Any:
    """Positions of seeded games played uniformly at random over the legal actions (or by
    ``bot`` on every seat)."""
    from rummy101.bots import get_bot

    rng = random.Random(seed)
    for g in range(games):
        s = new_game(spec, seed * 1000 + g, match_rounds=2)
        bots = [get_bot(bot, random.Random(q)) for q in range(s.n)] if bot else []
        for _ in range(cap):
            if s.is_terminal:
                break
            yield s
            legal = s.legal_actions()
            s.apply(bots[s.current_player].act(s.observation(s.current_player), legal) if bots
                    else rng.choice(legal))


# ---- the action space ---------------------------------------------------------------------------

@pytest.mark.parametrize("spec", PLAYABLE)
def test_codec_is_a_bijection(spec: str) -> None:
    codec = ActionCodec(spec)
    assert [b[1] for b in codec.blocks] == [sum(b[2] for b in codec.blocks[:k]) for k in range(len(codec.blocks))]
    assert sum(b[2] for b in codec.blocks) == codec.n == len({str(a) for a in codec.actions})
    for i in range(codec.n):
        assert codec.index(codec.action(i)) == i
    with pytest.raises(IndexError):
        codec.action(codec.n)


def _check_exact(spec: str, games: int, bot: str = "", seed: int = 11) -> tuple[int, int]:
    """Every legal action of every visited position maps to an index and back, except add /
    retrieve on table melds beyond table_slots; the mask is exactly the mapped legal set;
    sampled indices outside the mask are refused by the engine. Returns (steps, unmapped)."""
    codec = ActionCodec(spec)
    rng = random.Random(5)
    steps = unmapped = probes = 0
    for s in _random_states(spec, games=games, seed=seed, cap=400, bot=bot):
        legal = s.legal_actions()
        idx = []
        for a in legal:
            i = codec.index(a)
            if i < 0:
                assert a.verb in ("add", "retrieve") and a.meld >= codec.table_slots, a
                unmapped += 1
                continue
            assert codec.action(i) == a
            idx.append(i)
        mask = codec.mask(legal)
        assert mask.dtype == np.int8 and sorted(np.flatnonzero(mask).tolist()) == sorted(idx)
        assert len(set(idx)) == len(idx) and (idx or not legal)
        for i in rng.sample(range(codec.n), 3):
            if not mask[i]:
                t = s.copy()
                with pytest.raises(IllegalAction):
                    t.apply(codec.action(i))
                probes += 1
        steps += 1
    assert probes > 0
    return steps, unmapped


@pytest.mark.parametrize(("spec", "bot"), [(spec, "") for spec in PLAYABLE] +
                         [(v, "greedy") for v in playable_variants()])
def test_every_legal_action_has_an_index_and_back(spec: str, bot: str) -> None:
    """docs/rl.md: every legal action maps to an index and back, except add/retrieve on table
    melds beyond table_slots (none in these games). Random play and greedy play (bigger tables,
    more additions and retrievals)."""
    if bot and backend_name() == "pure":
        pytest.skip("greedy games on the pure backend: too slow for the CI budget (native run covers it)")
    steps, unmapped = _check_exact(spec, GAMES, bot)
    assert steps > 100 * GAMES and unmapped == 0


SLOW_RULES = ["rummy101(players=2,threshold=increasing)", "rummy101(players=4,button_jokers=3)",
              "remi(players=3,atu=off)", "remi(doubles=off,tabla=off)",
              "remi(players=2,joly_retrievals=2,joly_atu_deal=14)", "classic(players=4,go_out=narrow)",
              "classic(players=2,target=50)"]


@pytest.mark.slow
@pytest.mark.parametrize("spec", [spec for spec in PLAYABLE + SLOW_RULES
                                  if spec.split("(")[0] in playable_variants()])
@pytest.mark.parametrize("bot", ["", "greedy"])
def test_every_legal_action_has_an_index_and_back_many_games(spec: str, bot: str) -> None:
    steps, unmapped = _check_exact(spec, 20, bot, seed=23)
    assert steps > 1000 and unmapped == 0


def test_actions_beyond_the_table_slots_are_the_only_ones_left_out() -> None:
    codec = ActionCodec("rummy101(players=2)", table_slots=1)
    seen = 0
    for s in _random_states("rummy101(players=2)", games=GAMES + 1, seed=3):
        for a in s.legal_actions():
            if codec.index(a) < 0:
                assert a.verb in ("add", "retrieve") and a.meld >= 1
                seen += 1
    assert seen > 0


# ---- observations ---------------------------------------------------------------------------

@pytest.mark.parametrize("spec", PLAYABLE)
def test_observation_shows_only_the_seats_view(spec: str) -> None:
    ses = Session(spec)
    rng = random.Random(2)
    checked = changed = 0
    for n, s in enumerate(_random_states(spec, games=2, seed=7, cap=250)):
        if n % 5:
            continue
        for seat in range(s.n):
            ses.state = s
            ses._changed()
            want = ses.observe(seat)
            ses.state = deal_hidden_again(s, seat, rng)
            ses._changed()
            got = ses.observe(seat)
            assert np.array_equal(got["observation"], want["observation"]), f"seat {seat} sees hidden pieces"
            assert np.array_equal(got["action_mask"], want["action_mask"])
            assert want["action_mask"].any() == (seat == s.current_player)
            changed += ses.state.racks != s.racks
            checked += 1
    assert checked > 50 and changed > 0  # the hidden pieces did move


@pytest.mark.parametrize("spec", TWO)
def test_an_encoder_kept_over_games_gives_a_new_encoders_arrays(spec: str) -> None:
    """The encoder keeps what changes slowly or at its end from one call to the next (table
    melds, discard piles, Remi's train); kept over games, every seat observing in turn (a train
    or pile that grows, is taken from, broken, turned over, starts again), it gives the array
    of a new encoder at every position."""
    enc = ObservationEncoder(spec)
    for s in _random_states(spec, games=2, seed=4, cap=250):
        for seat in range(s.n):
            obs = s.observation(seat)
            assert np.array_equal(enc.encode(obs), ObservationEncoder(spec).encode(obs))


def test_encoder_at_end_indexes_a_sequence_changed_at_its_end_as_a_new_one() -> None:
    enc = ObservationEncoder("classic(players=2)")
    seen = []
    for items in [(), (3,), (3, 5), (3, 5, 8, 1), (3, 5), (3, 5), (), (7, 7), (9,), (9, 2, 4), (9, 4),
                  (9, 5), (1, 5)]:  # (the same length, another end or start: indexed anew)
        got = enc.at_end("s", items, lambda k, t: 100 * k + t)
        assert got == [100 * k + t for k, t in enumerate(items)]
        seen.append(got)
    assert seen[1] == [3] and seen[3] == [3, 105, 208, 301]  # (the lists handed out unchanged)


@pytest.mark.parametrize("spec", PLAYABLE)
def test_observation_segments(spec: str) -> None:
    enc = ObservationEncoder(spec)
    for s in _random_states(spec, games=1, seed=2, cap=120):
        for seat in range(s.n):
            obs = s.observation(seat)
            x = enc.encode(obs)
            assert x.shape == (enc.size,) and np.all(x >= enc.low) and np.all(x <= enc.high)
            if "doubles_gave" in enc.segments:  # Remi: two copies a double (RO-3, doubles_mine)
                mine = obs.get("doubles_mine", [])
                got = [x[o:o + k].sum() for o, k in (enc.segments[name] for name in (
                    "doubles_gave", "doubles_received", "doubles_offered"))]
                done = sum(e["received"] is not None for e in mine)
                assert got == [2 * done, 2 * done, 2 * (len(mine) - done)]
            o, k = enc.segments["rack"]
            assert x[o:o + k].tolist() == s.racks[seat][:k]
            o, k = enc.segments["table_pieces"]
            assert x[o:o + k].sum() == sum(len(m.tiles) for m in s.table)
            o, k = enc.segments["to_move"]
            assert x[o + (s.current_player - seat) % s.n] == 1


def test_jokers_in_table_melds_are_encoded_by_what_they_stand_for() -> None:
    from rummy101.rl.observe import _joker_stands

    # R10 * R12 -> R11; * Y5 B5 -> R5 or K5; R5 * -> R5; Remi's R12 R13 * -> R1 (high ace)
    assert _joker_stands("run", [9, 52, 11]) == [(10, 1.0)]
    assert _joker_stands("set", [52, 17, 30]) == [(4, 0.5), (43, 0.5)]
    assert _joker_stands("set", [52, 17, 30, 43]) == [(4, 1.0)]
    assert _joker_stands("pair", [4, 52]) == [(4, 1.0)]
    assert _joker_stands("run", [11, 12, 52]) == [(0, 1.0)]


# ---- the environments -------------------------------------------------------------------------------

@pytest.mark.parametrize("spec", TWO)
def test_pettingzoo_api_and_seed(spec: str) -> None:
    rl = _rl()
    from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # dict observations, as PettingZoo's classic envs
        api_test(rl.env(spec), num_cycles=400)
        seed_test(lambda: rl.env(spec), num_cycles=200)
        parallel_api_test(rl.parallel_env(spec, illegal="random"), num_cycles=200)
        parallel_seed_test(lambda: rl.parallel_env(spec, illegal="random"), num_cycles=100)


def test_env_wrapper_answers_as_pettingzoos_order_enforcing_wrapper() -> None:
    """``env()``'s wrapper hands ``last`` and ``step`` straight to the env once it is reset (a
    tenth of a classic step went to PettingZoo's ``__getattr__``, docs/rl.md "Speed"): beside
    PettingZoo's own wrapper around the same env it raises the same errors before a reset,
    prints the same name, and hands out the same steps to the end of an episode and after."""
    rl = _rl()
    import logging

    from pettingzoo.utils.wrappers import OrderEnforcingWrapper
    from rummy101.rl.aec import RummyAEC

    spec, opts = "classic(players=2)", {"max_cycles": 60}
    ours, theirs = rl.env(spec, **opts), OrderEnforcingWrapper(RummyAEC(spec, **opts))
    assert isinstance(ours, OrderEnforcingWrapper) and str(ours) == str(theirs) == "classic_v0"
    for call in (lambda e: e.last(), lambda e: e.step(0), lambda e: e.observe("player_0")):
        errors = []
        for e in (ours, theirs):
            with pytest.raises(Exception) as got:
                call(e)
            errors.append((type(got.value), str(got.value)))
        assert errors[0] == errors[1]
    for e in (ours, theirs):
        e.reset(seed=5)
    rng = np.random.default_rng(5)
    steps = 0
    while theirs.agents:
        a, b = ours.last(), theirs.last()
        assert all(np.array_equal(a[0][k], b[0][k]) for k in ("observation", "action_mask"))
        assert a[1:] == b[1:] and ours.agent_selection == theirs.agent_selection
        legal = np.flatnonzero(a[0]["action_mask"])
        action = None if a[2] or a[3] else int(legal[rng.integers(len(legal))])
        ours.step(action)
        theirs.step(action)
        steps += 1
    assert not ours.agents and steps == 60 + 2  # truncated after 60 steps, then 2 dead steps
    logging.getLogger("pettingzoo.utils.env_logger").disabled = True  # (the warning below)
    try:
        for e in (ours, theirs):  # a step with no agents left: PettingZoo's warning, no change
            e.step(None)
    finally:
        logging.getLogger("pettingzoo.utils.env_logger").disabled = False
    assert ours.agents == theirs.agents == [] and ours.rewards == theirs.rewards


@pytest.mark.parametrize("spec", TWO)
def test_pettingzoo_max_cycles(spec: str) -> None:
    """max_cycles counts game steps. PettingZoo's max_cycles_test has every agent act once per
    cycle with unmasked random actions: that is the parallel form (one parallel step = one game
    step) and its AEC view (parallel_to_aec), with illegal="random" (docs/rl.md)."""
    rl = _rl()
    from pettingzoo.test import max_cycles_test
    from pettingzoo.utils.conversions import parallel_to_aec

    def par(**kw: Any) -> Any:
        return rl.parallel_env(spec, illegal="random", **kw)

    max_cycles_test(types.SimpleNamespace(parallel_env=par, env=lambda **kw: parallel_to_aec(par(**kw))))
    e = rl.env(spec, max_cycles=7)  # the turn-based AEC env: 7 agent steps, then truncated
    e.reset(seed=1)
    for _ in range(7):
        assert not e.truncations[e.agent_selection]
        e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
    assert all(e.truncations.values()) and not any(e.terminations.values())


@pytest.mark.parametrize("spec", TWO)
def test_gymnasium_check_env(spec: str) -> None:
    rl = _rl()
    from gymnasium.utils.env_checker import check_env

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # check_env's warnings are failures here
        check_env(rl.gym_env(spec), skip_render_check=True)  # no spec: render modes below
        check_env(rl.gym_env(spec, opponents="random", seat=1), skip_render_check=True)
        import gymnasium

        name = {"rummy101": "Rummy101", "remi": "Remi", "classic": "Classic"}[spec.split("(")[0]]
        check_env(gymnasium.make(f"rummy101/{name}-v0", rules=spec).unwrapped)  # registered ids


def _play_aec(e: Any, seed: int) -> dict[str, float]:
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        total[agent] += reward
        e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return total


@pytest.mark.parametrize("reward", ["round", "match"])
def test_rewards_sum_to_the_standings(reward: str) -> None:
    rl = _rl()
    e = rl.env("rummy101(players=2)", match_rounds=2, reward=reward, reward_scale=0.5)
    total = _play_aec(e, seed=4)
    game = e.unwrapped.game
    assert game.is_terminal and len(game.round_scores()) == 2
    assert [total[a] for a in e.possible_agents] == [0.5 * t for t in game.standings()]


def test_illegal_indices() -> None:
    rl = _rl()
    e = rl.env("rummy101(players=2)")
    e.reset(seed=1)
    bad = int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"] == 0)[0])
    agent = e.agent_selection
    e.step(bad)  # "lose": the episode ends, the offender gets -1
    assert all(e.terminations.values()) and e.rewards[agent] == -1.0
    assert e.infos[agent] == {"illegal_action": True}
    e = rl.env("rummy101(players=2)", illegal="random", illegal_reward=-2.0)
    e.reset(seed=1)
    e.step(bad)
    assert not any(e.terminations.values()) and e.rewards[agent] == -2.0
    assert len(e.unwrapped.game.history) == 1
    e = rl.env("rummy101(players=2)", illegal="raise")
    e.reset(seed=1)
    with pytest.raises(IllegalActionIndex, match="not legal"):
        e.step(bad)


@pytest.mark.parametrize("spec", TWO)
def test_gym_episode_against_bots_is_reproducible(spec: str) -> None:
    rl = _rl()

    def episode(seed: int) -> tuple[list[float], list[int]]:
        g = rl.gym_env(spec, opponents="greedy", seat=1)
        obs, _ = g.reset(seed=seed)
        rng = np.random.default_rng(seed)
        rewards, picks = [], []
        done = False
        while not done:
            assert np.array_equal(g.action_masks(), obs["action_mask"].astype(bool))
            i = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            picks.append(i)
            obs, r, term, trunc, _ = g.step(i)
            rewards.append(r)
            done = term or trunc
        assert sum(rewards) == g.game.standings()[1]
        return rewards, picks

    assert episode(3) == episode(3)


@pytest.mark.parametrize("variant", playable_variants())
def test_versioned_modules(variant: str) -> None:
    _rl()
    import importlib

    mod = importlib.import_module(f"rummy101.rl.{variant}_v0")
    e = mod.env(rules=f"{variant}(players=3)")
    e.reset(seed=0)
    assert e.metadata["name"] == f"{variant}_v0" and e.possible_agents == ["player_0", "player_1", "player_2"]
    assert mod.raw_env().session.rules.players == 4
    assert mod.gym_env("random", 2, rules=f"{variant}(players=3)").seat == 2
    other = next(v for v in ("rummy101", "classic") if v != variant)
    with pytest.raises(ValueError, match=f"{variant}_v0 plays {variant}"):
        mod.env(rules=other)


def test_render() -> None:
    rl = _rl()
    e = rl.env("rummy101(players=2)", render_mode="ansi")
    e.reset(seed=2)
    assert e.render() == str(e.unwrapped.game) and "seat 1 (21)" in e.render()
    g = rl.gym_env("rummy101(players=2)", render_mode="ansi")
    g.reset(seed=2)
    assert g.render() == str(g.game)
    e = rl.env("rummy101(players=2)")
    e.reset(seed=2)
    assert e.render() is None
    with pytest.raises(ValueError, match="render_mode"):
        rl.env("rummy101", render_mode="rgb_array")


def test_masks_handed_out_are_copies() -> None:
    ses = Session("rummy101(players=2)", illegal="raise")
    ses.new(seed=4)
    seat = ses.current
    obs = ses.observe(seat)
    legal = int(np.flatnonzero(obs["action_mask"])[0])
    obs["action_mask"][:] = 0
    ses.observe(1 - seat)["action_mask"][:] = 1
    assert ses.mask()[legal] == 1
    ses.step(legal)  # still legal: the env kept its own mask
    assert ses.steps == 1


def test_bots_are_not_limited_by_the_table_slots() -> None:
    rl = _rl()
    g = rl.gym_env("rummy101(players=2)", opponents="greedy", table_slots=1, illegal="raise")
    obs, _ = g.reset(seed=8)
    done = False
    while not done:  # the agent discards at once; the greedy bot lays and adds on any meld
        legal = np.flatnonzero(obs["action_mask"])
        discards = [i for i in legal if g.codec.action(i).verb in ("discard", "draw")]
        obs, _, term, trunc, _ = g.step(int((discards or legal)[0]))
        done = term or trunc
    assert len(g.game.table) > 1


def test_without_the_rl_extra_the_error_says_what_to_install() -> None:
    """docs/rl.md's first line without pettingzoo/gymnasium: a ModuleNotFoundError naming the
    extra, not a bare 'No module named gymnasium' from inside the package (a child process, with
    both packages hidden by an import hook, so this process's imports stay as they are)."""
    import os
    import subprocess
    import sys

    code = (
        "import sys\n"
        "class Hide:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in ('gymnasium', 'pettingzoo'):\n"
        "            raise ModuleNotFoundError(f'No module named {name!r}', name=name)\n"
        "sys.meta_path.insert(0, Hide())\n"
        "import rummy101.rl as rl\n"
        "for make in (lambda: rl.env('rummy101(players=2)'), lambda: rl.gym_env('remi')):\n"
        "    try:\n"
        "        make()\n"
        "    except ModuleNotFoundError as e:\n"
        "        print(e.name, '|', e)\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         check=True).stdout.splitlines()
    assert len(out) == 2
    for line in out:
        assert line.startswith("gymnasium |") and "pip install 'rummy101[rl]'" in line

"""A position sampled from the observation of the seat to move, at any point of its own turn,
offers exactly the real position's moves and shows exactly the given observation; its
``reset`` goes back to the same turn start (RO-5, R101-3).

Before, a Remi sample taken after the seat took the discard, broke the train (RO-9.4) or took
the Atu (RO-4) had no undo snapshot: it offered ``tabla``, which RO-11 allows only before any
play of the turn, and no ``reset``. A Remi position with a staged lay-down (RO-8) or a tile
pending a meld (RO-9.4/9.5), and a Rummy 101 position with a staged opening (R101-7/8), were
refused, so a hint asked for in the middle of one's own turn was refused too. The observation
of the seat to move now holds ``own_turn`` (the turn's start, which that seat knows), and the
samplers rebuild the turn from it."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from audit_helpers import play
from rummy101.bots import get_bot
from rummy101.game import new_game, records
from rummy101.game.engine import engine_for
from rummy101.service import api
from rummy101.tiles import Tile, parse_tiles
from test_audit_r101 import pos


def _moves(state: Any) -> list[str]:
    return sorted(map(str, state.legal_actions()))


def _same(real: Any, seat: int, rng: random.Random) -> Any:
    """The sample of ``real`` from ``seat``'s observation, checked against it (moves,
    observation, and the same after a ``reset`` of both when it is offered)."""
    obs = real.observation(seat)
    got = engine_for(real.rules).sample_state(obs, rng)
    assert got.observation(seat) == obs
    assert _moves(got) == _moves(real)
    if "reset" in _moves(real):
        a, b = real.copy(), got.copy()
        a.apply("reset")
        b.apply("reset")
        assert b.observation(seat) == a.observation(seat)
        assert _moves(b) == _moves(a)
    return got


def _kind(obs: dict[str, Any]) -> str:
    ts = obs["turn_state"]
    if ts.get("pending_kind"):
        return f"pending {ts['pending_kind']}"
    if ts.get("staged"):
        return "staged"
    if "own_turn" in obs:
        return f"after {ts['took']}, something to undo"
    return "nothing to undo"


@pytest.mark.parametrize(
    "rules,seeds",
    [
        ("remi(players=4)", range(12)),
        ("remi(players=3)", range(12, 22)),
        ("remi(players=2)", range(22, 34)),
        ("rummy101(players=4)", range(3)),
        ("rummy101(players=2,threshold=increasing)", range(3, 6)),
    ],
)
def test_every_step_of_the_own_turn_samples_to_the_same_moves(rules: str, seeds: range) -> None:
    """Random games (greedy and random moves, the random ones mostly plays, so that staged
    lay-downs, breaks, retrievals and pending tiles come up), checked at every step of every
    turn from the observation of the seat to move, the doubles exchange before play too (RO-3:
    the announced double is hidden): nothing refused, and the sample is the real position as
    far as the seat can tell."""
    seen: Counter[str] = Counter()
    for seed in seeds:
        s = new_game(rules, seed)
        rng = random.Random(seed)
        greedy = get_bot("greedy", random.Random(seed))
        while not s.is_terminal:
            seat = s.current_player
            legal = s.legal_actions()
            obs = s.observation(seat)
            _same(s, seat, random.Random(seed))  # the doubles exchange (RO-3) too
            seen["exchange" if obs["phase"] == "exchange" else _kind(obs)] += 1
            if rng.random() < 0.5:
                s.apply(greedy.act(obs, legal))
                continue
            plays = [a for a in legal if a.verb not in ("draw", "discard", "reset", "decline")]
            s.apply(rng.choice(plays if plays and rng.random() < 0.7 else legal))
    assert seen["staged"] >= 20, seen
    assert sum(k > 0 for k in seen.values()) >= 4, seen
    if rules.startswith("remi"):
        assert seen["pending break"] >= 1, seen
        assert seen["exchange"] >= len(seeds) * s.n, seen  # every seat is asked (RO-3)


def _rest(*used: str) -> str:
    """The stock: the Rummy 101 set less the tiles of ``used``."""
    left = [2] * 53
    for text in used:
        for t in parse_tiles(text):
            left[int(t)] -= 1
    return " ".join(str(Tile(c)) for c in range(53) for _ in range(left[c]))


@pytest.mark.parametrize(
    "steps",
    [
        ["take", "retrieve 0:1 with R11", "run R7 R8 *"],
        ["take", "run R7 R8 *", "retrieve 0:1 with R11"],
    ],
)
def test_a_taken_joker_and_a_retrieved_one_sample_alike(steps: list[str]) -> None:
    """R101-4 with R101-9: a taken joker is used once as many jokers went to the table as were
    retrieved since the take, which no table shows (``own_turn.jokers_retrieved``): after
    "take, retrieve, lay R7 R8 *" the sample said the taken joker was still to be used and
    refused every discard."""
    s = pos(
        racks=["R7 R8 R11 K3", "B1 B2"],
        opened=["melds", "melds"],
        table=[("run", 1, "R10 * R12")],
        phase="take",
        last_discard="*",
        stock=_rest("R7 R8 R11 K3", "B1 B2", "R10 * R12", "*"),
    )
    for step in steps:
        play(s, step)
        _same(s, 0, random.Random(3))
    assert s.observation(0)["turn_state"]["must_use"] is None
    assert "discard K3" in _moves(s)


def _remi_until(seed: int, want: str) -> Any:
    """A Remi game played by greedy until the seat to move has a staged lay-down or a broken
    train tile pending (``want``: "staged" or "pending"), by trying the other moves in a copy."""
    s = new_game("remi(players=2)", seed)
    greedy = get_bot("greedy", random.Random(seed))
    while not s.is_terminal:
        for a in s.legal_actions():
            if a.verb in ("run", "set", "break"):
                t = s.copy()
                t.apply(a)
                ts = t.observation(t.current_player)["turn_state"]
                if ts["staged" if want == "staged" else "pending"]:
                    return t
        s.apply(greedy.act(s.observation(s.current_player), s.legal_actions()))
    raise AssertionError(f"seed {seed}: no {want} position")


@pytest.mark.parametrize("want", ["staged", "pending"])
def test_a_remi_hint_in_the_middle_of_the_own_turn(want: str) -> None:
    """The hint from the observation of a seat with a staged lay-down or a pending tile
    (RO-8, RO-9.4) answers with a turn that plays from there (it answered 400 "a Remi position
    is sampled at the start of a turn or at a discard")."""
    for seed in range(40):
        try:
            s = _remi_until(seed, want)
        except AssertionError:
            continue
        seat = s.current_player
        got = api.hint({"observation": s.observation(seat)})
        assert got["seat"] == seat
        t = s.copy()
        for a in got["turn"]["actions"]:
            if a == "draw":
                break
            t.apply(a)
        return
    raise AssertionError(f"no {want} position in 40 seeds")


def test_a_rummy101_hint_with_a_staged_opening_plans_from_the_turn_start() -> None:
    """The hint from the observation or the record of a seat with a staged opening (R101-7/8)
    answered 400 ("the observed turn has a staged opening: 'open' or 'reset' it first"). It now
    plans the turn from its start (the observation's ``own_turn``, the record's game) and every
    turn it gives begins with ``reset``, which the real game plays."""
    s = new_game("rummy101(players=3)", 1)
    rng = random.Random(1)
    hinted = 0
    while not s.is_terminal and hinted < 3:
        obs = s.observation(s.current_player)
        if obs["turn_state"]["staged"]:
            got = api.hint({"observation": obs, "alternatives": 2})
            # the game record at the same point is planned alike (it said "'open' or 'reset'
            # it first"), from the CLI too: `rummy101 hint` sends its record to api.hint
            assert api.hint({"record": records.to_dict(s), "alternatives": 2}) == got
            for turn in (got["turn"], *got["alternatives"]):
                assert turn["actions"][0] == "reset" and turn["steps"][0]["step"] == "reset"
                t = s.copy()
                for a in turn["actions"]:
                    if a == "draw":
                        break
                    t.apply(a)
            hinted += 1
        legal = s.legal_actions()
        lays = [a for a in legal if a.verb in ("run", "set", "pair")]
        s.apply(rng.choice(lays) if lays and rng.random() < 0.8 else rng.choice(legal))
    assert hinted == 3


def test_an_own_turn_no_game_makes_is_refused() -> None:
    """A turn's start holding other pieces than the rack and table now (a turn only moves
    them) is refused naming the field: the sample took it as it was, its observation showed it
    back unchanged, and its ``reset`` would have dealt a piece twice."""
    s = _remi_until(0, "staged")
    obs = s.observation(s.current_player)
    assert api.hint({"observation": obs})["seat"] == s.current_player
    start = obs["own_turn"]["start"]
    forged = {**obs, "own_turn": {**obs["own_turn"], "start": {**start, "rack": start["rack"][1:]}}}
    with pytest.raises(api.BadRequest, match="'own_turn' does not fit it"):
        api.hint({"observation": forged})

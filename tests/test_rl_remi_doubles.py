"""Remi's RL observation array holds the seat's own part of the doubles exchange (RO-3).

The observation's ``doubles_mine`` names, for the two seats of each swap, the double each gave
and received, and for the announcer the double it offered; the public ``doubles_log`` names
only seats and sizes. The encoder read the log alone, so an agent could not tell which of its
tiles it gave to whom (the search bots' samplers use it). The segments ``doubles_gave`` and
``doubles_received`` (per partner seat, relative to the observing seat, and per tile: copies)
and ``doubles_offered`` (its own double no seat took) now hold it; they come after the older
segments, so those keep their offsets (docs/rl.md)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from rummy101.game import Phase
from rummy101.game.engines.remi.engine import is_big
from rummy101.rl import Session
from rummy101.tiles import Tile

SEGMENTS = ("doubles_gave", "doubles_received", "doubles_offered")


def _first_double(legal: list[Any]) -> Any:
    """Announce or accept the first double the seat may; in play draw, then discard the first
    tile it may (a turn that always ends); else the first legal action (decline)."""
    for verbs in (("announce", "accept"), ("draw",), ("discard",)):
        a = next((a for a in legal if a.verb in verbs), None)
        if a is not None:
            return a
    return legal[0]


def _positions(ses: Session, seed: int, steps: int) -> Iterator[list[tuple[int, int, int, int]]]:
    """Play a seeded deal through the exchange (every seat announcing and accepting whenever it
    may) and ``steps`` more game steps; at each position (the last too) the exchange so far, read
    from the actions played: (announcer, the double offered, acceptor or -1, the double given
    back or -1)."""
    ses.new(seed=seed)
    out: list[tuple[int, int, int, int]] = []
    played = 0
    while ses.state.phase is Phase.EXCHANGE or played < steps:
        yield out
        s = ses.state
        if s.phase is not Phase.EXCHANGE:
            played += 1
        a = _first_double(s.legal_actions())
        if a.verb == "announce":
            out.append((s.current_player, int(a.tiles[0]), -1, -1))
        elif a.verb == "accept":
            out[-1] = (out[-1][0], out[-1][1], s.current_player, int(a.tiles[0]))
        ses.step(ses.codec.index(a))
    yield out


def _swaps(ses: Session, seed: int, steps: int) -> list[tuple[int, int, int, int]]:
    """The exchange of :func:`_positions` once its last position is reached."""
    return list(_positions(ses, seed, steps))[-1]


def _want(swaps: list[tuple[int, int, int, int]], seat: int, n: int) -> dict[str, Counter[Any]]:
    """What the seat's array must show: copies per (partner relative to the seat, tile)."""
    want: dict[str, Counter[Any]] = {k: Counter() for k in SEGMENTS}
    for who, offered, acceptor, back in swaps:
        if acceptor < 0:
            if who == seat:
                want["doubles_offered"][str(Tile(offered))] += 2
            continue
        for me, partner, gave, got in (
            (who, acceptor, offered, back),
            (acceptor, who, back, offered),
        ):
            if me == seat:
                k = (partner - seat) % n
                want["doubles_gave"][k, str(Tile(gave))] += 2
                want["doubles_received"][k, str(Tile(got))] += 2
    return want


def _shown(ses: Session, x: np.ndarray[Any, Any]) -> dict[str, Counter[Any]]:
    """The non-zero values of the three segments, keyed as :func:`_want` keys them."""
    enc = ses.encoder
    out: dict[str, Counter[Any]] = {}
    for name in SEGMENTS:
        o, size = enc.segments[name]
        part = x[o : o + size]
        got: Counter[Any] = Counter()
        for i in np.flatnonzero(part):
            tile = str(Tile(int(i) % 53))
            got[tile if name == "doubles_offered" else (int(i) // 53, tile)] = float(part[i])
        out[name] = got
    return out


@pytest.mark.parametrize(
    ("rules", "seed"), [("remi", 4), ("remi", 3), ("remi(players=3)", 1), ("remi(players=2)", 3)]
)
def test_the_seats_of_a_swap_see_what_they_gave_and_received_and_no_other_seat_does(
    rules: str, seed: int
) -> None:
    ses = Session(rules)
    swaps = _swaps(ses, seed, steps=3 * ses.n)
    assert ses.state.phase is not Phase.EXCHANGE and any(b >= 0 for _, _, b, _ in swaps), swaps
    parts = {q for who, _, acceptor, _ in swaps for q in (who, acceptor) if q >= 0}
    for seat in range(ses.n):
        x = ses.observe(seat)["observation"]
        got = _shown(ses, x)
        assert got == _want(swaps, seat, ses.n), (rules, seed, seat, swaps)
        if seat not in parts:
            assert not any(got.values())
        assert np.all(x >= ses.encoder.low) and np.all(x <= ses.encoder.high)
    if rules == "remi" and seed == 4:
        # seat 0 offered Y5 (no seat took it), then gave B11 for seat 3's K13; seats 1 and 2
        # took no part
        assert swaps == [(0, 17, -1, -1), (3, 51, 0, 36)]
        shown = [_shown(ses, ses.observe(q)["observation"]) for q in range(4)]
        assert shown[0] == {
            "doubles_gave": {(3, "B11"): 2},
            "doubles_received": {(3, "K13"): 2},
            "doubles_offered": {"Y5": 2},
        }
        assert shown[3] == {
            "doubles_gave": {(1, "K13"): 2},
            "doubles_received": {(1, "B11"): 2},
            "doubles_offered": {},
        }
        assert not any(shown[1].values()) and not any(shown[2].values())


def test_every_step_of_the_exchange_shows_the_swaps_so_far() -> None:
    # seed 3: R7 goes from seat 0 to 1, on to 2 and back to 0; R8 from 1 to 0 and on to 2
    ses = Session("remi")
    checked = 0
    for swaps in _positions(ses, 3, steps=0):
        for seat in range(ses.n):
            assert _shown(ses, ses.observe(seat)["observation"]) == _want(swaps, seat, ses.n)
            checked += 1
    assert checked > 30 and sum(b >= 0 for _, _, b, _ in swaps) == 3
    # seat 0 swapped twice, both times small: it gave R7 to seat 1 and R8 to seat 2
    got = _shown(ses, ses.observe(0)["observation"])
    assert got["doubles_gave"] == {(1, "R7"): 2, (2, "R8"): 2}
    assert got["doubles_received"] == {(1, "R8"): 2, (2, "R7"): 2}


def test_the_announcers_array_tells_which_double_it_offered() -> None:
    # the same deal twice, the starter offering one double and then another of the same size:
    # while the offer is open the racks are the same, and only the announcer's array differs
    for seed in range(60):
        ses = Session("remi")
        ses.new(seed=seed)
        offers = [a for a in ses.state.legal_actions() if a.verb == "announce"]
        big = [a for a in offers if is_big(int(a.tiles[0]))]
        small = [a for a in offers if a not in big]
        pair = big[:2] if len(big) >= 2 else small[:2]
        if len(pair) == 2:
            break
    else:
        pytest.fail("no deal whose starter holds two doubles of one size")
    seat = ses.state.current_player
    arrays = []
    for a in pair:
        ses.new(seed=seed)
        ses.step(ses.codec.index(a))
        arrays.append([ses.observe(q)["observation"] for q in range(ses.n)])
    for q in range(ses.n):
        assert np.array_equal(arrays[0][q], arrays[1][q]) == (q != seat), q


def test_the_arrays_are_the_same_in_two_runs() -> None:
    runs = []
    for _ in range(2):
        ses = Session("remi")
        _swaps(ses, 3, steps=8)
        runs.append([ses.observe(q)["observation"] for q in range(ses.n)])
    assert all(np.array_equal(a, b) for a, b in zip(*runs, strict=True))
    o, size = Session("remi").encoder.segments["doubles_gave"]
    assert runs[0][0][o : o + size].sum() == 4  # seat 0 gave two doubles: the run did swap


def test_the_environments_hand_out_the_segments_within_their_spaces() -> None:
    pytest.importorskip("pettingzoo")
    pytest.importorskip("gymnasium")
    from rummy101 import rl

    class Swapper:
        def act(self, observation: Any, legal: list[Any]) -> Any:
            return _first_double(legal)

    ref = Session("remi")
    swaps = _swaps(ref, 4, steps=0)
    e = rl.env("remi")
    e.reset(seed=4)
    ses = e.unwrapped.session
    while ses.state.phase is Phase.EXCHANGE:
        e.step(ses.codec.index(_first_double(ses.state.legal_actions())))
    for q, agent in enumerate(e.agents):
        obs = e.observe(agent)
        assert e.observation_space(agent).contains(obs)
        assert _shown(ses, obs["observation"]) == _want(swaps, q, ses.n)
    g = rl.gym_env("remi", opponents=[Swapper()] * 3, seat=3)
    obs, _ = g.reset(seed=4)
    while g.game.phase is Phase.EXCHANGE:
        assert g.observation_space.contains(obs)
        obs, *_ = g.step(g.codec.index(_first_double(g.game.legal_actions())))
    assert g.observation_space.contains(obs)
    assert _shown(g.session, obs["observation"]) == _want(swaps, 3, 4)

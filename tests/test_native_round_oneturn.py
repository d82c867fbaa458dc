"""The native greedy round (issue 12) against the Python flow on positions built to end in the
finishes R101-12/R101-13 score apart: a seat that opens and finishes in the same turn while
nobody else has opened (*in one turn*: +202 / -404), one that opens
and finishes in the same turn after another seat opened (a normal finish), and one that opens
inside the native round and finishes on a later turn with nobody else opened (a normal finish
that a wrong ``opened_turn`` would score as one in one turn).

Such finishes are rare in dealt games, so the positions are rigged: from a fresh deal or a turn
boundary reached by random play, the current seat's rack is swapped (tile for tile, with the
other racks and the stock, so the tile set stays whole) into runs and sets worth an opening.
Each position is played natively and on the Python flow and compared as
``tests/test_native_round.py`` does (actions, end State including every seat's
``opened_turn``, history, round results and scores); the tests also count that the finishes
they are about really happen.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from rummy101 import available_backends
from rummy101.bots import native_greedy as native_round
from rummy101.game import new_game
from test_native_round import (  # _native: the same autouse fixture (native backend, fast path on)
    OPTION_SETS,
    _native,  # noqa: F401
    compare,
    to_boundary,
)

pytestmark = pytest.mark.skipif("native" not in available_backends(),
                                reason="the native core is not built")

J = 52


def tile_set(s: Any) -> Counter[int]:
    """Every tile of the position: racks, stock, table and discard piles."""
    c: Counter[int] = Counter()
    for r in s.racks:
        c.update({t: k for t, k in enumerate(r) if k})
    c.update(s.stock)
    for m in s.table:
        c.update(m.tiles)
    for d in s.x.discards:
        c.update(d)
    return c


def rig(s: Any, seat: int, want: list[int]) -> bool:
    """Make ``seat``'s rack exactly ``want`` (as many tiles as it holds), each missing tile
    swapped with a spare one from another rack or the stock; False if a tile is not there."""
    rack = s.racks[seat]
    need = Counter(want)
    if sum(need.values()) != sum(rack):
        return False
    missing = [t for t in range(53) for _ in range(max(0, need[t] - rack[t]))]
    spare = [t for t in range(53) for _ in range(max(0, rack[t] - need[t]))]
    for t, u in zip(missing, spare):
        q = next((q for q in range(s.n) if q != seat and s.racks[q][t]), -1)
        if q >= 0:
            s.racks[q][t] -= 1
            s.racks[q][u] += 1
        elif t in s.stock:
            s.stock[s.stock.index(t)] = u
        else:
            return False
        rack[t] += 1
        rack[u] -= 1
    s.invalidate_legal()
    return True


def put_on_stock(s: Any, k: int, t: int) -> bool:
    """Make ``s.stock[k]`` tile ``t``, swapped with a copy lower in the stock or in a rack other
    than the current seat's."""
    if s.stock[k] == t:
        return True
    u = s.stock[k]
    below = [i for i in range(len(s.stock) + k) if s.stock[i] == t]
    if below:
        s.stock[below[0]] = u
    else:
        q = next((q for q in range(s.n) if q != s.current and s.racks[q][t]), -1)
        if q < 0:
            return False
        s.racks[q][t] -= 1
        s.racks[q][u] += 1
    s.stock[k] = t
    s.invalidate_legal()
    return True


def melds(rng: random.Random, size: int) -> list[int] | None:
    """``size`` tiles in random runs (3-5 long) and sets (3-4 colours); None if it did not fit."""
    out: list[int] = []
    while len(out) < size:
        left = size - len(out)
        if rng.random() < 0.6:
            n = min(left, rng.randint(3, 5))
            n = left if left - n in (1, 2) else n
            if n > 13:
                return None
            c, a = rng.randrange(4), rng.randint(0, 13 - n)
            out += [c * 13 + a + i for i in range(n)]
        else:
            n = min(left, rng.randint(3, 4))
            n = (3 if left > 4 else left) if left - n in (1, 2) else n
            if n > 4:
                return None
            k = rng.randrange(13)
            out += [c * 13 + k for c in rng.sample(range(4), n)]
    return out


def valid(want: list[int]) -> bool:
    return all(k <= 2 for k in Counter(want).values())


def same_turn_position(rules: str, rng: random.Random, others_open: bool) -> Any:
    """A turn boundary whose seat holds runs and sets for every tile but the one it discards
    (the starter's first turn: 21 of its 22; a later turn: its 21, the take discarded), or
    None. ``others_open``: somebody else has opened before (else nobody has)."""
    s = new_game(rules, rng.randrange(10**9))
    if (others_open or rng.random() < 0.5) and not to_boundary(
            s, rng, rng.randrange(0, 60 if others_open else 25),
            "greedy" if others_open else "random"):
        return None
    seat = s.current
    if s.x.opened[seat] or any(s.x.opened) != others_open:
        return None
    size = sum(s.racks[seat])
    joker = rng.random() < 0.25
    if joker:  # no room for a joker: a 1-13 run and two four-colour sets, then the joker
        c, a, b = rng.randrange(4), *rng.sample(range(13), 2)
        want = [c * 13 + k for k in range(13)] + [q * 13 + k for k in (a, b) for q in range(4)]
    else:
        want = melds(rng, size - 1 if size == 22 else size)
    if want is None:
        return None
    if len(want) < size:
        want.append(J if joker else rng.randrange(52))
    if not valid(want) or not rig(s, seat, want):
        return None
    if size == 21 and joker and not put_on_stock(s, -1, J):
        return None
    return s


def later_position(rules: str, rng: random.Random) -> Any:
    """Two players, the starter's first turn: the starter holds 18 tiles of runs and sets, two
    tiles a gap apart and two more; the gap tile tops the stock twice, so the starter opens now
    and can finish on its next turn. The other seat holds low tiles (1-5) that cannot open."""
    s = new_game(rules, rng.randrange(10**9))
    seat, other = s.current, (s.current + 1) % s.n
    low = [c * 13 + k for c in range(4) for k in range(5)]
    rng.shuffle(low)
    want = melds(rng, 18)
    if want is None or not rig(s, other, low + [low[0]]):
        return None
    c, a = rng.randrange(4), rng.randint(4, 10)
    gap = c * 13 + a + 1
    want += [gap - 1, gap + 1, rng.randrange(52), rng.randrange(52)]
    if not valid(want) or gap in want or not rig(s, seat, want):
        return None
    if not (put_on_stock(s, -1, gap) and put_on_stock(s, -2, gap)):
        return None
    return s


def play(s: Any, where: str) -> tuple[int, dict[str, Any], int]:
    """Compare ``s`` both ways (test_native_round.compare, and the search rollouts' light
    ending ``score_round`` against the Python flow's scores and result); the turn at the start,
    the round's result and the turn the winner opened on if it opened in the round, else -2
    (``s`` is played to the end)."""
    before = list(s.x.opened_turn)
    tiles, button = tile_set(s), s.x.button_issued
    start = s.turn
    light = s.copy()
    deltas = native_round.score_round(light, native_round.play_round(light))
    compare(s, where)
    res = s.results[-1]
    assert deltas == s.scores[-1] and light.results == s.results, f"{where}: score_round"
    assert sum(tiles.values()) == 106 + button and all(k <= 2 for t, k in tiles.items() if t != J)
    w = res["winner"]
    opened_at = -2 if w is None or before[w] >= 0 else s.x.opened_turn[w]
    assert w is None or opened_at == -2 or start <= opened_at <= s.turn
    return start, res, opened_at


@pytest.mark.parametrize("rules", OPTION_SETS)
def test_one_turn_finishes_record_for_record(rules: str) -> None:
    """Nobody has opened; the seat to play opens and finishes in this turn (R101-13: in one
    turn). A quarter of the racks hold a joker (GreedyBot lays it and discards a low tile, so
    the joker discard's x2 is not reached here)."""
    rng = random.Random(101)
    one_turn = tried = 0
    while tried < 40:
        s = same_turn_position(rules, rng, others_open=False)
        if s is None:
            continue
        tried += 1
        start, res, opened_at = play(s, f"{rules} one-turn position {tried}")
        if res["one_turn"]:
            assert opened_at == start == s.turn and res["winner"] is not None
            assert res["scores"][res["winner"]] == 202 * (2 if res["joker_finish"] else 1)
            one_turn += 1
    assert one_turn >= 30, one_turn


@pytest.mark.parametrize("rules", OPTION_SETS[:3])
def test_same_turn_finishes_after_another_opening_record_for_record(rules: str) -> None:
    """Somebody has opened already; the seat to play opens and finishes in this turn: its
    ``opened_turn`` is the finishing turn but the finish is a normal one."""
    rng = random.Random(13)
    same = tried = 0
    while tried < 30:
        s = same_turn_position(rules, rng, others_open=True)
        if s is None:
            continue
        tried += 1
        start, res, opened_at = play(s, f"{rules} same-turn position {tried}")
        if opened_at == s.turn == start:
            assert not res["one_turn"] and max(res["scores"]) <= 202
            same += 1
    assert same >= 20, same


@pytest.mark.parametrize("rules", [r for r in OPTION_SETS if "players=2" in r])
def test_finishes_a_turn_after_opening_record_for_record(rules: str) -> None:
    """Nobody else opens; the starter opens on turn 0 and finishes on a later turn of its own
    (turn 2 most often): a normal finish, though nobody else has opened."""
    rng = random.Random(7)
    later = tried = 0
    while tried < 40:
        s = later_position(rules, rng)
        if s is None:
            continue
        tried += 1
        _, res, opened_at = play(s, f"{rules} later-finish position {tried}")
        w = res["winner"]
        if w is not None and 0 <= opened_at < s.turn and not any(
                o for q, o in enumerate(s.x.opened) if q != w):
            assert not res["one_turn"] and res["scores"][w] == 101 * (1 + res["joker_finish"])
            later += 1
    assert later >= 20, later

"""The native greedy round (cpp/src/round101.cpp) against the Python flow from positions built by
hand to reach one rule or policy case each, cases that dealt and random positions reach too
rarely for tests/test_native_round.py to notice a change in them (each was found by planting a
one-line fault in round101.cpp that every other test let pass).

Each position is a turn boundary of a 2-4 player rummy101 game: the racks, table, openings and
last discard given in notation, every other tile dealt at random to the other racks and the
stock. It is played natively and on the Python flow and compared as ``compare`` does (every
action, the end State, history, results and scores); each test also checks that the case it is
about is really reached.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from rummy101 import available_backends
from rummy101.game import new_game
from rummy101.game.phase import Phase
from rummy101.game.table import PAIR, RUN, SET, TableMeld
from rummy101.tiles import parse_tiles
from test_native_round import (  # _native: the same autouse fixture (native backend, fast path on)
    _native,  # noqa: F401
    compare,
    python_round,
)

pytestmark = pytest.mark.skipif(
    "native" not in available_backends(), reason="the native core is not built"
)

J = 52
KINDS = {"run": RUN, "set": SET, "pair": PAIR}


def position(
    rules: str,
    racks: dict[int, str],
    table: list[tuple[str, int, str]],
    opened: list[int],
    last: str | None = None,
    seed: int = 0,
    stock: int = 20,
    others: int = 9,
    thr: tuple[int, int] | None = None,
) -> Any:
    """A turn boundary of ``rules`` (turn 7): seat 0 to take.

    ``racks``: seat -> tiles (the seats not given get ``others`` random tiles); ``table``:
    (kind, owner, tiles) in table order; ``opened``: 0 not, 1 melds, 2 pairs per seat (opened on
    turn 3); ``last``: the last discard of the seat before 0 (None: no discard to take);
    ``stock`` random tiles left; ``thr``: the thresholds (points, pairs)."""
    s = new_game(rules, seed)
    n = s.n
    pool = [c for c in range(52) for _ in range(2)] + [J, J]
    melds = []
    for kind, owner, text in table:
        tiles = tuple(int(t) for t in parse_tiles(text))
        melds.append(TableMeld.build(KINDS[kind], owner, tiles))
        for t in tiles:
            pool.remove(t)
    given = {q: [int(t) for t in parse_tiles(text)] for q, text in racks.items()}
    for tiles in given.values():
        for t in tiles:
            pool.remove(t)
    if last is not None:
        pool.remove(int(parse_tiles(last)[0]))
    rng = random.Random(seed)
    rng.shuffle(pool)
    rs = []
    for q in range(n):
        r = [0] * 53
        for t in given[q] if q in given else [pool.pop() for _ in range(others)]:
            r[t] += 1
        rs.append(r)
    s.racks, s.sizes, s.table = rs, [sum(r) for r in rs], melds
    s.stock = [pool.pop() for _ in range(stock)]
    s.current, s.turn, s.phase = 0, 7, Phase.TAKE
    x = s.x
    x.took, x.taken, x.taken_base, x.staged_from, x.staged_kind, x.snap = "", -1, 0, -1, 0, None
    x.turn_table_start = len(melds)
    x.opened, x.opened_turn = list(opened), [3 if o else -1 for o in opened]
    x.discards, x.last_discard = [[] for _ in range(n)], -1
    if last is not None:
        x.last_discard = int(parse_tiles(last)[0])
        x.discards[n - 1].append(x.last_discard)
    if thr is not None:
        x.thr_melds, x.thr_pairs = thr
    s.history = []
    s.invalidate_legal()
    return s


def first_turn(s: Any) -> list[str]:
    """The Python flow's actions of seat 0's turn from ``s`` (``s`` unchanged)."""
    acts = python_round(s.copy())
    return acts[: acts.index(next(a for a in acts if a.startswith("discard"))) + 1]


def test_a_taken_joker_laid_then_a_retrieval_is_used_r101_4_r101_9() -> None:
    """R101-4 with R101-9: seat 0 (not opened) takes the joker seat 1 discarded, opens with it
    (B5 B6 *), then retrieves the joker of R8 * B8 with K8. The taken joker went to the table, so
    it is used though the table holds no more jokers than at the take (the retrieved one may stay
    on the rack): the bot lays K3 K4 * next. The native round read the taken joker as still to use
    there (jokers on the table on balance) and added the retrieved joker to a meld instead."""
    s = position(
        "rummy101(players=2)",
        {0: "R10 R11 R12 R13 Y9 Y10 Y11 Y12 B5 B6 K8 K3 K4 R2"},
        [("set", 1, "R8 * B8")],
        opened=[0, 1],
        last="*",
        seed=5,
    )
    turn = first_turn(s)
    assert turn[0] == "take" and "run B5 B6 *" in turn and "retrieve 0:1 with K8" in turn
    assert turn[turn.index("retrieve 0:1 with K8") + 1] == "run K3 K4 *"
    compare(s, "taken joker, then a retrieval")

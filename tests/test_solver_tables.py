"""The native solver's per-rack tables (its memo and transition lists, kept per thread and reset
per rack by a generation stamp) do not keep the size of the hardest rack the thread ever solved:
one Remi rack in ~2,000 ``greedy,random`` games grew the memo to 2^18 slots, 14 MB that a sim
worker held for the rest of its run (docs/simulation.md, Memory). The next solve starts a table
grown past 2^16 slots afresh, and gives the same answers."""

from __future__ import annotations

import pytest
from rummy101 import Rules, _backend
from rummy101.tiles import counts_of, parse_tiles

pytestmark = pytest.mark.skipif(
    "native" not in _backend.available_backends(), reason="the native core is not built"
)

# a random bot's 72-tile Remi rack from game ~2,000 of `rummy101 sim --rules "remi(players=2)"
# --bots greedy,random --seed 11`, valued with the end values (RO-12), as the engine asks
BIG = counts_of(
    parse_tiles(
        "R1 R2 R2 R3 R3 R4 R4 R5 R5 R6 R6 R7 R8 R8 R9 R11 R11 R12 R13 Y1 Y1 Y2 Y3 Y3 Y4 Y5 Y6 Y6 "
        "Y7 Y7 Y8 Y8 Y9 Y10 Y10 Y12 Y12 Y13 B1 B1 B2 B3 B3 B4 B4 B6 B7 B9 B10 B10 B12 B13 B13 K1 "
        "K1 K2 K4 K5 K5 K6 K7 K8 K9 K10 K10 K11 K11 K12 K12 K13 K13 *"
    )
)
SMALL = [0] * 52 + [1]
KEEP = (1 << 16) * 56  # 2^16 memo slots of 56 bytes


def test_a_big_racks_memo_is_released_by_the_next_solve() -> None:
    core = _backend._load("native")
    cr = _backend.core_rules(Rules.parse("remi(players=2)"), "penalty", "native")
    first = core.solve_melds(cr, BIG, False, -1, False)
    grown = core._solver_table_bytes()
    assert grown["memo"] >= 4 * KEEP  # the rack needs a big memo (2^18 slots)
    assert core.solve_melds(cr, SMALL, False, -1, False) == (0, [])
    after = core._solver_table_bytes()
    assert after["memo"] <= KEEP and after["memo2"] <= KEEP
    assert after["tc"] <= grown["tc"] and after["tc2"] <= grown["tc2"]
    # the same answer from the fresh table, which grows again for it
    assert core.solve_melds(cr, BIG, False, -1, False) == first
    assert core._solver_table_bytes()["memo"] == grown["memo"]


def test_table_bytes_name_every_table() -> None:
    core = _backend._load("native")
    got = core._solver_table_bytes()
    assert set(got) == {"memo", "memo2", "tc", "tc2", "raw", "keyed", "rebuild"}
    assert all(isinstance(v, int) and v > 0 for v in got.values())

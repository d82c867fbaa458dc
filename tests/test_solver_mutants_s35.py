"""Solver behaviour the thirty-fifth mutation round found unpinned (python/rummy101/_pure/solver.py
and its twin cpp/src/solver.cpp). Each rack is built by hand, its exact answer derived in the
test's docstring and checked against the integer program (tests/reference.py); each test fails
on one planted change in the pure twin that the fast solver tests let pass. Five of those changes
passed the whole default solver suite (the ace that vanishes at 14, the run that takes the next
tile, the single-Joly set cut, that cut with must_use of the Joly, the batch front end's negative
pairs threshold); the others only its random sweeps (test_solve_parity's 10,000 racks,
test_solve_reference) caught, which these tests pin with one rack each."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest
from reference import reference_best
from rummy101 import Rules, _backend
from rummy101.rules import Valuation
from rummy101.tiles import JOKER_CODE, Tile, counts_of
from test_solve_dense import same_budget_edge

R101 = Rules.parse("rummy101")
REMI = Rules.parse("remi")
J = JOKER_CODE
RUN, SET = 1, 2


def counts(rules: Rules, rack: str) -> list[int]:
    return counts_of(int(t) for t in rules.parse_rack(rack))


def solve(
    backend: str,
    rules: Rules,
    rack: str,
    *,
    valuation: Valuation = "open",
    keep: bool = False,
    must_use: int = -1,
    require_run: bool = False,
) -> tuple[int, list[Any]]:
    """solve_melds of one backend's core; the value is checked against the integer program."""
    core = _backend._load(backend)
    cr = _backend.core_rules(rules, valuation, backend)
    cs = counts(rules, rack)
    value, melds = core.solve_melds(cr, cs, keep, must_use, require_run)
    assert value == reference_best(
        rules, cs, valuation=valuation, keep=keep, must_use=must_use, require_run=require_run
    )
    return value, [(kind, list(tiles), list(stand)) for kind, tiles, stand in melds]


@pytest.fixture(params=_backend.available_backends())
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def test_must_use_a_joly_lays_one_and_keeps_the_other_ro_7(backend: str) -> None:
    """must_use the joker means at least one joker laid, not all of them. Remi R5 R6 R7 K9 * *
    keeping a tile: R5-R6-R7-*(8) (RO-7: three real tiles hold one Joly) is 20 and K9 and a Joly
    stay; a second Joly needs four real tiles in its meld (RO-7), which the rack has not."""
    assert solve(backend, REMI, "R5 R6 R7 K9 * *", keep=True, must_use=J) == (
        20,
        [(RUN, [4, 5, 6, J], [4, 5, 6, 7])],
    )


def test_must_use_ace_laid_high_needs_its_run_to_reach_it_ro_6(backend: str) -> None:
    """RO-6: an ace laid high closes a run ...-12-13-1 of its colour. Remi R1 R10 R11 R12 R13 Y13
    B13: the best is R10-R11-R12 (30) + the set R13 Y13 B13 (30) = 60, the ace left; when R1 must
    be laid (a taken discard, R101-4/RO-9), R10-R11-R12-R13-R1 = 50 (Y13 B13 left): the ace cannot
    be counted as laid high after its run closed at 12."""
    assert solve(backend, REMI, "R1 R10 R11 R12 R13 Y13 B13") == (
        60,
        [(RUN, [9, 10, 11], [9, 10, 11]), (SET, [12, 25, 38], [12, 25, 38])],
    )
    assert solve(backend, REMI, "R1 R10 R11 R12 R13 Y13 B13", must_use=0) == (
        50,
        [(RUN, [9, 10, 11, 12, 0], [9, 10, 11, 12, 0])],
    )


def test_of_two_equal_runs_the_earlier_one_takes_the_next_tile(backend: str) -> None:
    """The canonical arrangement (both backends, tests/test_solve_parity.py): R101 R1 R2 R2 R3 R3 R4
    R4 R5 lays every tile (24) as R1-R2-R3-R4 and R2-R3-R4 at 4, then R5 goes to one of them:
    the run that started first, R1-..-R5 + R2-R3-R4, not R1-..-R4 + R2-..-R5 (as valuable)."""
    assert solve(backend, R101, "R1 R2 R2 R3 R3 R4 R4 R5") == (
        24,
        [(RUN, [0, 1, 2, 3, 4], [0, 1, 2, 3, 4]), (RUN, [1, 2, 3], [1, 2, 3])],
    )


def test_a_high_ace_run_with_jolys_at_12_and_13_needs_four_real_tiles_ro_6_ro_7(
    backend: str,
) -> None:
    """RO-6/RO-7 at the limit: R9 R10 R11 *(12) *(13) R1 holds four real tiles and two Jolys, just
    enough; laid high (…12-13-1) it is 5 + 10 + 10 + 10 + 10 + 10 = 55. Without R9 the same run
    would hold three real tiles for two Jolys: refused, so R10 R11 *(12) = 30 is the best."""
    assert solve(backend, REMI, "R1 R9 R10 R11 * *") == (
        55,
        [(RUN, [8, 9, 10, J, J, 0], [8, 9, 10, 11, 12, 0])],
    )
    assert solve(backend, REMI, "R1 R10 R11 * *") == (30, [(RUN, [9, 10, J], [9, 10, 11])])


@pytest.mark.parametrize(
    "rack", ["R5 R6 R7 R7 Y5 Y7 B5 B7 K5 *", "R11 R12 R13 Y11 Y12 Y13 K11 K13 * *"]
)
def test_a_joly_set_beside_a_tile_left_out_is_cut_alike_on_both_backends(rack: str) -> None:
    """The work budget (issue 11): a Joly given to a set while a real tile of that number stays
    out of every set is dominated (cpp/src/solver.cpp vsets), also for a single Joly; the two
    backends cut it alike, so the budget runs out at the same node (keep a tile, RO-13; the
    racks of a random hunt whose node count moves when the cut waits for two Jolys)."""
    if "native" not in _backend.available_backends():
        pytest.skip("native core not built")
    same_budget_edge((REMI, "open", counts(REMI, rack), True, -1, False, rack))


def test_one_joker_makes_four_tiles_meldable_r101_6(backend: str) -> None:
    """The search's tile bound lets each joker make up to four tiles meldable: R101 R9 R10 R12 R13
    * has no meld without the joker, and with it (as R11) the run R9-..-R13 = 55 lays all four."""
    assert solve(backend, R101, "R9 R10 R12 R13 *") == (
        55,
        [(RUN, [8, 9, J, 11, 12], [8, 9, 10, 11, 12])],
    )


def test_keeping_a_tile_with_an_ace_that_fits_only_high_ro_6_ro_13(backend: str) -> None:
    """An ace that fits no meld low still fits 12-13-1 (RO-6), so "keep a tile to discard" (RO-13)
    still binds: Remi R1 R12 R13 keeping one lays nothing (R12-R13-R1 would use the whole rack);
    with Y5 beside it, R12-R13-R1 = 30 and Y5 stays."""
    assert solve(backend, REMI, "R1 R12 R13", keep=True) == (0, [])
    assert solve(backend, REMI, "R1 R12 R13 Y5", keep=True) == (
        30,
        [(RUN, [11, 12, 0], [11, 12, 0])],
    )


@pytest.mark.parametrize("thresholds", [(-1, 5), (101, -1)])
def test_the_batch_front_end_refuses_a_threshold_below_zero_on_both_backends(
    both: tuple[ModuleType, ModuleType], thresholds: tuple[int, int]
) -> None:
    """opening_answers_json (the service's fast path, python/rummy101/_pure/batch.py and its
    native twin) refuses a negative opening threshold or pairs threshold (R101-7, R101-8) alike,
    with the same message, rather than answering on one backend."""
    import numpy as np

    rack = R101.parse_rack("R1 R2 R3 K9")
    counts_row = np.array([counts_of(int(p) for p in rack)], dtype=np.uint8)
    codes = np.array([int(p) for p in rack], dtype=np.uint8)
    offsets = np.array([0, len(rack)], dtype=np.int64)
    keeps = np.ones(1, dtype=np.uint8)
    tokens = [str(Tile(c)) for c in range(53)]
    threshold, pairs_threshold = thresholds
    for name, mod in zip(("native", "pure"), both, strict=True):
        cr = _backend.core_rules(R101, "open", name)
        with pytest.raises(ValueError, match="thresholds must be >= 0"):
            mod.opening_answers_json(  # type: ignore[attr-defined]
                cr,
                counts_row,
                codes,
                offsets,
                keeps,
                -1,
                False,
                1000,
                threshold,
                pairs_threshold,
                True,
                tokens,
                '"rummy101"',
            )


def test_must_use_the_joly_in_remi_binds_at_the_high_ace_end_ro_6_ro_7(backend: str) -> None:
    """must_use the joker (code 52: a Joly must be laid) in Remi, whose search ends at 14 (RO-6):
    R5 Y9 * has no meld for the Joly (RO-7 needs two real tiles beside it, of one number or one
    colour in a row), so there is no arrangement; laying nothing is not one."""
    assert solve(backend, REMI, "R5 Y9 *", must_use=J) == (-1, [])


def test_must_use_the_joly_is_not_cut_as_a_dominated_set_ro_7(backend: str) -> None:
    """A Joly in a set while a real tile of that number stays out is dominated, except when the
    Joly must be laid: Remi R5 Y5 B5 * keeping a tile, the Joly laid: R5 Y5 *(as B5) = 15 with B5
    kept (all four would leave nothing to keep, RO-13; R5 Y5 B5 would not lay the Joly)."""
    assert solve(backend, REMI, "R5 Y5 B5 *", keep=True, must_use=J) == (
        15,
        [(SET, [J, 17, 30], [4, 17, 30])],
    )

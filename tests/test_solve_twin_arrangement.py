"""The relaxed twin's own arrangement as the answer (issue 11, thirty-sixth round; RULES.md RO-6,
RO-7, RO-8). When a rack has a relaxed twin (several reservations of high aces, must_use of a
tile, two Jolys), the solver first rebuilds the twin's first arrangement of its value and answers
with it when the search itself could have made it. The twin lays the rack without the joker
ratio, keep, must_use and require_run, and holds the reservable aces at 1 and at 14 at once, so
each rack below is one whose twin arrangement breaks exactly one of those, and the answer must
come from the search instead: the integer program's optimum, with an arrangement that passes
every check (a planted change that lets any one of them through fails its case here)."""

from __future__ import annotations

import pytest
from reference import reference_best
from rummy101 import Rules, _backend
from rummy101.errors import WorkBudgetExceeded
from rummy101.tiles import counts_of, parse_tiles
from test_solve_reference import check_arrangement

REMI = Rules.parse("remi")

# (what the twin's first arrangement breaks, rack, keep, must_use, require_run)
CASES = [
    (
        "an ace laid at 1 and at 14 (RO-6)",
        "R3 R3 R9 R9 R13 K1 K2 K3 K9 K11 K12 K13 K13",
        True,
        None,
        True,
    ),
    (
        "two Jolys in a meld of fewer than four real tiles (RO-7)",
        "R1 R12 R13 Y2 Y11 Y13 * *",
        True,
        None,
        True,
    ),
    ("no tile kept for the discard", "Y1 Y5 Y12 Y12 Y13 K5 K12 * *", True, None, False),
    (
        "the must-use tile not laid",
        "R4 R9 R10 Y1 Y3 Y3 Y5 Y7 B1 B1 B2 B2 B3 B4 B5 B6 B7 B7 B8 K6 K8 * *",
        True,
        "Y5",
        True,
    ),
    ("no run (RO-8)", "R11 Y11 Y13 B1 B11 B12 K10 K13 K13", True, "R11", True),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_twin_arrangement_that_breaks_a_rule_is_not_the_answer(backend: str, case: tuple) -> None:
    _why, rack, keep, mu_text, require_run = case
    counts = counts_of(parse_tiles(rack))
    mu = parse_tiles(mu_text)[0] if mu_text else -1
    cr = _backend.core_rules(REMI, "open")
    got = _backend.core().solve_melds(cr, counts, keep, mu, require_run)
    want = reference_best(
        REMI, counts, valuation="open", keep=keep, must_use=mu, require_run=require_run
    )
    assert got[0] == want
    check_arrangement(REMI, "open", counts, keep, mu, require_run, got)


def test_twin_arrangement_answers_without_the_reservation_passes(backend: str) -> None:
    """A rack of the shared joker racks whose twin arrangement fits: the answer costs the twin's
    search and its rebuild, 88 nodes, where the reservation passes and a second rebuild took 194
    (nodes are counted alike on both backends, so a budget of 120 tells the two apart)."""
    rack = "R1 R6 R8 R13 Y3 Y4 Y4 Y8 B2 B6 B7 B9 B12 K1 K3 K9 K10 K11 K11 K13 * *"
    counts = counts_of(parse_tiles(rack))
    cr = _backend.core_rules(REMI, "open")
    got = _backend.core().solve_melds(cr, counts, True, -1, True, 120)
    assert got[0] == reference_best(REMI, counts, valuation="open", keep=True, require_run=True)
    check_arrangement(REMI, "open", counts, True, -1, True, got)


def test_reservations_searched_once_when_the_twin_arrangement_does_not_fit(backend: str) -> None:
    """A rack of the shared joker racks (racks_20_plus_2_jokers) with two reservations of high
    aces, whose twin arrangement lays an ace at both ends and which no reservation lays for the
    twin's value, top (its best lay-down is 15 below it): each reservation is searched once, with
    top as its stop value (forty-fifth round), 114 nodes, where a first pass that asked each for
    top alone and a second that searched them all below it took 128. Nodes are counted alike on
    both backends, so the budget tells the two apart."""
    rack = "R1 R4 R9 R9 R12 Y1 Y1 Y9 Y9 Y11 B2 B4 B7 B10 B11 K2 K4 K5 K7 K11 * *"
    counts = counts_of(parse_tiles(rack))
    cr = _backend.core_rules(REMI, "open")
    core = _backend.core()
    got = core.solve_melds(cr, counts, True, -1, True, 114)
    assert got[0] == reference_best(REMI, counts, valuation="open", keep=True, require_run=True)
    check_arrangement(REMI, "open", counts, True, -1, True, got)
    with pytest.raises(WorkBudgetExceeded):
        core.solve_melds(cr, counts, True, -1, True, 113)

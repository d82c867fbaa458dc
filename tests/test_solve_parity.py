"""Native and pure solvers agree: the same value AND the same melds in the same order, and the
same errors (STYLE.md: parity as a fixture). Hypothesis generates racks that stay within a few
numbers and colours (dense: many overlapping runs and sets), with jokers and Remi high aces.

CI: >= 10,000 racks per solver (small racks, so that the pure backend stays fast);
``pytest -m slow`` runs larger racks.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from parity import same
from rummy101 import Rules, _backend

R101 = Rules.parse("rummy101")
REMI = Rules.parse("remi")
CLASSIC = Rules.parse("classic")
CI = settings(max_examples=10_000, deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
SLOW = settings(max_examples=3_000, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@st.composite
def racks(draw: Any, max_tiles: int = 6, max_jokers: int = 2) -> tuple[Rules, str, list[int], bool, int, bool]:
    """(rules, valuation, counts, keep, must_use, require_run) with a dense-ish rack."""
    rules = draw(st.sampled_from([R101, REMI, CLASSIC]))
    valuation = draw(st.sampled_from(["open", "penalty"]))
    lo = draw(st.integers(1, 11))
    width = draw(st.integers(2, 5))
    numbers = [n for n in range(lo, min(13, lo + width) + 1)] + [1, 13]
    colours = draw(st.lists(st.integers(0, 3), min_size=1, max_size=4, unique=True))
    codes = draw(st.lists(st.tuples(st.sampled_from(colours), st.sampled_from(numbers)),
                          max_size=max_tiles))
    counts = [0] * 53
    for c, n in codes:
        code = c * 13 + n - 1
        if counts[code] < rules.copies:
            counts[code] += 1
    if rules.max_rack_jokers:
        # 0-2 jokers in CI; the slow test adds a third (joker button, R101-10)
        choices = [j for j in (0, 0, 1, 1, 2, 3) if j <= max_jokers]
        counts[52] = min(rules.max_rack_jokers, draw(st.sampled_from(choices)))
    keep = draw(st.booleans())
    present = [k for k in range(53) if counts[k]] or [-1]
    must_use = draw(st.one_of(st.just(-1), st.sampled_from(present)))
    require_run = draw(st.booleans())
    return rules, valuation, counts, keep, must_use, require_run


@pytest.fixture(autouse=True)
def _need_native() -> None:
    if "native" not in _backend.available_backends():
        pytest.skip("native core not built")


@CI
@given(racks())
def test_solve_melds_parity(case: tuple[Rules, str, list[int], bool, int, bool]) -> None:
    """solve_melds: same value and same melds in the same canonical order on both backends."""
    rules, val, counts, keep, mu, rr = case
    same("solve_melds", counts, keep, mu, rr, rules=rules, valuation=val)  # type: ignore[arg-type]


@CI
@given(racks(max_tiles=14))
def test_max_pairs_parity(case: tuple[Rules, str, list[int], bool, int, bool]) -> None:
    """max_pairs (R101-8): same count and same pairs on both backends."""
    _, _, counts, keep, mu, _ = case
    same("max_pairs", counts, keep, mu)


@pytest.mark.slow
@SLOW
@given(racks(max_tiles=14, max_jokers=3))
def test_solve_melds_parity_large(case: tuple[Rules, str, list[int], bool, int, bool]) -> None:
    """Larger racks (up to 14 tiles + 3 jokers)."""
    rules, val, counts, keep, mu, rr = case
    same("solve_melds", counts, keep, mu, rr, rules=rules, valuation=val)  # type: ignore[arg-type]


def test_batch_parity_and_equals_single() -> None:
    """solve_melds_batch: one answer per row, equal to solve_melds, on both backends."""
    rng = np.random.default_rng(1)
    rows = np.zeros((40, 53), dtype=np.uint8)
    for i in range(40):
        for code in rng.choice(52, size=10, replace=False):
            rows[i, code] = rng.integers(1, 3)
        rows[i, 52] = rng.integers(0, 3)
    for rules in (R101, REMI):
        batch = same("solve_melds_batch", rows, True, -1, rules.opening_needs_run, rules=rules)
        core = _backend._load("native")
        cr = _backend.core_rules(rules, "open", "native")
        assert batch == [core.solve_melds(cr, [int(x) for x in r], True, -1, rules.opening_needs_run)
                         for r in rows]


@pytest.mark.parametrize("args", [
    ([0] * 52, False, -1, False),                       # 52 entries
    ([3] + [0] * 52, False, -1, False),                 # three copies of R1
    ([0] * 52 + [7], False, -1, False),                 # seven jokers
    ([0] * 53, False, 53, False),                       # must_use out of range
    ([0] * 53, False, -2, False),
    ([-1] + [0] * 52, False, -1, False),                # negative count
])
def test_solve_melds_errors_parity(args: tuple[Any, ...]) -> None:
    """Out-of-range input raises CoreInputError with the same message on both backends."""
    same("solve_melds", *args, rules=R101)
    same("max_pairs", args[0], args[1], args[2])


def test_batch_shape_error_parity() -> None:
    same("solve_melds_batch", np.zeros((3, 52), dtype=np.uint8), True, -1, False, rules=R101)
    same("solve_melds_batch", np.zeros(53, dtype=np.uint8), True, -1, False, rules=R101)


def test_remi_ratio_limit_error_parity() -> None:
    """A CoreRules with a joker ratio and many jokers is outside the solver's state encoding:
    both backends refuse it the same way (remi racks hold at most 2 Jolys, RO-1)."""
    same("solve_melds", [1] + [0] * 51 + [6], False, -1, False, rules=REMI)

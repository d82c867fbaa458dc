"""The coverage of the 95% intervals (bench/interval_coverage.py; docs/simulation.md "How honest
are the intervals", docs/bots.md "Strength ladder"): the ladder's interval against the baseline
is one function the table and the coverage check share, and small fixed-seed runs of the check
cover their long-run truth about as often as a 95% interval should."""

from __future__ import annotations

import importlib.util
import math
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _load(name: str) -> ModuleType:
    sys.path.insert(0, str(ROOT / "bench"))  # interval_coverage imports bench/ladder.py
    try:
        spec = importlib.util.spec_from_file_location(
            f"{name}_under_test", ROOT / "bench" / f"{name}.py"
        )
        assert spec is not None and spec.loader is not None
        mod = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = mod  # dataclasses look their module up
        spec.loader.exec_module(mod)
        return mod
    finally:
        sys.path.remove(str(ROOT / "bench"))


coverage = _load("interval_coverage")
ladder = coverage.ladder


def _seat(deal: int, seat: int, points: float, baseline: float) -> object:
    return ladder.Seat("x", deal, seat, points, baseline, 0, 0, 0.0)


def test_baseline_interval_is_the_summary_s() -> None:
    """Clustered by deal: the seats of a deal are averaged first (deal 0: +10 and +30 give +20,
    deal 1: −10 and +10 give 0, deal 2: +40), then mean ± t(0.975, 2) · sd / sqrt(3) over the
    three deals, the numbers the ladder's table prints."""
    seats = [
        _seat(0, 0, 10, 0),
        _seat(0, 1, 30, 0),
        _seat(1, 0, -10, 0),
        _seat(1, 1, 20, 10),
        _seat(2, 0, 40, 0),
        _seat(2, 1, 40, 0),
    ]
    mean, lo, hi, deals = ladder.baseline_interval(seats)
    half = 4.302652729911275 * 20 / math.sqrt(3)  # sd of 20, 0, 40 is 20
    assert deals == 3 and mean == 20
    assert math.isclose(lo, 20 - half) and math.isclose(hi, 20 + half)
    assert f"[{lo:+7.1f}, {hi:+7.1f}]" in ladder.summary("x", seats)


def test_one_deal_has_no_interval() -> None:
    mean, lo, hi, deals = ladder.baseline_interval([_seat(0, 0, 5, 1), _seat(0, 1, 3, 1)])
    assert (mean, deals) == (3, 1) and math.isnan(lo) and math.isnan(hi)
    assert "- (1 deal)" in ladder.summary("x", [_seat(0, 0, 5, 1)])


@pytest.mark.many_games
def test_sim_intervals_cover_their_truth() -> None:
    """80 runs of 20 games (seeds 1..80) of two greedy bots against 3,000 games of seed 10**6:
    the finish rate and best rate (Wilson) and the mean score (t corrected for skewness) of seat
    0 cover the long run's value in 76, 77 and 71 of the 80 (95% intervals: 76 expected; the
    plain t interval covered 72). The bound of 66 holds with
    margin; an interval half as wide (a 68% one) would cover about 54."""
    rows = coverage.sim_case("rummy101(players=2)", "greedy,greedy", 20, 80, 3000, None)
    by = {r.label.split(": ", 1)[1]: r for r in rows}
    for label in (
        "finish rate (Wilson, rounds)",
        "best rate (Wilson, games)",
        "mean score (Hall, games)",
    ):
        assert by[label].reps == 80
        assert 66 <= by[label].hits <= 80, (label, by[label].hits)
    assert by["best rate (Wilson, games)"].markdown().endswith("| 0.963 [0.895, 0.987] |")


@pytest.mark.many_games
def test_ladder_case_counts_its_repetitions() -> None:
    rows = coverage.ladder_case("rummy101(players=2)", "random", "greedy", 4, 5, 20, 1)
    assert [r.reps for r in rows] == [5, 5]
    assert all(0 <= r.hits <= 5 for r in rows)
    assert rows[0].label.endswith("vs baseline (t, deals)")


@pytest.mark.many_games
def test_pooled_case_cuts_disjoint_runs_and_checks_both_intervals() -> None:
    """``--pooled``: 3 runs of 40 games cut into 12 runs of 10 and 6 of 20; each row holds the
    plain t and the printed (skew-corrected) interval's coverage, misses and mean width, and the
    printed one is the summary's (``mean_interval``)."""
    rows = coverage.pooled_case("rummy101(players=2)", "greedy,greedy", 3, 40, (10, 20), 200, None)
    assert [r.split(" | ")[1:3] for r in rows] == [["10", "12"], ["20", "6"]]
    for r in rows:
        for cell in r.rstrip(" |").split(" | ")[3:]:   # plain t, printed
            cover, above, below, _ = (float(v) for v in re.findall(r"[0-9.]+", cell))
            assert math.isclose(cover + above + below, 1.0, abs_tol=2e-3)
    scores = coverage.seat_scores("rummy101(players=2)", "greedy,greedy", 40, 1, None)
    assert len(scores) == 40 and scores[:20] == coverage.seat_scores(
        "rummy101(players=2)", "greedy,greedy", 20, 1, None)
    lo, hi = coverage.plain_t([10, 20, 30])
    assert math.isclose(lo, 20 - 4.302652729911275 * 10 / math.sqrt(3))
    assert math.isclose(hi, 20 + 4.302652729911275 * 10 / math.sqrt(3))

"""The sim summary's mean score carries its 95% interval (a researcher's first number): the
same Student-t interval `rummy101 report` prints for the same games."""

from __future__ import annotations

import math

from rummy101 import sim
from rummy101.sim.report import format_report, group_records, mean_interval


def test_mean_score_has_its_t_interval_in_stats_and_summary() -> None:
    res = sim.simulate("rummy101(players=2)", "greedy,random", 30, seed=3, workers=1,
                       progress=False)
    lines = res.summary().splitlines()
    header = lines[1]
    assert "mean score" in header and "95% CI (t)" in header
    assert header.index("95% CI (t)") > header.index("mean score")
    for st, row in zip(res.seats, lines[3:5]):
        mean, lo, hi = mean_interval([r.scores[st.seat] for r in res.records])
        assert math.isclose(st.mean_score, mean)
        assert st.mean_ci95 == (lo, hi)
        assert f"[{lo:.1f}, {hi:.1f}]" in row
        # the same interval as the report of these games
        assert f"[{lo:.1f}, {hi:.1f}]" in format_report(group_records(res.records))


def test_one_game_has_no_interval() -> None:
    res = sim.simulate("rummy101(players=2)", "random,random", 1, seed=3, workers=1,
                       progress=False)
    assert all(math.isnan(v) for st in res.seats for v in st.mean_ci95)
    assert "[-, -]" not in res.summary() and "nan" not in res.summary()

"""``rummy101 report`` (issue 16): per-seat tables of what ``rummy101 sim --out`` wrote (points
per game with a 95% interval, Student's t corrected for skewness, finish and best-score rates
with Wilson intervals) and ``--plot`` (matplotlib, the optional extra ``plot``)."""

from __future__ import annotations

import math
import statistics
import sys
from pathlib import Path

import pytest
from rummy101 import sim
from rummy101.cli import main
from rummy101.sim.io import read_records
from rummy101.sim.record import GameRecord
from rummy101.sim.report import format_report, group_records, mean_interval, t_quantile_95

# Student t, two-sided 95% (0.975 quantile), from printed tables.
T_TABLE = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 10: 2.228, 30: 2.042, 120: 1.980}


@pytest.mark.parametrize("df, want", sorted(T_TABLE.items()))
@pytest.mark.backend_free
def test_t_quantile(df: int, want: float) -> None:
    assert abs(t_quantile_95(df) - want) < 0.005


# The same quantiles to six decimals (scipy.stats.t.ppf(0.975, df)): a report of 4 to 7 games
# prints its interval to 0.1, so an approximation off by 0.004 at df = 3 shows in the table.
T_EXACT = {3: 3.182446, 4: 2.776445, 5: 2.570582, 6: 2.446912, 7: 2.364624, 8: 2.306004,
           10: 2.228139, 15: 2.13145, 20: 2.085963, 29: 2.04523, 30: 2.042272, 31: 2.039513,
           40: 2.021075}


@pytest.mark.parametrize("df, want", sorted(T_EXACT.items()))
@pytest.mark.backend_free
def test_t_quantile_six_decimals(df: int, want: float) -> None:
    assert t_quantile_95(df) == pytest.approx(want, abs=1e-6)


@pytest.mark.backend_free
def test_mean_interval_of_four_games_by_hand() -> None:
    # sd 115.5 over 4 games: half width t(0.975, 3) * sd / 2 = 183.7 (a t table), not 183.5
    values = [100.0, -100.0, 100.0, -100.0]
    sd = statistics.stdev(values)
    mean, lo, hi = mean_interval(values)
    assert round(hi - mean, 1) == round(mean - lo, 1) == round(3.182446 * sd / 2, 1) == 183.7


@pytest.mark.backend_free
def test_mean_interval() -> None:
    # deviations -10, -5, -3, 0, 3, 5, 10 from the mean 3: no skewness, so the t interval
    values = [3, -7, 13, 0, 6, 8, -2]
    mean, lo, hi = mean_interval(values)
    half = t_quantile_95(6) * statistics.stdev(values) / math.sqrt(7)
    assert mean == pytest.approx(statistics.mean(values))
    assert (lo, hi) == pytest.approx((mean - half, mean + half))
    assert math.isnan(mean_interval([4])[1])


@pytest.fixture(scope="module")
def result() -> sim.SimResult:
    return sim.simulate("rummy101(players=3)", "greedy,random,random", 12, seed=21, workers=1,
                        progress=False, record="full")


def test_records_read_back_from_jsonl_and_csv(result: sim.SimResult, tmp_path: Path) -> None:
    sim.write_records(result.records, tmp_path / "full.jsonl")
    summary = [GameRecord(**{**r.__dict__, "game_record": None}) for r in result.records]
    sim.write_records(summary, tmp_path / "summary.jsonl")
    sim.write_records(summary, tmp_path / "rows.csv")
    assert read_records(tmp_path / "full.jsonl") == result.records
    assert read_records(tmp_path / "summary.jsonl") == summary
    assert read_records(tmp_path / "rows.csv") == summary


@pytest.mark.backend_free
def test_report_tables_agree_with_the_simulation(result: sim.SimResult) -> None:
    [g] = group_records(result.records)
    assert g.seats == result.seats and g.run_seeds == [21] and g.games == 12
    for s, (mean, lo, hi) in enumerate(g.points):
        assert mean == pytest.approx(result.seats[s].mean_score) and lo <= mean <= hi
    text = format_report([g])
    st = result.seats[0]
    assert f"{st.finished}/{st.rounds}" in text
    assert f"[{st.finish_ci95[0]:.3f}, {st.finish_ci95[1]:.3f}]" in text
    assert f"[{st.best_ci95[0]:.3f}, {st.best_ci95[1]:.3f}]" in text
    assert f"[{g.points[1][1]:.1f}, {g.points[1][2]:.1f}]" in text
    assert "12 games of rummy101(players=3); bots greedy,random,random; run seed 21" in text


def test_two_line_ups_make_two_tables(result: sim.SimResult) -> None:
    other = sim.simulate("rummy101(players=2)", "random,random", 3, seed=1, workers=1,
                         progress=False)
    groups = group_records([*result.records, *other.records])
    assert [(g.rules, g.bots, g.games) for g in groups] == [
        ("rummy101(players=3)", ("greedy", "random", "random"), 12),
        ("rummy101(players=2)", ("random", "random"), 3)]


@pytest.mark.backend_free
def test_cli_report(result: sim.SimResult, tmp_path: Path,
                    capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "games.jsonl"
    sim.write_records(result.records, path)
    assert main(["report", str(path)]) == 0
    out = capsys.readouterr().out
    assert "points per game" in out and "95% CI (Wilson)" in out and "95% CI (Hall)" in out
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"game": 0}\n')
    assert main(["report", str(bad)]) == 2
    assert "line 1 is no simulation record" in capsys.readouterr().err
    assert main(["report", str(tmp_path / "missing.jsonl")]) == 2
    assert "cannot read" in capsys.readouterr().err


@pytest.mark.backend_free
def test_plot_without_matplotlib_says_what_to_install(result: sim.SimResult, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from rummy101.errors import RummyError
    from rummy101.sim.plot import plot_report
    monkeypatch.setitem(sys.modules, "matplotlib", None)   # as if it were not installed
    with pytest.raises(RummyError, match=r"pip install 'rummy101\[plot\]'"):
        plot_report(group_records(result.records), tmp_path / "x.png")


@pytest.mark.backend_free
def test_plot_png(result: sim.SimResult, tmp_path: Path,
                  capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    from matplotlib.container import ErrorbarContainer
    from rummy101.sim.plot import PANELS, plot_report
    out = tmp_path / "report.png"
    fig = plot_report(group_records(result.records), out)
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000
    scores, rates = fig.axes
    assert scores.get_title().startswith(PANELS[0]) and rates.get_title().startswith(PANELS[1])
    assert [t.get_text() for t in rates.get_xticklabels()] == \
        ["seat 0\ngreedy", "seat 1\nrandom", "seat 2\nrandom"]
    # the rates: finish and best bars, each with its Wilson interval bars
    bars = [c for c in rates.containers if not isinstance(c, ErrorbarContainer)]
    assert [b.get_height() for b in bars[0]] == pytest.approx(
        [s.finish_rate for s in result.seats])
    assert len([c for c in rates.containers if isinstance(c, ErrorbarContainer)]) == 2
    assert any(isinstance(c, ErrorbarContainer) for c in scores.containers)   # mean ± t
    # through the command line: refuses to overwrite, then --force
    path = tmp_path / "games.jsonl"
    sim.write_records(result.records, path)
    assert main(["report", str(path), "--plot", str(out)]) == 2
    assert "already exists" in capsys.readouterr().err
    assert main(["report", str(path), "--plot", str(out), "--force"]) == 0
    assert f"figure written to {out}" in capsys.readouterr().out


def test_plot_titles_of_a_classic_match_fit_their_panels(tmp_path: Path) -> None:
    """A classic group's label ("classic(players=2), matches to the target score, capped at
    10,000 rounds") made each panel title wider than its panel: the two titles overlapped each
    other and ran off the figure's edges."""
    pytest.importorskip("matplotlib")
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from rummy101.sim.plot import PANELS, plot_report
    res = sim.simulate("classic(players=2)", "greedy,random", 2, seed=1, workers=1,
                       progress=False)
    fig = plot_report(group_records(res.records), tmp_path / "classic.png")
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    left, right = (ax.title.get_window_extent(canvas.get_renderer()) for ax in fig.axes)
    assert fig.axes[0].get_title().startswith(PANELS[0]) and "10,000 rounds" in \
        fig.axes[0].get_title().replace("\n", " ")
    assert 0 <= left.x0 and left.x1 < right.x0 and right.x1 <= fig.bbox.x1

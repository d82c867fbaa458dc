"""``rummy101 report`` reads its files as a stream (sim.report.summarise): it keeps no record, only
per-group tallies (sim.stats.GameTally) and a 16-byte digest per game to find repeats, so a
report of tens of millions of games fits in memory (bench/bench_report.py measures the bytes a
game). What it prints must be what the in-memory path (drop_duplicates + group_records) prints,
for every variant, match length, classic cap and repeat; and the sample standard deviation comes
from exact integer sums, so it is correctly rounded however many games."""

from __future__ import annotations

import json
import math
import random
import statistics
from fractions import Fraction
from pathlib import Path

import pytest
from rummy101 import sim
from rummy101.cli import main
from rummy101.cli import report as cli_report
from rummy101.sim.io import iter_records, read_records
from rummy101.sim.report import (
    drop_duplicates,
    format_report,
    group_records,
    mean_interval,
    summarise,
)
from rummy101.sim.stats import GameTally, sd_of_sums, skewness_of_sums


@pytest.fixture(scope="module")
def runs() -> list[sim.SimResult]:
    """Runs of every variant, two line-ups, two match lengths and two classic caps."""
    return [
        sim.simulate("rummy101(players=3)", "greedy,random,random", 9, seed=4, workers=1,
                     progress=False),
        sim.simulate("rummy101(players=3)", "greedy,random,random", 5, seed=5, workers=1,
                     progress=False, match_rounds=2),
        sim.simulate("rummy101(players=2)", "random,random", 6, seed=1, workers=1, progress=False),
        sim.simulate("remi(players=2)", "greedy,random", 5, seed=2, workers=1, progress=False),
        sim.simulate("classic(players=2)", "greedy,random", 6, seed=3, workers=1, progress=False,
                     match_rounds=1),
        sim.simulate("classic(players=2)", "greedy,random", 4, seed=3, workers=1, progress=False,
                     match_rounds=3),
    ]


def test_the_stream_prints_what_the_records_print(runs: list[sim.SimResult]) -> None:
    records = [r for res in runs for r in res.records]
    rng = random.Random(7)
    for _ in range(5):
        mixed = records + rng.sample(records, 6)   # repeats, as a file given twice
        rng.shuffle(mixed)
        kept, dropped = drop_duplicates(mixed)
        want = group_records(kept)
        got, repeats = summarise(iter(mixed))      # a one-shot iterator: read once
        assert repeats == dropped == 6
        assert format_report(got) == format_report(want)
        assert [(g.rules, g.bots, g.games, g.match_rounds, g.round_cap) for g in got] == [
            (g.rules, g.bots, g.games, g.match_rounds, g.round_cap) for g in want]
        assert [g.seats for g in got] == [g.seats for g in want]
        assert [g.points for g in got] == [g.points for g in want]
        assert all(g.records == [] for g in got)   # nothing kept


@pytest.mark.backend_free
def test_the_classic_cap_note_counts_the_matches_that_played_the_cap(
        runs: list[sim.SimResult]) -> None:
    capped = runs[5].records
    got, _ = summarise(capped)
    played = sum(1 for r in capped if r.rounds >= 3)
    note = got[0].capped_note
    assert note is not None and note == group_records(capped)[0].capped_note
    assert (f"{played:,} of {len(capped):,}" in note) if played else ("none" in note)


@pytest.mark.backend_free
def test_scores_are_kept_for_a_figure_only(runs: list[sim.SimResult]) -> None:
    records = runs[0].records
    [g], _ = summarise(records, keep_scores=True)
    assert [list(col) for col in g.seat_scores()] == [
        [r.scores[s] for r in records] for s in range(3)]
    [g], _ = summarise(records)
    assert g.scores is None


@pytest.mark.backend_free
def test_the_cli_report_equals_the_in_memory_report(runs: list[sim.SimResult], tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.csv"
    sim.write_records([r for res in runs[:3] for r in res.records], a)
    sim.write_records([r for res in runs[2:] for r in res.records], b)   # runs[2] in both
    assert main(["report", str(a), str(b)]) == 0
    out, err = capsys.readouterr()
    kept, dropped = drop_duplicates(read_records(a) + read_records(b))
    assert out == format_report(group_records(kept)) + "\n"
    assert dropped == len(runs[2].records) and f"note: {dropped} games read more than once" in err


@pytest.mark.backend_free
def test_a_bad_line_after_good_ones_is_named(tmp_path: Path,
                                             runs: list[sim.SimResult],
                                             capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "cut.jsonl"
    sim.write_records(runs[0].records[:3], path)
    with path.open("a") as fh:
        fh.write('{"game": 3, "seed": 1}\n')
    it = iter_records(path)
    assert [next(it).game for _ in range(3)] == [0, 1, 2]    # read lazily, one at a time
    with pytest.raises(sim.SimError, match="line 4 is no simulation record"):
        next(it)
    assert main(["report", str(path)]) == 2
    assert "line 4 is no simulation record" in capsys.readouterr().err
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n")
    with pytest.raises(sim.SimError, match="holds no game records"):
        list(iter_records(empty))


@pytest.mark.backend_free
def test_a_long_read_says_how_far_it_is(runs: list[sim.SimResult], tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    """Standard error not a terminal (a log file): a plain line of the games read so far."""
    path = tmp_path / "games.jsonl"
    sim.write_records(runs[0].records, path)
    monkeypatch.setattr(cli_report, "_TICK", 2)
    monkeypatch.setattr(cli_report, "LOG_EVERY_SECONDS", 0.0)
    assert main(["report", str(path)]) == 0
    err = capsys.readouterr().err
    assert "report: 2 games read" in err and "report: 8 games read" in err


@pytest.mark.parametrize("seed", range(40))
@pytest.mark.backend_free
def test_sd_of_sums_is_the_exact_sample_sd(seed: int) -> None:
    rng = random.Random(seed)
    big = rng.choice([10, 1000, 10**9])
    values = [rng.randint(-big, big) + (10**9 if seed % 3 == 0 else 0)
              for _ in range(rng.randint(2, 300))]
    n, total, squares = len(values), sum(values), sum(x * x for x in values)
    exact = Fraction(n * squares - total * total, n * (n - 1))
    assert sd_of_sums(n, total, squares) == math.sqrt(float(exact))   # correctly rounded variance
    assert sd_of_sums(n, total, squares) == pytest.approx(statistics.stdev(values), rel=1e-15)
    # the skewness of the interval's correction, from exact integer sums, to a rounding error
    mean = Fraction(total, n)
    m2 = sum((x - mean) ** 2 for x in values) / n
    m3 = sum((x - mean) ** 3 for x in values) / n
    g1 = 0.0 if n < 3 or m2 == 0 else float(m3) / float(m2) ** 1.5
    cubes = sum(x ** 3 for x in values)
    assert skewness_of_sums(n, total, squares, cubes) == pytest.approx(g1, rel=1e-12, abs=1e-15)
    # the same interval from float values (two passes); its bounds near 10**9 are each rounded
    # to a float's step there (1.2e-7), so their difference agrees to a few such steps
    lo, hi = mean_interval(values)[1:]
    flo, fhi = mean_interval([float(x) for x in values])[1:]
    assert hi - lo == pytest.approx(fhi - flo, rel=1e-9, abs=4 * math.ulp(max(abs(lo), abs(hi))))


@pytest.mark.backend_free
def test_a_tally_of_one_game_has_no_spread() -> None:
    rec = sim.GameRecord(game=0, seed=1, rules="rummy101(players=2)", bots=("random", "random"),
                         scores=(-5, 7), round_scores=((-5, 7),), best=1, finishes=("normal",),
                         finishers=(1,), turns=(3, 3), steps=12)
    tally = GameTally(2)
    tally.add(rec)
    [s0, s1] = tally.seat_stats(["random", "random"])
    assert math.isnan(s0.sd_score) and all(math.isnan(v) for v in s1.mean_ci95)
    assert (s1.best, s1.finished, s0.min_score, s1.max_score) == (1, 1, -5, 7)
    assert json.dumps(tally.endings()) == '{"normal": 1}'


@pytest.mark.backend_free
def test_a_figure_of_many_games_draws_a_sample_of_dots(tmp_path: Path) -> None:
    """--plot of 25,000 games: every game in the boxes, 20,000 evenly spaced dots a seat."""
    pytest.importorskip("matplotlib")
    from rummy101.sim.plot import MAX_DOTS, plot_report
    recs = (sim.GameRecord(game=i, seed=i, rules="rummy101(players=2)", bots=("random", "random"),
                           scores=(i % 97, -(i % 89)), round_scores=((i % 97, -(i % 89)),),
                           best=0, finishes=("exhausted",), finishers=(None,), turns=(5, 5),
                           steps=20, bot_seeds=(i, i + 1))
            for i in range(25_000))
    groups, _ = summarise(recs, keep_scores=True)
    text = format_report(groups)  # counts of thousands read with separators
    assert "random  25,000" in text and "0/25,000" in text and "25,000/25,000" in text
    assert "rounds: 25,000; ended with no winner (stock exhausted): 25,000" in text
    fig = plot_report(groups, tmp_path / "many.png")
    ax = fig.axes[0]
    dots = [c.get_offsets() for c in ax.collections if len(c.get_offsets()) > 2]
    assert [len(d) for d in dots] == [MAX_DOTS, MAX_DOTS]
    assert max(dots[0][:, 1]) == 96 and min(dots[1][:, 1]) == -88
    # the boxes are drawn over the dots, which are faint at this number: 20,000 dots at the
    # opacity of a few hundred were one block that hid the boxes they summarise
    scatters = [c for c in ax.collections if len(c.get_offsets()) > 2]
    boxes = [ln for ln in ax.lines if len(ln.get_xdata()) == 5]  # each box's outline
    assert len(boxes) == 2 and min(b.get_zorder() for b in boxes) > max(
        c.get_zorder() for c in scatters)
    assert all(c.get_alpha() <= 0.1 for c in scatters)
    assert any("20,000 evenly spaced games of 25,000" in t.get_text() for t in ax.texts)
    assert "25,000 games" in ax.get_title()


@pytest.mark.backend_free
def test_every_file_is_checked_before_the_first_is_read(runs: list[sim.SimResult],
                                                        tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """A missing or misnamed last file is said at once, not after minutes of reading the first."""
    from rummy101.sim import io
    good = tmp_path / "good.jsonl"
    sim.write_records(runs[0].records, good)
    read: list[str] = []
    real = io.iter_records

    def spy(path: str) -> object:
        read.append(path)
        return real(path)
    monkeypatch.setattr(cli_report, "iter_records", spy)
    for last, said in ((tmp_path / "gone.jsonl", "cannot read"),
                       (tmp_path / "games.txt", "cannot tell the format"),
                       (tmp_path, "it is a folder")):
        assert main(["report", str(good), str(last)]) == 2
        assert said in capsys.readouterr().err
    assert read == []


@pytest.mark.backend_free
def test_the_repeats_note_counts_with_separators(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    recs = [sim.GameRecord(game=i, seed=i, rules="rummy101(players=2)", bots=("random", "random"),
                           scores=(1, -1), round_scores=((1, -1),), best=0,
                           finishes=("normal",), finishers=(0,), turns=(4, 4), steps=9,
                           bot_seeds=(i, i)) for i in range(1_200)]
    path = tmp_path / "twice.jsonl"
    sim.write_records(recs + recs, path)
    assert main(["report", str(path)]) == 0
    assert "note: 1,200 games read more than once" in capsys.readouterr().err

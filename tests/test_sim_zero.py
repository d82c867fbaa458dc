"""A classic seat scores 0 unless it wins a round (CR-6): the upper bound of its mean's interval
is at least the two-part bound (stats.two_part_upper: Wilson for the share of games it scored
in, t for their mean, combined by MOVER), so a seat that rarely wins is not printed an interval
that ends below what its few wins can say (docs/simulation.md, "A seat that rarely scores").
Rummy 101 and Remi keep the t interval corrected for skewness (Hall)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from rummy101 import sim
from rummy101.cli import main
from rummy101.sim.record import GameRecord
from rummy101.sim.report import format_report, mean_interval, summarise
from rummy101.sim.stats import (
    TWO_PART_NOTE,
    GameTally,
    clamp_interval,
    skew_t_interval,
    skewness_of_sums,
    two_part_upper,
    wilson_interval,
)
from test_sim_bounds import _record as _game

CLASSIC = "classic(players=2)"  # with a cap of 3 rounds a game scores 0 to 210


def _record(scores: tuple[int, ...], rules: str = CLASSIC, match_rounds: int = 3) -> GameRecord:
    """A one-round game of ``rules`` whose seats scored ``scores`` (test_sim_bounds' maker)."""
    return _game(rules, scores, match_rounds)


def _tally(wins: tuple[int, ...], games: int = 20, rules: str = CLASSIC) -> GameTally:
    """Seat 1 scores ``wins`` in its first games and 0 in the rest; seat 0 scores 30 each."""
    tally = GameTally(2)
    for k in range(games):
        tally.add(_record((30, wins[k] if k < len(wins) else 0), rules))
    return tally


def _t_cut(tally: GameTally, s: int) -> tuple[float, float]:
    """The interval printed before: Hall's, cut to the rules' bounds."""
    mean, sd = tally.mean_sd(s)
    skew = skewness_of_sums(tally.games, tally.total[s], tally.squares[s], tally.cubes[s])
    return clamp_interval(skew_t_interval(tally.games, mean, sd, skew), *tally.bounds)


def test_three_wins_in_twenty_reach_above_the_t_bound() -> None:
    # random's seat of greedy,random --rounds 3, seed 1: 3 matches scored (1, 4, 8) in 20
    tally = _tally((1, 4, 8))
    assert tally.scored == [20, 3]
    lo, hi = tally.mean_interval(1)
    old_lo, old_hi = _t_cut(tally, 1)
    assert lo == old_lo == 0.0
    assert hi == two_part_upper(20, 3, 13, 81, 577, 210.0) > old_hi + 0.1
    assert (lo, hi) == mean_interval([1, 4, 8] + [0] * 17, (0.0, 210.0), True)[1:]
    assert tally.mean_interval(0) == _t_cut(tally, 0)  # 30 in every game: no zeros, unchanged


@pytest.mark.parametrize(
    ("wins", "upper"),
    [
        ((), wilson_interval(0, 20)[1] * 210),  # no win: the mean is at most p_hi * 210
        ((9,), wilson_interval(1, 20)[1] * 210),  # one win: nothing but the rules bounds μ₊
        ((5, 5), wilson_interval(2, 20)[1] * 210),  # two alike: no spread among the wins
    ],
)
def test_wins_without_a_spread_are_bounded_by_the_rules(
    wins: tuple[int, ...], upper: float
) -> None:
    tally = _tally(wins)
    assert _t_cut(tally, 1)[1] < 3  # printed [0.0, 0.0] with no win, [0.0, 1.x] with one
    assert tally.mean_interval(1) == (0.0, pytest.approx(upper))


def test_every_game_scored_keeps_the_t_interval() -> None:
    tally = _tally(tuple(range(5, 25)))
    assert tally.scored[1] == 20
    assert tally.mean_interval(1) == _t_cut(tally, 1)


def test_rummy101_and_remi_keep_the_t_interval() -> None:
    for rules in ("rummy101(players=2)", "remi(players=2)"):
        tally = _tally((), rules=rules)  # (bounds of Rummy 101: none below, 404 a round)
        tally.add(_record((30, 9), rules))
        assert not tally.only_winners_score
        assert tally.mean_interval(1) == _t_cut(tally, 1)
    mixed = _tally(())
    mixed.merge(_tally((9,), games=2, rules="rummy101(players=2)"))
    assert not mixed.only_winners_score


def test_a_tally_without_the_count_prints_the_t_interval() -> None:
    # a tally pickled by a version before the count: no `scored`, so the interval printed then
    tally = _tally((9,))
    del tally.scored
    assert tally.mean_interval(1) == _t_cut(tally, 1)


def test_merged_tallies_count_the_scored_games() -> None:
    whole, a, b = _tally((1, 4, 8), games=20), _tally((1, 4), games=12), _tally((8,), games=8)
    a.merge(b)
    assert a.scored == whole.scored == [20, 3]
    assert a.mean_interval(1) == whole.mean_interval(1)


def _sim_argv(out: Path) -> list[str]:
    return [
        "sim",
        "--rules",
        CLASSIC,
        "--bots",
        "greedy,random",
        "--rounds",
        "3",
        "--games",
        "20",
        "--seed",
        "1",
        "--workers",
        "1",
        "--out",
        str(out),
        "-q",
    ]


def test_resume_counts_the_scored_games_read_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    res = sim.simulate(
        CLASSIC, "greedy,random", 20, seed=1, workers=1, progress=False, match_rounds=3
    )
    assert res.tally is not None
    scores = [r.scores[1] for r in res.records]
    assert res.tally.scored == [sum(1 for r in res.records if r.scores[s]) for s in (0, 1)]
    lo, hi = res.seats[1].mean_ci95
    assert (lo, hi) == mean_interval(scores, (0.0, 210.0), True)[1:]
    assert hi > mean_interval(scores, (0.0, 210.0))[2]  # raised by the two-part bound
    out = tmp_path / "runs.jsonl"
    assert main(_sim_argv(out)) == 0
    lines = out.read_text().splitlines(keepends=True)
    out.write_text("".join(lines[:7]))  # a run cut after 7 games
    capsys.readouterr()
    assert main([*_sim_argv(out), "--resume"]) == 0
    printed = capsys.readouterr().out
    assert f"[{lo:.1f}, {hi:.1f}]" in printed


def test_summary_and_report_print_the_two_part_bound() -> None:
    res = sim.simulate(
        CLASSIC, "greedy,random", 20, seed=1, workers=1, progress=False, match_rounds=3
    )
    lo, hi = res.seats[1].mean_ci95
    assert not math.isnan(hi)
    summary, report = res.summary(), format_report(summarise(res.records)[0])
    for text in (summary, report):
        assert f"[{lo:.1f}, {hi:.1f}]" in text and TWO_PART_NOTE in text
    other = sim.simulate("rummy101(players=2)", "greedy,random", 3, seed=1, progress=False)
    assert TWO_PART_NOTE not in other.summary()
    assert TWO_PART_NOTE not in format_report(summarise(other.records)[0])

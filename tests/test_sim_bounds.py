"""The mean score's 95% interval stays inside the scores the rules allow (stats.score_bounds,
stats.clamp_interval): a classic game never scores below 0 (CR-6), a Rummy 101 round at most
+404 (R101-13). Where no bound binds the interval is the one it was (skew_t_interval)."""

from __future__ import annotations

import math

import pytest
from rummy101 import sim
from rummy101.sim.record import GameRecord
from rummy101.sim.report import format_report, mean_interval, summarise
from rummy101.sim.stats import GameTally, skew_t_interval, skewness_of_sums, wilson_interval


def _unclamped(tally: GameTally, s: int) -> tuple[float, float]:
    """The interval before it was cut to the rules' bounds (what the sim printed before)."""
    mean, sd = tally.mean_sd(s)
    skew = skewness_of_sums(tally.games, tally.total[s], tally.squares[s], tally.cubes[s])
    return skew_t_interval(tally.games, mean, sd, skew)


def _record(rules: str, scores: tuple[int, ...], match_rounds: int | None = 1) -> GameRecord:
    """A one-round game of ``rules`` whose seats scored ``scores``."""
    n = len(scores)
    best = max(range(n), key=lambda s: scores[s])
    return GameRecord(
        game=0,
        seed=0,
        rules=rules,
        bots=("random",) * n,
        scores=scores,
        round_scores=(scores,),
        best=best,
        finishes=("normal",),
        finishers=(best,),
        turns=(1,) * n,
        steps=1,
        match_rounds=match_rounds,
    )


def test_classic_random_seats_interval_is_not_below_zero() -> None:
    # the reported case: random bots rarely win a classic round, most of their matches score 0,
    # and the t interval of their mean reached below 0 ([-0.3, 26.4]), where no mean can lie
    res = sim.simulate(
        "classic",
        "greedy,random,random,random",
        30,
        seed=1,
        workers=1,
        progress=False,
        match_rounds=3,
    )
    assert res.tally is not None
    old = [_unclamped(res.tally, s) for s in range(4)]
    assert any(lo < 0 for lo, _ in old)  # the case shows the flaw
    for st, (lo, hi) in zip(res.seats, old):
        assert st.mean_ci95[0] == max(lo, 0.0) >= 0.0
        assert st.mean_ci95[1] == hi  # the upper side is far from 403: unchanged
        assert st.mean_ci95[0] <= st.mean_score <= st.mean_ci95[1]
    summary = res.summary()
    assert "[-" not in summary
    report = format_report(summarise(res.records)[0])
    assert "[-" not in report
    assert f"[0.0, {old[1][1]:.1f}]" in summary and f"[0.0, {old[1][1]:.1f}]" in report


def test_constructed_tally_is_cut_at_zero_not_at_the_least_score_seen() -> None:
    tally = GameTally(2)
    for k in range(12):
        tally.add(_record("classic(players=2)", (40, 0) if k < 11 else (25, 60)))
    lo, hi = tally.mean_interval(1)
    old_lo, old_hi = _unclamped(tally, 1)
    # one win in 12: the upper bound is the two-part one, the rules' 70 times the share of
    # games p could be (tests/test_sim_zero.py)
    assert old_lo < 0 and (lo, hi) == (0.0, wilson_interval(1, 12)[1] * 70.0) and hi > old_hi
    assert tally.mean_interval(0) == _unclamped(tally, 0)
    # scores of 30, 40 and 50: the mean of other games could lie below 30 (never below 0), so
    # the interval is not cut at the least score seen
    few = GameTally(2)
    for x in (30, 40, 50):
        few.add(_record("classic(players=2)", (x, 0)))
    assert few.mean_interval(0) == _unclamped(few, 0)
    assert 0 < few.mean_interval(0)[0] < 30 and few.mean_interval(0)[1] > 50


def test_rummy101_upper_bound_binds_on_two_one_round_games() -> None:
    tally = GameTally(2)
    tally.add(_record("rummy101(players=2)", (404, -808)))
    tally.add(_record("rummy101(players=2)", (-202, 101)))
    old_lo, old_hi = _unclamped(tally, 0)
    assert old_hi > 404
    assert tally.mean_interval(0) == (old_lo, 404.0)  # no lower bound in Rummy 101
    assert tally.bounds == (-math.inf, 404.0)


def test_scores_outside_the_bounds_leave_the_interval_whole() -> None:
    # a hand-edited line (or another version's scoring) with a negative classic score: the
    # bounds are not these games' bounds, and the interval must hold its own mean
    tally = GameTally(2)
    for k in range(5):
        tally.add(_record("classic(players=2)", (-10 if k == 0 else 0, 3 if k == 1 else 0)))
    assert tally.mean_interval(0) == _unclamped(tally, 0)
    assert tally.mean_interval(1)[0] == 0.0
    assert (
        mean_interval([-10, 0, 0, 0, 0], (0.0, math.inf))[1:]
        == mean_interval([-10, 0, 0, 0, 0])[1:]
    )


def test_merge_keeps_the_bounds() -> None:
    a, b = GameTally(2), GameTally(2)
    a.add(_record("classic(players=2)", (30, 0), match_rounds=2))
    b.add(_record("classic(players=2)", (0, 0), match_rounds=2))
    b.add(_record("classic(players=2)", (0, 5), match_rounds=2))
    a.merge(b)
    assert a.bounds == (0.0, 140.0)
    assert a.mean_interval(1)[0] == 0.0
    empty = GameTally(2)
    empty.merge(a)
    assert empty.bounds == a.bounds


@pytest.mark.parametrize(
    ("rules", "bots", "rounds"),
    [
        ("rummy101(players=2)", "greedy,random", None),
        ("rummy101", "greedy,greedy,random,random", 3),
        ("remi(players=2)", "greedy,random", None),
        # above_core: the interval arithmetic on 40 greedy classic games, 130 s on the pure core
        # (8 s native); test_game_parity.py plays this run's games on both cores alike
        pytest.param("classic(players=2)", "greedy,greedy", None, marks=pytest.mark.above_core),
    ],
)
def test_typical_runs_keep_their_interval(rules: str, bots: str, rounds: int | None) -> None:
    res = sim.simulate(rules, bots, 40, seed=7, workers=1, progress=False, match_rounds=rounds)
    assert res.tally is not None
    for st in res.seats:
        assert st.mean_ci95 == _unclamped(res.tally, st.seat)


@pytest.mark.parametrize(
    ("rules", "bots", "rounds"),
    [
        ("classic(players=2)", "random,random", 50),
        ("classic(players=3,target=50)", "greedy,random,random", None),
        ("rummy101(players=2)", "greedy,random", 2),
    ],
)
def test_played_games_lie_inside_their_bounds(rules: str, bots: str, rounds: int | None) -> None:
    from rummy101.sim.stats import score_bounds

    res = sim.simulate(rules, bots, 60, seed=11, workers=1, progress=False, match_rounds=rounds)
    for r in res.records:
        lo, hi = score_bounds(r.rules, r.match_rounds, r.rounds)
        assert all(lo <= x <= hi for x in r.scores)


def test_score_bounds_by_variant() -> None:
    from rummy101.sim.stats import clamp_interval, score_bounds

    assert score_bounds("classic") == (0.0, 199.0 + 204)  # target - 1 + one round
    assert score_bounds("classic", 1) == (0.0, 204.0)  # 16 tens, 4 nines, an eight
    assert score_bounds("classic(players=2,target=1000)", 3) == (0.0, 210.0)
    assert score_bounds("rummy101(players=3)", 2) == (-math.inf, 808.0)
    assert score_bounds("remi") == (-math.inf, math.inf)
    assert score_bounds("no rules") == (-math.inf, math.inf)
    assert clamp_interval((math.nan, math.nan), 0.0, 1.0)[0] != 0.0

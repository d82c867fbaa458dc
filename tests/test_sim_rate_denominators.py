"""The denominators of the sim tables' rates, counted by hand on matches of more than one round:
a finish is per round played (R101-12: each round has at most one finisher), a best final
standing per game, turns per round. Every run the tests simulated played one round a game, where
rounds and games are the same number, so a rate over the wrong one went unseen (mutation test,
qa-h4: finish_rate over games, its interval over games, the best-score interval over rounds and
turns per game all passed the suite)."""

from __future__ import annotations

import math

import pytest
from rummy101 import sim
from rummy101.rules import Rules
from rummy101.sim.report import format_report, summarise
from rummy101.sim.runner import _result

# never reaches the core (tests/conftest.py checks it): .ci/run's pure pass leaves it out
pytestmark = pytest.mark.backend_free

Z = 1.959963984540054  # the 0.975 normal quantile


def textbook_wilson(k: int, n: int) -> tuple[float, float]:
    """The Wilson score interval, from its formula (Wilson 1927), for the checks below."""
    p = k / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z / (1 + Z * Z / n) * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def game(
    i: int, finishers: tuple[int | None, ...], scores: tuple[int, int], turns: tuple[int, int]
) -> sim.GameRecord:
    """A 3-round match of 2 seats (R101 scoring is not replayed: only the counts matter)."""
    rounds = tuple((10, -10) for _ in finishers)
    top = max(scores)
    return sim.GameRecord(
        game=i,
        seed=100 + i,
        rules="rummy101(players=2)",
        bots=("a", "b"),
        scores=scores,
        round_scores=rounds,
        best=scores.index(top) if scores.count(top) == 1 else None,
        finishes=tuple("exhausted" if f is None else "normal" for f in finishers),
        finishers=finishers,
        turns=turns,
        steps=sum(turns),
        run_seed=1,
        bot_seeds=(i, i),
        match_rounds=len(finishers),
    )


# 4 matches of 3 rounds = 12 rounds. Seat 0 finishes 5 rounds, seat 1 finishes 4, 3 rounds are
# exhausted (R101-13: no finisher). Best final standing: seat 0 in 2 games, seat 1 in 1, 1 tie.
GAMES = [
    game(0, (0, 0, 1), (30, -30), (7, 6)),
    game(1, (0, None, 1), (20, -20), (9, 9)),
    game(2, (1, 1, None), (-40, 40), (8, 8)),
    game(3, (0, 0, None), (5, 5), (6, 5)),
]


@pytest.fixture
def seats() -> list[sim.SeatStats]:
    return _result(Rules.parse("rummy101(players=2)"), ("a", "b"), 1, GAMES).seats


def test_finish_rate_and_interval_are_per_round_played(seats: list[sim.SeatStats]) -> None:
    s0, s1 = seats
    assert (s0.finished, s0.rounds, s1.finished, s1.rounds) == (5, 12, 4, 12)
    assert s0.finish_rate == 5 / 12 and s1.finish_rate == 4 / 12  # not 5 / 4 games
    assert s0.finish_ci95 == pytest.approx(textbook_wilson(5, 12), abs=1e-12)
    assert s1.finish_ci95 == pytest.approx(textbook_wilson(4, 12), abs=1e-12)


def test_best_rate_and_interval_are_per_game(seats: list[sim.SeatStats]) -> None:
    s0, s1 = seats
    assert (s0.best, s0.games, s1.best, s1.games) == (2, 4, 1, 4)
    assert s0.best_rate == 2 / 4 and s1.best_rate == 1 / 4
    assert s0.best_ci95 == pytest.approx(textbook_wilson(2, 4), abs=1e-12)  # not of 12 rounds
    assert s1.best_ci95 == pytest.approx(textbook_wilson(1, 4), abs=1e-12)


def test_turns_are_per_round_played(seats: list[sim.SeatStats]) -> None:
    s0, s1 = seats
    assert s0.mean_turns_per_round == (7 + 9 + 8 + 6) / 12  # 2.5, not 7.5 a game
    assert s1.mean_turns_per_round == (6 + 9 + 8 + 5) / 12


def test_the_tables_print_the_hand_counted_rates() -> None:
    res = _result(Rules.parse("rummy101(players=2)"), ("a", "b"), 1, GAMES)
    lo, hi = textbook_wilson(5, 12)
    blo, bhi = textbook_wilson(2, 4)
    want = f"[{lo:.3f}, {hi:.3f}]", f"[{blo:.3f}, {bhi:.3f}]"
    groups, repeats = summarise(GAMES)
    assert repeats == 0
    for text in (res.summary(), format_report(groups)):
        row = next(
            ln
            for ln in text.splitlines()  # seat 0's row of the rates table
            if ln.lstrip().startswith("0  a ") and "/" in ln
        )
        assert "5/12" in row and "0.417" in row and "2/4" in row and "0.500" in row
        assert want[0] in row and want[1] in row, (want, row)


def test_round_endings_are_counted_over_every_round() -> None:
    """12 rounds: 9 finished (normal), 3 exhausted (R101-13); the summary's rounds line and the
    report's both say so (a planted count that kept only the last round of each kind, mutation
    m64 of qa-h4, was caught only by an unrelated greedy-beats-random test)."""
    res = _result(Rules.parse("rummy101(players=2)"), ("a", "b"), 1, GAMES)
    assert res.finish_counts == {"exhausted": 3, "normal": 9}
    assert (res.rounds, res.exhausted) == (12, 3)
    line = "rounds: 12; finished 9, stock exhausted with no winner 3 (R101-13)"
    groups, _ = summarise(GAMES)
    assert groups[0].finish_counts == {"exhausted": 3, "normal": 9}
    assert line in res.summary()
    report = format_report(groups)
    assert "rounds: 12; ended with no winner (stock exhausted): 3;" in report
    # the points table's '± 95%' column is the t interval's half width: seat 0's scores 30, 20,
    # -40, 5 have sd 30.92, so t(0.975, 3) * sd / 2 = 49.2 (not the whole width, 98.4)
    sd = math.sqrt(sum((x - 3.75) ** 2 for x in (30, 20, -40, 5)) / 3)
    half = 3.182446 * sd / math.sqrt(4)
    row = next(ln for ln in report.splitlines() if ln.lstrip().startswith("0  a ") and "±" in ln)
    assert f"± {half:.1f}" in row, row

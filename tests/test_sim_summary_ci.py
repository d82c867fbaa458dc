"""The sim summary's mean score carries its 95% interval (a researcher's first number): the
same interval (Student's t corrected for skewness) `rummy101 report` prints for the same games."""

from __future__ import annotations

import itertools
import math
import statistics
from statistics import NormalDist

import pytest
from rummy101 import sim
from rummy101.sim.report import format_report, group_records, mean_interval, t_quantile_95


def test_mean_score_has_its_t_interval_in_stats_and_summary() -> None:
    res = sim.simulate("rummy101(players=2)", "greedy,random", 30, seed=3, workers=1,
                       progress=False)
    lines = res.summary().splitlines()
    header = lines[1]
    assert "mean score" in header and "95% CI (Hall)" in header
    assert header.index("95% CI (Hall)") > header.index("mean score")
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


def _row_cells(text: str, seat: int, header: str) -> dict[str, str]:
    """The cells of ``seat``'s row under the first table whose header line holds ``header``."""
    lines = text.splitlines()
    k = next(i for i, ln in enumerate(lines) if ln.startswith("seat") and header in ln)
    dashes = lines[k + 1]
    spans, i = [], 0
    while i < len(dashes):  # columns are the runs of '-' in the rule under the header
        if dashes[i] == "-":
            j = i
            while j < len(dashes) and dashes[j] == "-":
                j += 1
            spans.append((i, j))
            i = j
        else:
            i += 1
    cut = [0] + [b for _, b in spans[:-1]] + [None]
    def cells(ln: str) -> list[str]:
        return [ln[a:b].strip() for a, b in itertools.pairwise(cut)]
    return dict(zip(cells(lines[k]), cells(lines[k + 2 + seat])))


def test_one_game_sd_is_undefined_not_zero() -> None:
    """A one-game run printed sd 0.0: the sample standard deviation of one value is undefined
    (n - 1 = 0), and 0.0 claims the score does not vary. Both tables print '-', say why, and
    SeatStats.sd_score is nan, as mean_ci95 is."""
    res = sim.simulate("rummy101(players=2)", "greedy,random", 1, seed=3, workers=1,
                       progress=False)
    assert all(math.isnan(st.sd_score) for st in res.seats)
    text = res.summary()
    for seat in (0, 1):
        assert _row_cells(text, seat, "seat")["sd"] == "-"
    assert "undefined" in text and "2 games or more" in text and "nan" not in text
    report = format_report(group_records(res.records))
    for seat in (0, 1):
        cells = _row_cells(report, seat, "games")
        assert cells["sd"] == cells["± 95%"] == cells["95% CI (Hall)"] == "-"
    assert "undefined" in report and "nan" not in report


def test_two_games_sd_is_the_sample_sd() -> None:
    res = sim.simulate("rummy101(players=2)", "greedy,random", 2, seed=3, workers=1,
                       progress=False)
    for st in res.seats:
        scores = [r.scores[st.seat] for r in res.records]
        assert st.sd_score == math.sqrt(sum((x - st.mean_score) ** 2 for x in scores))  # / (2-1)
        assert _row_cells(res.summary(), st.seat, "seat")["sd"] == f"{st.sd_score:.1f}"
    assert "undefined" not in res.summary()


def test_wilson_interval_holds_its_estimate_at_the_edges() -> None:
    """0 of n and n of n: the Wilson bound at the estimate is 0 (1) exactly; computed it came out
    5.6e-17 for 0/3 and 0.9999999999999999 for 10/10, an interval without its own estimate
    (a coverage check or `lo <= rate <= hi` in a researcher's script failed on it)."""
    z = NormalDist().inv_cdf(0.975)  # the reference: the score interval, from first principles
    for n in range(1, 301):
        for k in range(n + 1):
            lo, hi = sim.wilson_interval(k, n)
            p = k / n
            assert lo <= p <= hi, (k, n, lo, hi)
            c = (p + z * z / (2 * n)) / (1 + z * z / n)
            h = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
            assert math.isclose(lo, max(0.0, c - h), abs_tol=1e-12)
            assert math.isclose(hi, min(1.0, c + h), abs_tol=1e-12)
        assert sim.wilson_interval(0, n)[0] == 0.0 and sim.wilson_interval(n, n)[1] == 1.0


def _rare_finisher_run(games: int = 3000) -> sim.SimResult:
    """``games`` one-round games of 2 seats: seat 0 finishes every round but the last, which
    seat 1 finishes (1 finish in 3,000 rounds: rate 0.00033, Wilson [0.000059, 0.0019]); the
    best standing follows the finisher, so both Wilson columns hold the same interval."""
    from rummy101.rules import Rules
    from rummy101.sim.runner import _result

    recs = [sim.GameRecord(game=i, seed=i, rules="rummy101(players=2)", bots=("a", "b"),
                           scores=(101, -50) if i < games - 1 else (-50, 101),
                           round_scores=((101, -50),) if i < games - 1 else ((-50, 101),),
                           best=0 if i < games - 1 else 1, finishes=("normal",),
                           finishers=(0,) if i < games - 1 else (1,), turns=(5, 5), steps=20,
                           run_seed=1, bot_seeds=(i, i), match_rounds=1)
            for i in range(games)]
    return _result(Rules.parse("rummy101(players=2)"), ("a", "b"), 1, recs)


def test_rare_rates_are_not_rounded_to_zero_or_one() -> None:
    """1 finish in 3,000 rounds printed a finish rate of 0.000 with the interval
    [0.000, 0.002] (and 2,999 of 3,000 printed 1.000, [0.998, 1.000]): three decimals read as
    never and always. Within 0.01 of 0 or 1 the tables give two significant digits."""
    res = _rare_finisher_run()
    lo, hi = res.seats[1].finish_ci95
    assert (round(lo, 6), round(hi, 4)) == (0.000059, 0.0019)
    for text in (res.summary(), format_report(group_records(res.records))):
        rare = _row_cells(text, 1, "finish rate")
        assert rare["finish rate"] == "0.00033", text
        assert rare["95% CI (Wilson)"] == "[0.000059, 0.0019]"
        often = _row_cells(text, 0, "finish rate")
        assert often["finish rate"] == "0.99967"
        assert often["95% CI (Wilson)"] == "[0.9981, 0.999941]"  # 1 - 0.000059
        assert "0.000," not in text and ", 1.000]" not in text
    assert sim.stats.format_rate(0.0) == "0.000" and sim.stats.format_rate(1.0) == "1.000"
    assert sim.stats.format_rate(0.4681) == "0.468"


def test_summary_head_says_the_match_length_as_the_report_does() -> None:
    """The summary's first line said '200 games of classic(players=2), seed 1' for matches
    capped at 3 rounds (greedy's 'mean score 80.0' is its points after 3 rounds, not at the
    end of a match) and '5 games of remi' for 2-round matches, where `rummy101 report` labels
    the same games 'matches to the target score, capped at 3 rounds' and 'matches of 2
    rounds'. Both now say it, and a capped classic run how many matches played to the cap."""
    res = sim.simulate("remi(players=2)", "greedy,random", 3, seed=1, workers=1,
                       progress=False, match_rounds=2)
    head = res.summary().splitlines()[0]
    assert head.startswith("3 games of remi(players=2), matches of 2 rounds, seed 1; bots")
    assert "3 games of remi(players=2), matches of 2 rounds; bots" in format_report(
        group_records(res.records))
    res = sim.simulate("classic(players=2)", "greedy,random", 12, seed=1, workers=1,
                       progress=False, match_rounds=3)
    played_all = sum(1 for r in res.records if r.rounds == 3)
    assert 0 < played_all <= 12
    text = res.summary()
    assert text.splitlines()[0].startswith(
        "12 games of classic(players=2), matches to the target score, capped at 3 rounds, seed 1")
    line = f"matches that played all 3 rounds of the cap: {played_all:,} of 12"
    assert line in text and line in format_report(group_records(res.records))
    full = sim.simulate("classic(players=2)", "greedy,random", 3, seed=1, workers=1,
                        progress=False)                  # the default cap: no match reaches it
    assert ("matches that played all 10,000 rounds of the cap: none (every match reached the "
            "target score before it, CR-6)") in full.summary().splitlines()
    one = sim.simulate("rummy101(players=2)", "greedy,random", 2, seed=1, workers=1,
                       progress=False)
    assert one.summary().startswith("2 games of rummy101(players=2), seed 1; bots")
    # every match at the cap: no 'others' reached the target, and a cap of 1 is no 'all 1 round'
    capped = sim.simulate("classic(players=2)", "greedy,random", 2, seed=2, workers=1,
                          progress=False, match_rounds=1)
    assert ("matches that played the 1 round of the cap: 2 of 2 (none reached the target score "
            "before it, CR-6; one that played it may have stopped at the cap with nobody at the "
            "target: its points and best score are those after 1 round)") in capped.summary()


def test_a_seat_that_scored_the_same_in_every_game_says_its_interval_has_no_width() -> None:
    """Seat 1 of seed 3 (a random bot in Rummy 101) lost 202 points in each of 20 games: its t
    interval printed [-202.0, -202.0] without a word, a mean known exactly, while the same
    seat's mean over 600 games is about -194. The summary and the report say what sd 0 means;
    a seat whose games differ, and a one-game run (no sd at all), get no such line."""
    res = sim.simulate("rummy101", "greedy,random,random,random", 20, seed=3, workers=1,
                       progress=False)
    flat = [st.seat for st in res.seats if st.sd_score == 0]
    assert flat == [1] and res.seats[1].mean_ci95 == (-202.0, -202.0)
    note = ("sd 0 in seat 1 (-202 points): all 20 games scored the same, so the interval has "
            "no width; it says these games did not vary, not that the mean is known exactly (a "
            "rarer score may not have shown yet)")
    assert res.summary().count(note) == 1
    assert format_report(group_records(res.records)).count(note) == 1
    one = sim.simulate("rummy101", "greedy,random,random,random", 1, seed=3, workers=1,
                       progress=False)
    assert "sd 0" not in one.summary() and "sd 0" not in format_report(group_records(one.records))
    mixed = sim.simulate("rummy101(players=2)", "greedy,random", 6, seed=1, workers=1,
                         progress=False)
    assert all(st.sd_score > 0 for st in mixed.seats) and "sd 0" not in mixed.summary()


def test_the_no_spread_note_is_for_sd_0_only() -> None:
    """Scores of 1 and 2 points (sd 0.7) vary: no 'sd 0' note (mutation test, qa-h4: a note on
    any sd up to 1 passed the suite, whose seats had sd 0 or sds in the tens)."""
    from rummy101.rules import Rules
    from rummy101.sim.runner import _result
    from rummy101.sim.stats import no_spread_note

    recs = [sim.GameRecord(game=i, seed=i, rules="rummy101(players=2)", bots=("a", "b"),
                           scores=(1 + i, -3), round_scores=((1 + i, -3),), best=0,
                           finishes=("normal",), finishers=(0,), turns=(5, 5), steps=20,
                           run_seed=1, bot_seeds=(i, i), match_rounds=1)
            for i in range(2)]
    res = _result(Rules.parse("rummy101(players=2)"), ("a", "b"), 1, recs)
    assert res.seats[0].sd_score == math.sqrt(0.5) and res.seats[1].sd_score == 0
    note = no_spread_note(res.seats)
    assert note is not None and note.startswith("sd 0 in seat 1 (-3 points)")  # seat 0 not named


# The mean score's interval is Student's t corrected for skewness (sim.stats.skew_t_interval):
# per-game points are skewed (a finish's +101 against penalties of a few dozen), and the t
# interval, symmetric about the mean, covered 93-94% at 20 games (docs/simulation.md, "How
# honest are the intervals").
_LONG_RIGHT_TAIL = [-10] * 18 + [101, 150]   # 20 games, skewness g1 = 2.84


def _skewness(values: list[int]) -> float:
    from fractions import Fraction

    n = len(values)
    mean = Fraction(sum(values), n)
    m2 = sum((x - mean) ** 2 for x in values) / n
    return float(sum((x - mean) ** 3 for x in values) / n) / float(m2) ** 1.5


def _records(scores: list[int]) -> list[sim.GameRecord]:
    """One-round games of 2 seats: seat 0 scores ``scores``, seat 1 the opposite."""
    return [sim.GameRecord(game=i, seed=i, rules="rummy101(players=2)", bots=("a", "b"),
                           scores=(x, -x), round_scores=((x, -x),), best=0 if x > 0 else 1,
                           finishes=("normal",), finishers=(0 if x > 0 else 1,), turns=(5, 5),
                           steps=20, run_seed=1, bot_seeds=(i, i), match_rounds=1)
            for i, x in enumerate(scores)]


def test_a_skewed_mean_s_interval_leans_towards_the_long_tail() -> None:
    """18 games at -10 and two finishes (+101, +150): the t interval, 3.55 ± 19.9, reaches as
    far below the mean as above it, though the mean can be much higher than it looks (a third
    finish) and hardly lower (every game is -10 or more). Below, the bound is the root of
    Hall's (1992) cubic g(W) = W + γW²/3 + γ²W³/27 + γ/6n at W = (mean - bound) / sd = c/√n,
    with c = t(0.975, 19) + 1.96·γ²·(z⁴ + 2z² - 3)/18 / 20; above, the root at -c/√n lies past
    g's flat point W = -3/γ, where the bound stops: mean + 3·sd/γ."""
    values = _LONG_RIGHT_TAIL
    n = len(values)
    mean, lo, hi = mean_interval(values)
    sd = statistics.stdev(values)
    t_half = t_quantile_95(n - 1) * sd / math.sqrt(n)
    assert mean == 3.55 and round(t_half, 1) == 19.9
    assert hi - mean > 2 * (mean - lo) > 0          # longer towards the tail
    assert lo > mean - t_half and hi > mean + t_half  # and shifted towards it
    g, z = _skewness(values), 1.959963984540054
    assert round(g, 2) == 2.84
    c = t_quantile_95(n - 1) + z * g * g * (z ** 4 + 2 * z * z - 3) / 18 / n
    w = (mean - lo) / sd
    assert w + g * w * w / 3 + g * g * w ** 3 / 27 + g / (6 * n) == pytest.approx(c / math.sqrt(n))
    assert hi == pytest.approx(mean + 3 * sd / g, rel=1e-12)
    assert (round(lo, 1), round(hi, 1)) == (-14.8, 48.4)
    # the mirror image: a long left tail leans the other way
    _, mlo, mhi = mean_interval([-x for x in values])
    assert (mlo, mhi) == pytest.approx((-hi, -lo), rel=1e-12)
    # what the summary and the report print, from the tally's running sums
    recs = _records(values)
    res = _result_of(recs)
    assert res.seats[0].mean_ci95 == pytest.approx((lo, hi), rel=1e-12)
    assert _row_cells(res.summary(), 0, "seat")["95% CI (Hall)"] == "[-14.8, 48.4]"
    cells = _row_cells(format_report(group_records(recs)), 0, "games")
    assert cells["95% CI (Hall)"] == "[-14.8, 48.4]" and cells["± 95%"] == "-18.4/+44.9"


def test_a_milder_skew_is_the_root_of_hall_s_cubic_on_both_sides() -> None:
    """Skewness 1.2 over 20 games: both bounds are roots of g(W) = ±c/√n (no flat point
    reached), and the interval is wider above the mean (-3.9) than below."""
    values = [30, -20, -10, -40, 101, -60, -10, 20, -30, -20] * 2
    n = len(values)
    mean, lo, hi = mean_interval(values)
    sd = statistics.stdev(values)
    g, z = _skewness(values), 1.959963984540054
    assert round(g, 2) == 1.21 and mean == -3.9
    c = t_quantile_95(n - 1) + z * g * g * (z ** 4 + 2 * z * z - 3) / 18 / n
    for bound, want in ((lo, c / math.sqrt(n)), (hi, -c / math.sqrt(n))):
        w = (mean - bound) / sd
        cubic = w + g * w * w / 3 + g * g * w ** 3 / 27 + g / (6 * n)
        assert cubic == pytest.approx(want, rel=1e-9)
    assert (round(lo, 1), round(hi, 1)) == (-22.3, 26.2)


def _result_of(recs: list[sim.GameRecord]) -> sim.SimResult:
    from rummy101.rules import Rules
    from rummy101.sim.runner import _result

    return _result(Rules.parse("rummy101(players=2)"), ("a", "b"), 1, recs)


def test_symmetric_scores_and_fewer_than_10_games_keep_the_t_interval() -> None:
    """No skewness, no correction: -30, -10, 0, 10, 30 repeated (20 games) print the t interval,
    mean ± t(0.975, 19) · sd / √20, and the report's ± cell its half width. Below 10 games the
    skewness is mostly noise and the t interval stays, skewed or not."""
    values = [-30, -10, 0, 10, 30] * 4
    mean, lo, hi = mean_interval(values)
    half = t_quantile_95(19) * statistics.stdev(values) / math.sqrt(20)
    assert (lo, hi) == pytest.approx((-half, half), rel=1e-12)
    assert f"± {half:.1f}" in format_report(group_records(_records(values)))
    few = [-10] * 7 + [101, 150]                      # 9 games, skewed
    mean, lo, hi = mean_interval(few)
    half = t_quantile_95(8) * statistics.stdev(few) / 3
    assert (lo, hi) == pytest.approx((mean - half, mean + half), rel=1e-12)
    assert sim.stats.SKEW_MIN_VALUES == 10
    mean, lo, hi = mean_interval([*few, -10])        # the tenth game: corrected
    assert hi - mean > mean - lo


def test_merged_tallies_keep_the_skewness() -> None:
    """`rummy101 sim --resume` merges the tally read back with the one it plays: the sum of
    cubes merges too, or the merged interval would lose its lean (or take a part's)."""
    recs = _records(_LONG_RIGHT_TAIL + [-10, -20, 5, 101] * 3)
    whole = sim.GameTally(2)
    whole.add_all(recs)
    a, b = sim.GameTally(2), sim.GameTally(2)
    a.add_all(recs[:7])
    b.add_all(recs[7:])
    a.merge(b)
    assert a.mean_interval(0) == whole.mean_interval(0) == mean_interval(
        [r.scores[0] for r in recs])[1:]
    assert a.seat_stats(("a", "b")) == whole.seat_stats(("a", "b"))


def test_the_skewness_is_exact_far_from_zero() -> None:
    """The interval's skewness comes from exact integer sums: scores 10**9 points away (a
    shift) give the same skewness and the same interval, shifted."""
    from rummy101.sim.stats import skewness_of_sums

    values = _LONG_RIGHT_TAIL
    far = [x + 10**9 for x in values]
    def sums(v: list[int]) -> tuple[int, int, int, int]:
        return len(v), sum(v), sum(x * x for x in v), sum(x ** 3 for x in v)
    assert skewness_of_sums(*sums(far)) == skewness_of_sums(*sums(values))
    assert skewness_of_sums(*sums(values)) == pytest.approx(_skewness(values), rel=1e-14)
    _, lo, hi = mean_interval(values)
    _, flo, fhi = mean_interval(far)
    assert (flo - 10**9, fhi - 10**9) == pytest.approx((lo, hi), abs=1e-6)


def test_the_no_spread_note_leaves_out_a_classic_seat_whose_interval_has_width() -> None:
    """A classic seat that scored 0 in all its games has sd 0 but the two-part upper bound
    (CR-6: it scores only when it wins a round), so the 'sd 0 ... the interval has no width'
    note must not name it; a classic seat that scored the same nonzero points every game is
    still named (its interval has no width). Review of the two-part bound: the note first
    contradicted the printed [0.0, 226.3]."""
    from rummy101.rules import Rules
    from rummy101.sim.runner import _result
    from rummy101.sim.stats import no_spread_note

    recs = [sim.GameRecord(game=i, seed=i, rules="classic(players=2)", bots=("a", "b"),
                           scores=(200, 0), round_scores=((200, 0),), best=0,
                           finishes=("normal",), finishers=(0,), turns=(5, 5), steps=20,
                           run_seed=1, bot_seeds=(i, i), match_rounds=1)
            for i in range(3)]
    res = _result(Rules.parse("classic(players=2)"), ("a", "b"), 1, recs)
    assert res.seats[1].sd_score == 0 and res.seats[1].mean_ci95[1] > 0   # 0 points, width
    assert res.seats[0].sd_score == 0 and res.seats[0].mean_ci95 == (200.0, 200.0)
    note = no_spread_note(res.seats)
    assert note is not None and note.startswith("sd 0 in seat 0 (200 points)")
    assert "seat 1" not in note and "seats" not in note.split(":")[0]


def test_summary_says_what_its_intervals_are() -> None:
    """The summary's columns are headed "95% CI (Wilson)" and "95% CI (Hall)": a line under the
    table says what those are and what each rate counts (rounds, games), as `rummy101 report`
    says in its table headings, so a reader of the run's log alone can quote them."""
    res = sim.simulate("rummy101(players=2)", "greedy,random", 5, seed=3, workers=1,
                       progress=False)
    lines = res.summary().splitlines()
    notes = [line for line in lines if line.startswith("95% CI:")]
    assert len(notes) == 1, lines
    note = notes[0]
    assert lines.index(note) == 3 + len(res.seats)  # right under the table rows
    for words in ("Wilson score intervals", "finish rate: of the rounds", "best rate: of the games",
                  "Student's t corrected for skewness (Hall 1992", "per-game differences"):
        assert words in note, note

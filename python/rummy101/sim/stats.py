"""Statistics of a simulation: per-seat aggregates with Wilson intervals, and the summary table.

>>> lo, hi = wilson_interval(60, 100)
>>> f"{lo:.4f} {hi:.4f}"
'0.5020 0.6906'
"""

from __future__ import annotations

import functools
import math
import numbers
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .._validate import whole_number
from ..errors import RulesError
from ..rules import Rules
from .errors import SimError
from .record import GameRecord

__all__ = ["INTERVALS_NOTE", "SEATS_NOT_ROTATED", "GameTally", "SeatStats", "SimResult", "clamp_if_inside",
           "clamp_interval", "format_rate", "format_summary", "no_spread_note", "raise_to_two_part", "score_bounds", "two_part_upper",
           "wilson_interval"]

_Z95 = 1.959963984540054  # two-sided 95% normal quantile

#: The note under a table of one game, whose sd and interval are printed as "-".
UNDEFINED_WITH_ONE_GAME = ("with 1 game the sd and the interval are undefined (shown as -): a "
                           "sample standard deviation needs 2 games or more")


#: The line under the summary's table: what its three intervals are and what each counts.
INTERVALS_NOTE = ("95% CI: the rates' are Wilson score intervals (finish rate: of the rounds "
                  "played; best rate: of the games), the mean score's is Student's t corrected "
                  "for skewness (Hall 1992; from 10 games on), kept within the scores the rules "
                  "allow; each is one seat's own: to compare two seats take their per-game "
                  "differences (docs/simulation.md, 'How honest are the intervals')")


#: The note under a classic table (CR-6): what its mean score's interval is.
TWO_PART_NOTE = ("mean score's 95% CI: a classic seat scores 0 unless it wins a round (CR-6), so "
                 "its upper bound is at least the two-part bound, the share of games it scored "
                 "in (Wilson) times their mean (t), combined by MOVER; with fewer than 2 "
                 "different scores only the rules bound that mean (docs/simulation.md, 'A seat "
                 "that rarely scores')")


#: The note under a table whose line-up mixes bots: its rows are bots in their seats.
SEATS_NOT_ROTATED = ("seats are not rotated: seat 0 starts the first round of every game, so a "
                     "row measures its bot in that seat, not the bot alone; to compare bots "
                     "apart from their seats, run each seating with the same --seed (the same "
                     "deals; `rummy101 report` prints one table per seating, bench/ladder.py "
                     "pairs them; docs/simulation.md, 'Seats are not rotated')")


def no_spread_note(seats: Sequence[SeatStats]) -> str | None:
    """The note under a table in which some seat scored the same in every one of 2 or more
    games (sd 0): its interval has no width, ``[-202.0, -202.0]``, which reads as the mean
    known exactly; it says only that these games did not vary (four random bots in Rummy 101
    lose 202 points in most games, but not in all). A seat whose interval has width all the
    same is not named: a classic seat that scored 0 in every game has the two-part upper bound
    (:func:`two_part_upper`), and TWO_PART_NOTE says what that is."""
    flat = [st for st in seats if st.games > 1 and st.sd_score == 0
            and st.mean_ci95[0] == st.mean_ci95[1]]
    if not flat:
        return None
    which = ", ".join(f"{st.seat} ({st.min_score} points)" for st in flat)
    return (f"sd 0 in seat{'s' if len(flat) > 1 else ''} {which}: all {flat[0].games:,} games "
            f"scored the same, so the interval has no width; it says these games did not vary, "
            f"not that the mean is known exactly (a rarer score may not have shown yet)")


def wilson_interval(successes: int, trials: int, z: float = _Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (95% by default).

    >>> wilson_interval(0, 10)[0], round(wilson_interval(0, 10)[1], 4)
    (0.0, 0.2775)
    >>> wilson_interval(0, 0)
    (0.0, 1.0)
    >>> wilson_interval(10, 10)[1]
    1.0
    """
    # (5 of 3 or -1 of 10 were "math domain error", a float count or z=-1 a wrong interval)
    counts = [whole_number(v) for v in (successes, trials)]
    if counts[0] is None or counts[1] is None or not 0 <= counts[0] <= max(counts[1], 0):
        raise SimError(f"wilson_interval takes whole numbers 0 <= successes <= trials, got "
                       f"successes={successes!r:.30} and trials={trials!r:.30}")
    if isinstance(z, bool) or not isinstance(z, numbers.Real) or not 0 < z < math.inf:
        raise SimError(f"z must be a positive number (1.96 for 95%), got {z!r:.30}")
    successes, trials = counts[0], counts[1]
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = z * z
    denom = 1.0 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denom
    # At 0 successes the lower bound is 0 and at all successes the upper bound is 1, exactly
    # (centre and half cancel there); computed, they missed by a rounding error (5.6e-17 at
    # 0/3, 0.9999999999999999 at 10/10), an interval that left out its own estimate.
    lo = 0.0 if successes <= 0 else max(0.0, centre - half)
    hi = 1.0 if successes >= trials else min(1.0, centre + half)
    return (lo, hi)


def format_rate(x: float) -> str:
    """A rate or an interval bound as the tables print it: three decimals, and two significant
    digits of a rate within 0.01 of 0 or 1 (exactly 0 and 1 stay ``0.000`` and ``1.000``).

    Three decimals alone printed 1 finish in 3,000 rounds as ``0.000`` and its Wilson interval
    [0.000059, 0.0019] as ``[0.000, 0.002]``, a lower bound that reads as 0 and a rate that
    reads as never:

    >>> format_rate(1 / 3000), format_rate(5.89e-05), format_rate(0.0013), format_rate(0.0)
    ('0.00033', '0.000059', '0.0013', '0.000')
    >>> format_rate(2999 / 3000), format_rate(0.468), format_rate(1.0), format_rate(0.0671)
    ('0.99967', '0.468', '1.000', '0.067')
    """
    if math.isnan(x):
        return "-"
    near = min(x, 1.0 - x)
    digits = 3
    if 0.0 < near < 0.01:
        digits = max(3, 1 - math.floor(math.log10(near)))
        if f"{near:.{digits}f}" == f"{0.01:.{digits}f}":  # rounds up to 0.01: three will do
            digits = 3
    return f"{x:.{digits}f}"


@dataclass(frozen=True)
class SeatStats:
    """Aggregates for one seat over a run. Finishing and scoring best are counted apart: a round
    ends either with a finish (R101-12, the finisher is its only winner) or with the stock
    exhausted (R101-13: no winner, everyone loses a penalty), so "best score" is no win rate.

    ``finished`` rounds this seat finished, of ``rounds`` played (``finish_rate`` and its 95%
    Wilson interval ``finish_ci95``); ``best`` games in which the seat had the strictly highest
    final standing, of ``games`` (``best_rate``, ``best_ci95``); ``finishes`` the finished
    rounds by finish type; ``mean_score`` with its 95% interval ``mean_ci95`` (Student's t
    corrected for skewness, :func:`skew_t_interval`); ``sd_score`` the sample standard
    deviation of the scores (n - 1 in the denominator): nan with one game, where a spread is
    undefined (not 0: one game shows no spread, it does not show that there is none), as is
    the interval."""

    seat: int
    bot: str
    games: int
    rounds: int
    finished: int
    finish_rate: float
    finish_ci95: tuple[float, float]
    best: int
    best_rate: float
    best_ci95: tuple[float, float]
    mean_score: float
    sd_score: float                # nan with one game (undefined), as mean_ci95
    min_score: int
    max_score: int
    finishes: dict[str, int]       # rounds this seat finished, by finish type
    mean_turns_per_round: float
    #: the mean score's 95% interval (:func:`skew_t_interval`, cut to the scores the rules
    #: allow, :func:`score_bounds`; in classic its upper bound at least :func:`two_part_upper`;
    #: nan, nan with one game), as ``rummy101 report`` prints it
    mean_ci95: tuple[float, float] = (math.nan, math.nan)


@dataclass
class SimResult:
    """The outcome of :func:`simulate`: the per-game records in game order and per-seat stats.

    ``records`` holds one :class:`GameRecord` per game (none when the run was asked not to keep
    them, ``simulate(..., keep_records=False)``: the stats, the summary and ``games`` cover
    every game all the same, from ``tally``); ``seats`` one :class:`SeatStats` per seat
    (``seats[s].bot``, ``finished`` / ``finish_rate`` / ``finish_ci95``, ``best`` / ``best_rate``
    / ``best_ci95``, ``mean_score``, ``sd_score``, ``min_score``, ``max_score``, ``finishes``,
    ``mean_turns_per_round``); :meth:`to_rows` gives flat per-game rows (pandas, CSV)."""

    rules: str
    bots: tuple[str, ...]
    seed: int
    records: list[GameRecord]
    seats: list[SeatStats] = field(default_factory=list)
    ties: int = 0                                   # games without a unique best standing
    finish_counts: dict[str, int] = field(default_factory=dict)  # round endings, over all rounds
    #: the aggregates of every game of the run (what ``seats`` and the summary are built from)
    tally: GameTally | None = field(default=None, repr=False, compare=False)

    @property
    def rounds(self) -> int:
        """Rounds played over all games."""
        return sum(self.finish_counts.values())

    @property
    def exhausted(self) -> int:
        """Rounds that ended with the stock exhausted and no winner (R101-13)."""
        return self.finish_counts.get("exhausted", 0)

    @property
    def games(self) -> int:
        return len(self.records) if self.tally is None else self.tally.games

    def to_rows(self) -> list[dict[str, Any]]:
        """One flat dict per game, in game order (the CSV rows: ``game``, ``seed`` (the game
        seed), ``rules``, ``best``, ``rounds``, ``steps``, per seat ``bot_<s>``, ``score_<s>``,
        ``turns_<s>``, ``bot_seed_<s>``, then ``finishes``, ``finishers`` and ``round_scores`` as
        ``;``-joined text, ``run_seed``, ``game_seed`` and ``match_rounds``, the match length or
        classic cap). For pandas: ``pandas.DataFrame(result.to_rows())``."""
        return [rec.to_row() for rec in self.records]

    def summary(self) -> str:
        """A fixed-width summary table (what the CLI prints at the end)."""
        return format_summary(self)


def sd_of_sums(n: int, total: int, squares: int) -> float:
    """The sample standard deviation (n - 1 in the denominator) of ``n`` whole numbers from their
    ``total`` and the ``total`` of their ``squares``: the variance is a ratio of two exact
    integers, so it is correctly rounded however many games (no cancellation, one pass). nan for
    fewer than 2 values.

    >>> sd_of_sums(4, 0, 40000)      # 100, -100, 100, -100
    115.47005383792515
    """
    if n < 2:
        return math.nan
    return math.sqrt((n * squares - total * total) / (n * (n - 1)))


def skewness_of_sums(n: int, total: int, squares: int, cubes: int) -> float:
    """The sample skewness g1 = m3 / m2^(3/2) (central moments over ``n``) of ``n`` whole numbers
    from their ``total``, the total of their ``squares`` and of their ``cubes``: n^2 times the
    third central sum and n times the second are exact integers, so no cancellation however
    many games. 0 for fewer than 3 values or no spread (two values are always symmetric).

    >>> skewness_of_sums(3, 0, 2, 0)         # -1, 0, 1
    0.0
    >>> round(skewness_of_sums(4, 3, 9, 27), 4)  # 0, 0, 0, 3: a long right tail
    1.1547
    """
    c2 = n * squares - total * total                          # n * sum (x - mean)^2
    if n < 3 or c2 <= 0:
        return 0.0
    c3 = n * n * cubes - 3 * n * total * squares + 2 * total ** 3  # n^2 * sum (x - mean)^3
    return c3 / (c2 * math.sqrt(c2))    # (c3 / n^3) / (c2 / n^2)^(3/2)


def skew_t_interval(n: int, mean: float, sd: float, skew: float) -> tuple[float, float]:
    """The 95% interval of a mean from ``n`` values with sample standard deviation ``sd`` (n - 1
    in the denominator) and sample skewness ``skew`` (g1, :func:`skewness_of_sums`): Student's t
    interval corrected for skewness, ``(nan, nan)`` below 2 values. With ``skew`` 0 it is the t
    interval, mean ± t(0.975, n - 1) · sd / sqrt(n).

    The mean of skewed values is skewed too, and with few values the t interval, symmetric about
    it, covered 93-94% at 20 games of Rummy 101, missing mostly on the side of the short tail
    (docs/simulation.md, "How honest are the intervals"). Two terms of the Edgeworth expansion
    of the Studentized mean (Hall 1992, *The Bootstrap and Edgeworth Expansion*, section 2.6)
    make it so, and each is corrected:

    * the lean, of order 1/sqrt(n): Hall's (1992, "On the removal of skewness by
      transformation", JRSS B 54, 221-228) monotone cubic g(W) = W + γW²/3 + γ²W³/27 + γ/(6n)
      of W = (mean - mu) / sd removes it; the bounds are g's inverse at ±c/sqrt(n), shifted
      towards the long tail and wider on that side. g is increasing, with slope (1 + γW/3)²,
      which is 0 at W = -3/γ: past that flat point the inverse grows with the cube of the
      quantile, from a term the expansion holds only to keep g monotone, so the long-tail
      bound stops there (at most 3·sd/|γ| beyond the mean). With a large sample skewness (two
      finishes of +101 and +150 among 18 games at -10: 2.8) it stopped the upper bound at
      +48 rather than +92; the coverage measured did not change, and the widest 1% of the
      intervals of 20 games narrowed by 30%;
    * the two-sided shortfall, of order 1/n, which the skewness leaves whatever the lean:
      P(|T| <= x) falls short of the t distribution's by (2/n)·φ(x)·x·γ²(x⁴ + 2x² - 3)/18, so
      the quantile c is t(0.975, n - 1) + (z/n)·γ²(z⁴ + 2z² - 3)/18 (z = 1.96: +1.08 γ² z/n).
      The expansion's kurtosis term is left out: its weight is 0.07 against 1.08, and for
      heavy tails it would narrow the interval.

    Below :data:`SKEW_MIN_VALUES` (10) values it is the t interval: the skewness of so few is
    mostly noise (its standard error, sqrt(6/n), is 0.8 or more), and measured on 4 and 5 games
    of Rummy 101 the correction widened the interval by half without raising its coverage.

    It costs two cube roots, from the running sums of x, x² and x³ (O(1) memory however many
    games).

    >>> skew_t_interval(3, 20.0, 10.0, 0.0)   # 10, 20, 30: the t interval
    (-4.84..., 44.84...)
    >>> skew_t_interval(3, 20.0, 10.0, 0.5)   # too few values to correct: the t interval
    (-4.84..., 44.84...)
    >>> lo, hi = skew_t_interval(20, 0.0, 10.0, 1.5)   # a long right tail: shifted right
    >>> round(lo, 2), round(hi, 2)
    (-4.16, 8.32)
    """
    if n < 2:
        return (math.nan, math.nan)
    from .report import t_quantile_95  # report imports this module

    if n < SKEW_MIN_VALUES or skew == 0 or sd == 0 or not math.isfinite(skew):
        y = t_quantile_95(n - 1) / math.sqrt(n)
        return (mean - y * sd, mean + y * sd)
    g = skew
    y = (t_quantile_95(n - 1) + _Z95 * g * g * _SHORTFALL / n) / math.sqrt(n)

    def inverse(v: float) -> float:   # g^-1(v) = 3/γ ((1 + γ (v - γ/6n))^(1/3) - 1)
        a = g * (v - g / (6 * n))
        # cbrt(1 + a) - 1 without the cancellation of a small a (a small skewness); at most
        # to g's flat point, W = -3/γ (a = -1)
        root1 = math.expm1(math.log1p(a) / 3) if a > -1 else -1.0
        return 3 * root1 / g

    return (mean - sd * inverse(y), mean - sd * inverse(-y))


def two_part_upper(n: int, scored: int, total: int, squares: int, cubes: int,
                   high: float) -> float:
    """The upper 95% bound of the mean of ``n`` scores of which ``scored`` are nonzero (all of
    them positive, every one at most ``high``), whose ``total``, ``squares`` and ``cubes`` are
    those of all ``n`` (the zeros add nothing to them, so they are the nonzero scores' sums
    too): nan below 2 scores.

    A classic seat scores 0 unless it wins a round (CR-6), so its mean is p·μ₊, p the share of
    games with a score and μ₊ their mean score. A seat that rarely wins (random against greedy:
    3 scoring matches in 20) shows too few scores for the t interval of all ``n`` to see how
    far p may lie above its ``scored`` / ``n``: it covered the true mean in 83% of 1,000 runs of
    20 matches, its misses nearly all below (docs/simulation.md, "A seat that rarely scores").
    This bound takes the two parts apart: p's Wilson interval, μ₊'s interval from the
    ``scored`` scores (:func:`skew_t_interval`, cut to ``high``), combined on the log scale by
    the MOVER of Zou & Donner (2008), as Zou, Taleban & Huo (2009, *Computational Statistics
    & Data Analysis* 53, 3755-3764) do for a mean with excess zeros:
    log U = log p̂ + log μ̂₊ + sqrt(log(p_hi / p̂)² + log(μ₊_hi / μ̂₊)²).
    With fewer than 2 scores, or no spread among them, nothing bounds μ₊ but the rules:
    U = p_hi · ``high`` (the mean is at most p·``high``, and p at most p_hi). With no zeros
    it is the t interval's bound of all ``n``, cut to ``high`` (nothing to take apart).

    >>> round(two_part_upper(20, 0, 0, 0, 0, 210.0), 2)    # no score in 20: p <= 0.16
    33.84
    >>> round(two_part_upper(20, 3, 15, 107, 855, 210.0), 2)   # scores 1, 5 and 9
    3.05
    """
    if n < 2:
        return math.nan
    mu = total / scored if scored else 0.0
    sd = sd_of_sums(scored, total, squares)
    if scored == n:   # no zeros: nothing to take apart, the t interval's bound (cut to high)
        return min(skew_t_interval(n, mu, sd, skewness_of_sums(n, total, squares, cubes))[1],
                   high)
    p_hi = wilson_interval(scored, n)[1]
    if scored < 2 or sd == 0:   # no spread among the scores: only the rules bound μ₊
        return p_hi * high
    mu_hi = min(skew_t_interval(scored, mu, sd, skewness_of_sums(scored, total, squares, cubes))[1],
                high)
    p = scored / n
    return min(p * mu * math.exp(math.hypot(math.log(p_hi / p), math.log(mu_hi / mu))), high)


def raise_to_two_part(interval: tuple[float, float], bounds: tuple[float, float], seen_lo: float,
                      seen_hi: float, n: int, scored: int, total: int, squares: int,
                      cubes: int) -> tuple[float, float]:
    """``interval`` of a classic seat's mean (CR-6: 0 unless it won a round) with its upper bound
    raised to at least :func:`two_part_upper`, when the scores seen lie in ``bounds``, which
    run from 0 or more to a finite most, and there are 2 games or more; else ``interval``."""
    low, high = bounds
    if not (0 <= low <= seen_lo and seen_hi <= high < math.inf and n > 1):
        return interval
    return (interval[0], max(interval[1], two_part_upper(n, scored, total, squares, cubes, high)))


def clamp_interval(interval: tuple[float, float], low: float, high: float) -> tuple[float, float]:
    """``interval`` cut to ``[low, high]``, the values a mean can take when every value it
    averages lies in ``[low, high]`` (a mean of such values lies there too): what is cut off is
    no possible mean, so the cut interval covers the true mean whenever the whole one did (its
    coverage can only rise) and it is never wider. ``low`` / ``high`` are bounds certain from
    the rules (:func:`score_bounds`), never the smallest and largest values seen: a mean can lie
    beyond what a few games showed. nan stays nan; ``-inf`` / ``inf`` leave that side alone.

    >>> clamp_interval((-0.2, 2.5), 0.0, math.inf)    # classic: no game scores below 0 (CR-6)
    (0.0, 2.5)
    >>> clamp_interval((-30.0, 1300.0), -math.inf, 1212.0)   # Rummy 101, 3 rounds: 3 x 404
    (-30.0, 1212.0)
    """
    lo, hi = interval
    if math.isnan(lo) or math.isnan(hi):
        return interval
    return (min(max(lo, low), high), max(min(hi, high), low))


def clamp_if_inside(interval: tuple[float, float], bounds: tuple[float, float],
                    lowest: float, highest: float) -> tuple[float, float]:
    """:func:`clamp_interval` to ``bounds`` when the values averaged, from ``lowest`` to
    ``highest``, all lie in them; else ``interval`` whole: a value outside shows that they are
    not these values' bounds (a hand-edited file, another version's scoring).

    >>> clamp_if_inside((-0.2, 2.5), (0.0, math.inf), 0, 8)
    (0.0, 2.5)
    >>> clamp_if_inside((-0.2, 2.5), (0.0, math.inf), -10, 8)
    (-0.2, 2.5)
    """
    if lowest < bounds[0] or highest > bounds[1]:
        return interval
    return clamp_interval(interval, *bounds)


def score_bounds(rules: str, match_rounds: int | None = None, rounds: int = 1) -> tuple[float, float]:
    """``(low, high)``: the range of one seat's score in one game (its final standing, the sum
    of its round scores, what :class:`GameRecord` ``scores`` holds and ``sim`` averages) that
    the rules make certain, ``-inf`` / ``inf`` where they set no bound that could matter.

    * classic (CR-6): only a round's winner scores, the cards left in the other hands, so no
      game scores below 0. Those hands hold at most ``hand_size`` cards each (CR-1: 7; a turn
      draws one card and discards one, CR-3), at most the ``(players - 1) * hand_size``
      highest card values of the deck (CR-2: 16 tens, then nines: 204 with 4 players, 70
      with 2) a round; a match goes on only while every total is below the target, so a total
      is at most ``target - 1`` plus one round, and at most the cap ``match_rounds`` times one
      round (with no cap known, the target alone bounds it).
    * Rummy 101 (R101-13): a round gives its finisher at most +404 (a joker finish in one
      turn) and the others a penalty (0 or less), so a game of ``match_rounds`` rounds (every
      match plays them all; ``rounds`` played when the record does not say) scores at most 404
      a round. Below, a penalty is counted from the tiles left on the rack (joker 101, doubled
      after a pairs opening, twice again with a joker finish), bounded only by the whole set:
      thousands of points a round, far below any interval printed, so no lower bound.
    * Remi (RO-11, RO-12): a tabla close scores up to 3,200, doubled twice, and a player who
      laid out loses the value of every tile left on the rack, however many the train brought:
      only the whole set bounds either side, so no bound.

    Rules that do not parse give no bound.

    >>> score_bounds("classic", 3)              # 199 + 204 < 3 x 204
    (0.0, 403.0)
    >>> score_bounds("classic(players=2)", 2)   # 2 x 70 < 199 + 70
    (0.0, 140.0)
    >>> score_bounds("rummy101", 3)
    (-inf, 1212.0)
    >>> score_bounds("remi", 1)
    (-inf, inf)
    """
    return _score_bounds(rules, match_rounds, rounds)


@functools.lru_cache(maxsize=256)
def _score_bounds(rules: str, match_rounds: int | None, rounds: int) -> tuple[float, float]:
    try:
        parsed = Rules.parse(rules)
    except RulesError:   # a hand-edited record's rules: no bound known
        return (-math.inf, math.inf)
    if parsed.variant == "classic":
        values = sorted((min(rank, 10) for rank in range(1, 14) for _ in range(4)), reverse=True)
        one_round = sum(values[:(parsed.players - 1) * parsed.hand_size])     # CR-1, CR-2
        high = parsed.opts.target - 1 + one_round                             # CR-6
        if match_rounds is not None:
            high = min(high, match_rounds * one_round)
        return (0.0, float(high))
    if parsed.variant == "rummy101":
        return (-math.inf, float(_R101_MOST_A_ROUND * max(match_rounds or 0, rounds)))
    return (-math.inf, math.inf)


@functools.lru_cache(maxsize=256)
def _only_winners_score(rules: str) -> bool:
    """Whether only a round's winner scores in ``rules`` (classic, CR-6): a seat's score is 0
    in every game it won no round of. Rules that do not parse: no."""
    try:
        return Rules.parse(rules).variant == "classic"
    except RulesError:
        return False


#: A Rummy 101 round's most points: +101 for a finish, doubled by a joker finish and by a finish
#: in one turn (R101-13).
_R101_MOST_A_ROUND = 404


#: The fewest values whose skewness corrects the interval of their mean (:func:`skew_t_interval`).
SKEW_MIN_VALUES = 10

#: (z⁴ + 2z² - 3) / 18 at the 95% normal quantile: the γ² weight of the two-sided shortfall
_SHORTFALL = (_Z95 ** 4 + 2 * _Z95 ** 2 - 3) / 18


class GameTally:
    """Per-seat aggregates of games added one at a time: what :class:`SeatStats`, the ties, the
    round endings and the match-length line need, without keeping the games (``rummy101
    report`` streams millions of records through one of these per group; ``simulate`` builds
    its ``seats`` with one). Scores are whole numbers, summed exactly."""

    def __init__(self, seats: int) -> None:
        self.games = 0
        self.rounds = 0                         # rounds played over all games
        self.ties = 0                           # games without a unique best standing
        self.finish_counts: dict[str, int] = {}  # round endings by finish type
        self.lengths: dict[int, int] = {}       # games by the rounds they played
        self.caps: set[int | None] = set()      # the records' match_rounds (a classic cap)
        self.run_seeds: set[int] = set()
        self.total = [0] * seats
        self.squares = [0] * seats
        self.cubes = [0] * seats                # for the skewness of the mean's interval
        #: games in which each seat scored (nonzero): the two-part bound of a classic mean
        #: (:func:`two_part_upper`)
        self.scored = [0] * seats
        #: every game added is of a variant in which only a round's winner scores (classic,
        #: CR-6): a seat's score is 0 unless it won a round
        self.only_winners_score = True
        self._winners_rules: str | None = None     # the last rules checked for it
        self.low: list[int | None] = [None] * seats
        self.high: list[int | None] = [None] * seats
        self.best = [0] * seats
        self.turns = [0] * seats
        self.finished: list[dict[str, int]] = [{} for _ in range(seats)]
        #: the range every game added could score in (:func:`score_bounds`, the widest over
        #: their rules and lengths): what the mean's interval is cut to
        self.bounds: tuple[float, float] = (math.inf, -math.inf)

    def add(self, r: GameRecord) -> None:
        self.games += 1
        least, most = score_bounds(r.rules, r.match_rounds, r.rounds)
        if self.only_winners_score and r.rules != self._winners_rules:   # (parsed once a run)
            self.only_winners_score = _only_winners_score(r.rules)
            self._winners_rules = r.rules
        if least < self.bounds[0] or most > self.bounds[1]:
            self.bounds = (min(least, self.bounds[0]), max(most, self.bounds[1]))
        self.rounds += r.rounds
        self.lengths[r.rounds] = self.lengths.get(r.rounds, 0) + 1
        self.caps.add(r.match_rounds)
        if r.run_seed is not None:
            self.run_seeds.add(r.run_seed)
        seats = len(self.total)
        if r.best is None:
            self.ties += 1
        elif 0 <= r.best < seats:
            self.best[r.best] += 1
        for s in range(seats):
            x = r.scores[s]
            self.total[s] += x
            self.squares[s] += x * x
            self.cubes[s] += x * x * x
            if x:
                self.scored[s] += 1
            lo, hi = self.low[s], self.high[s]
            self.low[s] = x if lo is None or x < lo else lo
            self.high[s] = x if hi is None or x > hi else hi
            self.turns[s] += r.turns[s]
        for kind, who in zip(r.finishes, r.finishers):
            self.finish_counts[kind] = self.finish_counts.get(kind, 0) + 1
            if who is not None and 0 <= who < seats:
                fin = self.finished[who]
                fin[kind] = fin.get(kind, 0) + 1

    def add_all(self, records: Sequence[GameRecord]) -> None:
        for r in records:
            self.add(r)

    def merge(self, other: GameTally) -> None:
        """Add the games ``other`` counted (the same seats): one tally of both, as if every
        game had been added to this one (how ``rummy101 sim --resume`` sums the games read
        back from its file and those it plays)."""
        if len(other.total) != len(self.total):
            raise ValueError(f"tallies of {len(self.total)} and {len(other.total)} seats")
        self.games += other.games
        self.rounds += other.rounds
        self.ties += other.ties
        for kind, v in other.finish_counts.items():
            self.finish_counts[kind] = self.finish_counts.get(kind, 0) + v
        for rounds, v in other.lengths.items():
            self.lengths[rounds] = self.lengths.get(rounds, 0) + v
        self.caps |= other.caps
        self.run_seeds |= other.run_seeds
        self.bounds = (min(self.bounds[0], other.bounds[0]), max(self.bounds[1], other.bounds[1]))
        self.only_winners_score = self.only_winners_score and other.only_winners_score
        if self._winners_rules is None:   # (a cache, but merged as one tally of both would hold)
            self._winners_rules = other._winners_rules
        for s in range(len(self.total)):
            self.total[s] += other.total[s]
            self.squares[s] += other.squares[s]
            self.cubes[s] += other.cubes[s]
            self.scored[s] += other.scored[s]
            self.best[s] += other.best[s]
            self.turns[s] += other.turns[s]
            self.low[s] = _either(min, self.low[s], other.low[s])
            self.high[s] = _either(max, self.high[s], other.high[s])
            fin = self.finished[s]
            for k, v in other.finished[s].items():
                fin[k] = fin.get(k, 0) + v

    def mean_sd(self, s: int) -> tuple[float, float]:
        """Seat ``s``'s mean score and its sample standard deviation (nan with one game)."""
        n = self.games
        return (self.total[s] / n if n else 0.0), sd_of_sums(n, self.total[s], self.squares[s])

    def mean_interval(self, s: int) -> tuple[float, float]:
        """Seat ``s``'s mean score's 95% interval (:func:`skew_t_interval`: Student's t
        corrected for the scores' skewness; nan, nan with one game), cut to the scores the
        rules allow (:func:`score_bounds`, :func:`clamp_interval`: a classic mean is never
        below 0). A game scored outside those bounds (a hand-edited file, another version's
        scoring) shows they are not these games' bounds: the interval is then left whole.

        Where only a round's winner scores (classic, CR-6) the upper bound is at least the
        two-part bound (:func:`two_part_upper`, from the games the seat scored in): a seat
        that rarely wins shows too few scores for the t interval alone. A tally without that
        count (``scored``: pickled by a version before it) keeps the t interval's bound."""
        mean, sd = self.mean_sd(s)
        skew = skewness_of_sums(self.games, self.total[s], self.squares[s], self.cubes[s])
        interval = skew_t_interval(self.games, mean, sd, skew)
        seen_lo, seen_hi = self.low[s], self.high[s]
        if seen_lo is None or seen_hi is None:
            return interval
        scored = getattr(self, "scored", None)
        if scored is not None and getattr(self, "only_winners_score", False):
            interval = raise_to_two_part(interval, self.bounds, seen_lo, seen_hi, self.games,
                                         scored[s], self.total[s], self.squares[s], self.cubes[s])
        return clamp_if_inside(interval, self.bounds, seen_lo, seen_hi)

    def seat_stats(self, bots: Sequence[str]) -> list[SeatStats]:
        n, rounds = self.games, self.rounds
        seats: list[SeatStats] = []
        for s, name in enumerate(bots):
            mean, sd = self.mean_sd(s)
            fin = self.finished[s]
            finished = sum(fin.values())
            seats.append(SeatStats(
                seat=s, bot=name, games=n, rounds=rounds, finished=finished,
                finish_rate=finished / rounds if rounds else 0.0,
                finish_ci95=wilson_interval(finished, rounds), best=self.best[s],
                best_rate=self.best[s] / n if n else 0.0, best_ci95=wilson_interval(self.best[s], n),
                mean_score=mean, sd_score=sd,
                min_score=self.low[s] or 0, max_score=self.high[s] or 0,
                finishes=dict(sorted(fin.items())),
                mean_turns_per_round=self.turns[s] / rounds if rounds else 0.0,
                mean_ci95=self.mean_interval(s)))
        return seats

    def endings(self) -> dict[str, int]:
        """The round endings by finish type, in name order."""
        return dict(sorted(self.finish_counts.items()))


def _either(pick: Any, a: int | None, b: int | None) -> int | None:
    """``pick(a, b)`` of two extremes, either of which may be None (no game yet)."""
    return b if a is None else a if b is None else pick(a, b)


def _stats(records: Sequence[GameRecord], bots: Sequence[str]) -> tuple[list[SeatStats], int, dict[str, int]]:
    tally = GameTally(len(bots))
    for r in records:
        tally.add(r)
    return tally.seat_stats(bots), tally.ties, tally.endings()


#: What each part of a finish kind means (sim.record.finish_type), for the summary's legend,
#: with the rule of the variant simulated (Remi's and classic's entries replace these).
_KIND_PARTS = {
    "normal": "laid out, no feature below (R101-12)",
    "atu": "took the Atu to finish (RO-4)",
    "tabla": "tabla close on the rack (RO-11)",
    "one_turn": "the whole hand in one turn (R101-12)",
    "joker": "last discard a joker (R101-12)",
}
_VARIANT_KIND_PARTS = {
    "remi": {"normal": "laid out (etalat), no feature below (RO-13)",
             "joker": "last discard a Joly (RO-12)"},
    "classic": {"normal": "went out (CR-4)"},
}
#: The rule by which a finisher wins the round, per variant.
_FINISH_RULE = {"rummy101": "R101-12", "remi": "RO-13", "classic": "CR-4"}


def _match_length(rules: str, records: Sequence[GameRecord]) -> tuple[str, str | None]:
    """What the summary's first line says after the rules, as ``rummy101 report`` labels its
    tables: ``", matches of 3 rounds"`` (Rummy 101, Remi), ``", matches to the target score,
    capped at 3 rounds"`` (classic); and, for a classic cap, a line saying how many matches
    played every round up to it (their points are those of the cap, not of a finished match)."""
    lengths: dict[int, int] = {}
    for r in records:
        lengths[r.rounds] = lengths.get(r.rounds, 0) + 1
    return match_length(rules, lengths, {r.match_rounds for r in records})


def match_length(rules: str, lengths: dict[int, int], caps: set[int | None]) -> tuple[str, str | None]:
    """:func:`_match_length` from the games counted by the rounds they played (``lengths``) and
    the classic caps (``match_rounds``) of their records."""
    if rules.split("(", 1)[0].strip().lower() != "classic":
        if len(lengths) == 1 and 1 not in lengths:
            return f", matches of {next(iter(lengths)):,} rounds", None
        return "", None
    if len(caps) != 1 or None in caps:
        return ", matches to the target score", None
    cap = int(next(iter(caps)) or 0)
    played_all = sum(k for rounds, k in lengths.items() if rounds >= cap)
    rounds = f"{cap:,} round{'' if cap == 1 else 's'}"
    if not played_all:  # the usual case of the default cap: one short line, not the caveat
        return (f", matches to the target score, capped at {rounds}",
                (f"matches that played all {rounds} of the cap: none (every match reached the "
                 f"target score before it, CR-6)"))
    total = sum(lengths.values())
    # ('the others reached the target' when there were none, 'all 1 round' for a cap of 1)
    note = (f"matches that played {'all' if cap > 1 else 'the'} {rounds} of the cap: "
            f"{played_all:,} of {total:,} ({'the others' if played_all < total else 'none'} "
            f"reached the target score before it, CR-6; one that played "
            f"{'them all' if cap > 1 else 'it'} may have stopped at the cap with nobody at the "
            f"target: its points and best score are those after {rounds})")
    return f", matches to the target score, capped at {rounds}", note


def format_summary(result: SimResult) -> str:
    """Render the per-seat table of a :class:`SimResult`: finishes (the round's winner, R101-12)
    and best final standings in separate columns, and the round endings below."""
    tally = result.tally
    length, capped = (_match_length(result.rules, result.records) if tally is None
                      else match_length(result.rules, tally.lengths, tally.caps))
    head = (f"{result.games:,} game{'s' if result.games != 1 else ''} of {result.rules}{length}, "
            f"seed {result.seed}; bots {','.join(result.bots)}")
    cols = ("seat", "bot", "finished", "finish rate", "95% CI (Wilson)", "best score",
            "best rate", "95% CI (Wilson)", "mean score", "95% CI (Hall)", "sd", "min", "max", "turns/round",
            "finishes")
    rows = []
    for st in result.seats:
        fin = ", ".join(f"{k} {v:,}" for k, v in st.finishes.items()) or "-"
        rows.append((str(st.seat), st.bot, f"{st.finished:,}/{st.rounds:,}",
                     format_rate(st.finish_rate),
                     f"[{format_rate(st.finish_ci95[0])}, {format_rate(st.finish_ci95[1])}]",
                     f"{st.best:,}/{st.games:,}", format_rate(st.best_rate),
                     f"[{format_rate(st.best_ci95[0])}, {format_rate(st.best_ci95[1])}]",
                     f"{st.mean_score:.1f}",
                     "-" if math.isnan(st.mean_ci95[0])
                     else f"[{st.mean_ci95[0]:.1f}, {st.mean_ci95[1]:.1f}]",
                     "-" if math.isnan(st.sd_score) else f"{st.sd_score:.1f}", str(st.min_score), str(st.max_score),
                     f"{st.mean_turns_per_round:.1f}", fin))
    left = (1, len(cols) - 1)
    widths = [max(len(c), *(len(r[i]) for r in rows)) if rows else len(c) for i, c in enumerate(cols)]
    def line(cells: Sequence[str]) -> str:
        return "  ".join(c.ljust(w) if i in left else c.rjust(w)
                         for i, (c, w) in enumerate(zip(cells, widths))).rstrip()
    out = [head, line(cols), line(["-" * w for w in widths])]
    out += [line(r) for r in rows]
    out.append(INTERVALS_NOTE)
    if result.games == 1:
        out.append(UNDEFINED_WITH_ONE_GAME)
    flat = no_spread_note(result.seats)
    if flat is not None:
        out.append(flat)
    if result.tally is not None and result.tally.only_winners_score and result.games > 1:
        out.append(TWO_PART_NOTE)
    if len(set(result.bots)) > 1:
        out.append(SEATS_NOT_ROTATED)
    rounds = result.rounds
    ex = result.exhausted
    # the rule that ends a round with no winner: R101-13, RO-10 (the stock runs out after its one
    # reshuffle) or CR-5 (the second exhaustion), by the variant simulated
    variant = result.rules.split("(", 1)[0].strip().lower()
    rule = {"remi": "RO-10", "classic": "CR-5"}.get(variant, "R101-13")
    out.append(f"rounds: {rounds:,}; finished {rounds - ex:,}, stock exhausted with no winner {ex:,} "
               f"({rule}); round endings: "
               + (", ".join(f"{k} {v:,}" for k, v in result.finish_counts.items()) or "-"))
    meaning = {**_KIND_PARTS, **_VARIANT_KIND_PARTS.get(variant, {})}
    parts = {p for k in result.finish_counts for p in _KIND_PARTS if p in k}
    if parts:
        out.append("finish kinds (sim.finish_type): "
                   + "; ".join(f"{p} = {meaning[p]}" for p in _KIND_PARTS if p in parts))
    best = ("the strictly highest final standing of the match (CR-6)" if variant == "classic"
            else "the strictly highest final standing, which after an exhausted round means "
                 "losing least, not winning")
    if capped is not None:
        out.append(capped)
    out.append(f"finished = rounds won by finishing ({_FINISH_RULE.get(variant, 'R101-12')}); "
               f"best score = games with {best}; no unique best score: {result.ties:,} "
               f"game{'' if result.ties == 1 else 's'}")
    return "\n".join(out)

"""Reports on simulation results (``rummy101 report``): per-seat tables of points per game
(mean with a 95% interval, Student's t corrected for skewness) and of finish and best-score
rates (95% Wilson intervals), one table per rule set, line-up of bots and match length found in
the records (Rummy 101, Remi: the rounds every match played; classic: the ``--rounds`` cap of
matches played to a target).

>>> round(t_quantile_95(10), 3), round(t_quantile_95(1), 3)
(2.228, 12.706)
>>> mean_interval([10, 20, 30])
(20.0, -4.841..., 44.841...)
"""

from __future__ import annotations

import hashlib
import math
from array import array
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from .record import GameRecord
from .stats import (
    _Z95,
    SEATS_NOT_ROTATED,
    TWO_PART_NOTE,
    UNDEFINED_WITH_ONE_GAME,
    GameTally,
    SeatStats,
    _only_winners_score,
    clamp_if_inside,
    format_rate,
    match_length,
    no_spread_note,
    raise_to_two_part,
    sd_of_sums,
    skew_t_interval,
    skewness_of_sums,
)

__all__ = ["ReportGroup", "drop_duplicates", "format_report", "group_records", "mean_interval",
           "summarise", "t_quantile_95"]

# Cornish-Fisher expansion of Student's t quantile in powers of 1/df (Abramowitz & Stegun
# 26.7.5) at the 0.975 normal quantile: within 0.005 of the exact value for df >= 3, but within
# 1e-7 only from df = 31 on, so below that the quantile is found on the exact distribution.
_EXACT_BELOW = 31
_G = (
    (_Z95 ** 3 + _Z95) / 4,
    (5 * _Z95 ** 5 + 16 * _Z95 ** 3 + 3 * _Z95) / 96,
    (3 * _Z95 ** 7 + 19 * _Z95 ** 5 + 17 * _Z95 ** 3 - 15 * _Z95) / 384,
    (79 * _Z95 ** 9 + 776 * _Z95 ** 7 + 1482 * _Z95 ** 5 - 1920 * _Z95 ** 3 - 945 * _Z95) / 92160,
)


def _t_central(t: float, df: int) -> float:
    """P(|T| <= t) for Student's t with a whole number ``df`` >= 2 of degrees of freedom, in
    closed form (Abramowitz & Stegun 26.7.3 odd, 26.7.4 even)."""
    theta = math.atan(t / math.sqrt(df))
    c2 = math.cos(theta) ** 2
    if df % 2:   # sin(theta) * (cos + 2/3 cos^3 + 2*4/(3*5) cos^5 + ... up to cos^(df-2))
        term = total = math.cos(theta)
        for k in range(3, df - 1, 2):
            term *= c2 * (k - 1) / k
            total += term
        return 2 / math.pi * (theta + math.sin(theta) * total)
    term = total = 1.0   # sin(theta) * (1 + 1/2 cos^2 + 1*3/(2*4) cos^4 + ... up to cos^(df-2))
    for k in range(2, df - 1, 2):
        term *= c2 * (k - 1) / k
        total += term
    return math.sin(theta) * total


def t_quantile_95(df: int) -> float:
    """The two-sided 95% quantile of Student's t with ``df`` degrees of freedom: exact for 1 and
    2, found by bisection on the exact distribution up to 30 (to 1e-12), the A&S 26.7.5
    expansion above (within 1e-7 there)."""
    if df < 1:
        raise ValueError(f"degrees of freedom must be >= 1, got {df}")
    if df == 1:
        return math.tan(math.pi * 0.475)                  # 12.706
    if df == 2:
        return 0.95 / math.sqrt(2 * 0.975 * 0.025)  # 4.303: (2p-1)/sqrt(2p(1-p)), p = 0.975
    if df < _EXACT_BELOW:
        lo, hi = _Z95, 4.31   # the quantile falls from t(2) = 4.303 towards the normal's
        while hi - lo > 1e-12:
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if _t_central(mid, df) < 0.95 else (lo, mid)
        return (lo + hi) / 2
    return _Z95 + math.fsum(g / df ** (i + 1) for i, g in enumerate(_G))


def mean_interval(values: Sequence[float], bounds: tuple[float, float] | None = None,
                  only_winners_score: bool = False) -> tuple[float, float, float]:
    """``(mean, low, high)``: the mean and its 95% confidence interval, Student's t corrected
    for the values' skewness (:func:`~rummy101.sim.stats.skew_t_interval`, Hall 1992; the t
    interval, mean ± t · sd / sqrt(n), when they are symmetric); a single value gives an
    interval of nan. ``bounds``, the range every value is certain to lie in (the scores of a
    rule set, :func:`~rummy101.sim.stats.score_bounds`), cuts the interval to it
    (:func:`~rummy101.sim.stats.clamp_if_inside`), unless a value lies outside it.
    ``only_winners_score`` (scores of a classic seat, CR-6: 0 unless it won a round; with
    ``bounds`` of 0 and a finite most) raises the upper bound to at least the two-part bound
    (:func:`~rummy101.sim.stats.two_part_upper`), as the summary prints it.

    >>> mean_interval([0, 0, 3])                  # t reaches below 0 ...
    (1.0, -3.30..., 5.30...)
    >>> mean_interval([0, 0, 3], (0.0, math.inf))  # ... which scores of at least 0 cannot mean
    (1.0, 0.0, 5.30...)
    """
    n = len(values)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = sum(values) / n
    if n == 1:
        return (mean, math.nan, math.nan)
    whole = [x for x in values if isinstance(x, int)]
    if len(whole) == n:  # exactly, as the reports' tallies (GameTally)
        total, squares = sum(whole), sum(x * x for x in whole)
        cubes = sum(x ** 3 for x in whole)
        sd = sd_of_sums(n, total, squares)
        skew = skewness_of_sums(n, total, squares, cubes)
    else:
        centre = math.fsum(values) / n   # (the cubes of deviations need a close centre)
        c2 = math.fsum((x - centre) ** 2 for x in values)
        sd = math.sqrt(c2 / (n - 1))
        skew = ((math.fsum((x - centre) ** 3 for x in values) / n) / (c2 / n) ** 1.5
                if n > 2 and c2 > 0 else 0.0)
    interval = skew_t_interval(n, mean, sd, skew)
    if bounds is not None:
        if only_winners_score and len(whole) == n:
            interval = raise_to_two_part(interval, bounds, min(values), max(values), n,
                                         sum(1 for x in whole if x), total, squares, cubes)
        interval = clamp_if_inside(interval, bounds, min(values), max(values))
    return (mean, *interval)


@dataclass(frozen=True)
class ReportGroup:
    """The games of one rule set and line-up of bots: ``seats`` (as :class:`SeatStats` in
    :func:`~rummy101.sim.simulate`'s result) and ``points[s]`` = ``(mean, low, high)`` of seat
    ``s``'s points per game with its 95% interval (:func:`mean_interval`)."""

    rules: str
    bots: tuple[str, ...]
    records: list[GameRecord]
    seats: list[SeatStats]
    points: list[tuple[float, float, float]]
    ties: int = 0
    finish_counts: dict[str, int] = field(default_factory=dict)
    #: the rounds of every match of the group (Rummy 101, Remi: a run's --rounds), or None for
    #: a variant whose matches play to a target score (classic: their lengths vary)
    match_rounds: int | None = None
    #: a variant whose matches play to a target score (classic, CR-6): the --rounds cap every
    #: match of the group was played with (the variant's default when the run gave none), or
    #: None when its records do not say (files written before records held ``match_rounds``)
    round_cap: int | None = None
    #: the games of the group (None: ``len(records)``); a streamed report keeps no records
    n_games: int | None = None
    #: the run seeds its records name, sorted (None: read from ``records``)
    seeds: tuple[int, ...] | None = None
    #: the games by the rounds they played (None: read from ``records``)
    lengths: dict[int, int] | None = None
    #: per seat, the score of every game in order, when a streamed report kept them (``--plot``)
    scores: tuple[Sequence[int], ...] | None = None
    #: the version of rummy101 that played the group's games (None: records without it); games
    #: played by different versions form different groups
    rummy101_version: str | None = None

    @property
    def to_target(self) -> bool:
        """Whether the group's matches play to a target score (classic, CR-6): then their
        lengths vary and ``round_cap`` is what ``--rounds`` set."""
        return _to_target(self.rules)

    @property
    def games(self) -> int:
        return len(self.records) if self.n_games is None else self.n_games

    def seat_scores(self) -> list[Sequence[int]]:
        """Per seat, the score of every game of the group in order (what ``--plot`` draws)."""
        if self.scores is not None:
            return list(self.scores)
        return [[r.scores[s] for r in self.records] for s in range(len(self.bots))]

    @property
    def capped_note(self) -> str | None:
        """For a classic cap: how many matches played every round up to it (or None)."""
        if self.round_cap is None:
            return None
        lengths = self.lengths
        if lengths is None:
            lengths = {}
            for r in self.records:
                lengths[r.rounds] = lengths.get(r.rounds, 0) + 1
        return match_length(self.rules, lengths, {self.round_cap})[1]

    @property
    def label(self) -> str:
        """The rule set, and the match length when a game is more than one round (a classic
        match: the cap on its rounds, or that the records do not say it).

        >>> ReportGroup("classic(players=2)", ("greedy", "random"), [], [], [],
        ...             round_cap=3).label
        'classic(players=2), matches to the target score, capped at 3 rounds'
        >>> ReportGroup("classic", ("greedy",) * 4, [], [], []).label
        'classic, matches to the target score, round cap unknown (records without match_rounds)'
        """
        if self.to_target:
            if self.round_cap is None:
                return (f"{self.rules}, matches to the target score, round cap unknown "
                        f"(records without match_rounds)")
            return (f"{self.rules}, matches to the target score, capped at {self.round_cap:,} "
                    f"round{'' if self.round_cap == 1 else 's'}")
        if self.match_rounds is None or self.match_rounds == 1:
            return self.rules
        return f"{self.rules}, matches of {self.match_rounds} rounds"

    @property
    def run_seeds(self) -> list[int]:
        if self.seeds is not None:
            return list(self.seeds)
        return sorted({r.run_seed for r in self.records if r.run_seed is not None})


def drop_duplicates(records: Iterable[GameRecord]) -> tuple[list[GameRecord], int]:
    """The records with every game kept once, in order, and how many repeats were dropped.

    Two records are the same game when they have the same rules, bots, deal seed and bot seeds
    (and, for lines without bot seeds, the same run seed and game index), played by the same
    version of rummy101: a seeded game plays the same every time, so a repeat is the same game
    read twice (one run's ``.jsonl`` and ``.csv``, or two runs with the same ``--seed``), and
    counting it twice would narrow the intervals without new evidence.

    >>> from rummy101.sim import simulate
    >>> recs = simulate("rummy101(players=2)", "greedy,random", 3, seed=1, workers=1,
    ...                 progress=False).records
    >>> kept, dropped = drop_duplicates(recs + recs[:2])
    >>> len(kept), dropped
    (3, 2)
    """
    seen = _Seen()
    kept: list[GameRecord] = []
    dropped = 0
    for r in records:
        if seen.add(r):
            kept.append(r)
        else:
            dropped += 1
    return kept, dropped


class _Seen:
    """The games seen so far, each as a 16-byte digest of :func:`drop_duplicates`' key (~80 bytes
    a game instead of the record: a report of tens of millions of games stays in memory)."""

    def __init__(self) -> None:
        self._digests: set[bytes] = set()

    def add(self, r: GameRecord) -> bool:
        """Whether ``r`` is a game not seen before (it is remembered)."""
        # and a classic match's cap: the same deal under two caps is two games (the cap-50
        # match goes on where the cap-2 match stops), each counted in its own group (CR-6)
        # and the version that played it: another version's engines or bots may play the same
        # seeds otherwise, and its games are a group of their own (group_records)
        key: tuple[object, ...] = (r.rules, tuple(r.bots), r.seed, tuple(r.bot_seeds),
                                   r.rounds, r.match_rounds if _to_target(r.rules) else None,
                                   r.rummy101_version)
        if not any(b is not None for b in r.bot_seeds):
            key += (r.run_seed, r.game)
        digest = hashlib.blake2b(repr(key).encode(), digest_size=16).digest()
        if digest in self._digests:
            return False
        self._digests.add(digest)
        return True


#: Variants whose matches play to a target score, so that one run's games differ in length
#: (``--rounds`` only caps them); every other variant plays each match of a run to --rounds.
_TARGET_VARIANTS = ("classic",)


def _to_target(rules: str) -> bool:
    return rules.split("(", 1)[0].strip().lower() in _TARGET_VARIANTS


def group_records(records: Iterable[GameRecord]) -> list[ReportGroup]:
    """Group records by (rules, bots) and, where every match of a run has ``--rounds`` rounds
    (Rummy 101, Remi), by that length too: points per game of a 1-round game and of a 3-round
    match are no one quantity. A classic match plays to its target score (CR-6) and
    ``--rounds`` only caps it, so its records are grouped by that cap (``match_rounds``): most
    matches capped at 3 rounds end at the cap with nobody at the target, and pooling them with
    matches capped at 100 would average two quantities; records without a cap (older files)
    form their own group. Games played by different versions of rummy101 (``rummy101_version``)
    form different groups too: other engines or bots may play other games from the same seeds.
    In order of first appearance, with their statistics."""
    groups: dict[_GroupKey, tuple[GameTally, list[GameRecord]]] = {}
    for r in records:
        key = _group_key(r)
        got = groups.get(key)
        if got is None:
            got = groups[key] = (GameTally(len(key[1])), [])
        got[0].add(r)
        got[1].append(r)
    return [_group(key, tally, recs) for key, (tally, recs) in groups.items()]


def summarise(records: Iterable[GameRecord], *, keep_scores: bool = False
              ) -> tuple[list[ReportGroup], int]:
    """:func:`drop_duplicates` then :func:`group_records` in one pass that keeps no record: the
    groups (their ``records`` empty, ``games`` counted; with ``keep_scores`` each seat's scores,
    for a figure) and how many repeats were dropped. What ``rummy101 report`` runs: its memory
    grows by ~80 bytes a game (the digest that finds repeats), not by the records.

    >>> from rummy101.sim import simulate
    >>> recs = simulate("rummy101(players=2)", "greedy,random", 3, seed=1, workers=1,
    ...                 progress=False).records
    >>> groups, repeats = summarise(recs + recs[:1])
    >>> repeats, groups[0].games, groups[0].records
    (1, 3, [])
    >>> format_report(groups) == format_report(group_records(recs))
    True
    """
    seen = _Seen()
    repeats = 0
    groups: dict[_GroupKey, tuple[GameTally, list[array[int]] | None]] = {}
    for r in records:
        if not seen.add(r):
            repeats += 1
            continue
        key = _group_key(r)
        got = groups.get(key)
        if got is None:
            got = groups[key] = (GameTally(len(key[1])),
                                 [array("q") for _ in key[1]] if keep_scores else None)
        got[0].add(r)
        if got[1] is not None:
            for s, column in enumerate(got[1]):
                column.append(r.scores[s])
    return [_group(key, tally, [], cols) for key, (tally, cols) in groups.items()], repeats


#: (rules, bots, the rounds of every match or None, the classic cap or None, the version)
_GroupKey = tuple[str, tuple[str, ...], int | None, int | None, str | None]


def _group_key(r: GameRecord) -> _GroupKey:
    target = _to_target(r.rules)
    return (r.rules, tuple(r.bots), None if target else r.rounds,
            r.match_rounds if target else None, r.rummy101_version)


def _group(key: _GroupKey, tally: GameTally, recs: list[GameRecord],
           scores: Sequence[Sequence[int]] | None = None) -> ReportGroup:
    rules, bots, length, cap, version = key
    seats = tally.seat_stats(bots)
    points = [(st.mean_score, *st.mean_ci95) for st in seats]
    return ReportGroup(rules=rules, bots=bots, records=recs, seats=seats, points=points,
                       ties=tally.ties, finish_counts=tally.endings(), match_rounds=length,
                       round_cap=cap, n_games=tally.games, seeds=tuple(sorted(tally.run_seeds)),
                       lengths=dict(tally.lengths),
                       scores=None if scores is None else tuple(scores),
                       rummy101_version=version)


def _table(cols: Sequence[str], rows: Sequence[Sequence[str]], left: Sequence[int]) -> list[str]:
    widths = [max(len(c), *(len(r[i]) for r in rows)) if rows else len(c)
              for i, c in enumerate(cols)]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(c.ljust(w) if i in left else c.rjust(w)
                         for i, (c, w) in enumerate(zip(cells, widths))).rstrip()
    return [line(cols), line(["-" * w for w in widths]), *(line(r) for r in rows)]


def _f(x: float, digits: int = 1) -> str:
    return "-" if math.isnan(x) else f"{x:.{digits}f}"


def _sides(mean: float, lo: float, hi: float) -> str:
    """The points table's ``± 95%`` cell: how far the interval reaches below and above the
    mean, ``± 24.8`` when the two print the same, ``-10.5/+14.2`` when the interval leans
    towards the scores' long tail (:func:`~rummy101.sim.stats.skew_t_interval`); ``-`` with no
    interval (one game)."""
    if math.isnan(lo):
        return "-"
    below, above = _f(mean - lo), _f(hi - mean)
    return f"± {below}" if below == above else f"-{below}/+{above}"


def format_report(groups: Sequence[ReportGroup]) -> str:
    """Per group: the points table and the finish / best-score table."""
    out: list[str] = []
    for g in groups:
        seeds = g.run_seeds
        seed_text = ("run seed " + ", ".join(map(str, seeds[:5]))
                     + (" …" if len(seeds) > 5 else "")) if seeds else "run seed not recorded"
        if out:
            out.append("")
        version = (f"rummy101 {g.rummy101_version}" if g.rummy101_version
                   else "rummy101 version not recorded")
        out.append(f"{g.games:,} game{'s' if g.games != 1 else ''} of {g.label}; bots "
                   f"{','.join(g.bots)}; {seed_text}; {version}")
        out.append("points per game (final standing): mean with its 95% interval (Student's t "
                   "corrected for skewness, Hall 1992; docs/simulation.md)")
        rows: list[tuple[str, ...]] = []
        for st, (mean, lo, hi) in zip(g.seats, g.points):
            rows.append((str(st.seat), st.bot, f"{st.games:,}", _f(mean),
                         _sides(mean, lo, hi),
                         "-" if math.isnan(lo) else f"[{_f(lo)}, {_f(hi)}]", _f(st.sd_score),
                         str(st.min_score), str(st.max_score)))
        out += _table(("seat", "bot", "games", "mean", "± 95%", "95% CI (Hall)", "sd", "min",
                       "max"), rows, left=(1,))
        if g.games == 1:
            out.append(UNDEFINED_WITH_ONE_GAME)
        flat = no_spread_note(g.seats)
        if flat is not None:
            out.append(flat)
        if g.games > 1 and _only_winners_score(g.rules):
            out.append(TWO_PART_NOTE)
        out.append("")
        out.append("rounds finished (the finisher is the round's only winner) and games with the "
                   "best final standing: rates with 95% Wilson intervals")
        rows = []
        for st in g.seats:
            rows.append((str(st.seat), st.bot, f"{st.finished:,}/{st.rounds:,}",
                         format_rate(st.finish_rate),
                         f"[{format_rate(st.finish_ci95[0])}, {format_rate(st.finish_ci95[1])}]",
                         f"{st.best:,}/{st.games:,}", format_rate(st.best_rate),
                         f"[{format_rate(st.best_ci95[0])}, {format_rate(st.best_ci95[1])}]"))
        out += _table(("seat", "bot", "finished", "finish rate", "95% CI (Wilson)", "best",
                       "best rate", "95% CI (Wilson)"), rows, left=(1,))
        ex = g.finish_counts.get("exhausted", 0)
        rounds = sum(g.finish_counts.values())
        out.append(f"rounds: {rounds:,}; ended with no winner (stock exhausted): {ex:,}; no unique "
                   f"best standing: {g.ties:,} game{'' if g.ties == 1 else 's'}")
        capped = g.capped_note
        if capped is not None:
            out.append(capped)
        if len(set(g.bots)) > 1:
            out.append(SEATS_NOT_ROTATED)
    return "\n".join(out)

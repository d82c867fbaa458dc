#!/usr/bin/env python
"""Coverage of the 95% intervals that ``rummy101 sim`` / ``rummy101 report`` and
``bench/ladder.py`` print: each is computed, by the project's own code, on many small runs of
independent seeds, and counted as covering or missing a truth measured on one long run of other
seeds (docs/simulation.md "How honest are the intervals", docs/bots.md "Strength ladder").

    PYTHONPATH=python python bench/interval_coverage.py   # ~25 min on one core

The defaults are those of the tables in the docs: 1,000 runs of 20 (and 200) games against
50,000 games, 200 ladders of 20 deals against 2,000 deals; ``--only sim`` or ``--only
ladder`` runs one half. ``--pooled K`` checks the mean score's interval alone, printed
(Student's t corrected for skewness) and plain t, on every disjoint run of 10 to 200 games cut
from K long runs (docs/simulation.md, "The mean's interval"). ``--bounded REPS`` and ``--zero
REPS`` check a classic seat's (docs/simulation.md, "stays inside the possible scores" and "A
seat that rarely scores": the interval cut to the rules' bounds, and its two-part upper bound).

A 95% interval should cover in about 95% of the runs; each coverage is printed with its own
95% Wilson interval (over the repetitions). The truth's own standard error (printed beside the
means) must be small beside the intervals checked, or a miss could be the truth's error: it is
about a twentieth of their half-widths or less, for the rates too. ``Wald`` rows are the textbook p ± 1.96·sqrt(p(1-p)/n), for contrast with
the Wilson interval the tables print.
"""

from __future__ import annotations

import argparse
import functools
import math
import os
import sys
import time
from dataclasses import dataclass

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import ladder
from rummy101.sim import simulate, wilson_interval
from rummy101.sim.report import mean_interval, t_quantile_95
from rummy101.sim.stats import score_bounds

Z = 1.959963984540054


def wald(k: int, n: int) -> tuple[float, float]:
    p = k / n
    h = Z * math.sqrt(p * (1 - p) / n)
    return p - h, p + h


def covers(iv: tuple[float, float], truth: float) -> bool:
    return iv[0] <= truth <= iv[1]


@dataclass(frozen=True)
class Row:
    """One interval checked: ``hits`` of ``reps`` small runs covered ``truth`` (printed as
    ``truth_text``, with the long run's standard error where there is one)."""

    label: str
    hits: int
    reps: int
    truth: float
    truth_text: str

    @property
    def coverage(self) -> float:
        return self.hits / self.reps

    def markdown(self) -> str:
        lo, hi = wilson_interval(self.hits, self.reps)
        return f"| {self.label} | {self.truth_text} | {self.coverage:.3f} [{lo:.3f}, {hi:.3f}] |"


def sim_case(
    rules: str, bots: str, games: int, reps: int, truth_games: int, rounds: int | None
) -> list[Row]:
    """The summary's three intervals of seat 0 (finish rate, best rate: Wilson; mean score: t)
    on ``reps`` runs of ``games`` games (seeds 1..reps) against a run of ``truth_games`` games
    (seed 10**6)."""
    big = simulate(
        rules,
        bots,
        truth_games,
        seed=10**6,
        workers=1,
        progress=False,
        match_rounds=rounds,
        keep_records=False,
    ).seats[0]
    t_fin, t_best, t_mean = big.finish_rate, big.best_rate, big.mean_score
    se_mean = big.sd_score / math.sqrt(truth_games)
    hits = dict.fromkeys(("fin", "best", "best_wald", "mean"), 0)
    for rep in range(1, reps + 1):
        st = simulate(
            rules,
            bots,
            games,
            seed=rep,
            workers=1,
            progress=False,
            match_rounds=rounds,
            keep_records=False,
        ).seats[0]
        hits["fin"] += covers(st.finish_ci95, t_fin)
        hits["best"] += covers(st.best_ci95, t_best)
        hits["best_wald"] += covers(wald(st.best, st.games), t_best)
        hits["mean"] += covers(st.mean_ci95, t_mean)
    name = f"`{rules}` {bots}" + (f", --rounds {rounds}" if rounds else "") + f", {games} games"
    return [
        Row(f"{name}: finish rate (Wilson, rounds)", hits["fin"], reps, t_fin, f"{t_fin:.4f}"),
        Row(f"{name}: best rate (Wilson, games)", hits["best"], reps, t_best, f"{t_best:.4f}"),
        Row(
            f"{name}: best rate, Wald for contrast",
            hits["best_wald"],
            reps,
            t_best,
            f"{t_best:.4f}",
        ),
        Row(
            f"{name}: mean score (Hall, games)",
            hits["mean"],
            reps,
            t_mean,
            f"{t_mean:.2f} ± {se_mean:.2f}",
        ),
    ]


def seat_scores(
    rules: str, bots: str, games: int, seed: int, rounds: int | None, seat: int = 0
) -> list[int]:
    """Seat ``seat``'s points in each game of one run, in game order (no records kept)."""
    out: list[int] = []
    simulate(
        rules,
        bots,
        games,
        seed=seed,
        workers=1,
        progress=False,
        match_rounds=rounds,
        keep_records=False,
        on_records=lambda recs: out.extend(r.scores[seat] for r in recs),
    )
    return out


def plain_t(xs: list[int]) -> tuple[float, float]:
    """The textbook Student t interval, mean ± t(0.975, n - 1) · sd / sqrt(n), for contrast."""
    n = len(xs)
    mean = sum(xs) / n
    half = t_quantile_95(n - 1) * math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1) / n)
    return mean - half, mean + half


def pooled_case(
    rules: str,
    bots: str,
    seeds: int,
    games: int,
    sizes: tuple[int, ...],
    truth_games: int,
    rounds: int | None,
) -> list[str]:
    """The mean score's interval, printed (corrected for skewness) and plain t, on every
    disjoint run of ``n`` games (``n`` in ``sizes``) cut from runs of ``games`` games of seeds
    1..``seeds``, against the mean of all those games and ``truth_games`` of seed 10**6:
    markdown rows of coverage (share of intervals wholly above / below the truth), mean width."""
    runs = [seat_scores(rules, bots, games, seed, rounds) for seed in range(1, seeds + 1)]
    every = seat_scores(rules, bots, truth_games, 10**6, rounds) + [x for r in runs for x in r]
    truth = sum(every) / len(every)
    rows = []
    for n in sizes:
        chunks = [r[i : i + n] for r in runs for i in range(0, games - n + 1, n)]
        cells = []
        for interval in (plain_t, lambda xs: mean_interval(xs)[1:]):
            ivs = [interval(c) for c in chunks]
            above = sum(lo > truth for lo, _ in ivs) / len(ivs)
            below = sum(hi < truth for _, hi in ivs) / len(ivs)
            width = sum(hi - lo for lo, hi in ivs) / len(ivs)
            cells.append(f"{1 - above - below:.3f} ({above:.3f} / {below:.3f}), {width:.3g}")
        name = f"`{rules}` {bots}" + (f", --rounds {rounds}" if rounds else "")
        rows.append(f"| {name} | {n} | {len(chunks):,} | {cells[0]} | {cells[1]} |")
    return rows


def bounded_case(
    rules: str, bots: str, seat: int, games: int, reps: int, truth_games: int, rounds: int | None
) -> list[str]:
    """The mean score's interval of ``seat``, whole and cut to the scores the rules allow
    (``score_bounds``, as the summary prints it), on ``reps`` runs of ``games`` games (seeds
    1..reps) against ``truth_games`` of seed 10**6 (docs/simulation.md, "The mean's interval
    stays inside the possible scores"): markdown rows of coverage (share wholly above / below
    the truth), mean width, and how many intervals the bounds cut."""

    def scores(seed: int, n: int) -> list[int]:
        out: list[int] = []
        simulate(
            rules,
            bots,
            n,
            seed=seed,
            workers=1,
            progress=False,
            match_rounds=rounds,
            keep_records=False,
            on_records=lambda recs: out.extend(r.scores[seat] for r in recs),
        )
        return out

    big = scores(10**6, truth_games)
    truth = sum(big) / len(big)
    se = math.sqrt(sum((x - truth) ** 2 for x in big) / (len(big) - 1) / len(big))
    bounds = score_bounds(rules, rounds, rounds or 1)
    runs = [scores(rep, games) for rep in range(1, reps + 1)]
    whole = [mean_interval(xs)[1:] for xs in runs]
    cut = [mean_interval(xs, bounds)[1:] for xs in runs]
    two = [mean_interval(xs, bounds, only_winners_score=True)[1:] for xs in runs]
    name = f"`{rules}` {bots}, seat {seat}" + (f", --rounds {rounds}" if rounds else "")
    rows = []
    for label, ivs in (
        ("whole", whole),
        ("cut to " + str(bounds), cut),
        ("cut, two-part upper (printed)", two),
    ):
        hits = sum(lo <= truth <= hi for lo, hi in ivs)
        lo, hi = wilson_interval(hits, reps)
        above = sum(a > truth for a, _ in ivs) / reps
        below = sum(b < truth for _, b in ivs) / reps
        width = sum(b - a for a, b in ivs) / reps
        rows.append(
            f"| {name}, {games} games | {label} | {truth:.3f} ± {se:.3f} | "
            f"{hits / reps:.3f} [{lo:.3f}, {hi:.3f}] ({above:.3f} / {below:.3f}) | "
            f"{width:.3g} |"
        )
    changed = sum(a != b for a, b in zip(whole, cut))
    rows.append(f"(intervals the bounds cut: {changed:,} of {reps:,})")
    return rows


@functools.cache
def _truth(rules: str, bots: str, seat: int, truth_games: int, rounds: int | None) -> list[int]:
    return seat_scores(rules, bots, truth_games, 10**6, rounds, seat)


def zero_case(
    rules: str,
    bots: str,
    seat: int,
    games: int,
    runs: int,
    sizes: tuple[int, ...],
    truth_games: int,
    rounds: int | None,
) -> list[str]:
    """A classic seat's mean score (0 unless it won a round, CR-6): the interval cut to the
    rules' bounds (printed before) against the one with the two-part upper bound (printed,
    ``stats.two_part_upper``), on every disjoint run of ``n`` games (``n`` in ``sizes``) cut
    from ``runs`` runs of ``games`` games (seeds 1..runs), against ``truth_games`` of seed
    10**6 (docs/simulation.md, "A seat that rarely scores"): markdown rows of coverage (share
    wholly above / below the truth), mean and median width."""
    big = _truth(rules, bots, seat, truth_games, rounds)
    truth = sum(big) / len(big)
    se = math.sqrt(sum((x - truth) ** 2 for x in big) / (len(big) - 1) / len(big))
    share = sum(1 for x in big if x) / len(big)
    bounds = score_bounds(rules, rounds, rounds or 1)
    long = [seat_scores(rules, bots, games, rep, rounds, seat) for rep in range(1, runs + 1)]
    name = f"`{rules}` {bots}, seat {seat}" + (f", --rounds {rounds}" if rounds else "")
    rows = []
    for n in sizes:
        chunks = [r[i : i + n] for r in long for i in range(0, games - n + 1, n)]
        for label, two in (("t, cut", False), ("two-part upper", True)):
            ivs = [mean_interval(c, bounds, only_winners_score=two)[1:] for c in chunks]
            hits = sum(lo <= truth <= hi for lo, hi in ivs)
            lo, hi = wilson_interval(hits, len(ivs))
            above = sum(a > truth for a, _ in ivs) / len(ivs)
            below = sum(b < truth for _, b in ivs) / len(ivs)
            widths = sorted(b - a for a, b in ivs)
            rows.append(
                f"| {name} | {truth:.3f} ± {se:.3f} (p {share:.3f}) | {n} | {len(ivs):,} | "
                f"{label} | {hits / len(ivs):.3f} [{lo:.3f}, {hi:.3f}] ({above:.3f} / "
                f"{below:.3f}) | {sum(widths) / len(widths):.3g} | "
                f"{widths[len(widths) // 2]:.3g} |"
            )
    return rows


def ladder_case(
    rules: str, cand: str, opp: str, deals: int, reps: int, truth_deals: int, rounds: int
) -> list[Row]:
    """The ladder's two intervals (paired difference against the baseline, t clustered by deal;
    finish rate, Wilson on the effective rounds) on ``reps`` runs of ``deals`` deals (seeds
    1..reps) against a run of ``truth_deals`` deals (seed 10**6)."""

    def run(seed: int, n: int) -> list[ladder.Seat]:
        return [s for d in range(n) for s in ladder.deal_task(rules, cand, opp, seed, d, rounds)]

    big = run(10**6, truth_deals)
    t_mean, lo, hi, _ = ladder.baseline_interval(big)
    fin, played, _, _ = ladder.finish_interval(big)
    t_fin = fin / played
    h_mean = h_fin = 0
    for rep in range(1, reps + 1):
        seats = run(rep, deals)
        _, a, b, _ = ladder.baseline_interval(seats)
        h_mean += covers((a, b), t_mean)
        _, _, c, d = ladder.finish_interval(seats)
        h_fin += covers((c, d), t_fin)
    name = f"ladder `{rules}` {cand} vs {opp}" + (f", --rounds {rounds}" if rounds > 1 else "")
    return [
        Row(
            f"{name}, {deals} deals: vs baseline (t, deals)",
            h_mean,
            reps,
            t_mean,
            f"{t_mean:+.2f} ± {(hi - lo) / 2 / t_quantile_95(truth_deals - 1):.2f}",
        ),
        Row(
            f"{name}, {deals} deals: finish rate (Wilson, effective rounds)",
            h_fin,
            reps,
            t_fin,
            f"{t_fin:.4f}",
        ),
    ]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reps", type=int, default=1000, help="repetitions of each sim case")
    ap.add_argument("--ladder-reps", type=int, default=200, help="repetitions of each ladder case")
    ap.add_argument("--truth-games", type=int, default=50_000)
    ap.add_argument("--truth-deals", type=int, default=2_000)
    ap.add_argument("--only", choices=("sim", "ladder"), help="one half only")
    ap.add_argument(
        "--pooled",
        type=int,
        metavar="K",
        help="instead: the mean score's interval, printed and plain t, on every disjoint run of "
        "10, 20, 50 and 200 games cut from K runs of 200 games (60 of 3-round matches) "
        '(docs/simulation.md, "The mean\'s interval"; K 3000: ~20 min)',
    )
    ap.add_argument(
        "--bounded",
        type=int,
        metavar="REPS",
        help="instead: the mean score's interval whole and cut to the rules' bounds, seat 1 "
        "(random) of `classic(players=2)` greedy,random --rounds 3, REPS runs of 20 games "
        '(docs/simulation.md, "The mean\'s interval stays inside the possible scores"; '
        "REPS 1000 with --truth-games 20000: 11-21 min at a load of 10)",
    )
    ap.add_argument(
        "--zero",
        type=int,
        metavar="REPS",
        help="instead: a classic seat's mean score, the interval cut to the rules' bounds against "
        "the two-part upper bound: random's seat of greedy,random --rounds 3 (REPS runs of 20 "
        "games; REPS * 3 // 10 runs of 200 cut into 50s and 200s) and seat 0 of greedy,greedy "
        '--rounds 1 and 3 (REPS runs of 20) (docs/simulation.md, "A seat that rarely '
        'scores"; REPS 1000 with --truth-games 20000: ~40 min at a load of 5)',
    )
    args = ap.parse_args(argv)
    if args.zero:
        print(
            "| seat | truth (p: share of games scored) | games | runs | interval | coverage "
            "(above / below) | mean width | median width |"
        )
        print("|---|---|---|---|---|---|---|---|")
        t0 = time.perf_counter()
        duo = "classic(players=2)"
        for bots, seat, games, runs, sizes, rounds in (
            ("greedy,random", 1, 20, args.zero, (20,), 3),
            ("greedy,random", 1, 200, args.zero * 3 // 10, (50, 200), 3),
            ("greedy,greedy", 0, 20, args.zero, (20,), 1),
            ("greedy,greedy", 0, 20, args.zero, (20,), 3),
        ):
            for row in zero_case(duo, bots, seat, games, runs, sizes, args.truth_games, rounds):
                print(row, flush=True)
        print(f"({time.perf_counter() - t0:.0f} s)", file=sys.stderr)
        return 0
    if args.bounded:
        print("| run | interval | truth | coverage (above / below) | mean width |")
        print("|---|---|---|---|---|")
        t0 = time.perf_counter()
        for row in bounded_case(
            "classic(players=2)", "greedy,random", 1, 20, args.bounded, args.truth_games, 3
        ):
            print(row, flush=True)
        print(f"({time.perf_counter() - t0:.0f} s)", file=sys.stderr)
        return 0
    if args.pooled:
        print("| seat 0 of | games | runs | plain t | corrected |")
        print("|---|---|---|---|---|")
        t0 = time.perf_counter()
        for rules, bots, seeds, games, sizes, rounds in (
            ("rummy101(players=2)", "greedy,greedy", args.pooled, 200, (10, 20, 50, 200), None),
            (
                "rummy101",
                "greedy,greedy,greedy,greedy",
                args.pooled * 2 // 3,
                200,
                (10, 20, 50, 200),
                None,
            ),
            ("rummy101(players=2)", "greedy,greedy", args.pooled // 3, 60, (10, 20, 50), 3),
        ):
            for row in pooled_case(rules, bots, seeds, games, sizes, args.truth_games, rounds):
                print(row, flush=True)
        print(f"({time.perf_counter() - t0:.0f} s)", file=sys.stderr)
        return 0
    print(
        "| interval (sim: seat 0; ladder: the candidate), small runs of independent seeds "
        "| truth (long run) "
        "| coverage [95% CI] |"
    )
    print("|---|---|---|")
    t0 = time.perf_counter()
    if args.only != "ladder":
        for rules, bots, games, rounds in (
            ("rummy101(players=2)", "greedy,greedy", 20, None),
            ("rummy101(players=2)", "greedy,greedy", 200, None),
            ("rummy101", "greedy,greedy,greedy,greedy", 20, None),
            ("rummy101(players=2)", "greedy,greedy", 20, 3),
        ):
            for row in sim_case(rules, bots, games, args.reps, args.truth_games, rounds):
                print(row.markdown(), flush=True)
    if args.only != "sim":
        for rules, cand, opp, rounds in (
            ("rummy101(players=2)", "greedy", "random", 1),
            ("rummy101(players=2)", "greedy", "random", 3),
            ("rummy101", "greedy", "random", 1),
            ("rummy101", "random", "greedy", 1),
        ):
            for row in ladder_case(
                rules, cand, opp, 20, args.ladder_reps, args.truth_deals, rounds
            ):
                print(row.markdown(), flush=True)
    print(f"({time.perf_counter() - t0:.0f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

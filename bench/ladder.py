#!/usr/bin/env python
"""Strength ladder: each bot against ``greedy`` opponents on duplicate deals, with paired
differences and 95% intervals clustered by deal (issue 12; docs/bots.md "Ladder").

    PYTHONPATH=python python bench/ladder.py --rules rummy101 --deals 200 \\
        --bots random,greedy,search:playouts=50,search --workers 2

For every deal ``d`` and every seat ``k`` the candidate bot plays seat ``k`` against the
opponent bot (``--opponent``, default greedy) in the other seats; the *baseline* plays the same
deal with the opponent bot in seat ``k`` too (every seat the same bot, same bot seeds). The paired
difference of seat ``k``'s points (candidate − baseline) removes the luck of the deal; the
differences of one deal are averaged over its seats (the cluster) and the interval is the mean
over deals ± t(0.975, deals − 1) standard errors (Student's t: with few deals 1.96 is too
narrow; deals are independent, seats of one deal are not; with one deal there is no interval,
printed as ``-``). Also printed: points per round, finish rate (rounds the candidate won by
finishing, of the rounds it played: ``--rounds`` per game; a Wilson interval on the effective
number of rounds, clustered by deal, see :func:`finish_interval`) and the mean decision time of
search bots.

Works for every variant: in classic Rummy (``--rules classic``) a "round" is one hand of the
match (``--rounds 1``: the game is the first hand; CR-6 scores only its winner), in Remi one
round (RO-12). ``--jsonl FILE`` appends every seat's record as its deal completes (long runs
can be stopped and summarised from what finished: ``--summarise FILE``; deals are handed out in
order, so what finished is the first deals; ``--first-deal K`` resumes such a run at deal K,
appending to the same file). ``--summarise A.jsonl B.jsonl`` also prints each bot's paired
difference against the first bot on the deals both played (the same baseline games).
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import dataclasses
import json
import math
import random
import statistics
import sys
import time
from dataclasses import dataclass

from rummy101.bots import BotError, get_bot
from rummy101.rules import Rules
from rummy101.sim import GameFailed, SimError, bot_seed, play_game, wilson_interval
from rummy101.sim.io import check_writable
from rummy101.sim.report import t_quantile_95
from rummy101.sim.stats import clamp_if_inside, score_bounds


@dataclass
class Seat:
    bot: str
    deal: int
    seat: int
    points: float          # the candidate's round points in this seat
    baseline: float        # the opponent bot's points in the same seat of the same deal
    finished: int          # rounds of the game the candidate won by finishing (a bool in files
                           # written before ``rounds``: whether it finished a round)
    decisions: int
    seconds: float
    cpu_seconds: float = 0.0   # CPU time of the searches (one core; wall time varies with load)
    rounds: int = 1        # rounds of the game (--rounds); files without it hold 1-round games


def play(rules: str, bots: list[str], seed: int, deal: int, rounds: int) -> tuple[list[int], list[int], list[object]]:
    """One duplicate game: (standings, finishers by round, the bot objects).

    ``rummy101.sim.play_game`` plays it, with the bot objects made here, so the deal is game
    ``deal`` of a run seeded ``seed`` and a bot that raises, answers an illegal action or loops
    (a round past ``rummy101.sim.MAX_STEPS`` steps) stops the ladder with its ``GameFailed``,
    naming the deal, the step, the seat and the bot and how to replay the game (before, an
    illegal action printed a worker's traceback with the engine's message only, after every
    other deal had been played, and a looping bot hung the ladder)."""
    players = [get_bot(b, random.Random(bot_seed(seed, deal, q))) for q, b in enumerate(bots)]
    try:
        rec = play_game(rules, players, seed, deal, match_rounds=rounds)
    except GameFailed as exc:  # the bots as given (GameFailed names a bot object by its .name)
        raise GameFailed(f"ladder deal {deal}, bots by seat {','.join(bots)}: {exc}") from None
    finishers = [-1 if w is None else w for w in rec.finishers]
    return list(rec.scores), finishers, players


def deal_task(rules: str, candidate: str, opponent: str, seed: int, deal: int,
              rounds: int) -> list[Seat]:
    n = Rules.parse(rules).players
    base, _, _ = play(rules, [opponent] * n, seed, deal, rounds)
    out = []
    for k in range(n):
        bots = [opponent] * n
        bots[k] = candidate
        got, finishers, players = play(rules, bots, seed, deal, rounds)
        bot = players[k]
        out.append(Seat(candidate, deal, k, got[k] / rounds, base[k] / rounds,
                        finishers.count(k),  # rounds finished, not whether one was
                        getattr(bot, "decisions", 0), getattr(bot, "search_seconds", 0.0),
                        getattr(bot, "search_cpu_seconds", 0.0), rounds))
    return out


def finish_interval(seats: list[Seat]) -> tuple[int, int, float, float]:
    """``(finished, rounds, low, high)``: the rounds the candidate finished, of those it played,
    and a 95% Wilson interval that allows for the rounds of one deal not being independent (the
    candidate plays every seat of the deal, and each game ``--rounds`` rounds): the Wilson
    interval on the effective number of rounds, rounds / design effect, where the design effect
    is the deal-clustered variance of the rate over the binomial one (Korn & Graubard 1998),
    taken as at least 1 (and 1 at a rate of 0 or 1, where it is undefined), so the interval is
    never narrower than the independent rounds' Wilson interval."""
    fin = sum(int(s.finished) for s in seats)
    rounds = sum(s.rounds for s in seats)
    if not rounds:
        return 0, 0, 0.0, 1.0
    p = fin / rounds
    by_deal: dict[int, list[int]] = {}
    for s in seats:
        f_n = by_deal.setdefault(s.deal, [0, 0])
        f_n[0] += int(s.finished)
        f_n[1] += s.rounds
    g = len(by_deal)
    deff = 1.0
    if 0 < fin < rounds and g > 1:
        clustered = g / (g - 1) * math.fsum((f - p * n) ** 2 for f, n in by_deal.values())
        deff = max(1.0, clustered / (rounds * p * (1 - p)))
    n_eff = rounds / deff
    lo, hi = wilson_interval(0, 1) if n_eff <= 0 else _wilson(p, n_eff)
    return fin, rounds, lo, hi


def _wilson(p: float, n: float) -> tuple[float, float]:
    """The Wilson interval of a rate ``p`` on ``n`` (maybe fractional, effective) trials."""
    z = 1.959963984540054
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    return (0.0 if p <= 0 else max(0.0, centre - half), 1.0 if p >= 1 else min(1.0, centre + half))


#: No bound on a paired difference per round (Rummy 101, Remi, or rules not known).
UNBOUNDED = (-math.inf, math.inf)


def difference_bounds(rules: str, rounds: int) -> tuple[float, float]:
    """The range of a difference of two seats' points per round in games of ``rules`` of
    ``rounds`` rounds, from the range of a game's score that the rules make certain
    (``rummy101.sim.stats.score_bounds``): in classic a game scores 0 to ``high`` (CR-6), so a
    difference per round lies within ±``high / rounds``; a variant with an unbounded side
    (Rummy 101's penalties, Remi) gives no bound.

    >>> difference_bounds("classic", 1), difference_bounds("classic(players=2)", 3)
    ((-204.0, 204.0), (-70.0, 70.0))
    >>> difference_bounds("rummy101", 1)
    (-inf, inf)
    """
    low, high = score_bounds(rules, rounds, rounds)
    span = (high - low) / rounds
    return (-span, span) if math.isfinite(span) else UNBOUNDED


def _cut(mean: float, half: float, diffs: list[float], bounds: tuple[float, float]
         ) -> tuple[float, float]:
    """mean ± half cut to ``bounds`` (a mean of differences in them lies in them, so nothing
    possible is cut and the coverage cannot fall), unless a difference lies outside them."""
    return clamp_if_inside((mean - half, mean + half), bounds, min(diffs), max(diffs))


def baseline_interval(seats: list[Seat], bounds: tuple[float, float] = UNBOUNDED
                      ) -> tuple[float, float, float, int]:
    """``(mean, low, high, deals)``: the mean paired difference (candidate − baseline) per round,
    each deal's differences averaged over its seats (the cluster), and its 95% interval, the mean
    over deals ± t(0.975, deals − 1) standard errors (nan, nan with one deal: no spread between
    deals to measure), cut to ``bounds``, the differences the rules allow
    (:func:`difference_bounds`; none by default: ``--summarise`` files do not name their
    rules)."""
    by_deal: dict[int, list[float]] = {}
    for s in seats:
        by_deal.setdefault(s.deal, []).append(s.points - s.baseline)
    cluster = [statistics.fmean(v) for v in by_deal.values()]
    mean = statistics.fmean(cluster)
    if len(cluster) < 2:
        return mean, math.nan, math.nan, len(cluster)
    half = t_quantile_95(len(cluster) - 1) * statistics.stdev(cluster) / math.sqrt(len(cluster))
    return mean, *_cut(mean, half, cluster, bounds), len(cluster)


def summary(name: str, seats: list[Seat], bounds: tuple[float, float] = UNBOUNDED) -> str:
    mean, low, high, deals = baseline_interval(seats, bounds)
    pts = statistics.fmean(s.points for s in seats)
    fin, rounds, lo, hi = finish_interval(seats)
    dec = sum(s.decisions for s in seats)
    secs = sum(s.seconds for s in seats)
    cpu = sum(s.cpu_seconds for s in seats)
    timing = (f"{1000 * secs / dec:.0f} ms/decision, {1000 * cpu / dec:.0f} ms CPU ({dec} searched)"
              if dec else "-")
    if deals > 1:
        interval = f"[{low:+7.1f}, {high:+7.1f}]"
    else:  # one deal: no spread between deals to measure (it printed [-inf, +inf])
        interval = f"{'- (1 deal)':>18s}"
    return (f"{name:28s} {mean:+8.1f} {interval}  "
            f"{pts:+8.1f}  {fin / rounds:6.1%} [{lo:.1%}, {hi:.1%}]  {timing}")


def paired(name_a: str, a: list[Seat], name_b: str, b: list[Seat],
           bounds: tuple[float, float] = UNBOUNDED) -> str:
    """Bot A against bot B on the deals both played in every seat: per deal the mean over its
    seats of A's points minus B's (the same baseline game, so the baseline cancels), the mean over
    deals ± t(0.975, deals − 1) standard errors, cut to ``bounds`` (:func:`baseline_interval`)."""
    def by_deal(seats: list[Seat]) -> dict[int, dict[int, Seat]]:
        out: dict[int, dict[int, Seat]] = {}
        for s in seats:
            out.setdefault(s.deal, {})[s.seat] = s
        return out
    da, db = by_deal(a), by_deal(b)
    deals = sorted(d for d in set(da) & set(db) if set(da[d]) == set(db[d]))
    for d in deals:
        if any(da[d][k].baseline != db[d][k].baseline for k in da[d]):
            raise SystemExit(f"deal {d}: the baselines differ: not the same deals (seed, rules?)")
    diffs = [statistics.fmean(da[d][k].points - db[d][k].points for k in da[d]) for d in deals]
    if len(diffs) < 2:
        return f"{name_a} - {name_b}: fewer than 2 common deals"
    mean = statistics.fmean(diffs)
    half = t_quantile_95(len(diffs) - 1) * statistics.stdev(diffs) / math.sqrt(len(diffs))
    same = sum(1 for x in diffs if x == 0)
    low, high = _cut(mean, half, diffs, bounds)
    return (f"paired {name_a} - {name_b}: {mean:+.1f} [{low:+.1f}, {high:+.1f}] "
            f"points per round over {len(deals)} common deals ({same} with identical points)")


def read_seats(paths: list[str]) -> dict[str, list[Seat]]:
    """The ``--jsonl`` records of ``paths`` by bot, each (bot, deal, seat) once: a file given
    twice, or a run resumed with an overlapping ``--first-deal``, repeats games, and counting them
    twice would narrow the intervals with no new evidence (said on standard error). The same
    (bot, deal, seat) with other points is another run (other rules, seed, opponent or rounds,
    which the records do not hold): refused, as pooling the two would average two quantities."""
    rows: dict[str, list[Seat]] = {}
    seen: dict[tuple[str, int, int], tuple[str, Seat]] = {}
    repeats = 0
    for path in paths:
        with open(path) as f:
            for line in f:
                if not line.strip():
                    continue
                seat = Seat(**json.loads(line))
                key = (seat.bot, seat.deal, seat.seat)
                if key in seen:
                    first_path, first = seen[key]
                    if (first.points, first.baseline, int(first.finished), first.rounds) != (
                            seat.points, seat.baseline, int(seat.finished), seat.rounds):
                        raise SystemExit(
                            f"{path}: {seat.bot} in seat {seat.seat} of deal {seat.deal} scored "
                            f"{seat.points:+g} against {seat.baseline:+g}, but {first_path} has "
                            f"{first.points:+g} against {first.baseline:+g}: two different runs "
                            f"(--rules, --seed, --opponent or --rounds); summarise them apart")
                    repeats += 1
                    continue
                seen[key] = (path, seat)
                rows.setdefault(seat.bot, []).append(seat)
    if repeats:
        print(f"ladder: {repeats} record(s) read more than once (the same bot, deal and seat) "
              f"are counted once", file=sys.stderr)
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rules", default="rummy101")
    ap.add_argument("--bots", default="random,greedy,search:playouts=50,search",
                    help="candidates, comma-separated (options with ':', e.g. search:playouts=400)")
    ap.add_argument("--opponent", default="greedy")
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--first-deal", type=int, default=0, metavar="K",
                    help="resume a stopped --jsonl run: play deals K..DEALS-1 only (deal d is the "
                         "same game whatever K is)")
    ap.add_argument("--rounds", type=int, default=1, help="rounds per game (a match)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--jsonl", help="append each seat's record to this file as deals complete")
    ap.add_argument("--summarise", metavar="FILE", nargs="+",
                    help="print the table of --jsonl files and exit; with two bots or more, also "
                         "the paired difference of each bot against the first on their common deals")
    args = ap.parse_args(argv)
    if args.summarise:
        rows = read_seats(args.summarise)
        for name, seats in rows.items():  # a deal's seats are written together
            print(summary(name, seats) + f"  {len({s.deal for s in seats})} deals")
        names = list(rows)
        for name in names[1:]:
            print(paired(name, rows[name], names[0], rows[names[0]]))
        return 0
    if not 0 <= args.first_deal < args.deals:
        ap.error(f"--first-deal must be from 0 to {args.deals - 1} (--deals), got {args.first_deal}")
    rules = str(Rules.parse(args.rules))
    cands = [b.strip() for b in args.bots.split(",") if b.strip()]
    for b in cands + [args.opponent]:
        try:
            get_bot(b)  # fail before any game on a bad name
        except BotError as exc:  # a name that does not resolve: it says why
            ap.error(str(exc))
        except Exception as exc:  # noqa: BLE001  (the bot's own constructor raised)
            ap.error(f"bot {b!r}: making it with a random.Random failed: "
                     f"{type(exc).__name__}: {exc}")
    if args.jsonl:  # refused before any deal (it was at the first deal's end, with a traceback)
        try:
            check_writable(args.jsonl)
        except SimError as exc:
            ap.error(f"--jsonl: {exc}")
    span = f"deals {args.first_deal}..{args.deals - 1} of {args.deals}" if args.first_deal else f"{args.deals} deals"
    print(f"ladder: {rules}, {span} (duplicate) x {Rules.parse(rules).players} seats "
          f"against {args.opponent}, {args.rounds} round(s) per game, seed {args.seed}")
    print(f"{'bot':28s} {'vs baseline [95% CI]':>28s}  {'pts/round':>8s}  {'finish rate [95% CI]':>22s}  time")
    t0 = time.perf_counter()
    with cf.ProcessPoolExecutor(max_workers=args.workers) as ex:
        # deal by deal, every candidate on a deal before the next deal: a run stopped early
        # (--jsonl) has the same first deals for every candidate
        futs = [ex.submit(deal_task, rules, cand, args.opponent, args.seed, d, args.rounds)
                for d in range(args.first_deal, args.deals) for cand in cands]
        rows = {cand: [] for cand in cands}
        # records are taken, and appended to --jsonl, in the order submitted (deal by deal, the
        # --bots order within a deal), not as they complete: a file of one run then lists its
        # bots in the --bots order, which --summarise pairs against its first (with two workers
        # the faster bot of deal 0 came first), and a stopped run wrote no deal after a gap
        order = {f: i for i, f in enumerate(futs)}
        ready: dict[int, list[Seat]] = {}
        taken = 0
        for f in cf.as_completed(futs):
            try:
                ready[order[f]] = f.result()
            except GameFailed as exc:  # one line, at once: the deals not started are dropped
                for other in futs:
                    other.cancel()
                print(f"ladder: error: {exc}", file=sys.stderr)
                return 2
            while taken in ready:
                got = ready.pop(taken)
                taken += 1
                rows[got[0].bot] += got
                if args.jsonl:
                    with open(args.jsonl, "a") as out:
                        out.writelines(json.dumps(dataclasses.asdict(s)) + "\n" for s in got)
        for cand in cands:
            print(summary(cand, sorted(rows[cand], key=lambda s: (s.deal, s.seat)),
                          difference_bounds(rules, args.rounds)), flush=True)
    print(f"({time.perf_counter() - t0:.0f} s; points are round scores, R101-13 / RO-12 / CR-6)",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

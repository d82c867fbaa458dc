#!/usr/bin/env python
"""Soak: many seeded games per variant, every rules option, every invariant at every step.

    PYTHONPATH=python python tools/soak.py --games 100000 --workers 2
    PYTHONPATH=python python tools/soak.py --variants rummy101 --games 2000 --dask
    nice -n 19 python tools/soak.py --variants classic --games 100000 --minutes 30 --seed 17

Each game draws its rules from the variant's oracle (``tests/oracles/<variant>.py``: rules that
together cover every option), its players from ``random`` policies and the ``greedy`` bot (each
seat uniformly among the oracle's random policies and greedy; the output counts the games with a
greedy seat), and checks, through the game surface only:

* at every step: piece conservation and no piece in two places, and what the applied action must
  have done (round scores recomputed independently when it ended a round);
* on sampled steps: legal ⇔ accepted (every legal action applies to a copy; sampled other
  actions raise and change nothing), ``copy()`` equality, and that every seat's observation is
  unchanged when the pieces it cannot see are dealt again. A step is probed with probability
  ``--probe`` (default 0.02), and with probability ``--first`` (default 0.2) when a verb is legal
  for the first time in the game, so that rare verbs (Remi's atu, accept, close) are probed in
  proportion to the games that reach them; the output lists per verb the actions played and the
  legal actions applied by probes, and flags a verb played but never probed;
* the record round trip (a replay of the game so far, as costly as the game itself) on the first
  probed step of each round, and at the end with termination.

The probes draw from their own random stream: the games played do not depend on them. Measured on
one core (games per CPU second, 30 games of seed 1, ``--probe 0.02``), before → after the change
that replayed the record at every probed step: classic 71 → 79, Remi 12-16 → 23, Rummy 101
10-11 → 19; at that rate the probes take about 40 % of Rummy 101's time, a third of classic's and
less of Remi's, whose engine dominates (``legal_actions``). Games cost about the same whatever
the players (Rummy 101: 21-31 ms a game for uniform, greedy and eager seats alike).

Games run on a process pool (``--workers``, each process imports once and plays chunks of
``--chunk`` games, a bounded window of chunks in flight) or a Dask cluster (``--dask``, a
LocalCluster with one process per worker; ``--scheduler`` for an existing one), the simulator's
executors. Every ``--every`` seconds a progress line goes to stderr; each variant ends with a
line of totals (games, rounds, steps, checks, probed steps; games/steps/checks per second of
wall time and games per CPU second, the one-core rate whatever share of a shared machine the run
got) and the verb coverage, and the run with a ``soak summary`` line. ``--minutes`` time-boxes
each variant (the chunks under way finish and count); SIGINT or SIGTERM stops the run and still
prints the totals so far (exit status 130). At the first broken invariant the run stops, writes
the failing game's record (the actions up to the failure) to ``--failures`` and prints how to
replay it; the exit status is 1.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import hashlib
import importlib
import importlib.util
import random
import signal
import sys
import threading
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "tests") not in sys.path:  # the oracles
    sys.path.insert(0, str(ROOT / "tests"))
if importlib.util.find_spec("rummy101") is None:  # the source tree, only when nothing is installed
    sys.path.append(str(ROOT / "python"))

from oracles import generic
from rummy101.bots import get_bot
from rummy101.game import new_game, playable_variants
from rummy101.game.records import dumps

MAX_STEPS = 200_000
#: Default share of steps with the sampled checks (legal ⇔ accepted sweep, copy, record, hidden
#: information): they cost about as much as the game itself at this rate (see the docstring).
PROBE = 0.02
#: Chance that a step where a verb is legal for the first time in the game is probed too, so that
#: rare verbs (Remi's atu, accept, close) are probed in proportion to the games that reach them.
FIRST = 0.2


@dataclass
class Tally:
    games: int = 0
    steps: int = 0
    checks: int = 0
    rounds: int = 0
    probes: int = 0  # steps that ran the sampled checks
    greedy_games: int = 0  # games with at least one greedy seat (the others: random policies only)
    cpu: float = 0.0  # CPU seconds of the processes that played them
    first: int = -1  # the lowest and highest game index played (-1: none yet)
    last: int = -1
    played: Counter[str] = field(default_factory=Counter)  # verbs of the actions played
    probed: Counter[str] = field(default_factory=Counter)  # verbs of the legal actions probed

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.steps += other.steps
        self.checks += other.checks
        self.rounds += other.rounds
        self.probes += other.probes
        self.greedy_games += other.greedy_games
        self.cpu += other.cpu
        if other.games:
            self.first = other.first if self.first < 0 else min(self.first, other.first)
            self.last = max(self.last, other.last)
        self.played.update(other.played)
        self.probed.update(other.probed)


def _derive(*parts: object) -> int:
    return int.from_bytes(hashlib.sha256(":".join(map(str, parts)).encode()).digest()[:8], "little")


def oracle_of(variant: str) -> Any:
    return importlib.import_module(f"oracles.{variant}")


def game_plan(variant: str, seed: int, index: int) -> tuple[str, int, list[str], int]:
    """(rules, game seed, players, rounds) of game ``index``: a pure function of its arguments."""
    oracle = oracle_of(variant)
    rng = random.Random(_derive("soak", variant, seed, index))
    rules = oracle.RULES[index % len(oracle.RULES)]
    n = new_game(rules, 0).n
    kinds = sorted(oracle.POLICIES) + ["greedy"]
    players = [rng.choice(kinds) for _ in range(n)]
    rounds = 1 + rng.randrange(getattr(oracle, "MAX_ROUNDS", 2))
    return rules, _derive("game", variant, seed, index), players, rounds


def play_one(variant: str, seed: int, index: int, probe: float, first: float = FIRST) -> Tally:
    """Play and check one game; raises AssertionError (with the record attached) on a break."""
    oracle = oracle_of(variant)
    rules, gseed, players, rounds = game_plan(variant, seed, index)
    s = new_game(rules, gseed % (2**31), match_rounds=rounds)
    rng = random.Random(gseed)  # the players' choices
    prng = random.Random(gseed ^ 0x50A1)  # the probes': the game played never depends on --probe
    bots = [get_bot("greedy", random.Random(gseed + q)) if kind == "greedy" else None
            for q, kind in enumerate(players)]
    tally = Tally(games=1, greedy_games=int("greedy" in players))
    recorded_round = -1
    verbs_seen: set[str] = set()
    try:
        while not s.is_terminal:
            legal = s.legal_actions()
            assert legal, "a state that is not over has a legal action"
            q = s.current_player
            bot = bots[q]
            a = (bot.act(s.observation(q), legal) if bot is not None
                 else oracle.POLICIES[players[q]](rng, s, legal))
            fresh = {b.verb for b in legal} - verbs_seen  # verbs legal for the first time in the game
            verbs_seen |= fresh
            if prng.random() < probe or (fresh and prng.random() < first):
                tally.probes += 1
                tally.checks += generic.check_probes(s, oracle.universe(prng, s), legal)
                tally.probed.update(b.verb for b in legal)  # every legal action was applied
                # The record replays the whole game so far (cost ~ steps): mid-game it is checked
                # on the first probed step of each round, copy() equality on every probed step.
                generic.check_copy_and_record(s, record=s.round != recorded_round)
                recorded_round = s.round
                generic.check_hidden(s, prng)
                tally.checks += 3
            before = s.copy()
            round_before = s.round
            s.apply(a)
            tally.played[a.verb] += 1
            oracle.check_step(before, a, s)
            oracle.check_pieces(s)
            tally.checks += 2
            tally.steps += 1
            if s.round != round_before or s.is_terminal:
                tally.rounds += 1
            assert tally.steps < MAX_STEPS, f"the game did not end within {MAX_STEPS} steps"
        generic.check_copy_and_record(s)
        tally.checks += 1
    except Exception as exc:  # noqa: BLE001 - any failure is a break to report with its record
        record = dumps(s)
        raise SoakBreak(variant, seed, index, rules, players, record,
                        f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=6)}") from None
    return tally


class SoakBreak(Exception):
    """A broken invariant, with everything needed to replay the game."""

    def __init__(self, variant: str, seed: int, index: int, rules: str, players: list[str],
                 record: str, detail: str) -> None:
        super().__init__(variant, seed, index, rules, players, record, detail)
        self.variant, self.seed, self.index, self.rules = variant, seed, index, rules
        self.players, self.record, self.detail = players, record, detail


def play_chunk(variant: str, seed: int, start: int, stop: int, probe: float,
               first: float = FIRST) -> Tally:
    total = Tally()
    c0 = time.process_time()
    for i in range(start, stop):
        total.add(play_one(variant, seed, i, probe, first))
    total.cpu = time.process_time() - c0
    total.first, total.last = start, stop - 1
    return total


def _ignore_sigint() -> None:
    """Worker processes leave Ctrl-C to the parent, which stops the run and reports its totals."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _executor(args: argparse.Namespace) -> tuple[cf.Executor, Any]:
    if args.dask or args.scheduler:
        import distributed

        if args.scheduler:
            client = distributed.Client(args.scheduler)
        else:
            cluster = distributed.LocalCluster(n_workers=args.workers, threads_per_worker=1,
                                               processes=True, dashboard_address=None)
            client = distributed.Client(cluster)
        return client.get_executor(), client
    return cf.ProcessPoolExecutor(max_workers=args.workers, initializer=_ignore_sigint), None


def describe(variant: str, total: Tally, elapsed: float, workers: int) -> str:
    """One line of figures: totals, rates per second of wall time and per CPU second (the rate
    of one core, whatever share of the machine the run got), the mix of players and probes."""
    el = max(elapsed, 1e-9)
    per_cpu = f"{total.games / total.cpu:,.1f} games/s/core" if total.cpu else "- games/s/core"
    # an interrupted run can leave a chunk unfinished between finished ones: say so, since the
    # range is what a later --start continues from
    span = ("" if not total.games else f" (game {total.first} to {total.last})"
            if total.games == total.last - total.first + 1 else
            f" (among games {total.first} to {total.last}; not every game between was finished)")
    return (f"{variant}: {total.games} games{span} ({total.greedy_games} with a greedy seat, the rest "
            f"random policies only), {total.rounds} rounds, {total.steps} steps, {total.checks} "
            f"checks, {total.probes} probed steps in {elapsed:.1f} s on {workers} workers "
            f"({total.games / el:,.1f} games/s, {total.steps / el:,.0f} steps/s, "
            f"{total.checks / el:,.0f} checks/s; {per_cpu} over {total.cpu:,.1f} CPU s)")


def run_variant(executor: cf.Executor, args: argparse.Namespace, variant: str, total: Tally,
                start: float, t0: float) -> None:
    """Play ``args.games`` games of ``variant`` (or until the time box) into ``total``, a bounded
    window of chunks in flight so that a time box or an interruption stops quickly; raises
    :class:`SoakBreak` at the first broken invariant."""
    deadline = start + 60 * args.minutes if args.minutes else float("inf")
    stop = args.start + args.games
    starts = iter(range(args.start, stop, args.chunk))
    futures: set[cf.Future[Tally]] = set()
    last = start

    def submit() -> None:
        a = next(starts, None)
        if a is not None and time.perf_counter() < deadline:
            futures.add(executor.submit(play_chunk, variant, args.seed, a,
                                        min(a + args.chunk, stop), args.probe, args.first))

    for _ in range(2 * args.workers):
        submit()
    try:
        while futures:
            finished, _ = cf.wait(futures, return_when=cf.FIRST_COMPLETED)
            for fut in finished:
                futures.discard(fut)
                total.add(fut.result())
                submit()
            now = time.perf_counter()
            if now - last >= args.every:
                last = now
                print(f"[{now - t0:,.0f} s] {describe(variant, total, now - start, args.workers)}",
                      file=sys.stderr, flush=True)
    finally:
        for f in futures:
            f.cancel()


class _Stop(Exception):
    """SIGTERM, raised in the main thread so that the run reports its totals before it exits."""


def _on_sigterm(signum: int, frame: Any) -> None:
    raise _Stop()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variants", default=",".join(playable_variants()),
                    help="comma-separated variants, played in this order (default: every playable one)")
    ap.add_argument("--games", type=int, default=1000, help="games per variant (default 1000)")
    ap.add_argument("--minutes", type=float, default=0.0,
                    help="time box per variant: no new games after this many minutes, the games "
                         "under way finish and count (default 0: no time box)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--start", type=int, default=0,
                    help="index of the first game (default 0): games START .. START+GAMES-1 are "
                         "played, so a run cut short continues on new games with --start")
    ap.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    ap.add_argument("--dask", action="store_true", help="run on a Dask LocalCluster")
    ap.add_argument("--scheduler", help="address of an existing Dask scheduler")
    ap.add_argument("--probe", type=float, default=PROBE,
                    help=f"share of steps with the sampled checks (default {PROBE})")
    ap.add_argument("--first", type=float, default=FIRST,
                    help="chance of probing the step where a verb is first legal in a game "
                         f"(default {FIRST})")
    ap.add_argument("--chunk", type=int, default=20, help="games per task (default 20)")
    ap.add_argument("--every", type=float, default=60.0,
                    help="seconds between progress lines (default 60)")
    ap.add_argument("--failures", default="soak-failures", help="folder for failing records")
    args = ap.parse_args(argv)
    variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    unknown = [v for v in variants if v not in playable_variants()]
    if (unknown or args.games < 1 or args.workers < 1 or args.chunk < 1 or args.start < 0
            or not 0 <= args.probe <= 1 or not 0 <= args.first <= 1):
        ap.error(f"variants must be among {', '.join(playable_variants())} (got {unknown}); "
                 "games, workers and chunk >= 1; start >= 0; probe and first in [0, 1]")
    missing = [v for v in variants if importlib.util.find_spec(f"oracles.{v}") is None]
    if missing:
        ap.error(f"no oracle for {', '.join(missing)} in tests/oracles/: the soak checks only "
                 "variants with an independent oracle")
    kind = "Dask" if args.dask or args.scheduler else "process"
    print(f"soak: variants {', '.join(variants)}, {args.games} games each"
          f"{f' or {args.minutes:g} min' if args.minutes else ''} from game {args.start}, "
          f"seed {args.seed}, probe "
          f"{args.probe} (first-legal verbs {args.first}), {args.workers} {kind} workers",
          flush=True)
    executor, client = _executor(args)
    in_main = threading.current_thread() is threading.main_thread()
    old = signal.signal(signal.SIGTERM, _on_sigterm) if in_main else None
    done: list[str] = []
    status, end = 0, "complete"
    total, start, variant = Tally(), time.perf_counter(), ""
    t0 = time.perf_counter()
    try:
        for variant in variants:
            total, start = Tally(), time.perf_counter()
            try:
                run_variant(executor, args, variant, total, start, t0)
            except SoakBreak as brk:
                out = Path(args.failures)
                out.mkdir(parents=True, exist_ok=True)
                path = out / f"{brk.variant}-seed{brk.seed}-game{brk.index}.json"
                path.write_text(brk.record)
                print(f"\nBROKEN: {brk.variant} game {brk.index} (soak seed {brk.seed}), rules "
                      f"{brk.rules}, players {brk.players}\n{brk.detail}\nrecord up to the "
                      f"failure: {path} (rummy101.game.records.loads replays it); replay the "
                      f"game: python -c \"import sys; sys.path[:0] = ['tools', 'tests']; import soak; "
                      f"soak.play_one({brk.variant!r}, {brk.seed}, {brk.index}, {args.probe}, "
                      f"{args.first})\" (PYTHONPATH=python, from the repository root)",
                      file=sys.stderr, flush=True)
                status, end = 1, f"BROKEN at {brk.variant} game {brk.index}"
                done.append(describe(variant, total, time.perf_counter() - start, args.workers))
                break
            line = describe(variant, total, time.perf_counter() - start, args.workers)
            boxed = total.games < args.games
            if boxed:
                end = "time box reached"
            print(line + ("; time box reached" if boxed else "") + "; no invariant broken",
                  flush=True)
            print(f"  {variant} verbs played / applied in probes: " + ", ".join(
                f"{v} {total.played[v]}/{total.probed[v]}" for v in sorted(total.played | total.probed))
                + (f"; NEVER PROBED: {', '.join(sorted(unprobed))}"
                   if (unprobed := set(total.played) - set(total.probed)) else ""), flush=True)
            done.append(line)
    except (KeyboardInterrupt, _Stop) as exc:
        status, end = 130, f"INTERRUPTED ({'SIGTERM' if isinstance(exc, _Stop) else 'SIGINT'})"
        line = describe(variant, total, time.perf_counter() - start, args.workers)
        print(f"\n{line}; interrupted, no invariant broken in the games counted", flush=True)
        done.append(line)
    finally:
        if old is not None:
            signal.signal(signal.SIGTERM, old)
        if client is not None:
            client.close()
        else:
            executor.shutdown(wait=status != 130, cancel_futures=True)
    print(f"soak summary ({end}, seed {args.seed}, probe {args.probe}, first {args.first}, "
          f"{time.perf_counter() - t0:.1f} s): " + " | ".join(done), flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())

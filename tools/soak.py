#!/usr/bin/env python
"""Soak: many seeded games per variant, every rules option, every invariant at every step.

    PYTHONPATH=python python tools/soak.py --games 100000 --workers 2
    PYTHONPATH=python python tools/soak.py --variants rummy101 --games 2000 --dask

Each game draws its rules from the variant's oracle (``tests/oracles/<variant>.py``: rules that
together cover every option), its players from ``random`` policies and the ``greedy`` bot, and
checks, through the game surface only:

* at every step: piece conservation and no piece in two places, and what the applied action must
  have done (round scores recomputed independently when it ended a round);
* on sampled steps (``--probe``): legal ⇔ accepted (every legal action applies; sampled other
  actions raise and change nothing), ``copy()`` equality, the record round trip, and that every
  seat's observation is unchanged when the pieces it cannot see are dealt again;
* at the end: the record round trip and termination.

Games run on a process pool (``--workers``) or a Dask cluster (``--dask``, a LocalCluster with
one process per worker; ``--scheduler`` for an existing one), the simulator's executors. Games,
steps and checks per second are printed as the run goes. At the first broken invariant the run
stops, writes the failing game's record (the actions up to the failure) to ``--failures`` and
prints how to replay it; the exit status is 1.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import hashlib
import importlib
import importlib.util
import random
import sys
import time
import traceback
from dataclasses import dataclass
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


@dataclass
class Tally:
    games: int = 0
    steps: int = 0
    checks: int = 0
    rounds: int = 0

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.steps += other.steps
        self.checks += other.checks
        self.rounds += other.rounds


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


def play_one(variant: str, seed: int, index: int, probe: float) -> Tally:
    """Play and check one game; raises AssertionError (with the record attached) on a break."""
    oracle = oracle_of(variant)
    rules, gseed, players, rounds = game_plan(variant, seed, index)
    s = new_game(rules, gseed % (2**31), match_rounds=rounds)
    rng = random.Random(gseed)  # the players' choices
    prng = random.Random(gseed ^ 0x50A1)  # the probes': the game played never depends on --probe
    bots = [get_bot("greedy", random.Random(gseed + q)) if kind == "greedy" else None
            for q, kind in enumerate(players)]
    tally = Tally(games=1)
    try:
        while not s.is_terminal:
            legal = s.legal_actions()
            assert legal, "a state that is not over has a legal action"
            q = s.current_player
            bot = bots[q]
            a = (bot.act(s.observation(q), legal) if bot is not None
                 else oracle.POLICIES[players[q]](rng, s, legal))
            if prng.random() < probe:
                tally.checks += generic.check_probes(s, oracle.universe(prng, s), legal)
                generic.check_copy_and_record(s)
                generic.check_hidden(s, prng)
                tally.checks += 3
            before = s.copy()
            round_before = s.round
            s.apply(a)
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


def play_chunk(variant: str, seed: int, start: int, stop: int, probe: float) -> Tally:
    total = Tally()
    for i in range(start, stop):
        total.add(play_one(variant, seed, i, probe))
    return total


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
    return cf.ProcessPoolExecutor(max_workers=args.workers), None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variants", default=",".join(playable_variants()),
                    help="comma-separated variants (default: every playable one)")
    ap.add_argument("--games", type=int, default=1000, help="games per variant (default 1000)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    ap.add_argument("--dask", action="store_true", help="run on a Dask LocalCluster")
    ap.add_argument("--scheduler", help="address of an existing Dask scheduler")
    ap.add_argument("--probe", type=float, default=0.02,
                    help="share of steps with the costly checks (default 0.02)")
    ap.add_argument("--chunk", type=int, default=50, help="games per task (default 50)")
    ap.add_argument("--failures", default="soak-failures", help="folder for failing records")
    args = ap.parse_args(argv)
    variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    unknown = [v for v in variants if v not in playable_variants()]
    if unknown or args.games < 1 or args.workers < 1 or not 0 <= args.probe <= 1:
        ap.error(f"variants must be among {', '.join(playable_variants())} (got {unknown}); "
                 "games and workers >= 1; probe in [0, 1]")
    missing = [v for v in variants if importlib.util.find_spec(f"oracles.{v}") is None]
    if missing:
        ap.error(f"no oracle for {', '.join(missing)} in tests/oracles/: the soak checks only "
                 "variants with an independent oracle")
    executor, client = _executor(args)
    status = 0
    t0 = time.perf_counter()
    try:
        for variant in variants:
            total, start = Tally(), time.perf_counter()
            futures = {executor.submit(play_chunk, variant, args.seed, a, min(a + args.chunk, args.games),
                                       args.probe): a for a in range(0, args.games, args.chunk)}
            try:
                for fut in cf.as_completed(futures):
                    total.add(fut.result())
                    el = time.perf_counter() - start
                    print(f"\r{variant}: {total.games}/{args.games} games, {total.steps} steps, "
                          f"{total.checks} checks — {total.games / el:,.0f} games/s, "
                          f"{total.steps / el:,.0f} steps/s, {total.checks / el:,.0f} checks/s",
                          end="", file=sys.stderr, flush=True)
            except SoakBreak as brk:
                for f in futures:
                    f.cancel()
                out = Path(args.failures)
                out.mkdir(parents=True, exist_ok=True)
                path = out / f"{brk.variant}-seed{brk.seed}-game{brk.index}.json"
                path.write_text(brk.record)
                print(f"\nBROKEN: {brk.variant} game {brk.index} (soak seed {brk.seed}), rules "
                      f"{brk.rules}, players {brk.players}\n{brk.detail}\nrecord up to the "
                      f"failure: {path} (rummy101.game.records.loads replays it); replay the "
                      f"game: tools/soak.py --variants {brk.variant} --seed {brk.seed} and "
                      f"play_one({brk.variant!r}, {brk.seed}, {brk.index}, probe)",
                      file=sys.stderr)
                return 1
            el = time.perf_counter() - start
            print(f"\n{variant}: {total.games} games, {total.rounds} rounds, {total.steps} steps, "
                  f"{total.checks} checks in {el:.1f} s ({total.games / el:,.1f} games/s, "
                  f"{total.steps / el:,.0f} steps/s, {total.checks / el:,.0f} checks/s); "
                  "no invariant broken")
    finally:
        if client is not None:
            client.close()
        else:
            executor.shutdown(cancel_futures=True)
    print(f"soak done in {time.perf_counter() - t0:.1f} s: {', '.join(variants)}")
    return status


if __name__ == "__main__":
    sys.exit(main())

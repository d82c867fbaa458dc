"""``rummy101 sim``: run a seeded simulation between bots from the command line.

``rummy101.cli`` builds the argparse tree and calls :func:`add_subcommands`; the handler is stored
as the ``func`` default of the subparser and returns the exit status (0 ok, 2 bad input, as every
``rummy101`` command).

    rummy101 sim --rules rummy101 --bots greedy,greedy,random,random --games 1000 \\
        --seed 1 --workers 2 --out results.jsonl
    rummy101 sim --games 10 --out games.jsonl --record full    # lines that replay
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from ..bots import bot_names
from ..errors import RummyError
from ..rules import VARIANTS, Rules
from ..sim import (
    MAX_GAMES,
    OUTPUT_FORMATS,
    RECORD_KINDS,
    SimError,
    SimInterrupted,
    check_output,
    max_workers,
    simulate,
    write_records,
)
from ._args import rounds, seed

__all__ = ["MAX_GAMES", "add_subcommands", "max_workers", "run_sim"]


def add_subcommands(subparsers: Any) -> None:
    """Add the ``sim`` subcommand to an ``argparse`` subparsers object."""
    p = subparsers.add_parser(
        "sim", help="simulate seeded games between bots",
        description="Play N seeded games between bots, print a per-seat summary (rounds finished "
                    "and games with the best final score, each with a 95% Wilson interval, kept "
                    "apart because a round whose stock runs out has no winner (R101-13); the mean "
                    "score with its 95% Student-t interval, sd, min, max; finish types, turns "
                    "per round) and optionally write one record per game. "
                    "Results depend only on --seed, never on --workers.")
    p.add_argument("--rules", default="rummy101",
                   help=f"rule set, e.g. rummy101 or 'rummy101(players=2)' "
                        f"(variants: {', '.join(VARIANTS)})")
    p.add_argument("--bots", default=None,
                   help=f"comma-separated bot per seat, e.g. greedy,greedy,random,random "
                        f"(bots: {', '.join(bot_names())}, an installed 'rummy101.bots' entry "
                        f"point or 'package.module:BotClass', docs/bots.md; default: greedy "
                        f"against random bots)")
    p.add_argument("--games", type=int, default=100,
                   help=f"number of games (1 to {MAX_GAMES:,}, default 100)")
    p.add_argument("--seed", type=seed, default=0, help="base seed (default 0)")
    p.add_argument("--workers", type=int, default=None,
                   help="worker processes (default: CPU count; 1 = no pool; at most 4 per "
                        "CPU, and never more than --games)")
    p.add_argument("--rounds", type=rounds, default=None,
                   help="rounds per game, played as a match (default: the variant's — 1 for "
                        "rummy101 and remi; classic plays each match to its target, CR-6)")
    p.add_argument("--out", default=None,
                   help=f"write one line per game here; format by extension: "
                        f"{', '.join(OUTPUT_FORMATS)}; an existing file is kept unless --force")
    p.add_argument("--record", choices=RECORD_KINDS, default="summary",
                   help="what each --out line holds: 'summary' (default: seeds, bots, scores, "
                        "finishes; no actions) or 'full' (also the whole game as a "
                        "rummy101.game.records record that records.loads(line) replays; .jsonl "
                        "only)")
    p.add_argument("--force", action="store_true", help="overwrite an existing --out file")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    p.set_defaults(func=run_sim)


def run_sim(args: argparse.Namespace) -> int:
    """Handler of ``rummy101 sim``; returns the exit status."""
    try:
        workers = _workers(args.games, args.workers)
        if args.out is not None:
            # Check the output file before playing, not after a long run.
            check_output(args.out, record=args.record, overwrite=args.force)
        elif args.record != "summary":
            raise SimError("--record full needs --out FILE.jsonl to write the records to")
        bots = args.bots
        if bots is None:  # built-in default: one greedy bot against random bots in every other seat
            players = Rules.parse(args.rules).players
            bots = ",".join(["greedy"] + ["random"] * (players - 1))
        interrupted = None
        try:
            result = simulate(args.rules, bots, args.games, args.seed, workers=workers,
                              progress=not args.quiet, match_rounds=args.rounds,
                              record=args.record)
        except SimInterrupted as exc:  # Ctrl-C: keep the games done (game 0 on, no gap)
            if exc.partial is None:
                print(f"\nrummy101 sim: interrupted before game 0 had finished; "
                      f"nothing to summarise{'' if args.out is None else ' or write'}",
                      file=sys.stderr)
                return 130
            result, interrupted = exc.partial, exc
        if args.out is not None:
            try:
                write_records(result.records, args.out, overwrite=args.force)
            except OSError as exc:
                raise SimError(f"cannot write {args.out!r}: {exc.strerror}") from None
    except RummyError as exc:
        print(f"rummy101 sim: error: {exc}", file=sys.stderr)
        return 2
    print(result.summary())
    if args.out is not None:
        kind = "full game records" if args.record == "full" else "summary rows"
        print(f"wrote {result.games} records to {args.out} ({kind}; "
              f"`rummy101 report {args.out}` tabulates them)")
    if interrupted is not None:
        print(f"\nrummy101 sim: interrupted: the summary "
              f"{'above holds' if args.out is None else 'and the file above hold'} games 0 "
              f"to {result.games - 1} of the {interrupted.games:,} asked "
              f"(the same games as in any run of --seed {args.seed}), not the whole run",
              file=sys.stderr)
        return 130
    return 0


def _workers(games: int, workers: int | None) -> int | None:
    """The worker count to run with: bounded by the CPUs and by the games (the results do not
    depend on it); counts below 1 are left to :func:`rummy101.sim.simulate` to refuse."""
    if games > MAX_GAMES:
        raise SimError(f"--games {games} is more than one run holds: at most {MAX_GAMES:,} games "
                       f"(each game's summary stays in memory until the tables are printed, "
                       f"about 1 KB a Rummy 101 game); "
                       f"run several simulations with different --seed values instead")
    if workers is not None and workers > max_workers():
        raise SimError(f"--workers {workers} would start {workers} processes on "
                       f"{os.cpu_count() or 1} CPU(s): give at most {max_workers()} "
                       f"(4 per CPU)")
    if games < 1 or (workers is not None and workers < 1):
        return workers
    return min(games, workers if workers is not None else (os.cpu_count() or 1))

"""``rummy101 sim``: run a seeded simulation between bots from the command line.

``rummy101.cli`` builds the argparse tree and calls :func:`add_subcommands`; the handler is stored
as the ``func`` default of the subparser and returns the exit status (0 ok, 2 bad input, as every
``rummy101`` command).

    rummy101 sim --rules rummy101 --bots greedy,greedy,random,random --games 1000 \\
        --seed 1 --workers 2 --out results.jsonl
    rummy101 sim --games 10 --out games.jsonl --record full    # lines that replay
    rummy101 sim --games 1000000 --seed 1 --out runs.jsonl --resume   # continue a cut run
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..bots import bot_names
from ..errors import RummyError
from ..rules import VARIANTS, Rules
from ..sim import (
    MAX_STREAMED_GAMES,
    OUTPUT_FORMATS,
    RECORD_KINDS,
    GameTally,
    RecordWriter,
    SimError,
    SimInterrupted,
    SimResult,
    check_output,
    max_workers,
    simulate,
)
from ..sim.resume import RunFile, read_run
from ._args import rounds, seed, whole

__all__ = ["MAX_STREAMED_GAMES", "add_subcommands", "max_workers", "run_sim"]


def add_subcommands(subparsers: Any) -> None:
    """Add the ``sim`` subcommand to an ``argparse`` subparsers object."""
    p = subparsers.add_parser(
        "sim", help="simulate seeded games between bots",
        description="Play N seeded games between bots, print a per-seat summary (rounds finished "
                    "and games with the best final score, each with a 95% Wilson interval, kept "
                    "apart because a round whose stock runs out has no winner (R101-13); the mean "
                    "score with its 95% interval (Student's t corrected for skewness), sd, min, "
                    "max; finish types, turns per round) and optionally write one record per game. "
                    "Results depend only on --seed, never on --workers, so a cut run "
                    "continues with --resume.")
    p.add_argument("--rules", default="rummy101",
                   help=f"rule set, e.g. rummy101 or 'rummy101(players=2)' "
                        f"(variants: {', '.join(VARIANTS)}; default rummy101)")
    p.add_argument("--bots", default=None,
                   help=f"comma-separated bot per seat, e.g. greedy,greedy,random,random "
                        f"(bots: {', '.join(bot_names())}, an installed 'rummy101.bots' entry "
                        f"point or 'package.module:BotClass', docs/bots.md; default: greedy "
                        f"against random bots)")
    p.add_argument("--games", type=whole, default=100,
                   help=f"number of games (1 to {MAX_STREAMED_GAMES:,}, default 100; the "
                        f"run's memory does not grow with them)")
    p.add_argument("--seed", type=seed, default=0, help="base seed (default 0)")
    p.add_argument("--workers", type=whole, default=None,
                   help="worker processes (default: CPU count; 1 = no pool; at most 4 per "
                        "CPU, and never more than --games)")
    p.add_argument("--rounds", type=rounds, default=None,
                   help="rounds per game, played as a match (default: the variant's — 1 for "
                        "rummy101 and remi; classic plays each match to its target, CR-6, "
                        "and --rounds caps it); every --out line holds it as match_rounds")
    p.add_argument("--out", default=None, metavar="FILE",
                   help=f"write one line per game here, each batch as it finishes (Ctrl-C "
                        f"and even a killed run keep the games done); format by extension: "
                        f"{', '.join(OUTPUT_FORMATS)}; an existing file is kept unless --force "
                        f"(replace it) or --resume (continue it)")
    p.add_argument("--record", choices=RECORD_KINDS, default="summary",
                   help="what each --out line holds: 'summary' (default: seeds, bots, scores, "
                        "finishes; no actions) or 'full' (also the whole game as a "
                        "rummy101.game.records record that records.loads(line) replays; .jsonl "
                        "only)")
    p.add_argument("--force", action="store_true", help="overwrite an existing --out file")
    p.add_argument("--resume", action="store_true",
                   help="continue the cut run that wrote --out FILE (Ctrl-C, a killed process): "
                        "check that its lines were written with these --rules, --bots, "
                        "--seed, --rounds and --record, drop an incomplete last line, then "
                        "play only the games missing up to --games and append them; the file "
                        "ends up the same, byte for byte, as one uninterrupted run's, and the "
                        "summary covers all its games. Give the first run's arguments again "
                        "(--workers may differ); not with --force")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    p.set_defaults(func=run_sim)


def run_sim(args: argparse.Namespace) -> int:
    """Handler of ``rummy101 sim``; returns the exit status."""
    writer = None
    try:
        workers = _workers(args.games, args.workers)
        if args.resume and args.out is None:
            raise SimError("--resume continues the --out file of a cut run: give --out FILE "
                           "(the file that run wrote)")
        if args.resume and args.force:
            raise SimError("--resume continues the --out file and --force replaces it: give "
                           "one of them")
        if args.out is not None and not args.resume:
            # Check the output file before playing, not after a long run.
            check_output(args.out, record=args.record, overwrite=args.force)
        elif args.out is None and args.record != "summary":
            raise SimError("--record full needs --out FILE.jsonl to write the records to")
        bots = args.bots
        if bots is None:  # built-in default: one greedy bot against random bots in every other seat
            players = Rules.parse(args.rules).players
            bots = ",".join(["greedy"] + ["random"] * (players - 1))
        before = None
        if args.out is not None:  # each batch of games is written as it finishes
            writer = RecordWriter(args.out, overwrite=args.force, append=args.resume)
        if writer is not None and args.force and os.path.isfile(args.out):
            writer.open()  # locked (not yet replaced): refused now if a run is writing it
        if args.resume:
            check_output(args.out, record=args.record, overwrite=True)
            if writer is not None and os.path.isfile(args.out):
                writer.open()  # locked from here on: a second --resume of this file is refused
            before = read_run(args.out, rules=args.rules, bots=bots, seed=args.seed,
                              games=args.games, match_rounds=args.rounds, record=args.record,
                              workers=workers)
            _say_resume(args, before)
            before.cut()
        start = 0 if before is None else before.games
        interrupted = None
        term: list[bool] = []  # SIGTERM came (it stops the run as Ctrl-C does)
        if before is not None and start == args.games:  # nothing left to play
            result = None
        else:
            try:
                with _sigterm_as_ctrl_c(term):
                    result = simulate(args.rules, bots, args.games, args.seed, workers=workers,
                                      progress=not args.quiet, match_rounds=args.rounds,
                                      record=args.record, start=start, keep_records=False,
                                      on_records=None if writer is None else writer.write)
            except SimInterrupted as exc:  # Ctrl-C: keep the games done (game 0 on, no gap)
                result, interrupted = exc.partial, exc
                if result is not None and writer is not None:  # a batch the Ctrl-C cut off
                    writer.write([rec for rec in result.records
                                  if rec.game >= start + writer.written])
        if before is not None and before.games:  # the summary covers the whole file
            result = _combined(before, result, args, bots, workers)
    except RummyError as exc:
        print(f"rummy101 sim: error: {exc}{_kept(writer, args)}", file=sys.stderr)
        return 2
    finally:
        if writer is not None:
            writer.close()
    how, status = ("stopped by SIGTERM", 143) if term else ("interrupted", 130)
    if result is None:  # interrupted before the first game (of a fresh run) had finished
        print(f"\nrummy101 sim: {how} before game 0 had finished; "
              f"nothing to summarise{'' if args.out is None else ' or write'}", file=sys.stderr)
        return status
    print(result.summary())
    if args.out is not None:
        new = result.games - start
        kind = "full game records" if args.record == "full" else "summary rows"
        if before is None:
            print(f"wrote {new:,} record{'s' if new != 1 else ''} to {args.out} ({kind}; "
                  f"`rummy101 report {args.out}` tabulates them)")
        elif new or interrupted is not None:
            played = (f"{new:,} played and appended (games {start:,} to {result.games - 1:,})"
                      if new else "none played")
            print(f"resumed {args.out}: {start:,} games read back, {played}; the summary covers "
                  f"all {result.games:,} games in the file ({kind}; `rummy101 report "
                  f"{args.out}` tabulates them)")
        else:
            print(f"{args.out} already holds all {args.games:,} games of this run: nothing to "
                  f"play; the summary covers them")
    if interrupted is not None:
        print(f"\nrummy101 sim: {how}: the summary "
              f"{'above holds' if args.out is None else 'and the file above hold'} games 0 "
              f"to {result.games - 1:,} of the {interrupted.games:,} asked "
              f"(the same games as in any run of --seed {args.seed}), not the whole run"
              + ("" if args.out is None else
                 f"; the same command with --resume (and without --force) plays games "
                 f"{result.games:,} to {interrupted.games - 1:,} into {args.out}"),
              file=sys.stderr)
        return status
    return 0


@contextmanager
def _sigterm_as_ctrl_c(seen: list[bool]) -> Iterator[None]:
    """SIGTERM (``kill``, a batch system's time limit) stops the run as Ctrl-C does: the games
    finished by then are summarised and written, ready for ``--resume``; the exit status is then
    143 (128 + SIGTERM), not 130. It used to end the process at once, without a word (the file
    stayed resumable, the summary was lost). ``seen`` gets an item when it came.

    A run started in the background by a script (``rummy101 sim ... &``) ignores SIGINT (the
    shell sets it so); it is handled during the run all the same, since SIGTERM goes through
    the run's own Ctrl-C handling: that keeps a batch written and counted both or neither."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def on_term(signum: int, frame: Any) -> None:
        seen.append(True)
        handler = signal.getsignal(signal.SIGINT)  # the run's own while it runs
        if callable(handler):
            handler(signal.SIGINT, frame)
        else:
            raise KeyboardInterrupt

    ignored = signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    if ignored:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    old = signal.signal(signal.SIGTERM, on_term)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, old)
        if ignored:
            signal.signal(signal.SIGINT, signal.SIG_IGN)


def _say_resume(args: argparse.Namespace, before: RunFile) -> None:
    """What --resume found, on standard error (the summary goes to standard output)."""
    if before.dropped:
        header = not before.keep and str(args.out).lower().endswith(".csv")  # a CSV's first line
        print(f"rummy101 sim: {args.out}: dropped an incomplete last line ({before.dropped:,} "
              f"bytes of {'the CSV header' if header else f'game {before.games:,}'}, cut off "
              f"when the run writing it was killed); "
              f"{'it is written again' if header else 'that game is played again'}",
              file=sys.stderr)
    if before.games < args.games:
        left = (f"game {before.games:,}" if before.games == args.games - 1 else
                f"games {before.games:,} to {args.games - 1:,}")
        print(f"rummy101 sim: resuming {args.out}: games 0 to {before.games - 1:,} are there "
              f"(written with these arguments); playing {left}"
              if before.games else
              f"rummy101 sim: resuming {args.out}: it holds no complete game yet; playing "
              f"{left}", file=sys.stderr)


def _combined(before: RunFile, new: SimResult | None, args: argparse.Namespace,
              bots: str, workers: int | None) -> SimResult:
    """The games read back from the file followed by those played now, as one run's result
    (the same summary as a run that played them all at once)."""
    from ..sim.runner import _check_args, _result
    r, names = _check_args(args.rules, bots, args.games, workers, args.rounds,
                           keep_records=False)
    tally = GameTally(len(names))
    tally.merge(before.tally)
    if new is not None and new.tally is not None:
        tally.merge(new.tally)
    return _result(r, names, args.seed, [], tally)


def _kept(writer: RecordWriter | None, args: argparse.Namespace) -> str:
    """After an error during a run: which games the --out file holds (a --resume continues)."""
    if writer is None or not writer.written:
        return ""
    return (f" (the games finished before it are in {args.out}: "
            f"{'--resume' if args.resume else 'the same command with --resume'} continues "
            f"from there once that is fixed)")


def _workers(games: int, workers: int | None) -> int | None:
    """The worker count to run with: bounded by the CPUs and by the games (the results do not
    depend on it); counts out of range are refused naming the flag."""
    if games > MAX_STREAMED_GAMES:
        raise SimError(f"--games {games} is more than one run can play: at most "
                       f"{MAX_STREAMED_GAMES:,} games; run several simulations with different "
                       f"--seed values and --out files instead; `rummy101 report A.jsonl "
                       f"B.jsonl ...` pools them")
    if workers is not None and workers > max_workers():
        raise SimError(f"--workers {workers} would start {workers} processes on "
                       f"{os.cpu_count() or 1} CPU(s): give at most {max_workers()} "
                       f"(4 per CPU)")
    if games < 1:
        raise SimError(f"--games {games} is not a number of games: give a whole number from 1 "
                       f"to {MAX_STREAMED_GAMES:,}")
    if workers is not None and workers < 1:
        raise SimError(f"--workers {workers} is not a number of worker processes: give a whole "
                       f"number from 1 to {max_workers()} (1 = no pool)")
    return min(games, workers if workers is not None else (os.cpu_count() or 1))

"""``rummy101 report``: tables (and optionally a figure) of what ``rummy101 sim --out`` wrote.

    rummy101 report games.jsonl                    # per-seat tables
    rummy101 report games.jsonl --plot games.png   # and a figure (extra: rummy101[plot])
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..errors import RummyError
from ..sim.io import check_input, check_writable, iter_records
from ..sim.record import GameRecord
from ..sim.report import format_report, summarise
from ..sim.runner import LOG_EVERY_SECONDS

#: The figure formats ``--plot`` writes, by extension.
PLOT_FORMATS = (".png", ".svg", ".pdf")

__all__ = ["add_subcommands", "run_report"]


def add_subcommands(subparsers: Any) -> None:
    """Add ``report`` to the ``rummy101`` tree."""
    p = subparsers.add_parser(
        "report", help="tables and a plot of simulation results",
        description="Read the records `rummy101 sim --out` wrote (.jsonl summary or full lines, "
                    "or .csv) and print per seat: points per game (mean with its 95% interval, "
                    "Student's t corrected for skewness, sd, min, max) and rounds finished and "
                    "games with the best final standing (rates with 95% Wilson intervals), "
                    "one table per rule set, line-up of bots and match length (rummy101, "
                    "remi: the rounds played; classic: the --rounds cap, match_rounds, of "
                    "matches played to the target score). --plot draws the score "
                    "distributions and the rates with their intervals (needs matplotlib: "
                    "pip install 'rummy101[plot]').")
    p.add_argument("files", nargs="+", metavar="FILE", help="records written by rummy101 sim")
    p.add_argument("--plot", metavar="OUT", default=None,
                   help="also draw a figure into OUT (.png, .svg or .pdf)")
    p.add_argument("--force", action="store_true", help="overwrite an existing --plot file")
    p.set_defaults(func=run_report)


class _ReadProgress:
    """How far a long read is, on standard error (a report of millions of games takes minutes):
    a tqdm counter of games on a terminal once a read passes :data:`_QUIET_SECONDS`; otherwise a
    line at most every :data:`~rummy101.sim.runner.LOG_EVERY_SECONDS` (none for a shorter read).
    The total is not known before the files are read, so there is no bar to fill."""

    def __init__(self) -> None:
        self.read = 0
        self.start = self.last = time.monotonic()
        self.bar: Any = None

    def tick(self) -> None:
        self.read += 1
        if self.read % _TICK:
            return
        now = time.monotonic()
        if self.bar is not None:
            self.bar.update(_TICK)
        elif sys.stderr.isatty():
            if now - self.start >= _QUIET_SECONDS:
                from tqdm import tqdm  # type: ignore[import-untyped]
                self.bar = tqdm(initial=self.read, unit=" games", unit_scale=True, file=sys.stderr,
                                desc="reading")
        elif now - self.last >= LOG_EVERY_SECONDS:
            self.last = now
            print(f"report: {self.read:,} games read, {now - self.start:,.0f} s so far",
                  file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


#: records between two looks at the clock, and the seconds a read on a terminal goes on before
#: a counter shows
_TICK = 10_000
_QUIET_SECONDS = 2.0


def run_report(args: argparse.Namespace) -> int:
    """Handler of ``rummy101 report``; returns the exit status."""
    if args.plot is not None:  # everything --plot needs is checked before any reading
        if os.path.isdir(args.plot):  # said first: neither its extension nor --force helps
            check_writable(args.plot)
        ext = Path(args.plot).suffix.lower()
        if ext not in PLOT_FORMATS:
            raise RummyError(f"cannot tell the figure format of {args.plot!r} from its "
                             f"extension {ext or '(none)'!r}; accepted: {', '.join(PLOT_FORMATS)}")
        if os.path.exists(args.plot) and not args.force:
            raise RummyError(f"{args.plot!r} already exists: choose another --plot file, or add "
                             "--force to overwrite it")
        check_writable(args.plot)
        from ..sim.plot import _pyplot
        _pyplot()  # matplotlib is there, or the message says which extra to install

    for path in args.files:  # every file, before a long read of the first
        try:
            check_input(path)
        except OSError as exc:
            raise RummyError(f"cannot read {path!r}: {exc.strerror}") from None
    progress = _ReadProgress()

    def records() -> Iterator[GameRecord]:  # one at a time: none is kept (sim.report.summarise)
        for path in args.files:
            def cut(line: int, size: int, path: str = path) -> None:
                print(f"rummy101 report: note: {path}: left out its incomplete last line (line "
                      f"{line:,}, {size:,} bytes without a newline: the run writing it was "
                      f"killed, or is still writing); the games before it are read (the same "
                      f"`rummy101 sim` command with --resume completes that run)",
                      file=sys.stderr)
            try:
                for rec in iter_records(path, incomplete=cut):
                    progress.tick()
                    yield rec
            except OSError as exc:
                raise RummyError(f"cannot read {path!r}: {exc.strerror}") from None

    try:
        groups, repeats = summarise(records(), keep_scores=args.plot is not None)
        text = format_report(groups)
    except OverflowError:  # a score of 10**400 reads as an int, then cannot be averaged
        raise RummyError(f"the scores in {', '.join(map(repr, args.files))} are too large to "
                         f"average (beyond 1e308 points): give files written by `rummy101 sim "
                         f"--out`") from None
    finally:
        progress.close()
    if repeats:
        print(f"rummy101 report: note: {repeats:,} game{'s' if repeats > 1 else ''} read more than "
              f"once (same rules, bots, deal and bot seeds: the same file or run given twice) "
              f"{'are' if repeats > 1 else 'is'} counted once", file=sys.stderr)
    print(text)
    if args.plot is not None:
        from ..sim.plot import plot_report
        plot_report(groups, args.plot)
        print(f"figure written to {args.plot}")
    return 0

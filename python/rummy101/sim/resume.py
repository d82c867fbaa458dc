"""Continuing a cut run: what ``rummy101 sim --out FILE --resume`` reads from ``FILE``.

A run's games depend only on its arguments (game ``i`` of seed ``S`` is dealt with
``game_seed(S, i)``, its bots seeded with ``bot_seed(S, i, s)``), so a run cut after ``N``
games continues with games ``N..games-1``, and the file then holds exactly what one
uninterrupted run writes. :func:`read_run` reads the file, checks that every complete line was
written by a run with the same rules, bots, seed, rounds (every line holds its ``match_rounds``,
a classic match's cap included) and record kind (and replays the last game to compare it byte
for byte: that covers what a line does not hold, such as a bot whose code changed), and returns
its games;
:meth:`RunFile.cut` drops an incomplete last line (from a run killed while writing it) before
the new games are appended.

Errors are :class:`~rummy101.sim.SimError` messages that name the ``rummy101 sim`` flag to
change; the CLI prints them in one line.
"""

from __future__ import annotations

import csv
import json
import os
import shlex
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import __version__
from ..rules import Rules
from .errors import SimError
from .io import check_output, check_record
from .record import GameRecord
from .runner import _check_args, _game, play_game
from .stats import GameTally

__all__ = ["RunFile", "read_run"]


@dataclass
class RunFile:
    """A run's output file as :func:`read_run` found it.

    ``tally`` the aggregates of its complete games (game 0 on, in order; the games themselves
    are not kept, so that a file of millions of games is read back in little memory) and
    ``games`` their count; ``keep`` the bytes of the complete lines (and a CSV header);
    ``dropped`` the bytes of an incomplete last line after them (0 when the file ends with a
    newline); ``size`` the file's size when read."""

    path: Path
    tally: GameTally
    keep: int
    dropped: int
    size: int

    @property
    def games(self) -> int:
        return self.tally.games

    def cut(self) -> None:
        """Drop the incomplete last line, if any (a no-op otherwise). Refuses a file that
        changed since it was read (another run appending to it)."""
        if not self.dropped:
            return
        size = self.path.stat().st_size
        if size != self.size:
            raise SimError(f"{str(self.path)!r} changed while it was being read ({self.size:,} "
                           f"bytes, now {size:,}): is another run writing it? Resume it once "
                           f"that run has stopped")
        os.truncate(self.path, self.keep)


def _q(text: str) -> str:
    return shlex.quote(text)


def _lines(path: Path) -> Iterator[tuple[int, bytes]]:
    """(line number, bytes with the newline) of every line, the last one possibly without."""
    try:
        with open(path, "rb") as fh:
            yield from enumerate(fh, start=1)
    except OSError as exc:
        raise SimError(f"cannot read {str(path)!r} to resume it: {exc.strerror or exc}") from None


def _csv_fields(seats: int) -> list[str]:
    """The header ``rummy101 sim --out x.csv`` writes for ``seats`` seats."""
    n = seats
    dummy = GameRecord(game=0, seed=0, rules="", bots=("",) * n, scores=(0,) * n,
                       round_scores=(), best=None, finishes=(), finishers=(), turns=(0,) * n,
                       steps=0, run_seed=0, bot_seeds=(0,) * n)
    return list(dummy.to_row())


def _line_of(rec: GameRecord, fields: list[str] | None) -> bytes:
    """The bytes ``rummy101 sim --out`` writes for ``rec``: a JSONL line, or a CSV row under
    ``fields``."""
    if fields is None:
        return (json.dumps(rec.to_json(), separators=(",", ":")) + "\n").encode("utf-8")
    import io
    text = io.StringIO()
    csv.DictWriter(text, fieldnames=fields, lineterminator="\n").writerow(rec.to_row())
    return text.getvalue().encode("utf-8")


def _fields_of(line: bytes, fields: list[str] | None) -> dict[str, Any]:
    if fields is None:
        return dict(json.loads(line))
    return dict(zip(fields, next(csv.reader([line.decode("utf-8")]))))


def read_run(path: str | os.PathLike[str], *, rules: str | Rules, bots: str, seed: int,
             games: int, match_rounds: int | None = None, record: str = "summary",
             workers: int | None = None) -> RunFile:
    """Read the output file of a cut run to continue it with these arguments (those of
    ``rummy101 sim``: ``match_rounds`` is ``--rounds``, None for the variant's default).

    Raises :class:`SimError` when the file is missing, is no file ``rummy101 sim --out``
    writes, holds a line written with other arguments (naming the first that differs, with
    both values, and the line), or holds more than ``games`` games."""
    p = Path(path)
    check_output(p, record=record, overwrite=True)  # extension, a folder, no permission
    r, names = _check_args(rules, bots, games, workers, match_rounds, keep_records=False)
    if not p.exists():
        raise SimError(f"{str(path)!r} does not exist, so there is no run to resume: drop "
                       f"--resume to start the run")
    is_csv = p.suffix.lower() == ".csv"
    rules_text, bots_text = str(r), ",".join(names)
    engine = _game().engine_for(r)
    rounds = match_rounds if match_rounds is not None else engine.DEFAULT_MATCH_ROUNDS
    capped = r.variant == "classic"  # a classic match plays to its target: rounds is a cap
    fields: list[str] | None = None
    tally = GameTally(len(names))
    keep = dropped = 0
    last = b""
    where = str(path)

    def differs(line: int, flag: str, theirs: str, ours: str) -> SimError:
        return SimError(f"{where!r} was written with {flag} {theirs}, not {flag} {ours} (line "
                        f"{line}): give the file's {flag} to continue that run, or another "
                        f"--out file to start a new one")

    def no_record(line: int, why: str) -> SimError:
        return SimError(f"{where!r} line {line} is no line of a `rummy101 sim --out` run "
                        f"({why}); --resume continues only a file that run wrote: give another "
                        f"--out file, or drop --resume and add --force to replace it")

    for i, data in _lines(p):
        if not data.endswith(b"\n"):  # a run killed while writing it: the game is played again
            # what the writer begins its next line with: the header, or the game's index
            what, head = (("the header", (",".join(_csv_fields(len(names))) + "\n").encode())
                          if is_csv and fields is None else
                          (f"game {tally.games:,}", (f"{tally.games}," if is_csv else
                           f'{{"record":"{record}","game":{tally.games},').encode()))
            if not _torn_start(data, head):  # a file of something else, which a cut destroys
                raise no_record(i, f"its last line, {len(data):,} bytes without a newline, is "
                                   f"not the start of {what} as a killed run leaves it")
            dropped = len(data)
            break
        if is_csv and fields is None:  # the header
            want = _csv_fields(len(names))
            got = data.decode("utf-8", "replace").rstrip("\r\n").split(",")
            if got != want:
                newer = ("match_rounds", "rummy101_version")  # columns added after the first
                if got == [f for f in want if f not in newer]:
                    raise _older(where, 1, "its header has no match_rounds column", _ROUNDS_HELD)
                if got == [f for f in want if f != "rummy101_version"]:
                    raise _older(where, 1, "its header has no rummy101_version column",
                                 _VERSION_HELD)
                if got[:1] == ["game"] and len(got) != len(want):
                    raise SimError(f"{where!r} has the columns of {_seats(got)} seats, and "
                                   f"--rules {_q(rules_text)} --bots {_q(bots_text)} play "
                                   f"{len(names)}: give the file's --rules and --bots to "
                                   f"continue that run, or another --out file to start a new one")
                raise no_record(1, "not the header `rummy101 sim --out` writes: "
                                   + ",".join(want[:6]) + ",...")
            fields = want
            keep += len(data)
            continue
        game = tally.games
        try:
            d = _fields_of(data, fields)
        except UnicodeDecodeError:
            raise no_record(i, "not UTF-8 text") from None
        except (ValueError, TypeError, StopIteration) as exc:
            raise no_record(i, "empty" if not data.strip() else
                            f"not JSON: {exc}" if fields is None else f"not a CSV row: {exc}"
                            ) from None
        if fields is None:
            kind = d.get("record")
            if kind is None:
                raise no_record(i, "no 'record' field, which says summary or full")
            if kind != record:
                raise differs(i, "--record", str(kind), record)
        for need, flag in (("game", "the game's index"), ("rules", "--rules"),
                           ("bots" if fields is None else "bot_0", "--bots"),
                           ("run_seed", "--seed")):
            if d.get(need) in (None, ""):
                raise SimError(f"{where!r} line {i} has no {need!r} field, which --resume "
                               f"needs to check {flag} (a line of an older rummy101, or "
                               f"edited): --resume continues only files this version writes; "
                               f"give another --out file")
        if d["rules"] != rules_text:
            raise differs(i, "--rules", _q(str(d["rules"])), _q(rules_text))
        line_bots = (d["bots"] if fields is None else
                     [d[f"bot_{s}"] for s in range(len(names))])
        if not isinstance(line_bots, list) or list(map(str, line_bots)) != list(names):
            raise differs(i, "--bots", _q(",".join(map(str, line_bots))) if isinstance(
                line_bots, list) else repr(line_bots), _q(bots_text))
        if str(d["run_seed"]) != str(seed):
            raise differs(i, "--seed", str(d["run_seed"]), str(seed))
        if d.get("match_rounds") in (None, ""):
            raise _older(where, i, "it has no match_rounds field", _ROUNDS_HELD)
        if d.get("rummy101_version") in (None, ""):
            raise _older(where, i, "it has no rummy101_version field", _VERSION_HELD)
        if d["rummy101_version"] != __version__:
            theirs_v = _q(str(d["rummy101_version"])[:40])
            raise SimError(f"{where!r} line {i} was written by rummy101 {theirs_v} and this is "
                           f"rummy101 {__version__}: other engines or bots may play other games "
                           f"from the same seeds, so --resume continues only a run this version "
                           f"wrote; continue it with rummy101 {theirs_v}, or give another --out "
                           f"file to start the run again")
        if str(d["match_rounds"]) != str(rounds):  # a classic match's cap included (CR-6)
            raise differs(i, "--rounds", str(d["match_rounds"]),
                          f"{rounds}{' (the default)' if match_rounds is None else ''}")
        if str(d["game"]) != str(game):
            raise no_record(i, f"it holds game {d['game']} where game {game} belongs: a file "
                               f"of one run holds games 0, 1, 2... in order")
        try:
            if fields is None:
                d["record"] = "summary"  # the summary fields are enough: no game kept in memory
                rec = GameRecord.from_json(d)
            else:
                rec = GameRecord.from_row(d)
            # the checks `rummy101 report` makes: a hand-edited line (scores that are not the
            # sums of its rounds, a best seat the scores do not give...) would otherwise be
            # counted in the summary of the resumed run, and the file refused by report after
            check_record(rec)
        except (KeyError, TypeError, ValueError, AttributeError, OverflowError) as exc:
            raise no_record(i, f"no field {exc}" if isinstance(exc, KeyError) else str(exc)
                            ) from None
        played = len(rec.round_scores)
        if (played > rounds) if capped else (played != rounds):
            ours = f"{rounds}{' (the default)' if match_rounds is None else ''}"
            raise differs(i, "--rounds", f"{'at least ' if capped else ''}{played}", ours)
        tally.add(rec)
        keep += len(data)
        last = data
    size = p.stat().st_size
    if tally.games > games:
        raise SimError(f"{where!r} already holds {tally.games:,} games, more than --games "
                       f"{games:,}: give --games {tally.games} or more to continue its run, or "
                       f"another --out file")
    if tally.games:
        _check_last_game(where, r, names, seed, tally.games - 1, last, match_rounds, record,
                         fields)
    return RunFile(path=p, tally=tally, keep=keep, dropped=dropped, size=size)


def _torn_start(data: bytes, head: bytes) -> bool:
    """Whether ``data``, a last line without its newline, can be what a run killed while
    writing ``head`` (the start of its next line) left: cut anywhere, inside ``head`` or after
    it. A power cut may leave zeros where the end of a write was (the file's size grown before
    its data): those are no sign of another file."""
    data = data.rstrip(b"\0")
    return head.startswith(data) or data.startswith(head)


# what records hold since the fields _older names were added (its ``held``)
_ROUNDS_HELD = "the match's --rounds"
_VERSION_HELD = "the version of rummy101 that played them"


def _older(where: str, line: int, why: str, held: str) -> SimError:
    """A file written before records held ``match_rounds`` (or ``rummy101_version``): new lines
    appended to it would hold it and the old ones not, so ``rummy101 report`` would split the
    one run in two groups."""
    return SimError(f"{where!r} line {line} was written by an older rummy101 ({why}; records "
                    f"now hold {held}): --resume continues only files this "
                    f"version writes, so that one run's lines all say it; give another --out "
                    f"file to start the run again")


def _seats(header: list[str]) -> str:
    return str(sum(1 for f in header if f.startswith("bot_") and not f.startswith("bot_seed")))


def _check_last_game(where: str, r: Rules, names: tuple[str, ...], seed: int, index: int,
                     last: bytes, match_rounds: int | None, record: str,
                     fields: list[str] | None) -> None:
    """Play the file's last game (game ``index``) again with these arguments and compare its
    line byte for byte: the new games are appended to it, so it must be what this run writes."""
    now = play_game(str(r), names, seed, index, match_rounds=match_rounds, record=record)
    line = _line_of(now, fields)
    if line == last:
        return
    theirs, ours = _fields_of(last, fields), _fields_of(line, fields)
    if str(theirs.get("rounds")) != str(ours.get("rounds")):  # a classic match's cap
        raise SimError(f"{where!r} game {index} (its last complete line) has "
                       f"{theirs.get('rounds')} rounds in the file and {ours.get('rounds')} "
                       f"when played now: was the run given another --rounds (a classic match "
                       f"plays to its target, --rounds caps it)? Give the file's --rounds to "
                       f"continue that run, or another --out file to start a new one")
    key = next((k for k in ours if theirs.get(k) != ours[k]), None)
    if key is None:
        key = next((k for k in theirs if k not in ours), None)
    if key is None:  # the same fields and values, in another order or spacing
        raise SimError(f"{where!r} game {index} (its last complete line) holds what these "
                       f"arguments play but not byte for byte as this version writes it (its "
                       f"fields in another order or spacing: was the file edited, or written "
                       f"by another version of rummy101?); give another --out file to start a "
                       f"new run")
    shown = {k: json.dumps(v, separators=(",", ":")) if not isinstance(v, str) else v
             for k, v in (("file", theirs.get(key)), ("now", ours.get(key)))}
    cut = {k: v if len(v) <= 60 else v[:57] + "..." for k, v in shown.items()}
    raise SimError(f"{where!r} game {index} (its last complete line) is not what these "
                   f"arguments play: its {key!r} is {cut['file']} in the file and {cut['now']} "
                   f"now, so the new games would not continue the same run (was the file "
                   f"edited, or written by another version of rummy101 or of a bot?); give "
                   f"another --out file to start a new run")

"""Writing per-game records: JSON Lines or CSV, chosen by the file extension."""

from __future__ import annotations

import csv
import io
import json
import os
import stat
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import partial
from pathlib import Path
from typing import IO

from .errors import SimError
from .record import GameRecord

__all__ = ["OUTPUT_FORMATS", "RecordWriter", "check_output", "check_writable", "iter_records",
           "read_records", "write_records"]

#: Output formats accepted by :func:`write_records`, chosen by the file extension.
OUTPUT_FORMATS = (".jsonl", ".csv")


def _refuse_empty(path: str | os.PathLike[str], what: str) -> None:
    """Refuse an empty file name, which pathlib reads as the current folder ('.')."""
    if not os.fspath(path).strip():
        raise SimError(f"the file name {os.fspath(path)!r} is empty: {what}")


#: An --out file that is there already: it may be the file of a run that was cut (kill -9 says
#: nothing), whose games --resume keeps and --force throws away.
_EXISTS = ("{} already exists: choose another --out file, add --resume to continue the run "
           "that wrote it (one cut by Ctrl-C or a kill), or add --force to overwrite it")


def check_output(path: str | os.PathLike[str], *, record: str = "summary",
                 overwrite: bool = True) -> str:
    """Check an output path before a run: its extension (``.jsonl`` or ``.csv``; full records
    only as ``.jsonl``) and, unless ``overwrite``, that no such file exists. Returns the format.
    Raises :class:`SimError` saying what to change."""
    _refuse_empty(path, "name the file to write, e.g. 'results.jsonl'")
    p = Path(path)
    ext = p.suffix.lower()
    if p.is_dir():
        raise SimError(f"cannot write {str(path)!r}: it is a folder; name a file in it, e.g. "
                       f"{str(p / 'results.jsonl')!r}")
    if ext not in OUTPUT_FORMATS:
        raise SimError(f"cannot tell the output format of {str(path)!r} from its extension "
                       f"{ext or '(none)'!r}; accepted: {', '.join(OUTPUT_FORMATS)}")
    if record == "full" and ext != ".jsonl":
        raise SimError(f"full game records are written as JSON Lines: name the output "
                       f"'<name>.jsonl', not {str(path)!r} (CSV holds summary rows only)")
    if not overwrite and p.exists():
        raise SimError(_EXISTS.format(repr(str(path))))
    check_writable(p)
    return ext[1:]


def check_writable(path: str | os.PathLike[str]) -> None:
    """Raise :class:`SimError` when ``path`` cannot be written as a file: its folder is
    missing, is no folder or is not writable, or ``path`` is a folder. Checked before a run so
    that a long run is not lost at the end. The file is opened for appending to be sure (root
    passes every os.access check); it is left as it was (one created to try is removed again)."""
    _refuse_empty(path, "name the file to write, e.g. 'results.jsonl'")
    p = Path(path)
    folder = p.parent
    if p.is_dir():
        raise SimError(f"cannot write {str(path)!r}: it is a folder; name a file in it")
    if not folder.exists():
        raise SimError(f"cannot write {str(path)!r}: the folder {str(folder)!r} does not exist")
    if not folder.is_dir():
        raise SimError(f"cannot write {str(path)!r}: {str(folder)!r} is no folder")
    if not os.access(folder, os.W_OK) or (p.exists() and not os.access(p, os.W_OK)):
        raise SimError(f"cannot write {str(path)!r}: permission denied")
    _probe(p, str(path))


def _probe(p: Path, shown: str) -> None:
    """Open ``p`` for appending, as the run will write it: os.access says yes to root for a
    file under /sys or /proc or on a read-only mount, which was then refused only at the first
    write, after the games were played. An existing file is neither truncated nor changed; one
    the probe creates is removed again (a run that writes nothing leaves no empty file, and
    ``xb`` opens still see no file). A path that is there but no regular file (a FIFO, a
    device) is not opened: opening a FIFO waits for its reader."""
    existed = os.path.lexists(p)
    if existed and not p.is_file():
        return
    flags = os.O_WRONLY | os.O_APPEND | getattr(os, "O_CLOEXEC", 0)
    try:
        try:  # created only if still missing: a file made meanwhile is not the probe's to remove
            fd = os.open(p, flags if existed else flags | os.O_CREAT | os.O_EXCL, 0o666)
        except FileExistsError:
            existed = True
            fd = os.open(p, flags)
    except OSError as exc:
        raise SimError(f"cannot write {shown!r}: {exc.strerror or exc}") from None
    os.close(fd)
    if not existed:
        try:
            os.unlink(p)
        except OSError:
            pass


def write_records(records: Iterable[GameRecord], path: str | os.PathLike[str], *,
                  overwrite: bool = True) -> str:
    """Write per-game records to ``path``: JSON Lines for ``.jsonl`` (one
    :meth:`GameRecord.to_json` per line: summary rows, or full game records when the run kept
    them), CSV for ``.csv`` (:meth:`GameRecord.to_row`). Returns the format used. Other
    extensions, full records to CSV and (with ``overwrite=False``) an existing file raise
    :class:`SimError`."""
    recs = list(records)
    full = any(r.game_record is not None for r in recs)
    ext = "." + check_output(path, record="full" if full else "summary", overwrite=overwrite)
    p = Path(path)
    try:
        fh = open(p, "wb" if overwrite else "xb")  # noqa: SIM115
    except FileExistsError:
        raise SimError(f"{str(path)!r} already exists: choose another --out file, or add "
                       f"--force to overwrite it") from None
    with fh:
        fh.write(_encode(recs, csv_rows=ext == ".csv", header=True))
    return ext[1:]


def _encode(records: Sequence[GameRecord], *, csv_rows: bool, header: bool) -> bytes:
    """The bytes of ``records`` in an output file: one JSON line each, or CSV rows (after the
    header when ``header``). :func:`write_records` and :class:`RecordWriter` both write these,
    so a file written batch by batch is the one written at once."""
    if not csv_rows:
        return "".join(json.dumps(rec.to_json(), separators=(",", ":")) + "\n"
                       for rec in records).encode("utf-8")
    rows = [rec.to_row() for rec in records]
    text = io.StringIO()
    w = csv.DictWriter(text, fieldnames=list(rows[0]) if rows else ["game"],
                       lineterminator="\n")
    if header:
        w.writeheader()
    w.writerows(rows)
    return text.getvalue().encode("utf-8")


class RecordWriter:
    """Writes records to a ``.jsonl`` or ``.csv`` file batch by batch, as a run finishes them
    (``rummy101 sim --out``): the bytes are those :func:`write_records` writes for all the
    records at once, and each batch reaches the file before :meth:`write` returns, so a run that
    is killed keeps what it wrote (up to, at worst, one incomplete last line).

    The file is opened by :meth:`open` or at the first non-empty batch (a run that finishes no
    game writes nothing): created (``overwrite=False``: refused when it exists), replaced
    (``overwrite=True``) or, with ``append=True``, continued (``rummy101 sim --resume``; a CSV
    header is written only into an empty file), and locked while open. ``written`` counts the records written; a batch
    whose write fails or is interrupted is cut from the file again, so the file always ends with
    the last whole batch."""

    def __init__(self, path: str | os.PathLike[str], *, overwrite: bool = False,
                 append: bool = False) -> None:
        self.path = Path(path)
        self.csv = self.path.suffix.lower() == ".csv"
        self.overwrite, self.append = overwrite, append
        self.written = 0
        self._fh: IO[bytes] | None = None
        self._size = 0
        self._replace = False

    def open(self) -> None:
        """Open the file now (else at the first batch) and lock it against another run.

        While a run writes its --out file it holds an exclusive ``flock`` on it (where the
        system has one), so that a second run with ``--resume`` or ``--force`` on the same
        file is refused instead of writing games twice: :class:`SimError` says so."""
        if self._fh is not None:
            return
        flags = os.O_WRONLY | getattr(os, "O_BINARY", 0)
        if self.append:
            flags |= os.O_APPEND
        else:
            flags |= os.O_CREAT | (0 if self.overwrite else os.O_EXCL)
        try:
            fd = os.open(self.path, flags, 0o666)
        except FileExistsError:
            raise SimError(_EXISTS.format(repr(str(self.path)))) from None
        except OSError as exc:
            raise SimError(f"cannot write {str(self.path)!r}: {exc.strerror or exc}") from None
        fh = os.fdopen(fd, "wb", buffering=0)  # raw: each write goes to the file
        try:
            _lock(fh, self.path)
        except BaseException:
            fh.close()
            raise
        self._fh = fh
        # replaced at the first batch, once the lock is ours (never under a running run; and
        # a run stopped before its first game leaves the old file as it was)
        self._replace = self.overwrite and not self.append

    def write(self, records: Sequence[GameRecord]) -> None:
        """Append ``records`` (the next games, in order) and hand them to the OS."""
        if not records:
            return
        self.open()
        fh = self._fh
        assert fh is not None
        try:
            if self._replace:
                os.ftruncate(fh.fileno(), 0)
                self._replace = False
            self._size = os.fstat(fh.fileno()).st_size
        except OSError as exc:  # a device or an odd file system: say so, no traceback
            if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
                self._replace, self._size = False, 0
            else:
                raise SimError(f"cannot write {str(self.path)!r}: {exc.strerror or exc}"
                               ) from None
        # a CSV header only into a new file (or a resumed one cut before its header ended)
        data = _encode(records, csv_rows=self.csv, header=self._size == 0)
        view, done = memoryview(data), 0
        try:
            while done < len(data):
                done += fh.write(view[done:]) or 0
        except BaseException as exc:  # a full disk, or Ctrl-C between two writes: no half
            try:                          # batch stays
                os.ftruncate(fh.fileno(), self._size)
            except OSError:
                pass
            if isinstance(exc, OSError):
                raise SimError(f"cannot write {str(self.path)!r}: {exc.strerror or exc}"
                               ) from None
            raise
        self.written += len(records)

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None


def _lock(fh: IO[bytes], path: Path) -> None:
    """An exclusive, non-blocking ``flock`` on ``fh`` (none where ``fcntl`` is missing)."""
    try:
        import fcntl
    except ImportError:  # Windows: no advisory locks here
        return
    try:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise SimError(f"{str(path)!r} is being written by another rummy101 sim run (it holds "
                       f"a lock on the file): let that run end, or stop it, then --resume; two "
                       f"runs writing one file would hold games twice") from None
    except OSError:  # a file system without locks (some network mounts): go on unlocked
        pass


def read_records(path: str | os.PathLike[str], *,
                 incomplete: Callable[[int, int], object] | None = None) -> list[GameRecord]:
    """Read back what :func:`write_records` wrote (``rummy101 sim --out``): JSON Lines (summary
    or full lines) or CSV, by extension. Raises :class:`SimError` naming the file and line of a
    row that is no simulation record, and ``OSError`` when the file cannot be read.

    A file of a run that was killed (or is still writing) may end inside its last line, with
    no newline after it: that is a :class:`SimError` saying so, unless ``incomplete`` is given,
    which is then called with the line's number and its bytes and the line left out (the
    games before it are the run's first games; ``rummy101 report`` says so on standard
    error)."""
    return list(iter_records(path, incomplete=incomplete))


def check_input(path: str | os.PathLike[str]) -> tuple[Path, str]:
    """Check a records file before reading it: a name, not a folder, a known extension, and
    that it opens (``OSError`` otherwise; ``rummy101 report`` checks every file so before it
    reads the first). Returns the path and its extension."""
    _refuse_empty(path, "give a .jsonl or .csv file written by `rummy101 sim --out`")
    p = Path(path)
    ext = p.suffix.lower()
    if p.is_dir():
        raise SimError(f"cannot read {str(path)!r}: it is a folder; give the .jsonl or .csv "
                       f"files in it")
    if ext not in OUTPUT_FORMATS:
        raise SimError(f"cannot tell the format of {str(path)!r} from its extension "
                       f"{ext or '(none)'!r}; accepted: {', '.join(OUTPUT_FORMATS)}")
    with open(p, "rb"):
        pass
    return p, ext


def iter_records(path: str | os.PathLike[str], *,
                 incomplete: Callable[[int, int], object] | None = None) -> Iterator[GameRecord]:
    """:func:`read_records` one record at a time (``rummy101 report`` keeps none of them): the
    same records and the same errors, raised when the reading reaches them (a file that holds
    no record: at its end)."""
    p, ext = check_input(path)
    n = 0
    i = 0  # the last line read
    try:
        if ext == ".csv":
            # A cut CSV row may still parse (a match_rounds of 10000 cut to 100 is a number),
            # so a last row without its newline is left out whatever it holds.
            tail = _unterminated_tail(p)
            # utf-8-sig: a CSV saved again by a spreadsheet starts with a byte-order mark,
            # which would otherwise glue itself to the first column's name, "game"
            with open(p, newline="", encoding="utf-8-sig") as fh:
                held: tuple[int, dict[str, str]] | None = None  # a row is read after the next
                for i, row in enumerate(csv.DictReader(fh), start=2):
                    if held is not None:
                        n += 1
                        yield _read(partial(GameRecord.from_row, held[1]), path, held[0])
                    held = (i, row)
                if held is not None and tail:
                    _incomplete(path, held[0], tail, incomplete)
                elif held is not None:
                    n += 1
                    yield _read(partial(GameRecord.from_row, held[1]), path, held[0])
        else:
            with open(p, "rb") as raw:
                for i, data in enumerate(raw, start=1):
                    if not data.endswith(b"\n") and _cut_json(data):  # only the last line can be
                        _incomplete(path, i, len(data), incomplete)
                        break
                    line = data.decode("utf-8")
                    if line.strip():
                        n += 1
                        yield _read(partial(_from_line, line), path, i)
    except UnicodeDecodeError:
        where = f"line {i}" if ext == ".jsonl" else "a row"
        raise SimError(f"{str(path)!r} {where} is not UTF-8 text: give a file written by "
                       f"`rummy101 sim --out`") from None
    except csv.Error as exc:
        raise SimError(f"{str(path)!r} line {i + 1} is no CSV row ({exc}): give a file written "
                       f"by `rummy101 sim --out`") from None
    if not n:
        raise SimError(f"{str(path)!r} holds no game records")


def _unterminated_tail(path: Path) -> int:
    """The bytes after the file's last newline: 0 when it ends with one (or is empty)."""
    with open(path, "rb") as fh:
        end = fh.seek(0, os.SEEK_END)
        pos = end
        while pos > 0:
            step = min(pos, 1 << 16)
            pos -= step
            fh.seek(pos)
            chunk = fh.read(step)
            k = chunk.rfind(b"\n")
            if k >= 0:
                return end - (pos + k + 1)
        return end


def _cut_json(data: bytes) -> bool:
    """A last line (no newline after it) that is no whole JSON value: cut off as it was
    written. A line cut so is no JSON object; one that is whole stays a record to check."""
    if not data.strip():
        return False
    try:
        json.loads(data.decode("utf-8"))
    except ValueError:  # UnicodeDecodeError too: a cut may fall inside a character
        return True
    return False


def _incomplete(path: str | os.PathLike[str], line: int, size: int,
                incomplete: Callable[[int, int], object] | None) -> None:
    """A last line the file ends inside: left out when ``incomplete`` is given, else refused."""
    if incomplete is None:
        raise SimError(f"{str(path)!r} line {line} is incomplete: the file ends inside it "
                       f"({size:,} bytes without a newline), as a run killed while writing it "
                       f"leaves it; its run continues with the same `rummy101 sim` command and "
                       f"--resume, or read the games before it with incomplete=...")
    incomplete(line, size)


def _from_line(line: str) -> GameRecord:
    d = json.loads(line)
    if not isinstance(d, dict):
        raise TypeError(f"a JSON {type(d).__name__}, not an object")
    return GameRecord.from_json(d)


#: Points a score (or turns, steps) may have in a record read back: no game comes near (a Rummy 101 round costs
#: a seat at most a few thousand), and a score of 10**400 read as an int cannot be averaged.
MAX_RECORD_SCORE = 10**9


def check_record(rec: GameRecord) -> None:
    """Raise ``ValueError`` saying why ``rec``, read back from a file, is no record a run writes:
    a score or count out of range, or a shape :func:`_check_shape` refuses. ``rummy101 report``
    and ``rummy101 sim --resume`` (whose summary counts the games it reads back) both check
    every line so."""
    worst = max((abs(v) for v in (*rec.scores, *(x for r in rec.round_scores for x in r),
                                  *rec.turns, rec.steps, rec.match_rounds or 0)),
                default=0)
    if worst > MAX_RECORD_SCORE:
        raise ValueError(f"a score or count of {len(str(worst)):,} digits; they are at most "
                         f"{MAX_RECORD_SCORE:,} here")
    _check_shape(rec)


def _read(make: Callable[[], GameRecord], path: str | os.PathLike[str], line: int) -> GameRecord:
    try:
        rec = make()
        check_record(rec)
        return rec
    # OverflowError: a JSON 1e400 reads as inf, which int() refuses (a seed, a score of inf)
    except (KeyError, TypeError, ValueError, AttributeError, OverflowError) as exc:
        what = f"no field {exc}" if isinstance(exc, KeyError) else str(exc)
        raise SimError(f"{str(path)!r} line {line} is no simulation record ({what}): give a "
                       f"file written by `rummy101 sim --out`") from None


def _check_shape(rec: GameRecord) -> None:
    """A score and a turn count for every bot, and a finish and a finisher for every round: a
    report reads each seat's and each round's (a hand-edited line with a score too few died
    on an IndexError; one with a finish too many counted a round the game never played)."""
    seats = len(rec.bots)
    for one, many, count in (("score", "scores", len(rec.scores)),
                             ("turn count", "turns", len(rec.turns))):
        if count != seats:
            raise ValueError(f"{count} {one if count == 1 else many} for {seats} "
                             f"bot{'' if seats == 1 else 's'}")
    if rec.game < 0:
        raise ValueError(f"game {rec.game}: games are numbered from 0")
    # turns and steps are counts: a negative one (a hand-edited line) printed a negative
    # turns/round in the report's table
    if any(t < 0 for t in rec.turns):
        raise ValueError(f"turns {list(rec.turns)}: a count is never below 0")
    if rec.steps < 0:
        raise ValueError(f"steps {rec.steps}: a count is never below 0")
    for i, row in enumerate(rec.round_scores, 1):
        if len(row) != seats:
            raise ValueError(f"round {i} has {len(row)} score{'' if len(row) == 1 else 's'} "
                             f"for {seats} bot{'' if seats == 1 else 's'} (round_scores)")
    # the scores are the rounds' sums in every variant (R101-13, RO-12, CR-6): a line where they
    # are not would put one game's rounds beside another's standings
    sums = [sum(row[q] for row in rec.round_scores) for q in range(seats)]
    if rec.round_scores and sums != list(rec.scores):
        raise ValueError(f"scores {list(rec.scores)} are not the sums of the round_scores "
                         f"{sums}")
    rounds = rec.rounds
    for one, many, count in (("finish", "finishes", len(rec.finishes)),
                             ("finisher", "finishers", len(rec.finishers))):
        if count != rounds:
            raise ValueError(f"{count} {one if count == 1 else many} for {rounds} "
                             f"round{'' if rounds == 1 else 's'} (round_scores)")
    # a seat number out of range was counted nowhere (a best seat 5 of 4 neither a best score
    # nor a tie, a finisher 7 a finished round of no seat), and a best seat that is not the
    # one the scores give changed the best rates: sim writes neither
    for who, kind in zip(rec.finishers, rec.finishes):
        if who is not None and not 0 <= who < seats:
            raise ValueError(f"finisher {who} is no seat of {seats}")
        if (who is None) != (kind == "exhausted"):
            raise ValueError(f"a round {kind!r} with finisher {who}: a round has a finisher "
                             f"unless it is 'exhausted'")
    top = max(rec.scores, default=0)
    best = rec.scores.index(top) if rec.scores.count(top) == 1 else None
    if rec.best != best:
        raise ValueError(f"best {rec.best} where the scores {list(rec.scores)} give "
                         f"{'a tie (null)' if best is None else best}")

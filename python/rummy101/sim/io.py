"""Writing per-game records: JSON Lines or CSV, chosen by the file extension."""

from __future__ import annotations

import csv
import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import TextIO

from .errors import SimError
from .record import GameRecord

__all__ = ["OUTPUT_FORMATS", "check_output", "write_records"]

#: Output formats accepted by :func:`write_records`, chosen by the file extension.
OUTPUT_FORMATS = (".jsonl", ".csv")


def check_output(path: str | os.PathLike[str], *, record: str = "summary",
                 overwrite: bool = True) -> str:
    """Check an output path before a run: its extension (``.jsonl`` or ``.csv``; full records
    only as ``.jsonl``) and, unless ``overwrite``, that no such file exists. Returns the format.
    Raises :class:`SimError` saying what to change."""
    p = Path(path)
    ext = p.suffix.lower()
    if ext not in OUTPUT_FORMATS:
        raise SimError(f"cannot tell the output format of {str(path)!r} from its extension "
                       f"{ext or '(none)'!r}; accepted: {', '.join(OUTPUT_FORMATS)}")
    if record == "full" and ext != ".jsonl":
        raise SimError(f"full game records are written as JSON Lines: name the output "
                       f"'<name>.jsonl', not {str(path)!r} (CSV holds summary rows only)")
    if not overwrite and p.exists():
        raise SimError(f"{str(path)!r} already exists: choose another --out file, or add "
                       f"--force to overwrite it")
    return ext[1:]


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
        fh = open(p, "w" if overwrite else "x", newline="", encoding="utf-8")  # noqa: SIM115
    except FileExistsError:
        raise SimError(f"{str(path)!r} already exists: choose another --out file, or add "
                       f"--force to overwrite it") from None
    with fh:
        if ext == ".jsonl":
            _write_jsonl(recs, fh)
        else:
            _write_csv(recs, fh)
    return ext[1:]


def _write_jsonl(records: Iterable[GameRecord], fh: TextIO) -> None:
    fh.writelines(json.dumps(rec.to_json(), separators=(",", ":")) + "\n" for rec in records)


def _write_csv(records: Iterable[GameRecord], fh: TextIO) -> None:
    rows = [rec.to_row() for rec in records]
    fields = list(rows[0]) if rows else ["game"]
    w = csv.DictWriter(fh, fieldnames=fields, lineterminator="\n")
    w.writeheader()
    w.writerows(rows)

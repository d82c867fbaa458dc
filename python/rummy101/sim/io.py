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

__all__ = ["OUTPUT_FORMATS", "write_records"]

#: Output formats accepted by :func:`write_records`, chosen by the file extension.
OUTPUT_FORMATS = (".jsonl", ".csv")


def write_records(records: Iterable[GameRecord], path: str | os.PathLike[str]) -> str:
    """Write per-game records to ``path``: JSON Lines for ``.jsonl``, CSV for ``.csv``.
    Returns the format used. Other extensions raise :class:`SimError`."""
    p = Path(path)
    ext = p.suffix.lower()
    if ext not in OUTPUT_FORMATS:
        raise SimError(f"cannot tell the output format of {str(path)!r} from its extension "
                       f"{ext or '(none)'!r}; accepted: {', '.join(OUTPUT_FORMATS)}")
    with open(p, "w", newline="", encoding="utf-8") as fh:
        if ext == ".jsonl":
            _write_jsonl(records, fh)
        else:
            _write_csv(records, fh)
    return ext[1:]


def _write_jsonl(records: Iterable[GameRecord], fh: TextIO) -> None:
    fh.writelines(json.dumps(rec.to_json(), separators=(",", ":")) + "\n" for rec in records)


def _write_csv(records: Iterable[GameRecord], fh: TextIO) -> None:
    rows = [rec.to_row() for rec in records]
    fields = list(rows[0]) if rows else ["game"]
    w = csv.DictWriter(fh, fieldnames=fields, lineterminator="\n")
    w.writeheader()
    w.writerows(rows)

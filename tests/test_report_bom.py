"""A CSV of ``rummy101 sim --out`` saved again by a spreadsheet ("CSV UTF-8" in Excel) starts
with a byte-order mark; ``rummy101 report`` reads it as the file it was, instead of saying that
its first column, ``game``, is missing."""

from __future__ import annotations

from pathlib import Path

from rummy101.sim import read_records, simulate, write_records


def test_a_csv_with_a_byte_order_mark_reads_back(tmp_path: Path) -> None:
    res = simulate("rummy101(players=2)", "greedy,random", 3, seed=2, workers=1, progress=False)
    plain = tmp_path / "runs.csv"
    write_records(res.records, plain)
    saved = tmp_path / "saved.csv"
    saved.write_bytes(b"\xef\xbb\xbf" + plain.read_bytes().replace(b"\n", b"\r\n"))
    assert read_records(saved) == res.records == read_records(plain)

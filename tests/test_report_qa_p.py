"""``rummy101 report`` reads its files as a stream (sim.report.summarise); these are the hand-edited
records on which the stream and the in-memory read it replaced (f13cc63) must still agree, and on
which both must answer bad input with one line and exit status 2 (CONTRACT.md "Command line"),
never a traceback nor a misleading message."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rummy101 import sim
from rummy101.cli import main


@pytest.fixture(scope="module")
def lines() -> list[dict[str, object]]:
    res = sim.simulate("rummy101(players=2)", "greedy,random", 4, seed=4, workers=1, progress=False)
    return [r.to_json() for r in res.records]


def report(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["report", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("field", ["seed", "game", "scores"])
def test_an_infinite_number_is_no_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], lines: list[dict[str, object]], field: str
) -> None:
    """JSON reads 1e400 as inf, which is no whole number: the line is named as no simulation
    record (before: a traceback in the in-memory read, then 'the scores are too large to
    average' once the read streamed)."""
    text = json.dumps(lines[1])
    value = json.dumps(lines[1][field])
    assert text.count(f'"{field}": {value}') == 1
    value_inf = "[1e400, 0]" if field == "scores" else "1e400"
    bad = tmp_path / "games.jsonl"
    bad.write_text(
        json.dumps(lines[0])
        + "\n"
        + text.replace(f'"{field}": {value}', f'"{field}": {value_inf}')
        + "\n"
    )
    code, out, err = report(capsys, str(bad))
    assert code == 2 and out == "", err
    assert err == (
        f"rummy101 report: error: {str(bad)!r} line 2 is no simulation record "
        f"(cannot convert float infinity to integer): give a file written by "
        f"`rummy101 sim --out`\n"
    )

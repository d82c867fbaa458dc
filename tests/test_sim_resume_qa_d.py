"""`rummy101 sim --resume` on hostile files (QA round D): a line edited by hand in the middle of
a cut run's file must be refused as `rummy101 report` refuses it, not counted in the summary of
the resumed run (whose file report would then refuse), and a number JSON reads as infinite must
be one line of error, not a traceback."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from rummy101.cli import main

RULES, BOTS, SEED = "rummy101(players=2)", "greedy,random", 3


def argv(out: Path, games: int, *extra: str) -> list[str]:
    return [
        "sim",
        "--rules",
        RULES,
        "--bots",
        BOTS,
        "--games",
        str(games),
        "--seed",
        str(SEED),
        "--workers",
        "1",
        "--out",
        str(out),
        "-q",
        *extra,
    ]


def edit_line(path: Path, index: int, change: Any) -> None:
    """Apply ``change(d)`` to the JSON object on line ``index`` (0-based), written compactly."""
    lines = path.read_text().splitlines()
    d = json.loads(lines[index])
    change(d)
    lines[index] = json.dumps(d, separators=(",", ":"))
    path.write_text("\n".join(lines) + "\n")


def _bump_score(d: dict[str, Any]) -> None:
    d["scores"][0] += 10


def _wrong_best(d: dict[str, Any]) -> None:
    d["best"] = 1 - d["best"] if d["best"] is not None else 0


def _extra_round(d: dict[str, Any]) -> None:
    d["finishes"].append("normal")


def _infinite_score(d: dict[str, Any]) -> None:
    d["scores"][1] = float("inf")  # written as Infinity, which json reads back as inf


@pytest.mark.parametrize(
    "change, message",
    [
        (_bump_score, "line 5 is no line of a `rummy101 sim --out` run (scores ["),
        (_wrong_best, "line 5 is no line of a `rummy101 sim --out` run (best "),
        (_extra_round, "line 5 is no line of a `rummy101 sim --out` run (2 finishes for 1 round"),
        (_infinite_score, "line 5 is no line of a `rummy101 sim --out` run ("),
    ],
)
def test_a_line_edited_in_the_middle_is_refused_as_report_refuses_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: Any, message: str
) -> None:
    out = tmp_path / "r.jsonl"
    assert main(argv(out, 10)) == 0
    capsys.readouterr()
    edit_line(out, 4, change)
    before = out.read_bytes()
    assert main(["report", str(out)]) == 2  # report refuses the edited line...
    capsys.readouterr()
    code = main(argv(out, 20, "--resume"))  # ...and so does --resume, before playing
    stdout, err = capsys.readouterr()
    assert code == 2 and stdout == "" and err.count("\n") == 1, err
    assert message in err and "Traceback" not in err, err
    assert out.read_bytes() == before


def test_an_edited_csv_row_is_refused_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r.csv"
    assert main(argv(out, 10)) == 0
    capsys.readouterr()
    lines = out.read_text().splitlines()
    header = lines[0].split(",")
    row = lines[5].split(",")
    row[header.index("score_0")] = str(int(row[header.index("score_0")]) + 10)
    lines[5] = ",".join(row)
    out.write_text("\n".join(lines) + "\n")
    code = main(argv(out, 20, "--resume"))
    stdout, err = capsys.readouterr()
    assert code == 2 and stdout == "", err
    assert "line 6 is no line of a `rummy101 sim --out` run (scores [" in err, err

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
from rummy101.rules import Rules

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


def test_the_interrupted_message_writes_every_game_number_alike(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A SIGTERM after 364,544 games said "games 0 to 364543 of the 100,000,000 asked ...
    plays games 364,544 to 99,999,999": the last game done is written as the others are."""
    from rummy101 import sim
    from rummy101.cli import sim as cli_sim
    from rummy101.sim import runner

    one = sim.simulate(RULES, BOTS, 1, SEED, workers=1, progress=False).records[0]
    tally = sim.GameTally(2)
    for _ in range(1235):
        tally.add(one)
    partial = runner._result(Rules.parse(RULES), ("greedy", "random"), SEED, [], tally)

    def interrupted(*args: Any, **kw: Any) -> Any:
        raise sim.SimInterrupted(partial, 5000)

    monkeypatch.setattr(cli_sim, "simulate", interrupted)
    code = main(argv(tmp_path / "r.jsonl", 5000))
    err = capsys.readouterr().err
    assert code == 130, err
    assert "hold games 0 to 1,234 of the 5,000 asked" in err, err
    assert "plays games 1,235 to 4,999 into" in err, err

"""Simulation records say which rummy101 played them (``rummy101_version``).

The same seeds deal the same racks in every version, but another version's engines or bots may
play them otherwise: a researcher reading records months later must be able to tell, ``report``
must not pool two programs' games into one table, and ``--resume`` must not append one
version's games to another's run.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
import rummy101
from rummy101 import sim
from rummy101.cli import main
from rummy101.sim.report import format_report, group_records

RULES = "rummy101(players=2)"
BOTS = "greedy,random"


def sim_args(out: Path, *extra: str, games: int = 3) -> list[str]:
    return ["sim", "--rules", RULES, "--bots", BOTS, "--games", str(games), "--seed", "5"] + [
        "--workers", "1", "--out", str(out), "-q", *extra
    ]  # fmt: skip


def sim_to(capsys: pytest.CaptureFixture[str], out: Path, *extra: str, games: int = 3) -> str:
    code = main(sim_args(out, *extra, games=games))
    _, err = capsys.readouterr()
    assert code == 0, err
    return err


def refused_resume(capsys: pytest.CaptureFixture[str], out: Path) -> str:
    """The one line --resume writes when it refuses ``out`` (exit status 2, the file as it was)."""
    before = out.read_bytes()
    code = main(sim_args(out, "--resume", games=6))
    _, err = capsys.readouterr()
    assert code == 2 and err.count("\n") == 1, err
    assert out.read_bytes() == before
    return err


def rewrite_version(path: Path, version: str | None) -> None:
    """Every line of a JSONL file as another version wrote it (``None``: before the field)."""
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    for d in lines:
        if version is None:
            del d["rummy101_version"]
        else:
            d["rummy101_version"] = version
    path.write_text("".join(json.dumps(d, separators=(",", ":")) + "\n" for d in lines))


@pytest.mark.parametrize("record", ["summary", "full"])
def test_every_jsonl_line_names_the_version_that_played_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], record: str
) -> None:
    out = tmp_path / "runs.jsonl"
    sim_to(capsys, out, "--record", record)
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [d["rummy101_version"] for d in lines] == [rummy101.__version__] * 3
    assert all(list(d)[-1] == "rummy101_version" for d in lines)  # new fields go last
    assert {r.rummy101_version for r in sim.read_records(out)} == {rummy101.__version__}


def test_every_csv_row_names_the_version_and_the_api_records_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "runs.csv"
    sim_to(capsys, out)
    with open(out, newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert [row["rummy101_version"] for row in rows] == [rummy101.__version__] * 3
    assert {r.rummy101_version for r in sim.read_records(out)} == {rummy101.__version__}
    res = sim.simulate(RULES, BOTS, 2, seed=5, workers=1, progress=False)
    assert [r.rummy101_version for r in res.records] == [rummy101.__version__] * 2
    assert [row["rummy101_version"] for row in res.to_rows()] == [rummy101.__version__] * 2


def test_report_keeps_two_versions_apart_and_names_each(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same run played by two versions (the lines of one rewritten as another's) and by a
    version before the field: three tables, each naming what played it."""
    ours, other, old = (tmp_path / f"{n}.jsonl" for n in ("ours", "other", "old"))
    sim_to(capsys, ours)
    for path, version in ((other, "0.0.9"), (old, None)):
        path.write_bytes(ours.read_bytes())
        rewrite_version(path, version)
    groups = group_records(
        [*sim.read_records(ours), *sim.read_records(other), *sim.read_records(old)]
    )
    assert [(g.games, g.rummy101_version) for g in groups] == [
        (3, rummy101.__version__),
        (3, "0.0.9"),
        (3, None),
    ]
    heads = [line for line in format_report(groups).splitlines() if " games of " in line]
    assert [h.rsplit("; ", 1)[1] for h in heads] == [
        f"rummy101 {rummy101.__version__}",
        "rummy101 0.0.9",
        "rummy101 version not recorded",
    ]
    code = main(["report", str(ours), str(other)])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert out.count(" games of ") == 2 and "rummy101 0.0.9" in out


def test_resume_refuses_a_run_of_another_version_and_leaves_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "runs.jsonl"
    sim_to(capsys, out)
    rewrite_version(out, "0.0.9")
    err = refused_resume(capsys, out)
    assert (
        f"line 1 was written by rummy101 0.0.9 and this is rummy101 {rummy101.__version__}"
    ) in err
    assert "continue it with rummy101 0.0.9, or give another --out file" in err


@pytest.mark.parametrize("ext", [".jsonl", ".csv"])
def test_resume_refuses_a_file_written_before_records_held_the_version(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], ext: str
) -> None:
    out = tmp_path / f"runs{ext}"
    sim_to(capsys, out)
    if ext == ".jsonl":
        rewrite_version(out, None)
        why = "it has no rummy101_version field"
    else:
        with open(out, newline="") as fh:
            rows = list(csv.DictReader(fh))
        fields = [f for f in rows[0] if f != "rummy101_version"]
        with open(out, "w", newline="") as fh:
            w = csv.DictWriter(fh, fieldnames=fields, lineterminator="\n")
            w.writeheader()
            w.writerows({f: r[f] for f in fields} for r in rows)
        why = "its header has no rummy101_version column"
    assert {r.rummy101_version for r in sim.read_records(out)} == {None}  # still read
    err = refused_resume(capsys, out)
    assert (
        f"line 1 was written by an older rummy101 ({why}; records now hold the version "
        f"of rummy101 that played them)"
    ) in err


@pytest.mark.parametrize("bad", [7, "", ["0.1.0"], True])
def test_a_version_that_is_no_text_is_a_read_error_naming_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], bad: object
) -> None:
    out = tmp_path / "runs.jsonl"
    sim_to(capsys, out, games=2)
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    lines[1]["rummy101_version"] = bad
    out.write_text("".join(json.dumps(d) + "\n" for d in lines))
    with pytest.raises(sim.SimError, match="line 2 is no simulation record") as exc:
        sim.read_records(out)
    assert "rummy101_version" in str(exc.value)

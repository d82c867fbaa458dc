"""``rummy101 report`` and ``rummy101 sim --out`` on hostile input (issue 16): files that are no
simulation records answer one line and exit 2, never a traceback; everything ``--plot`` and
``--out`` need is checked before any reading or playing; a game read twice is counted once."""

from __future__ import annotations

import csv
import json
import re
import sys
from pathlib import Path

import pytest
from rummy101 import sim
from rummy101.cli import main
from rummy101.sim.report import drop_duplicates, group_records


@pytest.fixture(scope="module")
def result() -> sim.SimResult:
    return sim.simulate("rummy101(players=2)", "greedy,random", 6, seed=4, workers=1,
                        progress=False)


def report(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["report", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(("content", "message"), [
    (b"\xff\xfe not text\n", r"'.*bad.jsonl' line 1 is not UTF-8 text"),
    (b"[1, 2]\n", r"line 1 is no simulation record \(a JSON list, not an object\)"),
    (b'{"record": "summary", "game": 3, oops\n', r"line 1 is no simulation record \(Expecting"),
    (b'{"foo": 1}\n', r"line 1 is no simulation record \(no field 'scores'\)"),
    (b"\n\n", r"holds no game records"),
])
def test_bad_jsonl_says_which_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                   result: sim.SimResult, content: bytes, message: str) -> None:
    good = tmp_path / "good.jsonl"
    sim.write_records(result.records, good)
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(content)
    code, out, err = report(capsys, str(bad))
    assert code == 2 and out == "" and "Traceback" not in err
    assert err.startswith("rummy101 report: error: ")
    assert re.search(message, err), err
    # a bad line after good ones is named by its number
    bad.write_bytes(good.read_bytes() + content)
    if content.strip():
        code, _, err = report(capsys, str(bad))
        assert code == 2 and f"line {len(result.records) + 1} " in err, err


def test_csv_not_utf8_and_not_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "x.csv"
    path.write_bytes(b"game,seed\n\xff\n")
    code, _, err = report(capsys, str(path))
    assert code == 2 and "is not UTF-8 text" in err
    path.write_text("game,seed\n1,2\n")
    code, _, err = report(capsys, str(path))
    assert code == 2 and "line 2 is no simulation record" in err


def test_plot_checks_come_before_reading(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                         result: sim.SimResult) -> None:
    """A bad --plot answers at once (no tables printed, no file made), whatever the records."""
    data = tmp_path / "games.jsonl"
    sim.write_records(result.records, data)
    for plot, message in [(tmp_path / "fig.txt", "cannot tell the figure format of"),
                          (tmp_path / "fig", "extension '(none)'; accepted: .png, .svg, .pdf"),
                          (tmp_path / "no" / "fig.png", "the folder '"),
                          (tmp_path, "it is a folder")]:
        code, out, err = report(capsys, str(data), "--plot", str(plot))
        assert code == 2 and out == "" and message in err, (plot, err)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.jsonl"]


def test_a_game_read_twice_is_counted_once(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                           result: sim.SimResult) -> None:
    jsonl, csv_path = tmp_path / "run.jsonl", tmp_path / "run.csv"
    sim.write_records(result.records, jsonl)
    sim.write_records(result.records, csv_path)
    code, once, err = report(capsys, str(jsonl))
    assert code == 0 and err == "" and once.startswith("6 games of rummy101(players=2)")
    code, twice, err = report(capsys, str(jsonl), str(csv_path), str(jsonl))
    assert code == 0 and twice == once
    assert "note: 12 games read more than once" in err and "counted once" in err
    # another run (another seed) is other games: all counted
    other = sim.simulate("rummy101(players=2)", "greedy,random", 6, seed=5, workers=1,
                         progress=False)
    kept, dropped = drop_duplicates([*result.records, *other.records, *result.records[:2]])
    assert dropped == 2 and len(kept) == 12
    assert group_records(kept)[0].games == 12


def test_csv_rows_carry_game_seed(tmp_path: Path, result: sim.SimResult) -> None:
    path = tmp_path / "run.csv"
    sim.write_records(result.records, path)
    with open(path, newline="") as fh:
        rows = list(csv.DictReader(fh))
    for row, rec in zip(rows, result.records):
        assert int(row["game_seed"]) == rec.game_seed == sim.game_seed(4, rec.game)
        assert int(row["seed"]) == rec.seed
    assert sim.read_records(path) == [
        sim.GameRecord.from_json(json.loads(json.dumps(r.to_json()))) for r in result.records]


def test_sim_out_is_checked_before_any_game(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """An --out that cannot be written stops `rummy101 sim` before it plays (not after a long
    run), with one line saying why."""
    import rummy101.cli.sim as cli_sim

    def no_games(*args: object, **kwargs: object) -> None:
        raise AssertionError("simulate ran although --out cannot be written")

    monkeypatch.setattr(cli_sim, "simulate", no_games)
    (tmp_path / "dir.jsonl").mkdir()
    (tmp_path / "file").write_text("")
    for out, message in [(tmp_path / "none" / "x.jsonl", "the folder '"),
                         (tmp_path / "file" / "x.jsonl", "is no folder"),
                         (tmp_path / "dir.jsonl", "it is a folder")]:
        assert main(["sim", "--games", "50", "--quiet", "--force", "--out", str(out)]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"rummy101 sim: error: cannot write '{out}': ") and message in err
        assert err.count("\n") == 1


def test_plot_without_matplotlib_through_the_cli(tmp_path: Path, result: sim.SimResult,
                                                 capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """`report --plot` without the extra says what to install, before any table, exit 2."""
    data = tmp_path / "games.jsonl"
    sim.write_records(result.records, data)
    monkeypatch.setitem(sys.modules, "matplotlib", None)   # as if it were not installed
    code, out, err = report(capsys, str(data), "--plot", str(tmp_path / "fig.png"))
    assert (code, out) == (2, "")
    assert err == ("rummy101 report: error: --plot needs matplotlib, the optional extra 'plot': "
                   "pip install 'rummy101[plot]' (from a source checkout: pip install '.[plot]')\n")
    assert not (tmp_path / "fig.png").exists()


@pytest.mark.parametrize(("ext", "record", "rules", "rounds"), [
    (".jsonl", "summary", "rummy101(players=2)", None),
    (".jsonl", "full", "remi(players=2)", None),
    # a CSV row cut inside its last column still parses: match_rounds 100 cut to 10
    (".csv", "summary", "classic(players=2)", 100),
])
def test_a_killed_runs_file_reports_the_games_before_its_cut_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], ext: str, record: str,
        rules: str, rounds: int | None) -> None:
    """A run killed while writing a batch leaves its file ending inside a line; ``report`` of
    it answered 'line 7 is no simulation record ...: give a file written by rummy101 sim --out'
    (which it was), so the games of a cut run could not be reported. The cut line is left out
    with a note, and the tables are those of the complete lines; a line whole but for its
    newline is still read in JSON (it parses), not in CSV."""
    res = sim.simulate(rules, "greedy,random", 8, seed=3, workers=1, progress=False,
                       match_rounds=rounds, record=record)
    whole = tmp_path / f"whole{ext}"
    sim.write_records(res.records, whole)
    data = whole.read_bytes()
    first = tmp_path / f"first{ext}"
    sim.write_records(res.records[:6], first)
    head = first.read_bytes()
    seventh = data[len(head):data.index(b"\n", len(head)) + 1]
    code, expected, _ = report(capsys, str(first))
    assert code == 0
    cut = tmp_path / f"cut{ext}"
    line = 7 if ext == ".jsonl" else 8  # (the CSV header is line 1)
    for keep in (1, len(seventh) // 2, len(seventh) - 2, len(seventh) - 1):
        if ext == ".jsonl" and keep == len(seventh) - 1:
            continue  # the whole line: read below
        cut.write_bytes(head + seventh[:keep])
        code, out, err = report(capsys, str(cut))
        assert code == 0 and out == expected.replace(str(first), str(cut)), (keep, err)
        assert err == (f"rummy101 report: note: {cut}: left out its incomplete last line (line "
                       f"{line}, {keep:,} bytes without a newline: the run writing it was killed, "
                       f"or is still writing); the games before it are read (the same `rummy101 "
                       f"sim` command with --resume completes that run)\n"), keep
        with pytest.raises(sim.SimError, match=rf"line {line} is incomplete: the file ends "
                                               rf"inside it \({keep:,} bytes without a newline\)"):
            sim.read_records(cut)
        seen: list[tuple[int, int]] = []
        assert len(sim.read_records(cut, incomplete=lambda n, b, seen=seen: seen.append((n, b)))) == 6
        assert seen == [(line, keep)]
    if ext == ".jsonl":
        cut.write_bytes(head + seventh[:-1])
        assert len(sim.read_records(cut)) == 7


def test_lines_without_bot_seeds_are_told_apart_by_their_game_index() -> None:
    """drop_duplicates' key for a line without bot seeds (play_game with bot objects, or hand
    made) holds the run seed and the game index: two such games of one run that share a deal
    seed are two games, not a repeat (mutation test, qa-h4: a key without the game index passed
    the suite and counted the second game as read twice)."""
    def rec(game: int) -> sim.GameRecord:
        return sim.GameRecord(game=game, seed=7, rules="rummy101(players=2)", bots=("a", "b"),
                              scores=(101, -50), round_scores=((101, -50),), best=0,
                              finishes=("normal",), finishers=(0,), turns=(4, 3), steps=9,
                              run_seed=1, bot_seeds=(None, None), match_rounds=1)
    kept, dropped = drop_duplicates([rec(0), rec(1), rec(0)])
    assert [r.game for r in kept] == [0, 1] and dropped == 1

"""`rummy101 sim --out FILE --resume` continues a cut run: it checks that FILE was written with
the same arguments, keeps its complete games, plays only the rest and appends them, so that the
file ends up byte for byte what one uninterrupted run writes, and the summary covers every game
in the file. A run writes each batch of games as it finishes, so a killed run (kill -9) keeps
them too, with at worst an incomplete last line that --resume drops.

Cut runs are made three ways: a shorter --games (the first N lines of any run of that seed), a
Ctrl-C raised inside game N (the technique of test_sim_interrupt.py), and a real SIGKILL."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from rummy101 import sim
from rummy101.cli import main
from rummy101.sim import runner

RULES, BOTS, SEED = "rummy101(players=2)", "random,random", 5
ROOT = Path(__file__).resolve().parents[1]


def argv(out: Path, games: int = 40, *extra: str, workers: int = 1,
         record: str = "summary") -> list[str]:
    return ["sim", "--rules", RULES, "--bots", BOTS, "--games", str(games), "--seed", str(SEED),
            "--workers", str(workers), "--record", record, "--out", str(out), "-q", *extra]


def run(capsys: pytest.CaptureFixture[str], args: list[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def summary(stdout: str) -> list[str]:
    """The summary table: stdout without its last line (which says what was written)."""
    return stdout.splitlines()[:-1]


@pytest.fixture
def ctrl_c_at(monkeypatch: pytest.MonkeyPatch) -> Any:
    """``ctrl_c_at(n)``: a KeyboardInterrupt inside game n from now on (``None``: no more)."""
    play = runner.play_game
    at: list[int | None] = [None]

    def play_or_interrupt(rules: Any, bots: Any, seed: int, index: int, **kw: Any) -> Any:
        if index == at[0]:
            raise KeyboardInterrupt
        return play(rules, bots, seed, index, **kw)
    monkeypatch.setattr(runner, "play_game", play_or_interrupt)

    def arm(game: int | None) -> None:
        at[0] = game
    return arm


FORMATS = [(".jsonl", "summary"), (".jsonl", "full"), (".csv", "summary")]


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("ext, record", FORMATS)
def test_resumed_file_and_summary_equal_an_uninterrupted_run(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], ext: str, record: str,
        workers: int) -> None:
    whole, cut = tmp_path / f"whole{ext}", tmp_path / f"cut{ext}"
    code, out_whole, _ = run(capsys, argv(whole, 40, record=record))
    assert code == 0
    assert run(capsys, argv(cut, 17, record=record, workers=workers))[0] == 0
    assert cut.read_bytes() != whole.read_bytes()
    code, out, err = run(capsys, argv(cut, 40, "--resume", record=record, workers=workers))
    assert code == 0, err
    assert cut.read_bytes() == whole.read_bytes()
    assert summary(out) == summary(out_whole)  # all 40 games, not only the 23 new ones
    assert out.splitlines()[0].startswith("40 games of rummy101(players=2), seed 5")
    assert ("resumed" in out and "17 games read back, 23 played and appended (games 17 to 39)"
            in out and "the summary covers all 40 games" in out)
    assert err == f"rummy101 sim: resuming {cut}: games 0 to 16 are there (written with these " \
                  f"arguments); playing games 17 to 39\n"


@pytest.mark.parametrize("ext, record", FORMATS)
def test_a_truncated_last_line_is_dropped_and_played_again(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], ext: str, record: str) -> None:
    whole, cut = tmp_path / f"whole{ext}", tmp_path / f"cut{ext}"
    assert run(capsys, argv(whole, 30, record=record))[0] == 0
    data = whole.read_bytes()
    lines = data.splitlines(keepends=True)
    keep = len(b"".join(lines[:21]))  # a CSV: the header and games 0-19; JSONL: games 0-20
    cut.write_bytes(data[:keep + len(lines[21]) // 2])  # half of the next line: a kill -9
    code, _out, err = run(capsys, argv(cut, 30, "--resume", record=record))
    assert code == 0, err
    assert cut.read_bytes() == data
    game = 20 if ext == ".csv" else 21
    assert (f"dropped an incomplete last line ({len(lines[21]) // 2:,} bytes of game {game}, "
            f"cut off when the run writing it was killed); that game is played again") in err
    assert f"playing games {game} to 29" in err


def test_a_csv_cut_inside_its_header_is_rewritten(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    whole, cut = tmp_path / "whole.csv", tmp_path / "cut.csv"
    assert run(capsys, argv(whole, 10))[0] == 0
    cut.write_bytes(whole.read_bytes()[:30])
    code, _, err = run(capsys, argv(cut, 10, "--resume"))
    assert code == 0, err
    assert cut.read_bytes() == whole.read_bytes()
    assert "it holds no complete game yet; playing games 0 to 9" in err
    # the bytes dropped were the header's, not game 0's (the message said "of game 0")
    assert ("dropped an incomplete last line (30 bytes of the CSV header, cut off when the run "
            "writing it was killed); it is written again") in err


@pytest.mark.parametrize("name, text", [
    ("notes.jsonl", b'{"my": "settings", "keep": [1, 2, 3]}'),  # one JSON line, no newline
    ("table.csv", b"name,value"),                               # one CSV line, no newline
    ("runs.jsonl", b'{"record":"summary","game":7,'),           # another game than the next
])
def test_a_last_line_that_no_killed_run_left_is_refused_not_cut(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, text: bytes) -> None:
    """--resume cuts an incomplete last line only when it is the start of what the run writes
    next (the header, or game N's line): a file of something else whose one line has no
    newline was cut to nothing and overwritten with games, though a refusal leaves the file
    as it was (docs/simulation.md, 'Resuming a cut run')."""
    other = tmp_path / name
    other.write_bytes(text)
    code, out, err = run(capsys, argv(other, 5, "--resume"))
    assert code == 2 and not out
    assert other.read_bytes() == text
    what = "the header" if name.endswith(".csv") else "game 0"
    assert (f"line 1 is no line of a `rummy101 sim --out` run (its last line, {len(text)} bytes "
            f"without a newline, is not the start of {what} as a killed run leaves it)") in err


def test_a_tail_of_zeros_after_a_power_cut_is_dropped(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A power cut may leave zeros where a write's data was (the size grown first): that tail
    is still dropped and its games played again."""
    whole, cut = tmp_path / "whole.jsonl", tmp_path / "cut.jsonl"
    assert run(capsys, argv(whole, 10))[0] == 0
    data = whole.read_bytes()
    keep = len(b"".join(data.splitlines(keepends=True)[:6]))
    cut.write_bytes(data[:keep + 20] + b"\0" * 300)
    code, _, err = run(capsys, argv(cut, 10, "--resume"))
    assert code == 0, err
    assert cut.read_bytes() == data


def test_interrupted_resumed_interrupted_again_then_finished(
        ctrl_c_at: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    whole, cut = tmp_path / "whole.jsonl", tmp_path / "cut.jsonl"
    code, out_whole, _ = run(capsys, argv(whole, 40))
    assert code == 0
    ctrl_c_at(23)  # every game finished before the interrupt is kept: games 0-22
    code, out, err = run(capsys, argv(cut, 40))
    assert code == 130 and "Traceback" not in err
    assert cut.read_bytes().splitlines() == whole.read_bytes().splitlines()[:23]
    assert ("games 0 to 22 of the 40 asked" in err and "the same command with --resume (and "
            f"without --force) plays games 23 to 39 into {cut}" in err)
    ctrl_c_at(33)  # the resumed run is cut too: games 23-32 finish
    code, out, err = run(capsys, argv(cut, 40, "--resume"))
    assert code == 130 and "Traceback" not in err
    assert out.startswith("33 games of")  # the summary holds every game in the file
    assert "games 0 to 32 of the 40 asked" in err and "plays games 33 to 39" in err
    assert cut.read_bytes().splitlines() == whole.read_bytes().splitlines()[:33]
    ctrl_c_at(33)  # interrupted before a new game finished: the file stays, summary of 33
    code, out, err = run(capsys, argv(cut, 40, "--resume"))
    assert code == 130 and out.startswith("33 games of") and "games 0 to 32" in err
    assert out.splitlines()[-1].startswith(f"resumed {cut}: 33 games read back, none played; "
                                           f"the summary covers all 33 games in the file")
    assert cut.read_bytes().splitlines() == whole.read_bytes().splitlines()[:33]
    ctrl_c_at(None)
    code, out, err = run(capsys, argv(cut, 40, "--resume"))
    assert code == 0, err
    assert cut.read_bytes() == whole.read_bytes()
    assert summary(out) == summary(out_whole)


def test_a_killed_run_keeps_its_finished_games_and_resumes(tmp_path: Path) -> None:
    """A real SIGKILL (no handler runs): the batches written before it stay, and --resume
    completes the file to the uninterrupted run's bytes. The resumed run, on a pool of 2, is
    killed too: its workers die with it (else they would keep the file's lock, and the next
    --resume would be refused as if a run were still writing)."""
    whole, cut = tmp_path / "whole.jsonl", tmp_path / "cut.jsonl"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "python")}
    base = [sys.executable, "-m", "rummy101", *argv(cut, 160)[:-3], "-q"]

    def kill_when(extra: list[str], lines: int) -> None:
        proc = subprocess.Popen([*base, "--out", str(cut), *extra], env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while (time.monotonic() < deadline and proc.poll() is None
               and (not cut.exists() or cut.read_bytes().count(b"\n") <= lines)):
            time.sleep(0.01)
        proc.send_signal(signal.SIGKILL)
        proc.wait()

    kill_when([], 0)
    n = cut.read_bytes().count(b"\n")
    assert 0 < n < 160, "the run should have been killed midway"
    subprocess.run([*base, "--out", str(whole)], env=env, check=True,
                   stdout=subprocess.DEVNULL)
    assert cut.read_bytes() == whole.read_bytes()[:cut.stat().st_size]
    kill_when(["--resume", "--workers", "2"], n)
    m = cut.read_bytes().count(b"\n")
    assert n < m < 160, "the resumed run should have been killed midway"
    assert cut.read_bytes() == whole.read_bytes()[:cut.stat().st_size]
    done = subprocess.run([*base, "--out", str(cut), "--resume", "--workers", "2"], env=env,
                          check=False, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert cut.read_bytes() == whole.read_bytes()
    assert f"games 0 to {m - 1:,} are there" in done.stderr


def test_a_complete_file_prints_its_summary_and_plays_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    out_file = tmp_path / "r.jsonl"
    code, out_whole, _ = run(capsys, argv(out_file, 12))
    assert code == 0
    before = out_file.read_bytes()
    monkeypatch.setattr(runner, "simulate", None)  # nothing may be played
    code, out, err = run(capsys, argv(out_file, 12, "--resume"))
    assert code == 0 and err == ""
    assert summary(out) == summary(out_whole)
    assert out.splitlines()[-1] == (f"{out_file} already holds all 12 games of this run: "
                                    f"nothing to play; the summary covers them")
    assert out_file.read_bytes() == before


def test_a_file_can_be_extended_to_more_games(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    whole, cut = tmp_path / "whole.csv", tmp_path / "cut.csv"
    assert run(capsys, argv(whole, 25))[0] == 0
    assert run(capsys, argv(cut, 25))[0] == 0
    cut.write_bytes(whole.read_bytes())
    assert run(capsys, argv(cut, 10))[0] == 2  # no --resume: kept, as before
    assert run(capsys, argv(whole, 40, "--force"))[0] == 0
    code, _, err = run(capsys, argv(cut, 40, "--resume"))
    assert code == 0, err
    assert cut.read_bytes() == whole.read_bytes()


def _edit(path: Path, line: int, **fields: Any) -> None:
    lines = path.read_text().splitlines()
    d = json.loads(lines[line])
    for k, v in fields.items():
        if v is None:
            d.pop(k)
        else:
            d[k] = v
    lines[line] = json.dumps(d, separators=(",", ":"))
    path.write_text("\n".join(lines) + "\n")


@pytest.mark.parametrize("change, message", [
    (["--seed", "6"], (r"^'[^']*r\.jsonl' was written with --seed 5, not --seed 6 \(line 1\): "
                      r"give the file's --seed to continue that run, or another --out file")),
    (["--bots", "greedy,random"], (r"written with --bots random,random, not --bots "
                                  r"greedy,random \(line 1\)")),
    (["--rules", "rummy101(players=3)", "--bots", "random,random,random"],
     r"written with --rules 'rummy101\(players=2\)', not --rules 'rummy101\(players=3\)'"),
    (["--rounds", "2"], r"written with --rounds 1, not --rounds 2 \(line 1\)"),
    (["--record", "full"], r"written with --record summary, not --record full \(line 1\)"),
    (["--games", "9"], (r"already holds 12 games, more than --games 9: give --games 12 or more "
                       r"to continue its run, or another --out file")),
    (["--force"], (r"^--resume continues the --out file and --force replaces it: give one of "
                  r"them$")),
])
def test_a_run_with_other_arguments_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], change: list[str],
        message: str) -> None:
    import re
    out_file = tmp_path / "r.jsonl"
    assert run(capsys, argv(out_file, 12))[0] == 0
    before = out_file.read_bytes()
    args = argv(out_file, 12, "--resume")
    for flag, value in zip(change[::2], change[1::2] or [None] * len(change)):
        if flag in args and value is not None:
            args[args.index(flag) + 1] = value
        else:
            args += [flag] if value is None else [flag, value]
    code, out, err = run(capsys, args)
    assert code == 2 and out == ""
    assert err.startswith("rummy101 sim: error: ") and err.count("\n") == 1, err
    assert re.search(message, err[len("rummy101 sim: error: "):].rstrip("\n")), err
    assert out_file.read_bytes() == before


def test_resume_without_out_or_without_a_file_says_what_to_do(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, argv(tmp_path / "x.jsonl", 5)[:-3] + ["--resume"])
    assert code == 2 and out == ""
    assert err == ("rummy101 sim: error: --resume continues the --out file of a cut run: give "
                   "--out FILE (the file that run wrote)\n")
    missing = tmp_path / "missing.csv"
    code, out, err = run(capsys, argv(missing, 5, "--resume"))
    assert code == 2 and not missing.exists()
    assert err == (f"rummy101 sim: error: {str(missing)!r} does not exist, so there is no run "
                   f"to resume: drop --resume to start the run\n")


def test_lines_that_cannot_be_checked_are_named(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_file = tmp_path / "r.jsonl"
    assert run(capsys, argv(out_file, 12))[0] == 0
    good = out_file.read_bytes()
    cases = [
        ({"run_seed": None}, 3, ("line 4 has no 'run_seed' field, which --resume needs to check "
                                "--seed")),
        ({"bots": None}, 0, "line 1 has no 'bots' field, which --resume needs to check --bots"),
        ({"game": 7}, 5, ("line 6 is no line of a `rummy101 sim --out` run (it holds game 7 "
                         "where game 5 belongs")),
        # (an edit that still holds together: scores [1, 2] are refused by the line check
        # report makes before the last game is played again, test_sim_resume_qa_d.py)
        ({"steps": 1}, 11, ("game 11 (its last complete line) is not what these "
                            "arguments play: its 'steps' is 1 in the file and")),
    ]
    for fields, line, message in cases:
        out_file.write_bytes(good)
        _edit(out_file, line, **fields)
        before = out_file.read_bytes()
        code, out, err = run(capsys, argv(out_file, 20, "--resume"))
        assert code == 2 and out == "" and err.count("\n") == 1, err
        assert message in err, err
        assert out_file.read_bytes() == before
    out_file.write_bytes(good + b"not json\n")
    code, _, err = run(capsys, argv(out_file, 20, "--resume"))
    assert code == 2 and "line 13 is no line of a `rummy101 sim --out` run (not JSON" in err


@pytest.mark.parametrize("ext", [".jsonl", ".csv"])
def test_a_classic_match_with_another_round_cap_is_refused_at_its_first_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], ext: str) -> None:
    """Every line holds its match_rounds, a classic match's --rounds cap too (CR-6): a resume
    with another cap is refused at line 1 (before, only the last game's replay told)."""
    out_file = tmp_path / f"c{ext}"
    base = ["sim", "--rules", "classic(players=2)", "--bots", "greedy,greedy", "--seed", "1",
            "--workers", "1", "--out", str(out_file), "-q"]
    assert run(capsys, [*base, "--games", "2", "--rounds", "2"])[0] == 0
    before = out_file.read_bytes()
    code, _, err = run(capsys, [*base, "--games", "3", "--resume"])
    assert code == 2 and err.count("\n") == 1
    line = 2 if ext == ".csv" else 1   # a CSV's first game is on the line after its header
    assert (f"was written with --rounds 2, not --rounds 10000 (the default) (line {line})"
            in err), err
    assert out_file.read_bytes() == before
    code, _, err = run(capsys, [*base, "--games", "3", "--rounds", "2", "--resume"])
    assert code == 0, err


def test_simulate_start_and_on_records_give_the_games_in_order() -> None:
    whole = sim.simulate(RULES, BOTS, 30, seed=SEED, workers=1, progress=False)
    batches: list[list[int]] = []
    part = sim.simulate(RULES, BOTS, 30, seed=SEED, workers=2, progress=False, start=11,
                        on_records=lambda recs: batches.append([r.game for r in recs]))
    assert part.records == whole.records[11:]
    assert [g for b in batches for g in b] == list(range(11, 30))
    with pytest.raises(sim.SimError, match="start must be a game index from 0 to games-1 = 29"):
        sim.simulate(RULES, BOTS, 30, seed=SEED, workers=1, progress=False, start=30)


def test_a_game_that_fails_keeps_the_games_before_it_for_resume(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    whole, cut = tmp_path / "whole.jsonl", tmp_path / "cut.jsonl"
    assert run(capsys, argv(whole, 40))[0] == 0
    play = runner.play_game

    def fail_at_23(rules: Any, bots: Any, seed: int, index: int, **kw: Any) -> Any:
        if index == 23:
            raise sim.GameFailed("game 23 of the run with seed 5: a bot broke")
        return play(rules, bots, seed, index, **kw)
    monkeypatch.setattr(runner, "play_game", fail_at_23)
    code, out, err = run(capsys, argv(cut, 40))
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err == (f"rummy101 sim: error: game 23 of the run with seed 5: a bot broke (the games "
                   f"finished before it are in {cut}: the same command with --resume continues "
                   f"from there once that is fixed)\n")
    assert cut.read_bytes().splitlines() == whole.read_bytes().splitlines()[:20]
    monkeypatch.setattr(runner, "play_game", play)
    assert run(capsys, argv(cut, 40, "--resume"))[0] == 0
    assert cut.read_bytes() == whole.read_bytes()


@pytest.mark.skipif(sys.platform == "win32", reason="no flock")
def test_a_file_another_run_is_writing_is_not_resumed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The user forgot the first run is still going: a --resume (or --force) of its file would
    write its games twice; the running run's lock refuses it."""
    out_file = tmp_path / "r.jsonl"
    assert run(capsys, argv(out_file, 12))[0] == 0
    before = out_file.read_bytes()
    running = sim.RecordWriter(out_file, append=True)
    running.open()
    try:
        for extra in (["--resume"], ["--force"]):
            code, out, err = run(capsys, argv(out_file, 20, *extra))
            assert code == 2 and out == "" and err.count("\n") == 1, err
            assert (f"{str(out_file)!r} is being written by another rummy101 sim run (it holds a "
                    f"lock on the file): let that run end, or stop it") in err
            assert out_file.read_bytes() == before
    finally:
        running.close()
    assert run(capsys, argv(out_file, 20, "--resume"))[0] == 0


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_full_disk_is_one_line_not_a_traceback(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    full = tmp_path / "full.jsonl"
    full.symlink_to("/dev/full")  # every write fails with ENOSPC
    code, out, err = run(capsys, argv(full, 10, "--force"))
    assert code == 2 and out == ""
    assert err == f"rummy101 sim: error: cannot write {str(full)!r}: No space left on device\n"

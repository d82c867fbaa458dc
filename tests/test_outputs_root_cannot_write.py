"""Output files that root cannot write are refused before any work. The up-front checks used
os.access, which says yes to root for a file under /sys or /proc or on a read-only mount: `sim
--out /sys/x.jsonl` was refused only at its first batch, after games were played; `play --save`
after the game; `report --plot` after reading every file; `bench/ladder.py --jsonl` with a
traceback after the first deal. The check now opens the file for appending (existing files
untouched, a file it creates removed again)."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from rummy101.cli import main
from rummy101.sim import SimError
from rummy101.sim.io import check_writable

ROOT = Path(__file__).resolve().parents[1]


def _unwritable() -> str | None:
    """A file path whose folder os.access calls writable but where no file can be created (so
    as root, under /sys or /proc), or None."""
    for folder in ("/sys", "/proc"):
        path = os.path.join(folder, "rummy101-probe.jsonl")
        if not os.path.isdir(folder) or not os.access(folder, os.W_OK):
            continue
        try:
            fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
        except OSError:
            return path
        os.close(fd)  # pragma: no cover (a writable /sys: not this test's machine)
        os.unlink(path)
    return None


@pytest.fixture()
def unwritable() -> str:
    path = _unwritable()
    if path is None:
        pytest.skip(
            "needs a folder os.access calls writable where no file can be created "
            "(root with /sys or /proc)"
        )
    return path


def test_check_writable_opens_the_file(unwritable: str) -> None:
    with pytest.raises(SimError, match=f"cannot write '{unwritable}': "):
        check_writable(unwritable)


def test_sim_out_is_refused_before_any_game(
    unwritable: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    played = []

    def simulate(*args: object, **kwargs: object) -> None:
        played.append(args)
        raise AssertionError("games were played before --out was refused")

    monkeypatch.setattr("rummy101.cli.sim.simulate", simulate)
    code = main(["sim", "--games", "2", "--workers", "1", "-q", "--out", unwritable])
    err = capsys.readouterr().err
    assert code == 2 and not played
    assert err.startswith(f"rummy101 sim: error: cannot write '{unwritable}': ")


def test_play_save_is_refused_before_the_deal(
    unwritable: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    save = unwritable.replace(".jsonl", ".json")
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    code = main(["play", "--rules", "rummy101(players=2)", "--seed", "1", "--save", save])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""  # no board: the game never started
    assert err.startswith(f"rummy101 play: error: cannot write '{save}': ")


def test_report_plot_is_refused_before_reading(
    unwritable: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plot = unwritable.replace(".jsonl", ".png")
    code = main(["report", "--plot", plot, str(tmp_path / "missing.jsonl")])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith(f"rummy101 report: error: cannot write '{plot}': ")


def test_ladder_jsonl_is_refused_before_any_deal(unwritable: str) -> None:
    env = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join([str(ROOT / "python"), os.environ.get("PYTHONPATH", "")]),
    )
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "ladder.py"),
            "--rules",
            "classic(players=2)",
            "--deals",
            "1",
            "--bots",
            "random",
            "--workers",
            "1",
            "--jsonl",
            unwritable,
        ],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=300,
    )
    assert done.returncode == 2 and done.stdout == "", done.stderr
    assert f"ladder.py: error: --jsonl: cannot write '{unwritable}': " in done.stderr
    assert "Traceback" not in done.stderr


def test_the_check_leaves_files_as_they_were(tmp_path: Path) -> None:
    """A file the check creates is removed again (no empty file is left, and a later 'xb' open,
    as `sim --out` without --force makes, still finds none); an existing one keeps its bytes."""
    new = tmp_path / "new.jsonl"
    check_writable(new)
    assert not new.exists()
    old = tmp_path / "old.jsonl"
    old.write_bytes(b'{"game":0}\n')
    check_writable(old)
    assert old.read_bytes() == b'{"game":0}\n'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.jsonl"]


def test_a_file_made_while_checking_is_not_removed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check removes only a file it created itself: one that appears between its look and
    its open (another run starting) stays, bytes and all."""
    other = tmp_path / "other.jsonl"
    other.write_bytes(b'{"game":0}\n')
    monkeypatch.setattr(os.path, "lexists", lambda path: False)  # it looked before the other run
    check_writable(other)
    assert other.read_bytes() == b'{"game":0}\n'

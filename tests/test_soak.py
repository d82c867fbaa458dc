"""The soak command (tools/soak.py, issue 17): games are a pure function of (variant, seed,
index), the probes never change the game played, and a broken invariant stops the run with a
replayable record."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
from rummy101.game.records import loads

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("soak", ROOT / "tools" / "soak.py")
assert spec is not None and spec.loader is not None
soak = importlib.util.module_from_spec(spec)
sys.modules["soak"] = soak
spec.loader.exec_module(soak)


def test_games_do_not_depend_on_the_probes() -> None:
    a = soak.play_chunk("rummy101", 3, 0, 4, 0.0)
    b = soak.play_chunk("rummy101", 3, 0, 4, 0.05)
    assert (a.games, a.steps, a.rounds) == (b.games, b.steps, b.rounds) and b.checks > a.checks


def test_a_broken_invariant_stops_with_a_replayable_record(monkeypatch: pytest.MonkeyPatch,
                                                          tmp_path: Path) -> None:
    oracle = soak.oracle_of("rummy101")
    real = oracle.check_pieces
    calls = {"n": 0}

    def planted(s: object) -> None:  # a conservation check that breaks at step 30
        calls["n"] += 1
        assert calls["n"] < 30, "planted break"
        real(s)

    monkeypatch.setattr(oracle, "check_pieces", planted)
    with pytest.raises(soak.SoakBreak) as info:
        soak.play_one("rummy101", 0, 1, 0.0)
    brk = info.value
    assert "planted break" in brk.detail and brk.index == 1
    state = loads(brk.record)  # the record of the game up to the failure replays
    assert len(state.history) == 30


def test_main_runs_and_reports(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code = soak.main(["--variants", "rummy101", "--games", "4", "--workers", "1", "--chunk", "2",
                      "--probe", "0.02", "--failures", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 0 and "rummy101: 4 games (game 0 to 3)" in out and "no invariant broken" in out


def test_start_continues_on_new_games(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """--start resumes a cut run: games START.. are played, each the same game as in a run from 0."""
    code = soak.main(["--variants", "classic", "--games", "3", "--start", "5", "--workers", "1",
                      "--chunk", "2", "--failures", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 0 and "classic: 3 games (game 5 to 7)" in out
    whole, tail = soak.play_chunk("classic", 0, 0, 8, 0.0), soak.play_chunk("classic", 0, 5, 8, 0.0)
    head = soak.play_chunk("classic", 0, 0, 5, 0.0)
    assert head.steps + tail.steps == whole.steps and (tail.first, tail.last) == (5, 7)


def test_every_round_replays_its_record_mid_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """The mid-game record round trip is sampled once per round (it costs a replay of the game so
    far); copy() equality runs on every probed step, the full record at the end."""
    real = soak.generic.check_copy_and_record
    seen: list[bool] = []

    def spy(s: object, record: bool = True) -> None:
        seen.append(record)
        real(s, record)

    monkeypatch.setattr(soak.generic, "check_copy_and_record", spy)
    t = soak.play_one("rummy101", 0, 2, 0.05)
    mid = seen[:-1]  # the last call is the end-of-game round trip
    assert seen[-1] is True and len(mid) == t.probes
    assert 1 <= sum(mid) <= t.rounds and not all(mid)


def test_probes_cover_the_verbs_played() -> None:
    t = soak.play_chunk("classic", 1, 0, 30, 0.02)
    assert set(t.played) <= set(t.probed), (t.played, t.probed)
    assert t.greedy_games <= t.games and t.cpu > 0


def test_a_time_box_stops_early_and_reports(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code = soak.main(["--variants", "classic", "--games", "100000", "--minutes", "0.001",
                      "--workers", "1", "--chunk", "2", "--failures", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 0 and "time box reached" in out and "soak summary (time box reached" in out
    games = int(out.split("classic: ")[1].split(" games")[0])
    assert 2 <= games < 100000


def test_sigterm_prints_the_totals_so_far(tmp_path: Path) -> None:
    import os
    import signal
    import subprocess
    import time

    env = dict(os.environ, PYTHONPATH=str(ROOT / "python"))
    p = subprocess.Popen([sys.executable, str(ROOT / "tools" / "soak.py"), "--variants", "classic",
                          "--games", "1000000", "--workers", "1", "--chunk", "2",
                          "--failures", str(tmp_path)], stdout=subprocess.PIPE, text=True, env=env)
    assert p.stdout is not None
    assert p.stdout.readline().startswith("soak: variants classic")
    time.sleep(3)
    p.send_signal(signal.SIGTERM)
    out, _ = p.communicate(timeout=60)
    assert p.returncode == 130
    assert "soak summary (INTERRUPTED (SIGTERM)" in out and "classic: " in out


core_spec = importlib.util.spec_from_file_location("soak_core", ROOT / "bench" / "soak_core.py")
assert core_spec is not None and core_spec.loader is not None
soak_core = importlib.util.module_from_spec(core_spec)
sys.modules["soak_core"] = soak_core
core_spec.loader.exec_module(soak_core)


def test_core_soak_solves_every_sth_rack_and_every_rack_elsewhere() -> None:
    from collections import Counter

    from rummy101 import _backend

    native, pure = _backend._load("native"), _backend._load("pure")
    done: Counter[str] = Counter()
    for i in range(12):
        soak_core.check_rack(native, pure, 5, i, 4, done)
    assert done["rack_value"] == 12 and done["solve_melds"] == 3  # racks 0, 4, 8
    assert done["solve_melds_batch"] == 1  # the tenth solved rack of each ten: rack 0
    assert done["classify_meld"] > 0 and done["meld_value"] == done["classify_meld"]


def test_core_soak_stops_at_a_planted_mismatch(monkeypatch: pytest.MonkeyPatch) -> None:
    from rummy101 import _backend

    native, pure = _backend._load("native"), _backend._load("pure")

    class Lying:  # the pure backend, with rack_value off by one
        def __getattr__(self, name: str) -> object:
            return getattr(pure, name)

        def rack_value(self, cr: object, counts: list[int]) -> int:
            return int(pure.rack_value(cr, counts)) + 1

    with pytest.raises(AssertionError, match="rack_value differs"):
        soak_core.check_rack(native, Lying(), 0, 1)


def test_core_soak_main_reports_its_totals(capsys: pytest.CaptureFixture[str]) -> None:
    assert soak_core.main(["--racks", "40", "--workers", "1", "--chunk", "20"]) == 0
    out = capsys.readouterr().out
    assert "soak_core summary (complete, seed 0, solve every 4): 40 racks" in out
    assert "0 mismatches" in out and "solve_melds 10" in out


def test_main_stops_at_a_break_writes_the_record_and_says_so(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    oracle = soak.oracle_of("classic")
    real = oracle.check_pieces

    def planted(s: object) -> None:  # breaks on game 3's 10th step, in whichever process plays it
        if len(s.history) == 10 and s.seed == soak.game_plan("classic", 0, 3)[1] % (2**31):  # type: ignore[attr-defined]
            raise AssertionError("planted break")
        real(s)

    monkeypatch.setattr(oracle, "check_pieces", planted)
    code = soak.main(["--variants", "classic", "--games", "8", "--workers", "1", "--chunk", "2",
                      "--failures", str(tmp_path)])
    captured = capsys.readouterr()
    assert code == 1
    assert "BROKEN: classic game 3" in captured.err and "planted break" in captured.err
    assert "soak summary (BROKEN at classic game 3" in captured.out
    record = tmp_path / "classic-seed0-game3.json"
    assert len(loads(record.read_text()).history) == 10

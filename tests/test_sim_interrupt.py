"""Ctrl-C during a simulation keeps the games finished so far (from game 0 on, without a gap)
instead of throwing the whole run away: `simulate` raises `SimInterrupted` (a
KeyboardInterrupt) carrying them, and `rummy101 sim` prints their summary, writes them to
--out and exits 130. The interrupt is a KeyboardInterrupt raised inside game N, as Ctrl-C
raises it in the game being played."""

from __future__ import annotations

import concurrent.futures as cf
import json
import signal
from pathlib import Path
from typing import Any

import pytest
from rummy101 import sim
from rummy101.cli import main
from rummy101.sim import runner

RULES, BOTS = "rummy101(players=2)", "random,random"


@pytest.fixture
def ctrl_c_at(monkeypatch: pytest.MonkeyPatch) -> Any:
    def arm(game: int) -> None:
        play = runner.play_game

        def play_or_interrupt(rules: Any, bots: Any, seed: int, index: int, **kw: Any) -> Any:
            if index == game:
                raise KeyboardInterrupt
            return play(rules, bots, seed, index, **kw)
        monkeypatch.setattr(runner, "play_game", play_or_interrupt)
    return arm


def lines(res: sim.SimResult) -> list[str]:
    return [json.dumps(r.to_json()) for r in res.records]


def test_serial_run_keeps_every_game_before_the_interrupt(ctrl_c_at: Any) -> None:
    """A serial run hands on the batch it had begun: every game finished before the Ctrl-C is
    kept (it kept whole chunks only, here games 0-19 of chunks of 5: a search-bot run of 25-game
    chunks lost up to ~40 s of games)."""
    full = sim.simulate(RULES, BOTS, 40, seed=5, workers=1, progress=False)
    ctrl_c_at(23)
    with pytest.raises(sim.SimInterrupted) as info:
        sim.simulate(RULES, BOTS, 40, seed=5, workers=1, progress=False)
    assert isinstance(info.value, KeyboardInterrupt) and info.value.games == 40
    part = info.value.partial
    assert part is not None and part.games == 23  # games 0-22 had finished
    assert lines(part) == lines(full)[:23]
    assert [st.best for st in part.seats] == [
        sum(1 for r in full.records[:23] if r.best == s) for s in range(2)]


def test_executor_run_keeps_a_gapless_prefix_and_restores_sigint(ctrl_c_at: Any) -> None:
    full = sim.simulate(RULES, BOTS, 40, seed=5, workers=1, progress=False)
    ctrl_c_at(23)
    before = signal.getsignal(signal.SIGINT)
    with cf.ThreadPoolExecutor(2) as ex, pytest.raises(sim.SimInterrupted) as info:
        sim.simulate(RULES, BOTS, 40, seed=5, workers=2, executor=ex, progress=False)
    assert signal.getsignal(signal.SIGINT) is before
    part = info.value.partial
    n = 0 if part is None else part.games
    assert n <= 23
    if part is not None:
        assert lines(part) == lines(full)[:n]


def test_interrupt_in_the_first_game_has_nothing_to_keep(ctrl_c_at: Any) -> None:
    ctrl_c_at(0)
    with pytest.raises(sim.SimInterrupted) as info:
        sim.simulate(RULES, BOTS, 40, seed=5, workers=1, progress=False)
    assert info.value.partial is None


def argv(out: Path) -> list[str]:
    return ["sim", "--rules", RULES, "--bots", BOTS, "--games", "40", "--seed", "5",
            "--workers", "1", "--out", str(out), "-q"]


def test_cli_writes_and_summarises_the_games_done_and_exits_130(
        ctrl_c_at: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv(tmp_path / "full.jsonl")) == 0
    capsys.readouterr()
    ctrl_c_at(23)
    assert main(argv(tmp_path / "cut.jsonl")) == 130
    out, err = capsys.readouterr()
    assert out.startswith("23 games of rummy101(players=2), seed 5")
    assert "wrote 23 records to" in out
    assert "interrupted" in err and "games 0 to 22 of the 40 asked" in err
    assert "Traceback" not in err
    full = (tmp_path / "full.jsonl").read_text().splitlines()
    assert (tmp_path / "cut.jsonl").read_text().splitlines() == full[:23]


def test_cli_interrupted_before_any_game_writes_nothing(
        ctrl_c_at: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ctrl_c_at(0)
    assert main(argv(tmp_path / "cut.jsonl")) == 130
    out, err = capsys.readouterr()
    assert out == "" and "interrupted before game 0 had finished" in err
    assert not (tmp_path / "cut.jsonl").exists()


LATE_BOT = '''
import os
import time

from rummy101.bots import get_bot


class Late:
    """The random bot, until the file named by $LATE_FLAG exists: then every decision hangs."""

    def __init__(self, rng=None):
        self.inner = get_bot("random", rng)

    def act(self, observation, legal_actions):
        if os.path.exists(os.environ["LATE_FLAG"]):
            time.sleep(3600)
        return self.inner.act(observation, legal_actions)
'''


@pytest.mark.parametrize(("signum", "status", "word"), [
    (signal.SIGINT, 130, "interrupted"),
    (signal.SIGTERM, 143, "stopped by SIGTERM"),
])
def test_ctrl_c_stops_the_pool_workers_instead_of_waiting_for_their_chunks(
        tmp_path: Path, signum: int, status: int, word: str) -> None:
    """Ctrl-C on a pool run waited for the chunks its workers had started or queued (games the
    interrupted run throws away): 132 s with the search bot before `rummy101 sim` said a word,
    a second Ctrl-C ignored. The workers are now stopped at once: here they hang in every
    decision once some games are written, so only stopping them ends the run. SIGTERM (`kill`,
    a batch system's time limit) does the same, exit status 143: it ended the process at once,
    the summary lost."""
    import os
    import subprocess
    import sys
    import time

    (tmp_path / "latebot.py").write_text(LATE_BOT)
    out, flag = tmp_path / "cut.jsonl", tmp_path / "hang"
    env = {**os.environ, "LATE_FLAG": str(flag),
           "PYTHONPATH": os.pathsep.join([str(tmp_path), *sys.path])}
    proc = subprocess.Popen(
        [sys.executable, "-m", "rummy101", "sim", "--rules", RULES, "--bots", "latebot:Late,random",
         "--games", "100000", "--workers", "2", "--out", str(out), "-q"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path)
    try:
        while not (out.exists() and out.read_text().count("\n") >= 1):  # some games written
            assert proc.poll() is None, proc.communicate()
            time.sleep(0.05)
        flag.touch()  # from now on every worker hangs in its game
        proc.send_signal(signum)  # the run's process only, as `kill` sends it
        stdout, stderr = proc.communicate(timeout=120)  # a guard against the old hang, not a speed
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == status and "Traceback" not in stderr, stderr
    done = out.read_text().splitlines()
    assert f"sim: {word}: the summary and the file above hold games 0 to {len(done) - 1} of " \
           f"the 100,000 asked" in " ".join(stderr.split())
    # (one game a chunk at first, docs/simulation.md "Chunks": the cut may hold a single game)
    games = f"{len(done):,} game{'' if len(done) == 1 else 's'}"
    assert stdout.startswith(f"{games} of rummy101(players=2)")


def test_sigterm_stops_a_background_run_that_ignores_sigint(tmp_path: Path) -> None:
    """A script's ``rummy101 sim ... &`` starts with SIGINT ignored (the shell does so); SIGTERM
    still stops it the way Ctrl-C would, through the run's own handling (a serial run here):
    the games finished are summarised and written, exit status 143."""
    import os
    import subprocess
    import sys
    import time

    out = tmp_path / "bg.jsonl"
    ignoring = ("import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_IGN); "
                "os.execv(sys.executable, [sys.executable, '-m', 'rummy101', *sys.argv[1:]])")
    proc = subprocess.Popen(  # SIGINT ignored through the exec, as a shell's `&` leaves it
        [sys.executable, "-c", ignoring, "sim", "--rules", RULES, "--games", "10000000",
         "--workers", "1", "--out", str(out), "-q"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    try:
        while not (out.exists() and out.read_text().count("\n") >= 1):  # some games written
            assert proc.poll() is None, proc.communicate()
            time.sleep(0.05)
        proc.send_signal(signal.SIGTERM)
        stdout, stderr = proc.communicate(timeout=120)  # a guard against a run that goes on
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 143 and "Traceback" not in stderr, stderr
    done = out.read_text().splitlines()
    assert f"stopped by SIGTERM: the summary and the file above hold games 0 to {len(done) - 1}" \
           in " ".join(stderr.split())
    # (one game a chunk at first, docs/simulation.md "Chunks": the cut may hold a single game)
    games = f"{len(done):,} game{'' if len(done) == 1 else 's'}"
    assert stdout.startswith(f"{games} of rummy101(players=2)")

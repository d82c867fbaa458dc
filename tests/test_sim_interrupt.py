"""Ctrl-C during a simulation keeps the games finished so far (from game 0 on, without a gap)
instead of throwing the whole run away: `simulate` raises `SimInterrupted` (a
KeyboardInterrupt) carrying them, and `rummy101 sim` prints their summary, writes them to
--out and exits 130. The interrupt is a KeyboardInterrupt raised inside game N, as Ctrl-C
raises it in the game being played."""

from __future__ import annotations

import concurrent.futures as cf
import json
import os
import signal
import tempfile
import threading
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


def test_a_chunk_cut_by_ctrl_c_hands_back_the_games_it_finished(ctrl_c_at: Any) -> None:
    """A pool worker's chunk interrupted in its fourth game returns the three it finished,
    marked cut (the KeyboardInterrupt went up and the chunk's finished games were lost)."""
    full = sim.simulate(RULES, BOTS, 30, seed=5, workers=1, progress=False)
    ctrl_c_at(23)
    try:
        records, _, cut = runner._play_chunk(RULES, ("random", "random"), 5, 20, 30, None,
                                             runner._backend.backend_name())
    except KeyboardInterrupt:
        pytest.fail("the KeyboardInterrupt went up: the games 20-22 the chunk had finished lost")
    assert cut and records == full.records[20:23]


def test_an_executor_run_keeps_the_games_of_the_chunk_cut_first(
        ctrl_c_at: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Chunks of ten games on one thread, Ctrl-C in game 23: the run keeps games 0-22, the
    whole chunks 0-19 and the three games the cut chunk 20-29 had finished (it kept 0-19)."""
    full = sim.simulate(RULES, BOTS, 40, seed=5, workers=1, progress=False)
    monkeypatch.setattr(runner._Chunks, "size", lambda self: 10)
    ctrl_c_at(23)
    with cf.ThreadPoolExecutor(1) as ex, pytest.raises(sim.SimInterrupted) as info:
        sim.simulate(RULES, BOTS, 40, seed=5, workers=2, executor=ex, progress=False)
    part = info.value.partial
    assert part is not None and lines(part) == lines(full)[:23]


class _Recording(cf.ThreadPoolExecutor):
    """A caller's executor that keeps every future the run submits to it."""

    def __init__(self, workers: int) -> None:
        super().__init__(workers)
        self.futures: list[cf.Future[Any]] = []

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> cf.Future[Any]:
        f = super().submit(fn, *args, **kwargs)
        self.futures.append(f)
        return f


def test_a_stopped_run_leaves_a_callers_executor_idle_and_keeps_its_finished_chunk(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """On a caller's executor, whose workers the run does not signal, a stop asks the chunks
    still running to stop (a file they look for before each game) and waits for them: the run
    returns with no chunk of its own left running on the caller's executor, keeps a chunk that
    was finishing, and the executor stays usable. Before, the run returned at once: the chunks
    running went on in the caller's workers after it (2 threads, games of 0.2 s, Ctrl-C in game
    3: game 2 was still being played, and lost) and were thrown away when they finished."""
    full = sim.simulate(RULES, BOTS, 12, seed=5, workers=1, progress=False)
    play = runner.play_game
    game2 = threading.Event()

    def slow_or_interrupt(rules: Any, bots: Any, seed: int, index: int, **kw: Any) -> Any:
        if index == 2:
            game2.set()
        if index == 3:
            # (chunks 0-3 are one game each: the first sizes). The stop comes once game 2 is
            # being played: under load its chunk could start after the stop file is there and
            # rightly play nothing, which is not what this test is about
            game2.wait(30)
            raise KeyboardInterrupt
        threading.Event().wait(0.2)  # a game takes a while
        return play(rules, bots, seed, index, **kw)

    monkeypatch.setattr(runner, "play_game", slow_or_interrupt)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # where the stop file goes
    with _Recording(2) as ex:
        with pytest.raises(sim.SimInterrupted) as info:
            sim.simulate(RULES, BOTS, 12, seed=5, workers=2, executor=ex, progress=False)
        running = [f for f in ex.futures if not f.done()]
        assert not running, f"{len(running)} chunk(s) of the stopped run still running"
        assert ex.submit(pow, 2, 10).result() == 1024   # the caller's executor still works
    part = info.value.partial
    assert part is not None and lines(part) == lines(full)[:3]  # games 0-2: game 2 kept
    assert list(tmp_path.iterdir()) == []                        # the stop file removed


def test_a_chunk_stops_before_its_next_game_once_the_stop_file_is_there(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    full = sim.simulate(RULES, BOTS, 30, seed=5, workers=1, progress=False)
    stop = tmp_path / "stop"
    play = runner.play_game

    def play_then_stop(rules: Any, bots: Any, seed: int, index: int, **kw: Any) -> Any:
        if index == 22:
            stop.touch()  # the run asks the chunk to stop while game 22 is being played
        return play(rules, bots, seed, index, **kw)

    monkeypatch.setattr(runner, "play_game", play_then_stop)
    records, _, cut = runner._play_chunk(RULES, ("random", "random"), 5, 20, 30, None,
                                         runner._backend.backend_name(), "summary", str(stop))
    assert cut and records == full.records[20:23]  # game 22 finished, none after it


HANG_BOT = '''
import os
import random
import sys
import time

from rummy101.bots import get_bot
from rummy101.sim import bot_seed

AT = int(os.environ.get("HANG_AT", "-1"))
# the game of each seat-0 bot of a run of seed 5, told by the first number its rng draws
GAME = {random.Random(bot_seed(5, i, 0)).random(): i for i in range(AT + 1000)} if AT >= 0 else {}


def chunk_start():
    """The first game of the chunk this pool worker plays (the worker task's ``start``)."""
    frame = sys._getframe()
    while frame is not None and frame.f_code.co_name != "_play_chunk":
        frame = frame.f_back
    return None if frame is None else frame.f_locals["start"]


class Hang:
    """The random bot; in a game from $HANG_AT on that is not the first of its chunk (so the
    chunk has finished games) it writes $HANG_DIR/hang-<game> and its first decision hangs
    until interrupted (with $HANG_SWALLOW, for ever)."""

    def __init__(self, rng=None):
        self.inner = get_bot("random", rng)
        probe = random.Random()
        probe.setstate((rng or random.Random(0)).getstate())
        self.game = GAME.get(probe.random())
        start = chunk_start()
        self.hangs = self.game is not None and self.game >= AT and start is not None \\
            and self.game > start
        if self.game is not None and start is None:  # no worker task found: the test says so
            open(os.path.join(os.environ["HANG_DIR"], "no-chunk"), "w").close()

    def act(self, observation, legal_actions):
        if self.hangs:
            open(os.path.join(os.environ["HANG_DIR"], f"hang-{self.game}"), "w").close()
            while True:
                try:
                    time.sleep(3600)
                except KeyboardInterrupt:
                    if not os.environ.get("HANG_SWALLOW"):
                        raise
        return self.inner.act(observation, legal_actions)
'''


def run_until_hung(tmp_path: Path, at: int, signum: int, group: bool, swallow: bool = False
                   ) -> tuple[int, int, str, str, list[str]]:
    """`rummy101 sim` of hangbot:Hang,random on two workers in a session of its own: once both
    workers hang (from game ``at`` on, each in a game after the first of its chunk), ``signum``
    to the run (``group``: to every process of it, as a terminal's Ctrl-C or a batch system's
    SIGTERM). The first game that hung (every game before it had finished), the exit status,
    output, error output and the lines of --out."""
    import subprocess
    import sys
    import time

    (tmp_path / "hangbot.py").write_text(HANG_BOT)
    out = tmp_path / "cut.jsonl"
    env = {**os.environ, "HANG_AT": str(at), "HANG_DIR": str(tmp_path),
           "PYTHONPATH": os.pathsep.join([str(tmp_path), *sys.path])}
    if swallow:
        env["HANG_SWALLOW"] = "1"
    proc = subprocess.Popen(
        [sys.executable, "-m", "rummy101", "sim", "--rules", RULES, "--bots", "hangbot:Hang,random",
         "--games", "100000", "--seed", "5", "--workers", "2", "--out", str(out), "-q"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path,
        start_new_session=True)
    try:
        while len(hung := list(tmp_path.glob("hang-*"))) < 2:  # both workers hang
            assert proc.poll() is None, proc.communicate()
            assert not (tmp_path / "no-chunk").exists(), "the bot found no _play_chunk frame"
            time.sleep(0.05)
        if group:
            os.killpg(proc.pid, signum)
        else:
            proc.send_signal(signum)  # the run's process only, as `kill PID` sends it
        stdout, stderr = proc.communicate(timeout=120)  # a guard against a hang, not a speed
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
    first = min(int(p.name.split("-")[1]) for p in hung)
    return first, proc.returncode, stdout, stderr, out.read_text().splitlines()


@pytest.mark.parametrize(("signum", "group", "status"), [
    (signal.SIGINT, True, 130),  # Ctrl-C in a terminal: the run and its workers get it
    (signal.SIGTERM, False, 143),  # kill PID: the run alone
    (signal.SIGTERM, True, 143),  # a batch system's time limit: every process of the job
])
def test_a_stopped_pool_run_keeps_every_game_finished_before_the_hung_one(
        tmp_path: Path, signum: int, group: bool, status: int) -> None:
    """Both workers hang, the first in game G after some games of its chunk had finished: the
    run keeps games 0 to G-1, the file the first G lines of the whole run. It dropped the chunk
    still playing, with the games of it that had finished (kept games 0 to the chunk's first
    one, before G)."""
    import subprocess
    import sys

    first, code, stdout, stderr, done = run_until_hung(tmp_path, 40, signum, group)
    assert code == status and "Traceback" not in stderr, stderr
    assert len(done) == first, (len(done), first, stderr)
    assert stdout.startswith(f"{first} games of rummy101(players=2)")
    assert f"hold games 0 to {first - 1} of the 100,000 asked" in " ".join(stderr.split())
    whole = tmp_path / "whole.jsonl"  # the same games, uninterrupted (no game hangs)
    subprocess.run([sys.executable, "-m", "rummy101", "sim", "--rules", RULES, "--bots",
                    "hangbot:Hang,random", "--games", str(first), "--seed", "5", "--workers", "2",
                    "--out", str(whole), "-q"], check=True, cwd=tmp_path, capture_output=True,
                   env={**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), *sys.path])})
    assert done == whole.read_text().splitlines()


def test_a_worker_that_ignores_the_stop_is_killed(tmp_path: Path) -> None:
    """A worker whose game swallows the KeyboardInterrupt (a bot's bare except, a long native
    call) does not answer: it is killed after STOP_SECONDS and the run ends with the chunks read
    whole, a prefix of the run, without a traceback."""
    first, code, _, stderr, done = run_until_hung(tmp_path, 40, signal.SIGINT, False,
                                                  swallow=True)
    assert code == 130 and "Traceback" not in stderr, stderr
    assert len(done) < first
    assert all(json.loads(line)["game"] == i for i, line in enumerate(done))

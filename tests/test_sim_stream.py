"""A simulation that does not keep its records (``simulate(..., keep_records=False)``, what
``rummy101 sim`` runs): the same stats and summary as one that keeps them, every game handed to
``on_records`` once and in order, a memory that does not grow with the games, the chunks
submitted to an executor a window at a time, and a Ctrl-C that never splits a batch between
the file and the tally."""

from __future__ import annotations

import concurrent.futures as cf
import dataclasses
import gc
import os
import signal
import threading
from pathlib import Path
from typing import Any

import pytest
from rummy101 import sim
from rummy101.cli import main
from rummy101.sim import runner

RULES, BOTS = "rummy101(players=2)", "random,random"


def same_stats(a: sim.SimResult, b: sim.SimResult) -> None:
    assert a.games == b.games and a.seats == b.seats and a.ties == b.ties
    assert a.finish_counts == b.finish_counts and a.summary() == b.summary()


@pytest.mark.parametrize(
    "rules,bots,kw",
    [
        (RULES, BOTS, {}),
        # above_core: the executors' order on 26 Remi games, ~50 s a way on the pure core;
        # test_game_parity.py plays this run's games on both cores alike
        pytest.param("remi(players=3)", "random,greedy,random", {}, marks=pytest.mark.above_core),
        ("classic(players=2)", "random,random", {"match_rounds": 2}),  # a capped match
        (RULES, BOTS, {"match_rounds": 3}),
    ],
)
@pytest.mark.parametrize("how", ["serial", "pool", "threads"])
def test_streamed_run_has_the_kept_runs_stats_and_hands_every_game_on_in_order(
    rules: str, bots: str, kw: dict[str, Any], how: str
) -> None:
    kept = sim.simulate(rules, bots, 13, seed=4, workers=1, progress=False, **kw)
    seen: list[sim.GameRecord] = []
    run: dict[str, Any] = {"workers": 1} if how == "serial" else {"workers": 2}
    with cf.ThreadPoolExecutor(2) as ex:
        if how == "threads":
            run["executor"] = ex
        got = sim.simulate(
            rules,
            bots,
            13,
            seed=4,
            progress=False,
            keep_records=False,
            on_records=seen.extend,
            **run,
            **kw,
        )
    assert got.records == []
    same_stats(got, kept)
    assert seen == kept.records


def test_streamed_resume_start_counts_only_the_games_played() -> None:
    kept = sim.simulate(RULES, BOTS, 12, seed=2, workers=1, progress=False, start=5)
    got = sim.simulate(
        RULES, BOTS, 12, seed=2, workers=1, progress=False, start=5, keep_records=False
    )
    same_stats(got, kept)
    assert got.games == 7


def test_tallies_merge_to_the_tally_of_all_games() -> None:
    a = sim.simulate(
        "classic(players=3)",
        "random,random,greedy",
        9,
        seed=1,
        workers=1,
        progress=False,
        match_rounds=2,
    )
    whole = sim.GameTally(3)
    whole.add_all(a.records)
    head, tail = sim.GameTally(3), sim.GameTally(3)
    head.add_all(a.records[:4])
    tail.add_all(a.records[4:])
    head.merge(tail)
    assert vars(head) == vars(whole)
    empty = sim.GameTally(3)
    empty.merge(whole)  # a side with no game yet keeps the other's min and max
    assert vars(empty) == vars(whole)
    with pytest.raises(ValueError):
        head.merge(sim.GameTally(2))


def test_streamed_run_holds_only_the_batch_in_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    """Counted where on_records is called: the GameRecord objects alive then. A run that keeps
    every record (or a chunk list that holds them) has them all alive by the last batch. (No
    batch is cut by time here: each holds the most games a chunk of the run holds.)"""
    monkeypatch.setattr(runner, "CHUNK_SECONDS", 1e9)
    live: list[int] = []

    def count(batch: list[sim.GameRecord]) -> None:
        live.append(sum(isinstance(o, sim.GameRecord) for o in gc.get_objects()))

    before = sum(isinstance(o, sim.GameRecord) for o in gc.get_objects())
    res = sim.simulate(
        RULES, BOTS, 96, seed=3, workers=1, progress=False, keep_records=False, on_records=count
    )
    chunk = runner._chunks(96, 1).cap
    assert res.games == 96 and len(live) == 96 // chunk
    assert max(live) - before <= chunk, (live, chunk)


class _Counting(cf.ThreadPoolExecutor):
    """Counts the tasks submitted and not yet finished, at most."""

    def __init__(self) -> None:
        super().__init__(2)
        self.lock = threading.Lock()
        self.out = self.most = self.total = 0

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
        with self.lock:
            self.out += 1
            self.total += 1
            self.most = max(self.most, self.out)

        def task() -> Any:
            # counted out when the task returns, before its future is done: a done callback
            # runs after the waiters are woken, so the run could submit the next chunk first
            # and 257 were counted at once under load (a race of this counter, not the window)
            try:
                return fn(*args, **kwargs)
            finally:
                with self.lock:
                    self.out -= 1

        return super().submit(task)


def test_executor_gets_the_chunks_a_window_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """A long run does not submit every chunk at once (a future per chunk held until the run
    ends: 150,000 of them for 10,000,000 games). Games are stubbed here: one real record, its
    index changed, so that 20,000 games (more chunks than the window) take no time."""
    one = sim.play_game(RULES, ("random", "random"), 1, 0)

    def fake(rules: Any, bots: Any, seed: int, index: int, **kw: Any) -> sim.GameRecord:
        return dataclasses.replace(one, game=index)

    monkeypatch.setattr(runner, "play_game", fake)
    held = [0]

    class Counted(runner._InOrder):  # type: ignore[misc]
        def __setitem__(self, k: int, records: list[sim.GameRecord]) -> None:
            super().__setitem__(k, records)
            held[0] = max(held[0], len(self))  # chunks held: in flight out of order, at most

    monkeypatch.setattr(runner, "_InOrder", Counted)
    made: list[runner._Chunks] = []

    def chunks(*args: Any) -> runner._Chunks:
        made.append(runner._Chunks(*args))
        return made[-1]

    monkeypatch.setattr(runner, "_chunks", chunks)
    seen: list[int] = []
    with _Counting() as ex:
        res = sim.simulate(
            RULES,
            BOTS,
            20_000,
            seed=1,
            workers=1,
            executor=ex,
            progress=False,
            keep_records=False,
            on_records=lambda b: seen.extend(r.game for r in b),
        )
    assert res.games == 20_000 and seen == list(range(20_000))
    assert ex.total == made[0].made > 256 and ex.most <= 256
    assert held[0] <= 256  # a chunk taken and counted is dropped, not kept as an empty entry


def test_ctrl_c_during_on_records_lands_after_the_batch_is_counted(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """A real SIGINT while on_records runs (a serial run, Python's own handler) is held until
    the batch is counted: the partial result counts exactly the games handed on and holds no
    record on_records took (which ``rummy101 sim`` would write a second time)."""
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signals reach the main thread only")
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        # a suite started with Ctrl-C ignored (a job put in the background without job control,
        # `( cmd & )` or nohup) has no handler of Python's; the run keeps an ignored SIGINT
        # ignored, so give this test the handler a terminal's Python has (ignored again after it)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        request.addfinalizer(lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    taken: list[sim.GameRecord] = []

    def sink(batch: list[sim.GameRecord]) -> None:
        taken.extend(batch)
        if len(taken) >= 10:
            os.kill(os.getpid(), signal.SIGINT)  # delivered at the next bytecode, in here
            for _ in range(1000):
                pass

    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    with pytest.raises(sim.SimInterrupted) as info:
        sim.simulate(
            RULES, BOTS, 40, seed=5, workers=1, progress=False, keep_records=False, on_records=sink
        )
    part = info.value.partial
    assert part is not None and part.records == []
    # (batches are sized by time, so the one that passes 10 games may hold a few more)
    assert part.games == len(taken) >= 10
    same_stats(part, sim.simulate(RULES, BOTS, part.games, seed=5, workers=1, progress=False))
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_cli_summary_of_a_resumed_file_covers_every_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--resume sums the file's tally and the new games' (no record of either kept)."""
    args = ["sim", "--rules", RULES, "--bots", BOTS, "--seed", "8", "--workers", "1", "-q"]
    assert main([*args, "--games", "30", "--out", str(tmp_path / "one.jsonl")]) == 0
    whole = capsys.readouterr().out.splitlines()[:6]
    assert main([*args, "--games", "11", "--out", str(tmp_path / "two.jsonl")]) == 0
    capsys.readouterr()
    assert main([*args, "--games", "30", "--out", str(tmp_path / "two.jsonl"), "--resume"]) == 0
    assert capsys.readouterr().out.splitlines()[:6] == whole
    assert (tmp_path / "two.jsonl").read_bytes() == (tmp_path / "one.jsonl").read_bytes()


def test_streamed_run_on_a_dask_cluster() -> None:
    """Dask's executor (client.get_executor()) takes the chunks a window at a time too."""
    distributed = pytest.importorskip("distributed")
    kept = sim.simulate(RULES, BOTS, 14, seed=6, workers=1, progress=False)
    seen: list[sim.GameRecord] = []
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        got = sim.simulate(
            RULES,
            BOTS,
            14,
            seed=6,
            executor=client.get_executor(),
            progress=False,
            keep_records=False,
            on_records=seen.extend,
        )
    same_stats(got, kept)
    assert got.records == [] and seen == kept.records

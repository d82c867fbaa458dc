"""How a simulation cuts its games (docs/simulation.md, "Chunks and interrupts"): chunks sized by
the time the games measured so far took (about ``CHUNK_SECONDS``, at most ``cap`` games, the
first one game), a serial run's batches cut the same way, and records that do not depend on the
cut. A fixed cut of up to 64 games held a search-bot run's progress and games ~40 s a chunk.

Slow games here sleep: no assertion is about time, only about the sizes the run chose (a game
that sleeps 20 ms takes longer than the 10 ms a chunk is then sized for, on any machine)."""

from __future__ import annotations

import concurrent.futures as cf
import time
from typing import Any

import pytest
from rummy101 import sim
from rummy101.sim import runner

RULES, BOTS = "rummy101(players=2)", "random,random"


def test_chunks_start_at_one_game_and_grow_only_from_measurements() -> None:
    c = runner._Chunks(100_000, 2)
    assert c.cap == 64
    assert [c.take(), c.take()] == [(0, 0, 1), (1, 1, 2)]  # nothing measured yet: one game each
    sizes = []
    for _ in range(8):  # fast games (1 ms): each chunk at most twice the largest measured
        _, a, b = c.take()  # type: ignore[misc]
        sizes.append(b - a)
        c.timed(b - a, 0.001 * (b - a))
    assert sizes == [1, 2, 4, 8, 16, 32, 64, 64]
    c.timed(1, 2.0)  # a slow game: the estimate goes up, the chunks shrink at once
    assert c.size() < 64
    for _ in range(4):
        c.timed(1, 2.0)
    assert c.size() == 1


def test_chunks_end_at_the_last_game_and_keep_no_list() -> None:
    c = runner._Chunks(10**12, 1, start=10**12 - 3)
    assert c.cap == 1 and vars(c).keys() == {
        "games",
        "cap",
        "first",
        "made",
        "measured",
        "per_game",
    }
    assert [c.take() for _ in range(4)] == [
        (0, 10**12 - 3, 10**12 - 2),
        (1, 10**12 - 2, 10**12 - 1),
        (2, 10**12 - 1, 10**12),
        None,
    ]


def slow_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every game sleeps 20 ms first; a chunk is sized for 10 ms: one game a chunk."""
    play = runner.play_game

    def slow(*args: Any, **kw: Any) -> sim.GameRecord:
        time.sleep(0.02)
        return play(*args, **kw)

    monkeypatch.setattr(runner, "play_game", slow)
    monkeypatch.setattr(runner, "CHUNK_SECONDS", 0.01)


class Enough(Exception):
    pass


def stop_after(games: int, batches: list[int]) -> Any:
    """An on_records that notes each batch's size and stops the run after ``games`` games."""

    def sink(batch: list[sim.GameRecord]) -> None:
        batches.append(len(batch))
        if sum(batches) >= games:
            raise Enough

    return sink


def test_a_serial_run_of_slow_games_hands_each_game_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """Its progress and --out move with every game (a chunk of 50 held them 50 games)."""
    slow_games(monkeypatch)
    batches: list[int] = []
    with pytest.raises(Enough):
        sim.simulate(
            RULES, BOTS, 400, seed=1, workers=1, progress=False, on_records=stop_after(4, batches)
        )
    assert batches == [1, 1, 1, 1]


def test_a_pool_of_slow_games_gets_chunks_of_one_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each chunk is measured taking longer than a chunk is sized for, so none grows past one
    game (chunks of 400 / (4 workers x 8) = 12 games, whatever their speed, before)."""
    slow_games(monkeypatch)
    submitted: list[int] = []

    class Noting(cf.ThreadPoolExecutor):
        def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
            submitted.append(args[4] - args[3])  # the chunk's games: stop - start
            return super().submit(fn, *args, **kwargs)

    batches: list[int] = []
    with Noting(2) as ex, pytest.raises(Enough):
        sim.simulate(
            RULES,
            BOTS,
            400,
            seed=1,
            workers=2,
            executor=ex,
            progress=False,
            on_records=stop_after(6, batches),
        )
    assert len(submitted) >= 6 and set(submitted) == {1}
    assert set(batches) == {1}


def test_serial_batches_hold_cap_games_when_no_time_cuts_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(runner, "CHUNK_SECONDS", 1e9)
    batches: list[int] = []
    sim.simulate(
        RULES, BOTS, 30, seed=2, workers=1, progress=False, on_records=stop_after(99, batches)
    )
    assert batches == [3] * 10  # 30 // 8


@pytest.mark.parametrize("seconds", [0.0, 1e9])
def test_records_do_not_depend_on_the_cut(monkeypatch: pytest.MonkeyPatch, seconds: float) -> None:
    """One game a chunk (0 s) or the largest chunks (1e9 s), serial or on a pool: the records
    and summary of the run with the default sizing, in game order."""
    whole = sim.simulate(RULES, BOTS, 45, seed=9, workers=1, progress=False)
    monkeypatch.setattr(runner, "CHUNK_SECONDS", seconds)
    serial = sim.simulate(RULES, BOTS, 45, seed=9, workers=1, progress=False)
    seen: list[sim.GameRecord] = []
    with cf.ThreadPoolExecutor(2) as ex:
        pooled = sim.simulate(
            RULES,
            BOTS,
            45,
            seed=9,
            executor=ex,
            progress=False,
            keep_records=False,
            on_records=seen.extend,
        )
    assert serial.records == whole.records == seen
    assert serial.summary() == whole.summary() == pooled.summary()

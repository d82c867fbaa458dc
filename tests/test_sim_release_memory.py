"""A sim worker hands the C heap's free pages back after each chunk (glibc ``malloc_trim(0)``,
rummy101.sim.runner.release_free_memory): glibc kept ~14 MB that the native solver and Python
had freed in a Remi ``greedy,random`` worker after 15,000 games (docs/simulation.md, Memory).
The games are the same with it."""

from __future__ import annotations

import pytest
from rummy101.sim import runner, simulate


def test_every_chunk_releases_free_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    monkeypatch.setattr(runner, "release_free_memory", lambda: calls.append(1))
    res = simulate("remi(players=2)", "greedy,random", 3, seed=5, workers=1, progress=False)
    assert res.games == 3 and len(calls) >= 1


def test_release_runs_where_there_is_no_malloc_trim(monkeypatch: pytest.MonkeyPatch) -> None:
    runner.release_free_memory()  # glibc here: looked up once, then called
    assert runner._MALLOC_TRIM is not None
    monkeypatch.setattr(runner, "_MALLOC_TRIM", False)  # musl, macOS, Windows
    runner.release_free_memory()


def test_the_same_games_with_and_without_it(monkeypatch: pytest.MonkeyPatch) -> None:
    with_it = simulate("remi(players=2)", "greedy,random", 4, seed=9, workers=1, progress=False)
    monkeypatch.setattr(runner, "release_free_memory", lambda: None)
    without = simulate("remi(players=2)", "greedy,random", 4, seed=9, workers=1, progress=False)
    assert with_it.records == without.records

"""Remi game-flow speed (issue 9): steps/s with random bots and four-player rounds/s with greedy
bots, on one core, on each available backend (native and pure).

    PYTHONPATH=python python -m pytest bench/bench_remi.py --benchmark-only
    PYTHONPATH=python python bench/bench_remi.py [seconds]     # plain figures, no pytest

A step is one ``state.apply(action)`` including the bot's choice (and the observation the bot is
given); a round is one 4-player Remi deal (doubles exchange included) played to its end.
"""

from __future__ import annotations

import itertools
import sys
import time
from typing import Any

import pytest
from rummy101 import available_backends, using_backend
from rummy101.sim import play_game

RULES = "remi"
RANDOM_GAMES = 10      # games per benchmark call with random bots
GREEDY_GAMES = 5       # rounds per benchmark call with greedy bots

_seeds = itertools.count(1)


def play(bots: list[str], games: int, seed: int | None = None) -> tuple[int, int]:
    """Play ``games`` one-round games on fresh seeds; return (games, steps)."""
    steps = 0
    base = next(_seeds) if seed is None else seed
    for i in range(games):
        steps += play_game(RULES, bots, base, i).steps
    return games, steps


@pytest.mark.parametrize("backend", available_backends())
def test_remi_steps_per_second_random(benchmark: Any, backend: str) -> None:
    with using_backend(backend):
        play(["random"] * 4, 1)
        _, steps = benchmark.pedantic(play, args=(["random"] * 4, RANDOM_GAMES), rounds=3, iterations=1)
    benchmark.extra_info["steps"] = steps
    benchmark.extra_info["steps_per_s"] = round(steps / benchmark.stats.stats.mean)


@pytest.mark.parametrize("backend", available_backends())
def test_remi_rounds_per_second_greedy(benchmark: Any, backend: str) -> None:
    with using_backend(backend):
        play(["greedy"] * 4, 1)
        games, steps = benchmark.pedantic(play, args=(["greedy"] * 4, GREEDY_GAMES), rounds=3,
                                          iterations=1)
    benchmark.extra_info["rounds_per_s"] = round(games / benchmark.stats.stats.mean, 1)
    benchmark.extra_info["steps_per_s"] = round(steps / benchmark.stats.stats.mean)


def main(argv: list[str]) -> int:
    seconds = float(argv[1]) if len(argv) > 1 else 5.0
    for backend in available_backends():
        with using_backend(backend):
            for bots, label in ((["random"] * 4, "random"), (["greedy"] * 4, "greedy")):
                play(bots, 1)
                games = steps = 0
                t0 = time.perf_counter()
                while time.perf_counter() - t0 < seconds:
                    g, s = play(bots, 1)
                    games += g
                    steps += s
                dt = time.perf_counter() - t0
                print(f"{backend:6s} {label:6s} {games / dt:9.1f} rounds/s {steps / dt:10.0f} steps/s "
                      f"({games} rounds, {steps} steps, {dt:.1f}s)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

"""Classic card Rummy speed (issue 10): steps/s with random bots and matches/s with greedy bots
(a match played to 200, CR-6), on one core, on each available backend (native and pure).

    PYTHONPATH=python python -m pytest bench/bench_classic.py --benchmark-only
    PYTHONPATH=python python bench/bench_classic.py [seconds]     # plain figures, no pytest

A step is one ``state.apply(action)`` including the bot's choice (and the observation it is
given), through ``rummy101.sim.play_game``, so the figures are what ``rummy101 sim`` achieves.
Peers on one core of this kind of machine: OpenSpiel's gin rummy Python loop ~70,000 steps/s
and ~440 games/s; RLCard's gin rummy 14,000-18,000 steps/s. Random matches to 200 are long
(dozens of rounds, many of them drawn, CR-5), so random play is measured per step; greedy play
per match (one greedy bot against three random bots, and four greedy bots).
"""

from __future__ import annotations

import itertools
import random
import sys
import time
from typing import Any

import pytest
from rummy101 import available_backends, using_backend
from rummy101.game import new_game, random_playout
from rummy101.sim import play_game

RULES = "classic"
ROUNDS_CAP = 10_000        # matches end at the target (200), never at this cap
RANDOM_ROUNDS = 20         # rounds per benchmark call with random bots (steps/s)
GREEDY_MATCHES = 3         # matches per benchmark call with greedy bots (matches/s)
BOTS = {"greedy+3random": ["greedy", "random", "random", "random"], "4greedy": ["greedy"] * 4}

_seeds = itertools.count(1)


def play_random(rounds: int) -> tuple[int, int]:
    """``rounds`` one-round games between four random bots on fresh seeds; (rounds, steps)."""
    base = next(_seeds)
    steps = 0
    for i in range(rounds):
        steps += play_game(RULES, ["random"] * 4, base, i, match_rounds=1).steps
    return rounds, steps


def play_matches(bots: list[str], matches: int) -> tuple[int, int]:
    """``matches`` whole matches (to 200) on fresh seeds; (matches, steps)."""
    base = next(_seeds)
    steps = 0
    for i in range(matches):
        steps += play_game(RULES, bots, base, i, match_rounds=ROUNDS_CAP).steps
    return matches, steps


def engine_steps(n: int) -> int:
    """Steps of the bare engine loop (``random_playout``: legal_actions + uniform choice +
    apply, no bot objects), the figure comparable to OpenSpiel's Python loop."""
    s = new_game(RULES, next(_seeds))
    steps = 0
    rng = random.Random(0)
    while steps < n:
        if s.is_terminal:
            s = new_game(RULES, next(_seeds))
        steps += random_playout(s, rng, max_steps=n - steps)
    return steps


@pytest.mark.parametrize("backend", available_backends())
def test_steps_per_second_random(benchmark: Any, backend: str) -> None:
    with using_backend(backend):
        play_random(2)
        _, steps = benchmark.pedantic(play_random, args=(RANDOM_ROUNDS,), rounds=3, iterations=1)
    benchmark.extra_info["steps"] = steps
    benchmark.extra_info["steps_per_s"] = round(steps / benchmark.stats.stats.mean)


@pytest.mark.parametrize("backend", available_backends())
def test_engine_steps_per_second(benchmark: Any, backend: str) -> None:
    with using_backend(backend):
        steps = benchmark.pedantic(engine_steps, args=(20_000,), rounds=3, iterations=1)
    benchmark.extra_info["steps_per_s"] = round(steps / benchmark.stats.stats.mean)


@pytest.mark.parametrize("backend", available_backends())
@pytest.mark.parametrize("table", sorted(BOTS))
def test_matches_per_second_greedy(benchmark: Any, backend: str, table: str) -> None:
    with using_backend(backend):
        play_matches(BOTS[table], 1)
        matches, steps = benchmark.pedantic(play_matches, args=(BOTS[table], GREEDY_MATCHES),
                                            rounds=3, iterations=1)
    benchmark.extra_info["matches_per_s"] = round(matches / benchmark.stats.stats.mean, 1)
    benchmark.extra_info["steps_per_s"] = round(steps / benchmark.stats.stats.mean)


def main(argv: list[str]) -> int:
    seconds = float(argv[1]) if len(argv) > 1 else 5.0
    for backend in available_backends():
        with using_backend(backend):
            engine_steps(2_000)
            steps = 0
            t0 = time.perf_counter()
            while time.perf_counter() - t0 < seconds:
                steps += engine_steps(5_000)
            dt = time.perf_counter() - t0
            print(f"{backend:6s} engine loop      {steps / dt:10.0f} steps/s ({steps} steps, {dt:.1f}s)")
            play_random(1)
            rounds = steps = 0
            t0 = time.perf_counter()
            while time.perf_counter() - t0 < seconds:
                r, s = play_random(5)
                rounds += r
                steps += s
            dt = time.perf_counter() - t0
            print(f"{backend:6s} 4 random bots    {steps / dt:10.0f} steps/s {rounds / dt:8.1f} rounds/s "
                  f"({rounds} rounds, {steps} steps, {dt:.1f}s)")
            for label, bots in BOTS.items():
                play_matches(bots, 1)
                matches = steps = 0
                t0 = time.perf_counter()
                while time.perf_counter() - t0 < seconds:
                    m, s = play_matches(bots, 1)
                    matches += m
                    steps += s
                dt = time.perf_counter() - t0
                print(f"{backend:6s} {label:16s} {matches / dt:8.1f} matches/s {steps / dt:10.0f} steps/s "
                      f"({matches} matches, {steps} steps, {dt:.1f}s)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

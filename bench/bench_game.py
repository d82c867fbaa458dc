"""Game-flow speed of the one-round variants (Rummy 101 and Remi, issue 9): steps/s with random
bots and four-player rounds/s with greedy bots, on one core, on each available backend (native
and pure). Classic card Rummy, whose games are matches to 200, has bench/bench_classic.py.

    PYTHONPATH=python python -m pytest bench/bench_game.py --benchmark-only
    PYTHONPATH=python python bench/bench_game.py [seconds [variant [backend]]]  # plain figures

Targets on the native backend (issue 12): random play >= 1.2x OpenSpiel's gin rummy Python loop
measured in the same run -- bench/bench_openspiel.py times both, alternately, with the step
defined on each side -- and >= 1,000 rounds/s with greedy bots (peers once measured elsewhere:
OpenSpiel gin rummy 390 games/s and 62,700 steps/s; RLCard 14,000-18,000 steps/s). A step is one ``state.apply(action)`` including the bot's choice (and the observation
the bot is given); a round is one 4-player deal played to its end (Remi: the doubles exchange
included).
"""

from __future__ import annotations

import itertools
import sys
import time
from typing import Any

import pytest
from rummy101 import available_backends, using_backend
from rummy101.sim import play_game

VARIANTS = ("rummy101", "remi")
RANDOM_GAMES = {"rummy101": 20, "remi": 10}   # games per benchmark call with random bots
GREEDY_GAMES = 5                              # rounds per benchmark call with greedy bots


_seeds = itertools.count(1)


def play(bots: list[str], games: int, seed: int | None = None, rules: str = "rummy101") -> tuple[int, int]:
    """Play ``games`` one-round games, each time on fresh seeds (so that no solver answer is
    remembered from an earlier benchmark round); return (games, steps)."""
    steps = 0
    base = next(_seeds) if seed is None else seed
    for i in range(games):
        steps += play_game(rules, bots, base, i).steps
    return games, steps


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("backend", available_backends())
def test_steps_per_second_random(benchmark: Any, backend: str, variant: str) -> None:
    with using_backend(backend):
        play(["random"] * 4, 2, rules=variant)  # warm caches
        _, steps = benchmark.pedantic(play, args=(["random"] * 4, RANDOM_GAMES[variant]),
                                      kwargs={"rules": variant}, rounds=3, iterations=1)
    benchmark.extra_info["steps"] = steps
    benchmark.extra_info["steps_per_s"] = round(steps / benchmark.stats.stats.mean)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("backend", available_backends())
def test_rounds_per_second_greedy(benchmark: Any, backend: str, variant: str) -> None:
    with using_backend(backend):
        play(["greedy"] * 4, 1, rules=variant)
        games, steps = benchmark.pedantic(play, args=(["greedy"] * 4, GREEDY_GAMES),
                                          kwargs={"rules": variant}, rounds=3, iterations=1)
    benchmark.extra_info["rounds_per_s"] = round(games / benchmark.stats.stats.mean, 1)
    benchmark.extra_info["steps_per_s"] = round(steps / benchmark.stats.stats.mean)


def main(argv: list[str]) -> int:
    seconds = float(argv[1]) if len(argv) > 1 else 5.0
    variants = (argv[2],) if len(argv) > 2 else VARIANTS
    backends = (argv[3],) if len(argv) > 3 else available_backends()
    for variant in variants:
        for backend in backends:
            with using_backend(backend):
                for bots, label in ((["random"] * 4, "random"), (["greedy"] * 4, "greedy")):
                    play(bots, 1, rules=variant)
                    games = steps = 0
                    t0 = time.perf_counter()
                    while time.perf_counter() - t0 < seconds:
                        g, n = play(bots, 1, rules=variant)
                        games += g
                        steps += n
                    dt = time.perf_counter() - t0
                    print(f"{variant:8s} {backend:6s} {label:6s} {games / dt:9.1f} rounds/s "
                          f"{steps / dt:10.0f} steps/s ({games} rounds, {steps} steps, {dt:.1f}s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))

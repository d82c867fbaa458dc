"""Game-flow speed of the one-round variants (Rummy 101 and Remi, issue 9): steps/s with random
bots and four-player rounds/s with greedy bots, on one core, on each available backend (native
and pure). Classic card Rummy, whose games are matches to 200, has bench/bench_classic.py.

    PYTHONPATH=python python -m pytest bench/bench_game.py --benchmark-only
    PYTHONPATH=python python bench/bench_game.py [seconds [variant [backend]]]  # plain figures

Targets on the native backend (issue 12): random play >= 1.2x OpenSpiel's gin rummy Python loop
measured in the same run -- bench/bench_openspiel.py times both, alternately, with the step
defined on each side -- and >= 1,000 rounds/s with greedy bots (measured: 1,231 native rounds
per CPU second against 157 on the Python flow in one run of ``bench_game.py 5 rummy101 native``,
766-1,231 in six runs at load 0.8-3 where the tree before the last speed work gave 743-1,131
alternated with them, 6.3-8.1 against 5.5-6.9 times the Python flow, docs/simulation.md; the rounds in the C++ core, rummy101.sim.native_round)
(the Python share cut, issue 12: callgrind 4.27M -> 3.81M instructions a round with one core
build; ab_native.py 4 passes: median 930 -> 1,099 at load ~4, 1,237 -> 1,323 at load ~0.8)
(peers once measured elsewhere:
OpenSpiel gin rummy 390 games/s and 62,700 steps/s; RLCard 14,000-18,000 steps/s). A step is one ``state.apply(action)`` including the bot's choice (and the observation
the bot is given); a round is one 4-player deal played to its end (Remi: the doubles exchange
included).
"""

from __future__ import annotations

import itertools
import os
import sys
import time
from typing import Any

import pytest
from rummy101 import available_backends, using_backend
from rummy101.sim import play_game
from rummy101.sim.native_round import ENV_VAR as NATIVE_ROUNDS

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


def _configs(variant: str, backend: str) -> list[tuple[list[str], str, str | None]]:
    """(bots, label, RUMMY101_NATIVE_ROUNDS value) to time: random and greedy; on rummy101 with
    the native backend greedy twice, its rounds in the core (rummy101.sim.native_round, issue 12)
    and on the Python flow, in the same run."""
    out: list[tuple[list[str], str, str | None]] = [(["random"] * 4, "random", None)]
    if variant == "rummy101" and backend == "native":
        out += [(["greedy"] * 4, "greedy-native", "1"), (["greedy"] * 4, "greedy-python", "0")]
    else:
        out.append((["greedy"] * 4, "greedy", None))
    return out


@pytest.mark.skipif("native" not in available_backends(), reason="the native core is not built")
def test_rounds_per_second_greedy_python_flow(benchmark: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Rummy 101 greedy rounds on the Python flow (RUMMY101_NATIVE_ROUNDS=0), beside
    test_rounds_per_second_greedy's native rounds."""
    monkeypatch.setenv(NATIVE_ROUNDS, "0")
    with using_backend("native"):
        play(["greedy"] * 4, 1)
        games, _ = benchmark.pedantic(play, args=(["greedy"] * 4, GREEDY_GAMES), rounds=3,
                                      iterations=1)
    benchmark.extra_info["rounds_per_s"] = round(games / benchmark.stats.stats.mean, 1)


def main(argv: list[str]) -> int:
    """Plain figures per CPU second of this process (time.process_time: the machine may be
    shared, so wall time would count other processes' work)."""
    seconds = float(argv[1]) if len(argv) > 1 else 5.0
    variants = (argv[2],) if len(argv) > 2 else VARIANTS
    backends = (argv[3],) if len(argv) > 3 else available_backends()
    for variant in variants:
        for backend in backends:
            with using_backend(backend):
                for bots, label, native in _configs(variant, backend):
                    old = os.environ.get(NATIVE_ROUNDS)
                    if native is not None:
                        os.environ[NATIVE_ROUNDS] = native
                    try:
                        play(bots, 1, rules=variant)
                        games = steps = 0
                        t0 = time.process_time()
                        while time.process_time() - t0 < seconds:
                            g, n = play(bots, 1, rules=variant)
                            games += g
                            steps += n
                        dt = time.process_time() - t0
                    finally:
                        if old is None:
                            os.environ.pop(NATIVE_ROUNDS, None)
                        else:
                            os.environ[NATIVE_ROUNDS] = old
                    print(f"{variant:8s} {backend:6s} {label:13s} {games / dt:9.1f} rounds/s "
                          f"{steps / dt:10.0f} steps/s ({games} rounds, {steps} steps, "
                          f"{dt:.1f} CPU s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))

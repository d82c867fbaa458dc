"""RL environment speed: env steps/s of the PettingZoo AEC env (``rummy101.rl.env``) with
uniformly random *masked* actions, on one core, per playable variant (4 players, native core).

    PYTHONPATH=python python -m pytest bench/bench_rl.py --benchmark-only
    PYTHONPATH=python python bench/bench_rl.py            # plain figures, no pytest

A step is one ``env.step(index)`` of the agent to move, with the ``env.last()`` before it (the
observation array and the action mask of that agent) and the choice of a random legal index:
what a training loop pays per transition, the policy excepted. The bare engine (``state.apply``
of a random legal action, no observation) is measured beside it. Peer figure: RLCard's gin
rummy env, 14,000-18,000 steps/s on one core of this machine.
"""

from __future__ import annotations

import random
import sys
import time
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from rummy101.game import new_game, playable_variants
from rummy101.rl import env

STEPS = 3000


def env_steps(spec: str, steps: int, seed: int = 0) -> int:
    """Play ``steps`` env steps with random masked actions (new episodes as needed)."""
    e = env(spec)
    rng = np.random.default_rng(seed)
    e.reset(seed=seed)
    done = 0
    while done < steps:
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            e.reset()
            continue
        # (a bool view: numpy's nonzero() is ~20x slower on int8 than on bool)
        legal = np.flatnonzero(obs["action_mask"].view(bool))
        e.step(int(legal[rng.integers(len(legal))]))
        done += 1
    return done


def engine_steps(spec: str, steps: int, seed: int = 0) -> int:
    """The bare engine: ``state.apply`` of a random legal action."""
    rng = random.Random(seed)
    s = new_game(spec, seed)
    done = 0
    game = seed
    while done < steps:
        if s.is_terminal:
            game += 1
            s = new_game(spec, game)
        s.apply(rng.choice(s.legal_actions()))
        done += 1
    return done


@pytest.mark.parametrize("variant", playable_variants())
def test_env_steps_per_second(benchmark: Any, variant: str) -> None:
    env_steps(variant, 300)  # warm caches
    steps = benchmark.pedantic(env_steps, args=(variant, STEPS), rounds=3, iterations=1)
    benchmark.extra_info["steps_per_s"] = round(steps / benchmark.stats.stats.mean)


@pytest.mark.parametrize("variant", playable_variants())
def test_engine_steps_per_second(benchmark: Any, variant: str) -> None:
    engine_steps(variant, 300)
    steps = benchmark.pedantic(engine_steps, args=(variant, STEPS), rounds=3, iterations=1)
    benchmark.extra_info["steps_per_s"] = round(steps / benchmark.stats.stats.mean)


def main() -> None:
    """Best of 3 runs per figure, in wall-clock and in CPU time of this process (the machine is
    shared: CPU time is the steadier figure)."""
    steps = int(sys.argv[1]) if len(sys.argv) > 1 else STEPS
    for variant in playable_variants():
        for name, fn in (("env", env_steps), ("engine", engine_steps)):
            fn(variant, 300)
            wall = cpu = 0.0
            for r in range(3):
                t, c = time.perf_counter(), time.process_time()
                fn(variant, steps, r + 1)
                wall = max(wall, steps / (time.perf_counter() - t))
                cpu = max(cpu, steps / (time.process_time() - c))
            print(f"{variant:<9} {name:<7} {wall:>9,.0f} steps/s wall  {cpu:>9,.0f} steps/s CPU")


if __name__ == "__main__":
    main()

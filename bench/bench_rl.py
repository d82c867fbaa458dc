"""RL environment speed: env steps/s of the PettingZoo AEC env (``rummy101.rl.env``) with
uniformly random *masked* actions, on one core, per playable variant (4 players, native core).

    PYTHONPATH=python python -m pytest bench/bench_rl.py --benchmark-only
    PYTHONPATH=python python bench/bench_rl.py            # plain figures, no pytest
    PYTHONPATH=python python bench/bench_rl.py 4000 --rlcard   # and RLCard's gin rummy, before and after

A step is one ``env.step(index)`` of the agent to move, with the ``env.last()`` before it (the
observation array and the action mask of that agent) and the choice of a random legal index:
what a training loop pays per transition, the policy excepted. The bare engine (``state.apply``
of a random legal action, no observation) is measured beside it; then, untimed, what the loops
did (episodes ended, the engine's verbs). Peer figure: RLCard's gin rummy env (``--rlcard``,
when ``rlcard`` is installed: never a dependency of the package), measured the same way before and
after ours in the same run; docs/rl.md's Speed section gives the figures, when and at what load.
"""

from __future__ import annotations

import random
import time
from collections import Counter
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


def work(spec: str, steps: int, seed: int = 1) -> str:
    """What the timed loops of ``seed`` do, replayed untimed: episodes and games that ended, and
    the engine's verbs, so a figure that jumps can be told from a loop that stopped doing the
    work (every action must add one to the game's history)."""
    e = env(spec)
    rng = np.random.default_rng(seed)
    e.reset(seed=seed)
    done = episodes = 0
    while done < steps:
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            episodes += 1
            e.reset()
            continue
        legal = np.flatnonzero(obs["action_mask"].view(bool))
        e.step(int(legal[rng.integers(len(legal))]))
        done += 1
    r = random.Random(seed)
    s = new_game(spec, seed)
    game, games, verbs = seed, 0, Counter()
    for _ in range(steps):
        if s.is_terminal:
            games += 1
            game += 1
            s = new_game(spec, game)
        before = len(s.history)
        action = r.choice(s.legal_actions())
        s.apply(action)
        assert len(s.history) == before + 1, f"{spec}: {action} was not played"
        verbs[str(action).split(" ")[0]] += 1
    mix = ", ".join(f"{v} {n / steps:.0%}" for v, n in verbs.most_common(4))
    return (f"{spec:<9} work: {episodes} env episodes and {games} engine games ended in {steps:,} "
            f"steps each; engine actions: {mix}")


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


def need_rlcard() -> Any:
    """The ``rlcard`` module, or exit naming what to install (it is never a dependency of the
    package: only these peer figures need it)."""
    try:
        import rlcard  # type: ignore[import-untyped]
    except ImportError as e:
        raise SystemExit(f"RLCard's gin rummy env needs the rlcard package ({e}): "
                         "pip install rlcard, or leave out the RLCard figures") from None
    return rlcard


def rlcard_steps(steps: int, seed: int = 0) -> int:
    """RLCard's gin rummy env as ours is measured: ``env.step`` of a uniformly random legal action
    (RLCard's state lists them), ``env.reset()`` when a game is over."""
    rlcard = need_rlcard()
    e = rlcard.make("gin-rummy", config={"seed": seed})
    rng = np.random.default_rng(seed)
    state, _ = e.reset()
    for _ in range(steps):
        legal = list(state["legal_actions"])
        state, _ = e.step(legal[rng.integers(len(legal))])
        if e.is_over():
            state, _ = e.reset()
    return steps


def _best(name: str, fn: Any, steps: int) -> None:
    fn(300)
    wall = cpu = 0.0
    for r in range(3):
        t, c = time.perf_counter(), time.process_time()
        fn(steps, r + 1)
        wall = max(wall, steps / (time.perf_counter() - t))
        cpu = max(cpu, steps / (time.process_time() - c))
    print(f"{name:<17} {wall:>9,.0f} steps/s wall  {cpu:>9,.0f} steps/s CPU", flush=True)


def main() -> None:
    """Best of 3 runs per figure, in wall-clock and in CPU time of this process (the machine is
    shared: CPU time is the steadier figure). ``--rlcard``: RLCard's gin rummy env first and
    last."""
    import argparse

    ap = argparse.ArgumentParser(description="RL environment speed: env steps/s of the "
                                 "PettingZoo AEC env beside the bare engine, per variant")
    ap.add_argument("steps", nargs="?", type=int, default=STEPS,
                    help=f"env steps per timed run (default {STEPS})")
    ap.add_argument("--rlcard", action="store_true",
                    help="also RLCard's gin rummy env, before and after ours (rlcard installed)")
    opts = ap.parse_args()
    steps, rlcard = opts.steps, opts.rlcard
    if rlcard:
        _best("rlcard-gin env", rlcard_steps, steps)
    for variant in playable_variants():
        for name, fn in (("env", env_steps), ("engine", engine_steps)):
            fn(variant, 300)
            wall = cpu = 0.0
            for r in range(3):
                t, c = time.perf_counter(), time.process_time()
                fn(variant, steps, r + 1)
                wall = max(wall, steps / (time.perf_counter() - t))
                cpu = max(cpu, steps / (time.process_time() - c))
            print(f"{variant:<9} {name:<7} {wall:>9,.0f} steps/s wall  {cpu:>9,.0f} steps/s CPU",
                  flush=True)
    if rlcard:
        _best("rlcard-gin env", rlcard_steps, steps)
    for variant in playable_variants():  # untimed, after the figures
        print(work(variant, steps))


if __name__ == "__main__":
    main()

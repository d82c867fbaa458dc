"""Our RL environments' env steps/s against RLCard's gin rummy env, interleaved in one process.

    PYTHONPATH=python python bench/rl_vs_rlcard.py [--rounds 10] [--steps 4000]

``bench_rl.py --rlcard`` measures RLCard before and after ours, minutes apart; on the shared
development machine a figure there moves by a sixth or more within minutes. Here each round
times, in one process and alternating the order, RLCard's gin rummy env and our AEC env of
every playable variant (4 players) for ``--steps`` steps each, the same loop as ``bench_rl.py``
(random masked actions, seeded by the round), in CPU time of the process. Printed per variant:
the best and median steps/s, and the median over the rounds of our steps/s over RLCard's in the
same round (the steadier figure). Needs ``rlcard`` (never a dependency of the package).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--steps", type=int, default=4000)
    a = ap.parse_args()
    from bench_rl import env_steps, need_rlcard, rlcard_steps
    from rummy101.game import playable_variants

    need_rlcard()  # (before any timing: a clear exit when rlcard is not installed)

    jobs = {"rlcard-gin": lambda seed: rlcard_steps(a.steps, seed)}
    for v in playable_variants():
        jobs[v] = lambda seed, v=v: env_steps(v, a.steps, seed)
    for fn in jobs.values():  # warm caches
        fn(0)
    got: dict[str, list[float]] = {k: [] for k in jobs}
    for r in range(a.rounds):
        for name in list(jobs) if r % 2 == 0 else list(jobs)[::-1]:
            t = time.process_time()
            jobs[name](r + 1)
            got[name].append(a.steps / (time.process_time() - t))
    base = got["rlcard-gin"]
    for name, runs in got.items():
        ratio = statistics.median(y / x for x, y in zip(base, runs))
        print(
            f"{name:<11} best {max(runs):>7,.0f}  median {statistics.median(runs):>7,.0f} steps/s CPU"
            + ("" if name == "rlcard-gin" else f"  / RLCard in the same round: {ratio:.2f}x"),
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

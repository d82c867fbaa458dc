"""A/B timing of the RL environment step of two trees, alternated in one run (the machine is
shared, so only ratios of interleaved runs mean much): env steps/s of ``bench_rl.env_steps``
(``env.last()`` and ``env.step()`` with random masked actions, 4 players) per playable variant.

    python bench/ab_rl.py OLD_PYTHON_DIR NEW_PYTHON_DIR [--passes 4] [--steps 4000]

Each directory holds a ``rummy101`` package (a worktree's ``python/``, with a ``_core*.so``).
Both trees run this file's copy of the loop. Figures are steps per CPU second of the child
process (time.process_time), best of 3 runs of ``--steps``; each pass runs A then B (odd passes B
then A), each variant in a fresh process. The last column is the median of the passes' ratios.
"""

from __future__ import annotations

import argparse
import os
import statistics

from _ab import alternate, run_child

HERE = os.path.dirname(os.path.abspath(__file__))

# the child: prints "variant steps_per_cpu_second" lines
CHILD = r"""
import sys, time
sys.path.insert(0, {bench!r})
from bench_rl import env_steps
from rummy101.game import playable_variants
for v in playable_variants():
    env_steps(v, 300)
    best = 0.0
    for r in range(3):
        t0 = time.process_time()
        env_steps(v, {steps!r}, r + 1)
        best = max(best, {steps!r} / (time.process_time() - t0))
    print(v, best)
"""


def run(pydir: str, steps: int) -> dict[str, float]:
    return {k: float(v) for k, v in run_child(pydir, CHILD.format(bench=HERE, steps=steps))}


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--passes", type=int, default=4)
    ap.add_argument("--steps", type=int, default=4000)
    a = ap.parse_args()
    res: dict[str, dict[str, list[float]]] = {"old": {}, "new": {}}
    for label, d in alternate(a.old, a.new, a.passes):
        for k, v in run(d, a.steps).items():
            res[label].setdefault(k, []).append(v)
    print(
        f"{'env steps/s':12s} {'old (median; runs)':>40s} {'new (median; runs)':>40s} {'new/old':>8s}"
    )
    for k in res["old"]:
        o, n = res["old"][k], res["new"][k]
        ratio = statistics.median(y / x for x, y in zip(o, n))
        fo = " ".join(f"{x:.0f}" for x in o)
        fn = " ".join(f"{x:.0f}" for x in n)
        print(
            f"{k:12s} {statistics.median(o):7.0f} ({fo:>30s}) {statistics.median(n):7.0f} "
            f"({fn:>30s}) {ratio:7.2f}x"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""A/B timing of two builds of the native core, alternated in one run (the machine is shared, so
only ratios of interleaved runs mean much): greedy four-player Rummy 101 rounds in the core
(rummy101.sim.native_round) and solve_melds on the shared racks (rummy101 opening workload).

    python bench/ab_native.py OLD_PYTHON_DIR NEW_PYTHON_DIR [--passes 3] [--seconds 5]

Each directory holds a ``rummy101`` package with its own ``_core*.so`` (e.g. a worktree's
``python/`` after its tools/devbuild). Figures are per CPU second of the child process
(time.process_time). Each pass runs A then B (odd passes B then A), each in a fresh process.
"""

from __future__ import annotations

import argparse
import os
import statistics

from _ab import alternate, run_child

HERE = os.path.dirname(os.path.abspath(__file__))

# the child: prints "name value" lines
CHILD = r"""
import os, sys, time
sys.path.insert(0, {bench!r})
os.environ["RUMMY101_NATIVE_ROUNDS"] = "1"
from rummy101 import using_backend
from rummy101.sim import play_game
import _racks
secs = {seconds!r}
with using_backend("native"):
    play_game("rummy101", ["greedy"] * 4, 1, 0)
    g, t0, i = 0, time.process_time(), 0
    while time.process_time() - t0 < secs:
        play_game("rummy101", ["greedy"] * 4, 1000, i)
        i += 1
        g += 1
    print("greedy_rounds", g / (time.process_time() - t0))
for name in _racks.RACK_FILES:
    call, rules = _racks.solver("rummy101-opening", "native")
    racks = [[int(x) for x in row] for row in _racks.load_counts(name, rules)]
    for r in racks:
        call(r)  # warm the per-thread caches
    n, t0 = 0, time.process_time()
    while time.process_time() - t0 < secs / 3:
        for r in racks:
            call(r)
        n += len(racks)
    print(name, n / (time.process_time() - t0))
"""


def run(pydir: str, seconds: float) -> dict[str, float]:
    return {k: float(v) for k, v in run_child(pydir, CHILD.format(bench=HERE, seconds=seconds))}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--passes", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=5.0)
    a = ap.parse_args()
    res: dict[str, dict[str, list[float]]] = {"old": {}, "new": {}}
    for label, d in alternate(a.old, a.new, a.passes):
        for k, v in run(d, a.seconds).items():
            res[label].setdefault(k, []).append(v)
    print(f"{'figure':28s} {'old (median, runs)':>34s} {'new (median, runs)':>34s} {'new/old':>8s}")
    for k in res["old"]:
        o, n = res["old"][k], res["new"][k]
        mo, mn = statistics.median(o), statistics.median(n)
        fo = " ".join(f"{x:.0f}" for x in o)
        fn = " ".join(f"{x:.0f}" for x in n)
        print(f"{k:28s} {mo:9.0f} ({fo:>22s}) {mn:9.0f} ({fn:>22s}) {mn / mo:7.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

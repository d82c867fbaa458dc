"""A/B racks/s of two builds of the native solver on the shared racks, every workload, alternated
in one run (the machine is shared: only ratios of interleaved runs mean much).

    python bench/ab_solve.py OLD_PYTHON_DIR NEW_PYTHON_DIR [--rounds 3] [--passes 3]

Each directory holds a ``rummy101`` package with its own ``_core*.so``. Each round runs A then B
(odd rounds B then A), each in a fresh process that times --passes whole passes over every rack
file and workload of bench/_racks.py (one solve_melds call per rack, as report_solve.py) in CPU
time (time.process_time) and keeps the best pass; the best of the rounds is printed per build.
"""

from __future__ import annotations

import argparse
import os

from _ab import alternate, run_child

HERE = os.path.dirname(os.path.abspath(__file__))

CHILD = r"""
import sys, time
sys.path.insert(0, {bench!r})
import _racks
for name in _racks.RACK_FILES:
    for w in _racks.WORKLOADS:
        call, rules = _racks.solver(w, "native")
        rows = [list(map(int, r)) for r in _racks.load_counts(name, rules)]
        for r in rows:
            call(r)
        best = float("inf")
        for _ in range({passes!r}):
            t0 = time.process_time()
            for r in rows:
                call(r)
            best = min(best, time.process_time() - t0)
        print(name, w, len(rows) / best)
"""


def run(tree: str, passes: int) -> dict[tuple[str, str], float]:
    lines = run_child(os.path.abspath(tree), CHILD.format(bench=HERE, passes=passes))
    return {(name, w): float(v) for name, w, v in lines}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--passes", type=int, default=3)
    a = ap.parse_args()
    best: dict[str, dict[tuple[str, str], float]] = {"old": {}, "new": {}}
    for tag, tree in alternate(a.old, a.new, a.rounds):
        for k, v in run(tree, a.passes).items():
            best[tag][k] = max(best[tag].get(k, 0.0), v)
    print(f"{'file':28} {'workload':18} {'old racks/s':>12} {'new racks/s':>12} {'new/old':>8}")
    for k in best["old"]:
        o, n = best["old"][k], best["new"][k]
        print(f"{k[0]:28} {k[1]:18} {o:12,.0f} {n:12,.0f} {n / o:8.2f}")


if __name__ == "__main__":
    main()

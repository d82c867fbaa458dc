"""Callgrind instructions per rack of the native solver on the shared racks (load-independent).

    PYTHONPATH=<tree>/python:bench python bench/callgrind_solve.py [--workloads ...] [--files ...]

For each (rack file, workload) it runs valgrind's callgrind on a child that solves the file's racks
`passes` times through ``solve_melds`` (per-rack calls, as bench/_racks.py's workloads), counting
only inside ``rummy101::solve_melds*``, once with 1 pass and once with 3; the difference over
2 x racks is the steady cost per rack (the first pass's table builds and cross-rack caches left
out). ``--empty`` adds a row per workload for 300 empty racks: the fixed cost of a call (the
tables built per call, the set-up of the search), which every rack pays. ``--dump DIR`` writes the
same racks and rules as input files of bench/solve_driver.cpp, a standalone driver without Python
for line-level profiles (``callgrind_annotate --auto=yes``); with ``--dense`` also one file per rack
of tests/dense_racks.txt (``dense.NNN.txt``, its rules, constraints and must_use), for the driver's
node counters (built with ``-DRUMMY101_SOLVER_STATS``).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
EMPTY = "empty"  # the pseudo file of --empty: 300 racks without a tile
N_EMPTY = 300


def child(file: str, workload: str, passes: int) -> None:
    sys.path.insert(0, HERE)
    import _racks
    call, rules = _racks.solver(workload, "native")
    if file == EMPTY:
        rows = [[0] * 53 for _ in range(N_EMPTY)]
    else:
        rows = [list(map(int, r)) for r in _racks.load_counts(file, rules)]
    for _ in range(passes):
        for r in rows:
            call(r)


def dump(out_dir: str, files: list[str], workloads: list[str], dense: bool = False) -> None:
    """The input files of bench/solve_driver.cpp: rules, constraints and racks of each (file, workload)."""
    sys.path.insert(0, HERE)
    import _racks
    from rummy101 import Rules
    os.makedirs(out_dir, exist_ok=True)
    if dense:
        import report_solve
        for i, (name, val, _, counts, keep, mu, rr) in enumerate(report_solve.dense_cases()):
            ha, ratio, rv, sv, jv = Rules.parse(name).params(val).args()  # type: ignore[arg-type]
            with open(os.path.join(out_dir, f"dense.{i:03d}.txt"), "w") as f:
                f.write(f"{int(ha)} {ratio} {jv} {int(keep)} {int(rr)} {mu}\n")
                f.write(" ".join(map(str, rv)) + "\n" + " ".join(map(str, sv)) + "\n")
                f.write(" ".join(map(str, counts)) + "\n")
    for file in files:
        for w in workloads:
            spec, val, keep, rr = _racks.WORKLOADS[w]
            rules = Rules.parse(spec)
            ha, ratio, rv, sv, jv = rules.params(val).args()  # type: ignore[arg-type]
            arr = _racks.load_counts(file, rules)
            with open(os.path.join(out_dir, f"{file}.{w}.txt"), "w") as f:
                f.write(f"{int(ha)} {ratio} {jv} {int(keep)} {int(rr)}\n")
                f.write(" ".join(map(str, rv)) + "\n" + " ".join(map(str, sv)) + "\n")
                f.writelines(" ".join(map(str, row)) + "\n" for row in arr)


def count(file: str, workload: str, passes: int, toggle: str) -> int:
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "cg.out")
        cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", f"--toggle-collect={toggle}",
               sys.executable, os.path.abspath(__file__), "--child", file, workload, str(passes)]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(out) as f:
            m = re.search(r"^summary:\s*(\d+)", f.read(), re.MULTILINE)
        assert m, "no callgrind summary"
        return int(m.group(1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--child", nargs=3)
    ap.add_argument("--files", nargs="*", default=["racks_14.txt", "racks_22.txt", "racks_20_plus_2_jokers.txt"])
    ap.add_argument("--workloads", nargs="*", default=["rummy101-opening", "remi-laydown", "rummy101-penalty"])
    ap.add_argument("--toggle", default="rummy101::solve_melds*")
    ap.add_argument("--empty", action="store_true", help="also the fixed cost: 300 empty racks per workload")
    ap.add_argument("--dump", metavar="DIR", help="write the racks and rules for bench/solve_driver.cpp instead")
    ap.add_argument("--dense", action="store_true", help="with --dump: also one file per tests/dense_racks.txt rack")
    a = ap.parse_args()
    if a.dump:
        dump(a.dump, a.files, a.workloads, a.dense)
        return
    if a.child:
        child(a.child[0], a.child[1], int(a.child[2]))
        return
    sys.path.insert(0, HERE)
    import _racks
    for file in a.files + ([EMPTY] if a.empty else []):
        if file == EMPTY:
            n = N_EMPTY
        else:
            with open(os.path.join(_racks.shared_dir(), file)) as f:
                n = sum(1 for line in f if line.strip())
        for w in a.workloads:
            one, three = (count(file, w, p, a.toggle) for p in (1, 3))
            print(f"{file:28s} {w:18s} {(three - one) / (2 * n):12,.0f} instructions/rack", flush=True)


if __name__ == "__main__":
    main()

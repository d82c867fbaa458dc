"""Print the solvers' speed on the shared racks: racks/s, median, p99 and max time per rack, per
rack file and workload, and the native/pure ratio measured in the same run.

    PYTHONPATH=python:bench python bench/report_solve.py [--pure-racks 30] [--repeat 3]

Times are per single solve_melds call (one rack, one core thread), the best of --repeat passes
for each rack (to damp the noise of a shared machine).
"""

from __future__ import annotations

import argparse
import statistics
import time

from _racks import RACK_FILES, WORKLOADS, load_counts, solver
from rummy101 import _backend


def per_rack_times(call, racks, repeat: int) -> list[float]:  # type: ignore[no-untyped-def]
    out = []
    for r in racks:
        best = float("inf")
        for _ in range(repeat):
            t0 = time.perf_counter()
            call(r)
            best = min(best, time.perf_counter() - t0)
        out.append(best)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pure-racks", type=int, default=30, help="racks per file for the pure backend")
    ap.add_argument("--repeat", type=int, default=3, help="passes per rack (best kept)")
    args = ap.parse_args()
    backends = _backend.available_backends()
    print(f"{'workload':18} {'file':28} {'backend':7} {'racks':>5} {'racks/s':>10} {'median us':>10} "
          f"{'p99 us':>9} {'max us':>9}")
    for workload in WORKLOADS:
        for name in RACK_FILES:
            times: dict[str, list[float]] = {}
            for backend in backends:
                call, rules = solver(workload, backend)
                arr = load_counts(name, rules)
                racks = [[int(x) for x in row] for row in arr]
                if backend == "pure":
                    racks = racks[: args.pure_racks]
                call(racks[0])  # warm up (tables, memo)
                raw = per_rack_times(call, racks, args.repeat)
                times[backend] = raw
                ts = sorted(raw)
                mean = sum(ts) / len(ts)
                p99 = ts[min(len(ts) - 1, int(0.99 * len(ts)))]
                print(f"{workload:18} {name:28} {backend:7} {len(ts):5d} {1 / mean:10.0f} "
                      f"{statistics.median(ts) * 1e6:10.1f} {p99 * 1e6:9.1f} {ts[-1] * 1e6:9.1f}")
            if "native" in times and "pure" in times:
                k = len(times["pure"])
                ratio = sum(times["pure"]) / sum(times["native"][:k])
                print(f"{'':18} {name:28} native/pure speed ratio on the same {k} racks: {ratio:.0f}x")


if __name__ == "__main__":
    main()

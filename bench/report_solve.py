"""Print the solvers' speed on the shared racks and the dense set: racks/s, median, p99 and max
time per rack, per rack file and workload; the native/pure ratio, the search nodes per second of
each backend (to turn a wall-time limit into a work budget) and the API/core ratio, all measured
in the same run, the Remi lay-down's cost against the rummy101 opening's (issue 11 item 3), and the
core's racks/s on a whole file in one call (no Python between racks).

    PYTHONPATH=python:bench python bench/report_solve.py [--pure-racks 30] [--repeat 3]

Times are per single solve_melds call (one rack, one core thread): racks/s from the best of
--repeat passes over the file, median/p99/max from each rack's best over them (to damp the noise
of a shared machine). The Remi/opening ratio and the API/core
ratio compare CPU times of this thread (best_cpu_times: the best of max(5, --repeat), for the
API max(15, --repeat), interleaved passes over a whole file, so that both sides see the same
machine): for Remi, a pass
of the Remi lay-down then one of the rummy101 opening over each shared file, natively; for the API,
the core called once per rack from Python, ``solve_opening`` on each text rack,
``solve_openings`` on all of them. The dense set is tests/dense_racks.txt
(issue 11); its racks that need more than --pure-dense-nodes nodes are left out on the pure
backend. Node counts come from the work budget (the smallest budget that lets the search finish).
"""

from __future__ import annotations

import os

# numpy's BLAS threads are idle here; one thread keeps an idle one from spinning on the other core
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import functools
import math
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from _racks import RACK_FILES, WORKLOADS, load_counts, solver
from rummy101 import Rules, _backend, opening_values, solve_opening, solve_openings
from rummy101.errors import WorkBudgetExceeded
from rummy101.tiles import counts_of, format_tiles, parse_tiles

HERE = os.path.dirname(os.path.abspath(__file__))
DENSE = os.path.join(HERE, "..", "tests", "dense_racks.txt")


def per_rack_times(call: Callable[[Any], Any], racks: list[Any], repeat: int) -> tuple[list[float], float]:
    """Each rack's time (the best of ``repeat`` passes over all the racks) and the best pass's
    total. A pass solves every rack once, in order: solving one rack ``repeat`` times back to back
    instead ran 1.7x faster on the same instructions (the CPU's caches and branch predictors had
    learnt that one rack; bench measurements of 2026-12-03), which no caller asking about a new
    rack gets."""
    best = [float("inf")] * len(racks)
    best_pass = float("inf")
    for _ in range(repeat):
        total = 0.0
        for i, r in enumerate(racks):
            t0 = time.perf_counter()
            call(r)
            t = time.perf_counter() - t0
            total += t
            best[i] = min(best[i], t)
        best_pass = min(best_pass, total)
    return best, best_pass


def nodes_needed(call: Callable[[int], Any]) -> int:
    """The nodes a search expands: the smallest budget with which ``call(budget)`` finishes."""
    lo, hi = 1, 64
    while True:
        try:
            call(hi)
            break
        except WorkBudgetExceeded:
            lo, hi = hi + 1, hi * 4
    while lo < hi:
        mid = (lo + hi) // 2
        try:
            call(mid)
            hi = mid
        except WorkBudgetExceeded:
            lo = mid + 1
    return lo


def line(workload: str, name: str, backend: str, raw: list[float], nodes: int | None,
         best_pass: float) -> str:
    """One row: racks/s of the best whole pass; median, p99 and max of the per-rack times."""
    ts = sorted(raw)
    p99 = ts[min(len(ts) - 1, int(0.99 * len(ts)))]
    nps = f"{nodes / best_pass:10.0f}" if nodes is not None else f"{'':>10}"
    return (f"{workload:18} {name:28} {backend:7} {len(ts):5d} {len(ts) / best_pass:10.0f} "
            f"{statistics.median(ts) * 1e6:10.1f} {p99 * 1e6:9.1f} {ts[-1] * 1e6:9.1f} {nps}")


def best_cpu_times(jobs: Sequence[Callable[[], Any]], passes: int) -> list[float]:
    """The least CPU time of this thread (``time.thread_time``: not numpy's idle threads) each job
    took over ``passes`` interleaved rounds (every job once a round, so all see the same machine)."""
    best = [float("inf")] * len(jobs)
    for _ in range(passes):
        for i, job in enumerate(jobs):
            t0 = time.thread_time()
            job()
            best[i] = min(best[i], time.thread_time() - t0)
    return best


def _each(call: Callable[[Any], Any], racks: list[Any]) -> None:
    for r in racks:
        call(r)


def remi_ratio(passes: int) -> None:
    """Remi lay-down / rummy101 opening, CPU time, natively, per shared file: the best of
    ``passes`` interleaved passes of each over the whole file (issue 11 item 3)."""
    print(f"\nRemi lay-down / rummy101 opening, native (CPU time of this thread, best of {passes} "
          f"interleaved passes over each file):")
    for name in RACK_FILES:
        jobs, n = [], 0
        for workload in ("remi-laydown", "rummy101-opening"):
            call, rules = solver(workload, "native")
            racks = [[int(x) for x in row] for row in load_counts(name, rules)]
            jobs.append(functools.partial(_each, call, racks))
            n = len(racks)
        remi_t, open_t = best_cpu_times(jobs, passes)
        print(f"  {name:28} Remi {n / remi_t:8.0f} racks/s, opening {n / open_t:8.0f} racks/s: "
              f"{remi_t / open_t:.2f}x")


def batch_rates(passes: int) -> None:
    """racks/s of the core on a whole file in one call, natively: ``solve_melds_batch`` (no Python
    between racks; answers with their melds) and ``solve_values_batch`` (the value alone, no
    rebuild of the arrangement; forty-first round), interleaved, the best of ``passes`` calls of
    each (CPU time)."""
    print(f"\nThe core on a whole file in one call, native, racks/s (CPU time of this thread, best "
          f"of {passes} interleaved calls): solve_melds_batch (value and melds) | solve_values_batch "
          f"(the value alone)")
    core = _backend._load("native")
    print(f"  {'':28}" + "".join(f"{w:>26}" for w in WORKLOADS))
    for name in RACK_FILES:
        row = []
        for spec, val, keep, rr in WORKLOADS.values():
            rules = Rules.parse(spec)
            cr = _backend.core_rules(rules, val, "native")  # type: ignore[arg-type]
            arr = load_counts(name, rules)
            jobs = [functools.partial(core.solve_melds_batch, cr, arr, keep, -1, rr),
                    functools.partial(core.solve_values_batch, cr, arr, keep, -1, rr)]
            for job in jobs:
                job()  # warm up (tables, cross-rack lists)
            melds_t, value_t = best_cpu_times(jobs, passes)
            row.append(f"{len(arr) / melds_t:.0f} | {len(arr) / value_t:.0f}")
        print(f"  {name:28}" + "".join(f"{r:>26}" for r in row))


def dense_cases() -> list[tuple[str, str, str, list[int], bool, int, bool]]:
    out = []
    with open(DENSE) as f:
        for text in f:
            if not text.strip() or text.startswith("#"):
                continue
            head, rack = text.split("|")
            name, val, keep, mu, rr = head.split()
            rules = Rules.parse(name)
            must_use = -1 if mu == "-" else int(rules.parse_rack(mu)[0])
            out.append((name, val, rack.strip(), counts_of(parse_tiles(rack)), keep == "1", must_use,
                        rr == "1"))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pure-racks", type=int, default=30, help="racks per file for the pure backend")
    ap.add_argument("--repeat", type=int, default=3, help="passes per rack (best kept)")
    ap.add_argument("--pure-dense-nodes", type=int, default=5_000,
                    help="dense racks needing more nodes are left out on the pure backend")
    ap.add_argument("--no-nodes", action="store_true", help="skip the node counts (faster)")
    ap.add_argument("--dense-only", action="store_true", help="only the dense set and the API/core ratio")
    args = ap.parse_args()
    backends = _backend.available_backends()
    print(f"{'workload':18} {'file':28} {'backend':7} {'racks':>5} {'racks/s':>10} {'median us':>10} "
          f"{'p99 us':>9} {'max us':>9} {'nodes/s':>10}")
    for workload in () if args.dense_only else WORKLOADS:
        for name in RACK_FILES:
            times: dict[str, list[float]] = {}
            for backend in backends:
                call, rules = solver(workload, backend)
                arr = load_counts(name, rules)
                racks = [[int(x) for x in row] for row in arr]
                if backend == "pure":
                    racks = racks[: args.pure_racks]
                call(racks[0])  # warm up (tables, memo)
                raw, best_pass = per_rack_times(call, racks, args.repeat)
                times[backend] = raw
                nodes = None
                if not args.no_nodes and name == "racks_22.txt":
                    nodes = sum(nodes_needed(lambda b, r=r, f=call: f(r, b)) for r in racks)
                print(line(workload, name, backend, raw, nodes, best_pass))
            if "native" in times and "pure" in times:
                k = len(times["pure"])
                ratio = sum(times["pure"]) / sum(times["native"][:k])
                print(f"{'':18} {name:28} native/pure speed ratio on the same {k} racks: {ratio:.0f}x")
    # the dense set: one line per backend over all its racks, then the slowest racks natively
    cases = dense_cases()
    per_rack: dict[str, list[tuple[float, int]]] = {}
    for backend in backends:
        mod = _backend._load(backend)
        calls: list[Callable[[int], Any] | None] = []
        need: list[int] = []
        for rname, val, _, counts, keep, mu, rr in cases:
            cr = _backend.core_rules(Rules.parse(rname), val, backend)  # type: ignore[arg-type]

            def one(budget: int, cr: Any = cr, counts: list[int] = counts, keep: bool = keep,
                    mu: int = mu, rr: bool = rr, mod: Any = mod) -> Any:
                return mod.solve_melds(cr, counts, keep, mu, rr, budget)

            if backend == "pure" and "native" in per_rack:  # nodes are equal on both backends
                need.append(per_rack["native"][len(need)][1])
                calls.append(None if need[-1] > args.pure_dense_nodes else one)
            else:
                need.append(nodes_needed(one))
                calls.append(one)
        timed = [f for f in calls if f is not None]
        ts, best_pass = per_rack_times(lambda f: f(1 << 62), timed, args.repeat if backend == "native" else 1)
        it = iter(ts)
        rows = [(float("nan") if f is None else next(it), n) for f, n in zip(calls, need, strict=True)]
        per_rack[backend] = rows
        print(line("dense (all)", f"tests/dense_racks.txt ({len(ts)})", backend, ts,
                   sum(n for f, n in zip(calls, need, strict=True) if f is not None), best_pass))
    if "native" in per_rack and "pure" in per_rack:
        both = [(a[0], b[0]) for a, b in zip(per_rack["native"], per_rack["pure"], strict=True)
                if not math.isnan(b[0])]
        print(f"{'':18} {'dense':28} native/pure speed ratio on the same {len(both)} racks: "
              f"{sum(b for _, b in both) / sum(a for a, _ in both):.0f}x")
    print("\ndense racks, native (slowest first): ms, nodes, rules valuation keep must_use require_run rack")
    order = sorted(range(len(cases)), key=lambda i: -per_rack[backends[0]][i][0])
    for i in order:
        t, n = per_rack[backends[0]][i]
        rname, val, rack, _, keep, mu, rr = cases[i]
        print(f"  {t * 1e3:8.2f} {n:8d}  {rname} {val} {int(keep)} {mu} {int(rr)} | {rack}")
    if "native" in backends and not args.dense_only:
        remi_ratio(max(5, args.repeat))
        batch_rates(max(5, args.repeat))
    # the public API against the core on the same racks (issue 11 item 4)
    rules = Rules.parse("rummy101")
    arr = load_counts("racks_22.txt", rules)
    texts = [format_tiles(rules.parse_rack([rules.piece(c) for c in range(53) for _ in range(int(row[c]))]))
             for row in arr]
    call, _ = solver("rummy101-opening", backends[0])
    racks = [[int(x) for x in row] for row in arr]
    solve_opening(rules, texts[0])  # warm up (the token table)
    solve_openings(rules, texts[:2])
    # (a pass is ~5 ms: 15 of each, interleaved, as docs/solve.md's API figures; with 5 the
    # best pass of a side still moved by 0.1 of the ratio between runs minutes apart)
    passes = max(15, args.repeat)
    core_t, api_t, batch_t = best_cpu_times(  # (the batch solves on this one thread)
        [functools.partial(_each, call, racks), lambda: [solve_opening(rules, t) for t in texts],
         lambda: solve_openings(rules, texts)], passes)
    n = len(racks)
    print(f"\nAPI/core on racks_22.txt, rummy101 opening, {backends[0]} (CPU time, best of {passes} "
          f"interleaved passes): core {n / core_t:.0f} racks/s, "
          f"solve_opening {n / api_t:.0f} racks/s ({core_t / api_t:.2f} of the core), "
          f"solve_openings {n / batch_t:.0f} racks/s ({core_t / batch_t:.2f})")
    # the value alone: opening_values on the text racks against the core's solve_values_batch on
    # their counts (both one call over the file)
    if backends[0] == "native":
        core = _backend._load("native")
        cr = _backend.core_rules(rules, "open", "native")
        opening_values(rules, texts[:2])
        vcore_t, vapi_t = best_cpu_times(
            [functools.partial(core.solve_values_batch, cr, arr, True, -1, False),
             lambda: opening_values(rules, texts)], passes)
        print(f"  the value alone: solve_values_batch {n / vcore_t:.0f} racks/s, opening_values "
              f"on the text racks {n / vapi_t:.0f} racks/s ({vcore_t / vapi_t:.2f} of the core)")


if __name__ == "__main__":
    main()

#!/usr/bin/env python
"""Core soak: native against pure on many random and dense racks, every core function and
valuation (issue 17).

    PYTHONPATH=python python bench/soak_core.py --racks 1000000 --workers 2

Rack ``i`` of a run is a pure function of ``(seed, i)``: a variant (rummy101, remi, classic), a
valuation (open, penalty), a generator (uniform over the set, or *dense*: few numbers and
colours, many jokers), a size up to 28 pieces, and the solver flags (keep, must_use,
require_run). Each rack goes through ``solve_melds`` (every tenth rack once more
through ``solve_melds_batch``), ``max_pairs`` where pairs exist, ``rack_value``, the meld functions
(``classify_meld``, ``meld_value``, ``meld_additions``, ``joker_releases``) on pieces drawn from
the rack, and for Remi racks of 14/15 tiles the tabla functions. Both backends must give the same
result or raise the same error with the same message (a spent work budget included: both count
nodes at the same points). Racks are spread over processes; the run prints racks/s and stops at
the first mismatch, printing the rack and both outcomes.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import random
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from rummy101 import _backend
from rummy101.rules import Rules

#: Nodes per search on both backends: dense racks spend it (identically) instead of taking
#: seconds on the pure twin.
BUDGET = 2_000
VARIANTS = (Rules.parse("rummy101"), Rules.parse("remi"), Rules.parse("classic"))


def _outcome(fn: Callable[[], Any]) -> tuple[str, Any]:
    try:
        return ("ok", fn())
    except Exception as exc:  # noqa: BLE001 - both backends must fail the same way
        return ("error", (type(exc).__name__, str(exc)))


def make_rack(seed: int, i: int) -> tuple[Rules, str, list[int], bool, int, bool]:
    """(rules, valuation, counts, keep, must_use, require_run) of rack ``i``."""
    rng = random.Random(f"soak-core:{seed}:{i}")
    rules = VARIANTS[rng.randrange(3)]
    valuation = "open" if rng.random() < 0.6 else "penalty"
    max_jokers = rules.max_rack_jokers
    counts = [0] * 53
    if rng.random() < 0.3:  # dense: few numbers, few colours, many jokers
        lo = rng.randrange(1, 11)
        numbers = range(lo, min(13, lo + rng.randrange(2, 5)) + 1)
        colours = rng.sample(range(4), rng.randrange(2, 5))
        pool = [c * 13 + n - 1 for c in colours for n in numbers for _ in range(rules.copies)]
        size = min(len(pool), rng.randrange(10, 23))
        for c in rng.sample(pool, size):
            counts[c] += 1
        counts[52] = min(max_jokers, rng.randrange(0, max_jokers + 1))
    else:
        pool = [c for c in range(52) for _ in range(rules.copies)] + [52] * rules.jokers
        for c in rng.sample(pool, rng.randrange(1, 23)):
            counts[c] += 1
        if max_jokers > rules.jokers and rng.random() < 0.2:
            counts[52] = min(max_jokers, counts[52] + rng.randrange(1, max_jokers - rules.jokers + 1))
    held = [c for c in range(53) if counts[c]]
    must_use = rng.choice(held) if held and rng.random() < 0.3 else -1
    keep = rng.random() < 0.6
    require_run = rules.opening_needs_run and valuation == "open" and rng.random() < 0.7
    return rules, valuation, counts, keep, must_use, require_run


def check_rack(native: Any, pure: Any, seed: int, i: int) -> int:
    """Compare every function on rack ``i``; returns the number of comparisons made."""
    rules, valuation, counts, keep, must_use, require_run = make_rack(seed, i)
    rng = random.Random(f"soak-core-melds:{seed}:{i}")
    crs = {b: _backend.core_rules(rules, valuation, b) for b in ("native", "pure")}
    calls: list[tuple[str, Callable[[Any, Any], Any]]] = [
        ("solve_melds", lambda m, cr: m.solve_melds(cr, counts, keep, must_use, require_run, BUDGET)),
        ("rack_value", lambda m, cr: m.rack_value(cr, counts)),
    ]
    if i % 10 == 0:  # the batch entry point solves the same way; every tenth rack checks it
        calls.append(("solve_melds_batch", lambda m, cr: m.solve_melds_batch(
            cr, np.array([counts], dtype=np.uint8), keep, must_use, require_run, BUDGET)))
    if rules.pairs_allowed:
        calls.append(("max_pairs", lambda m, cr: m.max_pairs(counts, keep, must_use, BUDGET)))
    pieces = [c for c in range(53) for _ in range(counts[c])]
    for _ in range(3):
        if len(pieces) >= 2:
            tiles = rng.sample(pieces, min(len(pieces), rng.randrange(2, 6)))
            if rng.random() < 0.5:
                tiles.sort()
            calls.append(("classify_meld", lambda m, cr, t=tiles: m.classify_meld(cr, t)))
            calls.append(("meld_value", lambda m, cr, t=tiles: m.meld_value(cr, t)))
            calls.append(("meld_additions", lambda m, cr, t=tiles: m.meld_additions(cr, t)))
            calls.append(("joker_releases", lambda m, cr, t=tiles: m.joker_releases(
                cr, t, rules.set3_release_both)))
    if rules.variant == "remi" and sum(counts) in (14, 15) and counts[52] <= 2:
        name = "tabla_patterns" if sum(counts) == 14 else "tabla_closes"
        calls.append((name, lambda m, cr, n=name: getattr(m, n)(cr, counts)))
        if sum(counts) == 14:
            calls.append(("tabla_distance", lambda m, cr: m.tabla_distance(cr, counts)))
    for name, call in calls:
        a = _outcome(lambda c=call: c(native, crs["native"]))
        b = _outcome(lambda c=call: c(pure, crs["pure"]))
        if a != b:
            raise AssertionError(
                f"rack {i} (seed {seed}): {name} differs\n  rules {rules}, valuation {valuation}, "
                f"keep={keep}, must_use={must_use}, require_run={require_run}\n  counts {counts}\n"
                f"  native {a!r}\n  pure   {b!r}")
    return len(calls)


def run_chunk(seed: int, start: int, stop: int) -> tuple[int, int]:
    native, pure = _backend._load("native"), _backend._load("pure")
    n = 0
    for i in range(start, stop):
        n += check_rack(native, pure, seed, i)
    return stop - start, n


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--racks", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--chunk", type=int, default=500)
    args = ap.parse_args(argv)
    try:
        _backend._load("native")
    except ImportError as exc:
        ap.error(f"the native core is not built (tools/devbuild or pip install .): {exc}")
    t0 = time.perf_counter()
    racks = comparisons = 0
    with cf.ProcessPoolExecutor(max_workers=args.workers) as ex:
        futures = [ex.submit(run_chunk, args.seed, a, min(a + args.chunk, args.racks))
                   for a in range(0, args.racks, args.chunk)]
        try:
            for fut in cf.as_completed(futures):
                r, c = fut.result()
                racks += r
                comparisons += c
                el = time.perf_counter() - t0
                print(f"\r{racks}/{args.racks} racks, {comparisons} comparisons, "
                      f"{racks / el:,.0f} racks/s", end="", file=sys.stderr, flush=True)
        except AssertionError as exc:
            for f in futures:
                f.cancel()
            print(f"\nMISMATCH: {exc}", file=sys.stderr)
            return 1
    el = time.perf_counter() - t0
    print(f"\n{racks} racks, {comparisons} comparisons native vs pure in {el:.0f} s "
          f"({racks / el:,.0f} racks/s, {args.workers} processes): 0 mismatches")
    return 0


if __name__ == "__main__":
    sys.exit(main())

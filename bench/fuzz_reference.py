#!/usr/bin/env python
"""Fuzz the solver against the integer program, over the whole of the service's limits.

    PYTHONPATH=python:tests python bench/fuzz_reference.py --minutes 20 --seed 1

Each rack is a pure function of ``(seed, i)``: a variant (rummy101 half of the time, remi and
classic a quarter each), a valuation (open 70 %, penalty 30 %), a shape (uniform over the set,
or dense: a few numbers and colours, Remi's aces high and low), a size up to the service's 28
pieces with up to 6 jokers in rummy101 (R101-10's button jokers) and 2 Jolys in remi, and the
flags keep (R101-12, RO-13), must_use (R101-4; the joker too) and require_run (RO-8) at random.
The tests' random racks stop at 22 tiles and 3 jokers (tests/test_solve_reference.py); this
covers the rest of what a caller may send.

For every rack the native ``solve_melds`` (and ``solve_melds_value``, the value alone) must give
the integer program's optimum
(tests/reference.py, written from RULES.md alone), its arrangement must pass the tests'
independent check (legal melds, disjoint, from the rack, the constraints met, the values adding
up: ``check_arrangement``), and ``--pure-every K`` racks the pure twin must give the same value
and melds. A difference prints the rack and both answers and ends the run with status 1.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from reference import reference_best  # type: ignore[import-not-found]  # tests/ on PYTHONPATH
from rummy101 import Rules, _backend
from test_solve_reference import check_arrangement  # type: ignore[import-not-found]

VARIANTS = {name: Rules.parse(name) for name in ("rummy101", "remi", "classic")}
MAX_PIECES = 28
MAX_JOKERS = {"rummy101": 6, "remi": 2, "classic": 0}


def make_case(seed: int, i: int) -> tuple[str, str, list[int], bool, int, bool]:
    """(variant, valuation, counts, keep, must_use, require_run) of rack i of a seed."""
    rng = random.Random(seed * 1_000_003 + i)
    name = rng.choice(("rummy101", "rummy101", "remi", "classic"))
    rules = VARIANTS[name]
    valuation = "penalty" if rng.random() < 0.3 else "open"
    counts = [0] * 53
    jokers = min(MAX_JOKERS[name], rng.choice((0, 0, 1, 2, 2, 3, 4, 5, 6)))
    if rng.random() < 0.5:  # dense: overlapping runs and sets
        lo = rng.randint(1, 11)
        numbers = list(range(lo, min(13, lo + rng.randint(2, 6)) + 1))
        if rules.high_ace and rng.random() < 0.5:
            numbers += [1, 12, 13]
        colours = rng.sample(range(4), rng.randint(2, 4))
    else:
        numbers, colours = list(range(1, 14)), list(range(4))
    size = rng.randint(6, MAX_PIECES - jokers)
    for _ in range(1000):
        if sum(counts) >= size:
            break
        code = rng.choice(colours) * 13 + rng.choice(numbers) - 1
        if counts[code] < rules.copies:
            counts[code] += 1
    counts[52] = jokers  # the joker's code
    keep = rng.random() < 0.6
    present = [k for k in range(53) if counts[k]]
    must_use = rng.choice(present) if present and rng.random() < 0.3 else -1
    require_run = rng.random() < 0.3
    return name, valuation, counts, keep, must_use, require_run


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--racks", type=int, default=10**9, help="stop after this many racks")
    ap.add_argument("--minutes", type=float, default=10.0, help="stop after this long")
    ap.add_argument("--pure-every", type=int, default=50, help="also compare the pure twin every K racks (0: never)")
    args = ap.parse_args(argv)
    native = _backend._load("native")
    pure = _backend._load("pure")
    end = time.monotonic() + 60 * args.minutes
    n = pure_n = 0
    last = time.monotonic()
    for i in range(args.racks):
        if time.monotonic() > end:
            break
        name, val, counts, keep, mu, rr = make_case(args.seed, i)
        rules = VARIANTS[name]
        got = native.solve_melds(_backend.core_rules(rules, val, backend="native"), counts, keep, mu, rr)
        want = reference_best(rules, counts, valuation=val, keep=keep, must_use=mu, require_run=rr)
        case = f"seed {args.seed} rack {i}: {name} {val} keep={keep} must_use={mu} require_run={rr} counts={counts}"
        if got[0] != want:
            print(f"VALUE DIFFERS, {case}: native {got[0]}, integer program {want}", flush=True)
            return 1
        alone = native.solve_melds_value(_backend.core_rules(rules, val, backend="native"), counts, keep, mu, rr)
        if alone != want:
            print(f"VALUE ALONE DIFFERS, {case}: solve_melds_value {alone}, integer program {want}", flush=True)
            return 1
        try:
            check_arrangement(rules, val, counts, keep, mu, rr, got)
        except AssertionError as e:
            print(f"ARRANGEMENT WRONG, {case}: native {got}: {e}", flush=True)
            return 1
        if args.pure_every and i % args.pure_every == 0:
            twin = pure.solve_melds(_backend.core_rules(rules, val, backend="pure"), counts, keep, mu, rr)
            if tuple(twin[0:1]) + (list(twin[1]),) != tuple(got[0:1]) + (list(got[1]),):
                print(f"BACKENDS DIFFER, {case}: native {got}, pure {twin}", flush=True)
                return 1
            pure_n += 1
        n += 1
        if time.monotonic() - last > 30:
            last = time.monotonic()
            print(f"{n} racks, {pure_n} with the pure twin too: no difference", flush=True)
    print(f"seed {args.seed}: {n} racks against the integer program, {pure_n} against the pure twin: no difference")
    return 0


if __name__ == "__main__":
    sys.exit(main())

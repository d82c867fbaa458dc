"""Hunt for the solver's worst racks within the service limits (issue 11): random dense racks
(<= 28 tiles; <= 6 jokers in rummy101, <= 2 Jolys in remi; tiles packed into a few numbers),
every valuation and constraint, solved natively; prints the slowest racks with their node counts
in tests/dense_racks.txt's format, so that new worst shapes can be added there.

    PYTHONPATH=python:bench python bench/dense_search.py [--racks 2000] [--seed 1] [--top 10]
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from report_solve import nodes_needed
from rummy101 import Rules, _backend
from rummy101.tiles import counts_of, parse_tiles

COLOURS = "RYBK"


def dense_rack(rng: random.Random, remi: bool) -> tuple[str, list[int]]:
    """A rack of <= 28 tiles: up to 2 copies of tiles from a window of 2-6 numbers (Remi also
    around the ace: 11-12-13-1-2), sometimes two windows, plus the most jokers allowed or fewer."""
    jokers = rng.choice([2, 2, 1, 0]) if remi else rng.choice([6, 6, 5, 4, 3, 2])
    numbers: list[int] = []
    for _ in range(rng.choice([1, 1, 2])):
        w = rng.randint(2, 6)
        if remi and rng.random() < 0.3:
            numbers += [(11 + k - 1) % 13 + 1 for k in range(w)]
        else:
            lo = rng.randint(1, 14 - w)
            numbers += list(range(lo, lo + w))
    pool = [f"{c}{n}" for n in sorted(set(numbers)) for c in COLOURS for _ in range(2)]
    rng.shuffle(pool)
    size = min(len(pool), 28 - jokers, rng.randint(14, 28 - jokers))
    tiles = pool[:size] + ["*"] * jokers
    return " ".join(tiles), counts_of(parse_tiles(" ".join(tiles)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--racks", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--top", type=int, default=10)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    mod = _backend._load("native")
    found: list[tuple[float, str]] = []
    for _ in range(args.racks):
        name = rng.choice(["rummy101", "rummy101", "remi"])
        rules = Rules.parse(name)
        val = rng.choice(["open", "open", "penalty"])
        keep, rr = rng.random() < 0.8, name == "remi" and val == "open" and rng.random() < 0.8
        text, counts = dense_rack(rng, name == "remi")
        r = rng.random()
        must_use = -1 if r < 0.6 else (52 if r < 0.8 and counts[52] else
                                        rng.choice([c for c in range(52) if counts[c]]))
        cr = _backend.core_rules(rules, val, "native")  # type: ignore[arg-type]

        def one(budget: int, cr: Any = cr, counts: list[int] = counts, keep: bool = keep,
                must_use: int = must_use, rr: bool = rr) -> Any:
            return mod.solve_melds(cr, counts, keep, must_use, rr, budget)

        t = min(_timed(one) for _ in range(2))
        mu = "-" if must_use < 0 else "*" if must_use == 52 else f"{COLOURS[must_use // 13]}{must_use % 13 + 1}"
        found.append((t, f"{name} {val} {int(keep)} {mu} {int(rr)} | {text}"))
    found.sort(reverse=True)
    ts = sorted(t for t, _ in found)
    print(f"{len(ts)} dense racks: median {ts[len(ts) // 2] * 1e3:.3f} ms, "
          f"p99 {ts[int(0.99 * (len(ts) - 1))] * 1e3:.3f} ms, max {ts[-1] * 1e3:.3f} ms")
    for t, line in found[: args.top]:
        head, rack = line.split(" | ")
        name, val, keep, mu, rr = head.split()
        rules = Rules.parse(name)
        cr = _backend.core_rules(rules, val, "native")  # type: ignore[arg-type]
        counts = counts_of(parse_tiles(rack))
        must = -1 if mu == "-" else int(rules.parse_rack(mu)[0])
        n = nodes_needed(lambda b, cr=cr, counts=counts, keep=keep, must=must, rr=rr:
                         mod.solve_melds(cr, counts, keep == "1", must, rr == "1", b))
        print(f"{t * 1e3:8.3f} ms {n:7d} nodes  {line}")


def _timed(call: Any) -> float:
    t0 = time.perf_counter()
    call(1 << 62)
    return time.perf_counter() - t0


if __name__ == "__main__":
    main()

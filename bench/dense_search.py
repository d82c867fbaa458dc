"""Hunt for the solver's worst racks within the service limits (issue 11): random dense racks
(<= 28 tiles; <= 6 jokers in rummy101, <= 2 Jolys in remi; tiles packed into a few numbers),
every valuation and constraint, solved natively; prints the slowest racks with their node counts
in tests/dense_racks.txt's format, so that new worst shapes can be added there.

With --climb SECONDS it then hill-climbs from the slowest racks by node count (deterministic, unlike
times): one or two random edits a step (a tile moved to a neighbouring number or colour, a tile
dropped or added, a tile turned into a joker or back, keep or must_use changed; --fixed keeps
the rules and valuation), kept when the search needs at least as many nodes, all within the
limits. Random racks rarely meet the worst shapes; a climb from them does within minutes.
--start LINE (repeatable) climbs from that line instead (e.g. the worst of tests/dense_racks.txt).

    PYTHONPATH=python:bench python bench/dense_search.py [--racks 2000] [--seed 1] [--top 10]
        [--climb 300] [--climb-from 3] [--fixed] [--start LINE]
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
    ap.add_argument("--climb", type=float, default=0.0, help="seconds of hill climbing per start")
    ap.add_argument("--climb-from", type=int, default=3, help="climb from this many slowest racks")
    ap.add_argument("--fixed", action="store_true", help="climb within the start's rules and valuation")
    ap.add_argument("--start", action="append", default=[], metavar="LINE",
                    help="climb from this tests/dense_racks.txt line instead of random racks (repeatable)")
    args = ap.parse_args()
    if args.start:
        mod = _backend._load("native")
        for k, line in enumerate(args.start):
            print(f"start:   {line_nodes(mod, line):7d} nodes  {line}", flush=True)
            n, line = climb(mod, line, random.Random(args.seed * 1000 + k), args.climb, args.fixed)
            print(f"climbed: {n:7d} nodes  {line}", flush=True)
        return
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
        print(f"{t * 1e3:8.3f} ms {line_nodes(mod, line):7d} nodes  {line}")
    for k, (_, line) in enumerate(found[: args.climb_from] if args.climb > 0 else []):
        n, line = climb(mod, line, random.Random(args.seed * 1000 + k), args.climb, args.fixed)
        print(f"climbed: {n:7d} nodes  {line}", flush=True)


def line_nodes(mod: Any, line: str) -> int:
    """The nodes a tests/dense_racks.txt line needs natively; -1 if it breaks the service limits."""
    head, rack = line.split(" | ")
    name, val, keep, mu, rr = head.split()
    tiles = rack.split()
    if len(tiles) > 28 or tiles.count("*") > (6 if name == "rummy101" else 2):
        return -1
    if mu != "-" and mu not in tiles:
        return -1
    rules = Rules.parse(name)
    counts = counts_of(parse_tiles(rack))
    if max(counts[:52]) > 2:
        return -1
    cr = _backend.core_rules(rules, val, "native")  # type: ignore[arg-type]
    must = -1 if mu == "-" else int(rules.parse_rack(mu)[0])
    return nodes_needed(lambda b: mod.solve_melds(cr, counts, keep == "1", must, rr == "1", b))


def _edit(rng: random.Random, head: list[str], tiles: list[str], fixed: bool) -> None:
    real = [i for i, x in enumerate(tiles) if x != "*"]
    if not real:
        return
    nums = [int(tiles[i][1:]) for i in real]
    near = min(13, max(1, rng.choice(nums) + rng.choice([-1, 0, 0, 1])))
    r = rng.random()
    if r < 0.5:
        tiles[rng.choice(real)] = f"{rng.choice(COLOURS)}{near}"
    elif r < 0.6:
        tiles.pop(rng.choice(real))
    elif r < 0.7:
        tiles.insert(0, f"{rng.choice(COLOURS)}{near}")
    elif r < 0.75:
        tiles[rng.choice(real)] = "*"
    elif r < 0.8 and "*" in tiles:
        tiles[tiles.index("*")] = f"{rng.choice(COLOURS)}{near}"
    elif r < 0.87:
        head[2] = "1" if head[2] == "0" else "0"
    elif r < 0.95:
        head[3] = rng.choice(["-", "*", rng.choice(tiles)])
    elif not fixed:
        head[1] = "open" if head[1] == "penalty" else "penalty"


def climb(mod: Any, line: str, rng: random.Random, seconds: float, fixed: bool) -> tuple[int, str]:
    """Hill-climb the node count from a rack line for so many seconds; the best line found."""
    head_s, rack = line.split(" | ")
    head, tiles = head_s.split(), rack.split()
    best = line_nodes(mod, line)
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        h, t = head[:], tiles[:]
        for _ in range(rng.randint(1, 2)):
            _edit(rng, h, t, fixed)
        real = sorted((x for x in t if x != "*"), key=lambda x: (int(x[1:]), x[0]))
        t = real + ["*"] * t.count("*")
        n = line_nodes(mod, f"{' '.join(h)} | {' '.join(t)}")
        if n >= best:
            best, head, tiles = n, h, t
    return best, f"{' '.join(head)} | {' '.join(tiles)}"


def _timed(call: Any) -> float:
    t0 = time.perf_counter()
    call(1 << 62)
    return time.perf_counter() - t0


if __name__ == "__main__":
    main()

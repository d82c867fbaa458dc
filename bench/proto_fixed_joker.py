"""Prototype (issue 11, twenty-fifth round): an exact Rummy 101 penalty solver whose state does not
grow with the jokers. Pure Python, standalone; it changes nothing in the package.

In the penalty valuation (R101-6, R101-13) a laid joker is worth a fixed ``joker_value`` (101)
wherever it stands, so where a joker stands changes only which arrangements are legal, never
their value. The search therefore keeps the jokers out of its key:

- The state after number n is, per colour, the sorted tuple of the runs in progress (each run's
  length so far, capped at 3: 1, 2 or 3+), plus one flag: a real tile was left on the rack
  (keep, R101-12). Runs in progress are only runs that may still take a tile at n + 1; a run
  that ends takes its trailing jokers as a count when it closes, and a run takes its leading
  jokers as a count where its first real tile is (so no run in progress is joker-only).
- Each state holds a vector over u = jokers laid so far (0..J): the best face value of the real
  tiles laid for that u. The value of an arrangement is real + joker_value * u, so the vector is
  exact and the answer is max over the final vector (keep: a real tile left or u < J; must_use a
  joker: u >= 1). A transition adds a *set* of possible joker counts (a bitmask), e.g. a run
  closing at n - 1 with 0..(13 - (n - 1)) trailing jokers; vectors are shifted by it (max-plus).
- At number n the colours are processed one after the other (per colour: every run in progress
  is closed, extended with a real tile or extended with a joker; new runs start on real tiles),
  then the tiles left at n go to sets (3-4 distinct colours, >= 1 real tile, jokers fill) or stay
  (R101-5). ``must_use`` of a real tile is checked at its number: a copy must be laid.
- ``--max-runs K`` caps the runs in progress per colour (default 2: two copies of each tile; the
  exchange argument this prototype tests is that an optimal arrangement never needs more). With
  the cap, the state count per number is at most 10 ** 4 * 2 = 20,000 for any number of jokers
  (10 multisets of <= 2 runs of 3 lengths per colour, the keep flag); ``--max-runs 0`` lifts the
  cap (up to 2 + J runs per colour: exact by construction, but the state grows with J again).

Modes (run from the worktree root):

    PYTHONPATH=python python bench/proto_fixed_joker.py --check [--random 3000] [--seed 25]
    PYTHONPATH=python python bench/proto_fixed_joker.py --measure [--random 3000] [--seed 25]
    PYTHONPATH=python python bench/proto_fixed_joker.py --exhaustive

``--check`` compares the prototype's value with the native core's ``solve_melds`` on every
rummy101 penalty line of tests/dense_racks.txt and on ``--random`` random penalty racks (14-28
tiles, 0-6 jokers, keep mostly on, must_use on a third; half of them drawn from a window of
five to seven numbers, the dense shape). ``--measure`` does the same and prints per rack the
prototype's states (keys at the number boundaries) and edges (vector merges, its unit of work),
the native core's nodes (the smallest work budget that finishes) and both times.
``--exhaustive`` checks every rack of a small universe against the native core with and without
the cap (the brute-force test of the exchange argument).
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import statistics
import sys
import time
from collections.abc import Iterator
from functools import lru_cache

from report_solve import nodes_needed  # bench/, beside this script
from rummy101 import Rules, _backend
from rummy101.tiles import counts_of, format_tiles, parse_tiles

HERE = os.path.dirname(os.path.abspath(__file__))
DENSE = os.path.join(HERE, "..", "tests", "dense_racks.txt")
NEG = -(1 << 40)
JOKER = 52
STATUSES = (1, 2, 3)


def _set_masks(max_jokers: int) -> dict[tuple[int, int, int, int], int]:
    """For every s (real tiles per colour, 0..2) the bitmask of joker counts j with which exactly
    those tiles split into sets: 3-4 distinct colours, >= 1 real tile each (R101-5). s = 0: j = 0."""
    groups = []
    for mask in range(1, 16):
        real = mask.bit_count()
        for j in range(4):
            if 3 <= real + j <= 4:
                groups.append(((mask & 1, (mask >> 1) & 1, (mask >> 2) & 1, (mask >> 3) & 1), j))
    seen = {((0, 0, 0, 0), 0)}
    todo = [((0, 0, 0, 0), 0)]
    while todo:
        s, j = todo.pop()
        for g, gj in groups:
            s2 = (s[0] + g[0], s[1] + g[1], s[2] + g[2], s[3] + g[3])
            if max(s2) <= 2 and j + gj <= max_jokers and (s2, j + gj) not in seen:
                seen.add((s2, j + gj))
                todo.append((s2, j + gj))
    out: dict[tuple[int, int, int, int], int] = {}
    for s, j in seen:
        out[s] = out.get(s, 0) | (1 << j)
    return out


class Tables:
    """What depends only on (jokers, max_runs), shared by every rack: each colour's options at a
    number and the set splits, memoized."""

    def __init__(self, jokers: int, max_runs: int) -> None:
        self.jokers = jokers
        self.max_runs = max_runs if max_runs > 0 else 99
        self.full = (1 << (jokers + 1)) - 1
        self.set_masks = _set_masks(jokers)
        self.bits = [[j for j in range(jokers + 1) if m >> j & 1] for m in range(self.full + 1)]
        self.colour_options = lru_cache(maxsize=None)(self._colour_options)
        self.set_options = lru_cache(maxsize=None)(self._set_options)

    def _sumset(self, a: int, b: int) -> int:
        out = 0
        for i in self.bits[a]:
            out |= b << i
        return out & self.full

    def _colour_options(
        self, runs: tuple[int, ...], k: int, n: int
    ) -> dict[tuple[tuple[int, ...], int], int]:
        """What one colour's runs can do at number n with k real tiles of it: (runs in progress
        after n, tiles left for sets or the rack) -> bitmask of jokers laid by the runs."""
        res: dict[tuple[tuple[int, ...], int], int] = {}
        tmax = min(self.jokers, 14 - n)  # trailing jokers of a run whose last position is n - 1
        lead = {
            1: 1,
            2: 2 if n >= 2 else 0,
            3: sum(1 << x for x in range(2, min(n - 1, self.jokers) + 1)),
        }
        lead = {s: m & self.full for s, m in lead.items()}

        def rec(i: int, used: int, kept: tuple[int, ...], mask: int) -> None:
            if not mask:
                return
            if i == len(runs):
                if n > 13:
                    res[((), 0)] = res.get(((), 0), 0) | mask
                    return
                for m in range(k - used + 1):
                    for combo in itertools.combinations_with_replacement(STATUSES, m):
                        cm = mask
                        for s in combo:
                            cm = self._sumset(cm, lead[s]) if lead[s] else 0
                            if not cm:
                                break
                        new = tuple(sorted(kept + combo))
                        if cm and len(new) <= self.max_runs:
                            key = (new, k - used - m)
                            res[key] = res.get(key, 0) | cm
                return
            s = runs[i]
            lo = max(0, 3 - s)
            if lo <= tmax:  # close: its last position is n - 1, with lo..tmax trailing jokers
                rec(
                    i + 1, used, kept, self._sumset(mask, ((1 << (tmax + 1)) - 1) ^ ((1 << lo) - 1))
                )
            if n <= 13:
                ns = min(s + 1, 3)
                if used < k:
                    rec(i + 1, used + 1, kept + (ns,), mask)
                rec(i + 1, used, kept + (ns,), self._sumset(mask, 2))

        rec(0, 0, (), 1)
        return res

    def _set_options(self, rems: tuple[int, ...], mc: int, kmc: int) -> list[tuple[int, int]]:
        """The tiles ``rems`` left at a number by the runs: every split into sets and tiles left,
        as (tiles left, bitmask of jokers the sets take). ``mc`` >= 0: a tile of that colour (the
        must_use tile, R101-4, ``kmc`` copies on the rack) must be laid here."""
        out: dict[int, int] = {}
        for s in itertools.product(*(range(r + 1) for r in rems)):
            mask = self.set_masks.get(s)
            if not mask:
                continue
            if mc >= 0 and kmc - rems[mc] + s[mc] < 1:
                continue
            leftover = sum(rems) - sum(s)
            out[leftover] = out.get(leftover, 0) | mask
        return sorted(out.items())


_TABLES: dict[tuple[int, int], Tables] = {}


class Proto:
    """One rack's search. ``counts``: 53 tile counts; ``must_use``: a code, 52 (a joker) or -1."""

    def __init__(
        self,
        counts: list[int],
        keep: bool,
        must_use: int,
        max_runs: int,
        joker_value: int = 101,
        floor: int | None = None,
    ) -> None:
        self.jokers = counts[JOKER]
        key = (self.jokers, max_runs)
        if key not in _TABLES:
            _TABLES[key] = Tables(*key)
        self.tables = _TABLES[key]
        self.bits = self.tables.bits
        self.cnt = [[0] + [counts[c * 13 + n - 1] for n in range(1, 14)] for c in range(4)]
        self.keep = keep
        self.must_use = must_use
        self.joker_value = joker_value
        # floor: drop a vector entry whose real value, with every later real tile and every
        # joker laid, stays below it (with the optimum as floor: what a branch and bound on this
        # key with that cheap bound would keep at best, an oracle figure)
        self.floor = floor
        self.rest = [
            sum(n2 * self.cnt[c][n2] for c in range(4) for n2 in range(n + 1, 14))
            for n in range(15)
        ]
        self.states = 0  # keys at the number boundaries, summed over the numbers
        self.max_layer = 0  # the most keys at one number boundary
        self.edges = 0  # vector merges (the unit of work), intermediate colours included

    def _merge(self, out: dict, key: object, vec: list[int], mask: int, add: int) -> None:
        self.edges += 1
        nv = out.get(key)
        if nv is None:
            nv = out[key] = [NEG] * (self.jokers + 1)
        bits = self.bits[mask]
        top = self.jokers
        for u, v in enumerate(vec):
            if v == NEG:
                continue
            v += add
            for j in bits:
                if u + j > top:
                    break
                nv[u + j] = max(nv[u + j], v)

    def solve(self) -> int:
        """The best penalty value laid (real faces + joker_value per joker), -1 if no arrangement
        meets must_use (the core's answer)."""
        layer: dict = {(((),) * 4, False): [0] + [NEG] * self.jokers}
        mc, mn = (
            (self.must_use // 13, self.must_use % 13 + 1) if 0 <= self.must_use < 52 else (-1, -1)
        )
        for n in range(1, 15):
            idle = n <= 13 and not any(self.cnt[c][n] for c in range(4))
            if idle and all(runs == ((),) * 4 for runs, _ in layer):
                self.states += len(layer)  # nothing in progress, nothing to lay: no change
                continue
            cur = {(runs, (), left): vec for (runs, left), vec in layer.items()}
            for c in range(4):
                k = self.cnt[c][n] if n <= 13 else 0
                nxt: dict = {}
                for (runs, rems, left), vec in cur.items():
                    for (new, rem), mask in self.tables.colour_options(runs[c], k, n).items():
                        key = (runs[:c] + (new,) + runs[c + 1 :], rems + (rem,), left)
                        self._merge(nxt, key, vec, mask, 0)
                cur = nxt
            layer = {}
            total = sum(self.cnt[c][n] for c in range(4)) if n <= 13 else 0
            for (runs, rems, left), vec in cur.items():
                for leftover, mask in self.tables.set_options(
                    rems, mc if n == mn else -1, self.cnt[mc][n] if n == mn else 0
                ):
                    self._merge(
                        layer, (runs, left or leftover > 0), vec, mask, n * (total - leftover)
                    )
            if self.floor is not None:
                least = self.floor - self.rest[min(n, 14)] - self.joker_value * self.jokers
                for key in list(layer):
                    vec = layer[key] = [v if v >= least else NEG for v in layer[key]]
                    if max(vec) == NEG:
                        del layer[key]
            self.states += len(layer)
            self.max_layer = max(self.max_layer, len(layer))
        best = -1
        for (_, left), vec in layer.items():
            for u, v in enumerate(vec):
                if v == NEG or (self.keep and not left and u == self.jokers):
                    continue
                if self.must_use == JOKER and u == 0:
                    continue
                best = max(best, v + self.joker_value * u)
        return best


# ---- the racks ---------------------------------------------------------------------------------
Case = tuple[str, list[int], bool, int]  # (label, counts, keep, must_use)


def dense_cases() -> list[Case]:
    rules = Rules.parse("rummy101")
    out = []
    with open(DENSE) as f:
        for i, line in enumerate(f):
            if not line.strip() or line.startswith("#"):
                continue
            head, rack = line.split("|")
            name, val, keep, mu, _ = head.split()
            if name != "rummy101" or val != "penalty":
                continue
            must_use = -1 if mu == "-" else int(rules.parse_rack(mu)[0])
            out.append((f"dense line {i + 1}", counts_of(parse_tiles(rack)), keep == "1", must_use))
    return out


def edge_cases() -> list[Case]:
    """Racks whose runs have no room for another joker (13-tile runs, full sets): there the
    jokers' capacity, not their need, decides how many are laid."""
    out = []
    for rack in (
        "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 " * 2 + "* *",
        "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8 Y9 Y10 Y11 Y12 Y13 * *",
        "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 * * *",
        "R5 Y5 B5 K5 R5 Y5 B5 K5 R9 Y9 B9 K9 R9 Y9 B9 K9 * * * * * *",
        "R5 Y5 B5 K5 R5 Y5 B5 K5 R9 Y9 B9 K9 R9 Y9 B9 K9 R13 * * * * * *",
        "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 Y13 B13 K13 Y13 B13 K13 * * * * * *",
    ):
        counts = counts_of(parse_tiles(rack))
        for keep in (False, True):
            for must_use in (-1, JOKER, 0, 12):
                if must_use == -1 or counts[must_use]:
                    out.append((f"edge {rack[:20]}..", counts, keep, must_use))
    return out


def random_cases(count: int, seed: int) -> Iterator[Case]:
    """Penalty racks within the service limits: 14-28 pieces, 0-6 jokers, two copies of a tile at
    most; every other rack from a window of 5-7 numbers (the worst racks' shape)."""
    rng = random.Random(seed)
    for i in range(count):
        jokers = rng.randint(0, 6)
        size = rng.randint(max(14, jokers + 1), 28) - jokers
        if i % 2:
            lo = rng.randint(1, 9)
            numbers = range(lo, min(13, lo + rng.randint(4, 6)) + 1)
        else:
            numbers = range(1, 14)
        pool = [c * 13 + n - 1 for c in range(4) for n in numbers for _ in range(2)]
        tiles = rng.sample(pool, min(size, len(pool)))
        counts = counts_of(tiles)
        counts[JOKER] = jokers
        keep = rng.random() < 0.8
        must_use = -1
        if rng.random() < 1 / 3:
            pieces = tiles + [JOKER] * jokers
            must_use = rng.choice(pieces)
        yield (f"random {i}", counts, keep, must_use)


# ---- the native core ---------------------------------------------------------------------------
def native() -> tuple[object, object]:
    mod = _backend._load("native")
    return mod, _backend.core_rules(Rules.parse("rummy101"), "penalty", "native")


def core_value(core: tuple[object, object], case: Case, budget: int = 1 << 62) -> int:
    mod, cr = core
    return int(mod.solve_melds(cr, case[1], case[2], case[3], False, budget)[0])  # type: ignore[attr-defined]


def core_nodes(core: tuple[object, object], case: Case) -> int:
    """The native search's nodes: the smallest work budget with which it finishes."""
    return nodes_needed(lambda budget: core_value(core, case, budget))


def describe(case: Case) -> str:
    codes = [c for c in range(53) for _ in range(case[1][c])]
    mu = "-" if case[3] < 0 else format_tiles([case[3]])
    return f"{case[0]}: keep {int(case[2])} must_use {mu} | {format_tiles(codes)}"


# ---- modes -------------------------------------------------------------------------------------
def run(cases: list[Case], max_runs: int, measure: bool, oracle: bool = False) -> int:
    core = native()
    bad = 0
    rows = []
    for case in cases:
        t0 = time.perf_counter()
        p = Proto(case[1], case[2], case[3], max_runs)
        got = p.solve()
        t_proto = time.perf_counter() - t0
        t0 = time.perf_counter()
        want = core_value(core, case)
        t_core = time.perf_counter() - t0
        if got != want:
            bad += 1
            print(f"DIFFERENT: prototype {got}, core {want}; {describe(case)}", flush=True)
        if measure:
            row = [case, p.states, p.max_layer, p.edges, core_nodes(core, case), t_proto, t_core]
            if oracle:
                q = Proto(case[1], case[2], case[3], max_runs, floor=want)
                if q.solve() != want:
                    bad += 1
                    print(f"DIFFERENT with the optimum as floor; {describe(case)}", flush=True)
                row += [q.states, q.max_layer, q.edges]
            rows.append(tuple(row))
    print(
        f"{len(cases)} racks, max_runs {max_runs or 'unlimited'}: {len(cases) - bad} equal, "
        f"{bad} different"
    )
    if measure and rows:
        _report(rows)
    return bad


def _report(rows: list[tuple]) -> None:
    def stat(i: int, scale: float = 1.0, fmt: str = ",.0f") -> str:
        xs = [r[i] * scale for r in rows]
        return (
            f"mean {format(statistics.mean(xs), fmt):>10} median "
            f"{format(statistics.median(xs), fmt):>10} max {format(max(xs), fmt):>10}"
        )

    print(f"  prototype states (keys at number boundaries): {stat(1)}")
    print(f"  prototype keys at one number, most:           {stat(2)}")
    print(f"  prototype edges (vector merges):              {stat(3)}")
    print(f"  native core nodes (smallest budget):          {stat(4)}")
    print(f"  prototype time per rack, ms (Python):         {stat(5, 1e3, ',.1f')}")
    print(f"  native core time per rack, ms:                {stat(6, 1e3, ',.3f')}")
    if len(rows[0]) > 7:
        print(f"  with the optimum as floor (oracle): states    {stat(7)}")
        print(f"  with the optimum as floor: keys at one number {stat(8)}")
        print(f"  with the optimum as floor: edges              {stat(9)}")
    worst = sorted(rows, key=lambda r: -r[4])[:5]
    print("  the five racks the native core needs most nodes for:")
    for case, states, _, edges, nodes, tp, tc, *orc in worst:
        oracle = f" | oracle floor {orc[0]:,} states {orc[2]:,} edges" if orc else ""
        print(
            f"    core {nodes:>6,} nodes {tc * 1e3:6.2f} ms | proto {states:>6,} states "
            f"{edges:>8,} edges {tp * 1e3:7.0f} ms | {case[0]}{oracle}"
        )
    print("  the three racks the prototype needs most edges for:")
    for case, states, most, edges, nodes, tp, *_ in sorted(rows, key=lambda r: -r[3])[:3]:
        print(
            f"    proto {states:>6,} states ({most:,} at one number) {edges:>8,} edges "
            f"{tp * 1e3:7.0f} ms | core {nodes:>6,} nodes | {describe(case)}"
        )


def exhaustive(max_runs: int) -> int:
    """Every rack of one colour on 1..7 (0-2 copies each) with 0-4 jokers, and of two colours on
    1..4 with 0-2 jokers; keep on and off; must_use none or a joker. Each against the native core, with the cap ``max_runs`` and without
    one (the brute-force test of the exchange argument)."""
    cases: list[Case] = []
    for label, codes, most_jokers in (
        ("one colour", range(7), 4),
        ("two colours", [*range(4), *range(13, 17)], 2),
    ):
        for copies in itertools.product(range(3), repeat=len(codes)):
            for jokers in range(most_jokers + 1):
                counts = [0] * 53
                for code, k in zip(codes, copies, strict=True):
                    counts[code] = k
                counts[JOKER] = jokers
                if not sum(counts):
                    continue
                for must_use in (-1, JOKER) if jokers else (-1,):
                    cases += [(label, counts, keep, must_use) for keep in (False, True)]
    core = native()
    bad = {max_runs: 0, 0: 0}
    t0 = time.perf_counter()
    for i, case in enumerate(cases):
        if i % 20000 == 0:
            print(f"  {i} of {len(cases)} ({time.perf_counter() - t0:.0f} s)", flush=True)
        want = core_value(core, case)
        for cap in list(bad):
            got = Proto(case[1], case[2], case[3], cap).solve()
            if got != want:
                bad[cap] += 1
                if bad[cap] <= 20:
                    print(
                        f"DIFFERENT (max_runs {cap or 'unlimited'}): prototype {got}, core "
                        f"{want}; {describe(case)}",
                        flush=True,
                    )
    for cap, n in bad.items():
        print(
            f"{len(cases)} cases, max_runs {cap or 'unlimited'}: {len(cases) - n} equal to the "
            f"native core, {n} different"
        )
    print(f"({time.perf_counter() - t0:.0f} s)")
    return sum(bad.values())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true", help="values against the native core")
    mode.add_argument("--measure", action="store_true", help="values, states, nodes and times")
    mode.add_argument("--exhaustive", action="store_true", help="a small universe, every rack")
    ap.add_argument("--random", type=int, default=3000, help="random penalty racks (default 3000)")
    ap.add_argument("--seed", type=int, default=25)
    ap.add_argument(
        "--max-runs",
        type=int,
        default=2,
        help="runs in progress per colour at most (0: no cap; default 2)",
    )
    ap.add_argument(
        "--oracle",
        action="store_true",
        help="--measure: also count the states left with the optimum as a floor",
    )
    ap.add_argument("--no-dense", action="store_true", help="skip tests/dense_racks.txt")
    args = ap.parse_args(argv)
    if args.exhaustive:
        return 1 if exhaustive(args.max_runs) else 0
    bad = 0
    if not args.no_dense:
        print("tests/dense_racks.txt, every rummy101 penalty line:")
        bad += run(dense_cases(), args.max_runs, args.measure, args.oracle)
    print("racks whose runs and sets are full (the jokers' capacity):")
    bad += run(edge_cases(), args.max_runs, False)
    if args.random:
        print(f"random penalty racks (seed {args.seed}):")
        cases = list(random_cases(args.random, args.seed))
        bad += run(cases, args.max_runs, args.measure, args.oracle)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

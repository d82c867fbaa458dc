"""Differential check of two builds of the native solver: the same racks through ``solve_melds`` of
an old (oracle) and a new tree must give the same value AND the same melds, in the same order.

    PYTHONPATH=python python bench/diff_solver.py --old /work/solver-base/python --new python \
        [--random 200000] [--seed 1]

Each tree's ``rummy101._core`` runs in its own worker process (two pybind11 builds of the same
module cannot share one process); the workers solve the same case list, and the parent compares
the answers rack by rack, printing every difference (rack, rules, constraints) and exiting 1 if
there is any. Cases: every rules family and valuation the service uses (rummy101, remi, classic;
open and penalty) plus synthetic rule sets that exercise what the families leave out (a high ace
with jokers worth their position, a joker ratio of 1 and 3, a fixed joker value when opening);
keep, must_use (a tile or the joker) and require_run; random racks, joker-heavy ones (0-6 jokers
in rummy101, 0-2 Jolys in remi, up to the limit in the synthetic sets), dense ones (both
copies of a few numbers in every colour) and long runs in a few colours (ties); then the shared
racks (every workload), the dense set (tests/dense_racks.txt) and the 10,000-rack parity corpus
(tests/test_solve_parity_10k.py).
Worker CPU time and the nodes of the dense set are printed too (the budget search of
report_solve: the smallest budget that lets the search finish).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import pickle
import random
import subprocess
import sys
import tempfile
import time
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")

# (name, CoreRules args, max jokers, remi-like require_run allowed)
SYNTHETIC: list[tuple[str, tuple[Any, ...], int]] = [
    ("hiace-rummy", (True, 0, list(range(14)) + [14], list(range(14)), -1), 6),
    ("ratio1", (True, 1, [0, 5, 5, 5, 5, 5, 5, 5, 5, 5, 10, 10, 10, 10, 10],
                [0, 10, 5, 5, 5, 5, 5, 5, 5, 5, 10, 10, 10, 10], -1), 4),
    ("ratio3", (False, 3, list(range(14)) + [0], list(range(14)), -1), 2),
    ("fixedjoker-open", (False, 0, list(range(14)) + [0], list(range(14)), 20), 6),
]
FAMILIES = ("rummy101", "remi", "classic")


def rules_args(name: str, val: str) -> tuple[tuple[Any, ...], int]:
    """CoreRules arguments and the most jokers of a rules family (or synthetic set) and valuation."""
    for sname, args, mj in SYNTHETIC:
        if sname == name:
            return args, mj
    from rummy101 import Rules
    r = Rules.parse(name)
    return tuple(r.params(val).args()), r.max_rack_jokers


def random_case(rng: random.Random) -> tuple[str, str, list[int], bool, int, bool]:
    """One random rack with its rules, valuation and constraints."""
    u = rng.random()
    name = (FAMILIES[rng.randrange(3)] if u < 0.8 else SYNTHETIC[rng.randrange(len(SYNTHETIC))][0])
    val = rng.choice(["open", "open", "penalty"]) if name in FAMILIES else "open"
    _, mj = rules_args(name, val)
    counts = [0] * 53
    shape = rng.random()
    if name == "classic":
        for code in rng.sample(range(52), rng.randint(3, 14)):
            counts[code] = 1
    elif shape < 0.4:  # random
        for _ in range(rng.randint(3, 24)):
            code = rng.randrange(52)
            counts[code] = min(2, counts[code] + 1)
        counts[52] = rng.randint(0, mj)
    elif shape < 0.75:  # joker-heavy
        for _ in range(rng.randint(8, 24)):
            code = rng.randrange(52)
            counts[code] = min(2, counts[code] + 1)
        counts[52] = rng.randint(max(0, mj - 3), mj)
    elif shape < 0.9:  # dense: two copies of a few numbers in every colour, some thinned
        w = rng.randint(2, 4)
        lo = rng.randint(1, 14 - w)
        for m in range(lo, lo + w):
            for c in range(4):
                counts[c * 13 + m - 1] = rng.choice([1, 2, 2, 2, 0])
        counts[52] = rng.randint(0, mj)
    else:  # long runs: 1-3 colours with long stretches of one or two copies, a few jokers; such
        # racks tie between arrangements, where a change of the enumeration order shows (the
        # twelfth round of issue 11 changed two such Remi racks unseen by the shapes above)
        for c in rng.sample(range(4), rng.randint(1, 3)):
            lo = rng.randint(1, 8)
            for m in range(lo, min(13, lo + rng.randint(5, 12)) + 1):
                counts[c * 13 + m - 1] = rng.choice([1, 1, 2, 2, 0])
        for _ in range(rng.randint(0, 4)):
            code = rng.randrange(52)
            counts[code] = min(2, counts[code] + 1)
        counts[52] = rng.randint(0, mj)
    if name != "classic":
        counts[52] = max(0, min(counts[52], mj, 28 - sum(counts[:52])))
    keep = rng.random() < 0.7
    rr = rng.random() < (0.6 if name in ("remi", "ratio1") else 0.15)
    present = [c for c in range(53) if counts[c]]
    mu = -1
    if present and rng.random() < 0.3:
        mu = 52 if counts[52] and rng.random() < 0.3 else rng.choice(present)
    return name, val, counts, keep, mu, rr


def fixed_cases() -> list[tuple[str, str, list[int], bool, int, bool]]:
    """The shared racks (every workload), the dense set and the 10k parity corpus."""
    sys.path.insert(0, os.path.join(ROOT, "tests"))
    sys.path.insert(0, HERE)
    from rummy101 import Rules
    out: list[tuple[str, str, list[int], bool, int, bool]] = []
    try:
        from _racks import RACK_FILES, WORKLOADS, load_counts
        for name, val, keep, rr in WORKLOADS.values():
            rules = Rules.parse(name)
            for f in RACK_FILES:
                for row in load_counts(f, rules):
                    counts = [int(x) for x in row]
                    out.append((name, val, counts, keep, -1, rr))
                    present = [c for c in range(53) if counts[c]]
                    out.append((name, val, counts, not keep, present[len(present) // 2], rr))
    except FileNotFoundError:
        print("(shared racks not found: left out)", file=sys.stderr)
    from report_solve import dense_cases  # the dense set, read as report_solve reads it
    out.extend((name, val, counts, keep, mu, rr) for name, val, _, counts, keep, mu, rr in dense_cases())
    from test_solve_parity_10k import CORPUS, rack_case
    out.extend(rack_case(i) for i in range(CORPUS))
    return out


def cases(n_random: int, seed: int) -> list[tuple[str, str, list[int], bool, int, bool]]:
    rng = random.Random(f"diff-solver-{seed}")
    return [random_case(rng) for _ in range(n_random)] + fixed_cases()


def worker(path: str, n_random: int, seed: int, out: str) -> None:
    sys.path.insert(0, os.path.abspath(path))
    import rummy101
    from rummy101 import _core
    assert os.path.abspath(rummy101.__file__).startswith(os.path.abspath(path)), rummy101.__file__
    crs: dict[tuple[str, str], Any] = {}
    answers = []
    t0 = time.process_time()
    for name, val, counts, keep, mu, rr in cases(n_random, seed):
        cr = crs.get((name, val))
        if cr is None:
            cr = crs[(name, val)] = _core.CoreRules(*rules_args(name, val)[0])
        try:
            a = _core.solve_melds(cr, counts, keep, mu, rr, 1 << 62)
        except Exception as exc:  # noqa: BLE001 - an error is an answer to compare too
            a = ("error", type(exc).__name__, str(exc))
        # (the value, or the error; and a digest of the whole answer, melds in order)
        answers.append((a[0] if isinstance(a[0], int) else repr(a),
                        hashlib.blake2b(repr(a).encode(), digest_size=12).digest()))
    cpu = time.process_time() - t0
    with open(out, "wb") as f:
        pickle.dump((answers, cpu, _core.__file__), f)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--old", required=True, help="the oracle tree's python/ directory")
    ap.add_argument("--new", default=os.path.join(ROOT, "python"), help="the new tree's python/ directory")
    ap.add_argument("--random", type=int, default=200_000, help="random racks besides the fixed ones")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--values-only", action="store_true",
                    help="compare the values alone (a change that picks other melds among equal "
                         "arrangements); the racks whose melds differ are counted")
    ap.add_argument("--worker", nargs=2, metavar=("PATH", "OUT"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(args.worker[0], args.random, args.seed, args.worker[1])
        return
    with tempfile.TemporaryDirectory() as tmp:
        procs, outs = [], []
        for tag, path in (("old", args.old), ("new", args.new)):
            out = os.path.join(tmp, tag + ".pkl")
            env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.abspath(path), HERE]))
            procs.append(subprocess.Popen([sys.executable, os.path.abspath(__file__), "--old", args.old,
                                           "--random", str(args.random), "--seed", str(args.seed),
                                           "--worker", path, out], env=env))
            outs.append(out)
        for p in procs:
            if p.wait() != 0:
                sys.exit(f"a worker failed ({p.args})")
        res = []
        for out in outs:
            with open(out, "rb") as f:
                res.append(pickle.load(f))
    (a, cpu_a, file_a), (b, cpu_b, file_b) = res
    print(f"old: {file_a}  ({cpu_a:.1f} s CPU)\nnew: {file_b}  ({cpu_b:.1f} s CPU)")
    if len(a) != len(b):
        sys.exit(f"different case counts: {len(a)} vs {len(b)}")
    if args.values_only:
        moved = sum(1 for i in range(len(a)) if a[i] != b[i])
        print(f"{moved} racks with other melds (values compared below)")
        diffs = [i for i in range(len(a)) if _value(a[i]) != _value(b[i])]
    else:
        diffs = [i for i in range(len(a)) if a[i] != b[i]]
    allc = cases(args.random, args.seed) if diffs else []
    for i in diffs[:50]:
        name, val, counts, keep, mu, rr = allc[i]
        from rummy101.tiles import Tile, format_tiles
        tiles = [Tile(code) for code in range(53) for _ in range(counts[code])]
        print(f"DIFF case {i}: {name} {val} keep={keep} must_use={mu} require_run={rr} | "
              f"{format_tiles(tiles)}")
    print(f"{len(a)} racks ({args.random} random), {len(diffs)} differences")
    sys.exit(1 if diffs else 0)


def _value(answer: Any) -> Any:
    """The value (or the error) of one worker answer: (value, digest of the whole answer)."""
    return answer[0]


if __name__ == "__main__":
    main()

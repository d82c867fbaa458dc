#!/usr/bin/env python
"""Core soak: native against pure on many random and dense racks, every core function and
valuation (issue 17).

    PYTHONPATH=python python bench/soak_core.py --racks 1000000 --workers 2 --seed 17

Rack ``i`` of a run is a pure function of ``(seed, i)``: a variant (rummy101, remi, classic), a
valuation (open 60 %, penalty 40 %), a generator (uniform over the set 70 %, or *dense* 30 %: few
numbers and colours, many jokers), a size up to 28 pieces, and the solver flags (keep, must_use,
require_run). Both backends must give the same result or raise the same error with the same
message (a spent work budget included: both count nodes at the same points).

What each rack goes through (``--solve-every S``, default 4):

* every rack: ``rack_value``, the meld functions (``classify_meld``, ``meld_value``,
  ``meld_additions``, ``joker_releases``) on three samples of pieces drawn from the rack, and for
  Remi racks of 14/15 tiles the tabla functions (``tabla_patterns``/``tabla_closes``,
  ``tabla_distance``);
* every S-th rack (``i % S == 0``) the solver: ``solve_melds``, ``max_pairs`` where pairs exist,
  and on every tenth of those ``solve_melds_batch`` as well.

The pure ``solve_melds`` is ~85 % of the time when every rack is solved (8 ms a rack against
0.1 ms for everything else, measured on 600 racks of seed 0; dense racks with 3+ jokers cost
40-115 ms), so S trades solver comparisons for racks; ``--solve-every 1`` solves every rack.
The rack picked for the solver does not depend on its kind, so solver checks cover random,
dense and joker-heavy racks, every variant and both valuations in the proportions above. The
final line counts racks, comparisons per function and racks per kind.

Racks are spread over processes (each imports once and plays chunks of ``--chunk`` racks); the
run prints progress lines (racks, comparisons, mismatches, racks/s and racks per CPU second),
stops at the first mismatch printing the rack and both outcomes (exit status 1), stops at
``--minutes`` if given, and prints its totals when interrupted (SIGINT/SIGTERM, exit status 130).
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import random
import signal
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np
from rummy101 import _backend
from rummy101.rules import Rules

#: Nodes per search on both backends: dense racks spend it (identically) instead of taking
#: seconds on the pure twin.
BUDGET = 2_000
VARIANTS = (Rules.parse("rummy101"), Rules.parse("remi"), Rules.parse("classic"))
#: Every S-th rack goes through the solver functions (see the docstring).
SOLVE_EVERY = 4


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


def rack_kind(seed: int, i: int) -> str:
    """``variant/valuation/generator`` of rack ``i``, the generator ``dense`` or ``random`` with
    ``+jokers`` when the rack holds three jokers or more."""
    rng = random.Random(f"soak-core:{seed}:{i}")  # the first draws of make_rack, again
    rules = VARIANTS[rng.randrange(3)]
    valuation = "open" if rng.random() < 0.6 else "penalty"
    gen = "dense" if rng.random() < 0.3 else "random"
    jokers = make_rack(seed, i)[2][52] >= 3
    return f"{rules.variant}/{valuation}/{gen}{'+jokers' if jokers else ''}"


def check_rack(native: Any, pure: Any, seed: int, i: int, solve_every: int = SOLVE_EVERY,
               done: Counter[str] | None = None) -> int:
    """Compare the functions of rack ``i`` (see the docstring); returns the number of comparisons
    made and counts them per function in ``done``."""
    rules, valuation, counts, keep, must_use, require_run = make_rack(seed, i)
    rng = random.Random(f"soak-core-melds:{seed}:{i}")
    crs = {b: _backend.core_rules(rules, valuation, b) for b in ("native", "pure")}
    calls: list[tuple[str, Callable[[Any, Any], Any]]] = [
        ("rack_value", lambda m, cr: m.rack_value(cr, counts)),
    ]
    if i % solve_every == 0:
        calls.append(("solve_melds", lambda m, cr: m.solve_melds(
            cr, counts, keep, must_use, require_run, BUDGET)))
        if (i // solve_every) % 10 == 0:  # the batch entry point solves the same way
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
        if done is not None:
            done[name] += 1
    return len(calls)


def run_chunk(seed: int, start: int, stop: int, solve_every: int = SOLVE_EVERY
              ) -> tuple[int, Counter[str], Counter[str], float]:
    """(racks, comparisons per function, racks per kind, CPU seconds) of racks start..stop-1."""
    c0 = time.process_time()
    native, pure = _backend._load("native"), _backend._load("pure")
    done: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    for i in range(start, stop):
        check_rack(native, pure, seed, i, solve_every, done)
        kinds[rack_kind(seed, i)] += 1
    return stop - start, done, kinds, time.process_time() - c0


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class _Stop(Exception):
    """SIGTERM, raised in the main thread so that the run reports its totals before it exits."""


def _on_sigterm(signum: int, frame: Any) -> None:
    raise _Stop()


def _line(racks: int, done: Counter[str], cpu: float, elapsed: float, workers: int) -> str:
    per_cpu = f"{racks / cpu:,.0f}" if cpu else "-"
    return (f"{racks} racks, {sum(done.values())} comparisons native vs pure "
            f"({done['solve_melds']} solve_melds), 0 mismatches in {elapsed:,.0f} s on {workers} "
            f"processes ({racks / max(elapsed, 1e-9):,.0f} racks/s; {per_cpu} racks per CPU s "
            f"over {cpu:,.0f} CPU s)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--racks", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--chunk", type=int, default=200)
    ap.add_argument("--solve-every", type=int, default=SOLVE_EVERY,
                    help=f"the solver functions on every S-th rack (default {SOLVE_EVERY})")
    ap.add_argument("--minutes", type=float, default=0.0,
                    help="time box: no new chunks after this many minutes (default: none)")
    ap.add_argument("--every", type=float, default=60.0, help="seconds between progress lines")
    args = ap.parse_args(argv)
    if args.racks < 1 or args.workers < 1 or args.chunk < 1 or args.solve_every < 1:
        ap.error("racks, workers, chunk and solve-every must be >= 1")
    try:
        _backend._load("native")
    except Exception as exc:  # noqa: BLE001 - BackendError or ImportError
        ap.error(f"the native core is not built (tools/devbuild or pip install .): {exc}")
    print(f"soak_core: {args.racks} racks, seed {args.seed}, solver on every {args.solve_every} "
          f"racks, {args.workers} processes", flush=True)
    t0 = time.perf_counter()
    deadline = t0 + 60 * args.minutes if args.minutes else float("inf")
    racks, cpu = 0, 0.0
    done: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    starts = iter(range(0, args.racks, args.chunk))
    status, end, last = 0, "complete", t0
    in_main = threading.current_thread() is threading.main_thread()
    old = signal.signal(signal.SIGTERM, _on_sigterm) if in_main else None
    ex = cf.ProcessPoolExecutor(max_workers=args.workers, initializer=_ignore_sigint)
    futures: set[cf.Future[tuple[int, Counter[str], Counter[str], float]]] = set()

    def submit() -> None:
        a = next(starts, None)
        if a is not None and time.perf_counter() < deadline:
            futures.add(ex.submit(run_chunk, args.seed, a, min(a + args.chunk, args.racks),
                                  args.solve_every))

    try:
        for _ in range(2 * args.workers):
            submit()
        while futures:
            finished, _ = cf.wait(futures, return_when=cf.FIRST_COMPLETED)
            for fut in finished:
                futures.discard(fut)
                r, d, k, c = fut.result()
                racks, cpu = racks + r, cpu + c
                done.update(d)
                kinds.update(k)
                submit()
            now = time.perf_counter()
            if now - last >= args.every:
                last = now
                print(f"[{now - t0:,.0f} s] {_line(racks, done, cpu, now - t0, args.workers)}",
                      file=sys.stderr, flush=True)
        if racks < args.racks:
            end = "time box reached"
    except AssertionError as exc:
        print(f"\nMISMATCH: {exc}", file=sys.stderr, flush=True)
        status, end = 1, "MISMATCH"
    except (KeyboardInterrupt, _Stop) as exc:
        status, end = 130, f"INTERRUPTED ({'SIGTERM' if isinstance(exc, _Stop) else 'SIGINT'})"
    finally:
        if old is not None:
            signal.signal(signal.SIGTERM, old)
        for f in futures:
            f.cancel()
        ex.shutdown(wait=status == 0, cancel_futures=True)
    el = time.perf_counter() - t0
    line = _line(racks, done, cpu, el, args.workers)
    if status == 1:
        line = line.replace("0 mismatches", "1 mismatch (above)")
    print(f"soak_core summary ({end}, seed {args.seed}, solve every {args.solve_every}): {line}",
          flush=True)
    print("  comparisons per function: " + ", ".join(f"{n} {done[n]}" for n in sorted(done)),
          flush=True)
    print("  racks per variant/valuation/generator: " + ", ".join(
        f"{k} {kinds[k]}" for k in sorted(kinds)), flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())

"""Where the Remi lay-down's cost against the rummy101 opening lies (issue 11 item 3): which
racks of each shared file cost Remi the most, and what solving without the run RO-8 asks for
would save. Measured only; the solver is unchanged by it (docs/solve-rounds.md, thirty-fourth
round).

    PYTHONPATH=python:bench python bench/remi_parts.py [--passes 7]

Part 1, the run: the lay-down solved without ``require_run`` (an upper bound) is the flagged
search's answer, melds and all, whenever its melds hold a run (and when it has no melds, the
flagged search finds no lay-down, value -1); the script checks that on every such rack and prints
the Remi / opening ratio now, without the flag, and with the shortcut (the unflagged search for
every rack, the flagged one for the rest).
Part 2, the racks: each file split by its Jolys and by whether an ace could be high (RO-6: an
ace with the 12 and 13 of its colour, real or made of Jolys), each part's Remi / opening ratio.
Times are CPU times of this thread, the best of --passes interleaved passes (report_solve's
best_cpu_times), so each ratio compares times taken on the same machine.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
from collections.abc import Callable
from typing import Any

from _racks import RACK_FILES, load_counts
from report_solve import best_cpu_times
from rummy101 import Rules, _backend

NO_BUDGET = 1 << 62


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--passes", type=int, default=7, help="interleaved passes; the best is kept")
    args = ap.parse_args()
    mod: Any = _backend._load("native")
    remi, r101 = Rules.parse("remi"), Rules.parse("rummy101")
    cr_remi = _backend.core_rules(remi, "open", "native")
    cr_open = _backend.core_rules(r101, "open", "native")

    def job(cr: Any, racks: list[list[int]], flag: bool) -> Callable[[], None]:
        def solve_all() -> None:
            for c in racks:
                mod.solve_melds(cr, c, True, -1, flag, NO_BUDGET)

        return solve_all

    def run_remi(racks: list[list[int]], flag: bool) -> Callable[[], None]:
        return job(cr_remi, racks, flag)

    def run_open(racks: list[list[int]]) -> Callable[[], None]:
        return job(cr_open, racks, False)

    print(f"Part 1: the lay-down without the run first (CPU time, best of {args.passes} passes)")
    for name in RACK_FILES:
        rr = [[int(x) for x in c] for c in load_counts(name, remi)]
        ro = [[int(x) for x in c] for c in load_counts(name, r101)]
        rest, kept = [], 0
        for c in rr:
            free = mod.solve_melds(cr_remi, c, True, -1, False, NO_BUDGET)
            if free[1] and not any(kind == 1 for kind, *_ in free[1]):
                rest.append(c)
                continue
            flagged = mod.solve_melds(cr_remi, c, True, -1, True, NO_BUDGET)
            if free[1]:
                expected = free
            else:  # no meld at all, so none with a run: the flagged search finds no lay-down
                expected = (-1, [])
            if flagged != expected:
                raise SystemExit(
                    f"{name}: the unflagged answer {free} is not the flagged {flagged}"
                )
            kept += 1
        t_flag, t_free, t_rest, t_open = best_cpu_times(
            [run_remi(rr, True), run_remi(rr, False), run_remi(rest, True), run_open(ro)],
            args.passes,
        )
        print(
            f"  {name:28} kept {kept:3} of {len(rr)} (the same melds), Remi / opening now "
            f"{t_flag / t_open:.2f}x, without the run {t_free / t_open:.2f}x, "
            f"with the shortcut {(t_free + t_rest) / t_open:.2f}x"
        )

    def high_ace(c: list[int]) -> bool:
        j = c[52]
        return any(c[k * 13] and c[k * 13 + 11] + j and c[k * 13 + 12] + j for k in range(4))

    parts: list[tuple[str, Callable[[list[int]], bool]]] = [
        ("no Joly", lambda c: c[52] == 0),
        ("one Joly", lambda c: c[52] == 1),
        ("two Jolys", lambda c: c[52] == 2),
        (
            "an ace with its 12 and 13",
            lambda c: any(c[k * 13] and c[k * 13 + 11] and c[k * 13 + 12] for k in range(4)),
        ),
        ("an ace that may be high", high_ace),
        ("no ace that may be high", lambda c: not high_ace(c)),
    ]
    print(
        f"\nPart 2: Remi / opening by what the rack holds (CPU time, best of {args.passes} passes)"
    )
    for name in RACK_FILES:
        rr = [[int(x) for x in c] for c in load_counts(name, remi)]
        ro = [[int(x) for x in c] for c in load_counts(name, r101)]
        print(f"  {name}")
        for label, pred in parts:
            idx = [i for i, c in enumerate(rr) if pred(c)]
            if not idx:
                continue
            t_remi, t_open = best_cpu_times(
                [run_remi([rr[i] for i in idx], True), run_open([ro[i] for i in idx])], args.passes
            )
            print(f"    {label:28} {len(idx):4} racks  {t_remi / t_open:.2f}x")


if __name__ == "__main__":
    main()

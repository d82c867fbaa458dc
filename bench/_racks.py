"""Shared helpers of the solver benchmarks: the shared rack files and the workloads."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import numpy as np
from rummy101 import Rules, _backend
from rummy101.tiles import counts_of, parse_tiles

RACK_FILES = ("racks_14.txt", "racks_22.txt", "racks_20_plus_2_jokers.txt")


def shared_dir() -> str:
    """../shared/bench beside the checkout (or $RUMMY101_SHARED/bench)."""
    here = os.path.dirname(os.path.abspath(__file__))
    for base in (os.environ.get("RUMMY101_SHARED", ""), os.path.join(here, "..", "..", "shared"),
                 os.path.join(here, "..", "..", "..", "shared")):
        if base and os.path.isdir(os.path.join(base, "bench")):
            return os.path.join(base, "bench")
    raise FileNotFoundError("the shared benchmark racks (shared/bench) were not found; set RUMMY101_SHARED")


def load_counts(name: str, rules: Rules) -> np.ndarray:
    """The racks of one file as a (n, 53) uint8 count array. Remi racks keep at most 2 Jolys."""
    with open(os.path.join(shared_dir(), name)) as f:
        racks = [line for line in f.read().splitlines() if line.strip()]
    arr = np.array([counts_of(parse_tiles(r)) for r in racks], dtype=np.uint8)
    arr[:, 52] = np.minimum(arr[:, 52], rules.max_rack_jokers)
    return arr


# workload name -> (rules, valuation, keep, require_run): what the public solvers ask the core
WORKLOADS: dict[str, tuple[str, str, bool, bool]] = {
    "rummy101-opening": ("rummy101", "open", True, False),      # R101-7
    "remi-laydown": ("remi", "open", True, True),               # RO-8
    "rummy101-penalty": ("rummy101", "penalty", True, False),   # R101-13
}


def solver(workload: str, backend: str) -> tuple[Callable[..., Any], Rules]:
    """A one-rack call of the core for a workload on a backend: ``call(counts, budget=...)``."""
    spec, val, keep, rr = WORKLOADS[workload]
    rules = Rules.parse(spec)
    mod = _backend._load(backend)
    cr = _backend.core_rules(rules, val, backend)  # type: ignore[arg-type]
    fn = mod.solve_melds

    def call(counts: list[int], budget: int = 1 << 62) -> Any:
        return fn(cr, counts, keep, -1, rr, budget)

    return call, rules

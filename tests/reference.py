"""Independent reference checker: the best runs/sets selection of a rack as an integer program.

Written from RULES.md alone, without the project's solvers or meld code, so that the DP solvers
(native and pure) can be compared against it. Only the rule set's data is read: ``high_ace``,
``joker_ratio`` and the value tables of ``rules.open_params`` / ``rules.penalty_params``.

Model (scipy.optimize.milp / HiGHS):

* A *template* is one geometric meld: a run (colour, first position s, length L; positions
  s..s+L-1 within 1..13, or 1..14 when ``high_ace`` where position 14 is the colour's 1 after
  13, RO-6) or a set (number, colour subset of size 3 or 4). Each slot of a template wants one
  tile code. Templates whose slots cannot be filled from the rack (not enough real tiles or
  jokers) are pruned.
* ``y[t]`` = how many copies of template t are laid; ``r[t,p]`` = how many of those copies hold
  the real tile in slot p (0 <= r <= y); the other ``y - r`` copies hold a joker there.
* Tiles: for every code k, the sum of ``r`` over slots wanting k is <= counts[k]; jokers: the
  sum of ``y - r`` over all slots <= counts[52].
* Each copy holds >= 1 real tile and (RO-7) real >= ratio * jokers, i.e. real >= m(L) =
  max(1, ceil(ratio * L / (ratio + 1))). Summed over the copies of a template this is
  ``sum_p r[t,p] >= m(L) * y[t]``; it is also sufficient, because the real tiles of each slot
  (at most one per copy) can be dealt to the copies round-robin, giving each >= m(L).
* Value: a real tile or a joker in slot p is worth the slot's value (``run_value`` at the run
  position, ``set_value`` of the number); a joker is worth ``joker_value`` instead when that is
  not -1.
* Options: ``keep`` (at least one tile of the rack stays unused, R101-7/R101-12/RO-13),
  ``must_use`` (that code must be in a meld, R101-4), ``require_run`` (at least one run, RO-8).

HiGHS runs with ``mip_rel_gap=0`` so that the optimum is proven, not approximated, and with its
MIP presolve off (``OPTIONS``): HiGHS 1.12 (scipy 1.17.1) with presolve answered a Remi rack
``R1 R1 R2 R3 K1 K1 K4 * *`` (keep off, a run required) 45, reported optimal, where ``R1 R2 R3 *``
and ``R1 * K1`` make 50 (fuzz seed 4848, rack 34383: the solvers were right); HiGHS's tracker
lists several presolve bugs of that kind ("presolve returns a suboptimal solution reported as
Optimal"), none without presolve on models like these. Without presolve the models take as long
(400 racks of ``bench/fuzz_reference.py``'s seed 77: 4.0-4.2 s of CPU either way). Typical racks
(21-22 tiles, <= 2 jokers) take ~10-20 ms; racks with many button jokers (R101-10) are slower
(~0.1 s), since every template with one real tile becomes usable.

``reference_best`` returns the maximum total value, or -1 when no selection meets the options
(the empty selection counts when nothing is required). ``reference_max_pairs`` is the same for
R101-8 pairs (two equal tiles, or a tile and a joker).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from rummy101.rules import Rules, Valuation
from scipy.optimize import Bounds, LinearConstraint, milp

#: milp's options for every model here: a proven optimum (no gap), and no MIP presolve, which in
#: HiGHS 1.12 returned a suboptimal point as optimal (module docstring)
OPTIONS = {"mip_rel_gap": 0.0, "presolve": False}
from scipy.sparse import coo_matrix

__all__ = ["reference_best", "reference_max_pairs", "templates"]

JOKER = 52
NUM_CODES = 53


@dataclass(frozen=True)
class Template:
    """One geometric meld: ``codes[p]`` is the tile slot p wants, ``values[p]`` its value."""

    is_run: bool
    codes: tuple[int, ...]
    values: tuple[int, ...]


def _code(colour: int, position: int) -> int:
    number = 1 if position == 14 else position
    return colour * 13 + number - 1


def templates(rules: Rules, valuation: Valuation = "open") -> list[Template]:
    """Every run and set template of the rule set, with slot values under ``valuation``."""
    p = rules.params(valuation)
    top = 14 if p.high_ace else 13
    out: list[Template] = []
    for colour in range(4):
        for start in range(1, top + 1):
            for length in range(3, top - start + 2):
                positions = range(start, start + length)
                out.append(Template(True, tuple(_code(colour, q) for q in positions),
                                    tuple(p.run_value[q] for q in positions)))
    subsets = [(0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3), (0, 1, 2, 3)]
    for number in range(1, 14):
        for cols in subsets:
            out.append(Template(False, tuple(c * 13 + number - 1 for c in cols),
                                (p.set_value[number],) * len(cols)))
    return out


_TEMPLATE_CACHE: dict[tuple[Rules, str], list[Template]] = {}


def _templates_cached(rules: Rules, valuation: Valuation) -> list[Template]:
    key = (rules, valuation)
    if key not in _TEMPLATE_CACHE:
        _TEMPLATE_CACHE[key] = templates(rules, valuation)
    return _TEMPLATE_CACHE[key]


def _check_counts(counts: Sequence[int], must_use: int) -> list[int]:
    cs = [int(c) for c in counts]
    if len(cs) != NUM_CODES or any(c < 0 for c in cs):
        raise ValueError(f"counts must be 53 non-negative integers, got {list(counts)!r}")
    if not -1 <= must_use < NUM_CODES:
        raise ValueError(f"must_use must be -1 or a code 0-52, got {must_use}")
    return cs


def _min_real(length: int, ratio: int) -> int:
    return max(1, math.ceil(ratio * length / (ratio + 1)))


def reference_best(rules: Rules, counts: Sequence[int], *, valuation: Valuation = "open",
                   keep: bool = True, must_use: int = -1, require_run: bool = False) -> int:
    """Maximum total value of disjoint runs/sets from ``counts`` (53 entries), or -1."""
    cs = _check_counts(counts, must_use)
    params = rules.params(valuation)
    ratio, jv = params.joker_ratio, params.joker_value
    jokers = cs[JOKER]
    total_tiles = sum(cs)
    if must_use >= 0 and cs[must_use] == 0:
        return -1

    # Prune: a template is usable if its slots can be filled with >= m real tiles present on
    # the rack and jokers for the rest.
    usable: list[Template] = []
    for t in _templates_cached(rules, valuation):
        have = sum(1 for c in t.codes if cs[c] > 0)
        if have >= _min_real(len(t.codes), ratio) and len(t.codes) - have <= jokers:
            usable.append(t)

    if not usable:
        feasible = (not keep or total_tiles >= 1) and must_use < 0 and not require_run
        return 0 if feasible else -1

    # Variables: for each template, y then r[0..L-1].
    col = 0
    y_idx: list[int] = []
    r_idx: list[list[int]] = []
    for t in usable:
        y_idx.append(col)
        r_idx.append(list(range(col + 1, col + 1 + len(t.codes))))
        col += 1 + len(t.codes)
    nvar = col
    objective = np.zeros(nvar)
    upper = np.zeros(nvar)
    rows: list[int] = []
    cols: list[int] = []
    vals: list[float] = []
    lo: list[float] = []
    hi: list[float] = []
    row = 0

    def add(entries: list[tuple[int, float]], low: float, high: float) -> None:
        nonlocal row
        for c, v in entries:
            rows.append(row)
            cols.append(c)
            vals.append(v)
        lo.append(low)
        hi.append(high)
        row += 1

    per_code: dict[int, list[int]] = {}
    joker_entries: list[tuple[int, float]] = []
    used_entries: list[tuple[int, float]] = []
    for t, y, rs in zip(usable, y_idx, r_idx):
        length = len(t.codes)
        max_copies = min(min(cs[c] + jokers for c in t.codes), (total_tiles // length))
        upper[y] = max_copies
        for c, v, r in zip(t.codes, t.values, rs):
            upper[r] = min(cs[c], max_copies)
            per_code.setdefault(c, []).append(r)
            # real tile worth v; joker worth v (or jv): objective v*r + jval*(y - r)
            jval = v if jv < 0 else jv
            objective[r] += v - jval
            objective[y] += jval
            add([(r, 1.0), (y, -1.0)], -np.inf, 0.0)  # r <= y
            joker_entries += [(y, 1.0), (r, -1.0)]
        # real tiles >= m * copies
        add([(r, 1.0) for r in rs] + [(y, -float(_min_real(length, ratio)))], 0.0, np.inf)
        used_entries.append((y, float(length)))

    for c, rs in per_code.items():
        add([(r, 1.0) for r in rs], -np.inf, float(cs[c]))
    add(joker_entries, -np.inf, float(jokers))
    if keep:
        add(used_entries, -np.inf, float(total_tiles - 1))
    if must_use >= 0:
        if must_use == JOKER:
            add(joker_entries, 1.0, np.inf)
        elif per_code.get(must_use):
            add([(r, 1.0) for r in per_code[must_use]], 1.0, np.inf)
        else:
            return -1
    if require_run:
        runs = [(y, 1.0) for t, y in zip(usable, y_idx) if t.is_run]
        if not runs:
            return -1
        add(runs, 1.0, np.inf)

    a = coo_matrix((vals, (rows, cols)), shape=(row, nvar)).tocsr()
    res = milp(-objective, constraints=LinearConstraint(a, lo, hi),
               integrality=np.ones(nvar), bounds=Bounds(np.zeros(nvar), upper),
               options=OPTIONS)
    if res.status == 2:  # infeasible
        return -1
    if res.status != 0 or res.x is None:
        raise RuntimeError(f"milp did not solve the reference model: {res.message}")
    return round(-res.fun)


def reference_max_pairs(counts: Sequence[int], *, keep: bool = True, must_use: int = -1) -> int:
    """Most R101-8 pairs (two equal real tiles, or a real tile and a joker) from ``counts``,
    or -1 when the options cannot be met (0 pairs is a valid answer when nothing is required)."""
    cs = _check_counts(counts, must_use)
    jokers, total = cs[JOKER], sum(cs)
    if must_use >= 0 and cs[must_use] == 0:
        return -1
    real = [k for k in range(JOKER) if cs[k] > 0]
    if not real:
        feasible = (not keep or total >= 1) and must_use < 0
        return 0 if feasible else -1
    # variables: p_k (two real k), q_k (real k + joker) for each k in real
    n = 2 * len(real)
    rows, cols, vals, lo, hi = [], [], [], [], []
    r = 0
    for i, k in enumerate(real):
        rows += [r, r]
        cols += [2 * i, 2 * i + 1]
        vals += [2.0, 1.0]
        lo.append(-np.inf)
        hi.append(float(cs[k]))
        r += 1
    rows += [r] * len(real)
    cols += [2 * i + 1 for i in range(len(real))]
    vals += [1.0] * len(real)
    lo.append(-np.inf)
    hi.append(float(jokers))
    r += 1
    if keep:
        rows += [r] * n
        cols += list(range(n))
        vals += [2.0] * n
        lo.append(-np.inf)
        hi.append(float(total - 1))
        r += 1
    if must_use >= 0:
        if must_use == JOKER:
            rows += [r] * len(real)
            cols += [2 * i + 1 for i in range(len(real))]
            vals += [1.0] * len(real)
        else:
            i = real.index(must_use)
            rows += [r, r]
            cols += [2 * i, 2 * i + 1]
            vals += [2.0, 1.0]
        lo.append(1.0)
        hi.append(np.inf)
        r += 1
    a = coo_matrix((vals, (rows, cols)), shape=(r, n)).tocsr()
    res = milp(-np.ones(n), constraints=LinearConstraint(a, lo, hi), integrality=np.ones(n),
               bounds=Bounds(np.zeros(n), np.full(n, 64.0)), options=OPTIONS)
    if res.status == 2:
        return -1
    if res.status != 0 or res.x is None:
        raise RuntimeError(f"milp did not solve the pairs model: {res.message}")
    return round(-res.fun)

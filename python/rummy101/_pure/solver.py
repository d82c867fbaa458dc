"""Pure-Python twin of cpp/src/solver.cpp and cpp/src/pairs.cpp.

The algorithm, the decision order and the tie-break are the same as in C++, line for line, so that
both backends return the same value *and* the same melds in the same order (tests/test_solve_parity.py).

``solve_melds`` is an exact memoized search over the numbers 1..13 (and 14, the high ace, when
``cr.high_ace``). The state at number ``n`` holds, for every colour, the multiset of runs in
progress, each described by a small *status* (length capped at 3, real tiles capped at ``rcap``,
jokers when a joker ratio applies), plus the aces reserved for the high end (RO-6), the unused
jokers and two constraint flags (a tile left on the rack; a run closed). At each number every run
in progress is extended with a real tile, extended with a joker, or closed; new runs start;
the remaining tiles of that number go to sets or stay on the rack; jokers may join the sets.
Set feasibility depends only on how many tiles of each colour and how many jokers go to sets, so
it is a precomputed table. Values are added tile by tile (a meld's value is the sum of its
positions), so the search value of a state is exact and the answer is optimal. The arrangement is
rebuilt by walking the same enumeration and taking the first transition that attains the optimum.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import WorkBudgetExceeded
from ._common import JOKER, KIND_RUN, KIND_SET, NUM_CODES, CoreInputError, CoreRules, to_counts

__all__ = ["BUDGET_SPENT", "DEFAULT_WORK_BUDGET", "UNLIMITED_BUDGET", "SolvedMelds", "max_pairs",
           "solve_melds", "solve_melds_batch", "solve_melds_packed", "solve_melds_value",
           "solve_values_batch"]

NEG = -(1 << 40)
STOP = 1 << 29  # no stop value (C++ STOP); as an alpha, no bound passes it
MAX_COPIES = 2   # the solver's input limit: real tiles per code (R101-1, RO-1, CR-1 sets)
MAX_JOKERS = 6   # 2 in the set + up to 4 joker-button jokers (R101-10: one per player)

MeldOut = tuple[int, list[int], list[int]]

# ---- work budget (issue 11; same constants and message as cpp/include/rummy101/solver.hpp) ---
DEFAULT_WORK_BUDGET = 2_000_000
UNLIMITED_BUDGET = (1 << 62) - 1
BUDGET_SPENT = -2   # solve_melds_batch: the value of a rack that spent its budget


def budget_message(budget: int) -> str:
    return (f"the rack is too dense to solve within {budget} search nodes; give the search more "
            "nodes (rummy101.solve.work_budget) or ask about a smaller rack")


def _check_budget(budget: int) -> int:
    budget = operator.index(budget)
    if budget < 1:
        raise CoreInputError(f"budget must be a whole number of search nodes >= 1, got {budget}")
    return budget

# ---- set feasibility (which sets can be formed at one number) --------------------------------
SJ = MAX_JOKERS + 1
SetChoice = tuple[tuple[int, int, int, int], int, int]   # (tiles per colour, jokers, total)
_SET_TABLES: dict[int, tuple[list[bool], list[tuple[int, int]], list[list[SetChoice]]]] = {}


def _set_groups(ratio: int) -> list[tuple[int, int]]:
    """Every single set as (colour mask, jokers), in the fixed decomposition order:
    jokers ascending, then more real colours first, then mask ascending."""
    groups = []
    for jg in range(4):
        for pc in range(4, 0, -1):
            for mask in range(1, 16):
                if mask.bit_count() != pc:
                    continue
                size = pc + jg
                if size < 3 or size > 4:
                    continue
                if pc < ratio * jg:
                    continue
                groups.append((mask, jg))
    return groups


def _sidx(s: Sequence[int], j: int) -> int:
    return (((s[0] * 3 + s[1]) * 3 + s[2]) * 3 + s[3]) * (MAX_JOKERS + 1) + j


def _set_table(ratio: int) -> tuple[list[bool], list[tuple[int, int]], list[list[SetChoice]]]:
    """feasible[_sidx(s, j)]: tiles ``s[c]`` of colour c (0..2) and ``j`` jokers can be split into
    valid sets (3-4 distinct colours, >= 1 real tile, real >= ratio * jokers, RO-7); and
    choices[ridx * SJ + jr]: every feasible (tiles per colour <= rest, jokers <= jr), most tiles
    first (ridx = rest vector in base 3), the value search's order (as in C++)."""
    tab = _SET_TABLES.get(ratio)
    if tab is not None:
        return tab
    groups = _set_groups(ratio)
    size = 81 * SJ
    feas = [False] * size
    feas[0] = True
    # closure: process states in increasing total order (s and j only grow)
    order = sorted(((a, b, c, d, j) for a in range(3) for b in range(3) for c in range(3)
                    for d in range(3) for j in range(MAX_JOKERS + 1)),
                   key=lambda t: sum(t))
    for a, b, c, d, j in order:
        if not feas[_sidx((a, b, c, d), j)]:
            continue
        for mask, jg in groups:
            s2 = [a + (mask & 1), b + ((mask >> 1) & 1), c + ((mask >> 2) & 1), d + ((mask >> 3) & 1)]
            j2 = j + jg
            if max(s2) <= 2 and j2 <= MAX_JOKERS:
                feas[_sidx(s2, j2)] = True
    choices: list[list[SetChoice]] = []
    for ridx in range(81):
        rest = (ridx // 27, (ridx // 9) % 3, (ridx // 3) % 3, ridx % 3)
        for jr in range(SJ):
            out: list[SetChoice] = []
            for a in range(rest[0] + 1):
                for b in range(rest[1] + 1):
                    for c in range(rest[2] + 1):
                        for d in range(rest[3] + 1):
                            for j in range(jr + 1):
                                if a + b + c + d == 0 and j > 0:
                                    continue
                                if feas[_sidx((a, b, c, d), j)]:
                                    out.append(((a, b, c, d), j, a + b + c + d + j))
            out.sort(key=lambda ch: -ch[2])
            choices.append(out)
    tab = (feas, groups, choices)
    _SET_TABLES[ratio] = tab
    return tab


# ---- the search -----------------------------------------------------------------------------
def _pack(sts: Sequence[int]) -> int:
    """Run statuses of one colour as C++ packs them: sorted ascending, byte i = status + 1."""
    k = 0
    for i, v in enumerate(sorted(sts)):
        k |= (v + 1) << (8 * i)
    return k


def _run_count(k: int) -> int:
    """How many runs a packed run list holds (one non-zero byte each, _pack)."""
    return (k.bit_length() + 7) >> 3


def _unpack(k: int) -> list[int]:
    out = []
    while k:
        out.append((k & 0xFF) - 1)
        k >>= 8
    return out


_K_ORDER = (0, 2, 1)   # value order of the actions on a run: extend real, close, extend joker
_K_RANK = (0, 2, 1)    # rank of each action in that order
_EMPTY = (0, 0, 0, 0)


class _Frame:
    """Per-number scratch of the search (struct Frame in C++)."""

    __slots__ = (
        "a_new",
        "acts",
        "alpha",
        "avail",
        "avail_w",
        "b_new",
        "best",
        "cols_here",
        "dec",
        "ext",
        "found",
        "j0",
        "jr_start",
        "jused",
        "lead",
        "left_in",
        "lst",
        "n",
        "new_runs",
        "rest",
        "runs_in",
        "s",
        "stop",
        "sv",
        "svw",
        "ub_after",
        "ub_cut",
        "w",
        "want",
    )

    def __init__(self) -> None:
        self.n = 0
        self.lst: list[list[int]] = [[], [], [], []]
        self.avail = [0, 0, 0, 0]
        self.ext: list[list[int]] = [[0] * 8 for _ in range(4)]
        self.acts: list[list[int]] = [[0] * 8 for _ in range(4)]
        self.a_new = [0, 0, 0, 0]
        self.b_new = [0, 0, 0, 0]
        self.lead: list[tuple[int, int]] = [(0, 0)] * 4
        self.s = [0, 0, 0, 0]
        self.new_runs = [0, 0, 0, 0]
        self.sv = [0, 0, 0, 0]
        self.svw = [0, 0, 0, 0, 0]
        self.jr_start = [0, 0, 0, 0]
        self.rest = [0, 0, 0, 0]
        self.jused = [0, 0, 0, 0]
        self.cols_here = 0
        self.w = [0, 0, 0, 0]
        self.avail_w = [0, 0, 0, 0, 0]
        self.runs_in = [0, 0, 0, 0]
        self.ub_after = 0
        self.left_in = False
        self.j0 = 0
        self.best = NEG
        self.alpha = NEG
        self.stop = STOP
        self.ub_cut = NEG
        self.found = False
        self.want = 0
        self.dec: Any = None


class _Solver:
    """One rack under one CoreRules: the line-for-line twin of struct Solver in
    cpp/src/solver.cpp (same states, same order, same cuts, so the same node count)."""

    def __init__(self, cr: CoreRules, counts: list[int], keep: bool, must_use: int,
                 require_run: bool, budget: int = DEFAULT_WORK_BUDGET,
                 nodes: list[int] | None = None, opt14: bool = False) -> None:
        self.cr = cr
        self.cnt = counts
        self.J = counts[JOKER]
        self.keep = keep
        self.must_use = must_use
        self.require_run = require_run
        self.ratio = cr.joker_ratio
        self.budget = budget
        self.nodes = nodes if nodes is not None else [0]   # shared with a relaxed solver
        if self.ratio > 0:
            self.jcap = self.J
            self.rcap = max(1, self.ratio * self.J)
        else:
            self.jcap = 0
            self.rcap = 1
        self.last = 14 if cr.high_ace else 13
        self.jmul = 3 * (self.rcap + 1)
        self.jrun = [cr.run_value[n] if cr.joker_value == -1 else cr.joker_value for n in range(15)]
        self.jset = [cr.set_value[n] if cr.joker_value == -1 else cr.joker_value for n in range(14)]
        self.feas, self.groups, self.choices = _set_table(self.ratio)
        if 0 <= must_use < JOKER:
            self.mu_c, self.mu_n = must_use // 13, must_use % 13 + 1
        else:
            self.mu_c, self.mu_n = -1, -1
        # no joker-only runs: a run takes its leading jokers where it starts (C++ vafter_lead);
        # then no joker dominance (a joker laid below n cannot be swapped for a tile left at n)
        self.lead_mode = self.ratio == 0 and not cr.high_ace and self.J > 0
        self.dominance = cr.joker_value == -1 and must_use != JOKER and not self.lead_mode
        # (only with >= 4 jokers: below, the bound costs more than it cuts; C++ jpad)
        self.jpad = cr.joker_value >= 0 and self.ratio == 0 and self.J >= 4
        self.memo: dict[Any, tuple[int, bool]] = {}
        self.tcache: dict[tuple[int, int, int, int, int, int],
                          list[tuple[int, int, int, int, int, bool, int, int]]] = {}
        self.frames = [_Frame() for _ in range(16)]
        self.res = [0, 0, 0, 0]
        self.res_bits = 0
        self.relax: _Solver = self
        # the fresh values that bound a state are this search's own with a tile left and a run
        # made, whatever its flags (one Joly: solve_melds; C++ own_relax)
        self.own_relax = False
        # the relaxed twin has the same rules (no joker ratio, no high ace), so the same states:
        # suffix_bound takes its memoized value of a state too (C++ twin_states)
        self.twin_states = False
        # the relaxed twin's high aces (solve_melds): optional at 14, up to the most any
        # reservation holds, so that one search serves every reservation
        self.opt14 = opt14
        self.pres = [0, 0, 0, 0]
        for c in range(4):
            for m in range(1, 15):
                if self.count_at(c, m) > 0:
                    self.pres[c] |= 1 << m
        self.ncols = [0] * 14
        for m in range(1, 14):
            self.ncols[m] = sum(1 for c in range(4) if counts[c * 13 + m - 1] > 0)
        self.init_bounds()
        self.init_ub_state()
        self.init_ja()
        self.reset_fresh()
        # A tile that fits no meld stays on the rack in every arrangement: drop "keep a tile".
        if self.keep:
            for code in range(JOKER):
                c, m = code // 13, code % 13 + 1
                if counts[code] > 0 and not self.useful[c][m] and not (m == 1 and self.useful[c][14]):
                    self.keep = False
                    break

    # ---- bounds ---------------------------------------------------------------------------
    def count_at(self, c: int, m: int) -> int:
        if m < 1 or m > self.last:
            return 0
        return self.cnt[c * 13 + (m if m <= 13 else 1) - 1]

    def can_meld(self, c: int, m: int, jokers: int, first_start: int = -99) -> bool:
        if m > 13 and not self.cr.high_ace:
            return False
        if m <= 13 and self.ncols[m] + jokers >= 3:
            return True
        for s0 in range(max(m - 2, first_start), m + 1):
            if s0 < 1 or s0 + 2 > self.last:
                continue
            miss = sum(1 for p in range(s0, s0 + 3) if p != m and not (self.pres[c] >> p) & 1)
            if miss <= jokers:
                return True
        return False

    def init_bounds(self) -> None:
        cr, J, cnt = self.cr, self.J, self.cnt
        u0 = [[False] * 15 for _ in range(4)]
        self.useful = [[False] * 15 for _ in range(4)]
        for c in range(4):
            for m in range(1, 15):
                u0[c][m] = self.can_meld(c, m, 0)
                self.useful[c][m] = u0[c][m] or (J > 0 and self.can_meld(c, m, J))
        tile_ub = [0] * 16
        ub_tiles = [0] * 16
        jmax = [0] * 16
        for m in range(1, 14):
            tile_ub[m] = max(cr.run_value[m], cr.set_value[m])
        if cr.high_ace:
            tile_ub[1] = max(tile_ub[1], cr.run_value[14])
        k = 4 * J
        self.ub_tiles_j = [[0] * SJ for _ in range(16)]
        top: list[int] = []   # values of joker-needing tiles at numbers >= m (the k best count)
        sure = 0
        for m in range(13, 0, -1):
            for c in range(4):
                n_t = cnt[c * 13 + m - 1]
                if not n_t:
                    continue
                if u0[c][m] or (m == 1 and u0[c][14]):
                    sure += n_t * tile_ub[m]
                    continue
                if not (self.useful[c][m] or (m == 1 and self.useful[c][14])):
                    continue
                top.extend([tile_ub[m]] * n_t)
            top.sort(reverse=True)
            del top[k:]
            ub_tiles[m] = sure + sum(top)
            self.ub_tiles_j[m] = [sure + sum(top[:4 * x]) for x in range(SJ)]
        jm = 0
        for m in range(15, 0, -1):
            if m <= 14 and m <= self.last:
                jm = max(jm, self.jrun[m])
            if m <= 13:
                jm = max(jm, self.jset[m])
            jmax[m] = jm
        self.tile_ub, self.ub_tiles, self.jmax = tile_ub, ub_tiles, jmax

    def init_ub_state(self) -> None:
        cnt, tile_ub = self.cnt, self.tile_ub
        self.ubs_fresh = [[0] * SJ for _ in range(16)]
        self.ubs_run = [[[0] * 4 for _ in range(SJ)] for _ in range(16)]
        for n in range(1, 15):
            for x in range(self.J + 1):
                u = self.ub_tiles_j[min(n + 2, 15)][x]
                for c in range(4):
                    d = 0
                    for m in range(n, min(n + 1, 13) + 1):
                        k = cnt[c * 13 + m - 1]
                        if not k:
                            continue
                        # (lead_mode: its run may start below n, with jokers)
                        fresh = self.can_meld(c, m, x, -99 if self.lead_mode else m if m == n else m - 1)
                        if fresh:
                            u += k * tile_ub[m]
                        if self.useful[c][m] and not fresh:
                            d += k * tile_ub[m]
                        if not self.useful[c][m] and fresh:
                            d -= k * tile_ub[m]
                    self.ubs_run[n][x][c] = d
                self.ubs_fresh[n][x] = u

    def ub_state_runs(self, n: int, runs: Sequence[int], jr: int) -> int:
        u = self.ubs_fresh[n][jr]
        if n >= 2 or self.opt14:
            u += sum(self.res) * self.cr.run_value[14]
        for c in range(4):
            if runs[c]:
                u += self.ubs_run[n][jr][c]
        return u

    def ub_state_j(self, n: int, base: int, jr: int) -> int:
        if n > self.last:
            return 0
        return min(base + self.jb[n][jr], self.ub_from(n, jr))

    def ub_state(self, n: int, runs: Sequence[int], jr: int) -> int:
        if n > self.last:
            return 0
        return self.ub_state_j(n, self.ub_state_runs(n, runs, jr), jr)

    def ub_from(self, n: int, jr: int) -> int:
        if n > self.last:
            return 0
        u = self.ub_tiles[n] + self.jb[n][jr]
        if n >= 2 or self.opt14:   # (the twin's aces are at 1 and at 14)
            u += sum(self.res) * self.cr.run_value[14]
        return u

    # ---- the suffix bound (see cpp/src/solver.cpp) --------------------------------------------
    def init_ja(self) -> None:
        self.ja = [[0] * SJ for _ in range(16)]
        for m in range(1, 16):
            acc = pm = 0
            for x in range(1, SJ):
                p = min(m + x, self.last)   # a joker of a short tail may stand at m + 1
                if m <= self.last:
                    pm = max(pm, self.jrun[p])
                acc += pm
                self.ja[m][x] = acc

    def init_jb(self) -> None:
        """The joker chain bound jb[n][x] (see cpp/src/solver.cpp init_jb), per reservation."""
        last, jrun, jset = self.last, self.jrun, self.jset
        self.jb = [[0] * SJ for _ in range(16)]
        for n in range(1, 16):
            top = n - 1
            for m in range(n, last + 1):
                for c in range(4):
                    if self.avail(m, c) > 0:
                        top = m
            pm = 0
            for p in range(n, min(top, last) + 1):
                pm = max(pm, jrun[p])
                if p <= 13:
                    pm = max(pm, jset[p])
            row = self.jb[n]
            for i in range(1, SJ):
                if top + i <= last:
                    pm = max(pm, jrun[top + i])
                row[i] = row[i - 1] + pm

    def jrest(self, n: int, j0: int, x: int) -> int:
        """x jokers still free at n when j0 were free on entering it: the x largest U_i."""
        row = self.jb[n]
        return row[j0] - row[j0 - x]

    def jfree(self, n: int, j0: int, x: int, need: int, needv: int) -> int:
        """jrest when `need` of the x jokers stand in runs at n + 1, n + 2 worth needv (C++ jfree)."""
        if need > x:
            return self.jrest(n, j0, x)
        row = self.jb[n]
        return needv + row[j0] - row[j0 - x + need]

    def init_run_need(self) -> None:
        """require_run (RO-8): run_need[n], the fewest jokers a run lying wholly at >= n needs
        (J + 1: none fits); a state with no run made and none in progress and fewer jokers free is
        NEG (C++ init_run_need)."""
        last, ratio = self.last, self.ratio
        self.run_need = [self.J + 1] * 16
        if self.lead_mode:
            self.init_run_need_lead()
            return
        for n in range(last, 0, -1):
            b = self.run_need[n + 1]
            for c in range(4):
                if b == 0:
                    break
                real = 0
                for e in range(n, last + 1):
                    real += 1 if self.avail(e, c) > 0 else 0
                    ln = e - n + 1
                    jk = ln - real
                    if jk >= b:
                        break
                    if ln >= 3 and real >= 1 and real >= ratio * jk:
                        b = jk
            self.run_need[n] = b

    def init_run_need_lead(self) -> None:
        """run_need with leading jokers: a run whose real tiles lie at >= n may have jokers below
        n (C++ init_run_need_lead)."""
        last = self.last
        for n in range(last, 0, -1):
            b = self.J + 1
            for c in range(4):
                for s0 in range(1, last - 1):
                    real = 0
                    for e in range(s0, last + 1):
                        if e >= n and self.avail(e, c) > 0:
                            real += 1
                        if e - s0 + 1 >= 3 and real >= 1:
                            b = min(b, e - s0 + 1 - real)
            self.run_need[n] = b

    def init_res_need(self) -> None:
        """Reserved high aces (RO-6): res_need[n], the jokers their own runs ...-12-13-14 need at
        12 and 13 (those >= n) beyond the real tiles there (C++ init_res_need)."""
        self.res_need = [0] * 16
        for n in range(1, 16):
            need = 0
            for c in range(4):
                for m in (12, 13):
                    if m >= n and self.res[c] > 0:
                        need += max(0, self.res[c] - self.avail(m, c))
            self.res_need[n] = need

    def reset_fresh(self) -> None:
        self.init_jb()
        if self.require_run:
            self.init_run_need()
        if self.res_bits:
            self.init_res_need()
        self.fresh_v: dict[tuple[int, int, bool, bool], int] = {}
        self.g_v: dict[tuple[int, int, bool], int] = {}
        self.h_v: dict[tuple[int, bool], list[int]] = {}
        last = self.last
        self.all_v = [0] * 16
        self.min_v = [0] * 16
        self.min_v[last + 1] = 1 << 29
        for m in range(last, 0, -1):
            v = self.tile_ub[m] if m <= 13 else self.cr.run_value[14]
            a = sum(self.avail(m, c) for c in range(4))
            self.all_v[m] = self.all_v[m + 1] + a * v
            self.min_v[m] = min(self.min_v[m + 1], v) if a > 0 else self.min_v[m + 1]

    def keep_bound(self, m: int, jr: int) -> int:
        b = NEG   # a tile stays, or a joker stays
        if self.min_v[m] < 1 << 29:
            b = self.all_v[m] - self.min_v[m] + self.jb[m][jr]
        if jr > 0:
            b = max(b, self.all_v[m] + self.jb[m][jr - 1])
        return b

    def fresh(self, m: int, j: int, left: bool, ran: bool) -> int:
        # without keep (or require_run) the flag changes no value: one search serves both; with
        # own_relax both are set (upper bounds of the other three)
        left = self.keep and (left or self.own_relax)
        ran = self.require_run and (ran or self.own_relax)
        key = (m, j, left, ran)
        v = self.fresh_v.get(key)
        if v is None:
            v = self.best(m, _EMPTY, j, left, ran, NEG)
            self.fresh_v[key] = v
        return v

    def suffix_bound(self, m: int, runs: Sequence[int], jr: int, left: bool, ran: bool) -> int:
        s = self.relax
        if not (runs[0] | runs[1] | runs[2] | runs[3]):
            return s.fresh(m, jr, left, ran)
        # aces reserved for the high end must be laid; from 13 on a short tail may hold them,
        # which the fresh suffix (that has to lay them itself) does not allow: no bound there
        if m >= 13 and any(self.res):
            return 1 << 29
        gk = (m, jr, left)
        g = self.g_v.get(gk)
        if g is None:
            rr = self.require_run
            g = NEG
            for x in range(jr + 1):
                f = s.fresh(m, jr - x, left, rr)
                if f > NEG:
                    g = max(g, f + self.ja[m][x])
            self.g_v[gk] = g
        if g <= NEG:
            return NEG
        if self.jpad and m + 2 <= self.last and not self.res_bits and jr < s.J:
            g = self.padded_bound(m, runs, jr, left)
        else:
            for c in range(4):
                k = _run_count(runs[c])
                if not k:
                    continue
                g += min(k, self.avail(m, c)) * self.cr.run_value[m]
                if m + 1 <= self.last:
                    g += min(k, self.avail(m + 1, c)) * self.cr.run_value[m + 1]
        if self.twin_states:
            # the same state in the relaxed twin is worth at least as much: its memoized value
            # (exact or an upper bound) bounds this one (C++ suffix_bound)
            e = s.memo.get((m, runs[0], runs[1], runs[2], runs[3], jr, False, False, 0))
            if e is not None and e[0] < g:
                g = e[0]
        return g

    def padded_bound(self, m: int, runs: Sequence[int], jr: int, left: bool) -> int:
        # fixed joker value, no joker ratio (issue 11, ninth round): a short tail holding a real
        # tile, padded with jokers at its end, is a run of the fresh suffix; per colour the tails
        # of r of its runs are padded (at most pc jokers) and the real tiles of the others count
        # (tc); cost[p]: the least tc of all colours with p jokers of padding
        s = self.relax
        J, rv = s.J, self.cr.run_value
        room = J - jr
        cost = [0] + [1 << 29] * room
        for c in range(4):
            rc = runs[c]
            if not rc:
                continue
            k = k1 = 0
            while rc:
                k += 1
                if ((rc & 0xFF) - 1) % 3 == 0:
                    k1 += 1
                rc >>= 8
            am, am1 = self.avail(m, c), self.avail(m + 1, c)
            nxt = [1 << 29] * (room + 1)
            for r in range(k + 1):
                a1 = min(am, r, k - k1)
                pc = 2 * a1 + min(r - a1, am + am1 - a1)
                tc = min(k - r, am) * rv[m] + min(k - r, am1) * rv[m + 1]
                for p in range(room + 1 - pc):
                    nxt[p + pc] = min(nxt[p + pc], cost[p] + tc)
            cost = nxt
        v = self.cr.joker_value
        b = NEG
        for p in range(room + 1):
            if cost[p] >= 1 << 29:
                continue
            h = s.hpad(m, left, jr + p)
            u = NEG if h <= NEG else v * jr + h + cost[p]
            b = u if b == NEG or u < b else b
        return b

    def hpad(self, m: int, left: bool, j: int) -> int:
        """The most fresh(m, j') - v * j' over j' <= j (a fixed joker value v; C++ hpad), computed
        on demand in order of j (the fresh values it asks for may search: the same order)."""
        lst = self.h_v.get((m, left))
        if lst is None:
            lst = self.h_v[(m, left)] = []
        v = self.cr.joker_value
        while len(lst) <= j:
            i = len(lst)
            f = self.fresh(m, i, left, self.require_run)
            h = f - v * i if f > NEG else NEG
            if i > 0 and lst[i - 1] > h:
                h = lst[i - 1]
            lst.append(h)
        return lst[j]

    # ---- run statuses ---------------------------------------------------------------------
    def st_real(self, st: int) -> int:
        return (st // 3) % (self.rcap + 1)

    def st_jok(self, st: int) -> int:
        return st // self.jmul

    def closable(self, st: int) -> bool:
        real = self.st_real(st)
        return st % 3 == 2 and real >= 1 and real >= self.ratio * self.st_jok(st)

    def ext_real(self, st: int) -> int:
        ln = min(st % 3 + 1, 2)
        real = min(self.st_real(st) + 1, self.rcap)
        return ln + 3 * real + self.jmul * self.st_jok(st)

    def ext_joker(self, st: int) -> int:
        ln = min(st % 3 + 1, 2)
        jk = self.st_jok(st) + (1 if self.ratio > 0 else 0)
        return ln + 3 * self.st_real(st) + self.jmul * jk

    def new_joker(self) -> int:
        return self.jmul if self.ratio > 0 else 0

    def need_of(self, n: int, c: int, packed: int) -> tuple[int, int]:
        """The jokers the runs of colour c in progress at n + 1 (packed) need, at least, and their
        value there (C++ need_of): a run that cannot close there takes a tile at n + 1, one of
        length 1 a tile at n + 2 too."""
        k1 = k2 = 0
        while packed:
            st = (packed & 0xFF) - 1
            packed >>= 8
            if not self.closable(st):
                k1 += 1
            if st % 3 == 0:
                k2 += 1
        if not k1:
            return 0, 0
        m = n + 1
        if m > self.last:
            return 99, 0
        need = max(0, k1 - self.avail(m, c))
        val = need * self.jrun[m]
        if k2:
            if m + 1 > self.last:
                return 99, 0
            n2 = max(0, k2 - self.avail(m + 1, c))
            need += n2
            val += n2 * self.jrun[m + 1]
        return need, val

    def avail(self, n: int, c: int) -> int:
        if n == 14:
            return self.res[c]
        a = self.cnt[c * 13 + n - 1]
        if n == 1 and not self.opt14:   # (the relaxed twin's aces stay at 1 too: C++ set_res_now)
            a -= self.res[c]
        return a

    def terminal(self, runs: Sequence[int], jr: int, left: bool, ran: bool) -> int:
        for c in range(4):
            for st in _unpack(runs[c]):
                if not self.closable(st):
                    return NEG
                ran = True
        if self.keep and not left and jr == 0:
            return NEG
        if self.require_run and not ran:
            return NEG
        if self.must_use == JOKER and jr == self.J:
            return NEG
        return 0

    def leaf14(self, runs: Sequence[int], jr: int, left: bool, ran: bool) -> int:
        """The exact value of a state at 14 (the high ace, RO-6; C++ leaf14): each run in progress
        takes an ace of its colour, a joker or closes, the aces at 14 are all laid (the relaxed
        twin: any of them) and every run then closes; a leaf, not a node."""
        tot = [0] + [NEG] * jr   # the most value with u jokers at 14 over the colours so far
        rv, jv = self.cr.run_value[14], self.jrun[14]
        any_run = False
        for c in range(4):
            t = self.avail(14, c)
            if not runs[c]:
                if t > 0 and not self.opt14:
                    return NEG   # aces with no run to take them
                continue
            any_run = True
            ta = min(t, 2)
            f = [{0}, set(), set()]   # f[a]: the joker counts u with which the runs take a aces
            for st in _unpack(runs[c]):
                cl = self.closable(st)
                er = self.closable(self.ext_real(st))
                ej = self.closable(self.ext_joker(st))
                g: list[set[int]] = [set(), set(), set()]
                for a in range(ta + 1):
                    if cl:
                        g[a] |= f[a]
                    if ej:
                        g[a] |= {u + 1 for u in f[a] if u + 1 <= jr}
                    if er and a + 1 <= ta:
                        g[a + 1] |= f[a]
                f = g
            cv = [NEG] * (jr + 1)
            for a in range(0 if self.opt14 else t, ta + 1):
                for u in f[a]:
                    cv[u] = max(cv[u], a * rv + u * jv)
            nt = [NEG] * (jr + 1)
            for u1 in range(jr + 1):
                if tot[u1] <= NEG:
                    continue
                for u2 in range(jr + 1 - u1):
                    if cv[u2] > NEG:
                        nt[u1 + u2] = max(nt[u1 + u2], tot[u1] + cv[u2])
            tot = nt
        b = NEG
        for u in range(jr + 1):
            if tot[u] <= NEG:
                continue
            j2 = jr - u
            if self.keep and not left and j2 == 0:
                continue
            if self.require_run and not (ran or any_run):
                continue
            if self.must_use == JOKER and j2 == self.J:
                continue
            b = max(b, tot[u])
        return b

    # ---- value search ---------------------------------------------------------------------
    def best(self, n: int, runs: Sequence[int], jr: int, left: bool, ran: bool, alpha: int,
             beta: int = STOP) -> int:
        """The value of a state: exact when > alpha, else an upper bound <= alpha (memoized as such).
        ``beta`` bounds the value from above: found (above alpha), the search of the state ends."""
        if n > self.last:
            return self.terminal(runs, jr, left, ran)
        if n == 14:
            return self.leaf14(runs, jr, left, ran)   # (last == 14)
        # every completion closes the runs in progress (terminal): with one the run is made
        if self.require_run and (runs[0] | runs[1] | runs[2] | runs[3]):
            ran = True
        key = (n, runs[0], runs[1], runs[2], runs[3], jr, left, ran, self.res_bits)
        e = self.memo.get(key)
        if e is not None and (e[1] or e[0] <= alpha):
            return e[0]
        # NEG by a count of jokers (C++ best; never memoized): no run can be made any more
        # (run_need), or the reserved aces cannot all close their runs (res_need)
        if self.require_run and not ran and jr < self.run_need[n]:
            return NEG
        if self.res_bits and not self.opt14:
            if jr < self.res_need[n]:
                return NEG
            if n >= 13:
                for c in range(4):
                    if _run_count(runs[c]) < self.res[c]:
                        return NEG
        # flag dominance (C++ best): the same state with a tile left / a run made is worth at least
        # as much; its memoized value at or below alpha bounds this one (same probe order, no node;
        # only with jokers free and no joker ratio, as in C++)
        l_up = self.ratio == 0 and jr > 0 and self.keep and not left
        r_up = self.ratio == 0 and jr > 0 and self.require_run and not ran
        if l_up or r_up:
            for f in (1, 2, 3):
                if (f & 1 and not l_up) or (f & 2 and not r_up):
                    continue
                e = self.memo.get((n, runs[0], runs[1], runs[2], runs[3], jr, left or f & 1 == 1,
                                   ran or f & 2 == 2, self.res_bits))
                if e is not None and e[0] <= alpha:
                    return e[0]
        nodes = self.nodes
        nodes[0] += 1
        if nodes[0] > self.budget:   # the node count of the work budget, as in C++
            raise WorkBudgetExceeded(budget_message(self.budget), self.budget)
        F = self.frames[n]
        F.alpha = alpha
        F.stop = beta   # (C++ best: stop values, twelfth round)
        v = self.enumerate(F, n, runs, jr, left, ran)
        if v > alpha:
            self.memo[key] = (v, True)
        else:
            v = max(F.best, F.ub_cut)
            self.memo[key] = (v, v <= NEG)
        return v

    def enumerate(self, F: _Frame, n: int, runs: Sequence[int], jr: int, left: bool, ran: bool) -> int:
        F.n = n
        F.best = NEG
        F.ub_cut = NEG
        F.found = False
        for c in range(4):
            F.avail[c] = self.avail(n, c)
        F.cols_here = sum(1 for c in range(4) if F.avail[c] > 0)
        tv = self.tile_ub[n] if n <= 13 else self.cr.run_value[14]
        for c in range(4):
            F.w[c] = tv if (self.useful[c][n] or (n == 1 and self.useful[c][14])) else 0
        F.ub_after = self.ub_from(n + 1, 0)
        F.avail_w[4] = 0
        for c in range(3, -1, -1):
            F.avail_w[c] = F.avail_w[c + 1] + F.avail[c] * F.w[c]
        for c in range(4):
            F.runs_in[c] = runs[c]
        F.left_in = left
        F.j0 = jr
        if not self.fits(F, F.ub_after + self.jb[n][jr] + F.avail_w[0]):
            return F.best
        self.vcolour(F, 0, jr, 0, ran, 0, 0)
        return F.best

    @staticmethod
    def thr(F: _Frame) -> int:
        return max(F.best, F.alpha)

    @staticmethod
    def sub_stop(F: _Frame, g: int) -> int:
        """The stop value of a child reached with gain g (C++ sub_stop)."""
        return STOP if F.stop == STOP else F.stop - g

    @staticmethod
    def found_value(F: _Frame, v: int) -> None:
        """A value found (C++ found): at the stop value, and above alpha, no other transition is
        tried (every bound fails against an alpha of STOP)."""
        if v <= F.best:
            return
        F.best = v
        if v >= F.stop and v > F.alpha:
            F.alpha = STOP

    @staticmethod
    def fits(F: _Frame, bound: int) -> bool:
        if bound > max(F.best, F.alpha):
            return True
        F.ub_cut = max(F.ub_cut, bound)
        return False

    def transitions(self, F: _Frame, c: int, jr: int) -> list[tuple[int, int, int, int, int, bool, int, int]]:
        """The transitions of colour c at this number with jr jokers free, best bound first:
        (key, packed, rest, jused, gain, closed, need, needv)."""
        n = F.n
        ck = (F.runs_in[c], n, c, jr, F.j0, self.res_bits)
        hit = self.tcache.get(ck)
        if hit is not None:
            return hit
        scratch: list[tuple[int, int, int, bool, int]] = []
        F.lst[c] = _unpack(F.runs_in[c])
        F.jr_start[c] = jr
        self.vrun(F, c, 0, 0, jr, 0, False, scratch)
        # keep the best gain of equal outcomes (the rest of the search sees only the outcome)
        bestg: dict[tuple[int, int, int, bool], int] = {}
        for packed, rest, jused, closed, gain in scratch:
            o = (packed, rest, jused, closed)
            if o not in bestg or gain > bestg[o]:
                bestg[o] = gain
        w, j0 = F.w[c], F.j0
        out = []
        for (packed, rest, jused, closed), gain in bestg.items():
            need, needv = self.need_of(n, c, packed)
            out.append((gain + rest * w + self.jfree(n, j0, jr - jused, need, needv), packed, rest, jused,
                        gain, closed, need, needv))
        out.sort(key=lambda t: (-t[0], t[1], t[2], t[3], t[5]))
        self.tcache[ck] = out
        return out

    def vcolour(self, F: _Frame, c: int, jr: int, gain: int, ran: bool, need: int, needv: int) -> None:
        """need, needv: the jokers the runs in progress of the colours < c need at n+1 and n+2, and
        their value there (need_of)."""
        if c == 4:
            self.vsets(F, jr, gain, ran, need, needv)
            return
        fixed = gain + F.ub_after + F.avail_w[c + 1]
        for c2 in range(c):
            fixed += F.rest[c2] * F.w[c2]
        for key, packed, rest, jused, tgain, closed, tneed, tneedv in self.transitions(F, c, jr):
            if need + tneed > jr - jused:
                continue   # no child can be completed (its value is NEG)
            if not self.fits(F, fixed + key):
                break   # sorted by key, and thr only grows
            F.new_runs[c] = packed
            F.rest[c] = rest
            F.jused[c] = jused
            self.vcolour(F, c + 1, jr - jused, gain + tgain, ran or closed, need + tneed, needv + tneedv)

    def vrun(self, F: _Frame, c: int, i: int, used_r: int, jr: int, gain: int, ran: bool,
             out: list[tuple[int, int, int, bool, int]]) -> None:
        lst = F.lst[c]
        if i == len(lst):
            self.vafter(F, c, used_r, jr, gain, ran, out)
            return
        st = lst[i]
        lo = _K_RANK[F.acts[c][i - 1]] if i > 0 and lst[i - 1] == st else 0
        n = F.n
        t = F.avail[c]
        for r in range(lo, 3):
            a = _K_ORDER[r]
            if a == 0:
                if used_r < t:
                    F.acts[c][i] = 0
                    F.ext[c][i] = self.ext_real(st)
                    self.vrun(F, c, i + 1, used_r + 1, jr, gain + self.cr.run_value[n], ran, out)
            elif a == 1:
                if jr > 0:
                    F.acts[c][i] = 1
                    F.ext[c][i] = self.ext_joker(st)
                    self.vrun(F, c, i + 1, used_r, jr - 1, gain + self.jrun[n], ran, out)
            elif self.closable(st):
                F.acts[c][i] = 2
                F.ext[c][i] = -1
                self.vrun(F, c, i + 1, used_r, jr, gain, True, out)

    def vafter(self, F: _Frame, c: int, used_r: int, jr: int, gain: int, ran: bool,
               out: list[tuple[int, int, int, bool, int]]) -> None:
        n = F.n
        t = F.avail[c]
        lst = F.lst[c]
        base = [F.ext[c][i] for i in range(len(lst)) if F.ext[c][i] != -1]
        if n == 14:
            if used_r != t and not self.opt14:
                return   # reserved aces are laid (the relaxed twin: may be)
            out.append((_pack(base), 0, F.jr_start[c] - jr, ran, gain))
            return
        used_j = F.jr_start[c] - jr
        if self.lead_mode:
            self.vafter_lead(F, c, used_r, jr, gain, ran, base, used_j, out)
            return
        can_start = n <= self.last - 2 and n <= 13
        rv, jv = self.cr.run_value[n], self.jrun[n]
        max_a = t - used_r if can_start else 0
        for a_new in range(max_a, -1, -1):
            if a_new > 0:   # the new runs need tiles (or jokers) at n+1 and n+2
                miss = max(0, a_new - self.avail(n + 1, c)) + max(0, a_new - self.avail(n + 2, c))
                if miss > jr:
                    continue
            rest = t - used_r - a_new
            max_b = jr if can_start else 0
            for b_new in range(max_b + 1):
                # a joker-only run must reach a real tile of its colour
                if b_new > 0 and not any(self.avail(m, c) > 0
                                         for m in range(n + 1, min(self.last, n + jr) + 1)):
                    continue
                if len(base) + a_new + b_new > 8:
                    continue
                tmp = base + [3] * a_new + [self.new_joker()] * b_new
                out.append((_pack(tmp), rest, used_j + b_new, ran, gain + a_new * rv + b_new * jv))

    def lead_value(self, n: int, a_new: int, ks: tuple[int, int]) -> int:
        """The value of the jokers laid before a_new new runs at n, k of them at n - k .. n - 1."""
        return sum(sum(self.jrun[n - k:n]) for k in ks[:a_new])

    def lead_choices(self, n: int, a_new: int, jr: int) -> list[tuple[int, int]]:
        """The leading jokers (k1, k2) of a_new new runs at n (k1 <= k2; C++ vafter_lead)."""
        kmin = max(0, n - (self.last - 2))
        kmax = min(jr, n - 1)
        out = []
        for k1 in range(kmin if a_new >= 1 else 0, (kmax if a_new >= 1 else 0) + 1):
            for k2 in range(max(k1, kmin) if a_new >= 2 else 0, (kmax - k1 if a_new >= 2 else 0) + 1):
                out.append((k1, k2))
        return out

    def vafter_lead(self, F: _Frame, c: int, used_r: int, jr: int, gain: int, ran: bool,
                    base: list[int], used_j: int, out: list[tuple[int, int, int, bool, int]]) -> None:
        """vafter without a joker ratio or a high ace: no run starts with a joker; a run starts at
        its first real tile with k jokers laid before it, at their values there (C++ vafter_lead)."""
        n = F.n
        t = F.avail[c]
        max_a = t - used_r if n <= 13 else 0
        rv = self.cr.run_value[n]
        a1 = self.avail(n + 1, c) if n + 1 <= 14 else 0
        a2 = self.avail(n + 2, c) if n + 2 <= 14 else 0
        for a_new in range(max_a, -1, -1):
            rest = t - used_r - a_new
            if len(base) + a_new > 8:
                continue
            for k1, k2 in self.lead_choices(n, a_new, jr):
                kk = k1 + k2
                m1 = m2 = 0
                if a_new >= 1:
                    m1 += k1 < 2
                    m2 += k1 < 1
                if a_new >= 2:
                    m1 += k2 < 2
                    m2 += k2 < 1
                if max(0, m1 - a1) + max(0, m2 - a2) > jr - kk:
                    continue
                tmp = base + [3 + min(k, 2) for k in (k1, k2)[:a_new]]
                out.append((_pack(tmp), rest, used_j + kk, ran,
                            gain + a_new * rv + self.lead_value(n, a_new, (k1, k2))))

    def vsets(self, F: _Frame, jr: int, gain: int, ran: bool, need: int, needv: int) -> None:
        n = F.n
        ran2 = ran and self.require_run
        if n == 14:
            if not self.fits(F, gain + self.ub_state(n + 1, F.new_runs, jr)):
                return
            sub = self.best(n + 1, tuple(F.new_runs), jr, F.left_in, ran2, self.thr(F) - gain,
                            self.sub_stop(F, gain))
            if sub > NEG:
                self.found_value(F, gain + sub)
            return
        r = [min(F.rest[c], 2) for c in range(4)]
        ridx = ((r[0] * 3 + r[1]) * 3 + r[2]) * 3 + r[3]
        jsmax = jr if F.cols_here + jr >= 3 else 0
        if F.cols_here + jr < 3:
            ridx = 0   # no set can form at this number
        sval, jval = self.cr.set_value[n], self.jset[n]
        new_runs = tuple(F.new_runs)
        mu_c, mu_n, keep, dominance = self.mu_c, self.mu_n, self.keep, self.dominance
        # the next state's bounds depend on a choice only through its jokers (and left)
        ubj = [0] * (jr + 1)
        if n + 1 <= self.last:
            for j in range(jr + 1):
                base = self.ub_state_runs(n + 1, new_runs, j)  # once per j (ub_state's first step)
                if need > 0 and j >= need:   # the forced jokers count at their value (jfree)
                    jv = needv + self.jb[n + 1][j] - self.jb[n + 1][need]
                    ubj[j] = min(base + jv, self.ub_from(n + 1, 0) + jv)
                else:
                    ubj[j] = self.ub_state_j(n + 1, base, j)
        kb: dict[int, int] = {}
        sb: dict[tuple[int, bool], int] = {}
        cur_tot = -1
        for sv, js, tot in self.choices[ridx * SJ + jsmax]:
            # a choice the first bound cuts without raising ub_cut changes nothing: skip it; the
            # list runs by size descending, so once no choice of a size passes none after does
            if tot != cur_tot:
                cur_tot = tot
                bm = gain + max((tot - j) * sval + j * jval + ubj[jr - j] for j in range(min(tot, jsmax) + 1))
                if bm <= max(F.best, F.alpha) and bm <= F.ub_cut:
                    break
            j2 = jr - js
            if j2 < need:
                continue   # the runs in progress need those jokers at n+1 and n+2
            g = gain + (tot - js) * sval + js * jval
            if g + ubj[j2] <= max(F.best, F.alpha) and g + ubj[j2] <= F.ub_cut:
                continue
            left = F.left_in
            ok = True
            real_left_out = False
            for c in range(4):
                lf = F.rest[c] - sv[c]
                if lf > 0:
                    left = left or keep
                    if dominance and F.jused[c] > 0:
                        ok = False
                        break
                    if sv[c] == 0:
                        real_left_out = True
                if c == mu_c and n == mu_n:
                    used = F.avail[c] - lf + (self.res[c] if n == 1 else 0)
                    if used < 1:
                        ok = False
                        break
            if not ok:
                continue
            if dominance and js > 0 and real_left_out:
                continue
            if not self.fits(F, g + ubj[j2]):
                continue
            cb = STOP
            if n + 1 <= self.last:
                if keep and not left:
                    k = kb.get(j2)
                    if k is None:
                        k = kb[j2] = self.keep_bound(n + 1, j2)
                    if not self.fits(F, g + k):
                        continue
                b = sb.get((j2, left))
                if b is None:
                    b = sb[(j2, left)] = self.suffix_bound(n + 1, new_runs, j2, left, ran2)
                if not self.fits(F, g + b):
                    continue
                cb = b   # the child's suffix bound is its stop value too (C++ vsets)
            sub = self.best(n + 1, new_runs, j2, left, ran2, self.thr(F) - g, min(cb, self.sub_stop(F, g)))
            if sub > NEG:
                self.found_value(F, g + sub)

    # ---- canonical enumeration (the rebuild; same order as C++ colour/run_i/after_runs/sets) --
    def colour(self, F: _Frame, c: int, jr: int, gain: int, left: bool, ran: bool) -> None:
        if F.found:
            return
        if gain + F.ub_after + self.jrest(F.n, F.j0, jr) + F.svw[c] + F.avail_w[c] < F.want:
            return
        if c == 4:
            self.sets(F, jr, gain, left, ran)
            return
        self.run_i(F, c, 0, 0, jr, gain, left, ran)

    def run_i(self, F: _Frame, c: int, i: int, used_r: int, jr: int, gain: int, left: bool,
              ran: bool) -> None:
        if F.found:
            return
        lst = F.lst[c]
        if i == len(lst):
            self.after_runs(F, c, used_r, jr, gain, left, ran)
            return
        st = lst[i]
        lo = F.acts[c][i - 1] if i > 0 and lst[i - 1] == st else 0
        n = F.n
        t = F.avail[c]
        for a in range(lo, 3):
            if a == 0:
                if used_r < t:
                    F.acts[c][i] = 0
                    F.ext[c][i] = self.ext_real(st)
                    self.run_i(F, c, i + 1, used_r + 1, jr, gain + self.cr.run_value[n], left, ran)
            elif a == 1:
                if jr > 0:
                    F.acts[c][i] = 1
                    F.ext[c][i] = self.ext_joker(st)
                    self.run_i(F, c, i + 1, used_r, jr - 1, gain + self.jrun[n], left, ran)
            elif self.closable(st):
                F.acts[c][i] = 2
                F.ext[c][i] = -1
                self.run_i(F, c, i + 1, used_r, jr, gain, left, True)

    def after_runs(self, F: _Frame, c: int, used_r: int, jr: int, gain: int, left: bool,
                   ran: bool) -> None:
        n = F.n
        t = F.avail[c]
        lst = F.lst[c]
        base = [F.ext[c][i] for i in range(len(lst)) if F.ext[c][i] != -1]
        if n == 14:
            if used_r != t and not self.opt14:   # (the relaxed twin's aces at 14 are optional)
                return
            F.new_runs[c] = _pack(base)
            F.sv[c] = 0
            F.svw[c + 1] = F.svw[c]
            F.a_new[c] = F.b_new[c] = F.s[c] = 0
            self.colour(F, c + 1, jr, gain, left, ran)
            return
        if self.lead_mode:
            self.after_runs_lead(F, c, used_r, jr, gain, left, ran, base)
            return
        can_start = n <= self.last - 2 and n <= 13
        max_a = t - used_r if can_start else 0
        for a_new in range(max_a + 1):
            max_b = jr if can_start else 0
            for b_new in range(max_b + 1):
                if F.found:
                    return
                rest = t - used_r - a_new
                if len(base) + a_new + b_new > 8:
                    continue
                packed = _pack(base + [3] * a_new + [self.new_joker()] * b_new)
                g = gain + a_new * self.cr.run_value[n] + b_new * self.jrun[n]
                for s in range(min(rest, 2) + 1):
                    lf = rest - s
                    if c == self.mu_c and n == self.mu_n:
                        used = t - lf + (self.res[c] if n == 1 else 0)
                        if used < 1:
                            continue
                    F.new_runs[c] = packed
                    F.sv[c] = s
                    F.svw[c + 1] = F.svw[c] + s * self.cr.set_value[n if n <= 13 else 1]
                    F.a_new[c], F.b_new[c], F.s[c] = a_new, b_new, s
                    self.colour(F, c + 1, jr - b_new, g, left or (lf > 0 and self.keep), ran)
                    if F.found:
                        return

    def after_runs_lead(self, F: _Frame, c: int, used_r: int, jr: int, gain: int, left: bool,
                        ran: bool, base: list[int]) -> None:
        """after_runs without a joker ratio or a high ace (C++ list_after_lead): the new
        runs with their leading jokers, fewest new runs first, then fewest leading jokers."""
        n = F.n
        t = F.avail[c]
        max_a = t - used_r if n <= 13 else 0
        for a_new in range(max_a + 1):
            rest = t - used_r - a_new
            if len(base) + a_new > 8:
                continue
            for k1, k2 in self.lead_choices(n, a_new, jr):
                if F.found:
                    return
                kk = k1 + k2
                packed = _pack(base + [3 + min(k, 2) for k in (k1, k2)[:a_new]])
                g = gain + a_new * self.cr.run_value[n] + self.lead_value(n, a_new, (k1, k2))
                for s in range(min(rest, 2) + 1):
                    lf = rest - s
                    if c == self.mu_c and n == self.mu_n and t - lf < 1:
                        continue
                    F.new_runs[c] = packed
                    F.sv[c] = s
                    F.svw[c + 1] = F.svw[c] + s * self.cr.set_value[n]
                    F.a_new[c], F.b_new[c], F.s[c] = a_new, 0, s
                    F.lead[c] = (k1, k2)
                    self.colour(F, c + 1, jr - kk, g, left or (lf > 0 and self.keep), ran)
                    if F.found:
                        return

    def sets(self, F: _Frame, jr: int, gain: int, left: bool, ran: bool) -> None:
        n = F.n
        tot = sum(F.sv)
        max_js = jr if (n <= 13 and tot > 0) else 0
        new_runs = tuple(F.new_runs)
        need = sum(self.need_of(n, c, new_runs[c])[0] for c in range(4))
        for js in range(max_js + 1):
            if jr - js < need:
                continue   # no completion of the runs in progress (value NEG)
            if not self.feas[_sidx(F.sv, js)]:
                continue
            g = gain + tot * self.cr.set_value[n] + js * self.jset[n] if n <= 13 else gain
            ran2 = ran and self.require_run
            if g + self.ub_state(n + 1, new_runs, jr - js) < F.want:
                continue
            if n + 1 <= self.last:
                if self.keep and not left and g + self.keep_bound(n + 1, jr - js) < F.want:
                    continue
                if g + self.suffix_bound(n + 1, new_runs, jr - js, left, ran2) < F.want:
                    continue
            sub = self.best(n + 1, new_runs, jr - js, left, ran2, F.want - g - 1)
            if sub <= NEG or g + sub != F.want:
                continue
            F.dec = ([(list(F.acts[c][:len(F.lst[c])]), F.a_new[c], F.b_new[c], F.s[c], F.lead[c])
                      for c in range(4)], list(F.sv), js, new_runs, jr - js, left, ran2, g)
            F.found = True
            return

    # ---- roots ----------------------------------------------------------------------------
    def arrangement_fits(self, melds: list[MeldOut]) -> bool:
        """Is an arrangement of the relaxed twin one of this search's: the rack's tiles (each ace
        once, at 1 or at 14), the joker ratio (RO-7), a tile kept, the must-use tile laid, a run
        (C++ arrangement_fits)?"""
        used = [0] * NUM_CODES
        laid = 0
        run = False
        for kind, tiles, _stand in melds:
            jk = tiles.count(JOKER)
            if len(tiles) - jk < self.ratio * jk:
                return False
            for code in tiles:
                used[code] += 1
            laid += len(tiles)
            run = run or kind == KIND_RUN
        if any(u > c for u, c in zip(used, self.cnt)):
            return False
        if self.keep and laid >= sum(self.cnt):
            return False
        if self.must_use >= 0 and used[self.must_use] == 0:
            return False
        return not self.require_run or run

    def set_res(self, res: Sequence[int]) -> None:
        if self.opt14:
            return   # the relaxed twin keeps its aces (set_res_now in solve_melds)
        self.set_res_now(res)
        if self.relax is not self:
            self.relax.set_res(res)

    def set_res_now(self, res: Sequence[int]) -> None:
        self.res = list(res)
        self.res_bits = res[0] | res[1] << 2 | res[2] << 4 | res[3] << 6
        self.reset_fresh()

    def solve(self, resv: Sequence[tuple[int, ...]], melds_too: bool = True,
              floor: int = -1) -> tuple[int, list[MeldOut]]:
        """The best value and arrangement over the rack's reservations ``resv``
        (:func:`_reservations`, made once by :func:`solve_melds`); ``melds_too`` False: the
        value alone, no rebuild (:func:`solve_melds_value`; C++ ``solve(..., melds)``);
        ``floor`` >= 0 (the value alone): only a value above it is asked for, the root's alpha
        starts there, and a rack that does not pass it answers -1 (C++ ``solve``)."""
        bestv = floor if floor >= 0 else NEG
        best_res: tuple[int, ...] = (-1, -1, -1, -1)
        # the relaxed twin's value of the whole rack, top, bounds every reservation's search (its
        # aces stay at 1 too); each reservation is searched once, in order, with stop top, until
        # one attains it (C++ solve; forty-fifth round)
        self.set_res(resv[0])
        top = self.relax.fresh(1, self.J, False, False) if self.relax is not self else STOP
        asp = NEG < top < STOP
        if floor >= 0 and top <= floor:   # (top bounds every reservation)
            return (-1, [])
        if asp:
            # the twin's own first arrangement of top, when it is one of this search's (C++ solve)
            melds = self.relax.rebuild(top)
            if self.arrangement_fits(melds):
                return (top, melds if melds_too else [])
        for i, rr in enumerate(resv):
            if i > 0:   # (resv[0] is set)
                self.set_res(rr)
            v = self.best(1, _EMPTY, self.J, False, False, bestv, top)
            if v > bestv:
                bestv = v
                best_res = rr
                if v >= top:   # (top bounds every reservation)
                    break
        if bestv <= NEG or bestv <= floor:
            return (-1, [])
        if not melds_too:
            return (bestv, [])
        self.set_res(best_res)
        return (bestv, self.rebuild(bestv))

    def rebuild(self, total: int) -> list[MeldOut]:
        melds: list[MeldOut] = []
        runs: tuple[int, ...] = _EMPTY
        # concrete runs per colour: [status, start, seq, tiles, stand]
        conc: list[list[list[Any]]] = [[], [], [], []]
        seq = 0
        jr, left, ran = self.J, False, False
        want = total
        for n in range(1, self.last + 1):
            F = self.frames[n]
            F.want = want
            F.n = n
            F.j0 = jr
            F.found = False
            for c in range(4):
                F.lst[c] = _unpack(runs[c])
                F.avail[c] = self.avail(n, c)
            tv = self.tile_ub[n] if n <= 13 else self.cr.run_value[14]
            F.avail_w[4] = 0
            for c in range(3, -1, -1):
                u = self.useful[c][n] or (n == 1 and self.useful[c][14])
                F.avail_w[c] = F.avail_w[c + 1] + (F.avail[c] * tv if u else 0)
            F.svw[0] = 0
            F.ub_after = self.ub_from(n + 1, 0)
            self.colour(F, 0, jr, 0, left, ran)
            if not F.found:   # pragma: no cover - the value search found this optimum
                raise AssertionError("solve_melds: rebuild lost the optimum")
            decs, sv, js, next_runs, next_jr, next_left, next_ran, gain = F.dec
            num = n if n <= 13 else 1
            for c in range(4):
                acts, a_new, b_new, _s, lead = decs[c]
                lst = conc[c]
                keep_list = []
                for i, a in enumerate(acts):
                    run = lst[i]
                    if a == 2:
                        melds.append((KIND_RUN, run[3], run[4]))
                        continue
                    code = c * 13 + num - 1
                    run[3].append(code if a == 0 else JOKER)
                    run[4].append(code)
                    run[0] = self.ext_real(run[0]) if a == 0 else self.ext_joker(run[0])
                    keep_list.append(run)
                code = c * 13 + num - 1
                if self.lead_mode:
                    # a new run with k jokers laid before its first tile, at n - k .. n - 1
                    for k in lead[:a_new]:
                        keep_list.append([3 + min(k, 2), n - k, seq, [JOKER] * k + [code],
                                          list(range(code - k, code + 1))])
                        seq += 1
                else:
                    for _ in range(a_new):
                        keep_list.append([3, n, seq, [code], [code]])
                        seq += 1
                for _ in range(b_new):
                    keep_list.append([self.new_joker(), n, seq, [JOKER], [code]])
                    seq += 1
                keep_list.sort(key=lambda r: (r[0], r[1], r[2]))
                conc[c] = keep_list
            if n <= 13:
                melds.extend(self.split_sets(n, sv, js))
            runs, jr, left, ran = next_runs, next_jr, next_left, next_ran
            want -= gain
        for c in range(4):
            for run in conc[c]:
                melds.append((KIND_RUN, run[3], run[4]))
        melds.sort(key=lambda m: (m[0], m[2], m[1]))
        return melds

    def split_sets(self, n: int, sv: list[int], js: int) -> list[MeldOut]:
        """Split the tiles given to sets at number n into sets, first feasible group first."""
        out: list[MeldOut] = []
        s = list(sv)
        j = js
        while sum(s) > 0 or j > 0:
            for mask, jg in self.groups:
                s2 = [s[c] - ((mask >> c) & 1) for c in range(4)]
                if min(s2) < 0 or jg > j:
                    continue
                if not self.feas[_sidx(s2, j - jg)]:
                    continue
                tiles, stand = [], []
                left_j = jg
                for c in range(4):
                    code = c * 13 + n - 1
                    if (mask >> c) & 1:
                        tiles.append(code)
                        stand.append(code)
                    elif left_j > 0:
                        tiles.append(JOKER)
                        stand.append(code)
                        left_j -= 1
                out.append((KIND_SET, tiles, stand))
                s, j = s2, j - jg
                break
            else:  # pragma: no cover - the table said feasible
                raise AssertionError("set split failed")
        return out


def _check(cr: CoreRules | None, counts: Sequence[int], must_use: int) -> list[int]:
    cnt = to_counts(counts)
    for code in range(JOKER):
        if cnt[code] > MAX_COPIES:
            raise CoreInputError(f"the solver takes at most {MAX_COPIES} copies of a tile; "
                                 f"code {code} has {cnt[code]}")
    if cnt[JOKER] > MAX_JOKERS:
        raise CoreInputError(f"the solver takes at most {MAX_JOKERS} jokers; got {cnt[JOKER]}")
    if not -1 <= must_use < NUM_CODES:
        raise CoreInputError(f"must_use must be -1 or a code 0..52, got {must_use}")
    if cr is not None and cr.joker_ratio > 0:
        rcap = max(1, cr.joker_ratio * cnt[JOKER])
        if 2 + 3 * rcap + 3 * (rcap + 1) * cnt[JOKER] > 254:
            raise CoreInputError(f"joker_ratio {cr.joker_ratio} with {cnt[JOKER]} jokers is beyond "
                                 "the solver's limits")
    if cr is not None and cnt[JOKER] > 0 and cr.joker_value == -1:
        # the search's joker bounds and dominance take a joker worth its position to be worth no
        # less further up a run; every rule set's values hold it (rules.py), arbitrary ones may
        # not (then values came out wrong), so they are refused (cpp/src/solver.cpp, the same)
        last = 14 if cr.high_ace else 13
        for n in range(1, last):
            if cr.run_value[n] > cr.run_value[n + 1]:
                raise CoreInputError(
                    "a joker worth the tile it stands for (joker_value -1) needs run values that "
                    f"never decrease from 1 to {last}; run_value[{n}] = {cr.run_value[n]} > "
                    f"run_value[{n + 1}] = {cr.run_value[n + 1]}")
    return cnt


def _meldable(cr: CoreRules, cnt: Sequence[int], code: int) -> bool:
    """Can the tile ``code`` be in any meld at all (RO-6: a run window of its colour holding its
    position, the ace also at 14 with a high ace, or a set of its number; RO-7: at most J jokers,
    real tiles >= ratio * jokers)? Only ever says yes too often (each position counts one real
    tile). A must_use tile that fits no meld is never laid: no arrangement, known without a search
    (cpp/src/solver.cpp meldable, the same test)."""
    J, ratio, c, m = cnt[JOKER], cr.joker_ratio, code // 13, code % 13 + 1

    def ok(real: int, jokers: int) -> bool:
        return jokers <= J and real >= ratio * jokers

    cols = sum(1 for k in range(4) if cnt[k * 13 + m - 1] > 0)
    if any(3 <= real + js <= 4 and ok(real, js) for real in range(1, cols + 1) for js in range(4)):
        return True
    last = 14 if cr.high_ace else 13
    for pos in (m, 14 if m == 1 and cr.high_ace else -1):
        if pos < 0:
            continue
        for s in range(1, pos + 1):
            for e in range(max(pos, s + 2), last + 1):
                real = sum(1 for p in range(s, e + 1) if cnt[c * 13 + (p if p <= 13 else 1) - 1] > 0)
                if ok(real, e - s + 1 - real):
                    return True
    return False


def _both_jokers_fit(cr: CoreRules, cnt: Sequence[int], c: int) -> bool:
    """Can colour c's reserved aces have a run with jokers at both 12 and 13 under the joker ratio
    (RO-7)? It needs >= 2 * ratio real tiles: the ace and a real tile at every position of s..11
    but the g more jokers there, for some s (C++ both_jokers_fit)."""
    j = cnt[JOKER]
    g = 0
    for s in range(11, 0, -1):
        g += cnt[c * 13 + s - 1] == 0
        if 2 + g > j:
            return False
        if 12 - s - g + 1 >= cr.joker_ratio * (2 + g):
            return True
    return False


def _reservations(cr: CoreRules, cnt: Sequence[int]) -> list[tuple[int, ...]]:
    """How many aces of each colour are laid at the high end (RO-6), in the order searched (C++
    reservations): each reserved ace closes its own run ...-12-13-14, and the 12s and 13s missing
    from those runs are jokers, all colours together; with a joker ratio, the runs that get
    neither a real 12 nor a real 13 must fit it (RO-7, :func:`_both_jokers_fit`). Without a high
    ace: one, (0, 0, 0, 0)."""
    j = cnt[JOKER]
    lim = [min(cnt[c * 13], cnt[c * 13 + 12] + j, cnt[c * 13 + 11] + j) if cr.high_ace else 0
           for c in range(4)]
    return [rr for rr in itertools.product(*(range(x + 1) for x in lim))
            if sum(max(0, r - cnt[c * 13 + 11]) + max(0, r - cnt[c * 13 + 12])
                   for c, r in enumerate(rr)) <= j
            and all(cr.joker_ratio == 0 or r <= cnt[c * 13 + 11] + cnt[c * 13 + 12]
                    or _both_jokers_fit(cr, cnt, c) for c, r in enumerate(rr))]


def solve_melds(cr: CoreRules, counts: Sequence[int], keep: bool, must_use: int,
                require_run: bool, budget: int = DEFAULT_WORK_BUDGET) -> tuple[int, list[MeldOut]]:
    """Maximum total value of disjoint runs/sets from a count vector (see module docstring).

    >>> from rummy101._pure import CoreRules
    >>> cr = CoreRules(False, 0, list(range(15)), list(range(14)), -1)
    >>> counts = [0] * 53
    >>> for code in (9, 10, 11): counts[code] += 1      # R10 R11 R12
    >>> solve_melds(cr, counts, False, -1, False)
    (33, [(1, [9, 10, 11], [9, 10, 11])])
    >>> solve_melds(cr, counts, True, -1, False)     # keep a tile: the run cannot be laid
    (0, [])
    """
    return _solve(cr, counts, keep, must_use, require_run, budget, True)


def solve_melds_value(cr: CoreRules, counts: Sequence[int], keep: bool, must_use: int,
                      require_run: bool, budget: int = DEFAULT_WORK_BUDGET, floor: int = -1) -> int:
    """``solve_melds(...)[0]`` without building the arrangement: the same value (-1 if none) from
    the same search, which stops at the same node (the rebuild's nodes are not counted).

    ``floor`` >= 0: the caller asks only whether the value is above ``floor`` (an engine's "does
    this rack open / close / cover"): the value when it is, else -1, from a search that cuts
    every state that cannot pass ``floor`` (C++ ``solve_melds_value``; the same nodes).

    >>> from rummy101._pure import CoreRules
    >>> cr = CoreRules(False, 0, list(range(15)), list(range(14)), -1)
    >>> counts = [0] * 53
    >>> for code in (9, 10, 11): counts[code] += 1      # R10 R11 R12
    >>> solve_melds_value(cr, counts, False, -1, False), solve_melds_value(cr, counts, True, -1, False)
    (33, 0)
    >>> solve_melds_value(cr, counts, False, -1, False, floor=32), solve_melds_value(cr, counts, False, -1, False, floor=33)
    (33, -1)
    """
    return _solve(cr, counts, keep, must_use, require_run, budget, False, _check_floor(floor))[0]


def _check_floor(floor: int) -> int:
    """``floor`` as an int, as the C++ binding reads it (a C int: TypeError otherwise)."""
    floor = operator.index(floor)
    if not -(1 << 31) <= floor < (1 << 31):
        raise TypeError(f"floor must fit a C int, got {floor}")
    return floor


def _solve(cr: CoreRules, counts: Sequence[int], keep: bool, must_use: int,
           require_run: bool, budget: int, melds_too: bool, floor: int = -1) -> tuple[int, list[MeldOut]]:
    """:func:`solve_melds` (``melds_too``) or :func:`solve_melds_value` (with its ``floor``)."""
    cnt = _check(cr, counts, must_use)
    budget = _check_budget(budget)
    if must_use >= 0 and cnt[must_use] == 0:
        return (-1, [])
    if 0 <= must_use < JOKER and not _meldable(cr, cnt, must_use):
        return (-1, [])
    s = _Solver(cr, cnt, bool(keep), int(must_use), bool(require_run), budget)
    # several reservations of high aces: the relaxed twin bounds them all (C++ solve_impl says why)
    resv = _reservations(cr, cnt)
    many_res = len(resv) >= 2
    if not many_res and must_use < 0 and cnt[JOKER] == 1 and 0 < cr.joker_ratio <= 2:
        # one Joly (RO-7): the ratio forbids no meld, so no relaxed twin; the suffix bound takes
        # this search's own fresh values with a tile left and a run made (C++ solve_impl)
        s.own_relax = True
    elif many_res or 0 <= must_use < JOKER or (cr.joker_ratio > 0 and cnt[JOKER] > 0):
        # must_use the joker needs no relaxed twin: the search's own fresh values bound it
        # (cpp/src/solver.cpp solve_impl says why). The suffix bounds come from the same rack
        # without must_use of a tile (a run in progress may hold the tile) and without the joker ratio (the tail of a run in progress may break it; with
        # no joker on the rack the ratio changes nothing, and the search bounds itself). Without
        # keep and require_run too (cpp/src/solver.cpp solve_melds says why).
        cr0 = CoreRules(cr.high_ace, 0, cr.run_value, cr.set_value, cr.joker_value)
        # With a high ace (RO-6) the twin holds at 14 every ace any reservation may reserve and
        # lays any number of them: one bound for every reservation (C++ solve_impl says why).
        r = s.relax = _Solver(cr0, cnt, False, -1, False, budget, s.nodes, bool(cr.high_ace))
        # must_use of a tile, the rules unchanged in the twin: its states are this search's
        # (C++ solve_impl says why)
        s.twin_states = cr.joker_ratio == 0 and not cr.high_ace
        if cr.high_ace:
            # the most aces of each colour that a reservation reserves (C++ solve_impl)
            r.set_res_now([max(rr[c] for rr in resv) for c in range(4)])
    else:
        # with jokers, the suffix bound takes the fresh values with a tile left and a run made
        # (C++ solve_impl says why)
        s.own_relax = cnt[JOKER] > 0
    return s.solve(resv, melds_too, floor)


def solve_melds_batch(cr: CoreRules, counts: Any, keep: bool, must_use: int,
                      require_run: bool, budget: int = DEFAULT_WORK_BUDGET) -> list[tuple[int, list[MeldOut]]]:
    """``solve_melds`` on every row of a (n, 53) array of counts; a rack that spends its budget
    (each rack has its own) gets ``(BUDGET_SPENT, [])`` and the others keep their answers."""
    shape = getattr(counts, "shape", None)
    if shape is not None and (len(shape) != 2 or shape[1] != NUM_CODES):
        raise CoreInputError(f"counts must have shape (n, 53), got {tuple(shape)}")
    budget = _check_budget(budget)
    out: list[tuple[int, list[MeldOut]]] = []
    for row in counts:
        try:
            out.append(solve_melds(cr, [int(x) for x in row], keep, must_use, require_run, budget))
        except WorkBudgetExceeded:
            out.append((BUDGET_SPENT, []))
    return out


def solve_values_batch(cr: CoreRules, counts: Any, keep: bool, must_use: int,
                       require_run: bool, budget: int = DEFAULT_WORK_BUDGET) -> Any:
    """``solve_melds_value`` on every row of a (n, 53) array of counts: the values as a (n,)
    int64 array; a rack that spends its budget (each rack has its own) gets ``BUDGET_SPENT``."""
    shape = getattr(counts, "shape", None)
    if shape is not None and (len(shape) != 2 or shape[1] != NUM_CODES):
        raise CoreInputError(f"counts must have shape (n, 53), got {tuple(shape)}")
    budget = _check_budget(budget)
    out: list[int] = []
    for row in counts:
        try:
            out.append(solve_melds_value(cr, [int(x) for x in row], keep, must_use, require_run, budget))
        except WorkBudgetExceeded:
            out.append(BUDGET_SPENT)
    return np.array(out, dtype=np.int64)


class SolvedMelds:
    """The melds of a batch's racks (``solve_melds_packed``): ``melds[i]`` is rack i's list of
    ``(kind, tiles, stand_for)`` as ``solve_melds`` gives it, a new list at each read. Twin of
    the native class, which keeps them packed in bytes until read."""

    __slots__ = ("_melds",)

    def __init__(self, melds: list[list[MeldOut]]) -> None:
        self._melds = melds

    def __len__(self) -> int:
        return len(self._melds)

    def __getitem__(self, i: int) -> list[MeldOut]:
        if not isinstance(i, int):
            raise TypeError(f"SolvedMelds indices must be integers, not {type(i).__name__}")
        try:
            melds = self._melds[i]
        except IndexError:
            raise IndexError("SolvedMelds index out of range") from None
        return [(kind, list(tiles), list(stand)) for kind, tiles, stand in melds]


def solve_melds_packed(cr: CoreRules, counts: Any, keep: bool, must_use: int, require_run: bool,
                       budget: int = DEFAULT_WORK_BUDGET) -> tuple[Any, Any, SolvedMelds]:
    """``solve_melds_batch`` with the answers packed: ``(values, sizes, melds)``, values (n,)
    int64, sizes (n,) int32 (melds per rack), melds a :class:`SolvedMelds`. A rack that spends its
    budget (each rack has its own) gets the value ``BUDGET_SPENT`` and no melds."""
    out = solve_melds_batch(cr, counts, keep, must_use, require_run, budget)
    values = np.array([v for v, _ in out], dtype=np.int64)
    sizes = np.array([len(m) for _, m in out], dtype=np.int32)
    return values, sizes, SolvedMelds([m for _, m in out])


# ---- pairs (R101-8) ---------------------------------------------------------------------------
PAIRS_JOKER_PENALTY = 101  # a joker left on the rack (R101-6, R101-13)
_PAIRS_SCALE = 10_000      # score = pairs * scale - penalty; a rack's penalty is below 2,000


def max_pairs(counts: Sequence[int], keep: bool, must_use: int,
              budget: int = DEFAULT_WORK_BUDGET) -> tuple[int, list[tuple[int, int]]]:
    """Most pairs from a rack (R101-5: two equal real tiles, or a real tile + joker; two jokers
    are no pair), and among those the arrangement that leaves the least penalty on the rack
    (R101-6/R101-13: face values, a joker 101; the tile kept for the discard counts too, as in
    ``solve_melds``' penalty mode). ``keep``: at least one tile stays on the rack (R101-12);
    ``must_use``: a code (52 = a joker) that must be in a pair (-1 none, R101-4). Ties in pairs
    and penalty: the lexicographically smallest sorted list of ``(code, code_or_joker)``.
    ``(-1, [])`` when the constraints cannot be met. Twin of cpp/src/pairs.cpp.

    >>> c = [0] * 53; c[4] = 2; c[52] = 2        # R5 R5 * *
    >>> max_pairs(c, False, -1)
    (2, [(4, 52), (4, 52)])
    >>> max_pairs(c, True, -1)                   # keeping R5 costs 5, keeping a joker 101
    (1, [(4, 52)])
    >>> c = [0] * 53; c[0] = 1; c[51] = 1; c[52] = 1   # R1 K13 *: the joker goes with K13
    >>> max_pairs(c, True, -1)
    (1, [(51, 52)])
    """
    cnt = _check(None, counts, must_use)
    budget = _check_budget(budget)
    J = cnt[JOKER]
    T = sum(cnt[:JOKER])
    F = sum(n // 2 for n in cnt[:JOKER])
    best_score = NEG
    best_n = -1
    best_list: list[tuple[int, int]] = []
    # x = pairs that hold a joker (jokers laid); one exact search per x, x descending
    for nodes, x in enumerate(range(min(J, T), -1, -1), 1):
        # one node per joker-pair count tried, as in C++
        if nodes > budget:
            raise WorkBudgetExceeded(budget_message(budget), budget)
        if min(F + x, x + (T - x) // 2) < best_n:
            continue  # x jokers laid cannot make as many pairs (each joker adds one at most)
        found = _pairs_with(cnt, x, keep, must_use)
        if found is None:
            continue
        score, pairs = found
        if score > best_score or (score == best_score and pairs < best_list):
            best_score = score
            best_n = len(pairs)
            best_list = pairs
    if best_score == NEG:
        return (-1, [])
    return (len(best_list), best_list)


def _pair_options(r: int, jokers_left: int) -> list[tuple[int, int]]:
    """(real pairs, joker pairs) of one code holding ``r`` tiles, in the tie-break order:
    more real pairs first, then more joker pairs (the smaller sorted pair list)."""
    return [(p, q) for p in range(r // 2, -1, -1)
            for q in range(min(r - 2 * p, jokers_left), -1, -1)]


def _pairs_with(cnt: list[int], x: int, keep: bool,
                must_use: int) -> tuple[int, list[tuple[int, int]]] | None:
    """The best arrangement with exactly ``x`` jokers laid (each with one real tile), or None:
    (pairs * scale - penalty left, sorted pairs). A backward table over the codes on the rack
    (an absent code changes nothing) with the state (jokers still to lay, a tile already left
    on the rack) gives the optimum from every state; the walk forward takes, code by code, the
    first option (``_pair_options`` order) that keeps it, which yields the lexicographically
    smallest pair list among the optimal ones."""
    if (must_use == JOKER and x == 0) or (0 <= must_use < JOKER and cnt[must_use] == 0):
        return None
    codes = [c for c in range(JOKER) if cnt[c]]
    k = len(codes)
    left0 = 1 if cnt[JOKER] > x else 0
    base = -PAIRS_JOKER_PENALTY * (cnt[JOKER] - x)
    # best[i][j][l]: optimum of codes[i:] with j jokers to lay and l = a tile left so far
    best = [[[NEG, NEG] for _ in range(x + 1)] for _ in range(k + 1)]
    best[k][0][1] = 0
    if not keep:
        best[k][0][0] = 0
    for i in range(k - 1, -1, -1):
        c = codes[i]
        r = cnt[c]
        value = c % 13 + 1
        nxt = best[i + 1]
        row = best[i]
        for j in range(x + 1):
            opts = [(p + q, q, r - 2 * p - q) for p, q in _pair_options(r, j)
                    if c != must_use or p + q > 0]
            for lf in (0, 1):
                top = NEG
                for n, q, loose in opts:
                    sub = nxt[j - q][1 if (lf or loose) else 0]
                    if sub != NEG:
                        v = sub + n * _PAIRS_SCALE - loose * value
                        top = max(top, v)
                row[j][lf] = top
    if best[0][x][left0] == NEG:
        return None
    pairs: list[tuple[int, int]] = []
    j, lf = x, left0
    for i, c in enumerate(codes):
        r = cnt[c]
        value = c % 13 + 1
        want = best[i][j][lf]
        for p, q in _pair_options(r, j):
            if c == must_use and p + q == 0:
                continue
            loose = r - 2 * p - q
            nl = 1 if (lf or loose) else 0
            sub = best[i + 1][j - q][nl]
            if sub != NEG and sub + (p + q) * _PAIRS_SCALE - loose * value == want:
                pairs.extend([(c, c)] * p + [(c, JOKER)] * q)
                j, lf = j - q, nl
                break
    return best[0][x][left0] + base, pairs

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

import operator
from collections.abc import Sequence
from typing import Any

from ..errors import WorkBudgetExceeded
from ._common import JOKER, KIND_RUN, KIND_SET, NUM_CODES, CoreInputError, CoreRules, to_counts

__all__ = ["BUDGET_SPENT", "DEFAULT_WORK_BUDGET", "UNLIMITED_BUDGET", "max_pairs", "solve_melds",
           "solve_melds_batch"]

NEG = -(1 << 40)
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
_SET_TABLES: dict[int, tuple[list[bool], list[tuple[int, int]]]] = {}


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


def _set_table(ratio: int) -> tuple[list[bool], list[tuple[int, int]]]:
    """feasible[_sidx(s, j)]: tiles ``s[c]`` of colour c (0..2) and ``j`` jokers can be split into
    valid sets (3-4 distinct colours, >= 1 real tile, real >= ratio * jokers, RO-7)."""
    tab = _SET_TABLES.get(ratio)
    if tab is not None:
        return tab
    groups = _set_groups(ratio)
    size = 81 * (MAX_JOKERS + 1)
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
    tab = (feas, groups)
    _SET_TABLES[ratio] = tab
    return tab


# ---- the search -----------------------------------------------------------------------------
class _Solver:
    """One rack under one CoreRules (mirrors struct Solver in cpp/src/solver.cpp)."""

    def __init__(self, cr: CoreRules, counts: list[int], keep: bool, must_use: int,
                 require_run: bool, budget: int = DEFAULT_WORK_BUDGET) -> None:
        self.budget = budget
        self.nodes = 0   # states expanded: the node count of the work budget (as in C++)
        self.cr = cr
        self.cnt = counts
        self.J = counts[JOKER]
        self.keep = keep
        self.must_use = must_use
        self.require_run = require_run
        self.ratio = cr.joker_ratio
        if self.ratio > 0:
            self.jcap = self.J
            self.rcap = max(1, self.ratio * self.J)
        else:
            self.jcap = 0
            self.rcap = 1
        self.last = 14 if cr.high_ace else 13
        self.jrun = [cr.run_value[n] if cr.joker_value == -1 else cr.joker_value for n in range(15)]
        self.jset = [cr.set_value[n] if cr.joker_value == -1 else cr.joker_value for n in range(14)]
        self.feas, self.groups = _set_table(self.ratio)
        self.mu_c = must_use // 13 if 0 <= must_use < JOKER else -1
        self.mu_n = must_use % 13 + 1 if 0 <= must_use < JOKER else -1
        self.memo: dict[Any, tuple[int, bool]] = {}
        # status = (len-1) + 3 * real + 3 * (rcap + 1) * jokers
        self.rmul = 3
        self.jmul = 3 * (self.rcap + 1)
        self._init_bounds()

    # ---- upper bounds (only to skip transitions that cannot beat the best one found so far;
    # values stay exact, so the arrangement does not depend on them) ------------------------
    def _count_at(self, c: int, m: int) -> int:
        if m < 1 or m > self.last:
            return 0
        return self.cnt[c * 13 + (m if m <= 13 else 1) - 1]

    def _can_meld(self, c: int, m: int) -> bool:
        """Necessary condition for tile (c, m) to be in some meld (a 3-window or 3 colours,
        completed by the rack's jokers)."""
        if m > 13 and not self.cr.high_ace:
            return False
        for s0 in range(m - 2, m + 1):
            if s0 < 1 or s0 + 2 > self.last:
                continue
            miss = sum(1 for p in range(s0, s0 + 3) if p != m and self._count_at(c, p) == 0)
            if miss <= self.J:
                return True
        if m <= 13:
            cols = sum(1 for c2 in range(4) if self.cnt[c2 * 13 + m - 1] > 0)
            if cols + self.J >= 3:
                return True
        return False

    def _init_bounds(self) -> None:
        cr = self.cr
        tile_ub = [0] * 15
        for m in range(1, 14):
            tile_ub[m] = max(cr.run_value[m], cr.set_value[m])
        if cr.high_ace:
            tile_ub[1] = max(tile_ub[1], cr.run_value[14])
        ub = [0] * 16
        for m in range(13, 0, -1):
            total = 0
            for c in range(4):
                if self._can_meld(c, m) or (m == 1 and self._can_meld(c, 14)):
                    total += self.cnt[c * 13 + m - 1] * tile_ub[m]
            ub[m] = ub[m + 1] + total
        jmax = [0] * 16
        jm = 0
        for m in range(15, 0, -1):
            if m <= 14 and m <= self.last:
                jm = max(jm, self.jrun[m])
            if m <= 13:
                jm = max(jm, self.jset[m])
            jmax[m] = jm
        self.ub_tiles = ub
        self.jmax = jmax

    def ub_from(self, n: int, jr: int, res: tuple[int, ...]) -> int:
        """Upper bound of the value still to place at numbers >= n with jr unused jokers."""
        if n > self.last:
            return 0
        u = self.ub_tiles[n] + jr * self.jmax[n]
        if n >= 2:
            u += sum(res) * self.cr.run_value[14]
        return u

    # status helpers
    def st_len(self, st: int) -> int:
        return st % 3 + 1

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

    # ---- value of a state -----------------------------------------------------------------
    def avail(self, n: int, c: int, res: tuple[int, ...]) -> int:
        if n == 14:
            return res[c]
        a = self.cnt[c * 13 + n - 1]
        if n == 1:
            a -= res[c]
        return a

    def terminal(self, runs: tuple[tuple[int, ...], ...], jr: int, left: bool, ran: bool) -> int:
        for c in range(4):
            for st in runs[c]:
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

    def best(self, n: int, runs: tuple[tuple[int, ...], ...], jr: int, left: bool, ran: bool,
             res: tuple[int, ...], alpha: int = NEG) -> int:
        """The value of a state: exact when it is > alpha, else some value <= alpha (the caller
        cannot use the state). The memo remembers which (exact value or upper bound)."""
        if n > self.last:
            return self.terminal(runs, jr, left, ran)
        key = (n, runs, jr, left, ran, res)
        e = self.memo.get(key)
        if e is not None and (e[1] or e[0] <= alpha):
            return e[0]
        self.nodes += 1
        if self.nodes > self.budget:
            raise WorkBudgetExceeded(budget_message(self.budget), self.budget)
        best = NEG
        for gain, nxt, _dec in self.transitions(n, runs, jr, left, ran, res):
            thr = max(best, alpha)
            if gain + self.ub_from(n + 1, nxt[1], res) <= thr:
                continue
            sub = self.best(n + 1, nxt[0], nxt[1], nxt[2], nxt[3], res, thr - gain)
            if sub > NEG and gain + sub > best:
                best = gain + sub
        if best > alpha:
            self.memo[key] = (best, True)
            return best
        self.memo[key] = (alpha, alpha <= NEG)
        return alpha

    def transitions(self, n: int, runs: tuple[tuple[int, ...], ...], jr: int, left: bool,
                    ran: bool, res: tuple[int, ...]) -> list[tuple[int, Any, Any]]:
        """Every move at number n, in the fixed order shared with C++.
        Each item: (gain, (runs', jr', left', ran'), decision)."""
        out: list[tuple[int, Any, Any]] = []
        cr = self.cr
        can_start = n <= self.last - 2 and n <= 13
        rv = cr.run_value[n]
        jrv = self.jrun[n]
        new_runs: list[tuple[int, ...]] = [(), (), (), ()]
        sv = [0, 0, 0, 0]
        decs: list[Any] = [None, None, None, None]

        def colour(c: int, jr: int, gain: int, left: bool, ran: bool) -> None:
            if c == 4:
                sets(jr, gain, left, ran)
                return
            lst = runs[c]
            t = self.avail(n, c, res)
            acts = [0] * len(lst)

            def run_i(i: int, used_r: int, used_j: int, jr: int, gain: int, ran: bool,
                      ext: list[int]) -> None:
                if i == len(lst):
                    after_runs(c, t, used_r, jr, gain, left, ran, ext, list(acts))
                    return
                st = lst[i]
                lo = acts[i - 1] if i > 0 and lst[i - 1] == st else 0
                for a in range(lo, 3):
                    if a == 0:
                        if used_r < t:
                            acts[i] = 0
                            ext.append(self.ext_real(st))
                            run_i(i + 1, used_r + 1, used_j, jr, gain + rv, ran, ext)
                            ext.pop()
                    elif a == 1:
                        if jr > 0:
                            acts[i] = 1
                            ext.append(self.ext_joker(st))
                            run_i(i + 1, used_r, used_j + 1, jr - 1, gain + jrv, ran, ext)
                            ext.pop()
                    else:
                        if self.closable(st):
                            acts[i] = 2
                            run_i(i + 1, used_r, used_j, jr, gain, True, ext)

            run_i(0, 0, 0, jr, gain, ran, [])

        def after_runs(c: int, t: int, used_r: int, jr: int, gain: int, left: bool, ran: bool,
                       ext: list[int], acts: list[int]) -> None:
            if n == 14:
                if used_r != t:
                    return
                new_runs[c] = tuple(sorted(ext))
                sv[c] = 0
                decs[c] = (acts, 0, 0, 0)
                colour(c + 1, jr, gain, left, ran)
                return
            max_a = t - used_r if can_start else 0
            for a_new in range(max_a + 1):
                max_b = jr if can_start else 0
                for b_new in range(max_b + 1):
                    rest = t - used_r - a_new
                    base = ext + [3] * a_new + [self.new_joker()] * b_new
                    g = gain + a_new * rv + b_new * jrv
                    for s in range(min(rest, 2) + 1):
                        lf = rest - s
                        if c == self.mu_c and n == self.mu_n:
                            used = t - lf + (res[c] if n == 1 else 0)
                            if used < 1:
                                continue
                        new_runs[c] = tuple(sorted(base))
                        sv[c] = s
                        decs[c] = (acts, a_new, b_new, s)
                        colour(c + 1, jr - b_new, g, left or (lf > 0 and self.keep), ran)

        def sets(jr: int, gain: int, left: bool, ran: bool) -> None:
            tot = sv[0] + sv[1] + sv[2] + sv[3]
            max_js = jr if (n <= 13 and tot > 0) else 0
            for js in range(max_js + 1):
                if not self.feas[_sidx(sv, js)]:
                    continue
                g = gain + tot * cr.set_value[n] + js * self.jset[n] if n <= 13 else gain
                out.append((g, (tuple(new_runs), jr - js, left, ran and self.require_run),
                            (list(decs), list(sv), js)))

        colour(0, jr, 0, left, ran)
        return out

    # ---- roots ----------------------------------------------------------------------------
    def reservations(self) -> list[tuple[int, ...]]:
        """High-ace reservations (RO-6): aces of each colour kept for position 14, in fixed order."""
        if not self.cr.high_ace:
            return [(0, 0, 0, 0)]
        lim = []
        for c in range(4):
            a = self.cnt[c * 13]
            m = min(a, self.cnt[c * 13 + 12] + self.J, self.cnt[c * 13 + 11] + self.J)
            lim.append(m)
        out: list[tuple[int, ...]] = []
        for r0 in range(lim[0] + 1):
            for r1 in range(lim[1] + 1):
                for r2 in range(lim[2] + 1):
                    for r3 in range(lim[3] + 1):
                        out.append((r0, r1, r2, r3))
        return out

    def solve(self) -> tuple[int, list[MeldOut]]:
        empty: tuple[tuple[int, ...], ...] = ((), (), (), ())
        best = NEG
        best_res = None
        for res in self.reservations():
            v = self.best(1, empty, self.J, False, False, res, best)
            if v > best:
                best = v
                best_res = res
        if best <= NEG or best_res is None:
            return (-1, [])
        return (best, self.rebuild(best, best_res))

    def rebuild(self, total: int, res: tuple[int, ...]) -> list[MeldOut]:
        melds: list[MeldOut] = []
        runs: tuple[tuple[int, ...], ...] = ((), (), (), ())
        # concrete runs per colour: [status, start, seq, tiles, stand]
        conc: list[list[list[Any]]] = [[], [], [], []]
        seq = 0
        jr, left, ran = self.J, False, False
        want = total
        for n in range(1, self.last + 1):
            chosen = None
            for gain, nxt, dec in self.transitions(n, runs, jr, left, ran, res):
                if gain + self.ub_from(n + 1, nxt[1], res) < want:
                    continue
                sub = self.best(n + 1, nxt[0], nxt[1], nxt[2], nxt[3], res, want - gain - 1)
                if sub > NEG and gain + sub == want:
                    chosen = (gain, nxt, dec)
                    break
            assert chosen is not None, "rebuild lost the optimum"
            gain, nxt, dec = chosen
            decs, sv, js = dec
            num = n if n <= 13 else 1
            for c in range(4):
                acts, a_new, b_new, _s = decs[c]
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
            runs, jr, left, ran = nxt
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
    return cnt


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
    cnt = _check(cr, counts, must_use)
    budget = _check_budget(budget)
    if must_use >= 0 and cnt[must_use] == 0:
        return (-1, [])
    return _Solver(cr, cnt, bool(keep), int(must_use), bool(require_run), budget).solve()


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


# ---- pairs (R101-8) ---------------------------------------------------------------------------
def max_pairs(counts: Sequence[int], keep: bool, must_use: int,
              budget: int = DEFAULT_WORK_BUDGET) -> tuple[int, list[tuple[int, int]]]:
    """Most pairs from a rack (R101-5: two equal real tiles, or a real tile + joker; two jokers
    are no pair). ``keep``: at least one tile stays on the rack; ``must_use``: a code that must be
    in a pair (-1 none). ``(-1, [])`` when the constraints cannot be met.

    >>> c = [0] * 53; c[4] = 2; c[52] = 2        # R5 R5 * *
    >>> max_pairs(c, False, -1)
    (2, [(4, 52), (4, 52)])
    >>> max_pairs(c, True, -1)
    (1, [(4, 52)])
    """
    cnt = _check(None, counts, must_use)
    budget = _check_budget(budget)
    J = cnt[JOKER]
    T = sum(cnt[:JOKER])
    best_p = -1
    best_list: list[tuple[int, int]] = []
    # x = pairs that hold a joker; y = pairs of two real tiles. Fixed order: x descending.
    for nodes, x in enumerate(range(min(J, T), -1, -1), 1):
        # one node per joker-pair count tried, as in C++
        if nodes > budget:
            raise WorkBudgetExceeded(budget_message(budget), budget)
        res = _pairs_with(cnt, x, keep, must_use)
        if res is not None and len(res) > best_p:
            best_p = len(res)
            best_list = res
    if best_p < 0:
        return (-1, [])
    return (best_p, best_list)


def _pairs_with(cnt: list[int], x: int, keep: bool, must_use: int) -> list[tuple[int, int]] | None:
    """The canonical arrangement with exactly x joker pairs and as many real pairs as allowed."""
    rem = list(cnt[:JOKER])
    jp: list[int] = []
    # jokers go first to the must-use tile, then to single tiles (odd counts), then split pairs
    need = x
    if need > 0 and 0 <= must_use < JOKER and rem[must_use] % 2 == 1:
        jp.append(must_use)
        rem[must_use] -= 1
        need -= 1
    for code in range(JOKER):
        if need == 0:
            break
        if rem[code] % 2 == 1:
            jp.append(code)
            rem[code] -= 1
            need -= 1
    for code in range(JOKER):
        while need > 0 and rem[code] > 0:
            jp.append(code)
            rem[code] -= 1
            need -= 1
    if need > 0:
        return None
    rp: list[int] = []
    for code in range(JOKER):
        rp.extend([code] * (rem[code] // 2))
    used = 2 * (len(jp) + len(rp))
    total = sum(cnt)
    if keep and used >= total:
        # drop one real pair (never the must-use tile's only pair) or else one joker pair
        dropped = False
        for i in range(len(rp) - 1, -1, -1):
            if rp[i] == must_use and rp.count(must_use) == 1 and must_use not in jp:
                continue
            del rp[i]
            dropped = True
            break
        if not dropped:
            for i in range(len(jp) - 1, -1, -1):
                if jp[i] == must_use and jp.count(must_use) == 1 and must_use not in rp:
                    continue
                del jp[i]
                dropped = True
                break
        if not dropped:
            return None
    if must_use == JOKER and not jp:
        return None
    if 0 <= must_use < JOKER and must_use not in jp and must_use not in rp:
        return None
    pairs = [(c, c) for c in rp] + [(c, JOKER) for c in jp]
    pairs.sort()
    return pairs

"""The relaxed cover test of Remi's laid-down Atu check (RULES.md RO-4): twin of
cpp/src/relax.cpp (the same search, the same answers).

``relaxed_cover(counts, high_ace, runs, budget)`` is False only when the tiles of ``counts`` (53
counts, code 52 the Jolys) cannot all but at most one be split into runs (3+ consecutive numbers
of one colour; 1 low, and high after 13 when ``high_ace``) and sets (3-4 tiles of one number,
distinct colours), each Joly standing for any tile (or left out), with each ``(colour, lo, hi)``
of ``runs`` (numbers 1..14, 14 the high 1) inside one run of its own. It ignores RO-7, the Atu
and where the kept tile goes, so True proves nothing; counts with more than 2 copies of a tile or
more than 2 Jolys, or a run out of range, answer True (not tried), and so does a search that
expands more than ``budget`` states (it gives up; the search and its mirror, budget each).

The search goes through the numbers one colour at a time and memoises the states that fail. A
state: the number and colour about to be placed; per colour the runs open at the number before,
each ``(length 1, 2 or 3+) << 4 | the number it must reach (0: none)``, sorted descending; per
colour the 1s kept for the high end; the Jolys left; whether the kept tile is used; the tiles put
into sets at this number so far and the most of one colour among them. A failed state is stored
without its Jolys left and kept-tile flag, with a bit per failed pair: fewer Jolys, or the kept
tile used, fail too. Before a state it looks ahead: the later colours' tiles and the Jolys left
must make up this number's sets, and the runs that must go on need tiles or Jolys at the next two
numbers. The same search runs on the vector with its numbers mirrored (n -> 14 - n, or with the
high 1 n -> 15 - n for 2..13 and the 1 kept), whose answer is the same: the two go in turn with
2,000, 8,000, ... states in all each (a search that gave up goes on, its failed states kept), up
to ``budget`` each, so whichever meets what makes a vector fail sooner answers (a vector that
fails at its high numbers refutes low-numbers-first only after millions of states).

>>> counts = [0] * 53
>>> for code in (0, 1, 2, 3, 13, 26):   # R1 R2 R3 R4 Y1 B1: R2-R4 and a set of 1s
...     counts[code] += 1
>>> relaxed_cover(counts, False, [], 1000), relaxed_cover(counts, False, [(0, 1, 3)], 1000)
(True, False)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

__all__ = ["relaxed_cover"]

_MAXR = 4  # open runs of one colour: at most 2 copies + 2 Jolys at a number
_FREE3 = 3 << 4
# the (Jolys left, kept tile used) pairs a failure with (jl, disc) implies: jl' <= jl, disc' >= disc
_IMPLIED = [
    [sum(1 << (j * 2 + d) for j in range(jl + 1) for d in range(disc, 2)) for disc in range(2)]
    for jl in range(3)
]


class _GaveUp(Exception):
    pass


#: the forward and the mirrored search go in turn, each with ``_FIRST``, ``_GROW`` times more,
#: ... states in all, up to the budget each
_FIRST = 2000
_GROW = 4


def relaxed_cover(
    counts: Sequence[int], high_ace: bool, runs: Sequence[Sequence[int]], budget: int
) -> bool:
    """False only when no such split exists (see the module docstring)."""
    if len(counts) != 53 or any(not 0 <= k <= 2 for k in counts):
        return True
    fw = _search(counts, high_ace, runs)
    if fw is None:
        return True
    # the same question with the numbers mirrored (n -> 14 - n; with the high 1, 2..13 -> 15 - n
    # and the 1 kept, low and high trading ends): runs, sets and the kept runs map onto each
    # other, so its answer is the same, but a search (low numbers first) meets what makes a vector
    # fail from the other end
    mc = list(counts)
    for col in range(4):
        for n in range(1, 14):
            m = (15 - n if n >= 2 else 1) if high_ace else 14 - n
            mc[col * 13 + m - 1] = counts[col * 13 + n - 1]
    end = 15 if high_ace else 14
    bw = _search(mc, high_ace, [(r[0], end - r[2], end - r[1]) for r in runs])
    assert bw is not None
    cap = _FIRST
    while True:
        c = min(cap, budget)
        for search in (fw, bw):
            got = search(c)
            if got is not None:
                return got
        if c >= budget:
            return True
        cap *= _GROW


def _search(
    counts: Sequence[int], high_ace: bool, runs: Sequence[Sequence[int]]
) -> Callable[[int], bool | None] | None:
    """The search of ``counts`` from the root, as a function of the states it may expand in all
    (True covered, False refuted, None gave up; a search that gave up goes on where it stopped,
    its failed states kept); None for a run out of range."""
    last = 14 if high_ace else 13
    cnt = [[0] * 15 for _ in range(4)]
    for col in range(4):
        for n in range(1, 14):
            cnt[col][n] = counts[col * 13 + n - 1]
    later = [[0] * 4 for _ in range(15)]  # the tiles of the colours after col at a number
    for n in range(1, 14):
        for col in (2, 1, 0):
            later[n][col] = later[n][col + 1] + cnt[col + 1][n]
    starts: dict[tuple[int, int], list[int]] = {}
    for col, lo, hi in runs:
        if not 0 <= col <= 3 or lo < 1 or hi > last or hi - lo < 2:
            return None
        starts.setdefault((lo, col), []).append(hi)
    failed: dict[tuple[object, ...], int] = {}
    nodes = 0
    budget = 0

    def count_at(p: int, col: int, saved: int) -> int:
        """The tiles of colour ``col`` at number ``p`` (the 1s kept high at 14), 0 past the last."""
        if p > last:
            return 0
        return saved >> 2 * col & 3 if p == 14 else cnt[col][p]

    def next_count(pos: int, col: int, saved: int) -> int:
        return count_at(pos + 1, col, saved)

    def place(
        pos: int,
        col: int,
        runs_: tuple[tuple[int, ...], ...],
        ext: list[int],
        si: int,
        saved: int,
        jl: int,
        disc: int,
        q_sum: int,
        q_max: int,
    ) -> bool:
        his = starts.get((pos, col), ())
        if si == len(his):
            cap = next_count(pos, col, saved) + jl
            free3 = 0
            out = []
            for r in sorted(ext, reverse=True):
                if r == _FREE3:
                    if free3 >= cap:
                        continue
                    free3 += 1
                out.append(r)
            nr = runs_[:col] + (tuple(out),) + runs_[col + 1 :]
            return go(pos, col + 1, nr, saved, jl, disc, q_sum, q_max)
        seen = 0
        for i, r in enumerate(ext):
            length, reach = r >> 4, r & 15
            if reach or seen >> length & 1:
                continue
            seen |= 1 << length
            e = ext[:]
            e[i] = length << 4 | his[si]
            if place(pos, col, runs_, e, si + 1, saved, jl, disc, q_sum, q_max):
                return True
        return False

    def go(
        pos: int,
        col: int,
        runs_: tuple[tuple[int, ...], ...],
        saved: int,
        jl: int,
        disc: int,
        q_sum: int,
        q_max: int,
    ) -> bool:
        if col == 4:
            if q_sum:  # m sets of 3-4 tiles, each colour at most once in a set
                m = max(q_max, (q_sum + 3) // 4)
                if 3 * m > q_sum:
                    return False
            if pos == last:
                return all(r >> 4 == 3 for x in runs_ for r in x)
            pos += 1
            col = q_sum = q_max = 0
        nonlocal nodes
        key = (pos, col, runs_, saved, q_sum, q_max)
        if failed.get(key, 0) >> (jl * 2 + disc) & 1:
            return False
        nodes += 1
        if nodes > budget:
            raise _GaveUp
        must = [r for r in runs_[col] if r >> 4 < 3 or (r & 15) >= pos]
        nopt = len(runs_[col]) - len(must)
        a = saved >> 2 * col & 3 if pos == 14 else cnt[col][pos]
        hmax = a if pos == 1 and high_ace else 0
        for h in range(hmax + 1):
            aa = a - h
            nsaved = saved | h << 2 * col
            for v in range(jl + 1):
                for d in range((1 if not disc and aa + v >= 1 else 0) + 1):
                    rest = aa + v - d - len(must)
                    if rest < 0:
                        continue
                    for e3 in range(min(nopt, rest), -1, -1):
                        for s in range(rest - e3, -1, -1):
                            q = rest - e3 - s
                            if pos == 14 and (q or s):
                                continue
                            if len(must) + e3 + s > _MAXR:
                                continue
                            # a set needs 3 tiles, one colour at most once in each: the later
                            # colours' tiles (and the Jolys left) must make up what it lacks
                            nq, nm = q_sum + q, max(q_max, q)
                            if nq and nq + later[pos][col] + jl - v < max(3, 3 * nm):
                                continue
                            ext = [
                                min((r >> 4) + 1, 3) << 4 | ((r & 15) if (r & 15) > pos else 0)
                                for r in must
                            ]
                            ext += [_FREE3] * e3 + [1 << 4] * s
                            # the runs that must go on need as many tiles (or Jolys left) at
                            # the next number, those of one tile or to reach further the one after
                            need1 = sum(1 for r in ext if r >> 4 < 3 or r & 15)
                            need2 = sum(1 for r in ext if r >> 4 == 1 or (r & 15) > pos + 1)
                            if (
                                max(0, need1 - count_at(pos + 1, col, nsaved))
                                + max(0, need2 - count_at(pos + 2, col, nsaved))
                                > jl - v
                            ):
                                continue
                            if place(
                                pos,
                                col,
                                runs_,
                                ext,
                                0,
                                nsaved,
                                jl - v,
                                disc | d,
                                nq,
                                nm,
                            ):
                                return True
        failed[key] = failed.get(key, 0) | _IMPLIED[jl][disc]
        return False

    none: tuple[tuple[int, ...], ...] = ((),) * 4

    def run(cap: int) -> bool | None:
        nonlocal budget
        budget = cap
        try:
            return go(1, 0, none, 0, counts[52], 0, 0, 0)
        except _GaveUp:
            return None

    return run

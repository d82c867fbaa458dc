"""The laid-down Atu search (RO-4) of rules_core as it was before the search order change of
2026-12-07 (commit 54c209b): table-meld order (the melds with many outcomes last), every table
meld kept to the end. A test helper only: tests/test_remi_atu_order.py checks the engine's search
against it on big random racks, where the uncut search and the brute force cannot go (the answers
must be the same; only the time differs). It runs on the engine module's helpers (outcomes, cuts,
relaxation, memos), which that change left as they were, the leaves' covers (``_Rests``) among them."""

from __future__ import annotations

from rummy101 import _backend
from rummy101._cancel import check_stop
from rummy101.game.engines.remi.rules_core import (
    BOUND_LEAVES,
    MANY_OUTCOMES,
    RELAX_LEAVES,
    RELAX_MELDS,
    J,
    _budget,
    _Geo,
    _loose,
    _meld_runs,
    _meld_takes,
    _most_rest,
    _outcomes,
    _present,
    _Rests,
    _table_refutes,
    _takes,
    unit_rules,
)
from rummy101.game.engines.remi.table import RemiMeld
from rummy101.rules import Rules

__all__ = ["laid_finish"]


def laid_finish(
    rules: Rules, g: _Geo, counts: list[int], atu: int, melds: list[RemiMeld], seat: int
) -> bool:
    core = _backend.core()
    ucr = unit_rules(rules)
    budget = _budget()
    limit = rules.opts.joly_retrievals
    # necessary, before the melds' outcomes: the Atu has partners for a new meld, even if every
    # Joly on the table were freed
    if not g.supported(atu, _present(counts), counts[J] + sum(m.tiles.count(J) for m in melds)):
        return False
    # each table meld on its own: every (tiles it takes from the rack, Jolys it gives up) it can
    # reach by additions and retrievals (RO-9.2/9.5/9.6); plays on different melds commute
    pairs = [
        (m, o) for m in melds for o in [_outcomes(rules, g, m, counts, limit, seat)] if len(o) > 1
    ]
    # the melds with many outcomes last: there _table_refutes holds few table melds besides the
    # rack and refutes the most (random 2-player positions of 40-70 tiles: ~10x less time)
    pairs.sort(key=lambda p: len(p[1]) >= MANY_OUTCOMES)
    outs = [o for _m, o in pairs]
    # what the melds from i on take (_loose): their single tiles, and their runs' ends
    takes = [0] * (len(pairs) + 1)
    runs: list[list[tuple[int, int, int]]] = [[] for _ in range(len(pairs) + 1)]
    for i in range(len(pairs) - 1, -1, -1):
        takes[i] = takes[i + 1] | _meld_takes(pairs[i][0])
        runs[i] = _meld_runs(pairs[i][0]) + runs[i + 1]
    # Jolys the melds from i on can still give up (a 3-tile set's only after an addition, RO-9.6)
    free_from = [sum(max(f for _u, f in o) for o in outs[i:]) for i in range(len(outs) + 1)]
    # necessary: the Atu forms a new meld with rack tiles (a Joly may be retrieved)
    spare_j = counts[J] + free_from[0]
    if not g.supported(atu, _present(counts), spare_j):
        return False  # (or in a run only 'lay' builds: R1 * * R4 R5 R6, RO-6/RO-7)
    every = 0
    every_runs: list[tuple[int, int, int]] = []
    for m in melds:
        every |= _meld_takes(m)
        every_runs += _meld_runs(m)
    if _loose(g, counts, spare_j, _takes(every, every_runs, counts, spare_j)) > 1:
        return False

    # necessary: a leaf's rest r (at most the rack and every Joly the melds can free) is covered
    # but for one tile, so |r| - 1 <= the most tiles new melds holding the Atu cover in that
    # superset (more tiles never cover fewer): one solve bounds every leaf of the search
    # (a rest holds at most the rack's Jolys and the table's: free_from counts a Joly again when
    # a meld takes one from the rack and gives it up, and the solvers take at most 6)
    jolys = counts[J] + sum(m.tiles.count(J) for m in melds)
    top = counts[:]
    top[J] = min(top[J] + free_from[0], jolys)
    bname = _backend.backend_name()

    def _most(top: list[int]) -> int:
        return _most_rest(bname, g, ucr, atu, top, budget)

    most = _most(top)
    # tiles the melds from i on can take at most; leaves under a node at i at most
    take_from = [
        sum(max(sum(k for _c, k in u) for u, _f in o) for o in outs[i:])
        for i in range(len(outs) + 1)
    ]
    leaves_from = [1] * (len(outs) + 1)
    for i in range(len(outs) - 1, -1, -1):
        leaves_from[i] = leaves_from[i + 1] * len(outs[i])

    leaf = _Rests(rules, g, atu, ucr, budget).leaf

    memo: dict[tuple[int, bytes, int], bool] = {}
    last = len(outs)
    # the tiles of the melds from i on (those with a move), for _table_refutes
    ptiles = [[t for m, _o in pairs[k:] for t in m.tiles] for k in range(len(pairs) + 1)]

    def go(i: int, c: list[int], n: int, fj: int, most: int) -> bool:
        if not c[atu]:  # the Atu goes into a new meld (RO-4)
            return False
        check_stop()  # a server may stop it (shutting down, lane time up, client gone)
        if n - take_from[i] + fj > most:  # the rest is too big to cover (``most``)
            return False
        if i == last:
            return leaf(c, fj)
        key = (i, bytes(c), fj)
        got = memo.get(key)
        if got is not None:
            return got
        spare = c[J] + fj + free_from[i]
        res = False
        # necessary: the Atu still has partners for a new meld (fewer tiles never give it more),
        # and more than the discard can never go down
        if (
            g.supported(atu, _present(c), spare)
            and _loose(g, c, spare, _takes(takes[i], runs[i], c, spare)) <= 1
        ):
            if (
                last - i <= RELAX_MELDS
                and leaves_from[i] >= RELAX_LEAVES
                and _table_refutes(core, ucr, c, fj, ptiles[i], atu, budget)
            ):
                memo[key] = False
                return False
            if leaves_from[i] >= BOUND_LEAVES:  # a big subtree: ``most`` of this node's superset
                top = c[:]
                top[J] = min(spare, jolys)
                most = min(most, _most(top))
            for used, freed in outs[i]:
                if n - take_from[i] + fj > most:
                    break
                if all(c[code] >= k for code, k in used):
                    m = n
                    for code, k in used:
                        c[code] -= k
                        m -= k
                    res = go(i + 1, c, m, fj + freed, most)
                    for code, k in used:
                        c[code] += k
                    if res:
                        break
        memo[key] = res
        return res

    return go(0, counts[:], sum(counts), 0, most)

"""The exact core questions Remi's rules ask (memoised): can a lay-down hold a taken tile
(RO-8/RO-10), which discards close a tabla (RO-11), can a turn that takes the Atu finish (RO-4).

All answers come from the core solvers (``rummy101._backend``): ``solve_melds`` for lay-downs and
covers, ``tabla_closes`` for the tabla patterns. Nothing here is a heuristic.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .... import _backend
from ....rules import Rules
from ....tiles import JOKER_CODE
from .table import RemiMeld, lay_melds, three_melds

__all__ = ["atu_finish", "closes", "laydown_with", "relay_melds", "unit_rules"]

J = JOKER_CODE
LAYDOWN_POINTS = 45  # RO-8

_UNIT: dict[tuple[str, bool, int], Any] = {}


def unit_rules(rules: Rules) -> Any:
    """CoreRules with every tile worth 1 (a Joly what it stands for: 1): ``solve_melds`` then
    counts the tiles a selection of melds covers."""
    key = (_backend.backend_name(), rules.high_ace, rules.joker_ratio)
    cr = _UNIT.get(key)
    if cr is None:
        cr = _UNIT[key] = _backend.core().CoreRules(rules.high_ace, rules.joker_ratio, [0] + [1] * 14,
                                                    [0] + [1] * 13, -1)
    return cr


def _budget() -> int:
    from ....solve import current_budget

    return current_budget()


_LAYDOWN: dict[tuple[str, Rules, bytes, int], bool] = {}


def laydown_with(rules: Rules, rack: Sequence[int], t: int) -> bool:
    """RO-10 with RO-8: can a player not laid down lay down this turn (runs/sets worth >= 45 with
    a run, keeping a tile to discard) with the tile ``t`` added to ``rack`` and used in it?"""
    counts = list(rack)
    counts[t] += 1
    key = (_backend.backend_name(), rules, bytes(counts), t)
    got = _LAYDOWN.get(key)
    if got is None:
        cr = _backend.core_rules(rules, "open")
        got = _backend.core().solve_melds(cr, counts, True, t, True, _budget())[0] >= LAYDOWN_POINTS
        if len(_LAYDOWN) > 100_000:
            _LAYDOWN.clear()
        _LAYDOWN[key] = got
    return got


_CLOSES: dict[tuple[str, Rules, bytes], list[tuple[Any, ...]]] = {}


def closes(rules: Rules, rack: Sequence[int]) -> list[tuple[Any, ...]]:
    """RO-11: ``tabla_closes`` of a 15-tile rack: per discard code leaving a close, the best
    pattern and its score (x2 for a Joly discard); [] for other rack sizes."""
    if sum(rack) != 15:
        return []
    key = (_backend.backend_name(), rules, bytes(rack))
    got = _CLOSES.get(key)
    if got is None:
        got = list(_backend.core().tabla_closes(_backend.core_rules(rules, "open"), list(rack)))
        if len(_CLOSES) > 100_000:
            _CLOSES.clear()
        _CLOSES[key] = got
    return got


def relay_melds(rules: Rules, rack: Sequence[int], pending: int) -> list[tuple[str, tuple[int, ...]]]:
    """The 3-tile melds holding ``pending`` (a broken train tile, RO-9.4, or a retrieved Joly,
    RO-9.5) and two rack tiles, as ``(verb, tiles)``."""
    out = []
    for verb, tiles, needs in three_melds(rules):
        if pending not in needs:
            continue
        rest = list(needs)
        rest.remove(pending)
        a, b = rest
        if rack[a] and rack[b] and (a != b or rack[a] >= 2):
            out.append((verb, tiles))
    return out


_ATU: dict[tuple[Any, ...], bool] = {}
_LEAVES: dict[tuple[Any, ...], bool] = {}


def atu_finish(rules: Rules, rack: Sequence[int], atu: int, laid: bool, tabla: bool,
               table: Sequence[RemiMeld], seat: int) -> bool:
    """RO-4: with the Atu taken onto ``rack`` (not yet on it), can the player finish this very
    turn with the Atu in a new run/set with at least two rack tiles (etalat) or in the tabla
    close (RO-11)? Exact:

    * tabla: a close of the 15 tiles whose discard is not the Atu (``tabla_closes``);
    * not laid down: every tile but one covered by runs/sets with a run and the Atu in one (the
      whole lay-down then happens in this turn; 13+ tiles are worth >= 45, RO-8);
    * laid down: first, per table meld, every ``(rack tiles it takes, Jolys it gives up)`` its
      additions and Joly retrievals reach (:func:`_outcomes`, RO-9.2/9.5/9.6; a meld has at
      most a few hundred states); then a depth-first search over the melds choosing one outcome
      each (plays on different melds commute), memoised on ``(meld index, rack left, Jolys
      freed)``, pruned when more than one tile can go nowhere (:func:`_loose`) or the Atu is
      used up; at the end the rest must be covered by new melds holding the Atu with one tile
      left to discard (not a retrieved Joly, which is laid at once; two retrieved Jolys never
      in one meld, RO-9.5: the first one's meld is enumerated, :func:`_one_joly_melds`) — one
      ``solve_melds`` per distinct rest, memoised.

      There is no node cap: the answer is always exact. Bound: the memo holds at most
      ``(melds + 1) * prod_c (rack[c] + 1) * (table Jolys + 1)`` entries (the rack left is a
      sub-multiset of the rack), each trying at most the outcomes of one meld; in practice
      (bench/bench_remi_atu.py) uniform random play and adversarial 16-meld positions with
      24-tile racks answer in well under a second."""
    counts = list(rack)
    counts[atu] += 1
    core = _backend.core()
    if tabla:
        return any(d != atu or counts[atu] >= 2 for d, *_ in closes(rules, counts))
    n = sum(counts)
    if not laid:
        if (n - 1) * 5 < LAYDOWN_POINTS or _loose(rules, counts, counts[J], ()) > 1:
            return False
        return bool(core.solve_melds(unit_rules(rules), counts, True, atu, True, _budget())[0] == n - 1)
    key = (_backend.backend_name(), rules, bytes(counts), atu, tuple(m.key for m in table))
    got = _ATU.get(key)
    if got is None:
        got = _laid_finish(rules, counts, atu, list(table), seat)
        if len(_ATU) > 50_000:
            _ATU.clear()
        _ATU[key] = got
    return got


def _laid_finish(rules: Rules, counts: list[int], atu: int, melds: list[RemiMeld], seat: int) -> bool:
    core = _backend.core()
    ucr = unit_rules(rules)
    budget = _budget()
    limit = rules.opts.joly_retrievals
    # each table meld on its own: every (tiles it takes from the rack, Jolys it gives up) it can
    # reach by additions and retrievals (RO-9.2/9.5/9.6); plays on different melds commute
    pairs = [(m, o) for m in melds for o in [_outcomes(rules, m, counts, limit, seat)] if len(o) > 1]
    outs = [o for _m, o in pairs]
    rests = [[m for m, _o in pairs[i:]] for i in range(len(pairs) + 1)]
    # Jolys the melds from i on can still give up (a 3-tile set's only after an addition, RO-9.6)
    free_from = [sum(max(f for _u, f in o) for o in outs[i:]) for i in range(len(outs) + 1)]
    # necessary: the Atu forms a new meld with rack tiles (a Joly may be retrieved)
    spare_j = counts[J] + free_from[0]
    if not (any(atu in needs and _fits(counts, needs, atu, spare_j) for _v, _t, needs in three_melds(rules))
            or any(atu in needs and _fits(counts, needs, atu, spare_j) for _t, needs in lay_melds(rules))):
        return False             # (or in a run only 'lay' builds: R1 * * R4 R5 R6, RO-6/RO-7)

    if _loose(rules, counts, spare_j, melds) > 1:
        return False

    def leaf(c: list[int], fj: int) -> bool:
        if not c[atu]:
            return False
        r = c[:]
        r[J] += fj
        apart = fj >= 2 and not c[J]        # both Jolys retrieved: each laid at once, apart
        key = (_backend.backend_name(), rules, atu, bytes(r), c[J] > 0, apart)
        got = _LEAVES.get(key)
        if got is None:
            if len(_LEAVES) > 100_000:
                _LEAVES.clear()
            got = _LEAVES[key] = _cover(r, c[J] > 0, apart)
        return got

    def _cover(r: list[int], own_joly: bool, apart: bool = False) -> bool:
        n = sum(r)
        if n < 4 or _loose(rules, r, r[J], ()) > 1:
            return False
        if apart:
            # RO-9.5: a retrieved Joly is laid at once in a new meld, so two retrieved Jolys never
            # share one: the first one's meld is any meld with one Joly and rack tiles, the rest
            # (one Joly left, so no meld holds two) is covered as usual
            if core.solve_melds(ucr, r, True, atu, False, budget)[0] != n - 1:
                return False
            for reals in _one_joly_melds(rules, r):
                rest = r[:]
                for t in reals:
                    rest[t] -= 1
                rest[J] -= 1
                if not rest[atu] and atu not in reals:
                    continue
                if rest[atu] and _cover(rest, False) or not rest[atu] and _cover_free(rest):
                    return True
            return False
        v, used = core.solve_melds(ucr, r, True, atu, False, budget)
        if v != n - 1:
            return False
        left = r[:]
        for _k, tiles, _sf in used:
            for t in tiles:
                left[t] -= 1
        if not left[J] or own_joly:
            return True
        for d in range(52):
            if r[d]:
                r[d] -= 1
                ok = core.solve_melds(ucr, r, False, atu, False, budget)[0] == n - 1
                r[d] += 1
                if ok:
                    return True
        return False

    def _cover_free(r: list[int]) -> bool:
        """Every tile of ``r`` but one real tile in new melds (the Atu is laid already)."""
        n = sum(r)
        if n == 1:
            return not r[J]
        for d in range(52):
            if r[d]:
                r[d] -= 1
                ok = core.solve_melds(ucr, r, False, -1, False, budget)[0] == n - 1
                r[d] += 1
                if ok:
                    return True
        return False

    memo: dict[tuple[Any, ...], bool] = {}

    def go(i: int, c: list[int], fj: int) -> bool:
        if not c[atu]:                           # the Atu goes into a new meld (RO-4)
            return False
        if i == len(outs):
            return leaf(c, fj)
        key = (i, bytes(c), fj)
        got = memo.get(key)
        if got is not None:
            return got
        rest = rests[i]
        spare = c[J] + fj + free_from[i]
        res = False
        if _loose(rules, c, spare, rest) <= 1:   # more than the discard can never go down
            for used, freed in outs[i]:
                if all(c[code] >= k for code, k in used):
                    for code, k in used:
                        c[code] -= k
                    res = go(i + 1, c, fj + freed)
                    for code, k in used:
                        c[code] += k
                    if res:
                        break
        memo[key] = res
        return res

    return go(0, counts[:], 0)


def _outcomes(rules: Rules, meld: RemiMeld, counts: list[int], limit: int,
              seat: int) -> list[tuple[tuple[tuple[int, int], ...], int]]:
    """What one table meld can take this turn: every ``(used, freed)`` reachable from it by
    single additions (``meld.adds``) and Joly retrievals (``meld.releases``, at most ``limit``
    per Joly) with the tiles of ``counts``: ``used`` the rack tiles put in as sorted
    ``(code, count)`` pairs, ``freed`` the Jolys taken back. The nothing-taken outcome is first;
    the others follow by more tiles used. A meld has at most a few hundred states (a run spans at
    most 14 places, a set 4), so this is small and exact."""
    start: tuple[tuple[int, int], ...] = ()
    seen = {(meld.key, start, 0)}
    out = {(start, 0)}
    todo = [(meld, start, 0)]
    while todo:
        m, used, freed = todo.pop()
        u = dict(used)
        moves = [(code, m.with_added, (code, pos, seat), 0) for code, pos in m.adds]
        moves += [(code, m.with_released, (code, idx, seat), 1) for code, idx in m.releases
                  if m.jr[idx] < limit]
        for code, make, args, f in moves:
            if u.get(code, 0) >= counts[code]:
                continue
            nu = dict(u)
            nu[code] = nu.get(code, 0) + 1
            nused = tuple(sorted(nu.items()))
            nm = make(rules, *args)
            key = (nm.key, nused, freed + f)
            if key in seen:
                continue
            seen.add(key)
            out.add((nused, freed + f))
            todo.append((nm, nused, freed + f))
    return sorted(out, key=lambda o: (-sum(k for _c, k in o[0]), -o[1]))


def _one_joly_melds(rules: Rules, r: Sequence[int]) -> list[tuple[int, ...]]:
    """The real tiles of every valid run/set holding exactly one Joly whose real tiles ``r``
    holds (each multiset once)."""
    from .table import RUN, SET, _geometry, set_order

    out: set[tuple[int, ...]] = set()
    top = 14 if rules.high_ace else 13
    for col in range(4):
        for a in range(1, top - 1):
            for n in range(3, top - a + 2):
                base = [col * 13 + (k - 1) % 13 for k in range(a, a + n)]
                missing = [i for i, c in enumerate(base) if not r[c]]
                if len(missing) > 1:
                    break
                for i in (missing or range(n)):
                    tiles = tuple(J if k == i else c for k, c in enumerate(base))
                    if _geometry(rules, RUN, tiles) is not None:
                        out.add(tuple(sorted(c for c in tiles if c != J)))
    for num in range(13):
        present = [k * 13 + num for k in range(4) if r[k * 13 + num]]
        for size in (2, 3):
            from itertools import combinations

            for reals in combinations(present, size):
                items = set_order([(c, 0, 0) for c in reals] + [(J, 0, 0)])
                if _geometry(rules, SET, tuple(i[0] for i in items)) is not None:
                    out.add(tuple(sorted(reals)))
    return sorted(out)


def _fits(counts: list[int], needs: tuple[int, ...], atu: int, spare_j: int) -> bool:
    rest = list(needs)
    rest.remove(atu)
    c = counts[:]
    c[atu] -= 1
    for t in rest:
        if t == J:
            if spare_j <= 0:
                return False
            spare_j -= 1
        elif c[t] <= 0:
            return False
        else:
            c[t] -= 1
    return True


_PARTNERS: dict[Rules, list[list[tuple[int, ...]]]] = {}
_LAY_PARTNERS: dict[Rules, list[list[tuple[int, ...]]]] = {}


def _lay_partners(rules: Rules) -> list[list[tuple[int, ...]]]:
    """Per real code, the other real tiles of each ``lay_melds`` run holding it."""
    got = _LAY_PARTNERS.get(rules)
    if got is None:
        got = [[] for _ in range(52)]
        for _t, needs in lay_melds(rules):
            reals = [c for c in needs if c != J]
            for c in reals:
                got[c].append(tuple(o for o in reals if o != c))
        _LAY_PARTNERS[rules] = got
    return got


def _loose(rules: Rules, counts: list[int], jolys: int, melds: Sequence[RemiMeld]) -> int:
    """How many real tiles of ``counts`` (with multiplicity) fit no 3-tile meld with other tiles
    of ``counts`` (``jolys`` Jolys usable) and no table meld (same colour as a table run, or a
    tile a meld takes): a cheap lower bound of the tiles that cannot go down this turn."""
    partners = _PARTNERS.get(rules)
    if partners is None:
        partners = [[] for _ in range(52)]
        for _v, _t, needs in three_melds(rules):
            for c in needs:
                if c != J:
                    rest = list(needs)
                    rest.remove(c)
                    partners[c].append(tuple(rest))
        _PARTNERS[rules] = partners
    takes = {c for m in melds for c, _p in m.adds} | {c for m in melds for c, _i in m.releases}
    for m in melds:  # tiles a table run can reach one addition at a time (Jolys fill gaps)
        if m.kind != 1:
            continue
        i0, c0 = next((i, c) for i, c in enumerate(m.tiles) if c != J)
        col = c0 // 13
        start = c0 % 13 + 1 - i0
        for step, n, stop in ((1, start + len(m.tiles), 15), (-1, start - 1, 0)):
            j = jolys
            while n != stop:
                code = col * 13 + (n - 1) % 13
                if counts[code]:
                    takes.add(code)
                elif j > 0:
                    j -= 1
                else:
                    break
                n += step
    loose = 0
    for c in range(52):
        k = counts[c]
        if not k or c in takes:
            continue
        ok = False
        for a, b in partners[c]:
            need_j = (a == J) + (b == J)
            if need_j > jolys:
                continue
            if (a == J or counts[a] - (a == c) >= 1 + (a == b)) and (b == J or counts[b] - (b == c) >= 1):
                ok = True
                break
        if not ok and jolys >= 2:                # a run only 'lay' builds (both Jolys, RO-7)
            ok = any(all(counts[o] for o in others) for others in _lay_partners(rules)[c])
        if not ok:
            loose += k
    return loose

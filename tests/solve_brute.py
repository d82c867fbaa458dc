"""A deliberately naive brute force for tiny racks, independent of the solver's algorithm.

It lists every legal meld that the rack can supply (runs with every joker placement, sets with every
colour choice), then tries every collection of disjoint melds. Exponential: use with racks of at most
~9 tiles. Rule IDs: R101-5 / RO-6 / RO-7 (meld shapes), R101-6 / RO-8 / RO-12 / CR-2 (values).
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

JOKER = 52


def candidate_melds(cr: Any, counts: list[int]) -> list[tuple[int, tuple[int, ...], int]]:
    """(kind, sorted multiset of codes used, value) for every legal meld the rack can supply;
    kind 1 = run, 2 = set. Only the best value per (kind, multiset) is kept."""
    J = counts[JOKER]
    best: dict[tuple[int, tuple[int, ...]], int] = {}
    last = 14 if cr.high_ace else 13

    def jv(value: int) -> int:
        return value if cr.joker_value == -1 else cr.joker_value

    def ok_ratio(real: int, jokers: int) -> bool:
        return real >= 1 and real >= cr.joker_ratio * jokers

    for c in range(4):
        for start in range(1, last + 1):
            for end in range(start + 2, last + 1):
                positions = list(range(start, end + 1))
                for jmask in range(1 << len(positions)):
                    jokers = jmask.bit_count()
                    if jokers > J:
                        continue
                    used: list[int] = []
                    value = 0
                    for i, n in enumerate(positions):
                        if (jmask >> i) & 1:
                            used.append(JOKER)
                            value += jv(cr.run_value[n])
                        else:
                            used.append(c * 13 + (n if n <= 13 else 1) - 1)
                            value += cr.run_value[n]
                    real = len(positions) - jokers
                    if not ok_ratio(real, jokers):
                        continue
                    key = (1, tuple(sorted(used)))
                    if any(key[1].count(x) > counts[x] for x in set(key[1])):
                        continue
                    best[key] = max(best.get(key, -1), value)
    for n in range(1, 14):
        for size in (3, 4):
            for k in range(1, size + 1):
                jokers = size - k
                if jokers > J or not ok_ratio(k, jokers):
                    continue
                for cols in combinations(range(4), k):
                    used = [c * 13 + n - 1 for c in cols] + [JOKER] * jokers
                    if any(used.count(x) > counts[x] for x in set(used)):
                        continue
                    value = k * cr.set_value[n] + jokers * jv(cr.set_value[n])
                    key = (2, tuple(sorted(used)))
                    best[key] = max(best.get(key, -1), value)
    return [(k[0], k[1], v) for k, v in best.items()]


def brute_best(cr: Any, counts: list[int], keep: bool, must_use: int, require_run: bool) -> int:
    """The maximum value over every collection of disjoint melds meeting the constraints; -1 if none."""
    melds = candidate_melds(cr, counts)
    best = -1

    def go(rem: list[int], left: int, value: int, ran: bool, mu_used: bool) -> None:
        # branch on the lowest real tile still free: leave it on the rack, or meld it
        nonlocal best
        x = next((c for c in range(JOKER) if rem[c] > 0), -1)
        if x < 0:
            left += rem[JOKER]
            if keep and left == 0:
                return
            if require_run and not ran:
                return
            if must_use >= 0 and not mu_used:
                return
            best = max(best, value)
            return
        rem[x] -= 1
        go(rem, left + 1, value, ran, mu_used)
        rem[x] += 1
        for kind, used, v in melds:
            if x in used and all(used.count(y) <= rem[y] for y in set(used)):
                for y in used:
                    rem[y] -= 1
                go(rem, left, value + v, ran or kind == 1, mu_used or must_use in used)
                for y in used:
                    rem[y] += 1

    go(list(counts), 0, 0, False, False)
    return best

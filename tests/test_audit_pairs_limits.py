"""Rules audit: the pairs search at the service's limits (up to 28 tiles and 6 jokers, R101-10)
against an outsider's dynamic programme written from RULES.md R101-5, R101-6, R101-8, R101-12
and R101-4, on both backends.

tests/test_pairs_tiebreak.py enumerates every pairing, so its racks stop at 10 tiles and 2
jokers; this programme walks the 52 codes once with the state (jokers laid, tiles laid, the
must-use tile placed), so it reaches the whole of what a caller may send: the most pairs (two
equal real tiles, or a real tile and a joker; two jokers are no pair), keeping a tile to discard
when asked, holding the must-use tile (a joker too) when asked, and among the most pairs the
least penalty left on the rack (face values, a joker 101; docs/solve.md "Pairs").
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from rummy101 import _backend
from rummy101.solve import current_budget

JOKER = 52


def face(code: int) -> int:
    return 101 if code == JOKER else code % 13 + 1  # R101-6


def most_pairs(counts: Sequence[int], keep: bool, must_use: int) -> tuple[int, int] | None:
    """(most pairs, least penalty left among them), or None when keep / must_use cannot be met."""
    jokers, total = counts[JOKER], sum(counts)
    # state (jokers laid, tiles laid, must_use placed) -> (pairs, value laid), the best
    states = {(0, 0, must_use < 0): (0, 0)}
    for code in range(52):
        k = counts[code]
        if not k:
            continue
        nxt: dict[tuple[int, int, bool], tuple[int, int]] = {}
        for (laid_j, laid, placed), (pairs, value) in states.items():
            for real in range(k // 2 + 1):  # pairs of two real tiles
                for wild in range(min(jokers - laid_j, k - 2 * real) + 1):  # tile + joker
                    key = (
                        laid_j + wild,
                        laid + 2 * real + 2 * wild,
                        placed or (code == must_use and real + wild > 0),
                    )
                    val = (pairs + real + wild, value + face(code) * (2 * real + wild) + 101 * wild)
                    if key not in nxt or val > nxt[key]:
                        nxt[key] = val
        states = nxt
    held = sum(face(c) * counts[c] for c in range(53))
    best: tuple[int, int] | None = None
    for (laid_j, laid, placed), (pairs, value) in states.items():
        if must_use == JOKER:
            placed = laid_j > 0
        if not placed or (keep and laid >= total):
            continue
        if best is None or (pairs, -(held - value)) > (best[0], -best[1]):
            best = (pairs, held - value)
    return best


def rack(rng: random.Random) -> list[int]:
    counts = [0] * 53
    jokers = rng.choice([0, 0, 1, 2, 3, 4, 5, 6])
    pool = rng.sample(range(52), rng.randint(3, 20))
    size = min(rng.randint(1, 28) - jokers, 2 * len(pool))
    while sum(counts) < size:
        c = rng.choice(pool)
        if counts[c] < 2:
            counts[c] += 1
    counts[JOKER] = jokers
    return counts


def test_max_pairs_at_the_limits_matches_the_outsider(backend: str) -> None:
    core = _backend.core()
    rng = random.Random("audit-pairs-limits")
    for _ in range(1500 if backend == "native" else 300):
        counts = rack(rng)
        keep = rng.random() < 0.7
        held = [c for c in range(53) if counts[c]]
        must_use = rng.choice(held) if held and rng.random() < 0.4 else -1
        n, pairs = core.max_pairs(counts, keep, must_use, current_budget())
        want = most_pairs(counts, keep, must_use)
        where = (counts, keep, must_use, n, pairs, want)
        if want is None or want[0] == 0:
            assert n <= 0 and not pairs, where
            continue
        assert n == want[0] == len(pairs), where
        laid = [0] * 53
        for a, b in pairs:
            assert a != JOKER and b in (a, JOKER), where  # R101-5: a joker stands for one tile
            laid[a] += 1
            laid[b] += 1
        assert all(laid[c] <= counts[c] for c in range(53)), where
        assert not keep or sum(laid) < sum(counts), where  # R101-12
        assert must_use < 0 or laid[must_use], where  # R101-4
        assert sum(face(c) * (counts[c] - laid[c]) for c in range(53)) == want[1], where

"""The deal as a pure function of (rules, seed, round): identical on every machine.

The shuffle is written out here rather than taken from ``random.shuffle`` so that it never
depends on library internals:

1. The tile set in ascending code order: every numbered tile code 0..51 ``rules.copies`` times,
   then ``rules.jokers`` jokers (code 52). Rummy 101: 106 tiles (R101-1).
2. A Mersenne Twister ``random.Random`` seeded with the string ``"rummy101-deal:{seed}:{round}"``
   (string seeding hashes with SHA-512, stable across platforms and Python versions).
3. Fisher-Yates (Durstenfeld) from the last index down: for ``i = n-1 .. 1`` pick ``j`` uniform in
   ``0..i`` by rejection sampling on ``getrandbits((i + 1).bit_length())`` and swap items ``i`` and
   ``j``.
4. Dealing (R101-2): seats in order starting at the round's starter each get the next
   ``hand_size`` tiles from the front of the shuffled list; then the starter gets one more. The
   remaining tiles are the stock; the *last* element is the top of the stock.

>>> stock, racks = deal_tiles(Rules.parse("rummy101"), 7, 0)
>>> [len(r) for r in racks], len(stock)
([22, 21, 21, 21], 21)
>>> deal_tiles(Rules.parse("rummy101"), 7, 0) == (stock, racks)
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..errors import RulesError
from ..rules import Rules
from ..tiles import JOKER_CODE

if TYPE_CHECKING:
    from .state import State

__all__ = ["deal_tiles", "seat_round", "shuffled_tiles", "starter_of"]


def _below(rng: random.Random, n: int) -> int:
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


def shuffled_tiles(rules: Rules, seed: int, round_index: int = 0) -> list[int]:
    """The full tile set of ``rules`` shuffled for (seed, round) as described above."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise RulesError(f"seed must be a whole number, got {type(seed).__name__} {seed!r}")
    base, steps = _tile_set(rules.copies, rules.jokers)
    tiles = list(base)
    draw = random.Random(f"rummy101-deal:{seed}:{round_index}").getrandbits
    # step 3 with _below written inline (the same getrandbits calls in the same order)
    for i, k in steps:
        j = draw(k)
        while j > i:
            j = draw(k)
        tiles[i], tiles[j] = tiles[j], tiles[i]
    return tiles


_TILE_SETS: dict[tuple[int, int], tuple[tuple[int, ...], tuple[tuple[int, int], ...]]] = {}


def _tile_set(copies: int, jokers: int) -> tuple[tuple[int, ...], tuple[tuple[int, int], ...]]:
    """Step 1's tile set and step 3's ``(i, (i + 1).bit_length())`` in shuffle order, made once
    per kind of set."""
    got = _TILE_SETS.get((copies, jokers))
    if got is None:
        tiles = tuple([c for c in range(52) for _ in range(copies)] + [JOKER_CODE] * jokers)
        got = tiles, tuple((i, (i + 1).bit_length()) for i in range(len(tiles) - 1, 0, -1))
        _TILE_SETS[(copies, jokers)] = got
    return got


def starter_of(rules: Rules, round_index: int) -> int:
    """Seat 0 starts the first round; the starting seat rotates by one each round (R101-2)."""
    return round_index % rules.players


def deal_tiles(rules: Rules, seed: int, round_index: int = 0) -> tuple[list[int], list[list[int]]]:
    """``(stock, racks)``: the stock (top = last element) and each seat's dealt tiles (R101-2)."""
    tiles = shuffled_tiles(rules, seed, round_index)
    n = rules.players
    starter = starter_of(rules, round_index)
    racks: list[list[int]] = [[] for _ in range(n)]
    pos = 0
    for k in range(n):
        seat = (starter + k) % n
        racks[seat] = tiles[pos:pos + rules.hand_size]
        pos += rules.hand_size
    racks[starter] = racks[starter] + tiles[pos:pos + rules.starter_extra]
    pos += rules.starter_extra
    return tiles[pos:], racks


def seat_round(s: State, round_index: int, racks: Sequence[Sequence[int]], stock: list[int]) -> None:
    """Set the shared fields of a new round on ``s``: the round, its starter (who acts first),
    turn 0, the dealt racks as count vectors, their sizes, the stock and an empty table. Every
    engine's round start calls it after its own deal."""
    s.round = round_index
    s.starter = starter_of(s.rules, round_index)
    s.current = s.starter
    s.turn = 0
    s.racks = []
    for pieces in racks:
        cv = [0] * 53
        for c in pieces:
            cv[c] += 1
        s.racks.append(cv)
    s.sizes = [len(r) for r in racks]
    s.stock = stock
    s.table = []

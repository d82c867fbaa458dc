"""The Remi engine against an independent reading of RULES.md, written from the rule text alone
(no engine or core code): RO-6/RO-7/RO-8/RO-9.5 for every table meld the rules allow and the
tuples around them, and RO-10's "take the last discard only if it helps the first lay-down" on
seeded random racks. Each test runs on both backends (the ``backend`` fixture)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from functools import lru_cache

from audit_helpers import legal
from rummy101 import Rules
from rummy101.game.engines.remi.table import RUN, SET, RemiMeld
from rummy101.tiles import JOKER_CODE, Tile
from test_audit_remi import pos

J = JOKER_CODE
REMI = Rules.parse("remi")
TS = [str(Tile(c)) for c in range(53)]
Melds = list[tuple[str, tuple[tuple[int, int], ...], int]]


def num(c: int) -> int:
    return c % 13 + 1


def code_of(colour: int, v: int) -> int:
    """A tile from a run position value 1..14 (14 is the high 1 of RO-6)."""
    return colour * 13 + (0 if v in (1, 14) else v - 1)


def run_value(v: int) -> int:
    """RO-8 lay-down value of run position v: 1 low -> 5, 14 (high 1) and 10-13 -> 10."""
    return 10 if v >= 10 else 5


def set_value(v: int) -> int:
    """RO-8: a 1 in a set -> 10."""
    return 10 if v == 1 or v >= 10 else 5


def read_run(t: list[int]) -> tuple[int, set[tuple[int, int]], set[tuple[int, int]]] | None:
    """(lay-down value, single-tile additions (code, 0 start / 1 end), Joly releases (code,
    index)) of tiles in table order read as a run, else None. RO-6: one colour, consecutive,
    1 low or after 13, never in the middle, at most 14; RO-7: a Joly keeps its place, real tiles
    at least twice the Jolys; RO-9.5: a Joly goes only for the tile it stands for."""
    n = len(t)
    reals = [(i, c) for i, c in enumerate(t) if c != J]
    nj = n - len(reals)
    if not 3 <= n <= 14 or len(reals) < 2 * nj or len({c // 13 for _, c in reals}) != 1:
        return None
    colour = reals[0][1] // 13
    i0, c0 = reals[0]
    starts = {num(c0) - i0} | ({14 - i0} if num(c0) == 1 else set())
    good = [v0 for v0 in starts if v0 >= 1 and v0 + n - 1 <= 14
            and all(num(c) == v0 + i or (num(c) == 1 and v0 + i == 14) for i, c in reals)]
    if not good:
        return None
    v0, = good
    vals = [v0 + i for i in range(n)]
    adds: set[tuple[int, int]] = set()
    joly_fits = len(reals) >= 2 * (nj + 1)
    if v0 > 1:
        adds |= {(code_of(colour, v0 - 1), 0)} | ({(J, 0)} if joly_fits else set())
    if vals[-1] < 14:
        adds |= {(code_of(colour, vals[-1] + 1), 1)} | ({(J, 1)} if joly_fits else set())
    releases = {(code_of(colour, vals[i]), i) for i, c in enumerate(t) if c == J}
    return sum(run_value(v) for v in vals), adds, releases


def read_set(t: list[int]) -> tuple[int, set[tuple[int, int]], set[tuple[int, int]]] | None:
    """The same for a set: one number, different colours, 3 or 4 tiles (RO-6), RO-7's ratio; a
    3-tile set with a Joly gives it to no single tile (RO-9.6), a 4-tile set to its missing
    colour."""
    n = len(t)
    reals = [c for c in t if c != J]
    nj = n - len(reals)
    colours = {c // 13 for c in reals}
    if not 3 <= n <= 4 or len(reals) < 2 * nj or len({num(c) for c in reals}) != 1 \
            or len(colours) < len(reals):
        return None
    v = num(reals[0])
    missing = [k for k in range(4) if k not in colours]
    adds: set[tuple[int, int]] = set()
    if n == 3:
        adds = {(code_of(k, v), -1) for k in missing} | ({(J, -1)} if len(reals) >= 2 * (nj + 1) else set())
    releases = {(code_of(missing[0], v), t.index(J))} if n == 4 and nj == 1 else set()
    return n * set_value(v), adds, releases


def engine_reads(kind: int, t: list[int]) -> tuple[int, set[tuple[int, int]], set[tuple[int, int]]] | None:
    try:
        m = RemiMeld.build(REMI, kind, 0, tuple(t), (0,) * len(t), (0,) * len(t))
    except ValueError:
        return None
    return m.value, set(m.adds), set(m.releases)


def test_ro6_ro7_ro8_table_melds_match_an_independent_reading(backend: str) -> None:
    """Every run window 1..14 (high 1) of two colours with any 0-3 Joly places, every 3- and
    4-tuple over one colour's tiles, a Joly and strays, and every set arrangement of each number:
    valid or not, lay-down value, what each end takes, what frees each Joly."""
    diffs = []
    for colour in (0, 3):
        for v0 in range(1, 15):
            for n in range(3, 16 - v0):
                base = [code_of(colour, v0 + i) for i in range(n)]
                for nj in range(4):
                    for places in itertools.combinations(range(n), nj):
                        t = [J if i in places else c for i, c in enumerate(base)]
                        if read_run(t) != engine_reads(RUN, t):
                            diffs.append(("run", t))
    alphabet = [code_of(0, v) for v in range(1, 14)] + [J, code_of(1, 5), code_of(1, 13), code_of(1, 1)]
    for n in (3, 4):
        for tup in itertools.product(alphabet, repeat=n):
            if read_run(list(tup)) != engine_reads(RUN, list(tup)):
                diffs.append(("run", list(tup)))
    for v in range(1, 14):
        pool = [code_of(k, v) for k in range(4)] + [J, J, code_of(0, v % 13 + 1)]
        for n in (3, 4, 5):
            for tup in set(itertools.permutations(pool, n)):
                if read_set(list(tup)) != engine_reads(SET, list(tup)):
                    diffs.append(("set", list(tup)))
    assert [(k, " ".join(TS[c] for c in t)) for k, t in diffs[:10]] == []


def candidate_melds(counts: list[int]) -> Melds:
    """Every run/set (RO-6, RO-7) the counts can supply, as (kind, tile counts, lay-down value)."""
    out = set()
    nj = counts[J]
    for colour in range(4):
        for v0 in range(1, 15):
            for n in range(3, 16 - v0):
                for jn in range(min(2, nj) + 1):
                    if n - jn < 2 * jn:
                        continue
                    for places in itertools.combinations(range(n), jn):
                        need: dict[int, int] = {}
                        for i in range(n):
                            c = J if i in places else code_of(colour, v0 + i)
                            need[c] = need.get(c, 0) + 1
                        if all(counts[c] >= q for c, q in need.items()):
                            out.add(("run", tuple(sorted(need.items())),
                                     sum(run_value(v0 + i) for i in range(n))))
    for v in range(1, 14):
        for n in (3, 4):
            for jn in range(min(2, nj) + 1):
                if n - jn < 2 * jn:
                    continue
                for cols in itertools.combinations(range(4), n - jn):
                    need = {code_of(k, v): 1 for k in cols} | ({J: jn} if jn else {})
                    if all(counts[c] >= q for c, q in need.items()):
                        out.add(("set", tuple(sorted(need.items())), n * set_value(v)))
    return sorted(out)


def taking(melds: Melds, state: list[int] | tuple[int, ...],
           tile: int) -> Iterator[tuple[str, int, list[int]]]:
    """(kind, value, counts left) of each meld of ``melds`` that holds ``tile`` and that
    ``state`` can supply."""
    for kind, need, value in melds:
        d = dict(need)
        if tile in d and all(state[c] >= q for c, q in d.items()):
            left = list(state)
            for c, q in d.items():
                left[c] -= q
            yield kind, value, left


def lays_down_with(counts: list[int], tile: int) -> bool:
    """RO-8 with RO-10 and RO-13: some runs/sets of the 15 tiles, one holding ``tile``, at least
    one a run, worth >= 45 in lay-down values, leaving a tile to discard."""
    melds = candidate_melds(counts)

    @lru_cache(None)
    def best(state: tuple[int, ...], has_run: bool) -> int:
        first = next((i for i, q in enumerate(state) if q), None)
        if first is None:
            return 0 if has_run else -10**9
        rest = list(state)
        rest[first] -= 1
        got = best(tuple(rest), has_run)                 # that tile stays on the rack
        for kind, value, left in taking(melds, state, first):
            got = max(got, value + best(tuple(left), has_run or kind == "run"))
        return got

    for kind, value, left in taking(melds, counts, tile):
        for keep in range(53):                           # the tile kept for the discard
            if left[keep]:
                rest = list(left)
                rest[keep] -= 1
                if value + best(tuple(rest), kind == "run") >= 45:
                    return True
    return False


def test_ro10_unlaid_take_matches_an_independent_reading(backend: str) -> None:
    """RO-10: a player not laid down may take the last discard exactly when a lay-down of this
    turn holds it (RO-8: >= 45 with a run, lay-down values; RO-13: a tile kept to discard)."""
    rng = random.Random(1004)
    diffs, tried, yes = [], 0, 0
    while tried < (120 if backend == "native" else 40):
        tiles: list[int] = []
        while len(tiles) < 15:
            r = rng.random()
            if r < 0.3:
                k, v0 = rng.randrange(4), rng.randint(1, 12)
                tiles += [code_of(k, v) for v in range(v0, min(v0 + rng.randint(3, 5), 15))]
            elif r < 0.5:
                v = rng.randint(1, 13)
                tiles += [code_of(k, v) for k in rng.sample(range(4), 3)]
            else:
                tiles.append(rng.randrange(53))
        tiles = tiles[:15]
        for _ in range(rng.choice([0, 0, 1, 2])):
            tiles[rng.randrange(15)] = J
        counts = [tiles.count(c) for c in range(53)]
        if counts[J] > 2 or max(counts[:52]) > 2:
            continue
        tried += 1
        taken = tiles[rng.randrange(15)]
        rack = list(counts)
        rack[taken] -= 1
        text = " ".join(TS[c] for c in range(53) for _ in range(rack[c]))
        s = pos(racks=["R5 R6", text, "B2 B3 B4", "B3 B4 B5"], train="K9 Y13 " + TS[taken], atu=None)
        expected = lays_down_with(counts, taken)
        yes += expected
        if ("take" in legal(s)) != expected:
            diffs.append((text, TS[taken], expected))
    assert diffs == []
    assert 0 < yes < tried                               # both answers were exercised


def atu_finishes(counts: list[int], atu: int, laid: bool) -> bool:
    """RO-4 with nothing on the table to add to: the tiles with the Atu are all new runs/sets but
    one tile to discard (RO-13), a meld holds the Atu, the discard is not the Atu (its twin may
    go); not laid down, a run among them (RO-8; 13 tiles are worth >= 45)."""
    melds = candidate_melds(counts)

    @lru_cache(None)
    def cover(state: tuple[int, ...], has_run: bool) -> bool:
        first = next((i for i, q in enumerate(state) if q), None)
        if first is None:
            return has_run or laid
        return any(cover(tuple(left), has_run or kind == "run")
                   for kind, _value, left in taking(melds, state, first))

    for discard in range(53):
        rest = list(counts)
        rest[discard] -= 1
        if rest[discard] < 0 or rest[atu] == 0:
            continue
        if any(cover(tuple(left), kind == "run") for kind, _value, left in taking(melds, rest, atu)):
            return True
    return False


def test_ro4_atu_offer_matches_an_independent_reading(backend: str) -> None:
    """RO-4: ``atu`` is offered exactly when the Atu finishes the turn, for laid-down players
    (3-9 tiles) and players not laid down (14 tiles), on seeded random racks near melds."""
    rng = random.Random(404)
    diffs, yes, tried = [], [0, 0], 0
    while tried < (160 if backend == "native" else 40):
        laid = tried % 2 == 0
        n = rng.randint(3, 9) if laid else 14
        tiles: list[int] = []
        while len(tiles) < n + 1:
            r = rng.random()
            if r < 0.45:
                k, v0 = rng.randrange(4), rng.randint(1, 12)
                tiles += [code_of(k, v) for v in range(v0, min(v0 + 3, 15))]
            elif r < 0.75:
                v = rng.randint(1, 13)
                tiles += [code_of(k, v) for k in rng.sample(range(4), 3)]
            else:
                tiles.append(rng.randrange(53))
        tiles = tiles[:n + 1]
        if rng.random() < 0.3:
            tiles[rng.randrange(n + 1)] = J
        atu = tiles[rng.randrange(n + 1)]
        counts = [tiles.count(c) for c in range(53)]
        if atu == J or counts[J] > 2 or max(counts[:52]) > 2:
            continue
        tried += 1
        rack = list(counts)
        rack[atu] -= 1
        text = " ".join(TS[c] for c in range(53) for _ in range(rack[c]))
        s = pos(racks=["R5 R6", text, "B2 B3 B4", "B3 B4 B5"], laid=[laid, laid, True, True],
                train="K9", atu=TS[atu])
        expected = atu_finishes(counts, atu, laid)
        yes[laid] += expected
        if ("atu" in legal(s)) != expected:
            diffs.append((text, TS[atu], laid, expected))
    assert diffs == []
    assert min(yes) > 0                                  # finishes found both laid and not

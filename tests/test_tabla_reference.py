"""Tabla answers against an independent brute-force reference (RULES.md RO-11, RO-6, RO-7).

The reference is written straight from the rule text and shares no code with either backend:
rows by trying every placement of the rack's tiles and every colour of the Jolys, the simple
close by listing every meld the rack can supply and searching exact covers, the Mozaic distance
by scoring every legal Mozaic colouring at once (numpy).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from dataclasses import dataclass
from functools import cache, lru_cache

import numpy as np
import pytest
from rummy101 import _backend
from rummy101.rules import CoreParams, Rules

pytestmark = pytest.mark.usefixtures("backend")

REMI = Rules.parse("remi")
JOKER = 52
ROW = list(range(1, 14)) + [1]


def code(colour: int, number: int) -> int:
    return colour * 13 + (1 if number == 14 else number) - 1


# ---- rows ----------------------------------------------------------------------------------------

def is_mono(col: tuple[int, ...]) -> bool:
    return len(set(col)) == 1


def is_bi(col: tuple[int, ...]) -> bool:
    return len(set(col)) == 2 and all(a != b for a, b in itertools.pairwise(col))


def is_moz(col: tuple[int, ...]) -> bool:
    return all(a != b for a, b in itertools.pairwise(col)) and len(set(col[:4])) == 4


def ref_rows(counts: list[int]) -> set[str]:
    """Row patterns (RO-11) by placing every real tile at its number and colouring the rest."""
    reals = [c for c in range(52) for _ in range(counts[c])]
    by_number: dict[int, list[int]] = {}
    for t in reals:
        by_number.setdefault(t % 13 + 1, []).append(t // 13)
    if any(len(v) > 1 for n, v in by_number.items() if n != 1) or len(by_number.get(1, [])) > 2:
        return set()
    found = set()
    ones = by_number.get(1, [])
    one_slots: list[tuple[int, ...]] = {0: [()], 1: [(0,), (13,)], 2: [(0, 13), (13, 0)]}[len(ones)]
    for slots in one_slots:
        fixed = {n - 1: v[0] for n, v in by_number.items() if n != 1}
        fixed.update({pos: ones[i] for i, pos in enumerate(slots)})
        free = [i for i in range(14) if i not in fixed]
        for colours in itertools.product(range(4), repeat=len(free)):
            col = dict(fixed)
            col.update(zip(free, colours))
            row = tuple(col[i] for i in range(14))
            if is_mono(row):
                found.add("monocolor")
            if is_bi(row):
                found.add("bicolor")
            if is_moz(row):
                found.add("mozaic")
    return found


@lru_cache(maxsize=1)
def mozaic_colourings() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every legal Mozaic colouring (RO-11), as (first colour, last colour, tile codes of the
    numbers 2..13): 24 * 3**10 rows."""
    rows = np.array([p for p in itertools.permutations(range(4))], dtype=np.int8)
    for _ in range(10):
        nxt = []
        for x in range(4):
            keep = rows[rows[:, -1] != x]
            nxt.append(np.hstack([keep, np.full((len(keep), 1), x, dtype=np.int8)]))
        rows = np.vstack(nxt)
    mid = (rows[:, 1:13] * 13 + np.arange(1, 13, dtype=np.int8)).astype(np.int8)
    return rows[:, 0].astype(np.intp), rows[:, 13].astype(np.intp), mid


def ref_row_distance(counts: list[int], pattern: str) -> int:
    """Fewest real tiles to replace: try every colouring of the row and count what fits."""
    have = np.array([1 if counts[c] else 0 for c in range(52)], dtype=np.int8)
    ones = np.array([counts[code(c, 1)] for c in range(4)])
    reals = 14 - counts[JOKER]
    if pattern == "mozaic":
        first, last, mid_codes = mozaic_colourings()
    else:
        cols = (np.array([[a if i % 2 == 0 else b for i in range(14)]
                          for a in range(4) for b in range(4) if a != b]) if pattern == "bicolor"
                else np.array([[c] * 14 for c in range(4)]))
        first, last = cols[:, 0], cols[:, 13]
        mid_codes = cols[:, 1:13] * 13 + np.arange(1, 13)
    mid = np.take(have, mid_codes).sum(axis=1, dtype=np.int32)
    one = np.where(first == last, np.minimum(ones[first], 2),
                   np.minimum(ones[first], 1) + np.minimum(ones[last], 1))
    return int(reals - (mid + one).max())


# ---- simple close -------------------------------------------------------------------------------

def ref_melds(counts: list[int], high: bool = True,
              ratio: int = 2) -> list[tuple[bool, tuple[int, ...]]]:
    """Every run/set (RO-6, RO-7) the rack can supply, as (is_run, sorted codes with 52s)."""
    jokers = counts[JOKER]
    out = set()

    def add(is_run: bool, cells: list[int]) -> None:
        for k in range(min(jokers, len(cells)) + 1):
            for js in itertools.combinations(range(len(cells)), k):
                real = len(cells) - k
                if real < 1 or real < ratio * k:
                    continue
                need = Counter(c for i, c in enumerate(cells) if i not in js)
                need[JOKER] += k
                if all(counts[c] >= v for c, v in need.items()):
                    out.add((is_run, tuple(sorted(need.elements()))))

    top = 14 if high else 13
    for c in range(4):
        for s in range(1, top + 1):
            for e in range(s + 2, top + 1):
                add(True, [code(c, q) for q in range(s, e + 1)])
    for n in range(1, 14):
        for size in (3, 4):
            for colours in itertools.combinations(range(4), size):
                add(False, [code(c, n) for c in colours])
    return sorted(out)


def ref_cover(counts: list[int], high: bool = True, ratio: int = 2) -> tuple[bool, int]:
    """(the rack splits exactly into melds with a run, most tiles coverable with a run or 0)."""
    by_tile: dict[int, list[tuple[bool, Counter[int]]]] = {}
    for is_run, cells in ref_melds(counts, high, ratio):
        for c in set(cells):
            by_tile.setdefault(c, []).append((is_run, Counter(cells)))

    @cache
    def best(rest: tuple[int, ...], has_run: bool) -> int:
        first = next((c for c in range(53) if rest[c]), None)
        if first is None:
            return 0 if has_run else -100
        dropped = list(rest)
        dropped[first] -= 1
        value = best(tuple(dropped), has_run)
        for is_run, need in by_tile.get(first, []):
            if all(rest[c] >= v for c, v in need.items()):
                left = list(rest)
                for c, v in need.items():
                    left[c] -= v
                value = max(value, need.total() + best(tuple(left), has_run or is_run))
        return value

    most = max(best(tuple(counts), False), 0)
    return most == sum(counts), most


# ---- racks --------------------------------------------------------------------------------------

def random_racks(seed: int, n: int, size: int) -> list[list[int]]:
    rng = random.Random(seed)
    deck = [c for c in range(52) for _ in range(2)] + [JOKER, JOKER]
    racks = []
    while len(racks) < n:
        kind = rng.randrange(4)
        if kind == 0:
            tiles = rng.sample(deck, size)
        elif kind == 1:  # near a row: colour each position, then spoil a few
            style = rng.randrange(3)
            a, b = rng.sample(range(4), 2)
            if style == 0:
                cols = [a] * 14
            elif style == 1:
                cols = [a if i % 2 == 0 else b for i in range(14)]
            else:  # a legal Mozaic colouring
                cols = rng.sample(range(4), 4)
                while len(cols) < 14:
                    cols.append(rng.choice([c for c in range(4) if c != cols[-1]]))
            tiles = [code(c, ROW[i]) for i, c in enumerate(cols)]
            for _ in range(rng.choice((0, 0, 1, 2, 3))):
                tiles[rng.randrange(14)] = rng.choice(deck)
            tiles += [rng.choice(deck) for _ in range(size - 14)]
        else:  # near a simple close: runs and sets of 14 tiles, a Joly or two, a spoilt tile
            tiles = []
            while len(tiles) != 14:
                if len(tiles) > 11:
                    tiles = []
                if rng.random() < 0.6:
                    c, s = rng.randrange(4), rng.randrange(1, 13)
                    k = min(rng.randrange(3, 6), 14 - len(tiles), 15 - s)
                    tiles += [code(c, q) for q in range(s, s + k)]
                else:
                    number = rng.randrange(1, 14)
                    tiles += [code(c, number) for c in rng.sample(range(4), rng.choice((3, 4)))]
                tiles = tiles[:14]
            for _ in range(rng.choice((0, 1, 1, 2))):
                tiles[rng.randrange(14)] = JOKER
            for _ in range(rng.choice((0, 0, 1))):
                tiles[rng.randrange(14)] = rng.choice(deck)
            tiles += [rng.choice(deck) for _ in range(size - 14)]
        counts = [0] * 53
        for t in tiles:
            counts[t] += 1
        if max(counts[:52]) <= 2 and counts[JOKER] <= 2:
            racks.append(counts)
    return racks


# ---- tests --------------------------------------------------------------------------------------

def check_arrangement(counts: list[int], pattern: int, row: list[int], stand: list[int],
                      melds: list[tuple[int, list[int], list[int]]]) -> None:
    core = _backend.core()
    if pattern == core.PATTERN_SIMPLE:
        used = Counter(t for _, ts, _ in melds for t in ts)
        assert used == Counter({c: k for c, k in enumerate(counts) if k}), "melds are the rack"
        valid = {m for m in ref_melds(counts)}
        assert any(kind == core.KIND_RUN for kind, _, _ in melds)
        for kind, ts, sf in melds:
            assert ((kind == core.KIND_RUN), tuple(sorted(ts))) in valid
            assert all(t == s for t, s in zip(ts, sf) if t != JOKER)
    else:
        assert Counter(row) == Counter({c: k for c, k in enumerate(counts) if k})
        cols = tuple(s // 13 for s in stand)
        assert [s % 13 + 1 for s in stand] == ROW
        assert all(t == s for t, s in zip(row, stand) if t != JOKER)
        pred = {core.PATTERN_MOZAIC: is_moz, core.PATTERN_BICOLOR: is_bi,
                core.PATTERN_MONOCOLOR: is_mono}[pattern]
        assert pred(cols)


NAMES = {1: "simple", 2: "mozaic", 3: "bicolor", 4: "monocolor"}


@cache
def reference(rack: tuple[int, ...]) -> tuple[set[str], list[int]]:
    """Patterns and distances of a 14-tile rack, computed once for both backends."""
    counts = list(rack)
    closes, most = ref_cover(counts)
    patterns = ref_rows(counts) | ({"simple"} if closes else set())
    return patterns, [14 - most, ref_row_distance(counts, "mozaic"),
                      ref_row_distance(counts, "bicolor"), ref_row_distance(counts, "monocolor")]


SWEEP = [pytest.param(0, 12, id="quick")] + [
    pytest.param(seed, 40, id=f"seed{seed}", marks=pytest.mark.slow) for seed in range(1, 6)]


@pytest.mark.parametrize("seed, n", SWEEP)
def test_patterns_and_distances_match_the_reference(seed: int, n: int) -> None:
    core = _backend.core()
    cr = _backend.core_rules(REMI)
    for counts in random_racks(seed, n, 14):
        found = core.tabla_patterns(cr, counts)
        patterns, distances = reference(tuple(counts))
        assert {NAMES[p[0]] for p in found} == patterns, counts
        assert [p[0] for p in found] == sorted((p[0] for p in found), reverse=True)
        for p in found:
            check_arrangement(counts, *p)
        assert core.tabla_distance(cr, counts) == distances, counts


@cache
def reference_closes(rack: tuple[int, ...]) -> list[tuple[int, str, int]]:
    """(discard, best pattern, score) for every closing discard of a 15-tile rack."""
    expected = []
    for d in range(53):
        if rack[d]:
            rest = list(rack)
            rest[d] -= 1
            pats = ref_rows(rest) | ({"simple"} if ref_cover(rest)[0] else set())
            if pats:
                best = max(pats, key=["simple", "mozaic", "bicolor", "monocolor"].index)
                score = {"simple": 400, "mozaic": 800, "bicolor": 1600, "monocolor": 3200}[best]
                expected.append((d, best, score * (2 if d == JOKER else 1)))
    return expected


@pytest.mark.parametrize("seed, n", [pytest.param(7, 8, id="quick"),
                                     pytest.param(8, 40, id="wide", marks=pytest.mark.slow)])
def test_closes_match_the_reference(seed: int, n: int) -> None:
    core = _backend.core()
    cr = _backend.core_rules(REMI)
    for counts in random_racks(seed, n, 15):
        got = core.tabla_closes(cr, counts)
        assert [(d, NAMES[p], s) for d, p, s, *_ in got] == reference_closes(tuple(counts)), counts
        for d, p, _, row, stand, melds in got:
            rest = list(counts)
            rest[d] -= 1
            check_arrangement(rest, p, row, stand, melds)


def test_simple_close_without_ratio_or_high_ace_matches_the_reference() -> None:
    core = _backend.core()
    for high, ratio in ((False, 2), (True, 0), (False, 0)):
        cr = core.CoreRules(high, ratio, [0] + [1] * 14, [0] + [1] * 13, 1)
        for counts in random_racks(11, 20, 14):
            closes, most = ref_cover(counts, high, ratio)
            found = [p for p in core.tabla_patterns(cr, counts) if p[0] == core.PATTERN_SIMPLE]
            assert bool(found) == closes, (high, ratio, counts)
            assert core.tabla_distance(cr, counts)[0] == 14 - most


def test_simple_close_agrees_with_solve_melds() -> None:
    """DESIGN.md: the simple close (RO-11) is solve_melds with unit values (Joly worth 1), no tile
    kept back and a run required: the rack closes exactly when that value is 14, and the simple
    distance is 14 minus it."""
    core = _backend.core()
    if not hasattr(core, "solve_melds"):
        pytest.skip("solve_melds not merged yet (solver branch)")
    cr = _backend.core_rules(REMI)
    unit = core.CoreRules(True, 2, [0] + [1] * 14, [0] + [1] * 13, 1)
    for counts in random_racks(5, 60, 14):
        value, _ = core.solve_melds(unit, counts, False, -1, True)
        simple = [p for p in core.tabla_patterns(cr, counts) if p[0] == core.PATTERN_SIMPLE]
        assert bool(simple) == (value == 14), counts
        assert core.tabla_distance(cr, counts)[0] == 14 - max(value, 0), counts


@dataclass(frozen=True)
class _UnitRemi:
    """Remi meld geometry with every tile worth 1, for tests/reference.py's integer program."""

    variant: str = "remi-unit"

    def params(self, valuation: str) -> CoreParams:
        return CoreParams(True, 2, (0,) + (1,) * 14, (0,) + (1,) * 13, 1)


def test_simple_distance_agrees_with_the_integer_program() -> None:
    """A third, unrelated check of the simple distance: tests/reference.py's MILP (HiGHS) with
    unit values, no tile kept back and a run required (RO-11 simple close, RO-7 ratio)."""
    from reference import reference_best

    core = _backend.core()
    cr = _backend.core_rules(REMI)
    for counts in random_racks(21, 15, 14):
        most = reference_best(_UnitRemi(), counts, keep=False, require_run=True)  # type: ignore[arg-type]
        assert core.tabla_distance(cr, counts)[0] == 14 - max(most, 0), counts

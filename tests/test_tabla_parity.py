"""Native and pure tabla cores give identical answers and identical errors (RULES.md RO-11),
and properties that tie the public 14- and 15-tile answers together.

Hypothesis draws racks from the Remi set (RO-1: two copies of each tile, two Jolys), including
racks built near each pattern so that closes, Jolys and high aces (RO-6) are common.
"""

from __future__ import annotations

from types import ModuleType

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from parity import same
from rummy101 import solve_tabla
from rummy101.rules import Rules
from rummy101.tiles import codes_of, format_tiles

REMI = Rules.parse("remi")
JOKER = 52
ROW = list(range(1, 14)) + [1]
DECK = [c for c in range(52) for _ in range(2)] + [JOKER, JOKER]


def code(colour: int, number: int) -> int:
    return colour * 13 + number - 1


def counts_of(tiles: list[int]) -> list[int]:
    counts = [0] * 53
    for t in tiles:
        counts[t] += 1
    return counts


def valid(counts: list[int]) -> bool:
    return max(counts[:52]) <= 2 and counts[JOKER] <= 2


@st.composite
def mozaic_colours(draw: st.DrawFn) -> list[int]:
    """A legal Mozaic colouring (RO-11): 1-2-3-4 in four colours, neighbours differ."""
    cols = list(draw(st.permutations(range(4))))
    while len(cols) < 14:
        cols.append(draw(st.sampled_from([c for c in range(4) if c != cols[-1]])))
    return cols


@st.composite
def racks(draw: st.DrawFn, size: int) -> list[int]:
    style = draw(st.sampled_from(["random", "row", "melds"]))
    if style == "random":
        idx = draw(st.lists(st.integers(0, len(DECK) - 1), min_size=size, max_size=size,
                            unique=True))
        return counts_of([DECK[i] for i in idx])
    if style == "row":
        cols = draw(st.one_of(
            st.integers(0, 3).map(lambda c: [c] * 14),
            st.tuples(st.integers(0, 3), st.integers(0, 3)).map(
                lambda ab: [ab[0] if i % 2 == 0 else ab[1] for i in range(14)]),
            st.lists(st.integers(0, 3), min_size=14, max_size=14),
            mozaic_colours()))
        tiles = [code(c, ROW[i]) for i, c in enumerate(cols)]
    else:
        tiles = []
        while len(tiles) < size:
            if draw(st.booleans()):
                c, s, n = draw(st.integers(0, 3)), draw(st.integers(1, 12)), draw(st.integers(3, 6))
                tiles += [code(c, q if q <= 13 else 1) for q in range(s, min(15, s + n))]
            else:
                n = draw(st.integers(1, 13))
                cs = draw(st.lists(st.integers(0, 3), min_size=3, max_size=4, unique=True))
                tiles += [code(c, n) for c in cs]
    tiles = tiles[:size]
    while len(tiles) < size:
        tiles.append(draw(st.sampled_from(DECK)))
    for _ in range(draw(st.integers(0, 3))):
        tiles[draw(st.integers(0, size - 1))] = draw(st.sampled_from(DECK))
    counts = counts_of(tiles)
    if not valid(counts):  # more copies than the set holds: draw a plain random rack instead
        idx = draw(st.lists(st.integers(0, len(DECK) - 1), min_size=size, max_size=size,
                            unique=True))
        counts = counts_of([DECK[i] for i in idx])
    return counts


# The `both` fixture only hands out the two modules; nothing in it needs resetting per example.
FAST = settings(max_examples=300, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@FAST
@given(counts=racks(14))
def test_patterns_and_distance_parity(both: tuple[ModuleType, ModuleType],
                                      counts: list[int]) -> None:
    native, pure = both
    same("tabla_patterns", counts, rules=REMI, native=native, pure=pure)
    same("tabla_distance", counts, rules=REMI, native=native, pure=pure)


@FAST
@given(counts=racks(15))
def test_closes_parity(both: tuple[ModuleType, ModuleType], counts: list[int]) -> None:
    native, pure = both
    same("tabla_closes", counts, rules=REMI, native=native, pure=pure)


@settings(max_examples=100, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(counts=racks(14), high=st.booleans(),
       ratio=st.one_of(st.integers(0, 3), st.just(2**31 - 1)))
def test_parity_under_other_core_rules(both: tuple[ModuleType, ModuleType], counts: list[int],
                                       high: bool, ratio: int) -> None:
    native, pure = both
    crs = [m.CoreRules(high, ratio, [0] + [1] * 14, [0] + [1] * 13, 1) for m in both]
    a = native.tabla_patterns(crs[0], counts), native.tabla_distance(crs[0], counts)
    b = pure.tabla_patterns(crs[1], counts), pure.tabla_distance(crs[1], counts)
    assert a == b


@pytest.mark.parametrize("name, counts", [
    ("tabla_patterns", [1] * 13 + [0] * 40),                 # 13 tiles
    ("tabla_patterns", [1] * 15 + [0] * 38),                 # 15 tiles
    ("tabla_closes", [1] * 14 + [0] * 39),                   # 14 tiles
    ("tabla_distance", [0] * 52 + [14]),                     # 14 Jolys: odd but must not crash
    ("tabla_patterns", [0] * 52 + [14]),
    ("tabla_closes", [0] * 52 + [15]),
    ("tabla_distance", [1] * 14),                            # not 53 entries
    ("tabla_patterns", [-1] + [1] * 15 + [0] * 37),          # negative count
    ("tabla_closes", [65] + [0] * 52),                       # count out of range
    ("tabla_closes", [7, 8] + [0] * 51),                     # many copies, still 15 tiles
])
def test_odd_input_parity(both: tuple[ModuleType, ModuleType], name: str,
                          counts: list[int]) -> None:
    native, pure = both
    same(name, counts, rules=REMI, native=native, pure=pure)


# ---- properties of the public answers (live backend) ---------------------------------------------

PROPS = settings(max_examples=150, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


def _rack_text(counts: list[int]) -> str:
    return format_tiles(codes_of(counts))


@PROPS
@given(counts=racks(15))
def test_each_close_is_the_best_pattern_of_the_rest(counts: list[int]) -> None:
    """RO-11: a close for discard d is exactly the best pattern the other 14 tiles form, and the
    14-tile distance to it is 0; discards that do not close leave no pattern."""
    ans = solve_tabla("remi", _rack_text(counts))
    by = {int(c.discard): c for c in ans.closes if c.discard is not None}
    for d in {int(t) for t in ans.rack}:
        rest = list(counts)
        rest[d] -= 1
        sub = solve_tabla("remi", _rack_text(rest))
        if d in by:
            assert sub.best is not None and sub.best.pattern == by[d].pattern
            assert by[d].score == sub.best.score * (2 if d == 52 else 1)
            assert getattr(sub.distance, sub.best.pattern) == 0
        else:
            assert sub.patterns == ()
            assert sub.distance.simple > 0 and sub.distance.mozaic > 0
            assert sub.distance.bicolor > 0 and sub.distance.monocolor > 0
    assert ans.best is None or ans.best.score == max(c.score for c in ans.closes)


@PROPS
@given(counts=racks(14))
def test_distance_zero_exactly_when_the_pattern_is_formed(counts: list[int]) -> None:
    ans = solve_tabla("remi", _rack_text(counts))
    formed = {p.pattern for p in ans.patterns}
    for name, value in ans.distance.to_json().items():
        assert (value == 0) == (name in formed), (name, value, formed)
        assert 0 <= value <= 14

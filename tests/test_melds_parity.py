"""Parity of the meld core: every core meld function gives identical results (and identical
errors) on the native and pure backends, for Hypothesis-generated melds (valid and invalid,
with jokers, odd lengths) under the CoreRules of all three variants and of arbitrary rule data."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from parity import outcome, same
from rummy101 import Rules

RULES = [Rules.parse(s) for s in ("rummy101", "remi", "classic")]
VALUATIONS = ("open", "penalty")
JOKER = 52
FUNCS = ("classify_meld", "meld_value", "meld_additions")

pytestmark = pytest.mark.usefixtures("both")
SETTINGS = settings(max_examples=300, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])


@st.composite
def run_like(draw: st.DrawFn) -> list[int]:
    """A run of one colour (mostly within 1..13, sometimes wrapping past 13 or ending in a high
    ace), jokers sprinkled, lengths from 0 to 16."""
    colour = draw(st.integers(0, 3))
    length = draw(st.one_of(st.integers(2, 7), st.integers(0, 16)))
    if draw(st.integers(0, 3)) and length <= 13:
        start = draw(st.integers(1, 14 - length))
    else:
        start = draw(st.integers(1, 13))
    tiles = [colour * 13 + (start - 1 + i) % 13 for i in range(length)]
    return draw(_sprinkle(tiles))


@st.composite
def set_like(draw: st.DrawFn) -> list[int]:
    """Tiles of one number (mostly distinct colours, sometimes repeated), jokers sprinkled."""
    number = draw(st.integers(0, 12))
    if draw(st.integers(0, 3)):
        colours = draw(st.permutations(range(4)))[:draw(st.integers(2, 4))]
        colours = sorted(colours) if draw(st.booleans()) else colours
    else:
        colours = draw(st.lists(st.integers(0, 3), min_size=0, max_size=6))
    return draw(_sprinkle([c * 13 + number for c in colours]))


@st.composite
def _sprinkle(draw: st.DrawFn, tiles: list[int]) -> list[int]:
    out = [JOKER if draw(st.integers(0, 4)) == 0 else t for t in tiles]
    if draw(st.integers(0, 3)) == 0 and out:
        i = draw(st.integers(0, len(out) - 1))
        out[i] = draw(st.integers(0, 52))          # one random tile
    return out


MELDS = st.one_of(run_like(), set_like(),
                  st.lists(st.integers(0, 52), max_size=16),
                  st.lists(st.sampled_from([JOKER, 0, 12, 13, 25]), max_size=5))


@SETTINGS
@given(tiles=MELDS, rules=st.sampled_from(RULES), valuation=st.sampled_from(VALUATIONS),
       both_missing=st.booleans())
def test_meld_functions_agree(both: tuple[ModuleType, ModuleType], tiles: list[int],
                              rules: Rules, valuation: str, both_missing: bool) -> None:
    for name in FUNCS:
        same(name, tiles, rules=rules, valuation=valuation)  # type: ignore[arg-type]
    same("joker_releases", tiles, both_missing, rules=rules, valuation=valuation)  # type: ignore[arg-type]


@SETTINGS
@given(counts=st.lists(st.integers(0, 4), min_size=53, max_size=53),
       rules=st.sampled_from(RULES), valuation=st.sampled_from(VALUATIONS))
def test_rack_value_agrees(both: tuple[ModuleType, ModuleType], counts: list[int], rules: Rules,
                           valuation: str) -> None:
    same("rack_value", counts, rules=rules, valuation=valuation)  # type: ignore[arg-type]


INT32 = st.one_of(st.integers(-5, 100), st.sampled_from([-(2**31), 2**31 - 1]))
CORE_RULES = st.tuples(
    st.booleans(), st.one_of(st.integers(0, 3), st.just(2**31 - 1)),
    st.lists(INT32, min_size=15, max_size=15),
    st.lists(INT32, min_size=14, max_size=14),
    st.one_of(st.sampled_from([-1, 0, 50, 101]), INT32))


def _both_outcomes(native: ModuleType, pure: ModuleType, args: tuple[Any, ...], name: str,
                   *rest: Any) -> tuple[Any, Any]:
    a = outcome(lambda: getattr(native, name)(native.CoreRules(*args), *rest))
    b = outcome(lambda: getattr(pure, name)(pure.CoreRules(*args), *rest))
    return a, b


@SETTINGS
@given(tiles=MELDS, args=CORE_RULES, both_missing=st.booleans(),
       counts=st.lists(st.integers(0, 64), min_size=53, max_size=53))
def test_arbitrary_core_rules_agree(both: tuple[ModuleType, ModuleType], tiles: list[int],
                                    args: tuple[Any, ...], both_missing: bool,
                                    counts: list[int]) -> None:
    native, pure = both
    for name in FUNCS:
        a, b = _both_outcomes(native, pure, args, name, tiles)
        assert a == b, (name, tiles, args)
    a, b = _both_outcomes(native, pure, args, "joker_releases", tiles, both_missing)
    assert a == b, ("joker_releases", tiles, args)
    a, b = _both_outcomes(native, pure, args, "rack_value", counts)
    assert a == b, ("rack_value", counts, args)


@pytest.mark.parametrize("garbage", [-1, 53, 999])
@pytest.mark.parametrize("rules", RULES, ids=str)
def test_garbage_codes_raise_the_same_core_input_error(both: tuple[ModuleType, ModuleType],
                                                       garbage: int, rules: Rules) -> None:
    native, pure = both
    for name in FUNCS:
        err = same(name, [4, garbage, 6], rules=rules)
        assert err == ("CoreInputError", f"tile code out of range: {garbage}")
        assert isinstance(err, tuple)
    err = same("joker_releases", [garbage], True, rules=rules)
    assert err == ("CoreInputError", f"tile code out of range: {garbage}")
    counts = [0] * 53
    counts[7] = garbage if not 0 <= garbage <= 64 else 65   # counts up to 64 are legal
    err = same("rack_value", counts, rules=rules)
    assert err == ("CoreInputError", "tile count out of range at code 7")
    assert issubclass(native.CoreInputError, ValueError) and issubclass(pure.CoreInputError, ValueError)


@pytest.mark.parametrize("rules", RULES, ids=str)
def test_invalid_meld_errors_agree(both: tuple[ModuleType, ModuleType], rules: Rules) -> None:
    for name in ("meld_value", "meld_additions"):
        assert same(name, [4, 30, 6], rules=rules) == ("CoreInputError", "not a valid meld (reason 12)")
    assert same("joker_releases", [52, 52], False, rules=rules) == \
        ("CoreInputError", "not a valid meld (reason 3)")
    assert same("rack_value", [0] * 52, rules=rules) == \
        ("CoreInputError", "a count vector must have 53 entries, got 52")

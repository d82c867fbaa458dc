"""The compact encoding is shared by C++ and Python (STYLE.md): their constants must agree."""

from __future__ import annotations

import pytest

from rummy101 import _backend, tiles
from rummy101.tiles import Card, Tile

CONSTANTS = ["NUM_COLOURS", "NUM_NUMBERS", "NUM_CODES", "HIGH_ACE"]


@pytest.mark.parametrize("name", CONSTANTS)
def test_python_constants_match_each_backend(name: str) -> None:
    for bname in _backend.available_backends():
        assert getattr(_backend._load(bname), name) == getattr(tiles, name), (bname, name)


def test_joker_code_matches_each_backend() -> None:
    for bname in _backend.available_backends():
        mod = _backend._load(bname)
        assert mod.JOKER == tiles.JOKER_CODE == int(tiles.JOKER) == 52
        assert (mod.KIND_INVALID, mod.KIND_RUN, mod.KIND_SET, mod.KIND_PAIR) == (0, 1, 2, 3)


def test_tile_code_layout() -> None:
    """colour * 13 + number - 1, colours R Y B K."""
    assert int(Tile("R1")) == 0
    assert int(Tile("R13")) == 12
    assert int(Tile("Y1")) == 13
    assert int(Tile("B5")) == 2 * 13 + 4
    assert int(Tile("K13")) == 51
    for code in range(52):
        t = Tile(code)
        assert int(Tile.of(t.colour, t.number)) == code


def test_card_code_layout() -> None:
    """suit * 13 + rank - 1, suits S H D C, ranks A..K."""
    assert int(Card("AS")) == 0
    assert int(Card("KS")) == 12
    assert int(Card("AH")) == 13
    assert int(Card("10D")) == 2 * 13 + 9
    assert int(Card("KC")) == 51


def test_core_rules_round_trip_on_each_backend() -> None:
    from rummy101 import Rules

    for bname in _backend.available_backends():
        for spec in ("rummy101", "remi", "classic"):
            for valuation in ("open", "penalty"):
                params = Rules.parse(spec).params(valuation)
                cr = _backend.core_rules(Rules.parse(spec), valuation, bname)
                assert (cr.high_ace, cr.joker_ratio, list(cr.run_value), list(cr.set_value),
                        cr.joker_value) == params.args()


@pytest.mark.parametrize("bad_run,bad_set", [([0] * 14, [0] * 14), ([0] * 15, [0] * 13)])
def test_core_rules_rejects_bad_tables_on_each_backend(bad_run: list[int], bad_set: list[int]) -> None:
    messages = set()
    for bname in _backend.available_backends():
        mod = _backend._load(bname)
        with pytest.raises(ValueError) as exc:
            mod.CoreRules(False, 0, bad_run, bad_set, -1)
        messages.add(str(exc.value))
        assert type(exc.value).__name__ == "CoreInputError"
    assert len(messages) == 1

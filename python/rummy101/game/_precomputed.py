"""Interned actions and meld windows, built once at import (legal_actions reuses these objects
instead of building new records every step)."""

from __future__ import annotations

from ..tiles import JOKER_CODE
from .actions import Action
from .table import RUN, SET, TableMeld

J = JOKER_CODE

DRAW = Action("draw")
TAKE = Action("take")
BUTTON = Action("button")
OPEN = Action("open")
RESET = Action("reset")
DISCARD = tuple(Action("discard", (c,)) for c in range(53))
PAIR_SAME = tuple(Action("pair", (c, c)) for c in range(52))
PAIR_JOKER = tuple(Action("pair", (c, J)) for c in range(52))

# RUN_WINDOWS[k] = (codes (a, b, c), options); options = ((real_mask, jokers, action), ...) for every
# choice of which of the three positions hold the real tile (mask bit i) and which a joker.
RUN_WINDOWS: list[tuple[tuple[int, int, int], tuple[tuple[int, int, Action], ...]]] = []
for _colour in range(4):
    for _first in range(1, 12):
        _codes = tuple(_colour * 13 + _first - 1 + i for i in range(3))
        _opts = []
        for _mask in range(7, 0, -1):
            _tiles = tuple(_codes[i] if _mask >> i & 1 else J for i in range(3))
            _opts.append((_mask, 3 - bin(_mask).count("1"), Action("run", _tiles)))
        RUN_WINDOWS.append((_codes, tuple(_opts)))  # type: ignore[arg-type]

# SET_OPTIONS[number0] = ((colour_mask, jokers, action), ...): 3-tile sets of that number (0-based)
# with the real colours in colour_mask and the rest jokers.
SET_OPTIONS: list[tuple[tuple[int, int, Action], ...]] = []
for _n in range(13):
    _opts2 = []
    for _cm in range(15, 0, -1):
        _k = bin(_cm).count("1")
        if _k > 3:
            continue
        _reals = tuple(c * 13 + _n for c in range(4) if _cm >> c & 1)
        _m = TableMeld.build(SET, 0, _reals + (J,) * (3 - _k))
        _opts2.append((_cm, 3 - _k, Action("set", _m.tiles)))
    SET_OPTIONS.append(tuple(_opts2))

_ADD: dict[tuple[int, int, int], Action] = {}
_RETRIEVE: dict[tuple[int, int, int], Action] = {}


def add_action(code: int, meld: int, pos: int) -> Action:
    key = (code, meld, pos)
    a = _ADD.get(key)
    if a is None:
        a = _ADD[key] = Action("add", (code,), meld, pos)
    return a


def retrieve_action(meld: int, index: int, code: int) -> Action:
    key = (meld, index, code)
    a = _RETRIEVE.get(key)
    if a is None:
        a = _RETRIEVE[key] = Action("retrieve", (code,), meld, index)
    return a


__all__ = ["DRAW", "TAKE", "BUTTON", "OPEN", "RESET", "DISCARD", "PAIR_SAME", "PAIR_JOKER",
           "RUN_WINDOWS", "SET_OPTIONS", "add_action", "retrieve_action", "RUN", "SET"]

"""Interned actions and meld windows, built once at import (legal_actions reuses these objects
instead of building new records every step)."""

from __future__ import annotations

from ....tiles import JOKER_CODE
from ...actions import Action
from ...table import RUN, SET, TableMeld

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
            _opts.append((_mask, 3 - _mask.bit_count(), Action("run", _tiles)))
        RUN_WINDOWS.append((_codes, tuple(_opts)))  # type: ignore[arg-type]

# SET_OPTIONS[number0] = ((colour_mask, jokers, action), ...): 3-tile sets of that number (0-based)
# with the real colours in colour_mask and the rest jokers.
SET_OPTIONS: list[tuple[tuple[int, int, Action], ...]] = []
for _n in range(13):
    _opts2 = []
    for _cm in range(15, 0, -1):
        _k = _cm.bit_count()
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


__all__ = [
    "BUTTON",
    "DISCARD",
    "DRAW",
    "OPEN",
    "PAIR_JOKER",
    "PAIR_SAME",
    "RESET",
    "RUN",
    "RUN_WINDOWS",
    "SET",
    "SET_OPTIONS",
    "TAKE",
    "add_action",
    "retrieve_action",
]


# ---- byte-packed rack scans ----------------------------------------------------------------------
# A rack's count vector packed as an int, one byte per code (``int.from_bytes(bytes(rack),
# "little")``); PRESENT turns counts into 0/1 per byte. Run windows and set choices are then
# looked up per window/number instead of tested tile by tile.

PRESENCE = bytes(min(1, b) for b in range(256))  # bytes.translate table: count -> 0/1


def _jl_options(opts: tuple[tuple[int, int, Action], ...], pattern: int) -> tuple[tuple[Action, ...], ...]:
    return tuple(tuple(act for m, j, act in opts if j <= jl and m & pattern == m) for jl in range(3))


# RUN_BY_PATTERN[first_code][pattern][min(jokers, 2)] -> actions of that window
RUN_BY_PATTERN: dict[int, tuple[tuple[tuple[Action, ...], ...], ...]] = {}
for _wcodes, _wopts in RUN_WINDOWS:
    RUN_BY_PATTERN[_wcodes[0]] = tuple(_jl_options(_wopts, pat) for pat in range(8))

# SET_BY_PATTERN[number0][colour_mask][min(jokers, 2)] -> 3-tile sets of that number
SET_BY_PATTERN: list[tuple[tuple[tuple[Action, ...], ...], ...]] = []
for _n in range(13):
    SET_BY_PATTERN.append(tuple(_jl_options(SET_OPTIONS[_n], pat) for pat in range(16)))

DOUBLE = bytes(1 if b >= 2 else 0 for b in range(256))  # translate table: count -> (count >= 2)
# MASK13[13 presence bytes of one colour] -> 13-bit mask (bit i = number i + 1 present)
MASK13: dict[bytes, int] = {bytes((m >> i) & 1 for i in range(13)): m for m in range(1 << 13)}

# VALUE13[mask] -> the face values (number + 1) of the numbers in a 13-bit mask, summed: an upper
# bound of what the rack's tiles of one colour can bring to an opening (R101-6, R101-7).
VALUE13: tuple[int, ...] = tuple(sum(i + 1 for i in range(13) if m >> i & 1) for m in range(1 << 13))
QUAD = bytes(1 if b >= 4 else 0 for b in range(256))  # translate table: count -> (count >= 4)

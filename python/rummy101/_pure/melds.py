"""Pure-Python twin of cpp/src/melds.cpp: classify melds, value them, list additions and joker
releases (docs/DESIGN.md, "Core functions / melds").

Geometry comes only from :class:`CoreRules` (variants as data):

* run (R101-5, RO-6, CR-3): >= 3 consecutive numbers of one colour in ascending table order,
  within 1..13, plus a final high ace at run position 14 when ``high_ace`` (12-13-1 and
  1..13-1; never 13-1-2);
* set: 3 or 4 tiles of one number in distinct colours; the k-th joker stands for the k-th colour
  (R Y B K order) missing from the real tiles;
* pair: two equal real tiles, or one real tile and a joker (R101-5);
* every meld holds >= 1 real tile and, when ``joker_ratio > 0``, at least
  ``joker_ratio * jokers`` real tiles (RO-7).

A meld of 3 or 4 tiles that is both a run and a set (``R5 * *``) is classified as a run.
Keep this file and cpp/src/melds.cpp in step: tests/test_melds_parity.py compares them.

>>> from rummy101._pure import CoreRules
>>> cr = CoreRules(False, 0, list(range(14)) + [0], list(range(14)), -1)
>>> classify_meld(cr, [9, 52, 11])      # R10 * R12: the joker is R11
(1, [9, 10, 11], 0)
>>> meld_value(cr, [9, 52, 11])
33
"""

from __future__ import annotations

from collections.abc import Sequence

from ._common import (
    HIGH_ACE,
    JOKER,
    KIND_INVALID,
    KIND_PAIR,
    KIND_RUN,
    KIND_SET,
    NUM_COLOURS,
    NUM_NUMBERS,
    CoreInputError,
    CoreRules,
    check_codes,
    to_counts,
)

__all__ = [
    "REASON_JOKER_RATIO",
    "REASON_MIXED",
    "REASON_NOT_A_PAIR",
    "REASON_NO_REAL_TILE",
    "REASON_OK",
    "REASON_RUN_HIGH_ACE",
    "REASON_RUN_NOT_CONSECUTIVE",
    "REASON_RUN_OUT_OF_RANGE",
    "REASON_RUN_WRAPS",
    "REASON_SET_REPEATED_COLOUR",
    "REASON_SET_TOO_LONG",
    "REASON_TOO_LONG",
    "REASON_TOO_SHORT",
    "classify_meld",
    "joker_releases",
    "meld_additions",
    "meld_value",
    "rack_value",
]

# Invalid-reason codes (same numbers in cpp/include/rummy101/melds.hpp; messages are made in
# python/rummy101/melds.py).
REASON_OK = 0
REASON_TOO_SHORT = 1            # fewer than 2 tiles
REASON_TOO_LONG = 2             # longer than the longest run (13, or 14 with the high ace)
REASON_NO_REAL_TILE = 3         # only jokers
REASON_NOT_A_PAIR = 4           # two tiles that are not the same number and colour
REASON_JOKER_RATIO = 5          # RO-7: fewer than joker_ratio * jokers real tiles
REASON_SET_REPEATED_COLOUR = 6  # one number, but a colour twice (R7 R7 B7)
REASON_SET_TOO_LONG = 7         # one number, more than 4 tiles
REASON_RUN_NOT_CONSECUTIVE = 8  # one colour, numbers not consecutive ascending
REASON_RUN_OUT_OF_RANGE = 9     # consecutive, but jokers push it below 1 or past the top
REASON_RUN_HIGH_ACE = 10        # would be a run if 1 could follow 13 (12-13-1 without high_ace)
REASON_RUN_WRAPS = 11           # 1 in the middle (13-1-2)
REASON_MIXED = 12               # neither one colour nor one number


def _code(colour: int, number: int) -> int:
    return colour * NUM_NUMBERS + (1 if number == HIGH_ACE else number) - 1


def _top(high_ace: bool) -> int:
    return HIGH_ACE if high_ace else NUM_NUMBERS


def _run_start(tiles: Sequence[int], high_ace: bool, bounded: bool = True) -> int | None:
    """Run position (1..14) of ``tiles[0]`` if the real tiles fit one ascending run of one colour
    (ignoring the 1..top bounds when ``bounded`` is false), else None. Needs >= 1 real tile."""
    n = len(tiles)
    top = _top(high_ace)
    colour = -1
    start: int | None = None
    for i, t in enumerate(tiles):
        if t == JOKER:
            continue
        c, num = t // NUM_NUMBERS, t % NUM_NUMBERS + 1
        if colour < 0:
            colour = c
            # An ace after the first position can only be a high ace (position 14).
            start = (HIGH_ACE - i) if (num == 1 and i > 0 and high_ace) else num - i
        elif c != colour:
            return None
        assert start is not None
        pos = start + i
        want = 1 if pos == HIGH_ACE and high_ace else pos
        if num != want:
            return None
    if start is None:
        return None
    if bounded and (start < 1 or start + n - 1 > top):
        return None
    return start


def _run_cyclic(tiles: Sequence[int]) -> bool:
    """True if the real tiles are consecutive of one colour when 1 may follow 13 (13-1-2)."""
    colour, offset = -1, -1
    for i, t in enumerate(tiles):
        if t == JOKER:
            continue
        c, num = t // NUM_NUMBERS, t % NUM_NUMBERS + 1
        off = (num - 1 - i) % NUM_NUMBERS
        if colour < 0:
            colour, offset = c, off
        elif c != colour or off != offset:
            return False
    return colour >= 0


def _set_stand_for(tiles: Sequence[int]) -> list[int] | None:
    """What each position of a set stands for, or None if the tiles are no set."""
    if not 3 <= len(tiles) <= NUM_COLOURS:
        return None
    number = -1
    used = [False] * NUM_COLOURS
    for t in tiles:
        if t == JOKER:
            continue
        c, num = t // NUM_NUMBERS, t % NUM_NUMBERS + 1
        if number < 0:
            number = num
        elif num != number:
            return None
        if used[c]:
            return None
        used[c] = True
    if number < 0:
        return None
    missing = [c for c in range(NUM_COLOURS) if not used[c]]
    out, k = [], 0
    for t in tiles:
        if t == JOKER:
            out.append(_code(missing[k], number))
            k += 1
        else:
            out.append(t)
    return out


def _diagnose(cr: CoreRules, tiles: Sequence[int]) -> int:
    """Reason code of a meld of >= 3 tiles that is neither a run nor a set."""
    real = [t for t in tiles if t != JOKER]
    same_number = all(t % NUM_NUMBERS == real[0] % NUM_NUMBERS for t in real)
    same_colour = all(t // NUM_NUMBERS == real[0] // NUM_NUMBERS for t in real)
    if same_number and len(real) >= 2:
        return REASON_SET_TOO_LONG if len(tiles) > NUM_COLOURS else REASON_SET_REPEATED_COLOUR
    if same_colour:
        if not cr.high_ace and _run_start(tiles, True) is not None:
            return REASON_RUN_HIGH_ACE
        if _run_start(tiles, cr.high_ace, bounded=False) is not None:
            return REASON_RUN_OUT_OF_RANGE
        if _run_cyclic(tiles):
            return REASON_RUN_WRAPS
        return REASON_RUN_NOT_CONSECUTIVE
    return REASON_MIXED


def _classify(cr: CoreRules, tiles: Sequence[int]) -> tuple[int, list[int], int, int]:
    """(kind, stand_for, reason, run start position or 0)."""
    check_codes(tiles)
    n = len(tiles)
    if n < 2:
        return KIND_INVALID, [], REASON_TOO_SHORT, 0
    if n > _top(cr.high_ace):
        return KIND_INVALID, [], REASON_TOO_LONG, 0
    jokers = sum(1 for t in tiles if t == JOKER)
    reals = n - jokers
    if reals == 0:
        return KIND_INVALID, [], REASON_NO_REAL_TILE, 0
    if n == 2:
        a, b = tiles
        if a == JOKER or b == JOKER or a == b:
            kind, sf, start = KIND_PAIR, [b if a == JOKER else a] * 2, 0
        else:
            return KIND_INVALID, [], REASON_NOT_A_PAIR, 0
    else:
        s = _run_start(tiles, cr.high_ace)
        if s is not None:
            colour = next(t for t in tiles if t != JOKER) // NUM_NUMBERS
            kind, sf, start = KIND_RUN, [_code(colour, s + i) for i in range(n)], s
        else:
            set_sf = _set_stand_for(tiles)
            if set_sf is None:
                return KIND_INVALID, [], _diagnose(cr, tiles), 0
            kind, sf, start = KIND_SET, set_sf, 0
    if reals < cr.joker_ratio * jokers:
        return KIND_INVALID, [], REASON_JOKER_RATIO, 0
    return kind, sf, REASON_OK, start


def _valid(cr: CoreRules, tiles: Sequence[int]) -> tuple[int, list[int], int]:
    kind, sf, reason, start = _classify(cr, tiles)
    if kind == KIND_INVALID:
        raise CoreInputError(f"not a valid meld (reason {reason})")
    return kind, sf, start


def classify_meld(cr: CoreRules, tiles: Sequence[int]) -> tuple[int, list[int], int]:
    """``(kind, stand_for, reason)``; ``(KIND_INVALID, [], reason >= 1)`` when no meld."""
    kind, sf, reason, _ = _classify(cr, tiles)
    return kind, sf, reason


def meld_value(cr: CoreRules, tiles: Sequence[int]) -> int:
    """Sum of the values by position: ``run_value`` at run positions (14 = high ace),
    ``set_value`` in sets and pairs, a joker per ``joker_value`` (-1: what it stands for)."""
    kind, sf, start = _valid(cr, tiles)
    total = 0
    for i, t in enumerate(tiles):
        if t == JOKER and cr.joker_value >= 0:
            total += cr.joker_value
        elif kind == KIND_RUN:
            total += cr.run_value[start + i]
        else:
            total += cr.set_value[sf[i] % NUM_NUMBERS + 1]
    return total


def meld_additions(cr: CoreRules, tiles: Sequence[int]) -> list[tuple[int, int]]:
    """Every single tile ``(position, code)`` that keeps the meld valid, sorted; 52 = a joker.

    Runs grow at either end (position 0 or ``len``; jokers keep their positions, RO-7); a set
    of 3 takes any colour missing from its real tiles and a joker, at the position where it
    sorts in by the colours the tiles stand for; a set of 4 and a pair take nothing.
    """
    kind, sf, start = _valid(cr, tiles)
    n = len(tiles)
    jokers = sum(1 for t in tiles if t == JOKER)
    joker_ok = (n - jokers) >= cr.joker_ratio * (jokers + 1)
    out: list[tuple[int, int]] = []
    if kind == KIND_RUN:
        colour = sf[0] // NUM_NUMBERS
        if start > 1:
            out.append((0, _code(colour, start - 1)))
            if joker_ok:
                out.append((0, JOKER))
        if start + n - 1 < _top(cr.high_ace):
            out.append((n, _code(colour, start + n)))
            if joker_ok:
                out.append((n, JOKER))
    elif kind == KIND_SET and n == 3:
        number = sf[0] % NUM_NUMBERS + 1
        real_colours = {t // NUM_NUMBERS for t in tiles if t != JOKER}
        sf_colours = [c // NUM_NUMBERS for c in sf]
        for c in range(NUM_COLOURS):
            if c not in real_colours:
                out.append((sum(1 for x in sf_colours if x < c), _code(c, number)))
        if joker_ok:
            c = next(c for c in range(NUM_COLOURS) if c not in sf_colours)
            out.append((sum(1 for x in sf_colours if x < c), JOKER))
        out.sort()
    return out


def joker_releases(cr: CoreRules, tiles: Sequence[int],
                   both_missing_for_set3: bool) -> list[tuple[int, list[list[int]]]]:
    """For each joker index, the alternative tile lists that release it (R101-9, RO-9.5/9.6).

    Runs and pairs: exactly the tile the joker stands for. Sets: any colour missing from the
    real tiles (set jokers are interchangeable); with ``both_missing_for_set3`` a 3-tile set
    releases a joker only for two missing colours together, completing the set (RO-9.6).
    """
    kind, sf, _ = _valid(cr, tiles)
    both = bool(both_missing_for_set3)
    out: list[tuple[int, list[list[int]]]] = []
    if kind == KIND_SET:
        number = sf[0] % NUM_NUMBERS + 1
        real_colours = {t // NUM_NUMBERS for t in tiles if t != JOKER}
        missing = [_code(c, number) for c in range(NUM_COLOURS) if c not in real_colours]
        if both and len(tiles) == 3:
            alts = [[a, b] for i, a in enumerate(missing) for b in missing[i + 1:]]
        else:
            alts = [[m] for m in missing]
        for i, t in enumerate(tiles):
            if t == JOKER:
                out.append((i, [list(a) for a in alts]))
    else:
        for i, t in enumerate(tiles):
            if t == JOKER:
                out.append((i, [[sf[i]]]))
    return out


def rack_value(cr: CoreRules, counts: Sequence[int]) -> int:
    """Sum of ``set_value`` of the real tiles plus ``joker_value`` per joker (a loose joker
    counts 0 when ``joker_value`` is -1: it stands for nothing on the rack)."""
    cs = to_counts(counts)
    total = sum(cs[code] * cr.set_value[code % NUM_NUMBERS + 1] for code in range(JOKER))
    return total + cs[JOKER] * max(cr.joker_value, 0)

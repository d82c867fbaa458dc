"""Pure-Python twin of cpp/src/tabla.cpp: Remi closing on the rack (RULES.md RO-11).

Same functions, signatures, results and error messages as ``rummy101._core``; every enumeration
below runs in the same order as the C++ one so that both backends return the same arrangement.

* ``tabla_patterns(cr, counts)``: 14 tiles → ``[(pattern, row, row_stand_for, melds), ...]``,
  every pattern the rack forms, best first. Row patterns (Mozaic, Bicolor, Monocolor) fill
  ``row`` (14 codes along 1-2-…-13-1, 52 for a Joly) and ``row_stand_for`` (the tile each
  position stands for) and leave ``melds == []``; the simple close fills ``melds`` with
  ``(kind, tiles, stand_for)`` tuples (DESIGN.md meld order) and leaves the row lists empty.
* ``tabla_closes(cr, counts)``: 15 tiles → ``[(discard, pattern, score, row, row_stand_for,
  melds), ...]``, one entry per distinct discard code (ascending, the Joly 52 last) whose
  remaining 14 tiles close, with the best pattern; a Joly discard doubles the score (RO-11).
* ``tabla_distance(cr, counts)``: 14 tiles → ``[simple, mozaic, bicolor, monocolor]``. For a row
  pattern: the fewest rack tiles to replace to form it (exact; Jolys never need replacing). For
  the simple close: 14 minus the most tiles coverable by disjoint runs/sets holding at least one
  run (RO-6, RO-7 ratio), or 14 when no run can be formed; 0 exactly when the rack closes.

The meld geometry (high ace, Joly ratio) comes from ``cr``; the rows are always 1-2-…-13-1.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ._common import JOKER, KIND_RUN, KIND_SET, NUM_NUMBERS, CoreInputError, CoreRules, to_counts

__all__ = [
    "PATTERN_BICOLOR",
    "PATTERN_MONOCOLOR",
    "PATTERN_MOZAIC",
    "PATTERN_SCORES",
    "PATTERN_SIMPLE",
    "TABLA_TILES",
    "tabla_closes",
    "tabla_distance",
    "tabla_patterns",
]

PATTERN_SIMPLE = 1
PATTERN_MOZAIC = 2
PATTERN_BICOLOR = 3
PATTERN_MONOCOLOR = 4
PATTERN_SCORES = [0, 400, 800, 1600, 3200]  # RO-11, indexed by pattern
TABLA_TILES = 14

_ROW_NUMBERS = tuple(range(1, 14)) + (1,)  # RO-11: 1-2-…-13-1

Meld = tuple[int, list[int], list[int]]
Pattern = tuple[int, list[int], list[int], list[Meld]]
Close = tuple[int, int, int, list[int], list[int], list[Meld]]


def _code(colour: int, number: int) -> int:
    return colour * NUM_NUMBERS + (1 if number == 14 else number) - 1


def _rack(counts: Sequence[int], size: int, fn: str) -> list[int]:
    c = to_counts(counts)
    n = sum(c)
    if n != size:
        raise CoreInputError(f"{fn} needs a rack of {size} tiles, got {n}")
    return c


# ---- simple close: runs and sets (RO-6, RO-7) ---------------------------------------------------

class _Cover:
    """Backtracking over the smallest remaining real tile: it joins a meld (runs first, then
    sets) or, when maximising, stays uncovered with all its copies."""

    def __init__(self, cr: CoreRules, counts: list[int]) -> None:
        self.high = cr.high_ace
        self.ratio = cr.joker_ratio
        self.cnt = counts[:JOKER]
        self.j = counts[JOKER]
        self.left = sum(counts)
        self.best = -1
        self.melds: list[Meld] = []

    def _ok(self, reals: int, jokers: int) -> bool:
        return reals >= 1 and reals >= self.ratio * jokers

    def _first(self) -> int:
        for t in range(JOKER):
            if self.cnt[t]:
                return t
        return -1

    def _melds_with(self, t: int) -> Iterator[Meld]:
        """Every meld holding ``t`` and otherwise only remaining tiles of codes > t and Jolys,
        applied to the state while yielded; fixed order: low runs by leading Jolys then length
        (a real tile before a Joly at each position), high-ace runs, then sets by size."""
        cnt = self.cnt
        colour, number = divmod(t, NUM_NUMBERS)
        number += 1
        top = 14 if self.high else 13
        cnt[t] -= 1
        # Runs with t at position number (positions before it can only be Jolys).
        p = number
        for lead in range(min(self.j, p - 1) + 1):
            s = p - lead
            self.j -= lead
            tiles = [JOKER] * lead + [t]
            stand = [_code(colour, q) for q in range(s, p + 1)]
            yield from self._extend_right(colour, s, p, tiles, stand, 1, lead, top)
            self.j += lead
        # Runs with t as the high ace (…-12-13-1, RO-6), built leftwards from 13.
        if number == 1 and self.high:
            yield from self._extend_left(colour, 14, [t], [_code(colour, 14)], 1, 0)
        # Sets of t's number: higher colours present, Jolys for the first missing colours.
        higher = [c for c in range(colour + 1, 4) if cnt[c * NUM_NUMBERS + number - 1]]
        for size in (3, 4):
            for mask in range(1 << len(higher)):
                chosen = [higher[i] for i in range(len(higher)) if mask >> i & 1]
                jk = size - 1 - len(chosen)
                if jk < 0 or jk > self.j or not self._ok(1 + len(chosen), jk):
                    continue
                real = {colour, *chosen}
                missing = [c for c in range(4) if c not in real][:jk]
                tiles, stand = [], []
                for c in range(4):
                    code = c * NUM_NUMBERS + number - 1
                    if c in real:
                        tiles.append(code)
                        stand.append(code)
                    elif c in missing:
                        tiles.append(JOKER)
                        stand.append(code)
                for c in chosen:
                    cnt[c * NUM_NUMBERS + number - 1] -= 1
                self.j -= jk
                yield (KIND_SET, tiles, stand)
                self.j += jk
                for c in chosen:
                    cnt[c * NUM_NUMBERS + number - 1] += 1
        cnt[t] += 1

    def _extend_right(self, colour: int, s: int, q: int, tiles: list[int], stand: list[int],
                      reals: int, jokers: int, top: int) -> Iterator[Meld]:
        if q - s + 1 >= 3 and self._ok(reals, jokers):
            yield (KIND_RUN, list(tiles), list(stand))
        if q + 1 > top:
            return
        code = _code(colour, q + 1)
        stand.append(code)
        if self.cnt[code]:
            self.cnt[code] -= 1
            tiles.append(code)
            yield from self._extend_right(colour, s, q + 1, tiles, stand, reals + 1, jokers, top)
            tiles.pop()
            self.cnt[code] += 1
        if self.j:
            self.j -= 1
            tiles.append(JOKER)
            yield from self._extend_right(colour, s, q + 1, tiles, stand, reals, jokers + 1, top)
            tiles.pop()
            self.j += 1
        stand.pop()

    def _extend_left(self, colour: int, s: int, tiles: list[int], stand: list[int],
                     reals: int, jokers: int) -> Iterator[Meld]:
        if 14 - s + 1 >= 3 and self._ok(reals, jokers):
            yield (KIND_RUN, list(tiles), list(stand))
        if s - 1 < 1:
            return
        code = _code(colour, s - 1)
        stand.insert(0, code)
        if self.cnt[code]:
            self.cnt[code] -= 1
            tiles.insert(0, code)
            yield from self._extend_left(colour, s - 1, tiles, stand, reals + 1, jokers)
            tiles.pop(0)
            self.cnt[code] += 1
        if self.j:
            self.j -= 1
            tiles.insert(0, JOKER)
            yield from self._extend_left(colour, s - 1, tiles, stand, reals, jokers + 1)
            tiles.pop(0)
            self.j += 1
        stand.pop(0)

    def close(self, has_run: bool = False) -> bool:
        """Can every remaining tile be put in melds (with a run overall)? Fills ``melds``."""
        t = self._first()
        if t < 0:
            return self.j == 0 and has_run
        for meld in self._melds_with(t):
            self.melds.append(meld)
            if self.close(has_run or meld[0] == KIND_RUN):
                return True
            self.melds.pop()
        return False

    def most(self, covered: int = 0, has_run: bool = False) -> None:
        """Raise ``best`` to the most tiles coverable by melds holding at least one run."""
        if covered + self.left <= self.best:
            return
        t = self._first()
        if t < 0:
            if has_run:
                self.best = covered
            return
        for meld in self._melds_with(t):
            k = len(meld[1])
            self.left -= k
            self.most(covered + k, has_run or meld[0] == KIND_RUN)
            self.left += k
        k = self.cnt[t]
        self.cnt[t] = 0
        self.left -= k
        self.most(covered, has_run)
        self.left += k
        self.cnt[t] = k


def _simple(cr: CoreRules, counts: list[int]) -> list[Meld] | None:
    cover = _Cover(cr, counts)
    return cover.melds if cover.close() else None


# ---- row patterns (RO-11): 1-2-…-13-1 -----------------------------------------------------------

def _row_of(counts: list[int], colours: Sequence[int]) -> tuple[list[int], list[int]] | None:
    """The row along ``colours`` if the rack's real tiles all fit it (Jolys fill the rest)."""
    need = [0] * JOKER
    for i, c in enumerate(colours):
        need[_code(c, _ROW_NUMBERS[i])] += 1
    for code in range(JOKER):
        if counts[code] > need[code]:
            return None
    have = counts[:JOKER]
    row, stand = [], []
    for i, c in enumerate(colours):
        code = _code(c, _ROW_NUMBERS[i])
        stand.append(code)
        if have[code]:
            have[code] -= 1
            row.append(code)
        else:
            row.append(JOKER)
    return row, stand


def _monocolor(counts: list[int]) -> tuple[list[int], list[int]] | None:
    for c in range(4):
        found = _row_of(counts, [c] * 14)
        if found:
            return found
    return None


def _bicolor(counts: list[int]) -> tuple[list[int], list[int]] | None:
    for a in range(4):
        for b in range(4):
            if a != b:
                found = _row_of(counts, [a if i % 2 == 0 else b for i in range(14)])
                if found:
                    return found
    return None


def _ones_fit(counts: list[int], first: int, last: int) -> bool:
    """The rack's real 1s fit the row's two 1s coloured ``first`` and ``last``."""
    for c in range(4):
        room = (c == first) + (c == last)
        if counts[_code(c, 1)] > room:
            return False
    return True


def _mozaic(counts: list[int]) -> tuple[list[int], list[int]] | None:
    """Lexicographically smallest Mozaic colouring (RO-11: no two neighbours of one colour along
    the row, 13 and the final 1 included; 1-2-3-4 in four colours) that the real tiles fit."""
    forced = [-1] * 14  # forced colour at row positions 1..12 (numbers 2..13)
    for n in range(2, 14):
        present = [c for c in range(4) if counts[_code(c, n)]]
        if len(present) > 1 or any(counts[_code(c, n)] > 1 for c in present):
            return None
        if present:
            forced[n - 1] = present[0]
    for first4 in _perms4():
        if any(forced[i] not in (-1, first4[i]) for i in range(1, 4)):
            continue
        # ok[i][x]: positions i..13 can be coloured with colour x at i (backwards, positions 4..13).
        ok = [[False] * 4 for _ in range(14)]
        for x in range(4):
            ok[13][x] = _ones_fit(counts, first4[0], x)
        for i in range(12, 3, -1):
            for x in range(4):
                ok[i][x] = (forced[i] in (-1, x)) and any(ok[i + 1][y] for y in range(4) if y != x)
        colours = list(first4)
        for i in range(4, 14):
            choice = next((x for x in range(4) if x != colours[-1] and ok[i][x]), -1)
            if choice < 0:
                break
            colours.append(choice)
        if len(colours) == 14:
            return _row_of(counts, colours)
    return None


def _perms4() -> Iterator[tuple[int, int, int, int]]:
    for a in range(4):
        for b in range(4):
            for c in range(4):
                for d in range(4):
                    if len({a, b, c, d}) == 4:
                        yield (a, b, c, d)


def _rows_possible(counts: list[int]) -> bool:
    """Quick necessary condition for every row: numbers 2..13 at most once, the 1 at most twice."""
    for n in range(1, 14):
        if sum(counts[_code(c, n)] for c in range(4)) > (2 if n == 1 else 1):
            return False
    return True


def _is_dead(cr: CoreRules, counts: list[int], t: int) -> bool:
    """A real tile ``t`` that no meld can hold, even ignoring the Joly ratio: no two other tiles
    of its number (real, of other colours, or Jolys) and no three consecutive run positions
    through it filled by real tiles or Jolys. Used only to skip searches that would fail (or
    leave ``t`` out) anyway, so results do not depend on it."""
    j = counts[JOKER]
    top = 14 if cr.high_ace else 13
    colour, number = divmod(t, NUM_NUMBERS)
    number += 1
    if j + sum(1 for c in range(4) if c != colour and counts[_code(c, number)]) >= 2:
        return False
    for pt in (number, number + 13):  # a 1 may also stand at 14 (high ace)
        if pt > top:
            continue
        for w in range(pt - 2, pt + 1):
            if w >= 1 and w + 2 <= top and sum(
                    1 for q in range(w, w + 3) if q != pt and not counts[_code(colour, q)]) <= j:
                return False
    return True


def _has_dead_tile(cr: CoreRules, counts: list[int]) -> bool:
    return any(counts[t] and _is_dead(cr, counts, t) for t in range(JOKER))


def _without_dead(cr: CoreRules, counts: list[int]) -> list[int]:
    """The rack without its dead tiles (repeatedly: dropping one may kill another); the most
    tiles that melds can cover is the same with or without them."""
    c = list(counts)
    changed = True
    while changed:
        changed = False
        for t in range(JOKER):
            if c[t] and _is_dead(cr, c, t):
                c[t] = 0
                changed = True
    return c


def _patterns(cr: CoreRules, counts: list[int], best_only: bool) -> list[Pattern]:
    out: list[Pattern] = []
    if _rows_possible(counts):
        for pattern, finder in ((PATTERN_MONOCOLOR, _monocolor), (PATTERN_BICOLOR, _bicolor),
                                (PATTERN_MOZAIC, _mozaic)):
            found = finder(counts)
            if found:
                out.append((pattern, found[0], found[1], []))
                if best_only:
                    return out
    if _has_dead_tile(cr, counts):
        return out
    melds = _simple(cr, counts)
    if melds is not None:
        out.append((PATTERN_SIMPLE, [], [], melds))
    return out


def tabla_patterns(cr: CoreRules, counts: Sequence[int]) -> list[Pattern]:
    """Every RO-11 pattern a 14-tile rack forms, best first, each with an arrangement."""
    return _patterns(cr, _rack(counts, TABLA_TILES, "tabla_patterns"), False)


def tabla_closes(cr: CoreRules, counts: Sequence[int]) -> list[Close]:
    """For a 15-tile rack: each distinct discard leaving a close, its best pattern and score."""
    c = _rack(counts, TABLA_TILES + 1, "tabla_closes")
    out = []
    for d in range(JOKER + 1):
        if not c[d]:
            continue
        c[d] -= 1
        found = _patterns(cr, c, True)
        c[d] += 1
        if found:
            pattern, row, stand, melds = found[0]
            score = PATTERN_SCORES[pattern] * (2 if d == JOKER else 1)
            out.append((d, pattern, score, row, stand, melds))
    return out


# ---- distances ----------------------------------------------------------------------------------

def _fits(counts: list[int], colour: int, number: int) -> int:
    return 1 if counts[_code(colour, number)] else 0


def _ones(counts: list[int], first: int, last: int) -> int:
    if first == last:
        return min(counts[_code(first, 1)], 2)
    return _fits(counts, first, 1) + _fits(counts, last, 1)


def _row_fit_max(counts: list[int], pattern: int) -> int:
    """Most real rack tiles that fit one row of the pattern at once."""
    best = 0
    if pattern == PATTERN_MONOCOLOR:
        for c in range(4):
            best = max(best, _ones(counts, c, c) + sum(_fits(counts, c, n) for n in range(2, 14)))
    elif pattern == PATTERN_BICOLOR:
        for a in range(4):
            for b in range(4):
                if a != b:
                    row = sum(_fits(counts, a if (n - 1) % 2 == 0 else b, n) for n in range(2, 14))
                    best = max(best, _ones(counts, a, b) + row)
    else:
        fit = [[0, 0] + [_fits(counts, c, n) for n in range(2, 14)] for c in range(4)]
        # mid[last][x]: most fits at positions 4..12 (numbers 5..13) with colour x at 12, when
        # position 3 has colour ``last`` (-1: impossible).
        mid: list[list[int]] = []
        for last in range(4):
            dp = [-1 if x == last else fit[x][5] for x in range(4)]
            for n in range(6, 14):
                dp = [max(dp[y] for y in range(4) if y != x) + fit[x][n] for x in range(4)]
            mid.append(dp)
        for first4 in _perms4():
            base = fit[first4[1]][2] + fit[first4[2]][3] + fit[first4[3]][4]
            dp = mid[first4[3]]
            for y in range(4):  # the final 1, next to 13
                prev = max(dp[x] for x in range(4) if x != y)
                if prev >= 0:
                    best = max(best, base + prev + _ones(counts, first4[0], y))
    return best


def _simple_distance(cr: CoreRules, counts: list[int]) -> int:
    cover = _Cover(cr, _without_dead(cr, counts))
    cover.most()
    return TABLA_TILES - max(cover.best, 0)


def tabla_distance(cr: CoreRules, counts: Sequence[int]) -> list[int]:
    """``[simple, mozaic, bicolor, monocolor]`` distances of a 14-tile rack (module docstring)."""
    c = _rack(counts, TABLA_TILES, "tabla_distance")
    reals = TABLA_TILES - c[JOKER]
    rows = [reals - _row_fit_max(c, p)
            for p in (PATTERN_MOZAIC, PATTERN_BICOLOR, PATTERN_MONOCOLOR)]
    return [_simple_distance(cr, c), *rows]

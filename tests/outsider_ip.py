"""An outsider's model of the solvers' answers, written from RULES.md alone.

Written without reading tests/reference.py, cpp/ or python/rummy101/_pure/, so that a rule
misread by both the solvers and the project's own reference would show here. Everything works
on plain integer codes (a tile: colour * 13 + number - 1, the joker 52; a card: suit * 13 +
rank - 1) and imports nothing from rummy101.

* :func:`candidate_melds` lists every run and set a rack can make (R101-5, RO-6, RO-7, CR-3),
  each with its value under a valuation (R101-6, RO-8, CR-2; penalties R101-13, RO-12, CR-6).
* :func:`best_melds` is an integer program (scipy HiGHS) over those melds: the most valuable
  selection under keep a tile (R101-7, R101-12, RO-13), must use a tile (R101-4) and at least one
  run (RO-8).
* :func:`max_pairs` is the most pairs (R101-5, R101-8), and the least rack penalty among them.
* :func:`meld_value` checks one laid meld (table order, the tile each joker stands for) and
  values it; :func:`tabla_patterns` lists the RO-11 patterns 14 tiles form.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, milp

JOKER = 52
N = 13


def colour_of(code: int) -> int:
    return code // N


def number_of(code: int) -> int:
    return code % N + 1


def code_of(colour: int, number: int) -> int:
    return colour * N + number - 1


@dataclass(frozen=True)
class Variant:
    """What the rules say about one variant, as the outsider reads them."""

    name: str
    high_ace: bool  # RO-6: 12-13-1 and the 14-tile 1..13-1 are runs
    ratio: bool  # RO-7: real tiles >= 2 x Jolys in every meld
    jokers: bool  # classic has none

    # ---- valuations ------------------------------------------------------------------
    def open_tile(self, number: int, where: str) -> int:
        """Value of a tile (or of the tile a joker stands for) when laid: ``where`` is "set",
        "low" (a run, a 1 at its start), "high" (a Remi run's final 1 after 13) or "run"."""
        if self.name == "rummy101":  # R101-6: face value
            return number
        if self.name == "classic":  # CR-2: A 1, J Q K 10
            return min(number, 10)
        # remi RO-8 lay-down values
        if number == 1:
            return 5 if where == "low" else 10  # 1 low in a run 5; high in a run or in a set 10
        return 5 if number <= 9 else 10

    def rest_value(self, code: int) -> int:
        """Penalty of a piece left on the rack (R101-13, RO-12, CR-6)."""
        if code == JOKER:
            return 101 if self.name == "rummy101" else 50
        n = number_of(code)
        if self.name == "rummy101":
            return n
        if self.name == "classic":
            return min(n, 10)
        return 25 if n == 1 else (5 if n <= 9 else 10)


RUMMY101 = Variant("rummy101", high_ace=False, ratio=False, jokers=True)
REMI = Variant("remi", high_ace=True, ratio=True, jokers=True)
CLASSIC = Variant("classic", high_ace=False, ratio=False, jokers=False)
VARIANTS = {v.name: v for v in (RUMMY101, REMI, CLASSIC)}


# ---- one meld: is it one, and what is it worth ------------------------------------------
def run_numbers(variant: Variant, numbers: Sequence[int]) -> list[str] | None:
    """The place of each number of a run ("low", "run", "high"), or None if the numbers in this
    order are no run of ``variant`` (R101-5 / CR-2: 1 low only; RO-6: 1 low or high, never in
    the middle, 1..13-1 the longest)."""
    if len(numbers) < 3:
        return None
    places = []
    for i, n in enumerate(numbers):
        if i == 0:
            places.append("low" if n == 1 else "run")
            continue
        prev = numbers[i - 1]
        if n == prev + 1 and n <= 13:
            places.append("run")
        elif variant.high_ace and prev == 13 and n == 1 and i == len(numbers) - 1:
            places.append("high")
        else:
            return None
    return places


def meld_value(
    variant: Variant, kind: str, tiles: Sequence[int], stand: Sequence[int], valuation: str = "open"
) -> int | None:
    """The value of a laid meld (``tiles`` in table order, ``stand`` the tile each position
    stands for; a real tile stands for itself), or None when it is no meld of ``variant``."""
    if len(tiles) != len(stand):
        return None
    for t, s in zip(tiles, stand):
        if t != JOKER and t != s:
            return None
        if s == JOKER or not 0 <= s < 52:
            return None
    jokers = sum(t == JOKER for t in tiles)
    real = len(tiles) - jokers
    if real == 0 or (jokers and not variant.jokers):
        return None
    if variant.ratio and real < 2 * jokers:  # RO-7
        return None
    if kind == "run":
        if len({colour_of(s) for s in stand}) != 1:
            return None
        places = run_numbers(variant, [number_of(s) for s in stand])
        if places is None:
            return None
        opens = [variant.open_tile(number_of(s), p) for s, p in zip(stand, places)]
    elif kind == "set":
        if not 3 <= len(tiles) <= 4 or len({number_of(s) for s in stand}) != 1:
            return None
        if len({colour_of(s) for s in stand}) != len(stand):  # all colours / suits different
            return None
        opens = [variant.open_tile(number_of(s), "set") for s in stand]
    elif kind == "pair":
        if variant.name != "rummy101" or len(tiles) != 2 or stand[0] != stand[1] or jokers > 1:
            return None
        opens = [number_of(s) for s in stand]
    else:
        return None
    if valuation == "open":
        return sum(opens)
    return sum(variant.rest_value(t) for t in tiles)


# ---- every meld a rack can make ---------------------------------------------------------
@dataclass(frozen=True)
class Cand:
    kind: str
    use: tuple[tuple[int, int], ...]  # (code, count), jokers as 52
    size: int
    value: int


def _run_shapes(variant: Variant) -> list[tuple[int, list[int]]]:
    """(colour, numbers) of every run of every colour."""
    out = []
    for c in range(4):
        for s in range(1, 14):
            for e in range(s + 2, 14):
                out.append((c, list(range(s, e + 1))))
            if variant.high_ace and s <= 12:
                out.append((c, [*range(s, 14), 1]))  # ...12-13-1 and 1..13-1
    return out


def candidate_melds(variant: Variant, counts: Sequence[int], valuation: str = "open") -> list[Cand]:
    """Every run and set that the rack's pieces can make, with its value; for the same pieces
    and kind only the most valuable arrangement is kept."""
    jokers = counts[JOKER] if len(counts) > JOKER else 0
    best: dict[tuple[str, tuple[tuple[int, int], ...]], Cand] = {}

    def offer(kind: str, tiles: list[int], stand: list[int]) -> None:
        v = meld_value(variant, kind, tiles, stand, valuation)
        if v is None:
            return
        use = tuple(sorted(Counter(tiles).items()))
        if any(counts[code] < k for code, k in use):
            return
        key = (kind, use)
        if key not in best or best[key].value < v:
            best[key] = Cand(kind, use, len(tiles), v)

    for c, numbers in _run_shapes(variant):
        stand = [code_of(c, n) for n in numbers]
        if jokers == 0 and any(counts[s] == 0 for s in stand):
            continue
        options = [[s, JOKER] if counts[s] else [JOKER] for s in stand]
        for choice in itertools.product(*options):
            if sum(t == JOKER for t in choice) <= jokers:
                offer("run", list(choice), stand)
    for n in range(1, 14):
        codes = [code_of(c, n) for c in range(4)]
        for size in (3, 4):
            for colours in itertools.combinations(range(4), size):
                stand = [codes[c] for c in colours]
                options = [[s, JOKER] if counts[s] else [JOKER] for s in stand]
                for choice in itertools.product(*options):
                    if sum(t == JOKER for t in choice) <= jokers:
                        offer("set", list(choice), stand)
    return list(best.values())


def best_melds(
    variant: Variant,
    counts: Sequence[int],
    *,
    keep: bool,
    must_use: int = -1,
    require_run: bool = False,
    valuation: str = "open",
    cands: list[Cand] | None = None,
) -> int | None:
    """The most valuable selection of disjoint melds (an integer program), or None when the
    constraints cannot be met."""
    if cands is None:
        cands = candidate_melds(variant, counts, valuation)
    total = sum(counts)
    if not cands:
        ok = not (keep and total == 0) and must_use < 0 and not require_run
        return 0 if ok else None
    m = len(cands)
    width = len(counts)
    a = np.zeros((width, m))
    for j, cand in enumerate(cands):
        for code, k in cand.use:
            a[code, j] = k
    rows = [a]
    lo = [np.full(width, -np.inf)]
    hi = [np.asarray(counts, dtype=float)]
    if keep:
        rows.append(np.array([[cand.size for cand in cands]], dtype=float))
        lo.append(np.array([-np.inf]))
        hi.append(np.array([total - 1.0]))
    if must_use >= 0:
        rows.append(a[must_use : must_use + 1])
        lo.append(np.array([1.0]))
        hi.append(np.array([np.inf]))
    if require_run:
        rows.append(np.array([[1.0 if cand.kind == "run" else 0.0 for cand in cands]]))
        lo.append(np.array([1.0]))
        hi.append(np.array([np.inf]))
    constraint = LinearConstraint(np.vstack(rows), np.concatenate(lo), np.concatenate(hi))
    c = -np.array([cand.value for cand in cands], dtype=float)
    res = milp(
        c,
        constraints=constraint,
        integrality=np.ones(m),
        bounds=Bounds(np.zeros(m), np.full(m, 2.0)),
        # a proven optimum, not one within the default gap; no MIP presolve, which in HiGHS 1.12
        # (scipy 1.17.1) answered a rack 45, reported optimal, where 50 was laid (reference.py)
        options={"mip_rel_gap": 0.0, "presolve": False},
    )
    if res.status == 2:  # infeasible
        return None
    assert res.status == 0, res.message
    return round(-res.fun)


# ---- pairs (R101-5, R101-8) -----------------------------------------------------------------
def max_pairs(counts: Sequence[int], *, keep: bool, must_use: int = -1) -> tuple[int, int] | None:
    """(most pairs, least rack penalty among them) — a pair is two equal real tiles or a real
    tile and a joker; two jokers are no pair. Penalty: face values, a joker 101. None: the
    constraints cannot be met."""
    jokers = counts[JOKER]
    total = sum(counts)
    best: tuple[int, int] | None = None
    codes = [c for c in range(52) if counts[c]]
    # per code: real pairs r (2 tiles) and joker pairs j (1 tile + a joker), 2r + j <= count
    options = []
    for c in codes:
        options.append(
            [
                (r, j)
                for r in range(counts[c] // 2 + 1)
                for j in range(min(jokers, counts[c] - 2 * r) + 1)
            ]
        )
    for choice in itertools.product(*options):
        used_j = sum(j for _, j in choice)
        if used_j > jokers:
            continue
        pairs = sum(r + j for r, j in choice)
        used = sum(2 * r + 2 * j for r, j in choice)
        if keep and used > total - 1:
            continue
        if must_use >= 0:
            if must_use == JOKER:
                if used_j == 0:
                    continue
            elif not any(c == must_use and (r or j) for c, (r, j) in zip(codes, choice)):
                continue
        laid = sum(number_of(c) * (2 * r + j) for c, (r, j) in zip(codes, choice)) + 101 * used_j
        rest = sum(number_of(c) * counts[c] for c in codes) + 101 * jokers - laid
        key = (pairs, -rest)
        if best is None or key > (best[0], -best[1]):
            best = (pairs, rest)
    return best


# ---- tabla (RO-11) ----------------------------------------------------------------------------
ROW = [*range(1, 14), 1]
TABLA_SCORE = {"simple": 400, "mozaic": 800, "bicolor": 1600, "monocolor": 3200}


def _row_colourings(codes: Sequence[int]) -> list[list[int]]:
    """Every colour sequence of the 14-position row 1..13-1 that the 14 tiles can fill (a Joly
    any colour)."""
    real = [c for c in codes if c != JOKER]
    jokers = len(codes) - len(real)
    by_number: dict[int, list[int]] = {}
    for c in real:
        by_number.setdefault(number_of(c), []).append(colour_of(c))
    need = Counter(ROW)
    if any(len(v) > need[n] for n, v in by_number.items()) or len(real) + jokers != 14:
        return []
    out = []
    ones = by_number.get(1, [])
    # the 1s: which goes first, which last (a missing one is a Joly)
    one_orders = set(itertools.permutations(ones + [-1] * (2 - len(ones))))
    free_positions = [i for i, n in enumerate(ROW) if n != 1 and n not in by_number]
    for order in one_orders:
        row = [-1] * 14
        row[0], row[13] = order
        for i, n in enumerate(ROW):
            if n != 1 and n in by_number:
                row[i] = by_number[n][0]
        holes = [i for i in range(14) if row[i] == -1]
        assert len(holes) == jokers, (holes, free_positions)
        for fill in itertools.product(range(4), repeat=len(holes)):
            r = list(row)
            for i, col in zip(holes, fill):
                r[i] = col
            out.append(r)
    return out


def row_patterns(codes: Sequence[int]) -> set[str]:
    found = set()
    for row in _row_colourings(codes):
        adjacent_differ = all(row[i] != row[i + 1] for i in range(13))
        if len(set(row)) == 1:
            found.add("monocolor")
        if len(set(row)) == 2 and adjacent_differ:  # two colours alternate
            found.add("bicolor")
        if adjacent_differ and len(set(row[:4])) == 4:
            found.add("mozaic")
    return found


def tabla_patterns(codes: Sequence[int]) -> set[str]:
    """Every RO-11 pattern that these 14 tiles form."""
    counts = [0] * 53
    for c in codes:
        counts[c] += 1
    found = row_patterns(codes)
    cands = candidate_melds(REMI, counts)
    # simple: every tile in runs/sets, at least one run — i.e. keep nothing and lay all 14
    sized = [Cand(c.kind, c.use, c.size, c.size) for c in cands]
    if best_melds(REMI, counts, keep=False, require_run=True, cands=sized) == 14:
        found.add("simple")
    return found


def tabla_best(codes: Sequence[int]) -> int:
    """The best RO-11 score of 14 tiles (0: none)."""
    return max((TABLA_SCORE[p] for p in tabla_patterns(codes)), default=0)


def meld_readings(variant: Variant, tiles: Sequence[int]) -> dict[str, int]:
    """Every reading of ``tiles`` in table order as a run or a set (or a rummy101 pair), with
    its opening value: a run's jokers take the places between and around the real tiles; a
    set's jokers stand for missing colours."""
    out: dict[str, int] = {}
    real = [(i, t) for i, t in enumerate(tiles) if t != JOKER]
    if not real:
        return out
    i0, t0 = real[0]
    # run: the first real tile fixes the colour and the number at every place (1 high = 14)
    first_numbers = [number_of(t0) - i0]
    if variant.high_ace and number_of(t0) == 1:
        first_numbers.append(14 - i0)
    for start in first_numbers:
        numbers = [start + i for i in range(len(tiles))]
        if numbers[0] < 1 or numbers[-1] > (14 if variant.high_ace else 13):
            continue
        stand = [code_of(colour_of(t0), 1 if n == 14 else n) for n in numbers]
        v = meld_value(variant, "run", tiles, stand)
        if v is not None:
            out["run"] = max(out.get("run", v), v)
    # set: the real tiles' colours, the jokers any missing colours
    colours = [colour_of(t) for _, t in real]
    missing = [c for c in range(4) if c not in colours]
    jokers = len(tiles) - len(real)
    if len(set(colours)) == len(colours) and jokers <= len(missing):
        fill = iter(missing)
        stand = [code_of(next(fill), number_of(t0)) if t == JOKER else t for t in tiles]
        v = meld_value(variant, "set", tiles, stand)
        if v is not None:
            out["set"] = v
    if len(tiles) == 2:
        stand = [t0, t0]
        v = meld_value(variant, "pair", tiles, stand)
        if v is not None:
            out["pair"] = v
    return out


def _row_colourings_all(pattern: str) -> list[tuple[int, ...]]:
    """Every colour sequence of the row allowed by a pattern (mozaic: too many to list, so
    its first four places only; :func:`row_distance` walks the rest)."""
    if pattern == "monocolor":
        return [(c,) * 14 for c in range(4)]
    if pattern == "bicolor":
        return [
            tuple(a if i % 2 == 0 else b for i in range(14))
            for a in range(4)
            for b in range(4)
            if a != b
        ]
    return list(itertools.permutations(range(4)))


def row_distance(codes: Sequence[int], pattern: str) -> int:
    """The fewest of the 14 tiles to replace by other tiles so that they form ``pattern``'s row
    (a Joly fits any place): 14 - Jolys - the most real tiles one colouring of the row holds."""
    counts = Counter(codes)
    jokers = counts[JOKER]

    def has(colour: int, number: int) -> int:
        return 1 if counts[code_of(colour, number)] else 0

    def ones(first: int, last: int) -> int:
        if first == last:
            return min(counts[code_of(first, 1)], 2)
        return has(first, 1) + has(last, 1)

    best = 0
    for colouring in _row_colourings_all(pattern):
        if pattern != "mozaic":
            held = ones(colouring[0], colouring[13]) + sum(
                has(colouring[i], ROW[i]) for i in range(1, 13)
            )
            best = max(best, held)
            continue
        head = sum(has(colouring[i], ROW[i]) for i in range(1, 4))
        for last in range(4):
            # places 5..13 (index 4..12): each colour differs from the one before; 13 != last
            score = {colouring[3]: 0}
            for i in range(4, 13):
                nxt: dict[int, int] = {}
                for prev, s in score.items():
                    for c in range(4):
                        if c != prev:
                            v = s + has(c, ROW[i])
                            if v > nxt.get(c, -1):
                                nxt[c] = v
                score = nxt
            tail = max(s for c, s in score.items() if c != last)
            best = max(best, head + tail + ones(colouring[0], last))
    return 14 - jokers - min(best, 14 - jokers)


def simple_distance(codes: Sequence[int]) -> int:
    """14 - the most tiles that runs and sets (RO-6, RO-7) holding a run cover; 14 without a run."""
    counts = [0] * 53
    for c in codes:
        counts[c] += 1
    cands = [Cand(c.kind, c.use, c.size, c.size) for c in candidate_melds(REMI, counts)]
    most = best_melds(REMI, counts, keep=False, require_run=True, cands=cands)
    return 14 if most is None else 14 - most

"""An outsider's model of one Rummy 101 step, written from RULES.md R101-1..R101-14 (not from the
engine): from what the player to move can see (the observation: rack, table melds with owners
and the staged flag, who has opened) and a few facts of the turn that the model keeps itself
(the take, the threshold ladders, the joker-button accounts), it lists the moves the rules allow
for the action kinds it models. tests/test_audit_r101_steps.py compares them with the engine.

Tiles are written as in the engine's notation: ``R5``, ``*``; colours R Y B K.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

COLOURS = "RYBK"
#: The kinds of move the model lists exactly (``take`` is searched, see :func:`take_usable`).
MODELLED = ("draw", "button", "run", "set", "pair", "add", "retrieve", "open", "reset", "discard")
JOKER = "*"


def num(t: str) -> int:
    return int(t[1:])


def tile(colour: str, n: int) -> str:
    return f"{colour}{n}"


def run_numbers(tiles: list[str]) -> tuple[str, int]:
    """A run's colour and the number at its first position (R101-5: a run holds a numbered tile;
    each joker stands for the number at its position)."""
    k, t = next((i, t) for i, t in enumerate(tiles) if t != JOKER)
    return t[0], num(t) - k


def joker_stands_for(m: dict[str, Any], i: int) -> set[str]:
    """The tiles the joker at index ``i`` of table meld ``m`` stands for (R101-9): in a run the
    number at its place; in a pair the other tile; in a set any missing colour."""
    tiles = m["tiles"]
    if m["kind"] == "run":
        c, first = run_numbers(tiles)
        return {tile(c, first + i)}
    real = [t for t in tiles if t != JOKER]
    if m["kind"] == "pair":
        return {real[0]}
    n = num(real[0])
    return {tile(c, n) for c in COLOURS if c not in {t[0] for t in real}}


def meld_value(m: dict[str, Any]) -> int:
    """R101-6: face values, a joker the value of the tile it stands for."""
    tiles = m["tiles"]
    if m["kind"] == "run":
        _, first = run_numbers(tiles)
        return sum(first + i for i in range(len(tiles)))
    n = num(next(t for t in tiles if t != JOKER))
    return n * len(tiles)


def add_moves(m: dict[str, Any], index: int, rack: set[str]) -> set[str]:
    """R101-11: the rack tiles that extend table meld ``m`` (a run at either end, 1 low only and
    13 the top, R101-5; a set of three by a missing colour or a joker); a pair never grows."""
    out: set[str] = set()
    tiles = m["tiles"]
    if m["kind"] == "run":
        c, first = run_numbers(tiles)
        last = first + len(tiles) - 1
        for t in rack:
            if first > 1 and t in (JOKER, tile(c, first - 1)):
                out.add(f"add {t} to {index}@start")
            if last < 13 and t in (JOKER, tile(c, last + 1)):
                out.add(f"add {t} to {index}@end")
    elif m["kind"] == "set" and len(tiles) < 4:
        real = [t for t in tiles if t != JOKER]
        n = num(real[0])
        colours = {t[0] for t in real}
        for t in rack:
            if t == JOKER or (num(t) == n and t[0] not in colours):
                out.add(f"add {t} to {index}")
    return out


def retrieve_moves(m: dict[str, Any], index: int, rack: set[str]) -> set[str]:
    """R101-9: put exactly the tile a joker stands for in its place. A set's jokers are
    interchangeable, so one move per releasing tile, named by the first joker's index
    (docs/rules.md; the notation, not the rule)."""
    out: set[str] = set()
    tiles = m["tiles"]
    seen: set[str] = set()
    for i, t in enumerate(tiles):
        if t != JOKER:
            continue
        for r in joker_stands_for(m, i) & rack:
            if m["kind"] == "set" and r in seen:
                continue
            seen.add(r)
            out.add(f"retrieve {index}:{i} with {r}")
    return out


def may_lay_pairs(opened: list[str | None], p: int) -> bool:
    """R101-8: pairs before opening, after a pairs opening, or after a melds opening once
    another player has opened with pairs."""
    o = opened[p]
    if o in (None, "pairs"):
        return True
    return any(q != p and v == "pairs" for q, v in enumerate(opened))


def fits_with_rack(t: str, rack: Counter[str], runs_ok: bool, pairs_ok: bool) -> bool:
    """Can ``t`` make a new 3-tile run/set with two rack tiles, or a pair with one (R101-5)?
    (A sufficient condition for using a taken tile, R101-4; not every use.)"""
    have = Counter(rack)
    if pairs_ok and t != JOKER and (have[t] or have[JOKER]):
        return True
    if not runs_ok or t == JOKER:
        return False
    jk = have[JOKER]
    c, n = t[0], num(t)
    for lo in range(n - 2, n + 1):
        if lo < 1 or lo + 2 > 13:
            continue
        missing = sum(1 for k in range(lo, lo + 3) if k != n and not have[tile(c, k)])
        if missing <= jk:
            return True
    others = sum(1 for o in COLOURS if o != c and have[tile(o, n)])
    return others + jk >= 2


@dataclass
class Turn:
    """What the model keeps about the turn in progress."""

    taken: str | None = None  # the discard taken this turn (R101-4)
    taken_before: int = 0  # copies of it on the rack before the take
    jokers_laid: int = 0  # jokers laid or added since the take
    plays: int = 0  # runs, sets, pairs, additions, retrievals, opens since the turn began

    def taken_used(self, rack: Counter[str]) -> bool:
        """R101-4: has the taken discard left the rack for the table? Tiles of one code are
        alike, so a numbered tile is used once fewer copies are on the rack than after the take;
        a taken joker once a joker has been laid or added (a retrieved one may stay, R101-9)."""
        if self.taken is None:
            return True
        if self.taken == JOKER:
            return self.jokers_laid > 0
        return rack[self.taken] <= self.taken_before


def expected(
    obs: dict[str, Any],
    turn: Turn,
    button_left: int,
    button_used: bool,
    thr_points: int,
    thr_pairs: int,
) -> dict[str, set[str]]:
    """The moves the rules allow, by kind, for the kinds the model covers exactly:
    draw, button, add, retrieve, open, discard. ``take`` is returned as the set of moves the
    model can prove legal (a lower bound)."""
    p = obs["current_player"]
    rack = Counter(obs["rack"])
    codes = set(rack)
    size = sum(rack.values())
    table = obs["table"]
    opened = obs["opened"][p] is not None
    out: dict[str, set[str]] = {k: set() for k in (*MODELLED, "take")}
    if obs["phase"] == "take":
        if obs["stock"] > 0:
            out["draw"].add("draw")  # R101-3
        if button_left > 0 and not button_used:
            out["button"].add("button")  # R101-10: once per round, instead of the draw
        t = obs["last_discard"]
        if t is not None and opened:
            lay_runs = obs["opened"][p] != "pairs"
            lay_pairs = may_lay_pairs(obs["opened"], p)
            if take_usable(t, rack, table, lay_runs, lay_pairs):
                out["take"].add("take")
        return out
    staged = [i for i, m in enumerate(table) if m["staged"]]
    taken_used = turn.taken_used(rack)
    # R101-11: additions only after one's own opening; before it, a staged meld of this turn
    # may still grow (laying a longer meld in the opening); a tile stays for the discard (R101-12)
    targets = range(len(table)) if opened else staged
    if size >= 2:
        for i in targets:
            out["add"] |= add_moves(table[i], i, codes)
    if opened:
        for i, m in enumerate(table):
            out["retrieve"] |= retrieve_moves(m, i, codes)
    elif staged and taken_used:
        ms = [table[i] for i in staged]
        if ms[0]["kind"] == "pair":
            reach = len(ms) >= thr_pairs  # R101-8 / R101-14
        else:
            reach = sum(meld_value(m) for m in ms) >= thr_points  # R101-7 / R101-14
        if reach:
            out["open"].add("open")
    kinds = {m["kind"] for m in (table[i] for i in staged)}
    lays = lay_moves(
        rack,
        obs["opened"][p] != "pairs" and "pair" not in kinds,  # R101-8: never mixed in one opening
        may_lay_pairs(obs["opened"], p) and not kinds - {"pair"},
    )
    out.update(lays)
    if turn.taken is not None or turn.plays:
        out["reset"].add("reset")  # the engine's undo: the turn's plays and a taken discard
    if taken_used and not staged:
        out["discard"] = {f"discard {t}" for t in codes}  # R101-3 / R101-4
    return out


# ---- R101-4: can a taken discard be used this turn? -----------------------------------------


def _with_tiles(table: list[dict[str, Any]], i: int, tiles: list[str]) -> list[dict[str, Any]]:
    """A copy of the table whose meld ``i`` holds ``tiles``."""
    return [dict(m, tiles=tiles) if j == i else dict(m) for j, m in enumerate(table)]


def _apply_add(table: list[dict[str, Any]], move: str) -> list[dict[str, Any]]:
    _, t, _, where = move.split()
    i, _, end = where.partition("@")
    tiles = table[int(i)]["tiles"]
    return _with_tiles(table, int(i), [t, *tiles] if end == "start" else [*tiles, t])


def _apply_retrieve(table: list[dict[str, Any]], move: str) -> list[dict[str, Any]]:
    _, place, _, t = move.split()
    i, _, k = place.partition(":")
    tiles = table[int(i)]["tiles"]
    return _with_tiles(table, int(i), [t if j == int(k) else x for j, x in enumerate(tiles)])


def _direct_use(
    t: str, rack: Counter[str], table: list[dict[str, Any]], runs_ok: bool, pairs_ok: bool
) -> bool:
    """Can ``t`` (on the rack) go to the table in one move, keeping a tile (R101-12)?"""
    size = sum(rack.values())
    if t == JOKER:
        if size >= 2 and any(add_moves(m, i, {t}) for i, m in enumerate(table)):
            return True
        others = Counter(rack)
        others[JOKER] -= 1
        numbered = [c for c, k in others.items() if c != JOKER and k]
        if pairs_ok and size >= 3 and numbered:
            return True
        return (
            runs_ok
            and size >= 4
            and any(
                fits_with_rack(c, Counter(others - Counter([c])) + Counter([JOKER]), True, False)
                for c in numbered
            )
        )
    if size >= 2 and any(add_moves(m, i, {t}) for i, m in enumerate(table)):
        return True
    if any(retrieve_moves(m, i, {t}) for i, m in enumerate(table)):
        return True
    rest = Counter(rack)
    rest[t] -= 1
    return (pairs_ok and size >= 3 and fits_with_rack(t, rest, False, True)) or (
        runs_ok and size >= 4 and fits_with_rack(t, rest, True, False)
    )


def take_usable(
    t: str,
    rack: Counter[str],
    table: list[dict[str, Any]],
    runs_ok: bool,
    pairs_ok: bool,
    depth: int = 4,
) -> bool:
    """An opened player's R101-4 test, searched: after taking ``t``, do some additions to runs of
    its colour (rack tiles or jokers filling the run up to it) and joker retrievals (R101-9) let
    ``t`` go to the table,
    keeping a tile? A witness found is a real continuation; the search is bounded, so a False
    is only as good as its depth."""
    start = Counter(rack)
    start[t] += 1
    seen: set[tuple[Any, ...]] = set()

    def go(r: Counter[str], tab: list[dict[str, Any]], d: int) -> bool:
        key = (tuple(sorted(r.elements())), tuple(tuple(m["tiles"]) for m in tab))
        if key in seen:
            return False
        seen.add(key)
        if _direct_use(t, r, tab, runs_ok, pairs_ok):
            return True
        if d == 0:
            return False
        codes = {c for c, k in r.items() if k}
        for i, m in enumerate(tab):
            for mv in retrieve_moves(m, i, codes - {t}):
                r2 = Counter(r)
                r2[mv.split()[-1]] -= 1
                r2[JOKER] += 1
                if go(r2, _apply_retrieve(tab, mv), d - 1):
                    return True
            if m["kind"] != "run" or sum(r.values()) < 3 or t == JOKER:
                continue
            if run_numbers(m["tiles"])[0] != t[0]:
                continue
            # a run of t's colour grows towards t by rack tiles or jokers (R101-11)
            same = {c for c in codes if c == JOKER or (c[0] == t[0] and c != t)}
            for mv in add_moves(m, i, same):
                r2 = Counter(r)
                r2[mv.split()[1]] -= 1
                if go(r2, _apply_add(tab, mv), d - 1):
                    return True
        return False

    return go(start, [dict(m) for m in table], depth)


def most_pairs(rack: Counter[str]) -> int:
    """R101-5/8: the most pairs a rack lays: equal tiles, or a tile and a joker (never two
    jokers); two pairs may stand for one tile (R5 *, R5 *), so two jokers may split R5 R5."""
    jokers = rack[JOKER]
    equal = sum(k // 2 for c, k in rack.items() if c != JOKER)
    single = sum(k % 2 for c, k in rack.items() if c != JOKER)
    with_single = min(jokers, single)
    return equal + with_single + min(equal, (jokers - with_single) // 2)


def unopened_take(t: str, rack: Counter[str], thr_pairs: int) -> tuple[bool, bool]:
    """R101-4 for a player who has not opened: the taken tile must be in this turn's opening.
    Returns (proved, possible): ``proved`` when a pairs opening holding it exists (R101-8, at
    least ``thr_pairs`` pairs, a tile kept for the discard, R101-12); ``possible`` is False when
    the tile makes no pair and no 3-tile run/set with rack tiles, so no opening can hold it."""
    after = Counter(rack)
    after[t] += 1
    size = sum(after.values())
    pairable = t == JOKER or rack[t] > 0 or rack[JOKER] > 0
    proved = pairable and min(most_pairs(after), (size - 1) // 2) >= thr_pairs
    possible = t == JOKER or fits_with_rack(t, rack, True, True)
    return proved, possible


# ---- R101-5/8: new 3-tile runs and sets, and pairs -------------------------------------------


def lay_moves(rack: Counter[str], runs_ok: bool, pairs_ok: bool) -> dict[str, set[str]]:
    """Every new run/set (3 tiles; it grows with ``add``) and pair the rack can lay, keeping a
    tile for the discard (R101-12). A run is three consecutive numbers of one colour, 1 low only
    (R101-5), each place a rack tile or a joker; a set is one number in different colours, written
    in colour order R Y B K with the k-th joker in the k-th missing colour (the notation of
    docs/rules.md); a meld holds at least one numbered tile. A pair is two equal tiles or a tile
    and a joker (R101-5/8)."""
    size = sum(rack.values())
    jokers = rack[JOKER]
    out: dict[str, set[str]] = {"run": set(), "set": set(), "pair": set()}
    if runs_ok and size >= 4:
        for c in COLOURS:
            for a in range(1, 12):
                for mask in range(8):  # bit k: place k is a joker
                    places = [JOKER if mask >> k & 1 else tile(c, a + k) for k in range(3)]
                    need = Counter(places)
                    if need[JOKER] < 3 and all(rack[t] >= k for t, k in need.items()):
                        out["run"].add("run " + " ".join(places))
        for n in range(1, 14):
            have = [c for c in COLOURS if rack[tile(c, n)]]
            for k in range(1, 4):
                for chosen in _subsets(have, k):
                    if 3 - k > jokers:
                        continue
                    missing = [c for c in COLOURS if c not in chosen][: 3 - k]
                    places = [
                        tile(c, n) if c in chosen else JOKER
                        for c in COLOURS
                        if c in chosen or c in missing
                    ]
                    out["set"].add("set " + " ".join(places))
    if pairs_ok and size >= 3:
        for t, k in rack.items():
            if t == JOKER or not k:
                continue
            if k >= 2:
                out["pair"].add(f"pair {t} {t}")
            if jokers:
                out["pair"].add(f"pair {t} {JOKER}")
    return out


def _subsets(items: list[str], k: int) -> list[list[str]]:
    if k == 0:
        return [[]]
    if len(items) < k:
        return []
    head, rest = items[0], items[1:]
    return [[head, *s] for s in _subsets(rest, k - 1)] + _subsets(rest, k)

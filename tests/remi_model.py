"""An outsider's model of one Remi step, written from RULES.md RO-1..RO-13 (seed 004) and the
interpretations of docs/rules.md ("The Remi game"), not from the engine: from what the seats can
see (their observations) and a few facts of the turn that the model keeps itself (the take, the
plays since it, the close announcement), it lists the moves the rules allow for these kinds:
``announce``/``accept``/``decline`` (RO-3), ``draw``/``take``/``break``/``tabla`` (RO-5,
RO-9.3/9.4, RO-10, RO-11), ``close`` and ``discard`` (RO-5, RO-11, RO-13). ``atu`` (RO-4) is
decided exactly for tabla players (with the pattern model below) and bounded otherwise.
tests/test_audit_remi_steps.py compares them with the engine.

Tiles are written as in the engine's notation: ``R5``, ``*``; colours R Y B K.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import pairwise

COLOURS = "RYBK"
JOLY = "*"
#: The kinds the model lists exactly (``take`` for an unlaid player needs the integer program,
#: ``atu`` is exact for tabla players only; see the test).
EXACT = ("announce", "accept", "decline", "draw", "break", "tabla", "close", "discard")
SIMPLE, MOZAIC, BICOLOR, MONOCOLOR = 400, 800, 1600, 3200  # RO-11


def num(t: str) -> int:
    return int(t[1:])


def is_big(t: str) -> bool:
    """RO-3 (docs/rules.md): 10-13 and 1 are big doubles, 2-9 small."""
    return num(t) == 1 or num(t) >= 10


def doubles(rack: Counter[str]) -> set[str]:
    """RO-3: two identical numbered tiles (two Jolys are no double, docs/rules.md)."""
    return {t for t, k in rack.items() if t != JOLY and k >= 2}


# ---- RO-6/RO-7: 3-tile melds --------------------------------------------------------------


def _run_positions(n: int) -> tuple[int, ...]:
    """RO-6: a 1 is low (position 1) or high (position 14, after 13)."""
    return (1, 14) if n == 1 else (n,)


def is_three_meld(tiles: list[str]) -> bool:
    """RO-6/RO-7: three tiles forming a run (one colour, consecutive, 1 low or high, never
    13-1-2) or a set (one number, distinct colours); at most one Joly in a 3-tile meld."""
    real = [t for t in tiles if t != JOLY]
    if len(real) < 2:
        return False
    if len({num(t) for t in real}) == 1 and len({t[0] for t in real}) == len(real):
        return True  # a set: one number, distinct colours (the Joly any missing colour)
    if len({t[0] for t in real}) != 1:
        return False
    options = [_run_positions(num(t)) for t in real]
    a = options[0]
    for pa in a:
        for pb in options[1]:
            lo, hi = min(pa, pb), max(pa, pb)
            if lo == hi:
                continue
            if len(real) == 3:
                for pc in options[2]:
                    if sorted((pa, pb, pc)) == list(range(min(pa, pb, pc), min(pa, pb, pc) + 3)):
                        return True
            elif hi - lo <= 2:
                return True  # two real tiles and a Joly: the Joly fills the gap or an end
    return False


def three_meld_with(t: str, rack: Counter[str]) -> bool:
    """RO-9.4: do two rack tiles form a 3-tile run/set with ``t``?"""
    codes = [c for c, k in rack.items() if k]
    for i, a in enumerate(codes):
        for b in codes[i:]:
            if a == b and rack[a] < 2:
                continue
            if is_three_meld([t, a, b]):
                return True
    return False


# ---- RO-11: tabla patterns (a model of its own) -------------------------------------------


def _key(rack: Counter[str]) -> tuple[tuple[str, int], ...]:
    return tuple(sorted((t, k) for t, k in rack.items() if k))


@lru_cache(maxsize=200_000)
def _covers(key: tuple[tuple[str, int], ...], need_run: bool) -> bool:
    """Can the tiles be split exactly into runs and sets (RO-6), each holding at least twice as
    many real tiles as Jolys (RO-7), with a run among them when ``need_run``?"""
    rack = Counter(dict(key))
    reals = sorted(t for t, k in rack.items() if k and t != JOLY)
    if not reals:
        return rack[JOLY] == 0 and not need_run
    t = reals[0]
    c, n = t[0], num(t)
    jolys = rack[JOLY]
    # sets holding t: other colours of n chosen among the rack's, Jolys for the rest
    others = [o for o in COLOURS if o != c and rack[f"{o}{n}"]]
    for mask in range(1 << len(others)):
        chosen = [o for k, o in enumerate(others) if mask >> k & 1]
        for j in range(jolys + 1):
            size = 1 + len(chosen) + j
            if not 3 <= size <= 4 or (1 + len(chosen)) < 2 * j:
                continue
            rest = Counter(rack)
            rest[t] -= 1
            for o in chosen:
                rest[f"{o}{n}"] -= 1
            rest[JOLY] -= j
            if _covers(_key(rest), need_run):
                return True
    # runs holding t: positions s..e of colour c (1..14, 14 is the high 1), each place a rack
    # tile or a Joly
    for q in _run_positions(n):
        for s in range(1, q + 1):
            for e in range(max(q, s + 2), 15):
                places = [p for p in range(s, e + 1) if p != q]
                if _fill_run(rack, c, t, places, need_run):
                    return True
    return False


def _fill_run(rack: Counter[str], c: str, t: str, places: list[int], need_run: bool) -> bool:
    length = len(places) + 1
    rest = Counter(rack)
    rest[t] -= 1

    def go(k: int, real: int, jolys: int) -> bool:
        if k == len(places):
            return real >= 2 * jolys and _covers(_key(rest), False)
        code = f"{c}{places[k] if places[k] <= 13 else 1}"
        if rest[code]:
            rest[code] -= 1
            if go(k + 1, real + 1, jolys):
                return True
            rest[code] += 1
        if rest[JOLY] and 2 * (jolys + 1) <= length:
            rest[JOLY] -= 1
            if go(k + 1, real, jolys + 1):
                return True
            rest[JOLY] += 1
        return False

    return go(0, 1, 0)


def _rows(rack: Counter[str]) -> list[list[str | None]]:
    """Every way to read 14 tiles as the row 1-2-...-13-1, as the colour at each place (None for a
    Joly, which may stand for any colour)."""
    out: list[list[str | None]] = []
    rest = Counter(rack)
    row: list[str | None] = []

    def go(k: int) -> None:
        if k == 14:
            out.append(list(row))
            return
        n = k + 1 if k < 13 else 1
        for code, mark in [*((f"{c}{n}", c) for c in COLOURS), (JOLY, None)]:
            if rest[code]:
                rest[code] -= 1
                row.append(mark)
                go(k + 1)
                row.pop()
                rest[code] += 1

    if sum(rack.values()) == 14:
        go(0)
    return out


def _paint(row: list[str | None], allowed: str, ok: object) -> bool:
    """Can the Jolys of ``row`` take colours from ``allowed`` so that ``ok(colours)`` holds?"""
    holes = [i for i, c in enumerate(row) if c is None]

    def go(k: int, cur: list[str]) -> bool:
        if k == len(holes):
            return bool(ok(cur))  # type: ignore[operator]
        for c in allowed:
            cur[holes[k]] = c
            if go(k + 1, cur):
                return True
        return False

    if any(c is not None and c not in allowed for c in row):
        return False
    return go(0, [c or "" for c in row])


def _alternating(cs: list[str]) -> bool:
    return all(a != b for a, b in pairwise(cs))  # along the row, 13 and the final 1 too


def pattern_score(rack: Counter[str]) -> int:
    """RO-11: the best pattern the 14 tiles left after the final discard form, or 0 (Jolys may
    stand in every pattern; the simple close respects RO-7; docs/rules.md)."""
    best = 0
    for row in _rows(rack):
        if any(_paint(row, c, lambda cs: True) for c in COLOURS):
            return MONOCOLOR
        for i, a in enumerate(COLOURS):
            for b in COLOURS[i + 1 :]:
                if _paint(row, a + b, lambda cs: _alternating(cs) and len(set(cs)) == 2):
                    best = max(best, BICOLOR)
        if best < MOZAIC and _paint(
            row, COLOURS, lambda cs: _alternating(cs) and len(set(cs[:4])) == 4
        ):
            best = MOZAIC
    if best:
        return best
    return SIMPLE if _covers(_key(rack), True) else 0


def closing_discards(rack: Counter[str]) -> dict[str, int]:
    """RO-11 with RO-13: the discards after which the rest forms a pattern, with the score
    (doubled by a Joly discard, RO-11)."""
    out: dict[str, int] = {}
    for d in [t for t, k in rack.items() if k]:
        rest = Counter(rack)
        rest[d] -= 1
        sc = pattern_score(rest)
        if sc:
            out[d] = sc * (2 if d == JOLY else 1)
    return out


# ---- the turn as the model keeps it ------------------------------------------------------------


@dataclass
class Turn:
    """What the model keeps about the turn in progress."""

    took: str = ""  # "start", "draw", "take", "break", "atu"
    taken: str | None = None  # a discard taken by a player not laid down (RO-10)
    taken_base: int = 0  # copies of it on the rack before the take
    plays: int = 0  # run, set, lay, add, retrieve, open, close, break since the turn began
    closing: bool = False  # the tabla close is announced (RO-11)
    atu: bool = False  # the Atu was taken this turn (RO-4)
    atu_laid: bool = False  # a meld laid this turn holds the Atu
    log: list[str] = field(default_factory=list)

    def taken_used(self, rack: Counter[str]) -> bool:
        """RO-10: the taken discard has left the rack for the staged lay-down."""
        return self.taken is None or rack[self.taken] <= self.taken_base


def tabla_allowed(obs: dict, turn: Turn, own_turns: int, tabla_opt: bool) -> bool:
    """RO-11 (docs/rules.md): in the player's own first three turns, before anything else in the
    turn (in the take phase or right after a draw, or on the starter's opening turn), never for a
    player laid down or already declared."""
    p = obs["current_player"]
    if not tabla_opt or obs["tabla"][p] or obs["laid"][p] or own_turns > 3:
        return False
    if obs["phase"] == "take":
        return True
    return turn.took in ("draw", "start") and turn.plays == 0


def expected(obs: dict, turn: Turn, own_turns: int, tabla_opt: bool) -> dict[str, set[str]]:
    """The moves the rules allow, by kind (``take`` for a laid-down or tabla player; the test
    decides an unlaid player's take with the integer program)."""
    p = obs["current_player"]
    rack = Counter(obs["rack"])
    size = sum(rack.values())
    out: dict[str, set[str]] = {k: set() for k in (*EXACT, "take")}
    laid, tabla = obs["laid"][p], obs["tabla"][p]
    if obs["phase"] == "exchange":
        ex = obs["exchange"]
        if ex["announcer"] is None:
            out["announce"] = {f"announce {t}" for t in doubles(rack)}
        else:
            big = ex["size"] == "big"
            out["accept"] = {f"accept {t}" for t in doubles(rack) if is_big(t) == big}
        out["decline"] = {"decline"}
        return out
    train = obs["train"]
    if obs["phase"] == "take":
        if obs["stock"] > 0:
            out["draw"].add("draw")  # RO-5
        if len(train) >= 2 and (laid or tabla):
            out["take"].add("take")  # RO-9.3, RO-10 (tabla), never the first discard (RO-5)
        if laid and not tabla and size >= 3:  # RO-9.4 with RO-10
            for n in range(1, len(train) - 1):
                if three_meld_with(train[n], rack):
                    out["break"].add(f"break {n}")
        if tabla_allowed(obs, turn, own_turns, tabla_opt):
            out["tabla"].add("tabla")
        return out
    ts = obs["turn_state"]
    if tabla_allowed(obs, turn, own_turns, tabla_opt) and not any(
        m["staged"] for m in obs["table"]
    ):
        out["tabla"].add("tabla")
    every = {f"discard {t}" for t in rack if rack[t]}
    if ts["pending"] is not None:  # RO-9.4/9.5: the broken tile or Joly is laid at once
        out["tabla"] = set()
        return out
    if tabla:
        closes = closing_discards(rack)
        offered = bool(closes)
        if turn.atu:  # RO-4: the Atu is the last tile the close needed, not its discard
            closes = {d: v for d, v in closes.items() if d != obs["atu"] or rack[d] >= 2}
        if turn.closing:
            out["discard"] = {f"discard {d}" for d in closes}
        else:
            if offered:
                out["close"].add("close")
            if not turn.atu:
                out["discard"] = every
        return out
    if turn.took == "start":  # RO-5: the starter's first turn is a discard alone
        out["discard"] = every
        return out
    staged = any(m["staged"] for m in obs["table"])
    if not laid:
        if not staged and not turn.atu and turn.taken_used(rack):
            out["discard"] = every  # RO-8: a staged lay-down is committed first; RO-10
    elif not turn.atu or (size == 1 and turn.atu_laid):
        out["discard"] = every  # RO-4: after the Atu the turn must finish
    return out


def finishes_from_rack(rack: Counter[str], atu: str, need_run: bool) -> bool:
    """RO-4 with RO-13: after taking the Atu, can every tile but one discard be laid in new
    runs/sets (RO-6/RO-7; with a run when ``need_run``, RO-8; 14 tiles are always >= 45), the
    Atu among them (the discard may be its identical copy)?"""
    after = Counter(rack)
    after[atu] += 1
    for d in [t for t, k in after.items() if k]:
        if d == atu and after[d] < 2:
            continue
        rest = Counter(after)
        rest[d] -= 1
        if _covers(_key(rest), need_run):
            return True
    return False

"""Tile-level decisions of the greedy bot, as pure functions of count vectors and melds.

Everything here calls the exact core solvers of the live backend directly (``solve_melds``,
``max_pairs``, ``meld_additions``, ``rack_value``), memoized per rule set and backend: the bot
validates nothing because the engine hands it only valid racks and melds, and it is called on
every step of every simulated game. (Joker releases come from the engine's legal ``retrieve``
actions.)

Values: *open* valuation for openings (R101-7, RO-8), *penalty* valuation for what a rack would
cost at the round's end (R101-13 joker 101, RO-12 end values).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .. import _backend
from ..errors import BackendError
from ..rules import Rules
from ..tiles import JOKER_CODE, MELD_KINDS, NUM_CODES

__all__ = [
    "Kit",
    "Plan",
    "choose_discard",
    "connections",
    "deadwood",
    "feeding_tiles",
    "kit_for",
    "lay_plan",
    "opening_plan",
]

Melds = list[tuple[str, list[int]]]
_KIND = MELD_KINDS

# Cost, in penalty points, of a discard that the next player could take and use at once.
FEED_COST = 15
# Cost of keeping fewer partial melds: per rack tile that could join the discarded tile in a meld.
CONNECT_COST = 3
# Solver answers remembered per rule set and backend before the memo is cleared.
MEMO_SIZE = 4096


@dataclass(frozen=True)
class Kit:
    """The core module and CoreRules objects of one rule set on one backend, with a small memo
    of solver answers (a bot asks about the same rack several times in a turn)."""

    rules: Rules
    core: Any
    open_cr: Any
    penalty_cr: Any
    memo: dict[tuple[Any, ...], tuple[int, list[Any]]] = field(default_factory=dict, compare=False)
    adds_memo: dict[tuple[Any, ...], frozenset[int]] = field(default_factory=dict, compare=False)
    value_memo: dict[tuple[Any, ...], int] = field(default_factory=dict, compare=False)

    def pairs(self, counts: Sequence[int], keep: bool, must_use: int) -> tuple[int, list[Any]]:
        """``max_pairs`` of the core, memoized."""
        key = ("pairs", tuple(counts), keep, must_use)
        hit = self.memo.get(key)
        if hit is None:
            if len(self.memo) >= MEMO_SIZE:
                self.memo.clear()
            hit = self.core.max_pairs(list(counts), keep, must_use)
            self.memo[key] = hit
        return hit

    def additions(self, meld: Sequence[int], kind: str = "run") -> frozenset[int]:
        """Codes that may be added to a table meld of ``kind`` (R101-11), memoized. Runs ask the
        core's ``meld_additions``; sets are computed here, because the core reads a 3-tile meld
        such as ``* * B12`` as a run while on the table it may be a set (the missing colour of a
        3-tile set, or a joker)."""
        key = (kind, *meld)
        hit = self.adds_memo.get(key)
        if hit is None:
            if len(self.adds_memo) >= MEMO_SIZE:
                self.adds_memo.clear()
            if kind == "set":
                hit = _set_additions(meld)
            else:
                hit = frozenset(code for _, code in self.core.meld_additions(self.open_cr,
                                                                             list(meld)))
            self.adds_memo[key] = hit
        return hit

    def solve(self, penalty: bool, counts: Sequence[int], keep: bool, must_use: int,
              require_run: bool) -> tuple[int, list[Any]]:
        """``solve_melds`` of the core with the penalty or the opening valuation, memoized."""
        key = (penalty, tuple(counts), keep, must_use, require_run)
        hit = self.memo.get(key)
        if hit is None:
            if len(self.memo) >= MEMO_SIZE:
                self.memo.clear()
            hit = self.core.solve_melds(self.penalty_cr if penalty else self.open_cr,
                                        list(counts), keep, must_use, require_run)
            self.memo[key] = hit
        return hit

    def value(self, penalty: bool, counts: Sequence[int], keep: bool, must_use: int,
              require_run: bool) -> int:
        """``solve(...)[0]`` without the arrangement (``solve_melds_value``: no rebuild), from the
        same memo when the arrangement is there already."""
        key = (penalty, tuple(counts), keep, must_use, require_run)
        hit = self.memo.get(key)
        if hit is not None:
            return int(hit[0])
        got = self.value_memo.get(key)
        if got is None:
            if len(self.value_memo) >= MEMO_SIZE:
                self.value_memo.clear()
            got = self.value_memo[key] = int(self.core.solve_melds_value(
                self.penalty_cr if penalty else self.open_cr, list(counts), keep, must_use, require_run))
        return got


_KITS: dict[tuple[str, Rules], Kit] = {}


_KITS_BY_ID: dict[tuple[str, int], tuple[Rules, Kit]] = {}


def kit_for(rules: Rules) -> Kit:
    """The :class:`Kit` of a rule set on the live backend, made once. Looked up first by the
    rules object's identity (hashing a ``Rules`` costs microseconds, and the bot asks on every
    step), then by value."""
    name = _backend.backend_name()
    hit = _KITS_BY_ID.get((name, id(rules)))
    if hit is not None and hit[0] is rules:
        return hit[1]
    kit = _KITS.get((name, rules))
    if kit is None:
        core = _backend.core()
        missing = [f for f in ("solve_melds", "max_pairs", "meld_additions", "rack_value")
                   if not hasattr(core, f)]
        if missing:
            raise BackendError(f"the {name} core lacks {', '.join(missing)}, which the greedy bot "
                               "needs: rebuild it (tools/devbuild) or use RUMMY101_BACKEND=pure")
        kit = Kit(rules, core, _backend.core_rules(rules, "open"),
                  _backend.core_rules(rules, "penalty"))
        _KITS[(name, rules)] = kit
    if len(_KITS_BY_ID) > 1000:
        _KITS_BY_ID.clear()
    _KITS_BY_ID[(name, id(rules))] = (rules, kit)  # holds ``rules``: its id stays unique
    return kit


@dataclass(frozen=True)
class Plan:
    """An opening: ``kind`` is ``"melds"`` or ``"pairs"``; ``melds`` lists ``(meld kind, tile
    codes in table order)`` (jokers at the place they fill); ``value`` is the opening value (or
    the number of pairs)."""

    kind: str
    value: int
    melds: tuple[tuple[str, tuple[int, ...]], ...]


def opening_plan(kit: Kit, counts: Sequence[int], threshold: int, pairs_threshold: int,
                 must_use: int = -1) -> Plan | None:
    """The best legal opening of ``counts`` (R101-7 melds preferred to R101-8 pairs, CONTRACT.md),
    or ``None``. ``threshold`` / ``pairs_threshold`` are the current ones (R101-14); a pairs
    threshold of 0 means no pairs opening. ``must_use``: a taken discard that the opening has to
    contain (R101-4), -1 for none. Keeps a tile to discard when the rules say so."""
    keep = kit.rules.keep_discard
    value, melds = kit.solve(False, counts, keep, must_use, kit.rules.opening_needs_run)
    if value >= threshold and value > 0 and melds:
        return Plan("melds", value, tuple((_KIND[k], tuple(t)) for k, t, _ in melds))
    if pairs_threshold > 0 and kit.rules.pairs_allowed:
        n, pairs = kit.pairs(counts, keep, must_use)
        if n >= pairs_threshold:
            return Plan("pairs", n, tuple(("pair", (a, b)) for a, b in pairs))
    return None


def deadwood(kit: Kit, counts: Sequence[int], keep: bool = True) -> int:
    """Penalty value left on the rack after laying the best melds from it (penalty valuation)."""
    total = int(kit.core.rack_value(kit.penalty_cr, list(counts)))
    if sum(counts) < 3:
        return total
    return total - max(kit.value(True, counts, keep, -1, False), 0)


def lay_plan(kit: Kit, counts: Sequence[int], must_use: int = -1) -> Melds:
    """Runs and sets to lay from an opened player's rack: those that leave the least penalty,
    keeping a tile to discard (R101-12), holding ``must_use`` if it is not -1 (R101-4). Empty
    when there are none."""
    if sum(counts) < 4 and kit.rules.keep_discard:
        return []
    value, melds = kit.solve(True, counts, kit.rules.keep_discard, must_use, False)
    return [(_KIND[k], list(t)) for k, t, _ in melds] if value > 0 else []


def _set_additions(meld: Sequence[int]) -> frozenset[int]:
    """The fourth tile of a 3-tile set (the colour its jokers do not stand for) or a joker.

    >>> sorted(_set_additions([JOKER_CODE, JOKER_CODE, 37]))   # * * B12: the jokers are R12, Y12
    [50, 52]
    """
    if len(meld) != 3:
        return frozenset()
    reals = [c for c in meld if c != JOKER_CODE]
    number = reals[0] % 13
    colours = {c // 13 for c in reals}
    missing = [k for k in range(4) if k not in colours]
    free = missing[len(meld) - len(reals):]   # jokers stand for the first missing colours
    return frozenset([*(k * 13 + number for k in free), JOKER_CODE])


def feeding_tiles(kit: Kit, table: Iterable[tuple[str, Sequence[int]]]) -> set[int]:
    """Codes that could be added at once to some table meld (R101-11), given ``(kind, tiles)``
    pairs: a player who has opened could take such a discard and use it (R101-4)."""
    out: set[int] = set()
    for kind, meld in table:
        if kind != "pair" and len(meld) >= 3:
            out |= kit.additions(meld, kind)
    out.discard(JOKER_CODE)
    return out


def connections(counts: Sequence[int], code: int) -> int:
    """How many distinct rack tiles could form a run or a set with ``code`` (its partners within
    two numbers in its colour, and its number in other colours)."""
    if code == JOKER_CODE:
        return 99
    colour, n0 = divmod(code, 13)
    n = 0
    for d in (-2, -1, 1, 2):
        m = n0 + d
        if 0 <= m < 13 and counts[colour * 13 + m]:
            n += 1
    for c in range(4):
        if c != colour and counts[c * 13 + n0]:
            n += 1
    return n


def choose_discard(kit: Kit, counts: Sequence[int], opened: bool, feeding: set[int],
                   next_opened: bool) -> int:
    """The tile (a code held in ``counts``) to discard so that the rack stays best.

    Only *loose* tiles are candidates: tiles outside the best melds of the rack (penalty
    valuation when ``opened``, opening valuation before). Removing a loose tile leaves that best
    selection intact, so the remaining deadwood / reachable opening value is exactly the rack's
    minus that tile, without one solver call per candidate. Among loose tiles the score is:

    * opened: minus the tile's penalty value (drop the highest deadwood first), plus
      :data:`CONNECT_COST` per rack tile that could form a run or set with it;
    * not opened: the connections first, then the lowest number (high tiles help reach 101);
    * either way plus :data:`FEED_COST` when the next player has opened and could add the tile
      to a table meld at once (R101-4).

    A joker is discarded only when nothing else is left (a joker finish, R101-12/13).
    """
    held = [c for c in range(NUM_CODES) if counts[c]]
    reals = [c for c in held if c != JOKER_CODE]
    if not reals:
        return held[0]
    if len(reals) == 1:
        return reals[0]
    _, melds = kit.solve(opened, counts, True, -1, False if opened else kit.rules.opening_needs_run)
    used = [0] * NUM_CODES
    for _, tiles, _ in melds:
        for t in tiles:
            used[t] += 1
    loose = [c for c in reals if counts[c] > used[c]] or reals
    set_value = kit.penalty_cr.set_value if opened else None
    best: tuple[float, ...] | None = None
    choice = loose[0]
    for code in loose:
        feed = FEED_COST if next_opened and code in feeding else 0
        conn = connections(counts, code)
        if set_value is not None:
            key: tuple[float, ...] = (feed - set_value[code % 13 + 1] + CONNECT_COST * conn, -code)
        else:
            key = (feed + CONNECT_COST * conn, code % 13, code)
        if best is None or key < best:
            best, choice = key, code
    return choice


def counts_of_codes(codes: Iterable[int]) -> list[int]:
    out = [0] * NUM_CODES
    for c in codes:
        out[c] += 1
    return out

"""A fixed ``Discrete`` action space per variant: a bijection between indices and engine actions.

The space is built from the verbs of the variant's engine (``engine_for(rules).VERBS``), one
block per verb, in the order the verbs are declared (:data:`rummy101.game.actions.VERBS`). The
table is a pure function of the rules and ``table_slots``: index ``i`` always names the same
:class:`~rummy101.game.Action`, whatever the state, so a policy's output unit has one meaning.

=============  =================================================  ==========================
verb           what an index names                                size (``P`` pieces, ``M``
                                                                  table slots)
=============  =================================================  ==========================
bare verbs     ``draw take button open reset``, Remi's ``decline   1 each
               atu tabla close``
``discard``    one per piece code ``0..P-1`` (also Remi's          ``P`` (53 tiles, 52 cards)
               ``announce``/``accept`` of a double)
``run``        3-piece windows: colour x first number x which of  4 x 11 x 7 (rummy101), 4 x
               the 3 places hold a joker (at least one real       12 x 4 (Remi: 12-13-1; a
               piece; Remi's ratio RO-7)                          joker needs 2 real tiles),
                                                                  4 x 11 (cards)
``set``        number x colours present (3, or 2 + a joker, or    13 x 14 (rummy101), 13 x 10
               1 + 2 jokers), canonical order                     (Remi), 13 x 4 (cards)
``pair``       ``pair T T`` and ``pair T *`` per real tile        104
``add``        table slot x position (set / @start / @end) x      ``M`` x 3 x ``P``
               piece
``retrieve``   table slot x joker index x real piece, keeping     ``M`` x 388 (rummy101),
               index <= 3 (a set's first joker, a pair's) or      ``M`` x 428 (Remi)
               index < number (a run starting at number - index
               >= 1), and Remi's high ace at any index up to 13
``break N``    Remi: train tile N (RO-9.4), N below the size of   106
               the set (the train never holds more)
``lay``        Remi: each run only a whole lay builds (both       340 x 2
               Jolys bridging gaps, ``lay R3 * R5 R6 * R8``,
               ``remi.table.lay_melds``), after every other block;
               then each again with ``@I`` (a retrieved Joly's
               re-lay at the second Joly place, RO-9.5)
=============  =================================================  ==========================

``M`` (``table_slots``) caps the table melds an ``add`` or ``retrieve`` can name: actions on
table melds ``M`` and beyond have no index (:meth:`ActionCodec.index` returns ``-1``); every other
legal action has exactly one. ``tests/test_rl.py`` checks, at every step of seeded random games,
that every legal action on a meld below ``M`` maps to an index and back to the same action.

>>> codec = ActionCodec("rummy101(players=2)")
>>> codec.n, codec.block("add")
(18156, (652, 5088))
>>> codec.index("add R6 to 3@end"), str(codec.action(codec.index("add R6 to 3@end")))
(1240, 'add R6 to 3@end')
>>> codec.index("add R6 to 40@end")       # beyond the 32 table slots: not in the space
-1
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from .._validate import whole_number
from ..errors import RulesError
from ..game import Action, engine_for
from ..game import actions as _actions
from ..rules import Rules
from ..tiles import JOKER_CODE

__all__ = ["DEFAULT_TABLE_SLOTS", "ActionCodec", "codec_for"]

J = JOKER_CODE
#: Default table slots per variant: the most table melds ``add``/``retrieve`` can name (docs/rl.md:
#: the most seen in seeded greedy games were 27 for rummy101, 18 for Remi). Classic card Rummy
#: never holds more than 17 melds (52 cards, 3 a meld), so its space is exact.
DEFAULT_TABLE_SLOTS = {"rummy101": 32, "remi": 24, "classic": 17}


def table_slots_for(r: Rules, table_slots: Any = None) -> int:
    """``table_slots`` checked (the variant's default for None): a whole number from 1 to the
    most melds a table can hold, its pieces in melds of 2 (Rummy 101's pairs) or 3. More slots
    name no meld and only grow the space (about 0.25 MB and 16 ms each to build: 10**6 ran out
    of memory). Raises :class:`RulesError`."""
    most = (r.copies * 52 + max(r.jokers, r.max_rack_jokers)) // (2 if r.pairs_allowed else 3)
    if table_slots is None:
        return min(DEFAULT_TABLE_SLOTS.get(r.variant, 24), most)
    value = whole_number(table_slots)
    if value is None or not 1 <= value <= most:
        raise RulesError(f"table_slots must be a whole number from 1 to {most} (the most melds "
                         f"a {r.variant} table holds), got {table_slots!r}")
    return value


#: ``verb N`` verbs and how many numbers each can take: Remi's ``break N`` names a tile of the
#: train of discards (RO-9.4), which never holds more than the whole set.
_INDEX_CAPS: dict[str, Callable[[Rules], int]] = {"break": lambda r: r.copies * 52 + r.jokers}


def _verb_shape(verb: str) -> tuple[str, int]:
    # rummy101.game.actions keeps each verb's (shape, pieces) in a private table; read it here
    # (a public accessor is requested in issue 13's report).
    spec: tuple[str, int] = _actions.verb_spec(verb)
    return spec


class ActionCodec:
    """Indices <-> actions for one rule set (see the module docstring for the layout).

    ``codec.n`` indices; ``codec.action(i)`` the :class:`Action` of index ``i``;
    ``codec.index(action)`` its index, or ``-1`` for an action outside the space (an ``add`` or
    ``retrieve`` on a table meld beyond ``table_slots``); ``codec.mask(legal)`` the int8 mask of
    a list of legal actions; ``codec.blocks`` the ``(verb, start, size)`` layout.
    """

    def __init__(self, rules: str | Rules, table_slots: int | None = None) -> None:
        self.rules = r = Rules.parse(rules)
        eng = engine_for(r)
        self.table_slots = table_slots_for(r, table_slots)
        self.cards = r.family == "cards"
        self.pieces = 53 if r.jokers else 52
        verbs = [v for v in _actions.VERBS if v in eng.VERBS]
        acts: list[Action] = []
        blocks: list[tuple[str, int, int]] = []
        for verb in verbs:
            got = list(self._verb_actions(verb))
            blocks.append((verb, len(acts), len(got)))
            acts.extend(got)
        self.blocks: tuple[tuple[str, int, int], ...] = tuple(blocks)
        self.actions: tuple[Action, ...] = tuple(acts)
        self._index: dict[str, int] = {str(a): i for i, a in enumerate(acts)}
        if len(self._index) != len(acts):
            raise AssertionError("two indices name the same action")  # a bug in the tables below
        self.n = len(acts)
        # indices(): the index (-1: none) of each action object met, by id, and the objects
        # themselves (held, so that no other object can take the id of one met)
        self._by_id: dict[int, int] = {}
        self._held: list[Action] = []
        self._unmapped = False  # an action met has no index (-1 in _by_id)

    # ---- the tables ---------------------------------------------------------------------------
    def _act(self, verb: str, codes: Sequence[int], meld: int = -1, pos: int = -1) -> Action:
        return Action(verb, tuple(codes), meld, pos, cards=self.cards)

    def _verb_actions(self, verb: str) -> Iterable[Action]:
        shape, n = _verb_shape(verb)
        r = self.rules
        if shape == "bare":
            return [Action(verb)]
        if shape == "tiles" and n == 1:
            return [self._act(verb, (c,)) for c in range(self.pieces)]
        if verb == "run":
            return self._runs()
        if verb == "set":
            return self._sets()
        if verb == "pair":
            out = []
            for c in range(52):
                if r.copies >= 2:
                    out.append(self._act("pair", (c, c)))
                if r.jokers:
                    out.append(self._act("pair", (c, J)))
            return out
        if verb == "add":
            return [self._act("add", (c,), m, pos) for m in range(self.table_slots)
                    for pos in (-1, 0, 1) for c in range(self.pieces)]
        if verb == "retrieve":
            top = 14 if r.high_ace else 13
            return [self._act("retrieve", (c,), m, i) for m in range(self.table_slots)
                    for i in range(top) for c in range(52)
                    if i <= 3 or i < c % 13 + 1 or (r.high_ace and c % 13 == 0)]
        if verb == "lay":  # Remi: the runs only a whole lay builds (two Jolys bridging gaps, RO-7)
            from ..game.engines.remi.table import lay_melds
            runs = [t for t, _n in lay_melds(r)]          # then each with a retrieved Joly at the
            return ([self._act("lay", t) for t in runs]  # second Joly place (RO-9.5, 'lay .. @I')
                    + [self._act("lay", t, -1, t.index(52, t.index(52) + 1)) for t in runs])
        if shape == "index" and verb in _INDEX_CAPS:
            return [Action(verb, (), k) for k in range(_INDEX_CAPS[verb](r))]
        raise RulesError(f"{r.variant}: verb {verb!r} ({shape}, {n} pieces) has no RL action "
                         "encoding yet (rummy101.rl.actions)")

    def _jokers_ok(self, reals: int, jokers: int) -> bool:
        r = self.rules
        if jokers and not r.jokers:
            return False
        return jokers <= 2 and reals >= 1 and reals >= r.joker_ratio * jokers

    def _runs(self) -> list[Action]:
        last_start = 12 if self.rules.high_ace else 11
        out = []
        for colour in range(4):
            for start in range(1, last_start + 1):
                codes = [colour * 13 + (start + k - 1) % 13 for k in range(3)]
                for real in range(1, 8):
                    reals = real.bit_count()
                    if not self._jokers_ok(reals, 3 - reals):
                        continue
                    out.append(self._act("run", [c if real >> k & 1 else J for k, c in enumerate(codes)]))
        return out

    def _sets(self) -> list[Action]:
        out = []
        for number in range(13):
            for colours in range(1, 16):
                reals = colours.bit_count()
                if reals == 4 or not self._jokers_ok(reals, 3 - reals):
                    continue
                codes = [k * 13 + number for k in range(4) if colours >> k & 1] + [J] * (3 - reals)
                out.append(self._act("set", codes))
        return out

    # ---- lookups --------------------------------------------------------------------------------
    def index(self, action: Action | str) -> int:
        """The index of an action (or its text), ``-1`` when the space does not hold it."""
        key = action if isinstance(action, str) else str(action)
        got = self._index.get(key)
        if got is None and isinstance(action, str):
            got = self._index.get(str(Action.parse(action, self.rules)))
        return -1 if got is None else got

    def action(self, index: int) -> Action:
        """The action of an index (``IndexError`` outside ``0..n-1``; ``TypeError`` for what is
        no integer, as a list says: ``int()`` read 2.7 as index 2, as the environments never do)."""
        i = whole_number(index)
        if i is None:
            raise TypeError(f"an action index is a whole number 0..{self.n - 1} (numpy's "
                            f"integers too), got {type(index).__name__} {index!r:.40}")
        if not 0 <= i < self.n:
            raise IndexError(f"action index {index} is outside 0..{self.n - 1}")
        return self.actions[i]

    def block(self, verb: str) -> tuple[int, int]:
        """``(start, size)`` of a verb's block of indices."""
        for v, start, size in self.blocks:
            if v == verb:
                return start, size
        raise KeyError(f"{self.rules.variant} has no verb {verb!r} in its action space")

    def mask(self, legal: Iterable[Action], out: np.ndarray[Any, Any] | None = None) -> np.ndarray[Any, Any]:
        """The int8 mask of the legal actions that have an index (1 = legal), written whole
        into ``out`` when given (cleared first: a buffer reused keeps no stale 1s)."""
        if out is None:
            m = np.zeros(self.n, dtype=np.int8)
        else:
            m = out
            m[:] = 0
        idx = self.indices(legal)
        if idx:
            m[idx] = 1
        return m

    def indices(self, legal: Iterable[Action]) -> list[int]:
        """The indices of the legal actions that have one, in their order (what :meth:`mask`
        sets: an empty list is an all-zero mask, told without scanning the mask)."""
        known = self._by_id
        if type(legal) is not list:
            legal = list(legal)
        # Engines intern their actions, so most are met again: an id found is the object met
        # (it is held), read in C (a loop with a tuple per action cost twice as much). An id not
        # met yet raises KeyError (a scan of the list for None cost more); -1 is looked for only
        # once an action without an index has been met.
        try:
            idx: list[int] = list(map(known.__getitem__, map(id, legal)))
        except KeyError:
            pass
        else:
            if not self._unmapped or -1 not in idx:
                return idx
        out = []
        for a, i in zip(legal, list(map(known.get, map(id, legal)))):
            if i is None:
                if len(known) > 200_000:
                    known.clear()
                    self._held.clear()
                    self._unmapped = False
                i = known[id(a)] = self._index.get(str(a), -1)
                self._held.append(a)
                if i < 0:
                    self._unmapped = True
            if i >= 0:
                out.append(i)
        return out

    def describe(self) -> str:
        """The layout, one line per verb block."""
        return "\n".join(f"{v:<9} {start:>6} .. {start + size - 1:>6}  ({size})"
                         for v, start, size in self.blocks)

    def __repr__(self) -> str:
        return f"ActionCodec({str(self.rules)!r}, table_slots={self.table_slots}) n={self.n}"


@lru_cache(maxsize=32)
def _cached(rules: Rules, table_slots: int | None) -> ActionCodec:
    return ActionCodec(rules, table_slots)


def codec_for(rules: str | Rules, table_slots: int | None = None) -> ActionCodec:
    """The codec of a rule set, built once and shared (a codec is never changed)."""
    r = Rules.parse(rules)
    # checked before the cache's key is made ([] was "unhashable type: 'list'")
    return _cached(r, None if table_slots is None else table_slots_for(r, table_slots))

"""Fast rollout policies for Remi and classic Rummy: cheap, sensible play for the search bot's
playouts (issue 12).

The ``search`` bot (:mod:`rummy101.bots.search`) plays hundreds of rounds to the end per
decision. The ``greedy`` bots plan every step with the exact solver and read a fresh observation
each step, which is too slow for that in Remi (every take phase also asks the engine which train
tiles may be broken, a solve per tile). These policies read the state of the determinized world
directly — but only what the seat to act could see: its own rack, the table, the top of the
discard pile / train and the public turn record — and act in one pass:

* **classic** (CR-1 .. CR-6): take the discard only when it makes a 3-card run or set with the
  hand, else draw; lay every run/set the engine offers, then every lay-off; discard the card
  with the highest value among those not in a partial meld (a pair of a rank, or two cards of a
  suit at most two apart), else the highest card.
* **Remi** (RO-1 .. RO-13): decline the doubles exchange (RO-3); draw, or take the last discard
  when the engine allows it (RO-9.3/RO-10: laid down, or a lay-down holding it exists) and it
  fits a table meld or makes a 3-tile meld with the rack; no breaking the train, no Atu, no tabla
  of its own. Not laid down: when the exact solver (one ``solve_melds`` call per turn, open
  values, a run required, the taken tile used) finds 45 or more, stage those melds and ``open``
  (RO-8); laid down: lay the runs/sets that leave the least penalty, then every lay-off; discard
  as in classic with RO-12 end values, a Joly only as the last tile. A seat that declared tabla
  before the rollout closes when it can.

Legality: every action comes from ``state.legal_actions()``, except two steps that skip listing
them (the expensive part of a Remi take phase): ``draw`` when the stock is not empty and
``decline`` in the exchange, both always legal then, and ``take`` after the engine's own
``take_ok`` predicate. The tests replay rollouts with ``check=True``, which compares every
step with the full ``legal_actions()`` list.

>>> import random
>>> from rummy101.game import new_game
>>> s = new_game("classic", seed=3)
>>> play_round(s, random.Random(0), check=True) in ("finish", "exhausted")
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from .. import _backend
from ..errors import IllegalAction
from ..game.actions import Action
from ..game.engines.remi import meld_actions as _remi_meld_actions  # also declares Remi's verbs
from ..game.engines.remi.engine import take_ok as _take_ok
from ..game.phase import Phase
from ..solve import current_budget

if TYPE_CHECKING:
    from ..game.state import State

__all__ = ["FAST_VARIANTS", "ClassicRollout", "RemiRollout", "play_round", "policy_for"]

#: Variants with a fast rollout policy here.
FAST_VARIANTS = ("classic", "remi")
#: A round cut after this many steps is scored as it stands (the search counts it as 0).
MAX_STEPS = 5_000

J = 52
_CLASSIC_VALUE = tuple(min(c % 13 + 1, 10) for c in range(52))
_DRAW = Action("draw")
_TAKE = Action("take")
_DECLINE = Action("decline")


def _remi_value(code: int) -> int:
    """RO-12 end value (2-9: 5, 10-13: 10, 1: 25, Joly: 50)."""
    if code == J:
        return 50
    n = code % 13 + 1
    return 25 if n == 1 else (5 if n <= 9 else 10)


_REMI_VALUE = tuple(_remi_value(c) for c in range(53))


def _partial(hand: Sequence[int], c: int, wrap: bool) -> bool:
    """Is card/tile ``c`` in a partial meld of the hand: another of its rank in another suit
    (or a second copy), or one of its suit at most two ranks away?"""
    suit, rank = divmod(c, 13)
    if hand[c] >= 2:
        return True
    for k in range(4):
        if k != suit and hand[k * 13 + rank]:
            return True
    base = suit * 13
    for d in (-2, -1, 1, 2):
        r = rank + d
        if 0 <= r < 13:
            if hand[base + r]:
                return True
        elif wrap and r == 13 and hand[base]:      # 12-13-1 (RO-6 reading of the core)
            return True
    return False


def _makes_meld(hand: Sequence[int], c: int) -> bool:
    """Does ``c`` make a 3-piece run or set with two pieces of the hand (no jokers)?"""
    suit, rank = divmod(c, 13)
    if sum(1 for k in range(4) if k != suit and hand[k * 13 + rank]) >= 2:
        return True
    base = suit * 13

    def has(r: int) -> bool:
        return 0 <= r < 13 and hand[base + r] > 0

    return (has(rank - 2) and has(rank - 1)) or (has(rank - 1) and has(rank + 1)) or \
        (has(rank + 1) and has(rank + 2))


def _pick_discard(hand: Sequence[int], discards: list[Action], values: Sequence[int],
                  wrap: bool) -> Action:
    """The discard of the highest value not in a partial meld (else the highest); ties: the
    higher code. A joker (code 52) only when nothing else is left."""
    best, key = None, None
    for a in discards:
        c = int(a.tiles[0])
        k = (c != J, not _partial(hand, c, wrap) if c != J else False, values[c], c)
        if key is None or k > key:
            best, key = a, k
    assert best is not None
    return best


def _apply_known(s: State, a: Action) -> None:
    """Apply an action known to be legal without listing all of them (see the module docstring):
    the state's cached legal list is set to it, which the engine's check reads."""
    if s._legal is None:
        s._legal = [a]
    s.apply(a)


class ClassicRollout:
    """The fast classic policy (module docstring). ``act(s)`` returns a legal action of ``s``."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def act(self, s: State) -> Action:
        p = s.current
        hand = s.racks[p]
        x = s.x
        if s.phase is Phase.TAKE:
            if x.pile and _makes_meld(hand, x.pile[-1]):
                return _TAKE
            if s.stock:
                return _DRAW
            return s.legal_actions()[0]
        legal = s.legal_actions()
        discards = []
        for a in legal:
            v = a.verb
            if v == "run" or v == "set" or v == "add":
                return a
            if v == "discard":
                discards.append(a)
        if not discards:
            return legal[0]
        return _pick_discard(hand, discards, _CLASSIC_VALUE, False)


class RemiRollout:
    """The fast Remi policy (module docstring). Keeps a queue of staged steps per turn."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self._turn: tuple[int, int, int] = (-1, -1, -1)
        self._queue: list[Action] = []
        self._failed = False

    def _solve(self, s: State, valuation: str, counts: list[int], must: int, run: bool) -> tuple[int, list[Any]]:
        cr = _backend.core_rules(s.rules, valuation)  # type: ignore[arg-type]
        return cast("tuple[int, list[Any]]",
                    _backend.core().solve_melds(cr, counts, True, must, run, current_budget()))

    def _steps(self, melds: list[Any], base: int) -> list[Action] | None:
        out: list[Action] = []
        for k, (kind, tiles, _sf) in enumerate(melds):
            try:
                out += _remi_meld_actions("run" if kind == 1 else "set", tiles, base + k)
            except ValueError:
                return None
        return out

    def act(self, s: State) -> Action:
        p = s.current
        x = s.x
        rack = s.racks[p]
        turn = (s.round, s.turn, p)
        if turn != self._turn:
            self._turn, self._queue, self._failed = turn, [], False
        ph = s.phase
        if ph is Phase.EXCHANGE:
            return _DECLINE
        if ph is Phase.TAKE:
            if not x.tabla[p] and not self._failed and len(x.train) >= 2:
                t = x.train[-1]
                fits = _makes_meld(rack, t) if t != J else True
                if not fits and x.laid[p]:
                    fits = any(c == t for m in s.table for c, _ in m.adds)
                if fits and _take_ok(s, p):
                    return _TAKE
            if s.stock:
                return _DRAW
            return self._fallback(s.legal_actions())
        legal = s.legal_actions()
        while self._queue:
            a = self._queue.pop(0)
            if a in legal:
                return a
            self._queue = []
            self._failed = True
            if _RESET in legal:
                return _RESET
        if x.took == "start":
            return self._discard(rack, legal)
        if x.pending >= 0:
            for a in legal:
                if a.verb in ("run", "set"):
                    return a
            return self._fallback(legal)
        if x.tabla[p]:
            for a in legal:
                if a.verb == "close":
                    return a
            return self._discard(rack, legal)
        if not self._failed:
            if not x.laid[p]:
                if _OPEN in legal:
                    return _OPEN
                if x.staged_from < 0:
                    v, melds = self._solve(s, "open", list(rack), x.taken, True)
                    if v >= 45 and melds:
                        steps = self._steps(melds, len(s.table))
                        if steps:
                            self._queue = steps[1:] + [_OPEN]
                            if steps[0] in legal:
                                return steps[0]
                            self._queue = []
                            self._failed = True
            else:
                for a in legal:
                    if a.verb == "add":
                        return a
                if s.sizes[p] >= 4:
                    v, melds = self._solve(s, "penalty", list(rack), -1, False)
                    if v > 0 and melds:
                        steps = self._steps(melds, len(s.table))
                        if steps:
                            self._queue = steps[1:]
                            if steps[0] in legal:
                                return steps[0]
                            self._queue = []
                            self._failed = True
        return self._discard(rack, legal)

    def _discard(self, rack: Sequence[int], legal: list[Action]) -> Action:
        discards = [a for a in legal if a.verb == "discard"]
        if discards:
            return _pick_discard(rack, discards, _REMI_VALUE, True)
        return self._fallback(legal)

    def _fallback(self, legal: list[Action]) -> Action:
        """Nothing planned fits: undo the turn (and plan no more this turn), else the first
        action that is not a declaration."""
        if _RESET in legal:
            self._failed = True
            return _RESET
        for a in legal:
            if a.verb not in ("tabla", "atu", "break"):
                return a
        return legal[0]


_RESET = Action("reset")
_OPEN = Action("open")


def policy_for(variant: str, rng: random.Random) -> ClassicRollout | RemiRollout:
    """The fast policy of ``variant`` (one object plays every seat of a rollout)."""
    if variant == "classic":
        return ClassicRollout(rng)
    if variant == "remi":
        return RemiRollout(rng)
    raise ValueError(f"no fast rollout policy for {variant!r}; they exist for {', '.join(FAST_VARIANTS)}")


def play_round(s: State, rng: random.Random, *, check: bool = False, max_steps: int = MAX_STEPS) -> str:
    """Play the current round of ``s`` to its end with the fast policy for every seat; returns
    how it ended (the engine's ``end``), or ``"cut"`` after ``max_steps``. ``check=True`` checks
    every action against the full ``legal_actions()`` (for tests) and raises IllegalAction."""
    pol = policy_for(s.rules.variant, rng)
    r0 = s.round
    done = len(s.results)  # (a position sampled from an observation holds no earlier results)
    steps = 0
    while not s.is_terminal and s.round == r0:
        if steps >= max_steps:
            return "cut"
        a = pol.act(s)
        if check:
            legal = s.engine.legal_actions(s)
            if a not in legal:
                raise IllegalAction(f"rollout policy chose {a}, not among {[str(b) for b in legal]}")
            s.apply(a)
        else:
            _apply_known(s, a)
        steps += 1
    return str(s.results[done]["end"]) if len(s.results) > done else "over"

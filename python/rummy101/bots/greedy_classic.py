"""The ``greedy`` bot for classic card Rummy (RULES.md CR-1 .. CR-6): one-turn-greedy play on
the exact penalty solver.

:class:`rummy101.bots.greedy.GreedyBot` hands every classic decision to :class:`GreedyBot` here.
It reads only ``state.observation(seat)`` and the legal actions. Each turn:

* **take phase** (CR-3): it takes the top of the discard pile only when that card goes into a
  meld with cards of its hand (the exact solver finds a selection of runs/sets that must use it);
  otherwise it draws from the stock.
* **play phase**: it plans the whole turn once. For each card ``d`` it may discard (not the card
  just taken, CR-3) the exact penalty solver lays the runs/sets of the rest of the hand that
  leave the least deadwood (CR-2 card values); loose cards are then laid off onto table melds
  whenever it may (CR-3: once it has a meld of its own) — every lay-off cuts deadwood. The plan
  kept is the one that leaves the least deadwood in the hand after the discard (ties: discard
  the higher card, then the lower code). Before that it looks for a way out without a discard
  (CR-4, as far as ``go_out`` allows): the solver's melds of the whole hand plus lay-offs that
  empty it.
* The plan's actions are queued (melds are laid as three cards plus ``add``s, by the engine's
  :func:`~rummy101.game.engines.classic.meld_actions`); if a queued action is not legal (it
  never should be), the bot plans again from what it sees.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from ..game.engines.classic import meld_actions
from ..rules import Rules
from ..tiles import Card
from .base import Bot, check_act
from .strategy import Kit, kit_for

__all__ = ["GreedyBot"]

_CODE: dict[str, int] = {str(Card(c)): c for c in range(52)}
_VALUE = tuple(min(c % 13 + 1, 10) for c in range(52))
_RULES: dict[str, Rules] = {}
_KIND_NAMES = {1: "run", 2: "set"}


def _adds(kind: str, cards: Sequence[int]) -> list[tuple[int, int]]:
    """``(code, pos)`` cards that may be laid off on a table meld (CR-2, CR-3)."""
    if kind == "run":
        first, last = cards[0], cards[-1]
        out = []
        if first % 13 > 0:
            out.append((first - 1, 0))
        if last % 13 < 12:
            out.append((last + 1, 1))
        return out
    if len(cards) != 3:
        return []
    rank = cards[0] % 13
    return [(k * 13 + rank, -1) for k in range(4) if k * 13 + rank not in cards]


def _has_meld(counts: Sequence[int], card: int = -1) -> bool:
    """Does the hand hold a 3-card run or set (holding ``card`` unless it is -1)? When not, the
    solver's answer is known (no melds) and is not asked for."""
    m = [0, 0, 0, 0]
    for c in range(52):
        if counts[c]:
            m[c // 13] |= 1 << (c % 13)
    m0, m1, m2, m3 = m
    sets = (m0 & m1 & (m2 | m3)) | ((m0 | m1) & m2 & m3)
    if card < 0:
        return bool(sets or any(x & (x >> 1) & (x >> 2) for x in m))
    suit, rank = divmod(card, 13)
    if sets >> rank & 1:
        return True
    x = m[suit]
    starts = x & (x >> 1) & (x >> 2)          # bit i: cards i, i+1, i+2 of the suit held
    return bool(starts >> max(0, rank - 2) & (0b111 >> max(0, 2 - rank)))


class _Plan:
    __slots__ = ("actions", "deadwood", "discard")

    def __init__(self, actions: list[Any], deadwood: int, discard: int) -> None:
        self.actions = actions
        self.deadwood = deadwood
        self.discard = discard


class GreedyBot(Bot):
    """One-turn-greedy classic Rummy on the exact penalty solver (see the module docstring)."""

    name = "greedy"

    def __init__(self, rng: random.Random | None = None) -> None:
        super().__init__(rng)
        self._turn: tuple[int, int] = (-1, -1)
        self._queue: list[str] = []

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[Any]) -> Any:
        check_act(self, observation, legal_actions, reads_view=True)
        if len(legal_actions) == 1:
            return legal_actions[0]
        spec = observation["rules"]
        rules = _RULES.get(spec)
        if rules is None:
            rules = _RULES[spec] = Rules.parse(spec)
        kit = kit_for(rules)
        by_text = {str(a): a for a in legal_actions}
        if observation["phase"] == "take":
            top = observation["last_discard"]
            if "take" in by_text and top is not None and self._takes(kit, observation, _CODE[top]):
                return by_text["take"]
            return by_text.get("draw", legal_actions[0])
        turn = (observation["round"], observation["turn"])
        if turn != self._turn:
            self._turn = turn
            self._queue = self._plan(kit, rules, observation)
        while self._queue:
            text = self._queue.pop(0)
            a = by_text.get(text)
            if a is not None:
                return a
            break
        # the plan no longer fits what the engine allows: plan again from here
        self._queue = self._plan(kit, rules, observation)
        if self._queue and self._queue[0] in by_text:
            return by_text[self._queue.pop(0)]
        discards = [a for a in legal_actions if getattr(a, "verb", "") == "discard"]
        pool = discards or list(legal_actions)
        return max(pool, key=lambda a: (_VALUE[int(a.tiles[0])] if a.tiles else -1, -int(a.tiles[0])
                                        if a.tiles else 0))

    # ---- decisions ------------------------------------------------------------------------
    @staticmethod
    def _hand(observation: Mapping[str, Any]) -> list[int]:
        counts = [0] * 53
        for t in observation["rack"]:
            counts[_CODE[t]] += 1
        return counts

    def _takes(self, kit: Kit, observation: Mapping[str, Any], top: int) -> bool:
        """CR-3: take the pile card only when it goes into a meld with cards of the hand."""
        counts = self._hand(observation)
        if sum(counts) < 2:
            return False
        counts[top] += 1
        if not _has_meld(counts, top):
            return False
        value, melds = kit.solve(True, counts, False, top, False)
        return value > 0 and any(top in m[1] for m in melds)

    def _plan(self, kit: Kit, rules: Rules, observation: Mapping[str, Any]) -> list[str]:
        hand = self._hand(observation)
        seat = observation["seat"]
        melded = bool(observation["melded"][seat])
        taken = observation["turn_state"]["taken"]
        t = _CODE[taken] if taken is not None else -1
        table = [(m["kind"], [_CODE[c] for c in m["tiles"]]) for m in observation["table"]]
        size = sum(hand)
        # a way out without a discard (CR-4)
        narrow = rules.opts.go_out == "narrow"
        if not narrow or (observation["turn_state"]["start_size"] == 2 and size == 3):
            out = self._arrange(kit, hand, -1, table, melded, t, lay_offs=not narrow)
            if out is not None:
                return out.actions
        best: _Plan | None = None
        for d in range(52):
            if not hand[d] or d == t:
                continue
            plan = self._arrange(kit, hand, d, table, melded, t, lay_offs=True)
            if plan is None:
                continue
            if best is None or (plan.deadwood, -_VALUE[d], d) < (best.deadwood, -_VALUE[best.discard],
                                                                 best.discard):
                best = plan
        if best is None:
            return []
        return best.actions + [f"discard {Card(best.discard)}"]

    def _arrange(self, kit: Kit, hand: list[int], d: int, table: list[tuple[str, list[int]]],
                 melded: bool, taken: int, *, lay_offs: bool) -> _Plan | None:
        """Melds of ``hand`` less the discard ``d`` (-1: none) that leave the least deadwood
        (the exact penalty solver), then lay-offs of the loose cards; the actions and the
        deadwood left (without ``d``)."""
        counts = list(hand)
        if d >= 0:
            counts[d] -= 1
        if sum(counts) >= 3 and _has_meld(counts):
            value, melds = kit.solve(True, counts, False, -1, False)
        else:
            value, melds = 0, []
        actions: list[str] = []
        tab = [(k, list(c)) for k, c in table]
        loose = list(counts)
        for kind_code, cards, _ in (melds if value > 0 else []):
            kind = _KIND_NAMES[kind_code]
            cards = list(cards)
            actions += [str(a) for a in meld_actions(kind, cards, len(tab))]
            tab.append((kind, sorted(cards)))
            for c in cards:
                loose[c] -= 1
            melded = True
        if melded and lay_offs:
            changed = True
            while changed:
                changed = False
                for i, (kind, cards) in enumerate(tab):
                    for code, pos in _adds(kind, cards):
                        if loose[code]:
                            loose[code] -= 1
                            actions.append(f"add {Card(code)} to {i}" +
                                           ("" if pos < 0 else "@start" if pos == 0 else "@end"))
                            tab[i] = (kind, sorted(cards + [code]))
                            changed = True
                            break
                    if changed:
                        break
        dead = sum([_VALUE[c] for c in range(52) if loose[c]])
        if d < 0 and (dead or taken >= 0 and loose[taken]):
            return None
        return _Plan(actions, dead, d)

"""The ``greedy`` bot: one-turn-greedy Rummy 101 play on the exact core solvers.

It reads only ``state.observation(seat)`` and the legal actions. Each step it decides in this
order (rule IDs of RULES.md):

* **take phase** (R101-3): it takes the previous player's discard only when it pays (R101-4):
  before opening, when the tile makes an opening possible (or a runs/sets one instead of pairs)
  with the tile in it;
  after a runs/sets opening, when the tile fits a table meld or forms a new run/set with rack
  tiles; after a pairs opening, when it pairs with a rack tile or fits a table meld. It uses the
  joker button (R101-10) when it may and has not opened; otherwise it draws.
* **opening** (R101-7/8): as soon as the rack holds one, it stages the best opening found by the
  exact solver (the highest-value runs/sets keeping a tile to discard; five or more pairs only
  when runs/sets cannot open) and commits it with ``open``.
* **after opening**: it retrieves a joker (R101-9) when the rack's deadwood after laying the best
  melds drops; lays the runs/sets that leave the least penalty; lays pairs where allowed (R101-8);
  adds loose tiles to table melds (R101-11), highest first. It never gives away a joker.
* **discard**: a loose tile (outside the rack's best melds) that keeps the lowest penalty, avoiding
  tiles the next player could add to the table at once when that player has opened (see
  :func:`rummy101.bots.strategy.choose_discard`). A joker goes only as the last tile (a joker
  finish, R101-13).

A plan that spans several steps (stage a 3-tile window, grow it with ``add``, ``open``) is kept
in a queue for the turn; if the engine refuses a step (the action is not legal), the bot undoes
the turn with ``reset`` when it can and plays the turn without that plan.

Greedy plays the ``rummy101`` engine; for another variant it hands the decision to that
variant's greedy bot (module ``rummy101.bots.greedy_<variant>``), or to the random bot where the
variant has none.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Mapping, Sequence
from typing import Any

from ..game.actions import Action
from ..game.engines.rummy101 import meld_actions
from ..rules import Rules
from ..tiles import JOKER_CODE, NUM_CODES, Tile
from .base import Bot, check_act, register_bot
from .random_bot import RandomBot
from .strategy import (
    Kit,
    Plan,
    choose_discard,
    deadwood,
    feeding_tiles,
    kit_for,
    lay_plan,
    opening_plan,
)

__all__ = ["GreedyBot"]

J = JOKER_CODE
_CODE: dict[str, int] = {str(Tile(c)): c for c in range(NUM_CODES)}
_RULES: dict[str, Rules] = {}

Key = tuple[Any, ...]


_KEYS: dict[Any, Key] = {}


def _key(a: Any) -> Key:
    """A lookup key of an engine action: sets and pairs by their tile multiset (the engine writes
    them in a canonical order), everything else by its exact contents. Remembered per action
    (the engine reuses interned action objects)."""
    # An engine Action is looked up by its text (a str hashes in C; equal texts are equal
    # actions), anything else by itself.
    ref = a._text if type(a) is Action else a
    k = _KEYS.get(ref)
    if k is None:
        if len(_KEYS) > 100_000:
            _KEYS.clear()
        k = _KEYS[ref] = _make_key(a)
    return k


def _make_key(a: Any) -> Key:
    v = a.verb
    if v == "set" or v == "pair":
        return (v, tuple(sorted(int(t) for t in a.tiles)))
    if v == "run" or v == "discard":
        return (v, tuple(int(t) for t in a.tiles))
    if v == "add" or v == "retrieve":
        return (v, int(a.tiles[0]), a.meld, a.pos)
    return (v,)


def _meld_steps(kind: str, tiles: Sequence[int], index: int) -> list[Key]:
    """The actions that lay ``tiles`` (table order) as table meld ``index``, as lookup keys (the
    engine says how: :func:`rummy101.game.engines.rummy101.meld_actions`)."""
    return [_make_key(a) for a in meld_actions(kind, tiles, index)]


class GreedyBot(Bot):
    """One-turn-greedy Rummy 101 bot on the exact solvers (see the module docstring)."""

    name = "greedy"

    def __init__(self, rng: random.Random | None = None) -> None:
        super().__init__(rng)
        self._fallback = RandomBot(self.rng)
        self._turn: Key = ()
        self._queue: list[Key] = []
        self._no_take = False
        self._no_plan = False
        self._others: dict[str, Bot] = {}

    def _other(self, variant: str) -> Bot:
        """The greedy bot of another variant (``rummy101.bots.greedy_<variant>``), made once
        with this bot's ``rng``; the random bot where that variant has none."""
        bot = self._others.get(variant)
        if bot is None:
            try:
                mod = importlib.import_module(f"{__package__}.greedy_{variant}")
            except ModuleNotFoundError as exc:
                if exc.name != f"{__package__}.greedy_{variant}":
                    raise
                bot = self._fallback
            else:
                bot = mod.GreedyBot(self.rng)
            self._others[variant] = bot
        return bot

    # ---- entry point --------------------------------------------------------------------------
    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[Any]) -> Any:
        check_act(self, observation, legal_actions, reads_view=True)
        if len(legal_actions) == 1 and getattr(legal_actions[0], "verb", None) != "reset":
            return legal_actions[0]
        spec = observation["rules"]
        rules = _RULES.get(spec)
        if rules is None:
            rules = _RULES[spec] = Rules.parse(spec)
        if rules.variant != "rummy101":
            return self._other(rules.variant).act(observation, legal_actions)
        turn = (observation["round"], observation["turn"])
        if turn != self._turn:
            self._turn, self._queue, self._no_take, self._no_plan = turn, [], False, False
        try:
            legal = {_key(a): a for a in legal_actions}
        except AttributeError:
            return self._fallback.act(observation, legal_actions)
        kit = kit_for(rules)
        if observation["phase"] == "take":
            return self._take(kit, observation, legal, legal_actions)
        action = self._play(kit, observation, legal, legal_actions)
        if action.verb == "reset":
            self._no_take = True  # a reset returns a taken discard: do not take it again
        return action

    # ---- take phase ------------------------------------------------------------------------------
    def _take(self, kit: Kit, obs: Mapping[str, Any], legal: dict[Key, Any],
              legal_actions: Sequence[Any]) -> Any:
        me = obs["seat"]
        opened = obs["opened"][me]
        if ("take",) in legal and not self._no_take and obs["last_discard"] is not None:
            counts = _counts(obs["rack"])
            t = _CODE[obs["last_discard"]]
            if self._take_pays(kit, obs, counts, t, opened):
                return legal[("take",)]
        if ("button",) in legal and opened is None:
            return legal[("button",)]
        if ("draw",) in legal:
            return legal[("draw",)]
        return legal_actions[0]

    def _take_pays(self, kit: Kit, obs: Mapping[str, Any], counts: list[int], t: int,
                   opened: str | None) -> bool:
        thr = obs["thresholds"]
        if opened is None:
            now = opening_plan(kit, counts, thr["points"], thr["pairs"])
            if now is not None and now.kind == "melds":
                return False  # it opens already; the stock tile is a free extra chance
            with_t = counts[:]
            with_t[t] += 1
            plan = opening_plan(kit, with_t, thr["points"], thr["pairs"], t)
            # Worth it when it opens at all, or opens with runs/sets instead of pairs.
            return plan is not None and (now is None or plan.kind == "melds")
        if t == J:
            return False  # a joker must be laid at once (R101-4): it is worth more kept than fed
        if t in _table_additions(kit, obs):
            return True
        if opened == "pairs":
            return counts[t] >= 1
        with_t = counts[:]
        with_t[t] += 1
        return kit.value(True, with_t, True, t, False) > 0

    # ---- play phase ------------------------------------------------------------------------------
    def _play(self, kit: Kit, obs: Mapping[str, Any], legal: dict[Key, Any],
              legal_actions: Sequence[Any]) -> Any:
        while self._queue:
            step = self._queue.pop(0)
            if step in legal:
                return legal[step]
            # The engine refused a planned step: give the plan up for this turn.
            self._queue = []
            self._no_plan = True
            if ("reset",) in legal and obs["turn_state"]["staged"]:
                return legal[("reset",)]
        me = obs["seat"]
        opened = obs["opened"][me]
        ts = obs["turn_state"]
        must = _CODE[ts["must_use"]] if ts["must_use"] else -1
        counts = _counts(obs["rack"])
        if ts["staged"]:
            if ("open",) in legal and not self._no_plan:
                return legal[("open",)]
            return legal.get(("reset",), legal_actions[0])
        if opened is None:
            if not self._no_plan:
                thr = obs["thresholds"]
                plan = opening_plan(kit, counts, thr["points"], thr["pairs"], must)
                if plan is not None:
                    self._queue = _plan_steps(plan, len(obs["table"])) + [("open",)]
                    return self._play(kit, obs, legal, legal_actions)
            if must >= 0:
                return self._give_up(legal, legal_actions)
            return self._discard(kit, obs, counts, False, legal, legal_actions)
        # opened
        if must >= 0:
            step = self._use_taken(kit, obs, counts, must, opened, legal)
            if step is not None:
                return step
            return self._give_up(legal, legal_actions)
        if opened == "melds" and not self._no_plan:
            step = self._retrieval(kit, counts, legal)
            if step is not None:
                return step
            melds = lay_plan(kit, counts)
            if melds:
                self._queue = _melds_steps(melds, len(obs["table"]))
                return self._play(kit, obs, legal, legal_actions)
        step = self._pair(counts, opened, legal)
        if step is not None:
            return step
        step = self._addition(kit, legal)
        if step is not None:
            return step
        return self._discard(kit, obs, counts, True, legal, legal_actions)

    def _give_up(self, legal: dict[Key, Any], legal_actions: Sequence[Any]) -> Any:
        """Undo the turn (returning a taken discard) and play it without taking."""
        self._no_take = True
        self._queue = []
        if ("reset",) in legal:
            return legal[("reset",)]
        discards = [a for k, a in legal.items() if k[0] == "discard"]
        return discards[0] if discards else legal_actions[0]

    def _use_taken(self, kit: Kit, obs: Mapping[str, Any], counts: list[int], t: int,
                   opened: str, legal: dict[Key, Any]) -> Any:
        adds = [a for k, a in legal.items() if k[0] == "add" and k[1] == t]
        if adds:
            return adds[0]
        if opened == "pairs" or t == J:
            pairs = [a for k, a in legal.items() if k[0] == "pair" and t in k[1]]
            return pairs[0] if pairs else None
        melds = lay_plan(kit, counts, t)
        if not melds:
            return None
        self._queue = _melds_steps(melds, len(obs["table"]))
        step = self._queue.pop(0)
        return legal.get(step)

    def _retrieval(self, kit: Kit, counts: list[int], legal: dict[Key, Any]) -> Any:
        options = [(k, a) for k, a in legal.items() if k[0] == "retrieve"]
        if not options:
            return None
        before = deadwood(kit, counts)
        best, choice = before, None
        for k, a in options:
            code = k[1]
            after = counts[:]
            after[code] -= 1
            after[J] += 1
            d = deadwood(kit, after)
            if d < best:
                best, choice = d, a
        return choice

    def _pair(self, counts: list[int], opened: str, legal: dict[Key, Any]) -> Any:
        pairs = [(k, a) for k, a in legal.items() if k[0] == "pair"]
        if not pairs:
            return None
        same = [(k, a) for k, a in pairs if J not in k[1]]
        if same:
            return max(same, key=lambda ka: ka[0][1][0] % 13)[1]
        if opened == "pairs":
            return max(pairs, key=lambda ka: ka[0][1][0] % 13)[1]
        return None

    def _addition(self, kit: Kit, legal: dict[Key, Any]) -> Any:
        adds = [(k, a) for k, a in legal.items() if k[0] == "add" and k[1] != J]
        if not adds:
            return None
        values = kit.penalty_cr.set_value
        return max(adds, key=lambda ka: (values[ka[0][1] % 13 + 1], -ka[0][2]))[1]

    def _discard(self, kit: Kit, obs: Mapping[str, Any], counts: list[int], opened: bool,
                 legal: dict[Key, Any], legal_actions: Sequence[Any]) -> Any:
        nxt = (obs["seat"] + 1) % len(obs["opened"])
        next_opened = obs["opened"][nxt] is not None
        feeding = _table_additions(kit, obs) if next_opened else set()
        code = choose_discard(kit, counts, opened, feeding, next_opened)
        a = legal.get(("discard", (code,)))
        if a is not None:
            return a
        discards = [a for k, a in legal.items() if k[0] == "discard"]
        if discards:
            return discards[0]
        # No discard is legal (a staged opening or an unused taken tile): undo if possible.
        return legal.get(("reset",), legal_actions[0])


def _counts(rack: Sequence[str]) -> list[int]:
    counts = [0] * NUM_CODES
    for t in rack:
        counts[_CODE[t]] += 1
    return counts


def _table_additions(kit: Kit, obs: Mapping[str, Any]) -> set[int]:
    return feeding_tiles(kit, ((m["kind"], [_CODE[t] for t in m["tiles"]]) for m in obs["table"]))


def _plan_steps(plan: Plan, table_len: int) -> list[Key]:
    return _melds_steps(plan.melds, table_len)


def _melds_steps(melds: Sequence[tuple[str, Sequence[int]]], table_len: int) -> list[Key]:
    steps: list[Key] = []
    for i, (kind, tiles) in enumerate(melds):
        steps += _meld_steps(kind, tiles, table_len + i)
    return steps


register_bot(GreedyBot.name, GreedyBot)

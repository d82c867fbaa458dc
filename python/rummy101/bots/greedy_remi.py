"""The ``greedy`` bot for Romanian Rummy (Remi), one-turn greedy on the exact core.

``rummy101.bots.greedy`` hands Remi observations to :class:`GreedyBot` here. It reads only the
seat's observation and the legal actions. Each step it decides in this order (RULES.md IDs):

* **exchange** (RO-3): it announces / accepts with a double that is dead weight — taking both
  tiles out leaves the rack's best lay-down value (``solve_melds``, open values) unchanged — so
  a swap for any double of the same size cannot lower that value and may raise it; the lowest
  such double first; else it declines. (``exchange=False``: always decline, the old behaviour.)
* **take** (RO-4, RO-5, RO-9, RO-10): the Atu when it can see the finish (tabla close, or every
  tile but one in new runs/sets with the Atu: ``solve_melds`` on unit values); tabla
  (RO-11) when ``rummy101.tabla.tabla_distance`` says the 14 dealt tiles are close to a pattern
  (:data:`TABLA_DISTANCE`); breaking the train (RO-9.4) when the meld it lays plus the
  later discards leave less deadwood than the rack has now; the last discard when it lowers the
  deadwood (laid down), helps the lay-down (not laid down: the engine offers ``take`` only then),
  or closes the tabla; else ``draw``.
* **lay-down** (RO-8): the highest-value runs/sets with a run found by ``solve_melds`` (open
  values, the taken tile in them) when they reach 45: staged through
  :func:`rummy101.game.engines.remi.meld_actions`, then ``open``.
* **after the lay-down**: first retrieves a Joly (RO-9.5) when re-laying it at once leaves
  less deadwood than the rack has now (the put-in tile leaves the rack, the Joly's meld takes
  rack tiles — two for a 3-tile run/set, or four to six real tiles and the rack's other Joly for
  a bridged run only ``lay`` builds: ``retrieve=False`` never does, the old behaviour); then
  lays the runs/sets that leave the least penalty (RO-12 end values) and adds loose tiles to
  table melds, highest value first (RO-9.1/9.2).
* **discard**: the tile whose removal leaves the least deadwood (rack value minus the best
  melds, RO-12 values); a Joly only as the last tile (Joly finish, x2). A tabla player keeps the
  tiles nearest a pattern and closes as soon as it can, with the best-scoring discard.

A plan of several steps is queued for the turn; a step the engine refuses makes the bot
``reset`` (when it can) and finish the turn without plans.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from .. import _backend
from ..game.engines.remi import meld_actions
from ..game.engines.remi.engine import rack_closes
from ..game.engines.remi.rules_core import relay_melds, unit_rules
from ..game.engines.remi.table import end_value, lay_melds
from ..rules import Rules
from ..solve import current_budget
from ..tabla import tabla_distance
from ..tiles import JOKER_CODE, NUM_CODES, Tile
from .base import Bot, check_act

__all__ = ["TABLA_DISTANCE", "GreedyBot", "PlainGreedyBot"]

J = JOKER_CODE
_CODE: dict[str, int] = {str(Tile(c)): c for c in range(NUM_CODES)}
_KINDS = {1: "run", 2: "set"}
#: Declare tabla when a pattern is at most this many tiles away (RO-11, ``tabla_distance``).
TABLA_DISTANCE = 2


def _counts(tiles: Sequence[str]) -> list[int]:
    c = [0] * NUM_CODES
    for t in tiles:
        c[_CODE[t]] += 1
    return c


class GreedyBot(Bot):
    """One-turn-greedy Remi bot on the exact solvers (see the module docstring)."""

    name = "greedy"

    def __init__(self, rng: random.Random | None = None, *, exchange: bool = True,
                 retrieve: bool = True) -> None:
        super().__init__(rng)
        self.exchange = exchange
        self.retrieve = retrieve
        self._turn: tuple[Any, ...] = ()
        self._queue: list[Any] = []
        self._no_plan = False
        self._rules: dict[str, Rules] = {}
        self._memo: dict[tuple[Any, ...], tuple[int, list[Any]]] = {}
        self._values: dict[tuple[Any, ...], int] = {}

    # ---- the core, memoised -------------------------------------------------------------------
    def _solve(self, rules: Rules, valuation: str, counts: Sequence[int], keep: bool, must_use: int,
               run: bool) -> tuple[int, list[Any]]:
        key = (_backend.backend_name(), rules, valuation, bytes(counts), keep, must_use, run)
        got = self._memo.get(key)
        if got is None:
            cr = unit_rules(rules) if valuation == "unit" else _backend.core_rules(rules, valuation)  # type: ignore[arg-type]
            got = _backend.core().solve_melds(cr, list(counts), keep, must_use, run, current_budget())
            if len(self._memo) > 20_000:
                self._memo.clear()
            self._memo[key] = got
        return got

    def _value(self, rules: Rules, valuation: str, counts: Sequence[int], keep: bool, must_use: int,
               run: bool) -> int:
        """``_solve(...)[0]`` without the arrangement (``solve_melds_value``: no rebuild)."""
        key = (_backend.backend_name(), rules, valuation, bytes(counts), keep, must_use, run)
        got = self._memo.get(key)
        if got is not None:
            return int(got[0])
        v = self._values.get(key)
        if v is None:
            cr = unit_rules(rules) if valuation == "unit" else _backend.core_rules(rules, valuation)  # type: ignore[arg-type]
            v = int(_backend.core().solve_melds_value(cr, list(counts), keep, must_use, run, current_budget()))
            if len(self._values) > 20_000:
                self._values.clear()
            self._values[key] = v
        return v

    def _deadwood(self, rules: Rules, counts: Sequence[int]) -> int:
        """RO-12 value of the tiles left after laying the best runs/sets (none kept back)."""
        cr = _backend.core_rules(rules, "penalty")
        total = _backend.core().rack_value(cr, list(counts))
        return int(total - max(0, self._value(rules, "penalty", counts, False, -1, False)))

    # ---- entry point --------------------------------------------------------------------------
    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[Any]) -> Any:
        check_act(self, observation, legal_actions, reads_view=True)
        if len(legal_actions) == 1:
            return legal_actions[0]
        spec = observation["rules"]
        rules = self._rules.get(spec)
        if rules is None:
            rules = self._rules[spec] = Rules.parse(spec)
        by_text = {str(a): a for a in legal_actions}
        turn = (observation["round"], observation["turn"], observation["phase"] == "exchange")
        if turn != self._turn:
            self._turn, self._queue, self._no_plan = turn, [], False
        while self._queue:
            step = self._queue.pop(0)
            if step in by_text:
                return by_text[step]
            self._queue = []
            self._no_plan = True
            if "reset" in by_text:
                return by_text["reset"]
        phase = observation["phase"]
        if phase == "exchange":
            return by_text[self._exchange(rules, _counts(observation["rack"]), by_text)]
        seat = observation["seat"]
        rack = _counts(observation["rack"])
        if phase == "take":
            if self._no_plan and "draw" in by_text:   # a plan of this turn failed: just draw
                return by_text["draw"]
            return by_text[self._take(rules, observation, rack, by_text, seat)]
        choice = self._play(rules, observation, rack, by_text, seat)
        if choice == "reset":
            self._no_plan = True
        return by_text[choice]

    # ---- exchange of doubles (RO-3) ------------------------------------------------------------
    def _exchange(self, rules: Rules, rack: list[int], legal: Mapping[str, Any]) -> str:
        """Announce / accept with the lowest double whose two tiles add nothing to the rack's
        best lay-down (open values): any double of its size can then only help; else decline."""
        if not self.exchange:
            return "decline"
        now = self._value(rules, "open", rack, False, -1, False)
        for text in legal:
            if text == "decline":
                continue
            c = _CODE[text.split()[1]]
            rest = rack[:]
            rest[c] -= 2
            if self._value(rules, "open", rest, False, -1, False) >= now:
                return text
        return "decline"

    # ---- take phase ---------------------------------------------------------------------------
    def _take(self, rules: Rules, obs: Mapping[str, Any], rack: list[int], legal: Mapping[str, Any],
              seat: int) -> str:
        laid = obs["laid"][seat]
        tabla = obs["tabla"][seat]
        if "atu" in legal and self._atu_plan(rules, obs, rack, seat) is not None:
            return "atu"
        if "tabla" in legal and sum(rack) == 14:
            d = tabla_distance(rules, [Tile(c) for c in range(NUM_CODES) for _ in range(rack[c])])
            if min(d.simple, d.mozaic, d.bicolor, d.monocolor) <= TABLA_DISTANCE:
                return "tabla"
        last = obs["last_discard"]
        if tabla:
            if "take" in legal and last is not None:
                more = rack[:]
                more[_CODE[last]] += 1
                if rack_closes(rules, more):
                    return "take"
            return "draw" if "draw" in legal else next(iter(legal))
        if not laid:
            if "take" in legal:
                return "take"
            return "draw" if "draw" in legal else next(iter(legal))
        now = self._deadwood(rules, rack)
        best, choice = now, "draw" if "draw" in legal else next(iter(legal))
        train = obs["train"]
        for text in legal:
            if not text.startswith("break "):
                continue
            n = int(text.split()[1])
            after = self._after_break(rules, rack, _CODE[train[n]], [_CODE[t] for t in train[n + 1:]])
            if after is not None and after < best:
                best, choice = after, text
        if "take" in legal and last is not None:
            more = rack[:]
            more[_CODE[last]] += 1
            after = min(self._deadwood(rules, self._minus(more, d)) for d in range(NUM_CODES) if more[d])
            if after < best:
                best, choice = after, "take"
        return choice

    @staticmethod
    def _minus(counts: list[int], code: int) -> list[int]:
        c = counts[:]
        c[code] -= 1
        return c

    def _after_break(self, rules: Rules, rack: list[int], t: int, later: list[int]) -> int | None:
        """Deadwood after breaking the train at ``t`` (RO-9.4): the best 3-tile meld with it laid,
        the later discards on the rack, the best discard made; the meld's own tiles count as laid."""
        best: int | None = None
        for _verb, tiles in relay_melds(rules, rack, t):
            c = rack[:]
            used = list(tiles)
            used.remove(t)
            for u in used:
                c[u] -= 1
            for u in later:
                c[u] += 1
            dw = min(self._deadwood(rules, self._minus(c, d)) for d in range(NUM_CODES) if c[d])
            if best is None or dw < best:
                best = dw
        return best

    def _atu_plan(self, rules: Rules, obs: Mapping[str, Any], rack: list[int], seat: int) -> list[str] | None:
        """The finish after taking the Atu (RO-4) that the bot can see: a tabla close, or every
        tile but one in new melds holding the Atu. None when it sees none."""
        atu = _CODE[obs["atu"]]
        c = rack[:]
        c[atu] += 1
        if obs["tabla"][seat]:
            return [] if rack_closes(rules, c) else None
        n = sum(c)
        v, melds = self._solve(rules, "unit", c, True, atu, not obs["laid"][seat])
        if v != n - 1:
            return None
        return self._lay_steps(melds, len(obs["table"]))

    @staticmethod
    def _lay_steps(melds: list[Any], base: int) -> list[str] | None:
        steps: list[str] = []
        for k, (kind, tiles, _sf) in enumerate(melds):
            try:
                steps += [str(a) for a in meld_actions(_KINDS[kind], tiles, base + k)]
            except ValueError:
                return None
        return steps

    # ---- play phase ---------------------------------------------------------------------------
    def _play(self, rules: Rules, obs: Mapping[str, Any], rack: list[int], legal: Mapping[str, Any],
              seat: int) -> str:
        ts = obs["turn_state"]
        if ts["pending"] is not None:                     # RO-9.4/9.5: lay it at once
            best, choice = None, None
            for text in legal:
                if text.startswith(("run ", "set ", "lay ")):     # ('lay .. @I': where a
                    used = [_CODE[t] for t in text.split()[1:] if t[0] != "@"]  # Joly goes)
                    used.remove(_CODE[ts["pending"]])
                    c = rack[:]
                    for u in used:
                        c[u] -= 1
                    dw = self._deadwood(rules, c)
                    if best is None or dw < best:
                        best, choice = dw, text
            return choice if choice is not None else "reset"
        if obs["tabla"][seat]:
            return self._tabla_play(rules, rack, legal)
        laid = obs["laid"][seat]
        if ts["atu_turn"] and not self._no_plan and not self._queue:
            plan = self._finish_plan(rules, obs, rack, laid)
            if plan:
                self._queue = plan[1:]
                if plan[0] in legal:
                    return plan[0]
        if not laid and not self._no_plan:
            if "open" in legal:
                return "open"
            must = _CODE[ts["must_use"]] if ts["must_use"] else -1
            v, melds = self._solve(rules, "open", rack, True, must, True)
            if v >= 45 and not ts["staged"]:
                steps = self._lay_steps(melds, len(obs["table"]))
                if steps:
                    self._queue = steps[1:] + ["open"]
                    if steps[0] in legal:
                        return steps[0]
                    self._queue = []
        if laid and not self._no_plan and self.retrieve and not ts["atu_turn"]:
            got = self._retrieval(rules, rack, legal)
            if got is not None:
                return got
        if laid and not self._no_plan:
            v, melds = self._solve(rules, "penalty", rack, True, -1, False)
            if v > 0 and melds:
                steps = self._lay_steps(melds, len(obs["table"]))
                if steps and steps[0] in legal:
                    self._queue = steps[1:]
                    return steps[0]
            adds = [t for t in legal if t.startswith("add ")]
            if adds:
                keep = self._solve(rules, "penalty", rack, True, -1, False)[1]
                in_melds = [0] * NUM_CODES
                for _k, tiles, _sf in keep:
                    for t in tiles:
                        in_melds[t] += 1
                loose = [t for t in adds if rack[_CODE[t.split()[1]]] > in_melds[_CODE[t.split()[1]]]]
                if loose:
                    return max(loose, key=lambda t: end_value(_CODE[t.split()[1]]))
        return self._discard(rules, rack, legal)

    def _retrieval(self, rules: Rules, rack: list[int], legal: Mapping[str, Any]) -> str | None:
        """RO-9.5: the retrieval whose immediate re-lay leaves the least deadwood, when that is
        less than the deadwood now (the put-in tile counts as laid, the Joly's meld too)."""
        options = [t for t in legal if t.startswith("retrieve ")]
        if not options:
            return None
        best = self._deadwood(rules, rack)
        choice = None
        for text in options:
            c = self._minus(rack, _CODE[text.split()[-1]])
            for used in self._relay_uses(rules, c):
                after = c[:]
                for u in used:
                    after[u] -= 1
                if sum(after) < 1:
                    continue
                dw = self._deadwood(rules, after)
                if dw < best:
                    best, choice = dw, text
        return choice

    @staticmethod
    def _relay_uses(rules: Rules, c: list[int]) -> list[list[int]]:
        """The rack tiles each re-lay of a retrieved Joly takes (RO-9.5): two for a 3-tile run/set,
        or the real tiles and the rack's other Joly of a bridged run only ``lay`` builds
        (``R3 * R5 R6 * R8``), which can leave less deadwood than any 3-tile re-lay."""
        out = []
        for _v, tiles in relay_melds(rules, c, J):
            used = list(tiles)
            used.remove(J)
            out.append(used)
        if c[J] and sum(c) >= 6:                       # 4+ real tiles, a Joly, one to discard
            for _t, needs in lay_melds(rules):
                reals = needs[:-2]                     # sorted: the two Jolys last
                if all(c[x] >= reals.count(x) for x in reals):
                    out.append(list(reals) + [J])
        return out

    def _finish_plan(self, rules: Rules, obs: Mapping[str, Any], rack: list[int], laid: bool) -> list[str] | None:
        atu = _CODE[obs["atu"]]
        n = sum(rack)
        v, melds = self._solve(rules, "unit", rack, True, atu, not laid)
        if v != n - 1:
            return None
        steps = self._lay_steps(melds, len(obs["table"]))
        if steps is None:
            return None
        return steps + ([] if laid else ["open"])

    def _tabla_play(self, rules: Rules, rack: list[int], legal: Mapping[str, Any]) -> str:
        if "close" in legal:
            return "close"
        ends = [t for t in legal if t.startswith("discard ")]
        cl = {d: sc for d, _p, sc in rack_closes(rules, rack)}
        if cl:
            scored = [t for t in ends if _CODE[t.split()[1]] in cl]
            if scored:
                return max(scored, key=lambda t: cl[_CODE[t.split()[1]]])
        if not ends:
            return "reset" if "reset" in legal else next(iter(legal))
        best, choice = None, ends[0]
        for t in ends:
            code = _CODE[t.split()[1]]
            if code == J:
                continue
            c = self._minus(rack, code)
            if sum(c) != 14:
                return self._discard(rules, rack, legal)
            d = tabla_distance(rules, [Tile(x) for x in range(NUM_CODES) for _ in range(c[x])])
            key = (min(d.simple, d.mozaic, d.bicolor, d.monocolor), d.simple)
            if best is None or key < best:
                best, choice = key, t
        return choice

    def _discard(self, rules: Rules, rack: list[int], legal: Mapping[str, Any]) -> str:
        ends = [t for t in legal if t.startswith("discard ")]
        if not ends:
            return "reset" if "reset" in legal else next(iter(legal))
        if len(ends) == 1:
            return ends[0]
        best, choice = None, ends[0]
        for t in ends:
            code = _CODE[t.split()[1]]
            if code == J and sum(rack) > 1:
                continue
            dw = self._deadwood(rules, self._minus(rack, code))
            if best is None or dw < best:
                best, choice = dw, t
        return choice


class PlainGreedyBot(GreedyBot):
    """The greedy bot without the doubles exchange and Joly retrieval (its behaviour before issue
    9's item 4), for head-to-head measurements:
    ``--bots rummy101.bots.greedy_remi:PlainGreedyBot,...`` (Remi only)."""

    name = "greedy-plain"

    def __init__(self, rng: random.Random | None = None) -> None:
        super().__init__(rng, exchange=False, retrieve=False)

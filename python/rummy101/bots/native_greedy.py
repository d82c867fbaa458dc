"""Native greedy rounds (issue 12): a Rummy 101 round with the ``greedy`` bot in every seat,
played in the C++ core and checked record for record against the Python flow.

It lives in the bots layer because it mirrors :class:`~rummy101.bots.greedy.GreedyBot` and the
search bot's rollouts use it (:mod:`rummy101.bots.search`); ``rummy101.sim.native_round`` is a
re-export of it.

The Python flow stays the reference: :class:`rummy101.bots.greedy.GreedyBot` deciding with
:mod:`rummy101.bots.strategy` on :mod:`rummy101.game.engines.rummy101.engine`. The core's
``play_greedy_round`` (cpp/src/round101.cpp) mirrors both step for step (the engine's legal
actions in its order, the R101-4 take check, the bot's tie-breaks) and asks its own solvers the
questions the Python ``Kit`` asks, so it plays the same actions. ``tests/test_native_round.py``
compares every action, score and end position on random games of every option set and from
mid-round positions.

* :func:`play_round` plays from a State at a turn boundary (:func:`at_turn_boundary`) to the
  round's end, without touching the State, as if fresh greedy bots sat in every seat.
* :func:`finish_round` moves the State to where the Python flow leaves it after that round
  (the same position, history and results; the next round dealt in a match).
* :func:`replay_round` applies the round's actions through ``State.apply`` instead (each one
  checked by the Python engine again).

:func:`rummy101.sim.play_game` uses them when :func:`fast_path_applies` (every seat the
registered ``greedy`` bot given by name, the rummy101 variant with any of its options --
players 2-4, threshold fixed/increasing, button_jokers --, the native backend, and
``RUMMY101_NATIVE_ROUNDS`` not ``0``); the ``search`` bot plays the rest of a greedy rollout
with :func:`play_round` from the first turn boundary (same switch, :func:`native_available`).

>>> from rummy101.game import new_game
>>> s = new_game("rummy101", 5)
>>> at_turn_boundary(s)          # the starter's first play phase (R101-2)
True
>>> s.apply(s.legal_actions()[0]); at_turn_boundary(s)
False
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .. import _backend
from ..game.actions import Action
from ..game.phase import Phase
from ..game.table import TableMeld
from ..rules import Rules

__all__ = ["ENV_VAR", "NativeRound", "at_turn_boundary", "fast_path_applies", "finish_round",
           "native_available", "play_round", "registered_greedy", "replay_round", "score_round"]

#: Set to ``0`` to play every round on the Python flow (docs/simulation.md).
ENV_VAR = "RUMMY101_NATIVE_ROUNDS"

_VERBS = ("draw", "take", "button", "run", "set", "pair", "add", "retrieve", "open", "reset",
          "discard")
_TOOK = ("", "start", "draw", "take", "button")
_ACTIONS: dict[int, Action] = {}


def native_available() -> bool:
    """Is the native greedy round usable here: the native backend live, a core that has
    ``play_greedy_round``, and ``RUMMY101_NATIVE_ROUNDS`` not ``0``?"""
    if os.environ.get(ENV_VAR, "").strip() == "0":
        return False
    if _backend.backend_name() != "native":
        return False
    return hasattr(_backend.core(), "play_greedy_round")


def fast_path_applies(rules: Rules, bots: Sequence[Any], players: Sequence[Any]) -> bool:
    """Does :func:`rummy101.sim.play_game` play this game's rounds natively? Only when every
    seat is the registered ``greedy`` bot given by its name (``players`` are the bot objects
    made from ``bots``), the variant is ``rummy101`` (all its options) and
    :func:`native_available`."""
    if rules.variant != "rummy101" or not bots:
        return False
    from .greedy import GreedyBot
    if not all(isinstance(b, str) for b in bots) or not all(type(p) is GreedyBot for p in players):
        return False
    return native_available()


def registered_greedy(bots: Sequence[Any]) -> bool:
    """Is every seat a bot name without options that the registry maps to
    :class:`~rummy101.bots.greedy.GreedyBot` itself (so :func:`~rummy101.bots.get_bot` would
    make a ``GreedyBot`` of it)? A cheap sufficient test for :func:`fast_path_applies`'s bot
    condition, with no bot made; False says nothing (other names may still make greedy bots)."""
    from .base import _REGISTRY
    from .greedy import GreedyBot
    if not bots:
        return False
    for b in bots:
        if not isinstance(b, str) or ":" in b or _REGISTRY.get(b.strip().lower()) is not GreedyBot:
            return False
    return True


def at_turn_boundary(s: Any) -> bool:
    """Is ``s`` (a rummy101 State) at the start of a seat's turn: its take phase, or the
    starter's first play phase (R101-2), with nothing staged, taken or played this turn?"""
    if s.rules.variant != "rummy101" or s.phase is Phase.OVER:
        return False
    x = s.x
    if x.snap is not None or x.staged_from >= 0 or x.taken >= 0:
        return False
    return (s.phase is Phase.TAKE and x.took == "") or (s.phase is Phase.PLAY and x.took == "start")


def _decode(code: int) -> Action:
    a = _ACTIONS.get(code)
    if a is None:
        verb = _VERBS[code & 15]
        tiles = tuple(t for t in ((code >> (4 + 6 * i)) & 63 for i in range(3)) if t != 63)
        meld = (code >> 22) & 1023
        a = Action(verb, tiles, -1 if meld == 1023 else meld, ((code >> 32) & 15) - 1)
        if len(_ACTIONS) > 100_000:
            _ACTIONS.clear()
        _ACTIONS[code] = a
    return a


@dataclass(frozen=True)
class NativeRound:
    """A round played natively: its actions (encoded), the seat of each turn, how it ended and
    the position after its last discard (``end``, the core's tuple)."""

    codes: tuple[int, ...]
    turn_seats: tuple[int, ...]
    winner: int            # -1: the stock ran out (R101-13)
    joker_finish: bool
    end: tuple[Any, ...]

    @property
    def steps(self) -> int:
        return len(self.codes)

    def actions(self) -> list[Action]:
        """The actions as engine :class:`~rummy101.game.actions.Action` objects."""
        acts = _ACTIONS
        try:
            return [acts[c] for c in self.codes]
        except KeyError:  # decode the codes not cached yet, then the fast lookup again
            for c in set(self.codes).difference(acts):
                _decode(c)
            try:
                return [acts[c] for c in self.codes]
            except KeyError:  # the cache was cleared while filling it
                return [_decode(c) for c in self.codes]


# the Rules of the last play_round (held, so an identity test is safe) and its core rules
_last_rules: list[Any] = [None, None]


def play_round(s: Any, max_steps: int = 100_000) -> NativeRound:
    """Play the round of ``s`` natively from its turn boundary to the end, greedy in every seat
    (fresh bots: no plan carried into the current turn), on the native core whatever the live
    backend. ``s`` is not changed. Raises
    ``ValueError`` when ``s`` is not a rummy101 State at a turn boundary, and whatever the core
    raises (``WorkBudgetExceeded`` from a solver, ``RuntimeError`` past ``max_steps``)."""
    if not at_turn_boundary(s):
        raise ValueError("play_round needs a rummy101 State at a turn boundary (the start of a "
                         "seat's turn, nothing staged or taken)")
    core = _backend._load("native")  # BackendError naming the fix when it is not built
    x = s.x
    rules = s.rules
    if rules is _last_rules[0]:  # the same rules as the last round: its core rules
        open_cr, penalty_cr, increasing = _last_rules[1]
    else:
        open_cr = _backend.core_rules(rules, "open", "native")
        penalty_cr = _backend.core_rules(rules, "penalty", "native")
        increasing = rules.opts.threshold == "increasing"
        _last_rules[:] = [rules, (open_cr, penalty_cr, increasing)]
    table = [(m.kind, m.owner, list(m.tiles)) for m in s.table] if s.table else []
    got = core.play_greedy_round(
        open_cr, penalty_cr, s.n, increasing, s.turn, s.current, s.phase is Phase.TAKE,
        s.racks, s.stock, table, x.opened, x.opened_turn, x.thr_melds, x.thr_pairs,
        x.last_discard, x.discards, x.button_left, [int(b) for b in x.button_used],
        x.button_issued, max_steps)
    codes, seats, winner, joker, end = got
    return NativeRound(tuple(codes), tuple(seats), winner, bool(joker), end)


def finish_round(s: Any, nr: NativeRound, history: bool = True) -> None:
    """Move ``s`` (the State :func:`play_round` started from) to where the Python flow leaves it
    after the round: the end position, the actions in its history, the round scored by the
    engine (R101-13) and, in a match, the next round dealt. ``history=False`` leaves the
    round's actions out of ``s.history`` (nothing else reads them: the engine plays and scores
    without it; :func:`rummy101.sim.play_game` does so for a summary record, whose State is
    thrown away)."""
    engine = _engine()
    (turn, current, racks, stock_len, table, opened, opened_turn, thr_melds, thr_pairs,
     last_discard, discards, button_left, button_used, button_issued, log, took, taken,
     taken_base, turn_table_start) = nr.end
    x = s.x
    s.turn = turn
    s.current = current
    s.racks = racks
    s.sizes = [sum(r) for r in racks]
    del s.stock[stock_len:]
    build = TableMeld.build
    s.table = [build(kind, owner, tiles) for kind, owner, tiles in table]
    s.phase = Phase.PLAY
    x.opened = opened
    x.opened_turn = opened_turn
    x.thr_melds = thr_melds
    x.thr_pairs = thr_pairs
    x.last_discard = last_discard
    x.discards = discards
    x.button_left = button_left
    x.button_used = [bool(b) for b in button_used]
    x.button_issued = button_issued
    x.taken_log.extend(log)
    x.took = _TOOK[took]
    x.taken = taken
    x.taken_base = taken_base
    x.turn_table_start = turn_table_start
    x.staged_from = -1
    x.staged_kind = 0
    x.snap = None
    if history:
        s.history.extend(nr.actions())
    s.invalidate_legal()
    engine._end_round(s, winner=nr.winner, joker=nr.joker_finish)


def score_round(s: Any, nr: NativeRound) -> list[int]:
    """The round's score deltas (R101-13), scored by the engine as the round's last action
    scores them: ``s`` (the State :func:`play_round` started from, a throwaway copy such as a
    search rollout's) takes the end position's turn, racks and openings -- what the engine's
    scoring reads -- and the engine ends the round on it (its result appended, the next round
    dealt in a match). The rest of ``s`` (table, stock, history) is left behind: use
    :func:`finish_round` for a State that goes on."""
    engine = _engine()
    end = nr.end
    s.turn = end[0]
    s.racks = end[2]
    s.sizes = [sum(r) for r in s.racks]
    s.x.opened = end[5]
    s.x.opened_turn = end[6]
    engine._end_round(s, winner=nr.winner, joker=nr.joker_finish)
    deltas: list[int] = s.scores[-1]
    return deltas


_ENGINE: Any = None


def _engine() -> Any:
    """The Rummy 101 engine module (imported on first use)."""
    global _ENGINE
    if _ENGINE is None:
        from ..game.engines.rummy101 import engine
        _ENGINE = engine
    return _ENGINE


def replay_round(s: Any, nr: NativeRound) -> None:
    """Apply the round's actions to ``s`` through ``State.apply`` (the Python engine checks
    each one again)."""
    apply = s.apply
    for a in nr.actions():
        apply(a)

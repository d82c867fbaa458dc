"""The game state: one generic surface for every engine (docs/DESIGN.md, "Game surface").

:class:`State` holds the data of a round in progress (count-vector racks, stock, discard piles,
table melds, who opened and how, thresholds, joker-button accounts, the turn being built) and the
results of finished rounds. What a variant *does* lives in a small engine module picked from the
rules (``rummy101_engine`` for ``rummy101``); there is no subclass per variant.

>>> from rummy101.game import new_game
>>> s = new_game("rummy101", seed=1)
>>> s.phase, s.current_player, len(s.legal_actions()) > 0
(<Phase.PLAY: 'play'>, 0, True)
>>> t = s.copy(); t == s
True
"""

from __future__ import annotations

from typing import Any

from ..errors import IllegalAction, RulesError
from ..rules import Rules
from ..tiles import Tile
from .actions import Action
from .phase import Phase
from .table import TableMeld

__all__ = ["Phase", "State", "new_game"]


def _engine_for(rules: Rules) -> Any:
    if rules.variant == "rummy101":
        from . import rummy101_engine
        return rummy101_engine
    raise RulesError(f"the game engine does not play {rules.variant!r} yet; playable variants: rummy101")


class State:
    """A game (a match of ``match_rounds`` rounds) in progress. Build one with :func:`new_game`.

    Surface: :attr:`phase`, :attr:`current_player`, :meth:`legal_actions`, :meth:`apply`,
    :attr:`is_terminal`, :meth:`round_scores`, :meth:`standings`, :meth:`copy`, ``==``,
    :meth:`observation`. Everything else is internal and may change.
    """

    __slots__ = (
        "_legal",
        "button_issued",
        "button_left",
        "button_used",
        "current",
        "discards",
        "engine",
        "history",
        "last_discard",
        "match_rounds",
        "n",
        "opened",
        "opened_turn",
        "phase",
        "racks",
        "results",
        "round",
        "rules",
        "scores",
        "seed",
        "sizes",
        "snap",
        "staged_from",
        "staged_kind",
        "starter",
        "stock",
        "table",
        "taken",
        "taken_base",
        "thr_melds",
        "thr_pairs",
        "took",
        "totals",
        "turn",
        "turn_table_start",
    )

    rules: Rules
    seed: int
    match_rounds: int
    round: int
    n: int
    engine: Any
    phase: Phase
    current: int
    starter: int
    turn: int
    racks: list[list[int]]
    sizes: list[int]
    stock: list[int]
    discards: list[list[int]]
    last_discard: int
    table: list[TableMeld]
    opened: list[int]
    opened_turn: list[int]
    thr_melds: int
    thr_pairs: int
    button_left: list[int]
    button_used: list[bool]
    button_issued: int
    took: str
    taken: int
    taken_base: int
    staged_from: int
    staged_kind: int
    turn_table_start: int
    snap: Any
    scores: list[list[int]]
    totals: list[int]
    results: list[dict[str, Any]]
    history: list[Action]
    _legal: list[Action] | None

    # ---- the surface --------------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        """The seat to act (0-based); after the end of the match, the seat that acted last."""
        return self.current

    @property
    def is_terminal(self) -> bool:
        """True once every round of the match has been played."""
        return self.phase is Phase.OVER

    def legal_actions(self) -> list[Action]:
        """Every action the current player may take now (empty when terminal): exactly the
        actions :meth:`apply` accepts, one per move (a non-canonical form of a move is refused
        naming the canonical one; docs/DESIGN.md, "Game surface"). The list is bounded (a turn
        is built step by step) and complete (every legal turn is a sequence of these); see the
        engine module of the variant for how."""
        if self._legal is None:
            self._legal = self.engine.legal_actions(self)
        return list(self._legal)

    def apply(self, action: Action | str) -> None:
        """Apply one action (an :class:`Action` or its text). An illegal action raises
        :class:`~rummy101.errors.IllegalAction` naming the rule it breaks and leaves the state
        unchanged."""
        if not isinstance(action, Action):
            action = Action.parse(action)
        if self.phase is Phase.OVER:
            raise IllegalAction(f"{action}: the match is over (all {self.match_rounds} round(s) played)")
        self.engine.apply(self, action)
        self._legal = None
        self.history.append(action)

    def round_scores(self) -> list[list[int]]:
        """Per-round score deltas of the finished rounds (R101-13), one list per round, by seat."""
        return [list(r) for r in self.scores]

    def standings(self) -> list[int]:
        """Cumulative totals by seat over the finished rounds (R101-13: higher is better)."""
        return list(self.totals)

    def round_results(self) -> list[dict[str, Any]]:
        """Details of each finished round: how it ended, winner, finish kind, penalties, deltas."""
        return [dict(r) for r in self.results]

    def copy(self) -> State:
        """An independent copy (cheap: count vectors and lists are copied, table melds are
        immutable and shared)."""
        c = object.__new__(State)
        c.rules = self.rules
        c.seed = self.seed
        c.match_rounds = self.match_rounds
        c.round = self.round
        c.n = self.n
        c.engine = self.engine
        c.phase = self.phase
        c.current = self.current
        c.starter = self.starter
        c.turn = self.turn
        c.racks = [r[:] for r in self.racks]
        c.sizes = self.sizes[:]
        c.stock = self.stock[:]
        c.discards = [d[:] for d in self.discards]
        c.last_discard = self.last_discard
        c.table = self.table[:]
        c.opened = self.opened[:]
        c.opened_turn = self.opened_turn[:]
        c.thr_melds = self.thr_melds
        c.thr_pairs = self.thr_pairs
        c.button_left = self.button_left[:]
        c.button_used = self.button_used[:]
        c.button_issued = self.button_issued
        c.took = self.took
        c.taken = self.taken
        c.taken_base = self.taken_base
        c.staged_from = self.staged_from
        c.staged_kind = self.staged_kind
        c.turn_table_start = self.turn_table_start
        c.snap = self.snap  # snapshots are never mutated, only replaced
        c.scores = [r[:] for r in self.scores]
        c.totals = self.totals[:]
        c.results = [dict(r) for r in self.results]
        c.history = self.history[:]
        c._legal = self._legal
        return c

    _EQ_FIELDS = ("rules", "seed", "match_rounds", "round", "phase", "current", "starter", "turn",
                  "racks", "stock", "discards", "last_discard", "table", "opened", "opened_turn",
                  "thr_melds", "thr_pairs", "button_left", "button_used", "button_issued", "took",
                  "taken", "taken_base", "staged_from", "staged_kind", "turn_table_start", "snap",
                  "scores", "totals", "results")

    def __eq__(self, other: object) -> bool:
        """Equal game positions (the action history is not compared: two ways to reach the same
        position are equal)."""
        if not isinstance(other, State):
            return NotImplemented
        return all(getattr(self, f) == getattr(other, f) for f in self._EQ_FIELDS)

    __hash__ = None  # type: ignore[assignment]

    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see, as a JSON-able dict: its own rack, the table with owners, the
        discard piles, the other racks' sizes, the stock size, who opened and how, the current
        thresholds and joker-button availability. Hidden: other racks and the stock order."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.n:
            raise IllegalAction(f"seat {seat!r} does not exist: seats are 0..{self.n - 1}")
        obs: dict[str, Any] = self.engine.observation(self, seat)
        return obs

    def __repr__(self) -> str:
        return (f"<State {self.rules} seed={self.seed} round={self.round + 1}/{self.match_rounds} "
                f"phase={self.phase.value} player={self.current} turn={self.turn} "
                f"stock={len(self.stock)}>")

    def rack(self, seat: int) -> list[Tile]:
        """The tiles of a seat's rack, sorted (full information: for tests and tools, not bots)."""
        r = self.racks[seat]
        return [Tile(c) for c in range(53) for _ in range(r[c])]


def new_game(rules: str | Rules, seed: int, *, match_rounds: int = 1) -> State:
    """Start a match: deal the first round (R101-2) as a pure function of (rules, seed).

    >>> s = new_game("rummy101(players=2)", 3, match_rounds=2)
    >>> s.current_player, s.sizes, len(s.stock)
    (0, [22, 21], 63)
    """
    r = Rules.parse(rules)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise RulesError(f"seed must be a whole number, got {type(seed).__name__} {seed!r}")
    if isinstance(match_rounds, bool) or not isinstance(match_rounds, int) or not 1 <= match_rounds <= 10_000:
        raise RulesError(f"match_rounds must be a whole number from 1 to 10000, got {match_rounds!r}")
    eng = _engine_for(r)
    s = object.__new__(State)
    s.rules = r
    s.seed = seed
    s.match_rounds = match_rounds
    s.n = r.players
    s.engine = eng
    s.scores = []
    s.totals = [0] * r.players
    s.results = []
    s.history = []
    s.button_left = [r.button_jokers] * r.players
    s.button_issued = 0
    eng.start_round(s, 0)
    return s

"""The game state: one generic surface for every engine (docs/DESIGN.md, "Engines" and "Game
surface").

:class:`State` holds what every variant has (racks as count vectors, stock, table melds, whose
turn, per-round scores and results, the action history) and ``x``, the variant's own record
(Rummy 101: discard piles, openings, thresholds, joker button, the turn being built). What a
variant *does* lives in its engine package, found from the rules
(:func:`rummy101.game.engine.engine_for`); there is no subclass per variant.

>>> from rummy101.game import new_game
>>> s = new_game("rummy101", seed=1)
>>> s.phase, s.current_player, len(s.legal_actions()) > 0
(<Phase.PLAY: 'play'>, 0, True)
>>> t = s.copy(); t == s
True
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain, compress
from operator import mul
from typing import Any, TypeVar

from .._validate import whole_number
from ..errors import IllegalAction, NotationError, RulesError
from ..rules import Rules
from ..tiles import MELD_KINDS, Card, Tile
from .actions import Action, with_games_verbs
from .engine import Engine, engine_for
from .phase import Phase

__all__ = ["MAX_MATCH_ROUNDS", "Phase", "State", "held", "new_game", "observation_head"]

#: The most rounds in one match (``new_game``; the service's records and the CLI's --rounds too).
MAX_MATCH_ROUNDS = 10_000

_PHASE_VALUES = {ph: ph.value for ph in Phase}
_T = TypeVar("_T")
_TEXTS = {"tiles": tuple(str(Tile(c)) for c in range(53)),
          "cards": tuple(str(Card(c)) for c in range(52)) + ("?",)}


class State:
    """A game (a match of rounds) in progress. Build one with :func:`new_game`.

    Surface: :attr:`phase`, :attr:`current_player`, :meth:`legal_actions`, :meth:`apply`,
    :attr:`is_terminal`, :meth:`round_scores`, :meth:`standings`, :meth:`copy`, ``==``,
    :meth:`observation`. The fields below are shared by every variant; ``x`` is the variant's
    own record, written by its engine. Everything else is internal and may change.
    """

    __slots__ = ("_legal", "current", "engine", "history", "match_rounds", "n", "phase", "racks",
                 "results", "round", "rules", "scores", "seed", "sizes", "starter", "stock",
                 "table", "totals", "turn", "x")

    rules: Rules
    seed: int
    match_rounds: int           # rounds of the match (a cap where the match ends at a target)
    round: int                  # the round being played, 0-based
    n: int                      # players
    engine: Engine
    phase: Phase
    current: int                # the seat to act
    starter: int                # the seat that started the round
    turn: int                   # turns completed this round
    racks: list[list[int]]      # per seat: count vector over the 53 piece codes
    sizes: list[int]            # per seat: pieces on the rack
    stock: list[int]            # piece codes; the top is the last element
    table: list[Any]            # the variant's table melds (immutable records), in order laid
    scores: list[list[int]]     # per finished round: score deltas by seat
    totals: list[int]           # standings by seat
    results: list[dict[str, Any]]
    history: list[Action]
    x: Any                      # the variant's record: engine-owned, with copy() and ==
    _legal: list[Action] | None

    # ---- the surface --------------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        """The seat to act (0-based); after the end of the match, the seat that acted last."""
        return self.current

    @property
    def is_terminal(self) -> bool:
        """True once the match is over."""
        return self.phase is Phase.OVER

    def legal_actions(self) -> list[Action]:
        """Every action the current player may take now (empty when terminal): exactly the
        actions :meth:`apply` accepts, one per move (a non-canonical form of a move is refused
        naming the canonical one; docs/DESIGN.md, "Game surface"). The list is bounded (a turn
        is built step by step) and complete (every legal turn is a sequence of these); see the
        engine package of the variant for how."""
        legal = self._legal  # cached_legal(), inlined: this runs every step of every game
        if legal is None:
            legal = self._legal = self.engine.legal_actions(self)
        return legal[:]

    def cached_legal(self) -> list[Action]:
        """The engine's legal actions of this position, computed once and cached until the
        position changes (:meth:`apply` and :meth:`invalidate_legal` drop the cache). The list
        is shared, not a copy: engines read it (e.g. to check an action in ``apply``) and must
        not change it; callers that keep or edit it use :meth:`legal_actions`."""
        if self._legal is None:
            self._legal = self.engine.legal_actions(self)
        return self._legal

    def invalidate_legal(self) -> None:
        """Drop the cached legal actions; call it after changing the state by any path other
        than :meth:`apply` (engines moving to a new round, tests editing racks, ...)."""
        self._legal = None

    def apply(self, action: Action | str) -> None:
        """Apply one action (an :class:`Action` or its text, read under this game's rules: tiles
        or cards). An illegal action raises :class:`~rummy101.errors.IllegalAction` naming the
        rule it breaks and leaves the state unchanged."""
        if not isinstance(action, Action):
            try:
                action = Action.parse(action, self.rules)
            except NotationError as exc:  # this game's verbs, not every engine's
                rules = self.rules
                raise NotationError(with_games_verbs(str(exc), self.engine.VERBS,
                                                     rules.family == "cards", rules.variant,
                                                     "legal_actions()")) from None
        if self.phase is Phase.OVER:
            raise IllegalAction(f"{action}: the match is over ({len(self.scores)} round(s) played)")
        engine = self.engine
        if action.verb not in engine.VERBS:
            raise IllegalAction(f"{action}: {action.verb!r} is not an action of {self.rules.variant}; "
                                f"its verbs: {', '.join(sorted(engine.VERBS))}")
        engine.apply(self, action)
        self._legal = None
        self.history.append(action)

    def round_scores(self) -> list[list[int]]:
        """Per-round score deltas of the finished rounds, one list per round, by seat."""
        return [list(r) for r in self.scores]

    def standings(self) -> list[int]:
        """Cumulative totals by seat over the finished rounds (higher is better)."""
        return list(self.totals)

    def round_results(self) -> list[dict[str, Any]]:
        """Details of each finished round: how it ended, winner, finish kind, penalties, deltas."""
        return [dict(r) for r in self.results]

    def __getstate__(self) -> dict[str, Any]:
        """For pickle and copy.deepcopy, which could not store the engine (a module: "cannot
        pickle 'module' object"): it is left out and found again from the rules on loading, as
        are the cached legal actions."""
        fields = {k: getattr(self, k) for k in self.__slots__ if hasattr(self, k)}
        fields["engine"] = fields["_legal"] = None
        return fields

    def __setstate__(self, fields: dict[str, Any]) -> None:
        for k, v in fields.items():
            setattr(self, k, v)
        self.engine = engine_for(self.rules)

    def copy(self) -> State:
        """An independent copy (count vectors and lists are copied, table melds are immutable
        and shared; the variant record copies itself)."""
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
        c.table = self.table[:]
        c.scores = [r[:] for r in self.scores]
        c.totals = self.totals[:]
        c.results = [dict(r) for r in self.results]
        c.history = self.history[:]
        c.x = self.x.copy()
        c._legal = self._legal
        return c

    _EQ_FIELDS = ("rules", "seed", "match_rounds", "round", "phase", "current", "starter", "turn",
                  "racks", "stock", "table", "scores", "totals", "results", "x")

    def __eq__(self, other: object) -> bool:
        """Equal game positions (the action history is not compared: two ways to reach the same
        position are equal)."""
        if not isinstance(other, State):
            return NotImplemented
        return all(getattr(self, f) == getattr(other, f) for f in self._EQ_FIELDS)

    __hash__ = None  # type: ignore[assignment]

    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see, as a JSON-able dict (the variant's engine decides the fields;
        Rummy 101: its own rack, the table with owners, the discard piles, the other racks'
        sizes, the stock size, who opened and how, the thresholds and the joker button). Hidden:
        other racks and the stock order."""
        if type(seat) is not int:  # numpy's integers too (was "seat np.int64(1) does not exist")
            number = whole_number(seat)
            if number is None:
                raise IllegalAction(f"seat {seat!r} does not exist: seats are 0..{self.n - 1}")
            seat = number
        if not 0 <= seat < self.n:
            raise IllegalAction(f"seat {seat!r} does not exist: seats are 0..{self.n - 1}")
        obs: dict[str, Any] = self.engine.observation(self, seat)
        return obs

    def __repr__(self) -> str:
        return (f"<State {self.rules} seed={self.seed} round={self.round} of={self.match_rounds} "
                f"phase={self.phase.value} player={self.current} turn={self.turn} "
                f"stock={len(self.stock)}>")

    def __str__(self) -> str:
        """The whole position as a few lines for a person (full information: every rack).
        Rounds and seats count from 0, as in observations and records."""
        head = (f"{self.rules} seed {self.seed}: round {self.round} (of {self.match_rounds}), "
                f"turn {self.turn}, ")
        head += ("match over" if self.phase is Phase.OVER else
                 f"seat {self.current} to act ({self.phase.value})")
        lines = [head + f"; stock {len(self.stock)}; standings {self.totals}"]
        for q in range(self.n):
            mark = ">" if q == self.current and self.phase is not Phase.OVER else " "
            rack = " ".join(map(str, self.rack(q)))
            lines.append(f"{mark} seat {q} ({self.sizes[q]}): {rack}")
        if self.table:
            lines.append("table:")
            for i, m in enumerate(self.table):
                text = m.text() if hasattr(m, "text") else str(m)
                kind = getattr(m, "kind", "")
                kind_name = MELD_KINDS.get(kind, str(kind)) if isinstance(kind, int) else str(kind)
                owner = getattr(m, "owner", None)
                lines.append(f"  {i}: {kind_name} {text}" + (f" (seat {owner})" if owner is not None else ""))
        else:
            lines.append("table: empty")
        describe = getattr(self.engine, "describe", None)
        if describe is not None:
            lines.extend(describe(self))
        return "\n".join(lines)

    def rack(self, seat: int) -> list[Tile] | list[Card]:
        """The pieces of a seat's rack, sorted (full information: for tests and tools, not bots)."""
        # the observation's check: rack(-1) was the last seat's rack, rack(9) a bare IndexError
        number = whole_number(seat)
        if number is None or not 0 <= number < self.n:
            raise IllegalAction(f"seat {seat!r} does not exist: seats are 0..{self.n - 1}")
        r = self.racks[number]
        piece = self.rules.piece
        return [piece(c) for c in range(53) for _ in range(r[c])]  # type: ignore[return-value]


def new_game(rules: str | Rules, seed: int, *, match_rounds: int | None = None) -> State:
    """Start a match: deal the first round as a pure function of (rules, seed). ``match_rounds``
    defaults to the variant's (one round of Rummy 101); where a match ends at a target score it
    caps the rounds.

    >>> s = new_game("rummy101(players=2)", 3, match_rounds=2)
    >>> s.current_player, s.sizes, len(s.stock)
    (0, [22, 21], 63)
    """
    r = Rules.parse(rules)
    # numpy's integers are whole numbers too, kept as ints (new_game(rules, rng.integers(9)) was
    # "seed must be a whole number, got int64 np.int64(3)"); a float or a string is refused
    number = whole_number(seed)
    if number is None:
        raise RulesError(f"seed must be a whole number, got {type(seed).__name__} {seed!r}")
    seed = number
    eng = engine_for(r)
    rounds = eng.DEFAULT_MATCH_ROUNDS if match_rounds is None else whole_number(match_rounds)
    if rounds is None or not 1 <= rounds <= MAX_MATCH_ROUNDS:
        raise RulesError(f"match_rounds must be a whole number from 1 to {MAX_MATCH_ROUNDS}, got "
                         f"{match_rounds!r}")
    match_rounds = rounds
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
    s._legal = None
    eng.new_match(s)
    return s


def held(items: Sequence[_T], counts: Sequence[int]) -> list[_T]:
    """``items[c]`` ``counts[c]`` times for each code ``c`` held, in code order: a rack's pieces
    (or their texts) from its 53 counts per code. In C: the 1-tuple ``(items[c],)`` of each code
    held times its count (a list comprehension with a range per code held cost 20% more, on
    the racks of random Rummy 101 and Remi play)."""
    singles = _SINGLES.get(id(items))
    if singles is None or singles[0] is not items:
        if type(items) is not tuple:  # (a list could change: its 1-tuples are not kept)
            return list(chain.from_iterable(map(mul, compress(zip(items), counts),
                                                compress(counts, counts))))
        singles = (items, tuple((t,) for t in items))
        if len(_SINGLES) < 64:
            _SINGLES[id(items)] = singles
    return list(chain.from_iterable(map(mul, compress(singles[1], counts), compress(counts, counts))))


#: held(): per tuple of items (kept, so that its id names it), the 1-tuple of each item
_SINGLES: dict[int, tuple[Sequence[Any], tuple[tuple[Any], ...]]] = {}


def observation_head(s: State, seat: int, full: bool = True) -> dict[str, Any]:
    """The part of every variant's observation that the shared fields give: the rules, whose
    turn, the seat's own rack (sorted pieces), every rack's size, the stock's size (never its
    order), the standings and the finished rounds' scores. An engine's ``observation`` adds its
    own public data to it. ``full=False``: without ``match_rounds`` and ``round_scores``, which
    the RL encoder does not read (an engine's ``encoder_observation``)."""
    texts = _TEXTS[s.rules.family]
    counts = s.racks[seat]
    # One deck (classic): the texts of the codes held, in C (compress). A range per code, held
    # or not, cost ~8 us of a ~50 us classic env step; with two copies (Rummy 101, Remi), a
    # range per code held (held()).
    if s.rules.copies == 1 and max(counts) < 2:
        rack = list(compress(texts, counts))
    else:
        rack = held(texts, counts)
    obs: dict[str, Any] = {"rules": str(s.rules), "seat": seat, "round": s.round}
    if full:
        obs["match_rounds"] = s.match_rounds
    obs["phase"] = _PHASE_VALUES[s.phase]  # (an enum's .value is a descriptor call: ~0.3 us)
    obs["current_player"] = s.current
    obs["starter"] = s.starter
    obs["turn"] = s.turn
    obs["rack"] = rack
    obs["rack_sizes"] = list(s.sizes)
    obs["stock"] = len(s.stock)
    obs["standings"] = list(s.totals)
    if full:
        obs["round_scores"] = list(map(list, s.scores))  # (a match to a target runs 100+ rounds)
    return obs

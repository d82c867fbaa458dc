"""Games against the bots and replays of game records, kept on the server (the web page's API).

A :class:`Game` is one match of any playable variant (:func:`rummy101.game.playable_variants`):
one seat is the person's, every other seat a bot (``random``, ``greedy``, ``search``). The
person's actions are engine action texts (``draw``, ``run R3 R4 R5``, ``discard K7``…); the
engine decides whether they are legal (a refused action raises
:class:`~rummy101.errors.IllegalAction` citing the rule, and the game is unchanged). After each
of the person's actions the bots play until it is the person's turn again or the match is over.
A hint (:mod:`rummy101.hint`; Remi and classic: :mod:`rummy101.hint.generic`) recommends the
person's turn; ``play_hint`` plays it.

A :class:`Replay` is a game record (:mod:`rummy101.game.records`) replayed once and cut into
turns; :meth:`Replay.turn` analyses one turn: the position before it, the moves played, the hint's
recommendation, both turns scored by the hint's evaluation (:mod:`rummy101.hint.evaluate`) and a
mistake mark when the played turn scores at least :data:`MISTAKE_POINTS` below the hint's.

:class:`GameStore` holds at most :data:`MAX_GAMES` games and :data:`MAX_REPLAYS` replays, and
knows which client started each (the service passes the client's address,
:func:`.web_routes.client_of`). One idle for :data:`IDLE_SECONDS` is dropped. A client holding
:data:`MAX_GAMES_PER_CLIENT` games that starts another evicts its own least recently used one;
when the store is full, a new game evicts the least recently used game of the client holding the
most (the one starting it counts the game it asks for; of equals, the one whose least recently
used game is the oldest). So a client that starts games in a loop evicts its own, and a person
with one game keeps it as long as anyone holds more. Replays likewise
(:data:`MAX_REPLAYS_PER_CLIENT`). Clients whose games are all gone leave no trace; a game's 404
says why it went (evicted and why, idle, deleted) for the latest :data:`EVICTIONS_REMEMBERED`
gone. An unknown client (``None``: the server gave no address) is not held to the per-client
caps. Each game and replay has a lock: one request works on it at a time (another gets
:class:`GameBusy`, answered 429). Everything here is synchronous and runs in worker threads
(:class:`.web_routes.GameLane`: the games' own threads, shared fairly between clients), never on
the event loop.

>>> store = GameStore()
>>> view = store.create({"rules": "rummy101(players=2)", "bots": ["greedy"], "seed": 7})
>>> view["seat"], view["your_turn"], view["over"], len(view["observation"]["rack"])
(0, True, False, 22)
>>> try:
...     store.act(view["id"], {"action": "draw"})
... except RummyError as exc:
...     print(type(exc).__name__, "R101-" in str(exc))
IllegalAction True
>>> small = GameStore(max_games=2, max_games_per_client=2)
>>> mine = [small.create({"rules": "rummy101(players=2)"}, client="a")["id"] for _ in range(2)]
>>> theirs = small.create({"rules": "rummy101(players=2)"}, client="b")["id"]
>>> sorted(small.games) == sorted([mine[1], theirs])  # "a" held the most: its oldest went
True
"""

from __future__ import annotations

import logging
import random
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypeVar

from .._cancel import check_stop
from .._limits import MAX_ACTION_CHARS as _MAX_ACTION_CHARS
from .._limits import MAX_SEAT_CHARS as _MAX_SEAT_CHARS
from .._limits import SEED_MAX
from .._validate import (
    BadRequest,
    described,
    read_int,
    read_object,
    read_rules,
    short,
)
from ..errors import NotationError, RummyError
from ..game import Phase, State, new_game, playable_variants
from ..game import actions as _actions
from ..game import records as _records
from ..rules import _OPTIONS, Rules
from ..solve import work_budget
from .batching import full_nodes

__all__ = [
    "BOTS",
    "GAME_FIELDS",
    "IDLE_SECONDS",
    "LIMITS",
    "MAX_ACTION_CHARS",
    "MAX_GAMES",
    "MAX_GAMES_PER_CLIENT",
    "MAX_RECORD_ACTIONS",
    "MAX_REPLAYS",
    "MAX_REPLAYS_PER_CLIENT",
    "MISTAKE_POINTS",
    "Game",
    "GameBusy",
    "GameStore",
    "NotFound",
    "Replay",
    "options",
]

log = logging.getLogger("rummy101.service")

MAX_GAMES = 64             # games held at once (GameStore: which one a new one evicts)
MAX_GAMES_PER_CLIENT = 16  # games one client holds; its next evicts its least recently used
MAX_REPLAYS = 16           # replays held at once; likewise
MAX_REPLAYS_PER_CLIENT = 4  # replays one client holds; likewise
EVICTIONS_REMEMBERED = 256  # ids of the latest games (and replays) gone whose 404 says why
IDLE_SECONDS = 3600.0      # a game or replay untouched this long is dropped
MAX_ACTION_CHARS = _MAX_ACTION_CHARS  # characters of one action text (a hint's record too)
MAX_RECORD_ACTIONS = 5000  # actions of a record loaded for replay
MAX_SEAT_CHARS = _MAX_SEAT_CHARS  # characters of a seat's name in a record's "seats"
MAX_BOT_STEPS = 20_000     # bot actions played in one request (a whole classic match fits)
GAME_THREADS = 2           # worker threads that run game requests (bot moves, hints, replays)
MAX_GAME_WAITING = 64      # game requests waiting for a thread; more answer 429
MAX_GAME_WAITING_PER_CLIENT = 8  # of them, one client's; its next answers 429
MAX_GAME_WAIT_SECONDS = 20.0  # a game request that waited this long for a thread answers 429
MISTAKE_POINTS = 10.0      # a turn scoring this far below the hint's is marked a mistake
MAX_SEED = SEED_MAX
#: Bots a page may choose, and the options they run with here: ``search`` is bounded to 40
#: rollouts per decision (under a second natively), so a request never waits long for a bot.
BOTS: dict[str, str] = {"random": "random", "greedy": "greedy", "search": "search:playouts=40"}
HINT_VARIANTS = ("rummy101", "remi", "classic")  # rummy101's planner; the others' greedy turn
ANALYSIS_VARIANTS = ("rummy101",)                # replays scored by the hint's evaluation

LIMITS: dict[str, float] = {
    "max_games": MAX_GAMES, "max_replays": MAX_REPLAYS, "game_idle_seconds": IDLE_SECONDS,
    "max_games_per_client": MAX_GAMES_PER_CLIENT,
    "max_replays_per_client": MAX_REPLAYS_PER_CLIENT,
    "max_action_chars": MAX_ACTION_CHARS, "max_record_actions": MAX_RECORD_ACTIONS,
    "max_bot_steps": MAX_BOT_STEPS, "game_threads": GAME_THREADS,
    "max_game_waiting": MAX_GAME_WAITING,
    "max_game_waiting_per_client": MAX_GAME_WAITING_PER_CLIENT,
    "game_wait_seconds": MAX_GAME_WAIT_SECONDS,
    "mistake_points": MISTAKE_POINTS,
}

GAME_FIELDS = ("rules", "bots", "seat", "seed")
ACTION_FIELDS = ("action",)
REPLAY_FIELDS = ("record",)
LOG_LENGTH = 60            # moves kept in a game's log (the page shows the latest)


class NotFound(RummyError):
    """No game or replay with that id (never created, finished long ago, or evicted)."""


def _hint_json(state: Any, seat: int, alternatives: int) -> dict[str, Any]:
    """The hint for ``seat``: Rummy 101's planner (a staged opening planned from the turn's
    start), or the variant's greedy turn for Remi and classic (:mod:`rummy101.hint.generic`)."""
    from ..hint import generic

    return generic.hint_state(state, seat, alternatives)


class GameBusy(RummyError):
    """Another request is working on this game right now."""


def _bot_names() -> list[str]:
    from ..bots import bot_names  # the bots' registry (imported when the first game starts)

    known = bot_names()  # reads the installed entry points: about 20 ms, so once
    return [b for b in BOTS if b in known]


def options() -> dict[str, Any]:
    """What a page needs to offer a new game: the playable variants with their options
    (name, default, accepted values, meaning), the bots, which variants have hints, limits."""
    variants = []
    for name in playable_variants():
        opts = []
        for o in _OPTIONS[name]:
            default = o.default
            opts.append({"name": o.name, "default": ("on" if default else "off")
                         if isinstance(default, bool) else default,
                         "accepted": o.accepted(), "doc": o.doc})
        variants.append({"name": name, "options": opts, "hints": name in HINT_VARIANTS})
    return {"variants": variants, "bots": _bot_names(), "limits": LIMITS}


# ---- one game ---------------------------------------------------------------------------------
@dataclass
class Game:
    """One match on the server: the engine state, the person's seat and the bots."""

    id: str
    state: State
    seat: int
    bots: list[Any]                 # a Bot per seat, None for the person
    bot_names: list[str]            # "you" for the person
    lock: threading.Lock = field(default_factory=threading.Lock)
    used: float = field(default_factory=time.monotonic)
    log: list[dict[str, Any]] = field(default_factory=list)

    def _note(self, seat: int, action: str, round_: int) -> dict[str, Any]:
        """A move in the log; ``round_``: the round it was played in, read before it was applied
        (a move that ends a round leaves the state in the next one, and the page marks the
        round's end in the log where the round of the moves changes)."""
        entry = {"n": len(self.state.history), "round": round_, "seat": seat,
                 "by": self.bot_names[seat], "action": action}
        self.log.append(entry)
        del self.log[:-LOG_LENGTH]
        return entry

    def play_bots(self) -> list[dict[str, Any]]:
        """Let the bots move until it is the person's turn or the match is over."""
        s = self.state
        moves: list[dict[str, Any]] = []
        steps = 0
        with work_budget(full_nodes()):
            while not s.is_terminal and s.current_player != self.seat:
                check_stop()
                steps += 1
                if steps > MAX_BOT_STEPS:
                    raise RummyError(f"the bots played {MAX_BOT_STEPS} actions in this request "
                                     f"without reaching your turn; ask again to go on")
                seat = s.current_player
                legal = s.legal_actions()
                action = self.bots[seat].act(s.observation(seat), legal)
                played_in = s.round
                s.apply(action)
                # a bot's move as the person may see it (Remi, RO-3: a double's size, no tiles)
                shown = getattr(s.engine, "public_text", None)
                moves.append(self._note(seat, shown(action) if shown else str(action), played_in))
        return moves

    def _bots_after(self, moves: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The bots' moves after the person's ``moves``. The person's moves stay played when a bot
        fails (its search over the budget, the server stopping): the error says so, and the next
        request for the game (:meth:`GameStore.view`) lets the bots go on from where they stopped
        (before, the game waited for a bot forever and refused every action as out of turn)."""
        try:
            return self.play_bots()
        except RummyError as exc:
            played = ", ".join(repr(m["action"]) for m in moves)
            raise RummyError(f"your move {played} was played, but then the bots stopped: {exc}; "
                             f"ask for the game (GET /v1/games/{self.id}) to let them go "
                             f"on") from exc

    def status(self, obs: dict[str, Any] | None = None, legal: list[str] | None = None) -> str:
        """The status line; ``obs`` and ``legal``: the person's observation and the legal
        actions' texts when the caller has them already (view), so they are built once."""
        s = self.state
        if s.is_terminal:
            totals = s.standings()
            best = max(totals)
            winners = [self._who(i) for i, t in enumerate(totals) if t == best]
            return (f"The game is over: {' and '.join(winners)} "
                    f"{'win' if len(winners) > 1 or winners == ['you'] else 'wins'} with {best} "
                    f"points.")
        if s.current_player != self.seat:
            return f"Waiting for {self._who(s.current_player)}."
        phase = s.phase.value
        if obs is None:
            obs = s.observation(self.seat)
        turn = obs.get("turn_state") or {}
        pending = turn.get("pending")
        if phase == "play" and pending:  # Remi: a piece held off the rack until it is laid
            kind = turn.get("pending_kind")
            piece = ("the Joly you retrieved", "RO-9.5") if kind == "joly" else \
                (f"{pending} (taken from the train)", "RO-9.4")
            return (f"Your turn (round {s.round + 1}): lay {piece[0]} at once, in a new meld with "
                    f"at least two rack tiles ({piece[1]}), or take back this turn's plays.")
        if legal is None:
            legal = [str(a) for a in s.legal_actions()]
        verbs = {a.split(" ", 1)[0] for a in legal}
        if phase == "play" and verbs and verbs <= {"discard", "tabla", "close"}:
            # nothing to lay or add (Remi's first turn, a tabla declared, no meld): say so
            took = turn.get("took")
            why = (" (the first player's first turn is a discard alone, RO-5)"
                   if s.rules.variant == "remi" and took == "start" else "")
            also = "".join(f", or {x} (RO-11)" for x, w in (("declare tabla", "tabla"),
                                                           ("close on the rack", "close"))
                           if w in verbs)
            return (f"Your turn (round {s.round + 1}): discard a {s.rules.piece_word}{why}"
                    f"{also}.")
        if phase == "play" and turn.get("staged") and obs.get("thresholds"):
            # Rummy 101: melds laid before opening wait, staged, until they reach the threshold
            return f"Your turn (round {s.round + 1}): {self._staged(obs, verbs)}."
        must = turn.get("must_use")
        if phase == "play" and must and "discard" not in verbs:
            # the discard taken has to reach the table before a discard (R101-4; Remi before the
            # first lay-down, RO-10): the status invited the discard that was then refused
            where, rule = (("your first lay-down", "RO-10") if s.rules.variant == "remi" else
                           ("your opening" if obs["opened"][self.seat] is None else "a meld",
                            "R101-4"))
            return (f"Your turn (round {s.round + 1}): lay {must}, the discard you took, in "
                    f"{where} before you discard ({rule}), or take back this turn's plays.")
        if phase == "exchange":
            return f"Your turn (round {s.round + 1}): {self._exchange(obs, verbs)}."
        # Remi (RO-9.4): a laid-down seat may also take a tile from the train, once a move with
        # no word of it anywhere on the page but "break 5" among all the legal moves
        take = ("draw from the stock, take the discard or take a tile from the train (RO-9.4)"
                if "break" in verbs else "draw from the stock or take the discard")
        what = {"take": f"take a {s.rules.piece_word}: {take}",
                "play": "lay melds, add to the table, then discard"}.get(phase, phase)
        return f"Your turn (round {s.round + 1}): {what}."

    @staticmethod
    def _staged(obs: dict[str, Any], verbs: set[str]) -> str:
        """What the staged melds of a Rummy 101 opening hold against the threshold, and what
        is left to do (R101-7, R101-8)."""
        staged = [m for m in obs["table"] if m.get("staged")]
        need = obs["thresholds"]
        pairs = sum(1 for m in staged if m.get("kind") == "pair")
        held = (f"{pairs} of the {need['pairs']} pairs needed to open (R101-8)" if pairs else
                f"{sum(m.get('value') or 0 for m in staged)} of the {need['points']} points "
                f"needed to open (R101-7)")
        todo = ("open to commit them, or lay more first" if "open" in verbs else
                "lay more, or take them back to discard")
        return f"the melds laid this turn hold {held}: {todo}"

    def _exchange(self, obs: dict[str, Any], verbs: set[str]) -> str:
        """Remi's exchange of doubles (RO-3): every seat is asked, so one without a double is
        told plainly that it passes."""
        ex = obs.get("exchange") or {}
        if ex.get("announcer") is None:
            if verbs == {"decline"}:
                return "the exchange of doubles: you hold no double, so pass (decline)"
            return "the exchange of doubles: announce one or decline"
        offer = f"{self._who(ex['announcer'])} announced a {ex.get('size')} double"
        if verbs == {"decline"}:
            return f"{offer}; you hold no {ex.get('size')} double to swap, so pass (decline)"
        return f"{offer}: swap one of your {ex.get('size')} doubles for it (accept) or decline"

    def _who(self, seat: int) -> str:
        return "you" if seat == self.seat else f"seat {seat} ({self.bot_names[seat]})"

    def view(self, moves: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        """The person's view: their observation, legal actions when it is their turn, status."""
        s = self.state
        mine = not s.is_terminal and s.current_player == self.seat
        results = s.round_results()
        obs = s.observation(self.seat)
        legal = [str(a) for a in s.legal_actions()] if mine else []
        return {
            "id": self.id, "rules": str(s.rules), "variant": s.rules.variant,
            # the seed deals every rack and the stock: not shown until the game is over
            "seed": s.seed if s.is_terminal else None, "seat": self.seat, "players": s.n,
            "bots": list(self.bot_names), "observation": obs,
            "legal": legal, "your_turn": mine, "over": s.is_terminal,
            "status": self.status(obs, legal),  # (legal is only read on the person's turn)
            "standings": s.standings(), "round_scores": s.round_scores(),
            "round_results": results, "hints": s.rules.variant in HINT_VARIANTS,
            "actions_played": len(s.history), "log": list(self.log),
            "moves": moves or [],
        }

    def act(self, text: str) -> dict[str, Any]:
        s = self.state
        if s.is_terminal:
            raise RummyError("the game is over; start a new one")
        if s.current_player != self.seat:
            raise RummyError(f"it is seat {s.current_player}'s turn, not yours: the bots have not "
                             f"finished their turns; ask for the game (GET /v1/games/{self.id}) "
                             f"to let them go on")
        try:  # read here, so that the message points at the view's legal actions
            action = _actions.Action.parse(text, s.rules)
        except NotationError as exc:
            raise NotationError(_this_games_verbs(str(exc), s)) from None
        played_in = s.round
        s.apply(action)  # IllegalAction: the engine left the state unchanged
        moves = [self._note(self.seat, str(s.history[-1]), played_in)]
        return self.view(moves + self._bots_after(moves))

    def hint(self) -> dict[str, Any]:
        s = self.state
        if s.rules.variant not in HINT_VARIANTS:
            return {"available": False,
                    "message": f"no hint yet for {s.rules.variant}: hints cover "
                               f"{', '.join(HINT_VARIANTS)} only"}
        if s.is_terminal:
            raise RummyError("the game is over: there is no turn to hint; start a new one")
        if s.current_player != self.seat:
            raise RummyError("a hint is for your turn, and it is not your turn")
        with work_budget(full_nodes()):
            # a Rummy 101 staged opening is planned from the turn's start, "reset" first
            answer = _hint_json(s, self.seat, 3)
        return {"available": True, **answer}

    def play_hint(self) -> dict[str, Any]:
        """Play the hint's turn. A turn that begins with a draw is planned again once the drawn
        tile is known (the hint says so), and the rest is played from that second hint."""
        s = self.state
        first = self.hint()
        if not first["available"]:
            raise RummyError(first["message"])
        trial = s.copy()
        played: list[str] = []
        rounds: list[int] = []  # the round each of them was played in
        steps = list(first["turn"]["steps"])
        actions = list(first["turn"]["actions"])
        if actions[:1] == ["reset"]:  # a staged opening taken back (hint)
            rounds.append(trial.round)
            trial.apply("reset")
            played.append("reset")
            actions = actions[1:]
        if actions and actions[0] == "draw":
            rounds.append(trial.round)
            trial.apply("draw")
            played.append("draw")
            steps = steps[:1]
            actions = []
            if not trial.is_terminal and trial.current_player == self.seat:
                with work_budget(full_nodes()):
                    second = _hint_json(trial, self.seat, 0)
                steps += second["turn"]["steps"]
                actions = second["turn"]["actions"]
        for text in actions:
            rounds.append(trial.round)
            trial.apply(text)
            played.append(text)
        self.state = trial
        moves = [self._note(self.seat, a, r) for a, r in zip(played, rounds, strict=True)]
        # the notes above were numbered after the whole turn: number them in order
        for i, m in enumerate(moves):
            m["n"] = len(trial.history) - len(played) + i + 1
        view = self.view(moves + self._bots_after(moves))
        view["played_hint"] = {"steps": steps, "actions": played}
        return view

    def record(self) -> dict[str, Any]:
        if not self.state.is_terminal:  # its seed and actions replay the bots' racks
            raise RummyError("the game record comes once the game is over: it holds the seed, "
                             "which deals every rack (the bots' too) and the stock")
        rec = _records.to_dict(self.state)
        rec["seats"] = list(self.bot_names)
        return rec


# ---- replays ------------------------------------------------------------------------------------
@dataclass
class Replay:
    """A game record replayed once and cut into turns (consecutive actions of one seat)."""

    id: str
    rules: Rules
    record: dict[str, Any]
    starts: list[State]            # the position before each turn
    turns: list[tuple[int, list[str]]]  # (seat, actions) per turn
    final: State
    lock: threading.Lock = field(default_factory=threading.Lock)
    used: float = field(default_factory=time.monotonic)
    analysed: dict[int, dict[str, Any]] = field(default_factory=dict)

    @classmethod
    def load(cls, rid: str, body: Any) -> Replay:
        obj = read_object(body, "replay request", REPLAY_FIELDS)
        record, rules, seats = _records.read_sent(obj.get("record"), MAX_RECORD_ACTIONS,
                                                  "send the game record as it is")
        actions = record["actions"]
        fmt = record.get("format", _records.FORMAT)
        clean: dict[str, Any] = {k: record[k] for k in ("format", "rules", "seed", "match_rounds",
                                                        "actions") if k in record}
        if seats is not None:  # who played each seat (GET /v1/games/{id}/record adds it)
            clean["seats"] = seats
        state = new_game(rules, record["seed"], match_rounds=record.get("match_rounds"))
        starts: list[State] = []
        turns: list[tuple[int, list[str]]] = []
        key: tuple[int, int] | None = None
        # a format-1 record's Remi exchange: the declines it omits are replayed too (records)
        for step, (i, text) in enumerate(_records.replay_steps(state, actions, fmt)):
            if step % 64 == 0:
                check_stop()
            here = (state.round, state.current_player)
            if here != key or state.phase is Phase.OVER:
                starts.append(_snapshot(state, starts[-1] if starts else None))
                turns.append((state.current_player, []))
                key = here
            try:
                state.apply(text)
            except RummyError as exc:
                raise type(exc)(f"game record action {i} ({text!r}) does not replay: "
                                f"{exc}") from None
            turns[-1][1].append(str(state.history[-1]))
        # the stored outcome, when given, must be the replay's (rummy101.game.records)
        for k, got in (("round_scores", state.round_scores()), ("standings", state.standings()),
                       ("results", state.round_results()), ("terminal", state.is_terminal)):
            if k in record and record[k] != got:
                raise BadRequest(f"field 'record': {k!r} says {short(record[k])} but the "
                                 f"replay gives {short(got)}")
        if fmt != _records.FORMAT:  # kept as it replays now: the current format, every action
            clean.update(format=_records.FORMAT, actions=[str(a) for a in state.history])
        return cls(rid, rules, clean, starts, turns, state)

    def summary(self) -> dict[str, Any]:
        s = self.final
        return {
            "id": self.id, "rules": str(self.rules), "variant": self.rules.variant,
            "seed": s.seed, "players": s.n, "hints": self.rules.variant in ANALYSIS_VARIANTS,
            "terminal": s.is_terminal, "standings": s.standings(),
            "round_scores": s.round_scores(), "round_results": s.round_results(),
            "seats": self.record.get("seats"),
            "turns": [{"turn": i, "seat": seat, "round": self.starts[i].round,
                       "actions": acts, **self._marks(i)}
                      for i, (seat, acts) in enumerate(self.turns)],
        }

    def _marks(self, i: int) -> dict[str, Any]:
        done = self.analysed.get(i)
        if done is None:
            return {"analysed": False}
        return {"analysed": True, "mistake": done["mistake"], "loss": done["loss"]}

    def turn(self, i: int) -> dict[str, Any]:
        if not self.turns:
            raise NotFound(f"turn {i} does not exist: this replay has no turns (its record holds "
                           f"no actions)")
        if not 0 <= i < len(self.turns):
            raise NotFound(f"turn {i} does not exist: this replay has turns 0.."
                           f"{len(self.turns) - 1}")
        if i in self.analysed:
            return self.analysed[i]
        seat, acts = self.turns[i]
        before = self.starts[i]
        after = self.starts[i + 1] if i + 1 < len(self.starts) else self.final
        out: dict[str, Any] = {
            "turn": i, "seat": seat, "round": before.round, "phase": before.phase.value,
            "observation": before.observation(seat),
            "after": after.observation(seat) if after.round == before.round else None,
            "played": acts, "hint": None, "hint_after_draw": None,
            "played_score": None, "hint_score": None, "loss": None, "mistake": False,
            "note": None,
        }
        if self.rules.variant not in ANALYSIS_VARIANTS:
            out["note"] = (f"no replay analysis yet for {self.rules.variant}: analysis covers "
                           f"{', '.join(ANALYSIS_VARIANTS)} only")
        elif before.phase in (Phase.TAKE, Phase.PLAY):
            with work_budget(full_nodes()):
                out.update(_analyse(before, seat, acts))
        self.analysed[i] = out
        return out


def _snapshot(state: State, before: State | None) -> State:
    """A copy of ``state`` for a replay, which keeps one per turn and only reads or copies them.
    Copies with their histories and round results grew with the square of the record (a
    3,500-action classic record held 38 MB; 16 replays of 5,000 actions, over a gigabyte), so the
    copy has no action history (nothing that analyses a position reads it), and the rounds'
    scores and results it shares with the snapshot ``before`` it when they are equal."""
    history, state.history = state.history, []
    try:
        snap = state.copy()
    finally:
        state.history = history
    if before is not None:
        _share(before.results, snap.results)
        _share(before.scores, snap.scores)
    return snap


def _share(old: list[Any], new: list[Any]) -> None:
    """Let ``new`` hold the items of ``old`` that are equal to its own, position by position."""
    for i in range(min(len(old), len(new))):
        if old[i] == new[i]:
            new[i] = old[i]


def _analyse(before: State, seat: int, acts: list[str]) -> dict[str, Any]:
    """Rummy 101: the hint at the start of the turn, the played turn scored by the hint's own
    evaluation, and the loss. A played draw is judged after the draw (the drawn tile known),
    plus what the take itself cost by the first hint's ranking."""
    from ..hint import evaluate, hint, view_from_state
    from ..hint.plan import _Planner, _Work
    from ..tiles import Tile

    h0 = hint(view_from_state(before, seat), 10)
    first = h0.to_json()
    out: dict[str, Any] = {"hint": {"steps": first["turn"]["steps"],
                                    "actions": first["turn"]["actions"],
                                    "evaluation": first["turn"]["evaluation"]}}
    if not acts or not acts[-1].startswith("discard "):
        out["note"] = "this turn did not end with a discard: it is not scored"
        return out
    end = before.copy()
    for a in acts:
        end.apply(a)
    discard = int(Tile.parse(acts[-1].split(" ", 1)[1]))
    obs = end.observation(seat) if end.round == before.round else None
    opened: Literal["melds", "pairs"] | None
    if obs is None:  # the discard finished the round and the next one began: the rack is empty
        rest: list[int] = []
        opened = (end.round_results()[-1].get("opened") or ["melds"] * end.n)[seat]
    else:
        rest = [int(Tile.parse(t)) for t in obs["rack"]]
        opened = obs["opened"][seat]
    was_open = before.observation(seat)["opened"][seat]
    work = _Work(rest, [], [], [], opened=opened, opened_now=was_open is None
                 and opened is not None)
    best = h0.turn.score
    take_loss = 0.0
    take = acts[0] if acts[0] in ("draw", "take", "button") else None
    if take == "draw":
        mid = before.copy()
        mid.apply("draw")
        draw_turns = [t.score for t in (h0.turn, *h0.alternatives)
                      if t.actions and t.actions[0] == "draw"]
        take_loss = max(0.0, best - (max(draw_turns) if draw_turns
                                     else min(t.score for t in (h0.turn, *h0.alternatives))))
        if mid.is_terminal or mid.current_player != seat or mid.phase is not Phase.PLAY:
            return out
        view1 = view_from_state(mid, seat)
        h1 = hint(view1, 0)
        second = h1.to_json()
        out["hint_after_draw"] = {"steps": second["turn"]["steps"],
                                  "actions": second["turn"]["actions"],
                                  "evaluation": second["turn"]["evaluation"]}
        played = float(evaluate(_Planner(view1), work, discard, {})["score"])
        loss = take_loss + max(0.0, h1.turn.score - played)
        out.update(played_score=played, hint_score=h1.turn.score)
    else:
        step = {"take": "take_discard", "button": "button"}.get(take or "", "")
        played = float(evaluate(_Planner(view_from_state(before, seat)), work, discard,
                                {"step": step} if step else {})["score"])
        loss = best - played
        out.update(played_score=played, hint_score=best)
    out["loss"] = round(loss, 3)
    out["mistake"] = loss >= MISTAKE_POINTS
    return out


# ---- the store ----------------------------------------------------------------------------------
T = TypeVar("T", Game, Replay)


def _new_id() -> str:
    return secrets.token_hex(8)


def _read_id(value: str, what: str) -> str:
    if not (isinstance(value, str) and len(value) == 16
            and all(c in "0123456789abcdef" for c in value)):
        raise NotFound(f"no {what} {short(value, 40)}: ids are 16 lower-case hexadecimal digits "
                       "(0-9, a-f), as answered when the game or replay was made")
    return value


class _Table(Generic[T]):
    """The games (or the replays) of a store and who started each (module docstring).

    ``items`` holds them least recently used first, ``clients`` the ids each client holds in the
    same order; a client whose last one goes leaves ``clients``. ``gone`` says why each of the
    latest :data:`EVICTIONS_REMEMBERED` ids that went (evicted, idle, deleted) went, for its 404.
    The caller holds the store's lock."""

    def __init__(self, what: str, limit: int, per_client: int) -> None:
        self.what = what
        self.limit = max(1, limit)
        self.per_client = max(1, per_client)
        self.items: OrderedDict[str, T] = OrderedDict()
        self.owner: dict[str, str | None] = {}
        self.clients: dict[str | None, OrderedDict[str, None]] = {}
        self.gone: OrderedDict[str, str] = OrderedDict()

    def add(self, item: T, client: str | None) -> None:
        mine = self.clients.get(client)
        while client is not None and mine and len(mine) >= self.per_client:
            self.drop(next(iter(mine)), f"it was evicted: its client started another {self.what} "
                                        f"while holding {self.per_client}, the most one client "
                                        f"keeps, and it was that client's least recently used")
        while len(self.items) >= self.limit:
            self.drop(self._fullest(client), f"it was evicted: the service held its "
                                             f"{self.limit} {self.what}s and the client that "
                                             f"started it held the most of them; it was that "
                                             f"client's least recently used")
        self.items[item.id] = item
        self.owner[item.id] = client
        self.clients.setdefault(client, OrderedDict())[item.id] = None

    def _fullest(self, creator: str | None) -> str:
        """The least recently used id of the client holding the most (the creator counting the
        one it asks for; of equals, the one whose least recently used is the oldest)."""
        def rank(entry: tuple[str | None, OrderedDict[str, None]]) -> tuple[int, float]:
            client, ids = entry
            return (len(ids) + (client == creator), -self.items[next(iter(ids))].used)

        return next(iter(max(self.clients.items(), key=rank)[1]))

    def touch(self, key: str) -> T | None:
        item = self.items.get(key)
        if item is not None:
            self.items.move_to_end(key)
            self.clients[self.owner[key]].move_to_end(key)
        return item

    def drop(self, key: str, why: str | None) -> bool:
        """Forget ``key``; ``why``, when given, is what its 404 says from now on."""
        if self.items.pop(key, None) is None:
            return False
        client = self.owner.pop(key)
        ids = self.clients[client]
        del ids[key]
        if not ids:
            del self.clients[client]
        if why is not None:
            log.info("%s %s dropped: %s", self.what, key, why)
            self.gone[key] = why
            while len(self.gone) > EVICTIONS_REMEMBERED:
                self.gone.popitem(last=False)
        return True

    def sweep(self, now: float, idle_seconds: float) -> None:
        for key in [k for k, v in self.items.items() if now - v.used > idle_seconds]:
            self.drop(key, f"it was idle for more than {idle_seconds:g} s")


class GameStore:
    """The games and replays of one app, bounded in count, count per client and idle time
    (module docstring). ``client`` is who starts a game or replay (the service passes the
    client's address); ``None``, an unknown client, is not held to the per-client caps."""

    def __init__(self, max_games: int = MAX_GAMES, max_replays: int = MAX_REPLAYS,
                 idle_seconds: float = IDLE_SECONDS,
                 clock: Callable[[], float] = time.monotonic,
                 max_games_per_client: int = MAX_GAMES_PER_CLIENT,
                 max_replays_per_client: int = MAX_REPLAYS_PER_CLIENT) -> None:
        self.max_games = max_games
        self.max_replays = max_replays
        self.idle_seconds = idle_seconds
        self.clock = clock
        self._games: _Table[Game] = _Table("game", max_games, max_games_per_client)
        self._replays: _Table[Replay] = _Table("replay", max_replays, max_replays_per_client)
        self.games = self._games.items      # id -> Game, least recently used first
        self.replays = self._replays.items  # id -> Replay, likewise
        self._lock = threading.Lock()  # guards the two tables (not the games themselves)

    # -- bookkeeping
    def _add(self, table: _Table[T], item: T, client: str | None) -> None:
        with self._lock:
            now = self.clock()
            table.sweep(now, self.idle_seconds)
            table.add(item, client)
            item.used = now

    def _get(self, table: _Table[T], key: str) -> T:
        what = table.what
        key = _read_id(key, what)
        with self._lock:
            now = self.clock()
            table.sweep(now, self.idle_seconds)
            item = table.touch(key)
            if item is None:
                why = table.gone.get(key)
                if why is not None:
                    raise NotFound(f"no {what} {key}: {why}")
                deleted = "was deleted, " if table is self._games else ""  # (no replay is)
                raise NotFound(f"no {what} {key}: it never existed, was idle for more than "
                               f"{self.idle_seconds:g} s, was evicted (one client keeps at most "
                               f"{table.per_client} {what}s, the service {table.limit}: a new one "
                               f"evicts the least recently used of the client holding the "
                               f"most), {deleted}or the service restarted (it keeps "
                               f"{what}s in memory only)")
            item.used = now
            return item

    @contextmanager
    def _locked(self, item: Game | Replay) -> Iterator[None]:
        if not item.lock.acquire(blocking=False):
            what = "replay" if isinstance(item, Replay) else "game"
            raise GameBusy(f"{what} {item.id} is busy answering another request; retry when it "
                           f"is done")
        try:
            yield
        finally:
            item.used = self.clock()
            item.lock.release()

    # -- games
    def create(self, body: Any, client: str | None = None) -> dict[str, Any]:
        """A new game for ``client`` (who starts it: the per-client cap and eviction)."""
        obj = read_object(body, "new game request", GAME_FIELDS)
        rules = read_rules(obj, "rummy101")
        if rules.variant not in playable_variants():
            raise BadRequest(f"the game engine does not play {rules.variant!r} yet; playable "
                             f"variants: {', '.join(playable_variants())}")
        seat = read_int(obj, "seat", lo=0, hi=rules.players - 1, default=0)
        seed = obj.get("seed")
        seed = secrets.randbelow(2**31) if seed is None else read_int(obj, "seed", lo=0,
                                                                      hi=MAX_SEED)
        names = _read_bots(obj.get("bots"), rules.players, seat)
        from ..bots import get_bot

        bots: list[Any] = [None if seat_ == seat else
                           get_bot(BOTS[names[seat_]], random.Random(f"{seed}:{seat_}"))
                           for seat_ in range(rules.players)]
        shown = ["you" if i == seat else names[i] for i in range(rules.players)]
        game = Game(_new_id(), new_game(rules, seed), seat, bots, shown)
        self._add(self._games, game, client)
        with self._locked(game):
            try:
                return game.view(game.play_bots())
            except BaseException:  # the id was never given out: drop the game
                with self._lock:
                    self._games.drop(game.id, None)
                raise

    def game(self, gid: str) -> Game:
        return self._get(self._games, gid)

    def view(self, gid: str) -> dict[str, Any]:
        """The person's view; bots that stopped during an earlier request move on first."""
        game = self.game(gid)
        with self._locked(game):
            return game.view(game.play_bots())

    def act(self, gid: str, body: Any) -> dict[str, Any]:
        obj = read_object(body, "action request", ACTION_FIELDS)
        text = obj.get("action")
        if not isinstance(text, str) or not text.strip():
            raise BadRequest(f"field 'action' must be an action text such as \"draw\" or "
                             f"\"discard R5\", got {described(text)}")
        if len(text) > MAX_ACTION_CHARS:
            raise BadRequest(f"field 'action' has {len(text)} characters; at most "
                             f"{MAX_ACTION_CHARS}")
        game = self.game(gid)
        with self._locked(game):
            return game.act(text)

    def hint(self, gid: str) -> dict[str, Any]:
        game = self.game(gid)
        with self._locked(game):
            return game.hint()

    def play_hint(self, gid: str) -> dict[str, Any]:
        game = self.game(gid)
        with self._locked(game):
            return game.play_hint()

    def record(self, gid: str) -> dict[str, Any]:
        game = self.game(gid)
        with self._locked(game):
            return game.record()

    def delete(self, gid: str) -> dict[str, Any]:
        """Forget a game; one busy with another request answers 429 like any other request
        (deleted under a running action, that action answered 200 after the delete's 200)."""
        key = _read_id(gid, "game")
        with self._lock:
            game = self._games.items.get(key)
            if game is not None:
                with self._locked(game):
                    self._games.drop(key, "it was deleted")
                return {"deleted": key}
            why = self._games.gone.get(key)
            raise NotFound(f"no game {key}" + (f": {why}" if why else ""))

    # -- replays
    def load_replay(self, body: Any, client: str | None = None) -> dict[str, Any]:
        """A new replay for ``client`` (as :meth:`create`)."""
        replay = Replay.load(_new_id(), body)
        self._add(self._replays, replay, client)
        return replay.summary()

    def find_replay(self, rid: str) -> Replay:
        """The replay ``rid`` (:class:`NotFound` saying why when there is none)."""
        return self._get(self._replays, rid)

    def replay(self, rid: str) -> dict[str, Any]:
        rep = self._get(self._replays, rid)
        with self._locked(rep):
            return rep.summary()

    def replay_turn(self, rid: str, turn: int) -> dict[str, Any]:
        rep = self._get(self._replays, rid)
        with self._locked(rep):
            return rep.turn(turn)


def _read_bots(value: Any, players: int, seat: int) -> list[str]:
    """The bot of each seat from ``value``: one name per other seat, in seat order (default:
    greedy everywhere); the answer has ``"you"`` at the person's seat."""
    accepted = _bot_names()
    if value is None:
        value = ["greedy"] * (players - 1)
    if not isinstance(value, list):
        raise BadRequest(f"field 'bots' must be a list of bot names ({', '.join(accepted)}), "
                         f"got {described(value)}")
    if len(value) != players - 1:
        raise BadRequest(f"field 'bots' lists {len(value)} bots; this game has {players} seats: "
                         f"give {players - 1}, one per other seat in seat order")
    for i, name in enumerate(value):
        if not isinstance(name, str) or name not in accepted:
            raise BadRequest(f"field 'bots': bot {i} is {short(name)}; accepted bots: "
                             f"{', '.join(accepted)} (the service plays the shipped bots only: "
                             f"a request never loads code; play your own bot with rummy101 "
                             f"play --bots package.module:BotClass, docs/bots.md)")
    it = iter(value)
    return ["you" if i == seat else next(it) for i in range(players)]


def apply_limits(value: Mapping[str, Any]) -> dict[str, Any]:
    """The games' limits merged into ``value`` (for ``/v1/info``)."""
    return {**value, **LIMITS}


def _this_games_verbs(message: str, state: State) -> str:
    """The game's own verbs in place of every engine's in a refused action text
    (:func:`rummy101.game.actions.with_games_verbs`)."""
    return _actions.with_games_verbs(message, state.engine.VERBS, state.rules.family == "cards",
                                     state.rules.variant, "the view's 'legal'")

"""Playing simulated games: one seeded game (:func:`play_game`) and many, in this process or on
any executor (:func:`simulate`), aggregated in game order.
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import os
import random
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from .. import __version__, _backend
from .._limits import SEED_MAX
from .._validate import whole_number
from ..bots import Bot, BotError, bot_names, get_bot
from ..bots.base import options_hint
from ..errors import WorkBudgetExceeded
from ..game.actions import last_actions
from ..rules import Rules
from .errors import GameFailed, SimError, SimInterrupted
from .record import RECORD_KINDS, GameRecord, round_finishes
from .seeds import bot_seed, game_seed
from .stats import GameTally, SimResult

__all__ = ["MAX_GAMES", "MAX_STEPS", "MAX_STREAMED_GAMES", "LazyObservation", "max_workers", "play_game", "simulate"]

#: A round that takes more steps than this is a bug in a bot or the engine: play_game raises.
#: A limit per round, not per game: a match of many rounds (--rounds, up to 10,000) is no loop.
MAX_STEPS = 200_000


class LazyObservation(Mapping[str, Any]):
    """``state.observation(seat)``, built on first access: a bot that decides without looking
    (one legal action, or the random bot) costs no observation. Read-only. A bot that keeps it
    past its ``act`` without reading it still gets the observation of its step: the simulator
    builds it before that step is applied (else a later first read would show a later position).

    ``LazyObservation(build)`` calls ``build()``; ``LazyObservation(observe, seat)`` calls
    ``observe(seat)`` (what the simulator's loop does: no closure to make every step)."""

    __slots__ = ("_build", "_data", "_seat")

    def __init__(self, build: Callable[..., dict[str, Any]], seat: int | None = None) -> None:
        self._build = build
        self._seat = seat
        self._data: dict[str, Any] | None = None

    def _get(self) -> dict[str, Any]:
        if self._data is None:
            self._data = self._build() if self._seat is None else self._build(self._seat)
        return self._data

    def __getitem__(self, key: str) -> Any:
        return self._get()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._get())

    def __len__(self) -> int:
        return len(self._get())


def _refs_of_a_local() -> int:
    x = object()
    return sys.getrefcount(x)


#: ``sys.getrefcount`` of an object only a local variable holds (2 on CPython 3.11; measured,
#: not assumed, as interpreters count borrowed references differently): more after a bot's
#: ``act`` means the bot kept the observation. None where there is no refcount (build always).
_getrefcount = getattr(sys, "getrefcount", None)
_LOCAL_REFS = _refs_of_a_local() if _getrefcount is not None else 0

_GAME: Any = None
_NATIVE_GREEDY: Any = None
_RULES: dict[str, Rules] = {}


#: The phase of Remi's exchange of doubles (Phase.EXCHANGE, a str enum; RO-3): every seat is
#: asked in it before play, and its steps are not counted as turns.
_EXCHANGE = "exchange"


def _game() -> Any:
    """The engine package, imported on first use so that sim imports without it."""
    global _GAME
    if _GAME is None:
        from .. import game
        _GAME = game
    return _GAME


def _native_greedy() -> Any:
    global _NATIVE_GREEDY
    if _NATIVE_GREEDY is None:
        from ..bots import native_greedy
        _NATIVE_GREEDY = native_greedy
    return _NATIVE_GREEDY


def _parse_rules(spec: str | Rules) -> Rules:
    """``Rules.parse(spec)``, a text parsed once per process (a Rules is immutable)."""
    if not isinstance(spec, str):
        return Rules.parse(spec)
    r = _RULES.get(spec)
    if r is None:
        r = Rules.parse(spec)
        if len(_RULES) >= 256:
            _RULES.clear()
        _RULES[spec] = r
    return r


def _new_game(rules: Rules, seed: int, match_rounds: int | None) -> Any:
    return _game().new_game(rules, seed, match_rounds=match_rounds)


def _seat_list(bots: Any, what: str) -> Sequence[Any]:
    """``bots`` as a list, one per seat (a text 'greedy,random' split at its commas); SimError
    naming ``what`` a seat takes when it is no list (None was "'NoneType' object is not
    iterable")."""
    if isinstance(bots, str):
        bots = bots.split(",")
    if not isinstance(bots, Sequence) or isinstance(bots, bytes):
        raise SimError(f"bots must be a list of {what}, one per seat, or a text "
                       f"'greedy,random,...', got {type(bots).__name__} {bots!r:.40}")
    return bots


def _check_seats(r: Rules, count: int, shown: str = "") -> None:
    """SimError unless one bot was given per seat of ``r`` (``shown``: the bots, for the message)."""
    if count != r.players:
        raise SimError(f"{count} bot{'s' if count != 1 else ''} given{shown} but {r} has "
                       f"{r.players} players: give one bot per seat (or set players=N in the "
                       f"rules)")


def _check_players(r: Rules, bots: Any) -> Sequence[str | Bot]:
    """play_game's ``bots``: one bot name or bot object per seat (a text 'greedy,random' as in
    :func:`simulate`); too few were an IndexError mid-game, a number or bytes an AttributeError."""
    seats: Sequence[str | Bot] = _seat_list(bots, "bot names or bot objects")
    for s, b in enumerate(seats):
        if not isinstance(b, str) and not callable(getattr(b, "act", None)):
            raise SimError(f"seat {s}'s bot {b!r:.40} (of type {type(b).__name__}) is not a bot "
                           f"name or a bot object (one with an act(observation, legal_actions) "
                           f"method)")
    _check_seats(r, len(seats))
    return seats


def _object_name(bot: Any) -> str:
    """A bot object's name in records and errors: its ``name``, or its class's name when it
    keeps the base class's ``"bot"`` (a Bot subclass that sets none was "(bot bot)" in a
    GameFailed)."""
    name = getattr(bot, "name", None)
    return name if isinstance(name, str) and name and name != Bot.name else type(bot).__name__


def play_game(rules: str | Rules, bots: Sequence[str | Bot], seed: int, index: int = 0,
              *, match_rounds: int | None = None, max_steps: int = MAX_STEPS,
              record: str = "summary") -> GameRecord:
    """Play game ``index`` of a run started with ``seed`` and return its record.

    ``bots`` holds bot names (a fresh bot is made per seat, with the seat's derived
    ``random.Random``) or ready bot objects. The deal uses :func:`game_seed` ``(seed, index)``.
    ``record="full"`` keeps the whole game in ``GameRecord.game_record`` (a
    :mod:`rummy101.game.records` dict that replays it). A round that takes more than
    ``max_steps`` steps raises :class:`GameFailed` (a bot or the engine loops).
    """
    _check_record(record)
    # simulate's checks (a float seed was hashed as written, 1.5 dealing a game no run plays;
    # max_steps=0 was a GameFailed blaming the bots for a loop)
    seed, index, max_steps = _whole(seed), _whole(index), _whole(max_steps)
    _check_seed(seed)
    if isinstance(index, bool) or not isinstance(index, int) or index < 0:
        raise SimError(f"index must be a game index, a whole number >= 0, got {index!r}")
    if isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 1:
        raise SimError(f"max_steps must be a whole number >= 1, got {max_steps!r}")
    r = _parse_rules(rules)
    bots = _check_players(r, bots)
    names = [b if isinstance(b, str) else _object_name(b) for b in bots]
    bot_seeds = tuple(bot_seed(seed, index, s) if isinstance(b, str) else None
                      for s, b in enumerate(bots))

    def make_players() -> list[Bot]:
        players = []
        for s, (b, bs) in enumerate(zip(bots, bot_seeds)):
            if not isinstance(b, str):
                players.append(b)
                continue
            try:
                players.append(get_bot(b, random.Random(bs)))
            except BotError:
                raise  # a name that does not resolve here (say, on a worker): it says why
            except Exception as exc:  # the bot's own constructor failed: name the seat
                raise GameFailed(
                    f"game {index} of the run with seed {seed}: making the bot of seat {s} "
                    f"({b}) failed: {type(exc).__name__}: {exc}") from exc
        return players

    # Issue 12: when every round may be played natively the seats' bots (and their seeded
    # random.Random, ~7 us each) are made only if a round falls back to the Python flow; bots
    # made on a shared unseeded generator tell whether the fast path applies.
    native = None
    if r.variant == "rummy101" and all(isinstance(b, str) for b in bots):
        ng = _native_greedy()
        if ng.registered_greedy(bots):  # names the registry maps to GreedyBot: no probes made
            native = ng if ng.native_available() else None
        else:
            try:
                probes = [get_bot(str(b), _PROBE_RNG) for b in bots]
            except Exception:  # noqa: BLE001  (a bot that cannot be made: make_players says why)
                probes = None
            if probes is not None:
                native = _native_rounds(r, bots, probes)
    players = make_players() if native is None else None
    gseed = game_seed(seed, index)
    if match_rounds is None:  # the variant's own match length (classic: to its target, CR-6)
        match_rounds = _game().engine_for(r).DEFAULT_MATCH_ROUNDS
    state = _new_game(r, gseed, match_rounds)
    turns = [0] * len(bots)
    last = -1
    steps = 0
    rnd, round_start = getattr(state, "round", None), 0  # max_steps counts from round_start
    acts = None if players is None else [p.act for p in players]
    observe, legal_actions, apply = state.observation, state.legal_actions, state.apply
    seat = state.current_player
    try:
        while not state.is_terminal:
            if native is not None:
                # Issue 12: the whole round in the C++ core, the same actions as the Python
                # flow (sim/native_round.py); a round it cannot play, or one that would pass
                # max_steps, goes to the Python flow below, as does the rest of the game.
                nr = _native_round(native, state)
                if nr is not None and steps - round_start + nr.steps <= max_steps:
                    if record == "full":
                        native.replay_round(state, nr)
                    elif state.round + 1 >= state.match_rounds:
                        # the game's last round and a summary record: only the round's
                        # scores and results are read from here on, so the end position is
                        # scored as is (racks, openings, turn; R101-13) without rebuilding
                        # the table, stock and history of a State that is thrown away
                        native.score_round(state, nr)
                    else:  # a summary record reads no action history: not decoded
                        native.finish_round(state, nr, history=False)
                    for seat in nr.turn_seats:
                        if seat != last:
                            turns[seat] += 1
                            last = seat
                    steps += nr.steps
                    # the next round counts anew: its starter may be the seat that ended this one
                    rnd, round_start, last = getattr(state, "round", None), steps, -1
                    continue
                native = None
            if acts is None:
                acts = [p.act for p in make_players()]
            seat = state.current_player
            obs = LazyObservation(observe, seat)
            action = acts[seat](obs, legal_actions())
            if obs._data is None and (_getrefcount is None or _getrefcount(obs) > _LOCAL_REFS):
                obs._get()  # the bot kept it unread: build it now, the observation of its step
            exchange = getattr(state, "phase", None) == _EXCHANGE
            apply(action)
            if exchange:  # RO-3's exchange of doubles comes before play: it is no turn
                last = -1
            elif seat != last:
                turns[seat] += 1
                last = seat
            steps += 1
            if getattr(state, "round", None) != rnd:  # a round ended: the next one counts anew
                # (its turns too: the seat that ended a round may start the next, a new turn)
                rnd, round_start, last = getattr(state, "round", None), steps, -1
            elif steps - round_start > max_steps:
                # the last actions show the loop (a bot that lays melds and takes them back
                # with reset for ever, docs/bots.md), which the step count alone did not
                shown = last_actions(getattr(state, "history", ()))
                raise RuntimeError(f"round {rnd} did not end within {max_steps} steps: a bot "
                                   f"or the engine loops; the last actions: {shown}")
    except GameFailed:
        raise
    except Exception as exc:  # any failure inside a game names where it happened
        raise GameFailed(
            f"game {index} of the run with seed {seed} (game seed {gseed}, {r}), step {steps}, "
            f"seat {seat} ({names[seat]} bot): {type(exc).__name__}: {exc}. Replay it with "
            f"rummy101.game.new_game({str(r)!r}, {gseed}, match_rounds={match_rounds}) and the "
            f"{steps} actions so far; the bots' seeds are "
            f"rummy101.sim.bot_seed({seed}, {index}, seat)") from exc
    round_scores = tuple(tuple(int(v) for v in rs) for rs in state.round_scores())
    standings = tuple(int(v) for v in state.standings())
    top = max(standings)
    best = standings.index(top) if standings.count(top) == 1 else None
    finishes, finishers = round_finishes(state)
    full = None
    if record == "full":
        from ..game import records
        full = records.to_dict(state)
    return GameRecord(game=index, seed=gseed, rules=str(r), bots=tuple(names), scores=standings,
                      round_scores=round_scores, best=best, finishes=finishes,
                      finishers=finishers, turns=tuple(turns), steps=steps, run_seed=seed,
                      bot_seeds=bot_seeds, game_record=full,
                      match_rounds=match_rounds,  # the one new_game got: a classic cap too
                      rummy101_version=__version__)


_PROBE_RNG = random.Random(0)


def _native_rounds(rules: Rules, bots: Sequence[str | Bot], players: Sequence[Bot]) -> Any:
    """The native greedy-round module when this game's rounds may be played by it (every seat
    the registered ``greedy`` bot by name, rummy101 with any options, the native backend,
    ``RUMMY101_NATIVE_ROUNDS`` not ``0``), else None."""
    if rules.variant != "rummy101":
        return None
    native_round = _native_greedy()
    return native_round if native_round.fast_path_applies(rules, bots, players) else None


def _native_round(native: Any, state: Any) -> Any:
    """The state's round played natively, or None where it cannot be (not at a turn boundary,
    or the core raised: the Python flow then plays it and raises what it raises)."""
    if not native.at_turn_boundary(state):
        return None
    try:
        return native.play_round(state)
    except (RuntimeError, ValueError, WorkBudgetExceeded):  # the core's errors
        return None


def _check_record(record: str) -> None:
    if record not in RECORD_KINDS:
        raise SimError(f"record must be one of {', '.join(map(repr, RECORD_KINDS))}, "
                       f"got {record!r}")


class _StopState:
    """A pool worker's stop state (:func:`_worker_start` installs :func:`_on_stop_signal` for
    SIGINT and SIGTERM in the run's own workers)."""

    __slots__ = ("active", "asked")

    def __init__(self) -> None:
        self.active = False  # in a chunk's games: a stop signal raises KeyboardInterrupt there
        self.asked = False  # a stop signal came: the chunks from now on play no game


_STOP = _StopState()


def _on_stop_signal(signum: int, frame: Any) -> None:
    """A pool worker's SIGINT and SIGTERM: the run stops (a terminal's Ctrl-C reaches the whole
    process group, a batch system's SIGTERM every process of the job, and the run sends SIGINT
    to its workers when it is stopped). In a chunk's games it raises KeyboardInterrupt, once:
    the game being played is abandoned and the chunk hands back the games it finished
    (:func:`_play_chunk`). Anywhere else (waiting for work, sending a result back) it only
    notes the stop, so that the pool's own reads and writes are never cut."""
    _STOP.asked = True
    if _STOP.active:
        _STOP.active = False
        raise KeyboardInterrupt


def _play_chunk(rules: str, bots: tuple[str, ...], seed: int, start: int, stop: int,
                match_rounds: int | None, backend: str, record: str = "summary",
                stop_file: str | None = None) -> tuple[list[GameRecord], float, bool]:
    """Worker task: play games ``start..stop-1`` on ``backend`` (runs in any executor); their
    records, the seconds they took here (what sizes the next chunks, :class:`_Chunks`) and
    whether the chunk was cut. A KeyboardInterrupt (the stop signal of the run's own workers,
    :func:`_on_stop_signal`, or a Ctrl-C raised in the task) cuts it: the game being played is
    abandoned and the records are those of the games ``start..`` finished before it, which the
    run keeps when they continue its games without a gap (a serial run keeps its batch the
    same way). A worker stopped before the chunk begins plays none of it. On a caller's
    executor, whose workers the run does not signal, the run asks its chunks to stop by
    creating ``stop_file`` (:func:`_stop_file`): a chunk looks for it before each game and,
    once it is there, stops as a signalled one does, the game being played finished first."""
    if _backend.backend_name() != backend:
        _backend.set_backend(backend)
    began = time.perf_counter()
    records: list[GameRecord] = []
    cut = False
    try:
        try:
            _STOP.active = True  # (inside the try: a signal from here on is caught below)
            for i in range(start, stop):
                if _STOP.asked or (stop_file is not None and os.path.exists(stop_file)):
                    cut = True
                    break
                records.append(play_game(rules, bots, seed, i, match_rounds=match_rounds,
                                         record=record))
        finally:
            _STOP.active = False
    except KeyboardInterrupt:
        cut = True
    took = time.perf_counter() - began
    if not cut:  # (a stopped worker answers at once)
        release_free_memory()
    return records, took, cut


_MALLOC_TRIM: Any = None  # glibc's malloc_trim once looked up; False where the C library has none


def release_free_memory() -> None:
    """Hand the C heap's free pages back to the system (glibc ``malloc_trim(0)``; elsewhere
    nothing), once per chunk (:func:`_play_chunk`, :func:`_run_serial`: ~0.5 s of games, at most
    64). glibc keeps what the native solver and Python free inside its heap: a Remi
    ``greedy,random`` worker held ~14 MB of it after 15,000 games (docs/simulation.md, Memory);
    the games are the same either way."""
    global _MALLOC_TRIM
    if _MALLOC_TRIM is None:
        try:
            import ctypes

            trim = ctypes.CDLL(None).malloc_trim
            trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
            _MALLOC_TRIM = trim
        except (OSError, AttributeError, TypeError):  # not glibc (musl, macOS, Windows)
            _MALLOC_TRIM = False
    if _MALLOC_TRIM:
        _MALLOC_TRIM(0)


#: Games one :func:`simulate` run plays when it keeps the records (the default): every game's
#: summary stays in the result (measured with tracemalloc: ~1.1 KB a Rummy 101 game, a classic
#: match of ~28 rounds a few KB), so ten million need ~11 GB.
MAX_GAMES = 10_000_000
#: Games one run plays with ``keep_records=False`` (what ``rummy101 sim`` does): its memory does
#: not grow with the games (the chunks are made and handed out as the workers take them), so
#: this only refuses a count no run could finish (10**12 games at 10,000 a second is 3 years;
#: ``games=10**20`` once grew 1.5 GB of chunks before a single game).
MAX_STREAMED_GAMES = 1_000_000_000_000


def max_workers() -> int:
    """Worker processes :func:`simulate` starts at most: 4 per CPU (``workers=100000`` once
    forked until the machine's load average passed 70)."""
    return 4 * (os.cpu_count() or 1)


def _check_args(rules: str | Rules, bots: str | Sequence[str], games: int, workers: int | None,
                match_rounds: int | None, *, keep_records: bool = True
                ) -> tuple[Rules, tuple[str, ...]]:
    # (its errors say what is wrong and, for a variant, which there are: wrapped in "unknown
    # rules for simulation: ... (accepted variants: ...)" a bad option value of a known
    # variant read as unknown rules, and the variants were listed twice)
    r = Rules.parse(rules)
    _new_game(r, 0, 1)  # a variant the engine does not play yet fails here, naming those it plays
    bots = _seat_list(bots, "bot names")
    for s, b in enumerate(bots):
        if not isinstance(b, str):
            raise SimError(f"bots are names, one per seat (registered, an installed entry point "
                           f"or 'package.module:BotClass'); seat {s} is a {type(b).__name__} "
                           f"object: simulate makes each game's bots from their names and "
                           f"seeds, in its workers; play_game takes bot objects")
    # registered names are case-insensitive; 'package.module:BotClass' paths keep their case
    names = tuple(b.strip() if ":" in b else b.strip().lower() for b in bots)
    bad = []
    for b in dict.fromkeys(names):
        try:
            get_bot(b)  # resolves registered names, entry points and module paths, here and now
        except BotError as exc:
            bad.append((b, exc))
        except Exception as exc:  # noqa: BLE001  (the bot's own constructor raised)
            bad.append((b, BotError(f"bot {b!r}: making it with a random.Random failed: "
                                    f"{type(exc).__name__}: {exc}")))
    unknown = [b for b, e in bad if str(e).startswith("unknown bot")]
    if unknown:
        # 'search(playouts=3,turns=0)': the options in parentheses, cut in two at their comma
        paren = next((k for k, b in enumerate(unknown) if "(" in b), len(unknown))
        raise SimError(f"unknown bot name{'s' if len(unknown) > 1 else ''} "
                       f"{', '.join(map(repr, unknown))} in {','.join(names)!r}; accepted bots: "
                       f"{', '.join(bot_names())}, an installed 'rummy101.bots' entry point, or "
                       "'package.module:BotClass'" + options_hint(",".join(unknown[paren:])))
    if bad:
        name, error = bad[0]
        msg = str(error) if repr(name) in str(error) else f"bot {name!r}: {error}"
        raise SimError(f"{msg} (in the bots {','.join(names)!r})")
    _check_seats(r, len(names), f" ({','.join(names)})")
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise SimError(f"games must be a whole number >= 1, got {games!r}")
    if games > MAX_GAMES and keep_records:
        raise SimError(f"games={games} is more than one run holds: at most {MAX_GAMES:,} (every "
                       f"game's summary is kept in the result, about 1 KB a Rummy 101 game); "
                       f"give keep_records=False (the stats and the summary cover every game, "
                       f"on_records still sees each one) or run several simulations with "
                       f"different seeds")
    if games > MAX_STREAMED_GAMES:
        raise SimError(f"games={games} is more than one run can play: at most "
                       f"{MAX_STREAMED_GAMES:,}; run several simulations with different seeds "
                       f"instead")
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        raise SimError(f"workers must be a whole number >= 1, got {workers!r}")
    if workers is not None and workers > max_workers():
        raise SimError(f"workers={workers} would start {workers} processes on "
                       f"{os.cpu_count() or 1} CPU(s): give at most {max_workers()} (4 per CPU)")
    if match_rounds is not None and (isinstance(match_rounds, bool) or not isinstance(match_rounds, int)
                                     or match_rounds < 1):
        raise SimError(f"match_rounds must be a whole number >= 1, got {match_rounds!r}")
    return r, names


#: Seconds a chunk of games is sized to take on its worker (:class:`_Chunks`), and a serial
#: run's batch at most: the progress display moves whatever the bots' speed (the search bot
#: plays a game in ~0.3-2 s; a fixed 64-game chunk held its games ~40 s). A pool run stopped
#: by Ctrl-C keeps every game before the first unfinished one, and drops those finished after
#: it, which would leave a gap (:func:`_run_pool`).
CHUNK_SECONDS = 0.5
#: Games in a chunk at most (fast bots: a game takes ~1 ms, a chunk ~60 ms).
CHUNK_GAMES = 64


class _Chunks:
    """Games ``start..games-1`` cut into consecutive chunks ``(k, first, stop)``, each made when
    the run asks for the next (:meth:`take`): a run of 10**9 games holds no list of them.

    A chunk is sized by the time the games measured so far took (:meth:`timed`, fed with what
    the workers report): about :data:`CHUNK_SECONDS` of games, at most ``cap`` (64, and an
    eighth of each worker's share so that a short run is spread), at least one. The first chunk
    holds one game and a chunk at most twice the games of the largest one measured, so a size
    grows from measurements, never from a guess. The records do not depend on the cut: each
    game is seeded by its index alone (:func:`game_seed`, :func:`bot_seed`)."""

    def __init__(self, games: int, workers: int, start: int = 0) -> None:
        self.games = games
        self.cap = max(1, min(CHUNK_GAMES, (games - start) // (workers * 8) or 1))
        self.first = start  # the first game of the next chunk
        self.made = 0  # chunks made: the next one's index
        self.measured = 0  # games in the largest chunk measured
        self.per_game: float | None = None  # seconds a game, smoothed over the chunks measured

    def size(self) -> int:
        """The games of the next chunk (before the run's end cuts it)."""
        if self.per_game is None:
            return 1
        fits = self.cap if self.per_game <= 0 else int(CHUNK_SECONDS / self.per_game)
        return max(1, min(self.cap, 2 * self.measured, fits))

    def take(self) -> tuple[int, int, int] | None:
        """The next chunk ``(k, first, stop)``, None once every game has one."""
        if self.first >= self.games:
            return None
        k, a = self.made, self.first
        b = min(self.games, a + self.size())
        self.made, self.first = k + 1, b
        return k, a, b

    def timed(self, games: int, seconds: float) -> None:
        """A chunk of ``games`` games took ``seconds`` on its worker."""
        if games < 1:
            return
        self.measured = max(self.measured, games)
        per = max(0.0, seconds) / games
        self.per_game = per if self.per_game is None else (self.per_game + per) / 2


_chunks = _Chunks


class _Deferred:
    """Ctrl-C held back while the games of a chunk are handed on and counted (``with guard:``),
    raised as KeyboardInterrupt at the end of it; elsewhere raised at once. A serial run
    installs :meth:`handler` for SIGINT, so that an interrupt never lands between a batch
    written by ``on_records`` and its games counted in the tally (both or neither)."""

    def __init__(self) -> None:
        self.depth = 0
        self.pending = False

    def handler(self, signum: int, frame: Any) -> None:
        if self.depth:
            self.pending = True
            return
        raise KeyboardInterrupt

    def __enter__(self) -> None:
        self.depth += 1

    def __exit__(self, *exc: object) -> None:
        self.depth -= 1
        if not self.depth and self.pending:
            self.pending = False
            if exc[0] is None:
                raise KeyboardInterrupt


class _InOrder(dict[int, list[GameRecord]]):
    """Chunk index -> its records, as :func:`_run_chunks` fills it; each chunk is also handed to
    ``sink`` as soon as every chunk before it is in, so ``sink`` sees the games in game order
    without a gap (what ``simulate(on_records=...)`` promises). Without ``keep`` a chunk's games
    are added to ``tally`` once the sink has taken them, and the chunk is dropped (``dropped``
    counts them, chunks 0 to dropped-1): the run's memory does not grow with its games."""

    def __init__(self, sink: Callable[[list[GameRecord]], object] | None, keep: bool = True,
                 seats: int = 0) -> None:
        super().__init__()
        self.sink = sink
        self.keep = keep
        self.tally = GameTally(seats)
        self.next = 0
        self.dropped = 0
        self.guard = _Deferred()
        self.failed = False  # the sink raised: it is handed nothing more

    def __setitem__(self, k: int, records: list[GameRecord]) -> None:
        super().__setitem__(k, records)
        if self.sink is None and self.keep or self.failed:
            return
        while self.next in self:
            with self.guard:
                k = self.next
                self.next += 1  # first: a sink that raises is not called twice for a chunk
                batch = self[k]
                if self.sink is not None:
                    try:
                        self.sink(batch)
                    except BaseException:
                        # what it raises stops the run: the chunks a pool finished meanwhile
                        # (stored while the run winds down) are not handed on after it, which
                        # once wrote the next batch to --out after a failed one, a gap
                        self.failed = True
                        raise
                if not self.keep:
                    self.tally.add_all(batch)
                    del self[k]
                    self.dropped += 1

    def finished(self) -> tuple[list[GameRecord], GameTally]:
        """The games finished from the run's first game on without a gap: the records still
        held (all of them with ``keep``; without it, those of chunks the sink did not take)
        and the tally of every one of them."""
        held: list[GameRecord] = []
        k = self.dropped
        while k in self:
            held += self[k]
            k += 1
        self.tally.add_all(held)  # (the run is over: nothing is added after this)
        return held, self.tally


#: seconds between progress lines when standard error is not a terminal (a log file, nohup)
LOG_EVERY_SECONDS = 60.0


#: the progress bar's smoothing of its rate and ETA (tqdm's exponential moving average, by
#: refresh: 0.05 weighs about the last 20; tqdm's default 0.3 weighs 3, jumpy with bursty chunks)
BAR_SMOOTHING = 0.05


class _LogLines:
    """Progress for a standard error that is not a terminal (a run under nohup or logged to a
    file, where a bar's carriage returns make one endless line): a plain line at most every
    :data:`LOG_EVERY_SECONDS`, none for a run that ends sooner."""

    def __init__(self, total: int, start: int = 0) -> None:
        self.total, self.done, self.first = total, start, start
        self.start = self.last = time.monotonic()

    def update(self, n: int) -> None:
        self.done += n
        now = time.monotonic()
        if now - self.last < LOG_EVERY_SECONDS or self.done >= self.total:
            return
        self.last = now
        spent = now - self.start
        played = self.done - self.first  # this run's games (a resumed run's start is not)
        left = spent * (self.total - self.done) / played if played else float("nan")
        print(f"sim: {self.done:,}/{self.total:,} games ({self.done / self.total:.1%}), "
              f"{spent:,.0f} s so far, about {left:,.0f} s left", file=sys.stderr, flush=True)

    def close(self) -> None:
        pass


def _progress(total: int, enabled: bool, start: int = 0) -> Any:
    """The progress display of games ``start..total-1`` (a resumed run's bar starts at
    ``start`` of ``total``)."""
    if not enabled:
        return None
    if not sys.stderr.isatty():
        return _LogLines(total, start)
    from tqdm import tqdm  # type: ignore[import-untyped]
    try:
        size = os.get_terminal_size(sys.stderr.fileno())
    except (AttributeError, OSError, ValueError):
        size = os.terminal_size((0, 0))

    class Bar(tqdm):  # type: ignore[misc]
        # no monitor thread: the pool forks its workers after the bar is drawn, and a fork in a
        # process with a second thread is unsafe (the child gets its locks as they were;
        # DeprecationWarning from Python 3.12). The monitor only redraws a bar whose miniters
        # grew; miniters=1 redraws on every update (a chunk's games), mininterval apart.
        monitor_interval = 0

    # The rate (and the ETA) averages over about 20 refreshes, not tqdm's default 3 (smoothing
    # 0.3): the workers' chunks arrive in bursts, and the default showed 0.6 to 2.2 times the
    # rate of the last 10 s on a 100,000-game run (its ETA went 6:47, 8:12, 10:05 in 2 s).
    kw = {"total": total, "initial": start, "unit": "game", "file": sys.stderr, "miniters": 1,
          "smoothing": BAR_SMOOTHING}
    if 0 in size:  # a terminal that reports no size: tqdm would draw a bar 0 wide, or hide it
        return Bar(**kw, ncols=size.columns or 80, nrows=size.lines or 24)
    return Bar(**kw, dynamic_ncols=True)


def simulate(rules: str | Rules, bots: str | Sequence[str], games: int, seed: int = 0, *,
             workers: int | None = None, executor: cf.Executor | None = None,
             progress: bool = True, match_rounds: int | None = None,
             record: str = "summary", start: int = 0,
             on_records: Callable[[list[GameRecord]], object] | None = None,
             keep_records: bool = True) -> SimResult:
    """Play ``games`` seeded games of ``rules`` between ``bots`` (one name per seat).

    * ``workers``: processes of the default pool (default: the CPU count); ``1`` plays in this
      process without a pool.
    * ``executor``: any :class:`concurrent.futures.Executor` to run on instead (a
      ``ThreadPoolExecutor``, a ``ProcessPoolExecutor``, or Dask's ``client.get_executor()``);
      it is not shut down. ``workers`` then only bounds the chunks (their games, and how many
      are in flight). A stop (Ctrl-C) signals none of its workers: it cancels the chunks not
      begun and waits up to :data:`STOP_SECONDS` for those running, which stop before their
      next game (docs/simulation.md, "Ctrl-C").
    * ``progress``: a tqdm bar on standard error when it is a terminal; otherwise (a log file,
      nohup) a plain line at most every :data:`LOG_EVERY_SECONDS` (60 s) of a longer run.
    * ``match_rounds``: rounds per game (a match; ``best`` is the best cumulative standing);
      default the variant's (one round of rummy101 and remi; classic plays to its target,
      CR-6, with this as a cap when given).
    * ``record``: ``"summary"`` (default) or ``"full"``: also keep each whole game
      (``GameRecord.game_record``; its JSONL line replays with ``rummy101.game.records.loads``).
    * ``start``: play only games ``start..games-1`` (each the same game as in a run from 0:
      how ``rummy101 sim --resume`` continues a cut run); the result holds those games.
    * ``on_records``: called with each batch of finished records in game order, without a gap,
      as soon as they are ready (``rummy101 sim --out`` writes them as they come, so a killed
      run keeps them); what it raises stops the run and propagates.
    * ``keep_records``: ``False`` drops each game's record once ``on_records`` has taken it
      and it is counted: the result's ``records`` is empty (after a Ctrl-C, it holds the
      finished games ``on_records`` did not take), its stats and summary cover every game, and
      the run's memory does not grow with ``games`` (up to :data:`MAX_STREAMED_GAMES`, against
      :data:`MAX_GAMES` kept). ``rummy101 sim`` runs this way.

    The result is identical for a given ``seed`` whatever ``workers`` and ``executor`` are, and
    however the games are cut: chunks of about :data:`CHUNK_SECONDS` of games at the speed
    measured, one game to 64 (docs/simulation.md, "Chunks").

    Raises :class:`SimError` for bad bot names, ``games`` outside 1..:data:`MAX_GAMES` (kept),
    ``workers`` outside 1..:func:`max_workers`, ``start`` outside 0..games-1, and
    :class:`~rummy101.errors.RulesError` (listing the variants) for unknown rules.
    """
    games, workers, match_rounds, seed, start = (
        _whole(games), _whole(workers), _whole(match_rounds), _whole(seed), _whole(start))
    if not isinstance(keep_records, bool):
        raise SimError(f"keep_records must be True or False, got {keep_records!r}")
    r, names = _check_args(rules, bots, games, workers, match_rounds, keep_records=keep_records)
    _check_record(record)
    _check_seed(seed)
    if isinstance(start, bool) or not isinstance(start, int) or not 0 <= start < games:
        raise SimError(f"start must be a game index from 0 to games-1 = {games - 1}, "
                       f"got {start!r}")
    nworkers = min(games - start, workers if workers is not None else (os.cpu_count() or 1))
    chunks = _chunks(games, nworkers if executor is None else max(nworkers, 4), start)
    backend = _backend.backend_name()
    args = (str(r), names, seed)
    bar = _progress(games, progress, start)
    results = _InOrder(on_records, keep_records, len(names))
    try:
        _run_chunks(chunks, args, match_rounds, backend, record, nworkers, executor, bar,
                    results)
    except KeyboardInterrupt as exc:
        if isinstance(exc, SimInterrupted):
            raise
        done, tally = results.finished()  # from game start on, without a gap
        raise SimInterrupted(_result(r, names, seed, done, tally) if tally.games else None,
                             games) from None
    done, tally = results.finished()
    return _result(r, names, seed, done, tally)


def _check_seed(seed: Any) -> None:
    """A base seed as simulate and play_game take it (the CLI's range too: a file written with
    another seed could not be resumed there)."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= SEED_MAX:
        raise SimError(f"seed must be a whole number from 0 to 2**63 - 1, got {seed!r}")


def _whole(value: Any) -> Any:
    """A numpy integer as the int it is (``for seed in np.arange(3)``); anything else as it
    is, for the checks to judge (a bool, a float or a string stays refused)."""
    w = whole_number(value)
    return value if w is None else w


def _result(r: Rules, names: tuple[str, ...], seed: int, records: list[GameRecord],
            tally: GameTally | None = None) -> SimResult:
    """The result of ``records`` (or of the games ``tally`` counted, when given)."""
    if tally is None:
        tally = GameTally(len(names))
        tally.add_all(records)
    return SimResult(rules=str(r), bots=names, seed=seed, records=records,
                     seats=tally.seat_stats(names), ties=tally.ties,
                     finish_counts=tally.endings(), tally=tally)


#: Seconds an interrupted pool run waits for its own workers to hand back the games they had
#: finished (a signal tells them; they answer at once, abandoning the game being played). A
#: worker that has not answered by then (stuck in a long native call, or a bot that swallows
#: KeyboardInterrupt) is killed and its chunk lost; a second Ctrl-C kills them at once.
STOP_SECONDS = 2.0


class _Whole:
    """The chunks read whole so far, as the first one not read (``first``) and the ones read
    beyond it (a few, those finished out of order): a long run holds no set of all of them."""

    __slots__ = ("beyond", "first")

    def __init__(self) -> None:
        self.first = 0
        self.beyond: set[int] = set()

    def add(self, k: int) -> None:
        self.beyond.add(k)
        while self.first in self.beyond:
            self.beyond.remove(self.first)
            self.first += 1


def _run_pool(chunks: _Chunks, args: tuple[str, tuple[str, ...], int],
              match_rounds: int | None, backend: str, record: str, nworkers: int,
              executor: cf.Executor | None, bar: Any, results: dict[int, list[GameRecord]]) -> None:
    """The chunks on an executor. Ctrl-C only raises a flag here (checked between short waits),
    so that no KeyboardInterrupt lands inside the executor's locks: one raised there (a second
    Ctrl-C while the first is handled) can leave a future's lock held and hang the shutdown.

    On Ctrl-C (or a chunk cut by a worker's own stop signal, :func:`_on_stop_signal`: a
    terminal's Ctrl-C and a batch system's SIGTERM reach the workers too) the run's own workers
    are told to stop (SIGINT to each, which SIGTERM to the run alone does not send) and hand
    back the games they finished, the game being played abandoned; then they are killed (by
    :data:`STOP_SECONDS` at the latest, answered or not). ``results`` then holds the chunks read whole, and
    the games the first chunk not read whole had finished (a chunk after it would leave a gap),
    then KeyboardInterrupt. A caller's executor's workers are not signalled (nor killed): the
    chunks not begun are cancelled and those running asked to stop through a file they look
    for before each game (:func:`_ask_to_stop`); the chunks they hand back within
    :data:`STOP_SECONDS` (whole or cut) are kept the same way, and the executor is left idle."""
    hits = 0  # Ctrl-Cs so far (rummy101 sim turns SIGTERM into one)

    def on_sigint(signum: int, frame: Any) -> None:
        nonlocal hits
        hits += 1

    old = (signal.signal(signal.SIGINT, on_sigint)
           if threading.current_thread() is threading.main_thread() else None)
    own = executor is None
    ex = (cf.ProcessPoolExecutor(max_workers=nworkers, initializer=_worker_start,
                                 initargs=(os.getpid(),))
          if executor is None else executor)
    stop_file = None if own else _stop_file()  # how a caller's workers are told to stop
    # the chunks not yet read, submitted as the earlier ones finish: a few per worker in
    # flight, so that a long run holds no future per chunk and few finished out of order.
    # Each chunk is sized when submitted, from the chunks measured by then: the chunks in
    # flight start at two a worker and grow by one with each chunk read, so that the sizes
    # grow from measurements (a full window of one-game chunks is not submitted blind).
    futures: dict[cf.Future[tuple[list[GameRecord], float, bool]], tuple[int, int, int]] = {}
    window = max(16 * nworkers, 256)
    read = 0  # chunks read
    whole = _Whole()  # the chunks read whole
    cut: dict[int, list[GameRecord]] = {}  # chunks a stop cut: the games they had finished
    interrupted = False  # a chunk was cut, or failed with KeyboardInterrupt
    kill = False  # interrupted: the own workers are killed once they answered (or not)
    # A game that fails (GameFailed) stops the run at the first failing chunk in game order,
    # not at whichever failed first on the pool: the chunks before it are still read (and
    # handed on in order), those after it dropped. So the error names the same game whatever
    # the workers (two failing games on two workers named either), and --out keeps every game
    # before the failing chunk.
    failure: tuple[int, BaseException] | None = None
    try:
        while not (interrupted or hits):
            while (len(futures) < min(window, 2 * nworkers + read) and not (interrupted or hits)
                   and failure is None):
                chunk = chunks.take()
                if chunk is None:
                    break
                k, a, b = chunk
                futures[ex.submit(_play_chunk, *args, a, b, match_rounds, backend,
                                  record, stop_file)] = chunk
            if not futures:
                break
            done, _ = cf.wait(futures, timeout=0.25, return_when=cf.FIRST_COMPLETED)
            for fut in sorted(done, key=futures.__getitem__):
                if fut not in futures:
                    continue  # a chunk after a failing one, dropped below
                k, a, b = futures.pop(fut)
                try:
                    records, seconds, was_cut = fut.result()
                except BaseException as exc:  # noqa: BLE001  (kept: the earliest is raised below)
                    if not (interrupted or hits or isinstance(exc, KeyboardInterrupt)):
                        if failure is None or k < failure[0]:
                            failure = (k, exc)
                        for f, j in list(futures.items()):  # not needed: the run stops
                            if j[0] > k:
                                f.cancel()
                                del futures[f]
                        continue
                    interrupted = True
                    continue
                if was_cut:  # its worker was stopped (the signal reached it first)
                    cut[k] = records
                    interrupted = True
                    continue
                read += 1
                chunks.timed(b - a, seconds)
                whole.add(k)
                results[k] = records  # outside the try: what on_records raises propagates
                if bar is not None:
                    bar.update(b - a)
        if interrupted or hits:
            raise KeyboardInterrupt
        if failure is not None:
            raise failure[1]
    except BaseException as exc:
        if own and isinstance(exc, KeyboardInterrupt):
            _stop_and_wait(ex, futures, lambda: hits)
            # then killed, even those that answered: a spawned worker that exits by itself
            # tears its interpreter down, ~1 s more before the run could say a word
            kill = True
        else:  # (stopped workers fail their futures; a future cancelled here as well made
            for f in futures:  # Python 3.11's pool thread raise InvalidStateError)
                f.cancel()
            if stop_file is not None:  # a caller's executor: its workers are not signalled
                _ask_to_stop(stop_file, futures, lambda: hits)
        for f, (k, _, _) in sorted(futures.items(), key=lambda item: item[1]):
            if f.done() and not f.cancelled() and f.exception() is None:
                records, _, was_cut = f.result()  # chunks done but not yet read
                if was_cut:
                    cut[k] = records
                else:
                    whole.add(k)
                    results[k] = records
        first = whole.first  # the first chunk not read whole: its finished games continue
        if isinstance(exc, KeyboardInterrupt) and cut.get(first):  # the run without a gap
            for later in [j for j in results if j > first]:  # (held: never handed on)
                del results[later]
            results[first] = cut[first]
        raise
    finally:
        try:
            if kill:
                _stop_workers(ex)
            if own:
                ex.shutdown(wait=True, cancel_futures=True)
        finally:
            if stop_file is not None:
                with contextlib.suppress(OSError):
                    os.remove(stop_file)
            if old is not None:
                signal.signal(signal.SIGINT, old)


def _stop_file() -> str:
    """A path no file has yet, unique to one run, in the temporary folder: the run creates the
    file to ask the chunks it gave a caller's executor to stop (:func:`_play_chunk`,
    :func:`_ask_to_stop`), and removes it when it ends. A file, not a signal or an event:
    threads and processes of this machine see it alike, and the caller's workers are theirs,
    not the run's to signal."""
    import tempfile
    import uuid

    return os.path.join(tempfile.gettempdir(), f"rummy101-sim-stop-{os.getpid()}-{uuid.uuid4().hex}")


def _ask_to_stop(stop_file: str, futures: Mapping[cf.Future[Any], Any],
                 hits: Callable[[], int]) -> None:
    """A stopped run on a caller's executor (its chunks not yet begun cancelled): create
    ``stop_file``, so that each chunk still running stops before its next game and hands back
    the games it finished, and wait up to :data:`STOP_SECONDS` for them (or until another
    Ctrl-C, ``hits()`` past the one that stopped the run). So the run returns with the
    caller's executor idle, its workers alive and not signalled, rather than busy for a while
    with chunks whose games the run would throw away. A chunk that does not come back in time
    (a game longer than that, or workers that cannot see the file: Dask workers on other
    machines) finishes unread, in the background, as before."""
    seen = max(hits(), 1)
    try:
        with open(stop_file, "x"):
            pass
    except OSError:  # (a temporary folder that refuses it: the chunks run on, unread)
        return
    _wait_for_chunks(futures, hits, seen)


def _wait_for_chunks(futures: Mapping[cf.Future[Any], Any], hits: Callable[[], int],
                     seen: int) -> None:
    """Wait up to :data:`STOP_SECONDS` for the chunks in flight of a stopped run to come back,
    or until a Ctrl-C past the ``seen`` ones (``hits()``)."""
    deadline = time.monotonic() + STOP_SECONDS
    pending = [f for f in futures if not f.done()]
    while pending and hits() <= seen:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        pending = list(cf.wait(pending, timeout=min(0.1, left))[1])


def _stop_and_wait(ex: cf.Executor, futures: Mapping[cf.Future[Any], Any],
                   hits: Callable[[], int]) -> None:
    """Tell the run's own pool workers to stop (SIGINT to each: :func:`_on_stop_signal` cuts
    the chunk being played and makes every later one play nothing) and wait up to
    :data:`STOP_SECONDS` for every chunk in flight to come back, or until another Ctrl-C
    (``hits()`` past the first). The caller kills them then, answered or not
    (:func:`_stop_workers`)."""
    seen = max(hits(), 1)
    for process in list((getattr(ex, "_processes", None) or {}).values()):
        with contextlib.suppress(OSError, ValueError):  # (one that has exited already)
            os.kill(process.pid, signal.SIGINT)
    _wait_for_chunks(futures, hits, seen)


def _stop_workers(ex: cf.Executor) -> None:
    """Kill the run's own pool workers once they were told to stop (:func:`_stop_and_wait`):
    those that did not answer, and the others at once rather than waiting for them to exit.
    Waiting for their chunks finished the chunks they had started or had queued, games the
    interrupted run throws away: two minutes of search-bot games before the summary came,
    with a second Ctrl-C ignored. SIGKILL, as a worker handles SIGTERM as a stop signal."""
    kill = getattr(ex, "kill_workers", None)  # Python >= 3.14
    if kill is not None:
        kill()
        return
    for process in list((getattr(ex, "_processes", None) or {}).values()):
        process.kill()


def _worker_start(parent: int) -> None:
    """Pool worker start-up of the run's own pool: SIGINT and SIGTERM stop the worker's chunks
    (:func:`_on_stop_signal`; a forked worker inherited the run's handlers, which raise a flag
    in the run, not in the worker), and the worker dies with the run (:func:`_die_with_parent`).
    """
    _STOP.active = _STOP.asked = False
    signal.signal(signal.SIGINT, _on_stop_signal)
    signal.signal(signal.SIGTERM, _on_stop_signal)
    _die_with_parent(parent)


def _die_with_parent(parent: int) -> None:
    """Pool worker start-up (Linux): the worker is killed when the run's process dies, even by
    ``kill -9``. A forked worker otherwise outlives it, waiting for work forever, and holds a
    copy of the --out file's lock, so that ``--resume`` would find the file still being
    written. A worker a fork server started (the default start method on Linux from Python
    3.14) is not the run's child: it is left as it is (its parent is the fork server)."""
    if os.getppid() != parent:
        return
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # not Linux: no such call
        return
    if os.getppid() != parent:  # the run died before the call above
        os._exit(1)


def _run_chunks(chunks: _Chunks, args: tuple[str, tuple[str, ...], int],
                match_rounds: int | None, backend: str, record: str, nworkers: int,
                executor: cf.Executor | None, bar: Any, results: dict[int, list[GameRecord]]) -> None:
    """Play the chunks into ``results`` (chunk index -> its records), on this process or an
    executor; on Ctrl-C ``results`` holds the chunks that had finished."""
    try:
        if executor is None and nworkers == 1:
            guard = getattr(results, "guard", None)
            old = (signal.signal(signal.SIGINT, guard.handler)
                   if guard is not None and threading.current_thread() is threading.main_thread()
                   and signal.getsignal(signal.SIGINT) is signal.default_int_handler else None)
            try:
                _run_serial(chunks, args, match_rounds, record, bar, results)
            finally:
                if old is not None:
                    signal.signal(signal.SIGINT, old)
        else:
            _run_pool(chunks, args, match_rounds, backend, record, nworkers, executor, bar,
                      results)
    finally:
        if bar is not None:
            bar.close()


def _run_serial(chunks: _Chunks, args: tuple[str, tuple[str, ...], int],
                match_rounds: int | None, record: str, bar: Any,
                results: dict[int, list[GameRecord]]) -> None:
    """The games in this process, one by one, handed on in batches (``results[k]``) of
    ``chunks.cap`` games or of the games played within :data:`CHUNK_SECONDS`, whichever comes
    first. A Ctrl-C hands on the batch begun, so the run keeps every game finished before it
    (the one being played is lost). A batch is handed on and counted with Ctrl-C held back
    (``results.guard``), so that the interrupt does not hand it on twice, nor lose it."""
    guard: Any = getattr(results, "guard", None) or contextlib.nullcontext()
    rules, names, seed = args
    k, batch, began = 0, [], time.perf_counter()
    try:
        for i in range(chunks.first, chunks.games):
            batch.append(play_game(rules, names, seed, i, match_rounds=match_rounds,
                                   record=record))
            if len(batch) >= chunks.cap or time.perf_counter() - began >= CHUNK_SECONDS:
                with guard:
                    done, batch = batch, []
                    results[k] = done
                    k += 1
                    if bar is not None:
                        bar.update(len(done))
                release_free_memory()
                began = time.perf_counter()
        if batch:
            with guard:
                done, batch = batch, []
                results[k] = done
                if bar is not None:
                    bar.update(len(done))
    except KeyboardInterrupt:
        if batch:  # the games of the batch begun, finished before the interrupt
            done, batch = batch, []
            results[k] = done
        raise

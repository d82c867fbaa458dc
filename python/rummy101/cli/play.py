"""``rummy101 play``: a person plays seat 0 against bots in the terminal (docs/play.md).

Every playable variant (``rummy101.game.playable_variants()``). The board is drawn from the
person's own observation (``state.observation(0)``), never from the state: the other seats' racks
stay hidden. The person types actions in their text form (``draw``, ``run R3 R4 R5``,
``discard K7``...) or the number of an action in the ``legal`` list; tab completes the legal
actions when ``readline`` is available and the input is a terminal. Commands: ``?`` the hint
(every variant, as ``rummy101 hint``), ``undo`` (the engine's ``reset``: undo this turn's plays where the rules allow),
``board``, ``legal``, ``help``, ``quit``.

The game and the bots are seeded as game 0 of ``rummy101 sim --seed SEED``: the deal is
``rummy101.sim.game_seed(SEED, 0)`` and the bot in seat ``s`` gets
``random.Random(rummy101.sim.bot_seed(SEED, 0, s))``.

>>> from rummy101.cli import main
>>> main(["play", "--rules", "rummy101(players=2)", "--bots", "greedy,greedy"])
2
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TextIO

from ..bots import Bot, bot_names, get_bot
from ..errors import RummyError
from ..game.actions import Action, last_actions, with_games_verbs
from ..rules import Rules
from ._args import rounds, seed

__all__ = ["HUMAN_SEAT", "MAX_TURN_STEPS", "BotFailed", "add_subcommands", "format_board", "play", "run_play"]

#: The person's seat.
HUMAN_SEAT = 0
# The longest line read as a command: the longest action (a meld of a whole rack) is under 100
# characters. A 9 MB line once took 32 s and 700 MB to refuse, and was echoed twice.
MAX_LINE = 1000
#: The most actions a bot may play in one turn before the game stops as looping (exit 2, the game
#: so far saved): a bot that lays melds and takes them back with ``reset`` for ever, or never ends
#: its turn (docs/bots.md), printed its moves until Ctrl-C. The shipped bots play under 50 (the
#: random bot's longest turn in Rummy 101, which ends a turn with probability 1/2 per step); the
#: simulator's guard is per round (``rummy101.sim.MAX_STEPS``).
MAX_TURN_STEPS = 1000

# Example actions of the help text, in the pieces of the game's family (a card game refuses tiles).
_EXAMPLES = {"tiles": "'draw', 'run R3 R4 R5', 'add R6 to 0@end', 'discard K7'",
             "cards": "'draw', 'run 5H 6H 7H', 'add 8H to 0@end', 'discard KC'"}

HELP = """\
type an action as listed (e.g. {examples}),
or its number in the 'legal' list; tab completes the legal actions. Commands:
  ?        the hint for this turn (the answer of 'rummy101 hint')
  undo     take back this turn's plays (the engine's 'reset', where the rules allow it)
  board    draw the board again        legal   list every legal action, numbered
  help     this text                   quit    leave the game (also end of input)"""

# Observation keys drawn by format_board itself, in words (the variants' public extras among
# them: docs/play.md); any other key (a plugin variant's) is listed as it is, as JSON.
_DRAWN = {"rules", "seat", "round", "match_rounds", "phase", "current_player", "turn", "rack",
          "rack_sizes", "stock", "last_discard", "table", "standings", "round_scores",
          "discards", "discard_pile", "taken_discards", "opened", "opened_turn", "starter",
          # the turn's start (Remi, Rummy 101), for a sampled position: 'undo' goes back to it
          "own_turn",
          # rummy101
          "thresholds", "button", "turn_state",
          # remi
          "announced", "atu", "atu_available", "twin", "train", "train_by", "reshuffled", "laid",
          "tabla", "own_turns", "exchange", "doubles_log", "doubles_mine",
          # classic
          "dealer", "stock_turnovers", "melded", "known", "target", "go_out"}


def add_subcommands(subparsers: Any) -> None:
    """Add ``play`` to the ``rummy101`` tree."""
    p = subparsers.add_parser(
        "play", help="play seat 0 against bots in the terminal",
        description="A terminal game for a person in seat 0 against bots: the board from your "
                    "own view (rack, numbered table melds, last discard, stock), typed actions "
                    "with tab completion of the legal ones, '?' for the hint, 'undo' within the "
                    "turn where the rules allow. Reads standard input, so it can be scripted.")
    p.add_argument("--rules", default="rummy101",
                   help="rule set, e.g. rummy101, remi, classic or 'rummy101(players=2)' "
                        "(default rummy101)")
    p.add_argument("--bots", default=None,
                   help=f"comma-separated bots for seats 1.. (bots: {', '.join(bot_names())} or "
                        "'package.module:BotClass'; default: greedy in every other seat)")
    p.add_argument("--seed", type=seed, default=None,
                   help="deal game 0 of `rummy101 sim --seed SEED` (default: a random seed)")
    p.add_argument("--rounds", type=rounds, default=None,
                   help="rounds in the match (default: the variant's)")
    p.add_argument("--save", metavar="FILE", default=None,
                   help="write the game record (rummy101.game.records, replays) here at the end "
                        "(also of a game left with Ctrl-C); "
                        "an existing file is kept unless --force")
    p.add_argument("--force", action="store_true", help="overwrite an existing --save file")
    p.set_defaults(func=run_play)


class BotFailed(RummyError):
    """A bot raised or returned an illegal action during ``rummy101 play``; ``state`` is the
    game so far (``--save`` still writes it)."""

    def __init__(self, message: str, state: Any) -> None:
        super().__init__(message)
        self.state = state


class PlayInterrupted(KeyboardInterrupt):
    """Ctrl-C during ``rummy101 play``; ``state`` is the game so far, which ``--save`` still
    writes before the command exits 130 like every other on Ctrl-C."""

    def __init__(self, state: Any) -> None:
        super().__init__()
        self.state = state


def _settled(state: Any) -> Any:
    """The game of ``state``'s completed actions, replayed: Ctrl-C may have stopped an action
    half applied (its engine changed, its history not yet), which a record must not keep."""
    from ..game import records
    return records.from_dict({"rules": str(state.rules), "seed": state.seed,
                              "match_rounds": state.match_rounds,
                              "actions": [str(a) for a in state.history]})


def run_play(args: argparse.Namespace) -> int:
    """Handler of ``rummy101 play``; returns the exit status."""
    if args.save is not None:  # checked before the game, not after it
        from ..sim.io import check_writable
        if os.path.isdir(args.save):  # said first: --force would not help
            check_writable(args.save)
        if os.path.exists(args.save) and not args.force:
            raise RummyError(f"--save {args.save!r} already exists: choose another file, or add "
                             "--force to overwrite it")
        check_writable(args.save)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    failed: BaseException | None = None
    try:
        state = play(args.rules, args.bots, seed, match_rounds=args.rounds)
    except BotFailed as exc:
        state, failed = exc.state, exc
    except PlayInterrupted as exc:  # Ctrl-C: the game so far is saved, then the line and 130
        state, failed = exc.state, KeyboardInterrupt()
        if args.save is not None:
            state = _settled(state)
    if args.save is not None:
        from ..game import records
        try:
            with open(args.save, "w", encoding="utf-8") as fh:
                fh.write(records.dumps(state) + "\n")
        except OSError as exc:
            raise RummyError(f"cannot write --save {args.save!r}: {exc.strerror}") from None
        print(f"game record written to {args.save} (rummy101.game.records.loads replays it)")
    if failed is not None:
        raise failed
    return 0


def _bots(rules: Rules, bots: str | Sequence[str] | None, seed: int) -> tuple[list[Bot | None],
                                                                             list[str]]:
    from ..sim import bot_seed
    others = rules.players - 1
    if bots is None:
        names = ["greedy"] * others
    else:
        names = [b.strip() for b in (bots.split(",") if isinstance(bots, str) else bots)]
        if len(names) == rules.players and names[0] in ("human", "you", "me"):
            names = names[1:]
    if len(names) != others:
        seats = f"seats 1 to {others}" if others > 1 else "seat 1"
        raise RummyError(f"{len(names)} bot{'s' if len(names) != 1 else ''} given ({','.join(names)}) but {rules} has "
                         f"{rules.players} players: give {others} bot{'s' if others > 1 else ''}"
                         f" for {seats} (you play seat {HUMAN_SEAT})")
    players: list[Bot | None] = [None]
    for s, name in enumerate(names, start=1):
        try:
            players.append(get_bot(name, random.Random(bot_seed(seed, 0, s))))
        except RummyError:
            raise
        except Exception as exc:  # the bot's own constructor raised
            raise RummyError(f"making the bot of seat {s} ({name}) failed: "
                             f"{type(exc).__name__}: {exc}") from exc
    return players, ["you", *names]


def play(rules: str | Rules, bots: str | Sequence[str] | None = None, seed: int = 0, *,
         match_rounds: int | None = None, stdin: TextIO | None = None,
         stdout: TextIO | None = None) -> Any:
    """Play one game with a person in seat 0 reading ``stdin`` and writing ``stdout``; returns
    the final (or abandoned) state. ``bots`` names the bots of seats 1..players-1."""
    from ..game import new_game
    from ..sim import game_seed

    r = Rules.parse(rules)
    players, names = _bots(r, bots, seed)
    kwargs = {} if match_rounds is None else {"match_rounds": match_rounds}
    state = new_game(r, game_seed(seed, 0), **kwargs)
    session = _Session(state, players, names, stdin or sys.stdin, stdout or sys.stdout)
    session.say(f"rummy101 play: {r}, seed {seed} (game 0 of `rummy101 sim --seed {seed}`); "
                f"you are seat {HUMAN_SEAT}; "
                + ", ".join(f"seat {s}: {n}" for s, n in enumerate(names) if s) + ".")
    session.say("type 'help' for the commands, '?' for a hint, tab to complete an action.")
    try:
        session.run()
    except KeyboardInterrupt:
        session.say()  # off the prompt line the interrupted read left open
        raise PlayInterrupted(state) from None
    return state


class _Session:
    def __init__(self, state: Any, players: list[Bot | None], names: list[str], stdin: TextIO,
                 stdout: TextIO) -> None:
        self.state = state
        self.players = players
        self.names = names
        self.stdin = stdin
        self.out = stdout
        self.legal: list[Any] = []
        self.tty = _isatty(stdin) and _isatty(stdout)
        self.readline = _setup_readline(self._complete) if self.tty else None
        self.rounds_seen = 0
        self.bot_turn: tuple[Any, ...] | None = None  # (round, turn, seat) of the bot's steps
        self.bot_steps = 0

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    # -- the game loop -------------------------------------------------------------------------
    def run(self) -> None:
        state = self.state
        shown = None
        while not state.is_terminal:
            seat = state.current_player
            if seat != HUMAN_SEAT:
                self._bot_step(seat)
                shown = None
                continue
            self.legal = list(state.legal_actions())
            key = (_phase(state), len(state.history))
            if shown != key:
                self.say()
                self.say(format_board(state.observation(HUMAN_SEAT), self.names))
                self.say(_legal_line(self.legal))
                shown = key
            line = self._read(f"seat {HUMAN_SEAT} ({_phase(state)})> ")
            if line is None:
                self.say("end of input: leaving the game")
                return
            if not self._command(line.strip()):
                return
            self._round_ends()
        self._round_ends()
        self.say()
        self.say(format_board(state.observation(HUMAN_SEAT), self.names))
        st = state.standings()
        top = max(st)
        winners = [s for s, v in enumerate(st) if v == top]
        self.say("game over: standings " + ", ".join(
            f"seat {s} ({self.names[s]}) {v}" for s, v in enumerate(st)) + "; "
            + ("you have the best score" if winners == [HUMAN_SEAT]
               else f"best: {', '.join(f'seat {s}' for s in winners)}"))

    def _bot_step(self, seat: int) -> None:
        state = self.state
        bot = self.players[seat]
        assert bot is not None
        # built now, not lazily: a bot that keeps its observation and reads it at a later turn
        # must see the position of this step (a lazy one would be built at that later read)
        turn = (getattr(state, "round", None), state.turn, seat)
        self.bot_steps = self.bot_steps + 1 if turn == self.bot_turn else 1
        self.bot_turn = turn
        if self.bot_steps > MAX_TURN_STEPS:  # the last actions show the loop, as in `sim`
            last = last_actions(state.history)
            raise BotFailed(f"the bot of seat {seat} ({self.names[seat]}) did not end its turn "
                            f"within {MAX_TURN_STEPS} actions (turn {state.turn}, after "
                            f"{len(state.history)} actions): it loops; the last actions: {last}; "
                            "the game stops here", state)
        obs = state.observation(seat)
        try:
            action = bot.act(obs, state.legal_actions())
            state.apply(action)
        except Exception as exc:  # the bot's fault: name it; the game so far stays
            raise BotFailed(f"the bot of seat {seat} ({self.names[seat]}) failed at turn "
                            f"{state.turn}, after {len(state.history)} actions: "
                            f"{type(exc).__name__}: {exc}; the game stops here", state) from exc
        shown = getattr(state.engine, "public_text", None)  # Remi, RO-3: a double's size only
        self.say(f"  seat {seat} ({self.names[seat]}): {shown(action) if shown else action}")
        self._round_ends()

    def _round_ends(self) -> None:
        results = self.state.round_results()
        while self.rounds_seen < len(results):
            res = results[self.rounds_seen]
            scores = self.state.round_scores()[self.rounds_seen]
            who = res.get("winner")
            how = ("nobody finished (stock exhausted)" if who is None
                   else f"seat {who} ({self.names[who]}) finished")
            self.say(f"round {self.rounds_seen} over: {how}; round scores "
                     + ", ".join(f"seat {s} {v:+d}" for s, v in enumerate(scores)))
            self.rounds_seen += 1

    def _read(self, prompt: str) -> str | None:
        if self.tty:
            try:
                return input(prompt)
            except EOFError:
                return None
        self.out.write(prompt)
        line = self.stdin.readline()
        if not line:
            self.out.write("\n")
            return None
        text = line.rstrip("\n")
        shown = text if len(text) <= MAX_LINE else f"{text[:80]}..."
        self.out.write(shown + "\n")  # echo: a readable log
        return text

    # -- commands ------------------------------------------------------------------------------
    def _command(self, text: str) -> bool:
        """Run one typed line; False ends the game."""
        if len(text) > MAX_LINE:
            self.say(f"not played: a line of {len(text)} characters is no action (actions are "
                     f"short, e.g. 'discard R5'; 'legal' lists them)")
            return True
        low = text.lower()
        if not text:
            return True
        if low in ("quit", "exit", "q"):
            self.say("leaving the game")
            return False
        if low in ("help", "h"):
            self.say(HELP.format(examples=_EXAMPLES[self.state.rules.family]))
        elif low in ("?", "hint"):
            self.say(hint_text(self.state))
        elif low in ("board", "b"):
            self.say(format_board(self.state.observation(HUMAN_SEAT), self.names))
        elif low in ("legal", "l", "actions"):
            for i, a in enumerate(self.legal):
                self.say(f"  {i:3d}  {a}")
        elif low == "undo":
            self._undo()
        else:
            self._act(text)
        return True

    def _undo(self) -> None:
        if any(str(a) == "reset" for a in self.legal):
            self.state.apply("reset")
            self.say("undone: the turn starts again (reset)")
            return
        self.say(f"nothing to undo now: the {self.state.rules.variant} rules offer no 'reset' "
                 "here (it takes back plays made this turn; a draw and a discard are final)")

    def _act(self, text: str) -> None:
        if text.isdigit():
            i = int(text)
            if not 0 <= i < len(self.legal):
                self.say(f"no action number {i}: 'legal' lists 0 to {len(self.legal) - 1}")
                return
            action: Any = self.legal[i]
        else:
            action = text
        try:
            if isinstance(action, str):  # read here: the message points at the 'legal' command
                action = Action.parse(action, self.state.rules)
            self.state.apply(action)
        except RummyError as exc:
            near = [str(a) for a in self.legal if str(a).startswith(text.split(" ")[0].lower())]
            rules = self.state.rules
            self.say("not played: " + with_games_verbs(str(exc), self.state.engine.VERBS,
                                                       rules.family == "cards", rules.variant,
                                                       "'legal'"))
            if near:
                self.say("legal: " + _cut(near))
            return
        self.say(f"  you: {self.state.history[-1]}")

    # -- completion ----------------------------------------------------------------------------
    def _complete(self, text: str, index: int) -> str | None:
        buf = self.readline.get_line_buffer() if self.readline is not None else text
        options = completions(buf, self.legal)
        return options[index] if index < len(options) else None


def completions(prefix: str, legal: Sequence[Any]) -> list[str]:
    """The legal action texts and commands that start with ``prefix`` (case-insensitive), for
    tab completion.

    >>> completions("dis", ["draw", "discard R5", "discard K7"])
    ['discard R5', 'discard K7']
    """
    p = prefix.lower()
    words = [str(a) for a in legal] + ["undo", "board", "legal", "help", "quit"]
    return [w for w in words if w.lower().startswith(p)]


def _phase(state: Any) -> str:
    return str(getattr(state.phase, "value", state.phase))


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def _setup_readline(complete: Callable[[str, int], str | None]) -> Any:
    try:
        import readline
    except ImportError:   # no readline (Windows without pyreadline): plain input
        return None
    readline.set_completer_delims("")   # complete the whole line: actions hold spaces
    readline.set_completer(complete)
    readline.parse_and_bind("tab: complete")
    return readline


def hint_text(state: Any) -> str:
    """The hint for seat 0's turn, as lines of text: the same request as ``rummy101 hint`` /
    ``POST /v1/hint``. Rummy 101: its planner on the seat's observation; Remi and classic: the
    variant's greedy turn from the game record (the same answer as from the observation, and
    it also covers Remi's exchange of doubles, RO-3, where no observation can be sampled)."""
    from ..service import api

    if state.rules.variant == "rummy101":
        body: dict[str, Any] = {"observation": state.observation(HUMAN_SEAT)}
    else:
        from ..game import records

        body = {"record": records.to_dict(state)}
    try:
        answer = api.hint({**body, "alternatives": 0})
    except RummyError as exc:
        return f"no hint here: {exc}"
    turn = answer["turn"]
    lines = ["hint:"]
    for step in turn["steps"]:
        lines.append(f"  {step['step']}: {step.get('reason', '')}")
        lines.append(f"      {' ; '.join(step.get('actions', []))}")
    ev = turn.get("evaluation", {})
    if "penalty_if_round_ended" in ev:
        lines.append(f"  then: {ev.get('tiles_left')} tiles left, penalty "
                     f"{ev['penalty_if_round_ended']} if the round ended now")
    elif ev.get("finishes"):
        lines.append("  then: the round ends, you finish")
    elif "deadwood" in ev:
        lines.append(f"  then: {ev.get('pieces_left')} pieces left, {ev['deadwood']} points of "
                     f"deadwood")
    if turn.get("next"):
        lines.append(f"  ({turn['next']})")
    return "\n".join(lines)


def _cut(items: Sequence[str], limit: int = 24) -> str:
    text = ", ".join(items[:limit])
    return text + (f", ... ({len(items) - limit} more: 'legal' lists them)"
                   if len(items) > limit else "")


def _legal_line(legal: Sequence[Any]) -> str:
    texts = [str(a) for a in legal]
    if texts == ["decline"]:  # Remi's exchange asks every seat (RO-3): say why it is all
        return ("legal: decline (you hold no double to announce, or none of the size on offer "
                "to swap: pass, RO-3)")
    if len(texts) <= 24:
        return "legal: " + ", ".join(texts)
    verbs: dict[str, int] = {}
    for t in texts:
        verbs[t.split(" ")[0]] = verbs.get(t.split(" ")[0], 0) + 1
    return (f"legal: {len(texts)} actions (" + ", ".join(f"{v} {n}" for v, n in verbs.items())
            + "); 'legal' lists them, tab completes")


def _tiles(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, list):
        return " ".join(str(t) for t in value) or "-"
    return str(value)


def format_board(obs: Mapping[str, Any], names: Sequence[str] | None = None) -> str:
    """The board as one seat sees it, drawn from ``state.observation(seat)`` only: the header,
    the seats (pieces held, no racks but the seat's own), the numbered table melds, the last
    discard, the stock, the seat's rack and whatever else the variant's observation holds.

    >>> from rummy101.game import new_game
    >>> board = format_board(new_game("rummy101(players=2)", 7).observation(0))
    >>> print(board.splitlines()[0])
    rummy101(players=2) · round 0 (of 1) · turn 0 · seat 0 to act (play)
    >>> [line for line in board.splitlines() if line.startswith("table")]
    ['table: empty']
    """
    me = int(obs.get("seat", 0))
    players = len(obs.get("rack_sizes", [])) or 1
    names = list(names) if names is not None else [f"seat {s}" for s in range(players)]
    who = obs.get("current_player")
    turn_of = "your turn" if who == me and names[me] == "you" else f"seat {who} to act"
    rounds = obs.get("match_rounds")
    if isinstance(rounds, int) and rounds >= 1000 and obs.get("target") is not None:
        of = f"the match goes to {obs['target']} points"   # classic: not a round count (CR-6)
    else:
        of = f"of {rounds}"
    head = (f"{obs.get('rules')} · round {obs.get('round')} ({of}) · "
            f"turn {obs.get('turn')} · {turn_of} ({obs.get('phase')})")
    lines = [head]
    sizes = obs.get("rack_sizes", [])
    opened = obs.get("opened")
    discards = obs.get("discards")
    standings = obs.get("standings", [])
    for s, size in enumerate(sizes):
        parts = [f"{'>' if s == who else ' '} seat {s} {names[s] if s < len(names) else ''}"
                 .rstrip(), f"{size} piece{'s' if size != 1 else ''}"]
        if isinstance(opened, list) and s < len(opened):
            parts.append(f"opened: {opened[s]}" if opened[s] else "not opened")
        parts += _seat_facts(obs, s)
        if s < len(standings):
            parts.append(f"score {standings[s]}")
        if isinstance(discards, list) and s < len(discards) and discards[s]:
            parts.append(f"discards {_tiles(discards[s][-6:])}"
                         + (" …" if len(discards[s]) > 6 else ""))
        lines.append(" · ".join(parts))
    table = obs.get("table") or []
    if not table:
        lines.append("table: empty")
    else:
        lines.append("table:")
        for i, m in enumerate(table):
            if isinstance(m, Mapping):
                extra = [f"seat {m['owner']}"] if m.get("owner") is not None else []
                if m.get("kind"):
                    extra.append(str(m["kind"]))
                if m.get("value") is not None:
                    extra.append(f"value {m['value']}")
                if m.get("staged"):
                    extra.append("staged")
                lines.append(f"  [{i}] {_tiles(m.get('tiles'))}   ({', '.join(extra)})")
            else:
                lines.append(f"  [{i}] {_tiles(m)}")
    pile = obs.get("discard_pile")
    if isinstance(pile, list):
        lines.append(f"discard pile (top last): {_tiles(pile[-8:])}"
                     + (f" (+{len(pile) - 8} below)" if len(pile) > 8 else ""))
    lines.append(f"last discard: {_tiles(obs.get('last_discard'))} · stock: {obs.get('stock')}")
    taken = obs.get("taken_discards")
    if isinstance(taken, list) and taken:  # a taken discard leaves its seat's discards
        shown = [f"seat {d.get('seat')} took {d.get('tile')} from seat {d.get('from')} "
                 f"(turn {d.get('turn')})" for d in taken[-4:] if isinstance(d, Mapping)]
        lines.append(("discards taken: " if len(taken) <= 4
                      else f"discards taken ({len(taken)}, the last 4): ") + "; ".join(shown))
    lines += _extra_lines(obs)
    rack = obs.get("rack") or []
    lines.append(f"your rack ({len(rack)}): {_tiles(rack)}")
    lines += _turn_lines(obs)
    for key, value in obs.items():
        if key in _DRAWN or value in (None, [], {}, False):
            continue
        text = json.dumps(value, separators=(", ", ": "), ensure_ascii=False)
        lines.append(f"{key}: {text if len(text) <= 90 else text[:87] + '...'}")
    return "\n".join(lines)


def _per_seat(obs: Mapping[str, Any], key: str, seat: int) -> Any:
    v = obs.get(key)
    return v[seat] if isinstance(v, list) and seat < len(v) else None


def _seat_facts(obs: Mapping[str, Any], seat: int) -> list[str]:
    """What the seat line says of a seat besides its pieces and score: laid down (RO-8, CR-3),
    tabla declared (RO-11), three or fewer pieces announced (RO-10), button jokers (R101-10),
    the cards it took from the pile and still holds (CR-3)."""
    facts = []
    for key in ("laid", "melded"):
        v = _per_seat(obs, key, seat)
        if v is not None:
            facts.append("laid down" if v else "not laid down")
    known = _per_seat(obs, "known", seat)
    if isinstance(known, list) and known:
        facts.append(f"holds {_tiles(known)} (taken from the pile)")
    if _per_seat(obs, "tabla", seat):
        facts.append("tabla declared")
    announced = obs.get("announced")
    if isinstance(announced, list) and seat in announced:
        facts.append("3 or fewer left")
    button = obs.get("button")
    if isinstance(button, Mapping):
        left, used = _per_seat(button, "jokers", seat), _per_seat(button, "used", seat)
        if used:
            facts.append("used the joker button")
        elif left:
            facts.append(f"{left} button joker{'s' if left != 1 else ''}")
    return facts


def _extra_lines(obs: Mapping[str, Any]) -> list[str]:
    """The variants' public facts in words: the opening threshold (R101-7/8/14), the Atu and the
    train (RO-2, RO-5), the doubles exchange (RO-3), the dealer and going out (CR-1, CR-4)."""
    lines = []
    thr = obs.get("thresholds")
    if isinstance(thr, Mapping):
        mode = (" (increasing: an opening must beat the last one of its kind, R101-14)"
                if thr.get("mode") == "increasing" else "")
        lines.append(f"to open: {thr.get('points')} points or {thr.get('pairs')} pairs{mode}")
    if obs.get("atu"):
        where = ("face up in the stock: take it only to finish, RO-4" if obs.get("atu_available")
                 else "no longer in the stock")
        lines.append(f"Atu: {obs['atu']} ({where})")
    if obs.get("twin"):
        lines.append("you were dealt the Atu's twin: +50 at the end (RO-2)")
    train = obs.get("train")
    if isinstance(train, list) and train:
        rest = (f" {_tiles(train[1:])}" if len(train) <= 11
                else f" … {_tiles(train[-10:])} ({len(train) - 11} between)")
        lines.append(f"train: {train[0]} (the first discard: never taken){rest if len(train) > 1 else ''}")
    if obs.get("reshuffled"):
        lines.append("the discards have been shuffled into the stock: the game ends when this "
                     "stock runs out too (RO-10)")
    ex = obs.get("exchange")
    if isinstance(ex, Mapping) and ex.get("announcer") is not None:
        lines.append(f"doubles exchange: seat {ex['announcer']} announced a {ex.get('size')} double")
    log = obs.get("doubles_log")
    if isinstance(log, list) and log:
        # the seat's own swaps name its tiles (RO-3: only the two seats of a swap see them)
        mine = {e.get("entry"): e for e in obs.get("doubles_mine") or [] if isinstance(e, Mapping)}
        done = [f"seat {e[0]} {e[1]}: " + (f"swapped with seat {e[2]}" if e[2] >= 0 else "no swap")
                + ("" if k not in mine else f" (you offered {mine[k].get('gave')})"
                   if not mine[k].get("received")
                   else f" (you gave {mine[k].get('gave')}, got {mine[k]['received']})")
                for k, e in enumerate(log) if isinstance(e, list) and len(e) == 3]
        lines.append("doubles announced: " + "; ".join(done))
    if obs.get("dealer") is not None:
        lines.append(f"dealer: seat {obs['dealer']}")
    if obs.get("go_out") == "broad":
        lines.append("going out: any play that empties your hand (CR-4)")
    elif obs.get("go_out") == "narrow":
        lines.append("going out: with a final discard, or by laying a 3-card meld from a 2-card "
                     "hand and the card you took (CR-4)")
    if obs.get("stock_turnovers"):
        lines.append("the discard pile has been turned over into the stock: the round is a draw "
                     "when this stock runs out too (CR-5)")
    return lines


def _turn_lines(obs: Mapping[str, Any]) -> list[str]:
    """What binds the seat in this turn: a taken discard it must still use (R101-4, RO-10), a
    piece held until it is laid (RO-9.4/9.5), staged melds, an announced close (RO-11)."""
    ts = obs.get("turn_state")
    if not isinstance(ts, Mapping) or obs.get("current_player") != obs.get("seat"):
        return []
    said = []
    if ts.get("must_use"):
        said.append(f"you must use {ts['must_use']} this turn")
    if ts.get("pending"):
        what = "the Joly you retrieved" if ts.get("pending_kind") == "joly" else ts["pending"]
        said.append(f"{what} is held off the rack until you lay it in a new meld")
    if ts.get("later"):
        said.append(f"{ts['later']} more piece(s) from the train follow onto your rack")
    if ts.get("staged"):
        said.append("your opening melds are staged until the opening is complete")
    if ts.get("closing"):
        said.append("you announced the close: discard to finish")
    if ts.get("atu_turn"):
        said.append("you took the Atu: you must finish this turn (RO-4)")
    return [f"this turn: {'; '.join(said)}"] if said else []

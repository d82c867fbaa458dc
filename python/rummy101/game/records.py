"""Game records: a whole game as JSON that replays to the identical state.

A record holds the rules string, the seed, the number of rounds, every action in text form and
the results so far (per-round deltas, standings, round details). :func:`loads` rebuilds the game
with :func:`~rummy101.game.new_game` and replays the actions; the deal is a pure function of
(rules, seed), so the replay is exact. Stored results are checked against the replay, so a
record that was edited inconsistently is refused.

>>> from rummy101.game import new_game
>>> s = new_game("rummy101(players=2)", 11)
>>> s.apply(s.legal_actions()[-1])
>>> t = loads(dumps(s))
>>> t == s, t.history == s.history
(True, True)

Formats: records are written as ``rummy101-game/2``. Format 1 was written before Remi's doubles
exchange (RULES.md RO-3) asked every seat: it asked only seats holding a double (of the announced
size), so a format-1 Remi record lacks the ``decline`` of every seat that had no double. Such a
record still replays: wherever the replay stands in the exchange at a seat whose only action is
``decline``, that ``decline`` is applied first (:func:`replay_steps`), which is exactly the
position the old flow reached. Records of the other variants are the same in both formats.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any

from .._cancel import STOPS, check_stop
from .._limits import MAX_ACTION_CHARS, SEED_MAX
from .._validate import (
    BadRequest,
    described,
    read_record_fields,
    read_record_numbers,
    read_record_seats,
    read_rules,
    short,
)
from .._validate import loads as _json_loads
from ..errors import IllegalAction, NotationError, RummyError, WorkBudgetExceeded, json_problem
from ..rules import Rules
from .state import MAX_MATCH_ROUNDS, State, new_game

__all__ = ["FIELDS", "FORMAT", "FORMATS", "dumps", "from_dict", "loads", "read_sent", "replay_steps",
           "to_dict"]

FORMAT = "rummy101-game/2"
#: The formats that replay: format 1 omits the exchange's forced declines (module docstring).
FORMATS = ("rummy101-game/1", FORMAT)
#: The fields of a record (:func:`to_dict`'s), and ``seats`` (who played each seat), which the
#: service's games add (``GET /v1/games/{id}/record``).
FIELDS = ("format", "rules", "seed", "match_rounds", "actions", "terminal", "round_scores",
          "standings", "results", "seats")


def to_dict(state: State) -> dict[str, Any]:
    """The record of a game as a JSON-able dict."""
    if not isinstance(state, State):
        raise NotationError(f"a game record is made from a State, got {type(state).__name__}")
    return {
        "format": FORMAT,
        "rules": str(state.rules),
        "seed": state.seed,
        "match_rounds": state.match_rounds,
        "actions": [str(a) for a in state.history],
        "terminal": state.is_terminal,
        "round_scores": state.round_scores(),
        "standings": state.standings(),
        "results": state.round_results(),
    }


def _omitted(state: State, fmt: str) -> Iterator[tuple[int | None, Any]]:
    """The actions a record of format ``fmt`` leaves out here: the engine's ``format1_omits``
    (Remi: the decline of a seat the old exchange did not ask, RO-3); the caller applies each
    before the next is looked for."""
    omits = getattr(state.engine, "format1_omits", None) if fmt != FORMAT else None
    if omits is None:
        return
    while (a := omits(state)) is not None:
        n = len(state.history)
        yield None, a
        if len(state.history) == n:   # not applied (the caller stopped): ask no further
            return


def replay_steps(state: State, actions: Sequence[str], fmt: str = FORMAT
                 ) -> Iterator[tuple[int | None, Any]]:
    """The steps that replay a record's ``actions`` of format ``fmt`` on ``state`` (its new
    game): ``(index in actions, text)``, and ``(None, decline)`` for each decline a format-1
    record leaves out (module docstring). The caller applies each step before taking the next."""
    for i, text in enumerate(actions):
        yield from _omitted(state, fmt)
        yield i, text
    yield from _omitted(state, fmt)


def dumps(state: State, *, indent: int | None = None) -> str:
    """The record of a game as JSON text (``indent``: None, one line, or 0 to 64 spaces)."""
    # (1.5 was "can't multiply sequence by non-int of type 'float'", 2**80 an OverflowError)
    if indent is not None and (isinstance(indent, bool) or not isinstance(indent, int)
                               or not 0 <= indent <= 64):
        raise ValueError(f"indent must be None (one line) or a whole number of spaces from 0 "
                         f"to 64, got {type(indent).__name__} {indent!r:.40}")
    return json.dumps(to_dict(state), indent=indent)


def from_dict(record: dict[str, Any]) -> State:
    """Replay a record dict (see :func:`loads`)."""
    if not isinstance(record, dict):
        raise NotationError(f"a game record is a JSON object, got {type(record).__name__}")
    fmt = record.get("format", FORMAT)
    if fmt not in FORMATS:
        raise NotationError(f"unknown game record format {fmt!r}; accepted: "
                            f"{', '.join(repr(f) for f in FORMATS)}")
    if "actions" not in record and record.get("record") == "summary":
        raise NotationError("this is a summary row of `rummy101 sim` (seeds and scores, no actions), "
                            "not a game record: run the simulation with `--record full` to write "
                            "records that replay")
    for key in ("rules", "seed", "actions"):
        if key not in record:
            raise NotationError(f"game record lacks the field {key!r} (fields: rules, seed, "
                                "match_rounds, actions, results)")
    actions = record["actions"]
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise NotationError("game record field 'actions' must be a list of action texts")
    state = new_game(record["rules"], record["seed"], match_rounds=record.get("match_rounds"))
    for step, (i, text) in enumerate(replay_steps(state, actions, fmt)):
        if step % 16 == 0:
            check_stop()  # a server may stop a long replay (rummy101._cancel)
        try:
            state.apply(text)
        except WorkBudgetExceeded as exc:  # the action is legal as far as it got: more work
            raise WorkBudgetExceeded(f"replaying game record action {i} ({_cut(text)}): {exc}",
                                     exc.budget) from None
        except STOPS:  # stopped by a server (rummy101._cancel): not the record's fault
            raise
        except RummyError as exc:
            raise type(exc)(f"game record action {i} ({_cut(text)}) does not replay: {exc}") from None
    for key, got in (("round_scores", state.round_scores()), ("standings", state.standings()),
                     ("results", state.round_results()), ("terminal", state.is_terminal)):
        if key in record and record[key] != got:
            raise IllegalAction(f"game record field {key!r} says {_cut(record[key])} but the replay "
                                f"gives {_cut(got)}")
    return state


def _cut(value: Any, limit: int = 100) -> str:
    """``repr`` of a record's value for a message, cut to ``limit`` characters: a stored
    outcome of 4 MB (``"standings": [1, 1, …]``) came back whole in the error message."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def read_sent(value: Any, max_actions: int, advice: str
              ) -> tuple[dict[str, Any], Rules, list[str] | None]:
    """A game record a client sent (``field 'record'`` of a hint or replay request: the object
    or its JSON text), checked before it is replayed: the record (its numbers whole), its rules
    and its ``seats`` (None when absent). Raises BadRequest naming what to fix: a field no record
    has (``advice`` says what to send instead: ``"turn": 3`` in a hint's record was ignored),
    ``seed`` and ``match_rounds`` outside the engine's ranges, ``rules`` that are no rules
    string, an unknown format, more than ``max_actions`` actions or one that is no text of at
    most :data:`~rummy101._limits.MAX_ACTION_CHARS` characters (a 1 MB action came back three
    times in a 3 MB message), ``seats`` not of the replays' shape."""
    if isinstance(value, str):
        value = _json_loads(value, what="field 'record'")
    if not isinstance(value, dict):
        raise BadRequest(f"field 'record' must be a game record (rummy101.game.records: an "
                         f"object or its JSON text), got {described(value)}")
    read_record_fields(value, FIELDS, advice)
    record = read_record_numbers(value, max_seed=SEED_MAX, max_rounds=MAX_MATCH_ROUNDS)
    if "rules" not in record:
        raise BadRequest("field 'record' lacks its 'rules' (a game record's fields: rules, seed, "
                         "match_rounds, actions, results): send the game record as it is")
    if record["rules"] is None:  # (read_rules would take the default: a record names its rules)
        raise BadRequest(f"field 'record': 'rules' must be a rules string such as 'rummy101' or "
                         f"'remi(players=3)', got {described(None)}")
    try:
        rules = read_rules(record, "rummy101")
    except RummyError as exc:
        raise BadRequest(f"field 'record': {str(exc).removeprefix('field ')}") from None
    fmt = record.get("format", FORMAT)
    if fmt not in FORMATS:
        raise BadRequest(f"field 'record': unknown format {short(fmt)}; accepted: "
                         f"{', '.join(repr(f) for f in FORMATS)}")
    if "actions" not in record:
        raise BadRequest("field 'record' lacks its 'actions' (a game record's fields: rules, "
                         "seed, match_rounds, actions, results): send the game record as it is")
    actions = record["actions"]
    if not isinstance(actions, list):
        raise BadRequest(f"field 'record': 'actions' must be a list of action texts (such as "
                         f"\"draw\" or \"discard R5\"), got {described(actions)}")
    if len(actions) > max_actions:
        raise BadRequest(f"field 'record' holds {len(actions)} actions; at most {max_actions} "
                         f"are replayed")
    for i, action in enumerate(actions):
        if not isinstance(action, str):
            raise BadRequest(f"field 'record': action {i} must be an action text (such as "
                             f"\"draw\" or \"discard R5\"), got {described(action)}")
        if len(action) > MAX_ACTION_CHARS:
            raise BadRequest(f"field 'record': action {i} is {len(action)} characters long "
                             f"({short(action, 40)}); at most {MAX_ACTION_CHARS} are read, more "
                             f"than any action takes")
    return record, rules, read_record_seats(record, rules.players)


def loads(text: str) -> State:
    """Rebuild a game from its JSON record by replaying the actions."""
    if not isinstance(text, str):
        raise NotationError(f"a game record is JSON text, got {type(text).__name__}")
    try:
        record = json.loads(text)
    except json.JSONDecodeError as exc:
        raise NotationError(f"game record is not valid JSON: {json_problem(exc)}") from None
    return from_dict(record)

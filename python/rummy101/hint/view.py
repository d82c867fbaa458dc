"""The input of a hint: what one seat knows at its turn (:class:`SeatView`), read and checked
from a hint request's view fields, an engine observation or a game record.

Every check raises a :class:`~rummy101.errors.RummyError` whose message names the field and the
rule: :class:`BadView` for a view that is not of the documented shape or not a position of the
game, :class:`~rummy101.errors.RackError` / :class:`~rummy101.errors.NotationError` for its tiles.

>>> view = SeatView.from_json({"seat": 1, "rack": "R1 R2 R3 K9"})
>>> view.rules.players, view.seat, view.stage, view.my_opening
(4, 1, 'take', None)
>>> SeatView.from_json({"seat": 0, "rack": "R1", "stage": "later"})
Traceback (most recent call last):
...
rummy101.hint.view.BadView: field 'stage' is "later"; accepted: "take" (the turn starts) or ...
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from .. import _backend
from .._cancel import STOPS
from .._limits import (
    MAX_HINT_RACK,
    MAX_INT,
    MAX_MELD,
    MAX_TABLE_MELDS,
    MAX_TABLE_TILES,
)
from .._validate import (
    BadRequest,
    described,
    parse_rack_value,
    read_bool,
    read_object,
    read_opt_int,
    read_piece,
    read_rack,
    read_rules,
    short,
)
from ..errors import RackError, RummyError
from ..melds import reason_message
from ..rules import Rules
from ..tiles import JOKER_CODE, MELD_KINDS, Tile

__all__ = [
    "HINT_FIELDS",
    "BadView",
    "Opened",
    "SeatView",
    "TableMeld",
    "read_game_record",
    "state_from_record",
    "view_from_observation",
    "view_from_state",
]

Opened = Literal["melds", "pairs"] | None

HINT_FIELDS = ("rules", "seat", "rack", "table", "last_discard", "players", "threshold",
               "pairs_threshold", "button_available", "stage", "taken_discard", "alternatives",
               "record", "observation")

MAX_RECORD_ACTIONS = 5000  # actions replayed from a game record


class BadView(BadRequest):
    """A hint request whose view is not of the documented shape, or not a position of the game
    (a seat out of range, a table meld of a player who has not opened, too many jokers...)."""


@dataclass(frozen=True)
class TableMeld:
    """A meld on the table: who laid it, its tiles in table order and its kind."""

    owner: int
    tiles: tuple[Tile, ...]
    kind: str = "run"


@dataclass(frozen=True)
class SeatView:
    """What one seat knows at its turn (R101-3): the input of :func:`hint`."""

    rules: Rules
    seat: int
    rack: tuple[Tile, ...]
    table: tuple[TableMeld, ...] = ()
    last_discard: Tile | None = None
    opened: Mapping[int, Opened] = field(default_factory=dict)
    threshold: int = 101
    pairs_threshold: int = 5
    button_available: bool = False
    stage: Literal["take", "play"] = "take"
    taken_discard: Tile | None = None

    @property
    def my_opening(self) -> Opened:
        return self.opened.get(self.seat)

    @property
    def anyone_opened(self) -> bool:
        return any(v is not None for v in self.opened.values())

    @classmethod
    def from_json(cls, body: Any) -> SeatView:
        """Validate a hint request (view fields; ``HintRequest`` in the OpenAPI document)."""
        obj = read_object(body, "hint request", HINT_FIELDS)
        if obj.get("observation") is not None or obj.get("record") is not None:
            return _view_from_game(obj)
        rules = read_rules(obj, "rummy101")
        if rules.variant != "rummy101":
            # Remi and classic are hinted from an observation or a game record (the greedy
            # turn); only the view fields below are Rummy 101's (its planner reads them)
            raise BadView(f"field 'rules' is {str(rules)!r}: a hint from the view fields (seat, "
                          f"rack, table, players) is for Rummy 101 only; for {rules.variant} "
                          f"send \"observation\": State.observation(seat), or \"record\": a "
                          f"game record (rummy101.game.records)")
        seat = _read_seat(obj, "seat", rules, required=True)
        rack = tuple(read_rack(obj, rules, max_size=MAX_HINT_RACK))
        if not rack:
            raise BadView("field 'rack' is empty: a player always holds a tile at their turn")
        table = _read_table(obj.get("table"), rules)
        opened = _read_players(obj.get("players"), rules, seat)
        stage = obj.get("stage")
        if stage is None:
            stage = "take"
        if stage not in ("take", "play"):
            raise BadView(f"field 'stage' is {short(stage)}; accepted: \"take\" (the turn "
                             f"starts) "
                             f"or \"play\" (the take is done)")
        last = read_piece(obj, "last_discard", rules)
        taken = read_piece(obj, "taken_discard", rules)
        if taken is not None and stage != "play":
            raise BadView("field 'taken_discard' is only meaningful with \"stage\": \"play\"")
        if taken is not None and taken not in rack:
            raise BadView(f"field 'taken_discard' is {str(taken)!r}, which is not on the rack: "
                             f"in stage \"play\" the rack includes the taken tile")
        inc = rules.opts.threshold == "increasing"
        threshold = read_opt_int(obj, "threshold", lo=1, hi=MAX_INT) or rules.opening_points
        pairs = read_opt_int(obj, "pairs_threshold", lo=1, hi=52) or rules.pairs_opening
        if not inc and (threshold != rules.opening_points or pairs != rules.pairs_opening):
            raise BadView(f"fields 'threshold'/'pairs_threshold' differ from the fixed "
                             f"{rules.opening_points} points / {rules.pairs_opening} pairs of "
                             f"{str(rules)!r}; use rummy101(threshold=increasing) (R101-14)")
        if threshold < rules.opening_points or pairs < rules.pairs_opening:
            raise BadView(f"thresholds start at {rules.opening_points} points / "
                             f"{rules.pairs_opening} pairs and only rise (R101-14)")
        button = read_bool(obj, "button_available", False)
        if button and rules.opts.button_jokers == 0:
            raise BadView(f"field 'button_available' is true but {str(rules)!r} has no joker "
                             f"button; use rummy101(button_jokers=N) (R101-10)")
        if last is not None and stage == "play":
            raise BadView("field 'last_discard' is for stage \"take\" (the discard that may "
                             "be taken); in stage \"play\" give the taken tile as "
                             "'taken_discard'")
        _check_owners(table, opened)
        all_tiles = list(rack) + [t for m in table for t in m.tiles]
        if last is not None:
            all_tiles.append(last)
        # the jokers first: the button's count (R101-10), a limit within check_supply's 6
        _check_jokers(rules, all_tiles, button)
        # (it said "rack, table and last discard together: the rack holds 3 copies of Y5")
        rules.check_supply(all_tiles, "rack, table and last discard", verb="hold")
        return cls(rules=rules, seat=seat, rack=rack, table=table, last_discard=last,
                   opened=opened, threshold=threshold, pairs_threshold=pairs,
                   button_available=button, stage="play" if stage == "play" else "take",
                   taken_discard=taken)


def _check_owners(table: Sequence[TableMeld], opened: Mapping[int, Opened]) -> None:
    """Only a player who has opened has melds on the table (R101-7, R101-11); pairs are on the
    table only once someone opened with pairs, and a player who did owns no run or set (R101-8)."""
    for i, meld in enumerate(table):
        if opened.get(meld.owner) is None:
            raise BadView(f"table meld {i} belongs to seat {meld.owner}, which field 'players' "
                             f"marks as not opened: only a player who has opened has melds on "
                             f"the table (R101-7, R101-11)")
        if meld.kind == "pair" and "pairs" not in opened.values():
            raise BadView(f"table meld {i} is a pair, but no seat has opened with pairs: "
                             f"pairs reach the table only through a pairs opening (R101-8)")
        if meld.kind != "pair" and opened.get(meld.owner) == "pairs":  # (was hinted as it came)
            raise BadView(f"table meld {i} is a {meld.kind} of seat {meld.owner}, which field "
                          f"'players' marks as opened with pairs: a player who opened with pairs "
                          f"never lays runs or sets, only pairs (R101-8)")


def _check_jokers(rules: Rules, tiles: Sequence[int], button_available: bool) -> None:
    """The jokers a seat can see: the set's 2, plus one joker-button joker per player who
    pressed the button this round (R101-10), at most ``players`` of them, and not this seat's if
    it may still press."""
    seen = sum(1 for t in tiles if t == JOKER_CODE)
    pressed = rules.players if rules.opts.button_jokers > 0 else 0
    if button_available:
        pressed -= 1
    limit = rules.jokers + pressed
    if seen > limit:
        extra = ("" if rules.opts.button_jokers == 0 else
                 f" plus at most {pressed} joker-button joker{'s' if pressed != 1 else ''} "
                 f"({'the other players' if button_available else 'one per player'} this "
                 f"round, R101-10)")
        raise RackError(f"the rack, table and last discard hold {seen} jokers, but a "
                        f"{str(rules)!r} game has at most {limit}: the set's {rules.jokers}"
                        f"{extra}")


def _read_seat(obj: Mapping[str, Any], name: str, rules: Rules, required: bool,
               where: str = "", whose: str = "") -> int:
    """A seat number; ``where`` names the table meld or player it belongs to (the request's
    own ``seat`` has none) and ``whose`` says whose seat to give when it is missing."""
    value = obj.get(name)
    if value is None and not required:
        return -1
    hi = rules.players - 1
    at = f"{where}: " if where else ""
    if value is None and where:  # (before, the request's 'seat' advice: observation, record)
        raise BadView(f"{at}field {name!r} is missing: give the seat {whose} (0 to {hi} in "
                      f"{str(rules)!r})")
    if value is None:
        raise BadView(f"field {name!r} is missing: send the number of the seat to hint (0 to "
                      f"{hi} in {str(rules)!r}) with that seat's rack, or instead of the view "
                      f"fields send \"observation\": State.observation(seat), or \"record\": a "
                      f"game record (rummy101.game.records)")
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadView(f"{at}field {name!r} must be a seat number from 0 to {hi}, got "
                         f"{described(value)}")
    if not 0 <= value <= hi:
        raise BadView(f"{at}field {name!r} is {value}; seats of {str(rules)!r} are 0 to {hi}")
    return value


def _read_table(value: Any, rules: Rules) -> tuple[TableMeld, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise BadView(f"field 'table' must be a list of melds {{\"owner\": seat, \"tiles\": "
                         f"[...]}}, got {described(value)}")
    if len(value) > MAX_TABLE_MELDS:
        raise BadView(f"field 'table' holds {len(value)} melds; at most {MAX_TABLE_MELDS}")
    out = []
    total = 0
    cr = _backend.core_rules(rules, "open")
    for i, item in enumerate(value):
        what = f"table meld {i}"
        obj = read_object(item, what, ("owner", "tiles", "kind", "id", "value"))
        owner = _read_seat(obj, "owner", rules, required=True, where=what,
                           whose="of the player whose meld it is")
        if obj.get("tiles") is None:
            raise BadView(f"{what}: field 'tiles' is missing")
        tiles = tuple(parse_rack_value(obj["tiles"], rules, f"{what} tiles", MAX_MELD))
        total += len(tiles)
        if total > MAX_TABLE_TILES:
            raise BadView(f"the table holds more than {MAX_TABLE_TILES} tiles")
        kind, _, reason = _backend.core().classify_meld(cr, [int(t) for t in tiles])
        text = " ".join(map(str, tiles))
        if kind == 0:
            raise BadView(f"{what} is not a legal meld: {reason_message(rules, reason, tiles)}")
        name = MELD_KINDS[kind]
        declared = obj.get("kind")
        if declared is not None and declared != name:
            if declared not in ("run", "set", "pair"):
                raise BadView(f"{what}: field 'kind' is {short(declared)}; accepted: run, "
                                 f"set, pair")
            if not (declared == "set" and name == "run" and set_with_jokers(tiles)):
                raise BadView(f"{what} {text!r} is a {name}, not a {declared}")
            name = declared
        out.append(TableMeld(owner, tiles, name))
    return tuple(out)


def set_with_jokers(tiles: Sequence[int]) -> bool:
    """A 3-4 tile meld of one real tile and jokers: the core reads it as a run, a table may hold
    it as a set."""
    reals = [t for t in tiles if t != JOKER_CODE]
    return 3 <= len(tiles) <= 4 and len(reals) == 1


def _read_players(value: Any, rules: Rules, seat: int) -> dict[int, Opened]:
    opened: dict[int, Opened] = {s: None for s in range(rules.players)}
    if value is None:
        return opened
    if not isinstance(value, list):
        raise BadView(f"field 'players' must be a list of {{\"seat\", \"opened\"}} objects, got "
                         f"{described(value)}")
    if len(value) > rules.players:
        raise BadView(f"field 'players' lists {len(value)} players; {str(rules)!r} has "
                         f"{rules.players}")
    seen = set()
    for i, item in enumerate(value):
        obj = read_object(item, f"player {i}", ("seat", "opened", "rack_size"))
        s = _read_seat(obj, "seat", rules, required=True, where=f"player {i}",
                       whose="of this player")
        if s in seen:
            raise BadView(f"seat {s} is listed twice in field 'players'")
        seen.add(s)
        how = obj.get("opened")
        if how not in (None, "melds", "pairs"):
            raise BadView(f"player {i}: field 'opened' is {short(how)}; accepted: null, "
                             f"\"melds\" or \"pairs\"")
        read_opt_int(obj, "rack_size", lo=0, hi=MAX_INT)
        opened[s] = how
    return opened


def _view_from_game(obj: Mapping[str, Any]) -> SeatView:
    if obj.get("record") is None:
        seat = _game_fields_seat(obj)
        return view_from_observation(obj["observation"], seat)
    state, seat = state_from_record(obj)
    return view_from_state(state, seat)


def _game_fields_seat(obj: Mapping[str, Any]) -> int | None:
    """The checks of a hint request by ``record`` or ``observation``; its ``seat`` field."""
    extra = [k for k in obj if k not in ("record", "observation", "seat", "alternatives")
             and obj[k] is not None]
    if extra or (obj.get("record") is not None and obj.get("observation") is not None):
        raise BadView("fields 'record' and 'observation' replace the view fields (and each "
                         f"other); remove {', '.join(extra) or 'one of them'}")
    seat = obj.get("seat")
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
        raise BadView(f"field 'seat' must be a seat number, got {described(seat)}")
    return seat


def state_from_record(obj: Mapping[str, Any]) -> tuple[Any, int]:
    """The game a hint request's ``record`` replays to, and the seat to hint (the request's
    ``seat``, checked: the seat to move). BadView for a request or record that is not of the
    documented shape, or a game that is over."""
    if not isinstance(obj, Mapping):  # (was "'int' object is not iterable", or an AttributeError)
        raise BadView(f"a hint request is a JSON object with a field 'record' (and optionally "
                      f"'seat'), got {described(obj)}")
    seat = _game_fields_seat(obj)
    return read_game_record(obj.get("record"), seat)


def read_game_record(value: Any, seat: int | None = None) -> tuple[Any, int]:
    """The game a hint request's ``record`` (``value``: a game record of
    :mod:`rummy101.game.records`, or its JSON text) replays to, and the seat to move, which
    ``seat`` (None: any) must be. Every variant's record is read here, each check naming the
    field and what to send (BadView).

    The record is checked before it is replayed: a field no record has is refused (``"turn": 3``
    was ignored, and the hint given for the position after all the actions), ``seed`` and
    ``match_rounds`` whole numbers in the ranges of the engine and the replays (Remi's and
    classic's records took any seed, -1 or 2**200 too; Rummy 101's reader took match_rounds
    1-100 only, so a classic record, 10,000, whose rules were an object was told its
    match_rounds was wrong), ``rules`` a rules string, each action at most
    :data:`~rummy101._limits.MAX_ACTION_CHARS` characters (a 1 MB action text came back three
    times in a 3 MB error message) and ``seats`` (who played each seat) of the replays' shape
    (any value was ignored)."""
    from ..game import records  # the engine replays the record; imported only when needed

    try:
        record, _rules, _seats = records.read_sent(
            value, MAX_RECORD_ACTIONS, "the hint is for the seat to move once all of its "
            "'actions' are played; for an earlier turn, send the actions up to it")
    except BadRequest as exc:
        raise BadView(str(exc)) from None
    try:
        state = records.from_dict(record)
    except STOPS:  # no fault of the record: the service moves it to the slow lane, or answers
        raise      # that its time is up, or that it stops
    except RummyError as exc:
        raise BadView(f"field 'record': {exc}") from None
    if state.is_terminal:
        raise BadView("the game of field 'record' is over: there is no turn to hint")
    mover = state.current_player
    if seat is not None:
        if not 0 <= seat < state.n:
            raise BadView(f"field 'seat' is {short(seat)}, but the record's game has seats 0 "
                          f"to {state.n - 1}")
        if seat != mover:
            raise BadView(f"field 'seat' is {seat} but it is seat {mover}'s turn in the "
                          f"record: a hint is for the seat to move (leave 'seat' out, or send "
                          f"the record's actions up to a turn of seat {seat})")
    return state, mover


def view_from_observation(obs: Any, seat: int | None = None) -> SeatView:
    """A :class:`SeatView` from ``State.observation(seat)`` (a JSON object).

    The observation must be the seat's own, at its turn, with no staged opening (``POST
    /v1/hint`` plans one from the turn's start, the observation's ``own_turn``, and answers
    with ``reset`` first: ``service.api``).
    """
    if not isinstance(obs, dict):
        raise BadView(f"field 'observation' must be a game observation object, got "
                         f"{described(obs)}")
    if isinstance(obs.get("rules"), str):
        # a Remi or classic observation was told it "lacks opened, thresholds, button"
        try:
            variant = Rules.parse(obs["rules"]).variant
        except RummyError:
            variant = "rummy101"  # the view's own check below names a bad rules text
        if variant != "rummy101":
            raise BadView(f"hints are for Rummy 101 only; the observation is of "
                          f"{short(obs['rules'])} (accepted: rummy101 with its options)")
    need = ("rules", "seat", "phase", "current_player", "rack", "table", "opened", "thresholds",
            "button", "turn_state")
    missing = [k for k in need if k not in obs]
    if missing:
        raise BadView(f"field 'observation' lacks {', '.join(missing)}: send "
                         f"State.observation(seat) as it is")
    own = obs["seat"]
    if isinstance(own, bool) or not isinstance(own, int):
        raise BadView(f"field 'observation' has seat {described(own)}: send "
                      f"State.observation(seat) as it is, whose 'seat' is the number of the "
                      f"seat to hint")
    if seat is not None and seat != obs["seat"]:
        raise BadView(f"field 'seat' is {seat} but the observation is seat {obs['seat']}'s: "
                         f"a hint needs the seat's own rack")
    if obs["phase"] not in ("take", "play"):
        raise BadView(f"the observed game is in phase {short(obs['phase'])}: a hint needs a "
                         f"turn in phase take or play")
    if obs["current_player"] != obs["seat"]:
        raise BadView(f"it is seat {short(obs['current_player'])}'s turn, not seat "
                         f"{short(obs['seat'])}'s")
    # (a value of another kind was read as empty: a table sent as an object, "opened" as
    # {"0": "melds"}, got a hint for an empty table and nobody opened; it is refused, named)
    for key, kind, name in (("turn_state", dict, "an object"), ("table", list, "a list"),
                            ("thresholds", dict, "an object"), ("opened", list, "a list"),
                            ("button", dict, "an object")):
        if not isinstance(obs[key], kind):
            raise BadView(f"field 'observation': its {key!r} must be {name}, as "
                          f"State.observation(seat) writes it, got {described(obs[key])}")
    turn_state = obs["turn_state"]
    if turn_state.get("staged"):
        raise BadView("the observed turn has a staged opening: 'open' or 'reset' it first "
                      "(rummy101.hint.generic.hint_state(state) plans it from the turn's start)")
    table, thresholds, opened, button = (obs[k] for k in ("table", "thresholds", "opened",
                                                          "button"))
    body = {
        "rules": obs["rules"], "seat": obs["seat"], "rack": obs["rack"],
        "table": [{"owner": m.get("owner"), "tiles": m.get("tiles"), "kind": m.get("kind")}
                  if isinstance(m, dict) else m for m in table],
        "last_discard": obs.get("last_discard") if obs["phase"] == "take" else None,
        "players": [{"seat": i, "opened": o} for i, o in enumerate(opened)],
        "button_available": bool(button.get("available")),
        "stage": obs["phase"],
        "taken_discard": turn_state.get("must_use") if obs["phase"] == "play" else None,
    }
    rules = Rules.parse(obs["rules"]) if isinstance(obs["rules"], str) else None
    if rules is not None and getattr(rules.opts, "threshold", "fixed") == "increasing":
        body["threshold"] = thresholds.get("points")
        body["pairs_threshold"] = thresholds.get("pairs")
    try:
        return SeatView.from_json(body)
    except RummyError as exc:
        raise type(exc)(f"field 'observation': {exc}") from None


def view_from_state(state: Any, seat: int | None = None) -> SeatView:
    """The view of ``seat`` (default: the player to move) from an engine ``State``."""
    from ..game.state import State  # here: the hints need no game module at import

    if not isinstance(state, State):
        raise BadView(f"view_from_state takes a game State (rummy101.new_game(...)), got "
                      f"{type(state).__name__}; for an observation dict use view_from_observation")
    who = state.current_player if seat is None else seat
    return view_from_observation(state.observation(who), who)

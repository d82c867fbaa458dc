"""Full-turn hints for Rummy 101: from one seat's view, the recommended turn and the next-best.

A turn (R101-3) is one take — draw, take the previous player's discard (R101-4) or press the joker
button (R101-10) — then an opening (R101-7 melds, R101-8 pairs) or, once opened, new melds, joker
retrievals (R101-9) and additions (R101-11), then exactly one discard (R101-12). The hint plans the
whole turn on the exact solvers of the core (``solve_melds``, ``max_pairs``, ``meld_additions``,
``joker_releases``) and ranks the candidate turns with :func:`evaluate`:

* a turn that finishes scores ``1000`` (+500 for a joker finish, +500 when it finishes in one turn,
  R101-12/R101-13);
* otherwise ``-(penalty if the round ended now)`` (202 when not opened, the rack's value with a
  joker at 101 when opened with melds, twice that with pairs, R101-13), minus 3 per tile left,
  plus up to 50 for progress towards an opening (best melds value / threshold) and up to 20
  for progress towards a pairs opening;
* a draw is valued on the current rack with the expected penalty of an unknown tile that cannot
  be used; pressing the button when it neither opens nor finishes costs 20 (it is one per round).

The answer is a :class:`Hint`; ``Hint.to_json()`` is the body of ``POST /v1/hint``.

>>> view = SeatView.from_json({"rules": "rummy101", "seat": 0, "stage": "play",
...     "rack": "R10 R11 R12 K13 K12 K11 Y9 Y8 Y7 B13 B12 B11 R2 Y4",
...     "players": [{"seat": 0, "opened": None}, {"seat": 1, "opened": None}]})
>>> [step["step"] for step in hint(view).to_json()["turn"]["steps"]]
['open', 'discard']
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from . import _backend
from .bots.strategy import choose_discard, feeding_tiles, kit_for
from .errors import IllegalAction, RackError
from .rules import Rules
from .service.cancel import check_stop
from .service.limits import (
    HINT_SECONDS,
    MAX_HINT_RACK,
    MAX_INT,
    MAX_MELD,
    MAX_TABLE_MELDS,
    MAX_TABLE_TILES,
)
from .service.validate import (
    BadRequest,
    parse_rack_value,
    read_bool,
    read_object,
    read_opt_int,
    read_piece,
    read_rack,
    read_rules,
    short,
    type_name,
)
from .solve import current_budget
from .tiles import JOKER_CODE, NUM_CODES, NUM_NUMBERS, Tile, counts_of

__all__ = ["HINT_FIELDS", "Hint", "SeatView", "TableMeld", "Turn", "evaluate", "hint"]

Opened = Literal["melds", "pairs"] | None
KINDS = {1: "run", 2: "set", 3: "pair"}

HINT_FIELDS = ("rules", "seat", "rack", "table", "last_discard", "players", "threshold",
               "pairs_threshold", "button_available", "stage", "taken_discard", "alternatives",
               "record", "observation")

FINISH_SCORE = 1000.0
BUTTON_COST = 20.0
UNUSABLE_DRAW = 0.7  # share of drawn tiles assumed to stay on the rack
MAX_RECORD_ACTIONS = 5000  # actions replayed from a game record


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
            raise BadRequest(f"hints are for Rummy 101 only; field 'rules' is {str(rules)!r} "
                             f"(accepted: rummy101 with its options)")
        seat = _read_seat(obj, "seat", rules, required=True)
        rack = tuple(read_rack(obj, rules, max_size=MAX_HINT_RACK))
        if not rack:
            raise BadRequest("field 'rack' is empty: a player always holds a tile at their turn")
        table = _read_table(obj.get("table"), rules)
        opened = _read_players(obj.get("players"), rules, seat)
        stage = obj.get("stage")
        if stage is None:
            stage = "take"
        if stage not in ("take", "play"):
            raise BadRequest(f"field 'stage' is {short(stage)}; accepted: \"take\" (the turn "
                             f"starts) "
                             f"or \"play\" (the take is done)")
        last = read_piece(obj, "last_discard", rules)
        taken = read_piece(obj, "taken_discard", rules)
        if taken is not None and stage != "play":
            raise BadRequest("field 'taken_discard' is only meaningful with \"stage\": \"play\"")
        if taken is not None and taken not in rack:
            raise BadRequest(f"field 'taken_discard' is {str(taken)!r}, which is not on the rack: "
                             f"in stage \"play\" the rack includes the taken tile")
        inc = rules.threshold == "increasing"
        threshold = read_opt_int(obj, "threshold", lo=1, hi=MAX_INT) or rules.opening_points
        pairs = read_opt_int(obj, "pairs_threshold", lo=1, hi=52) or rules.pairs_opening
        if not inc and (threshold != rules.opening_points or pairs != rules.pairs_opening):
            raise BadRequest(f"fields 'threshold'/'pairs_threshold' differ from the fixed "
                             f"{rules.opening_points} points / {rules.pairs_opening} pairs of "
                             f"{str(rules)!r}; use rummy101(threshold=increasing) (R101-14)")
        if threshold < rules.opening_points or pairs < rules.pairs_opening:
            raise BadRequest(f"thresholds start at {rules.opening_points} points / "
                             f"{rules.pairs_opening} pairs and only rise (R101-14)")
        button = read_bool(obj, "button_available", False)
        if button and rules.button_jokers == 0:
            raise BadRequest(f"field 'button_available' is true but {str(rules)!r} has no joker "
                             f"button; use rummy101(button_jokers=N) (R101-10)")
        if last is not None and stage == "play":
            raise BadRequest("field 'last_discard' is for stage \"take\" (the discard that may "
                             "be taken); in stage \"play\" give the taken tile as "
                             "'taken_discard'")
        _check_owners(table, opened)
        all_tiles = list(rack) + [t for m in table for t in m.tiles]
        if last is not None:
            all_tiles.append(last)
        try:
            rules.check_supply(all_tiles)
        except RackError as exc:
            raise RackError(f"rack, table and last discard together: {exc}") from None
        _check_jokers(rules, all_tiles, button)
        return cls(rules=rules, seat=seat, rack=rack, table=table, last_discard=last,
                   opened=opened, threshold=threshold, pairs_threshold=pairs,
                   button_available=button, stage="play" if stage == "play" else "take",
                   taken_discard=taken)


def _check_owners(table: Sequence[TableMeld], opened: Mapping[int, Opened]) -> None:
    """Only a player who has opened has melds on the table (R101-7, R101-11); pairs are on the
    table only once someone opened with pairs (R101-8)."""
    for i, meld in enumerate(table):
        if opened.get(meld.owner) is None:
            raise BadRequest(f"table meld {i} belongs to seat {meld.owner}, which field 'players' "
                             f"marks as not opened: only a player who has opened has melds on "
                             f"the table (R101-7, R101-11)")
        if meld.kind == "pair" and "pairs" not in opened.values():
            raise BadRequest(f"table meld {i} is a pair, but no seat has opened with pairs: "
                             f"pairs reach the table only through a pairs opening (R101-8)")


def _check_jokers(rules: Rules, tiles: Sequence[int], button_available: bool) -> None:
    """The jokers a seat can see: the set's 2, plus one joker-button joker per player who
    pressed the button this round (R101-10), at most ``players`` of them, and not this seat's if
    it may still press."""
    seen = sum(1 for t in tiles if t == JOKER_CODE)
    pressed = rules.players if rules.button_jokers > 0 else 0
    if button_available:
        pressed -= 1
    limit = rules.jokers + pressed
    if seen > limit:
        extra = ("" if rules.button_jokers == 0 else
                 f" plus at most {pressed} joker-button joker{'s' if pressed != 1 else ''} "
                 f"({'the other players' if button_available else 'one per player'} this "
                 f"round, R101-10)")
        raise RackError(f"rack, table and last discard hold {seen} jokers, but a "
                        f"{str(rules)!r} game has at most {limit}: the set's {rules.jokers}"
                        f"{extra}")


def _read_seat(obj: Mapping[str, Any], name: str, rules: Rules, required: bool) -> int:
    value = obj.get(name)
    if value is None and not required:
        return -1
    hi = rules.players - 1
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadRequest(f"field {name!r} must be a seat number from 0 to {hi}, got "
                         f"{type_name(value)} {short(value)}")
    if not 0 <= value <= hi:
        raise BadRequest(f"field {name!r} is {value}; seats of {str(rules)!r} are 0 to {hi}")
    return value


def _read_table(value: Any, rules: Rules) -> tuple[TableMeld, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise BadRequest(f"field 'table' must be a list of melds {{\"owner\": seat, \"tiles\": "
                         f"[...]}}, got {type_name(value)} {short(value)}")
    if len(value) > MAX_TABLE_MELDS:
        raise BadRequest(f"field 'table' holds {len(value)} melds; at most {MAX_TABLE_MELDS}")
    out = []
    total = 0
    cr = _backend.core_rules(rules, "open")
    for i, item in enumerate(value):
        what = f"table meld {i}"
        obj = read_object(item, what, ("owner", "tiles", "kind", "id", "value"))
        owner = _read_seat(obj, "owner", rules, required=True)
        if obj.get("tiles") is None:
            raise BadRequest(f"{what}: field 'tiles' is missing")
        tiles = tuple(parse_rack_value(obj["tiles"], rules, f"{what} tiles", MAX_MELD))
        total += len(tiles)
        if total > MAX_TABLE_TILES:
            raise BadRequest(f"the table holds more than {MAX_TABLE_TILES} tiles")
        kind, _, reason = _backend.core().classify_meld(cr, [int(t) for t in tiles])
        text = " ".join(map(str, tiles))
        if kind == 0:
            raise BadRequest(f"{what} {text!r} is not a legal meld (R101-5, reason code {reason})")
        name = KINDS[kind]
        declared = obj.get("kind")
        if declared is not None and declared != name:
            if declared not in ("run", "set", "pair"):
                raise BadRequest(f"{what}: field 'kind' is {short(declared)}; accepted: run, "
                                 f"set, pair")
            if not (declared == "set" and name == "run" and _set_with_jokers(tiles)):
                raise BadRequest(f"{what} {text!r} is a {name}, not a {declared}")
            name = declared
        out.append(TableMeld(owner, tiles, name))
    return tuple(out)


def _set_with_jokers(tiles: Sequence[int]) -> bool:
    reals = [t for t in tiles if t != JOKER_CODE]
    return 3 <= len(tiles) <= 4 and len(reals) == 1


def _read_players(value: Any, rules: Rules, seat: int) -> dict[int, Opened]:
    opened: dict[int, Opened] = {s: None for s in range(rules.players)}
    if value is None:
        return opened
    if not isinstance(value, list):
        raise BadRequest(f"field 'players' must be a list of {{\"seat\", \"opened\"}} objects, got "
                         f"{type_name(value)} {short(value)}")
    if len(value) > rules.players:
        raise BadRequest(f"field 'players' lists {len(value)} players; {str(rules)!r} has "
                         f"{rules.players}")
    seen = set()
    for i, item in enumerate(value):
        obj = read_object(item, f"player {i}", ("seat", "opened", "rack_size"))
        s = _read_seat(obj, "seat", rules, required=True)
        if s in seen:
            raise BadRequest(f"seat {s} is listed twice in field 'players'")
        seen.add(s)
        how = obj.get("opened")
        if how not in (None, "melds", "pairs"):
            raise BadRequest(f"player {i}: field 'opened' is {short(how)}; accepted: null, "
                             f"\"melds\" or \"pairs\"")
        read_opt_int(obj, "rack_size", lo=0, hi=MAX_INT)
        opened[s] = how
    return opened


def _view_from_game(obj: Mapping[str, Any]) -> SeatView:
    from .hint_engine import view_from_observation, view_from_state

    extra = [k for k in obj if k not in ("record", "observation", "seat", "alternatives")
             and obj[k] is not None]
    if extra or (obj.get("record") is not None and obj.get("observation") is not None):
        raise BadRequest("fields 'record' and 'observation' replace the view fields (and each "
                         f"other); remove {', '.join(extra) or 'one of them'}")
    seat = obj.get("seat")
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
        raise BadRequest(f"field 'seat' must be a seat number, got {type_name(seat)} {short(seat)}")
    if obj.get("observation") is not None:
        return view_from_observation(obj["observation"], seat)
    record = obj["record"]
    if isinstance(record, str):
        from .service.validate import loads

        record = loads(record, what="field 'record'")
    if not isinstance(record, dict):
        raise BadRequest(f"field 'record' must be a game record (rummy101.game.records: an object "
                         f"or its JSON text), got {type_name(record)} {short(record)}")
    from .game import records
    from .service.validate import read_int

    read_int(record, "seed", lo=0, hi=2**63 - 1)
    read_int(record, "match_rounds", lo=1, hi=100, default=1)
    actions = record.get("actions")
    if isinstance(actions, list) and len(actions) > MAX_RECORD_ACTIONS:
        raise BadRequest(f"field 'record' holds {len(actions)} actions; at most "
                         f"{MAX_RECORD_ACTIONS} are replayed")
    if not isinstance(record.get("rules"), str):
        raise BadRequest("field 'record' lacks a rules string")
    state = records.from_dict(record)
    if state.is_terminal:
        raise BadRequest("the game of field 'record' is over: there is no turn to hint")
    return view_from_state(state, seat)


# ---- working state of a planned turn ---------------------------------------------------------
@dataclass
class _Work:
    rack: list[int]
    table: list[list[int]]
    owners: list[int]
    kinds: list[str]
    steps: list[dict[str, Any]] = field(default_factory=list)
    opened: Opened = None
    opened_now: bool = False
    laid_value: int = 0

    def copy(self) -> _Work:
        return _Work(list(self.rack), [list(m) for m in self.table], list(self.owners),
                     list(self.kinds), [dict(s) for s in self.steps], self.opened,
                     self.opened_now, self.laid_value)


@dataclass(frozen=True)
class Turn:
    """One candidate turn: its steps (each with a reason and the engine actions that play it)
    and its evaluation."""

    steps: tuple[dict[str, Any], ...]
    evaluation: dict[str, Any]

    @property
    def score(self) -> float:
        return float(self.evaluation["score"])

    @property
    def actions(self) -> list[str]:
        """The whole turn as engine actions (``rummy101.game.Action`` text forms)."""
        return [a for s in self.steps for a in s["actions"]]

    def to_json(self) -> dict[str, Any]:
        return {"steps": [dict(s) for s in self.steps], "actions": self.actions,
                "evaluation": dict(self.evaluation)}


@dataclass(frozen=True)
class Hint:
    """The recommended turn and the next-best alternatives, best first."""

    view: SeatView
    turn: Turn
    alternatives: tuple[Turn, ...]

    def to_json(self) -> dict[str, Any]:
        return {"rules": str(self.view.rules), "seat": self.view.seat, "stage": self.view.stage,
                "rack": " ".join(str(t) for t in self.view.rack),
                "turn": self.turn.to_json(),
                "alternatives": [t.to_json() for t in self.alternatives]}


def _set_number(tiles: Sequence[int]) -> int:
    return next(t for t in tiles if t != JOKER_CODE) % NUM_NUMBERS


class _Planner:
    def __init__(self, view: SeatView) -> None:
        self.view = view
        self.rules = view.rules
        self.core = _backend.core()
        self.cr_open = _backend.core_rules(view.rules, "open")
        self.cr_pen = _backend.core_rules(view.rules, "penalty")
        self._cache: dict[Any, Any] = {}
        self.deadline = time.monotonic() + HINT_SECONDS

    def _check_time(self) -> None:
        check_stop()
        if time.monotonic() > self.deadline:
            raise IllegalAction(f"the hint needs more than {HINT_SECONDS:g} s for this position "
                                f"(a rack dense in pairs and jokers); no turn is recommended")

    # -- values and meld facts --------------------------------------------------------------------
    def tile_penalty(self, code: int) -> int:
        if code == JOKER_CODE:
            return self.rules.joker_penalty
        return self.rules.penalty_params.set_value[code % NUM_NUMBERS + 1]

    def rack_penalty(self, rack: Sequence[int]) -> int:
        return sum(self.tile_penalty(c) for c in rack)

    def _is_forced_set(self, tiles: Sequence[int], kind: str) -> bool:
        """A set such as ``R5 * *`` that the core would read as a run (kind given by the table)."""
        return kind == "set" and _set_with_jokers(tiles)

    def stand_for(self, tiles: Sequence[int], kind: str) -> list[int]:
        if self._is_forced_set(tiles, kind):
            n = _set_number(tiles)
            present = {t // NUM_NUMBERS for t in tiles if t != JOKER_CODE}
            missing = iter(c for c in range(4) if c not in present)
            return [t if t != JOKER_CODE else next(missing) * NUM_NUMBERS + n for t in tiles]
        return list(self.core.classify_meld(self.cr_open, list(tiles))[1])

    def meld_value(self, tiles: Sequence[int], kind: str) -> int:
        if self._is_forced_set(tiles, kind):
            return (_set_number(tiles) + 1) * len(tiles)
        return int(self.core.meld_value(self.cr_open, list(tiles)))

    def additions(self, tiles: Sequence[int], kind: str) -> list[tuple[int, int]]:
        if kind == "pair":
            return []
        if self._is_forced_set(tiles, kind):
            if len(tiles) != 3:
                return []  # a set of four is complete (R101-5)
            n = _set_number(tiles)
            real = {t // NUM_NUMBERS for t in tiles if t != JOKER_CODE}
            return [(3, c * NUM_NUMBERS + n) for c in range(4) if c not in real] + [(3, JOKER_CODE)]
        return list(self.core.meld_additions(self.cr_open, list(tiles)))

    def releases(self, tiles: Sequence[int], kind: str) -> list[tuple[int, int]]:
        """(joker index, single tile that releases it) (R101-9)."""
        if self._is_forced_set(tiles, kind):
            n = _set_number(tiles)
            present = {t // NUM_NUMBERS for t in tiles if t != JOKER_CODE}
            first = list(tiles).index(JOKER_CODE)
            return [(first, c * NUM_NUMBERS + n) for c in range(4) if c not in present]
        out = []
        for ji, alts in self.core.joker_releases(self.cr_open, list(tiles), False):
            for alt in alts:
                if len(alt) == 1:
                    out.append((ji, alt[0]))
        return out

    def meld_json(self, tiles: Sequence[int], kind: str) -> dict[str, Any]:
        sf = self.stand_for(tiles, kind)
        return {"kind": kind, "tiles": [str(Tile(t)) for t in tiles],
                "value": self.meld_value(tiles, kind),
                "jokers": {str(i): str(Tile(sf[i])) for i, t in enumerate(tiles)
                           if t == JOKER_CODE}}

    # -- solvers ----------------------------------------------------------------------------------
    def solve(self, cr: Any, rack: Sequence[int], keep: bool, must_use: int = -1,
              require_run: bool = False) -> tuple[int, list[tuple[str, list[int]]]]:
        key = (id(cr), tuple(sorted(rack)), keep, must_use, require_run)
        if key not in self._cache:
            self._check_time()
            value, melds = self.core.solve_melds(cr, counts_of(rack), keep, must_use, require_run,
                                                 current_budget())
            self._cache[key] = (value, [(KINDS[m[0]], list(m[1])) for m in melds])
        found: tuple[int, list[tuple[str, list[int]]]] = self._cache[key]
        return found

    def pairs(self, rack: Sequence[int], keep: bool,
              must_use: int = -1) -> tuple[int, list[tuple[str, list[int]]]]:
        key = ("pairs", tuple(sorted(rack)), keep, must_use)
        if key not in self._cache:
            self._check_time()
            n, pairs = self.core.max_pairs(counts_of(rack), keep, must_use, current_budget())
            self._cache[key] = (n, [("pair", [a, b]) for a, b in pairs])
        found: tuple[int, list[tuple[str, list[int]]]] = self._cache[key]
        return found

    def best_open_value(self, rack: Sequence[int]) -> int:
        value, _ = self.solve(self.cr_open, rack, False, -1, self.rules.opening_needs_run)
        return max(value, 0)

    # -- the pieces of a turn ---------------------------------------------------------------------
    def lay(self, w: _Work, melds: list[tuple[str, list[int]]], step: str, reason: str,
            **extra: Any) -> None:
        first = len(w.table)
        for kind, m in melds:
            for t in m:
                w.rack.remove(t)
            w.table.append(list(m))
            w.owners.append(self.view.seat)
            w.kinds.append(kind)
        w.steps.append({"step": step, **extra,
                        "melds": [{**self.meld_json(m, k), "meld": first + i}
                                  for i, (k, m) in enumerate(melds)],
                        "reason": reason})

    def may_add_to(self, w: _Work, index: int) -> bool:
        return w.kinds[index] != "pair"  # pairs never grow (R101-5)

    def add_tiles(self, w: _Work, must: int | None = None, hold_joker: bool = False) -> None:
        """Greedy additions (R101-11): the most expensive addable tile first, one tile kept
        (``hold_joker``: never a joker, which is kept for a joker finish)."""
        while len(w.rack) > 1:
            best: tuple[int, int, int] | None = None
            for code in sorted(set(w.rack), key=lambda c: (c != must, -self.tile_penalty(c), c)):
                if hold_joker and code == JOKER_CODE:
                    continue
                for mi, meld in enumerate(w.table):
                    if not self.may_add_to(w, mi):
                        continue
                    hit = [pos for pos, add in self.additions(meld, w.kinds[mi]) if add == code]
                    if hit:
                        best = (code, mi, hit[0])
                        break
                if best:
                    break
            if best is None:
                return
            code, mi, pos = best
            w.rack.remove(code)
            if w.kinds[mi] == "set" and self._is_forced_set(w.table[mi], "set"):
                w.table[mi].append(code)
                w.table[mi] = self._sorted_set(w.table[mi])
            else:
                w.table[mi].insert(pos, code)
            gain = self.tile_penalty(code)
            why = ("the taken discard must be used this turn (R101-4)" if code == must else
                   f"R101-11: takes {gain} penalty point{'s' if gain != 1 else ''} off the rack")
            w.steps.append({"step": "add", "tile": str(Tile(code)), "meld": mi, "position": pos,
                            "reason": why})

    @staticmethod
    def _sorted_set(tiles: list[int]) -> list[int]:
        reals = sorted(t for t in tiles if t != JOKER_CODE)
        n = reals[0] % NUM_NUMBERS
        colours = {t // NUM_NUMBERS for t in reals}
        jokers = len(tiles) - len(reals)
        out = []
        for c in range(4):
            if c in colours:
                out.append(c * NUM_NUMBERS + n)
            elif jokers:
                out.append(JOKER_CODE)
                jokers -= 1
        return out

    def retrievals(self, w: _Work) -> list[tuple[int, int, int]]:
        """Jokers this rack can release from the table (R101-9): (meld, joker index, tile)."""
        out = []
        for mi, meld in enumerate(w.table):
            if JOKER_CODE not in meld:
                continue
            for ji, tile in self.releases(meld, w.kinds[mi]):
                if tile in w.rack:
                    out.append((mi, ji, tile))
        return out

    def retrieve(self, w: _Work, mi: int, ji: int, tile: int) -> None:
        w.rack.remove(tile)
        w.table[mi][ji] = tile
        if w.kinds[mi] == "set":
            w.table[mi] = self._sorted_set(w.table[mi])
        w.rack.append(JOKER_CODE)
        w.steps.append({"step": "retrieve", "meld": mi, "index": ji, "tile": str(Tile(tile)),
                        "reason": f"R101-9: {Tile(tile)} replaces the joker, which comes back to "
                                  f"the rack to be played again"})

    # -- after the opening (or when already opened) -----------------------------------------------
    def play_opened(self, w: _Work, must: int | None, may_lay_melds: bool,
                    may_lay_pairs: bool, hold_joker: bool = False) -> _Work | None:
        """Best of: retrieve jokers (any subset of up to 3), lay melds/pairs, add tiles.
        None when the taken discard ``must`` cannot be used (R101-4). With ``hold_joker`` only
        plays that leave a single joker on the rack count (a joker finish, R101-13)."""
        options = self.retrievals(w)
        best: _Work | None = None
        subsets = itertools.chain.from_iterable(
            itertools.combinations(options, k) for k in range(min(3, len(options)) + 1))
        base_count = w.rack.count(must) if must is not None else 0
        for n, subset in enumerate(subsets):
            if n > 16:
                break
            trial = w.copy()
            used: set[tuple[int, int]] = set()
            ok = True
            for mi, ji, tile in subset:
                if ((mi, ji) in used or tile not in trial.rack or len(trial.rack) < 2
                        or trial.table[mi][ji] != JOKER_CODE):
                    ok = False
                    break
                used.add((mi, ji))
                self.retrieve(trial, mi, ji, tile)
            if not ok:
                continue
            self._lay_and_add(trial, must, may_lay_melds, may_lay_pairs, hold_joker)
            if must is not None and trial.rack.count(must) >= base_count:
                continue  # the taken discard was not used (R101-4)
            if hold_joker and trial.rack != [JOKER_CODE]:
                continue
            if best is None or self.rack_penalty(trial.rack) < self.rack_penalty(best.rack):
                best = trial
        return best

    def _lay_and_add(self, w: _Work, must: int | None, may_lay_melds: bool,
                     may_lay_pairs: bool, hold_joker: bool = False) -> None:
        if hold_joker:
            if JOKER_CODE not in w.rack:
                return
            w.rack.remove(JOKER_CODE)  # held back for the final discard
        keep = not hold_joker
        if may_lay_melds and len(w.rack) >= (4 if keep else 3):
            mu = must if must is not None and must in w.rack else -1
            value, melds = self.solve(self.cr_pen, w.rack, keep, mu)
            if value < 0 and mu >= 0:
                value, melds = self.solve(self.cr_pen, w.rack, keep, -1)
            if value > 0 and melds:
                self.lay(w, melds, "lay", "lays the melds that leave the least penalty on the rack "
                                          "(R101-11 allows new melds after the opening)")
        if may_lay_pairs and len(w.rack) >= (3 if keep else 2):
            mu = must if must is not None and must in w.rack else -1
            n, pairs = self.pairs(w.rack, keep, mu)
            if n <= 0 and mu >= 0:
                n, pairs = self.pairs(w.rack, keep, -1)
            if n > 0:
                self.lay(w, pairs, "lay", "lays further pairs (R101-8)")
        if hold_joker:
            w.rack.append(JOKER_CODE)
        self.add_tiles(w, must, hold_joker)

    # -- discards -------------------------------------------------------------------------------
    def discard_options(self, w: _Work) -> list[tuple[float, int, str]]:
        """Candidate discards, best first: (key, tile, reason). The first is the greedy bot's
        choice (:func:`rummy101.bots.strategy.choose_discard`): a loose tile outside the rack's
        best melds, keeping the least penalty and not feeding an opened next player."""
        rack = w.rack
        if len(rack) == 1:
            tile = rack[0]
            why = ("joker finish: the last tile is a joker (R101-12, R101-13 doubles)"
                   if tile == JOKER_CODE else "the last tile: discarding it finishes (R101-12)")
            return [(0.0, tile, why)]
        opened = w.opened is not None
        view = self.view
        next_seat = (view.seat + 1) % view.rules.players
        next_opened = view.opened.get(next_seat) is not None
        kit = kit_for(self.rules)
        feeding = feeding_tiles(kit, list(zip(w.kinds, w.table, strict=True)))
        primary = choose_discard(kit, counts_of(rack), opened, feeding, next_opened)
        out = []
        for tile in sorted(set(rack)):
            if tile == JOKER_CODE:
                continue  # a joker is worth keeping unless it finishes
            rest = list(rack)
            rest.remove(tile)
            feeds = next_opened and tile in feeding
            links = self._links(rest, tile)
            if opened:
                key = -self.tile_penalty(tile) + 3.0 * links + (15.0 if feeds else 0.0)
                why = f"{Tile(tile)} would cost {self.tile_penalty(tile)} if kept"
            else:
                potential = self.best_open_value(rest)
                key = (-potential + 3.0 * links + (15.0 if feeds else 0.0)
                       - 0.1 * self.tile_penalty(tile))
                why = f"keeps {potential} points of melds on the rack towards the opening"
            why += (f"; it connects to {links} other tile{'s' if links != 1 else ''}" if links
                    else "; it connects to no other tile")
            if feeds:
                why += "; note: the next player has opened and could add it to a table meld"
            if tile == primary:
                key = float("-inf")
                why = "a loose tile outside the rack's best melds; " + why
            out.append((key, tile, why))
        if not out:  # only jokers left (two or more)
            out.append((0.0, JOKER_CODE, "only jokers are left"))
        out.sort()
        return out

    @staticmethod
    def _links(rest: Sequence[int], tile: int) -> int:
        c, n = divmod(tile, NUM_NUMBERS)
        links = 0
        for t in set(rest):
            if t == JOKER_CODE:
                continue
            c2, n2 = divmod(t, NUM_NUMBERS)
            if (c2 == c and 0 < abs(n2 - n) <= 2) or (n2 == n and c2 != c) or t == tile:
                links += 1
        return links

    def finish(self, w: _Work, discard: tuple[float, int, str], take: dict[str, Any]) -> Turn:
        from .hint_engine import step_actions

        _, tile, why = discard
        w = w.copy()
        w.rack.remove(tile)
        w.steps.append({"step": "discard", "tile": str(Tile(tile)), "reason": why})
        steps = ([dict(take)] if take else []) + w.steps
        kinds = [m.kind for m in self.view.table]
        for s in steps:
            s["actions"] = step_actions(s, kinds)
        return Turn(tuple(steps), evaluate(self, w, tile, take))

    # -- whole turns ----------------------------------------------------------------------------
    def plans_after_take(self, rack: list[int], must: int | None) -> list[_Work]:
        """Candidate plays with ``rack`` (the take done); ``must``: the taken discard."""
        view = self.view
        w0 = _Work(list(rack), [list(m.tiles) for m in view.table],
                   [m.owner for m in view.table], [m.kind for m in view.table],
                   opened=view.my_opening)
        out: list[_Work] = []
        if view.my_opening is None:
            mu = -1 if must is None else must
            if len(rack) >= 4:
                value, melds = self.solve(self.cr_open, rack, True, mu,
                                          self.rules.opening_needs_run)
                pen_value, pen_melds = self.solve(self.cr_pen, rack, True, mu)
                if pen_value > 0:
                    pen_open = sum(self.meld_value(m, k) for k, m in pen_melds)
                    if pen_open >= view.threshold and pen_open > 0:
                        value, melds = pen_open, pen_melds
                if value >= view.threshold and melds:
                    w, done = self._open_with(
                        w0, melds, "melds", value,
                        f"opens with {value} points of runs and sets (R101-7: at least "
                        f"{view.threshold})")
                    out.append(done if done is not None else w)
            if JOKER_CODE in rack and len(rack) >= 4:
                out += self._open_for_joker_finish(w0, rack, mu)
            if self.rules.pairs_allowed and len(rack) >= 2 * view.pairs_threshold + 1:
                n, pairs = self.pairs(rack, True, mu)
                if n >= view.pairs_threshold:
                    w, done = self._open_with(
                        w0, pairs, "pairs", n,
                        f"opens with {n} pairs (R101-8: at least {view.pairs_threshold}); "
                        "penalties double later")
                    out.append(done if done is not None else w)
            if must is None:
                out.append(w0.copy())  # not opening this turn
        else:
            lay_melds = view.my_opening == "melds"
            lay_pairs = self.rules.pairs_allowed and (view.my_opening == "pairs" or any(
                v == "pairs" for s, v in view.opened.items() if s != view.seat))
            best = self.play_opened(w0.copy(), must, lay_melds, lay_pairs)
            if best is not None:
                out.append(best)
            jf = self.play_opened(w0.copy(), must, lay_melds, lay_pairs, hold_joker=True)
            if jf is not None:
                out.append(jf)
            if must is None and (best is None or best.steps):
                out.append(w0.copy())  # holding back, for the alternatives
        return out

    def _open_for_joker_finish(self, w0: _Work, rack: list[int], mu: int) -> list[_Work]:
        """R101-12/13: open with everything but one joker (then add), and discard the joker."""
        rest = list(rack)
        rest.remove(JOKER_CODE)
        value, melds = self.solve(self.cr_open, rest, False, mu, self.rules.opening_needs_run)
        if value < self.view.threshold or not melds:
            return []
        _, done = self._open_with(
            w0, melds, "melds", value,
            f"opens with {value} points of runs and sets (R101-7: at least "
            f"{self.view.threshold}), holding a joker back to finish with", hold_joker=True)
        return [done] if done is not None else []

    def _open_with(self, w0: _Work, melds: list[tuple[str, list[int]]],
                   kind: Literal["melds", "pairs"], value: int, reason: str,
                   hold_joker: bool = False) -> tuple[_Work, _Work | None]:
        """Lay an opening of ``kind`` ("melds" or "pairs") on a copy of ``w0``, then play the
        rest of the turn as an opened player: (the turn after the opening, the finished turn or
        None when nothing more could be played)."""
        w = w0.copy()
        self.lay(w, melds, "open", reason, kind=kind, value=value)
        w.opened, w.opened_now, w.laid_value = kind, True, value
        return w, self.play_opened(w, None, False, False, hold_joker=hold_joker)

    def turns(self) -> list[Turn]:
        view = self.view
        rack = [int(t) for t in view.rack]
        turns: list[Turn] = []
        takes: list[tuple[dict[str, Any], list[int], int | None]] = []
        if view.stage == "play":
            taken = None if view.taken_discard is None else int(view.taken_discard)
            takes.append(({}, rack, taken))
        else:
            takes.append(({"step": "draw",
                           "reason": "draw the top stock tile (R101-3); ask again with the drawn "
                                     "tile for the rest of the turn"},
                          rack, None))
            if view.last_discard is not None:
                d = int(view.last_discard)
                takes.append(({"step": "take_discard", "tile": str(Tile(d)),
                               "reason": "R101-4: the previous player's discard, used this turn"},
                              rack + [d], d))
            if view.button_available:
                takes.append(({"step": "button", "tile": "*",
                               "reason": "R101-10: a joker from the button instead of the draw"},
                              rack + [JOKER_CODE], None))
        for take, r, must in takes:
            for w in self.plans_after_take(r, must):
                if must is not None and w.rack.count(must) >= r.count(must):
                    continue  # illegal: the taken discard is not used (R101-4)
                for discard in self.discard_options(w)[:2]:
                    turns.append(self.finish(w, discard, take))
        unique: dict[tuple[str, ...], Turn] = {}
        for t in turns:
            key = tuple(t.actions)
            if key not in unique or unique[key].score < t.score:
                unique[key] = t
        return sorted(unique.values(), key=lambda t: -t.score)


def evaluate(planner: _Planner, w: _Work, discard: int,
             take: Mapping[str, Any]) -> dict[str, Any]:
    """The evaluation of a planned turn (the module docstring gives the formula)."""
    view = planner.view
    rest = list(w.rack)  # after the discard
    finished = not rest
    out: dict[str, Any] = {"opened": w.opened, "opened_this_turn": w.opened_now,
                           "tiles_left": len(rest), "finishes": finished}
    if finished:
        joker_finish = discard == JOKER_CODE
        one_turn = not view.anyone_opened and w.opened_now
        score = FINISH_SCORE + (500 if joker_finish else 0) + (500 if one_turn else 0)
        out.update(penalty_if_round_ended=0, joker_finish=joker_finish, in_one_turn=one_turn)
    else:
        if w.opened is None:
            penalty = 202
        else:
            penalty = planner.rack_penalty(rest) * (2 if w.opened == "pairs" else 1)
        score = -float(penalty) - 3.0 * len(rest)
        if w.opened is None:
            best = planner.best_open_value(rest)
            pairs = max(planner.pairs(rest, False)[0], 0) if planner.rules.pairs_allowed else 0
            score += (50.0 * min(1.0, best / view.threshold)
                      + 20.0 * min(1.0, pairs / max(1, view.pairs_threshold)))
            out["best_opening_value_on_rack"] = best
        out["penalty_if_round_ended"] = penalty
    if take.get("step") == "draw":
        expected = _expected_draw_penalty(planner)
        if w.opened is not None:
            score -= UNUSABLE_DRAW * expected
        out["expected_draw_penalty"] = round(expected, 2)
    if take.get("step") == "button" and not (finished or w.opened_now):
        score -= BUTTON_COST
    out["score"] = round(score, 3)
    return out


def _expected_draw_penalty(planner: _Planner) -> float:
    view = planner.view
    seen = counts_of([int(t) for t in view.rack] + [int(t) for m in view.table for t in m.tiles])
    total = weight = 0.0
    for code in range(NUM_CODES - 1):
        left = view.rules.copies - seen[code]
        if left > 0:
            total += left * planner.tile_penalty(code)
            weight += left
    return total / weight if weight else 0.0


def hint(view: SeatView, alternatives: int = 3) -> Hint:
    """The recommended turn for ``view`` and up to ``alternatives`` next-best turns."""
    turns = _Planner(view).turns()
    if not turns:
        raise IllegalAction(f"no legal turn found for seat {view.seat} with rack "
                            f"{' '.join(map(str, view.rack))!r} (R101-3)")
    return Hint(view, turns[0], tuple(turns[1:1 + alternatives]))


def hint_json(body: Any) -> dict[str, Any]:
    """``POST /v1/hint``: validate the request, plan, and answer JSON."""
    view = SeatView.from_json(body)
    alternatives = read_opt_int(body, "alternatives", lo=0, hi=10)
    return hint(view, 3 if alternatives is None else alternatives).to_json()

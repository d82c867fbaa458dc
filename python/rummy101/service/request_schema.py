"""JSON Schemas of the service's request bodies, for the OpenAPI document.

They describe exactly what :mod:`rummy101._validate` accepts as far as JSON Schema can say it: token
grammars (tiles, cards), rule-set grammars per variant, sizes and ranges, which fields each form
of a request takes. What JSON Schema cannot say is listed in :data:`SEMANTIC_RULES` (and in the
document): the copies of a tile the set holds, meld legality, a consistent game position. A body
that matches the schema and keeps those rules is answered 200; anything else answers 4xx.

>>> import re
>>> bool(re.fullmatch(TILE_TOKEN, "r13")), bool(re.fullmatch(TILE_TOKEN, "R14"))
(True, False)
>>> bool(re.fullmatch(RULES["rummy101"], "rummy101(players=3, threshold=increasing)"))
True
>>> bool(re.fullmatch(RULES["rummy101"], "rummy101(players=5)"))
False
"""

from __future__ import annotations

from typing import Any

from .limits import (
    MAX_BATCH,
    MAX_HINT_RACK,
    MAX_INT,
    MAX_MELD,
    MAX_RACK,
    MAX_RACK_CHARS,
    MAX_RULES_CHARS,
    MAX_TABLE_MELDS,
)

__all__ = ["CARD_TOKEN", "RULES", "SEMANTIC_RULES", "TILE_TOKEN", "request_schemas"]

TILE_TOKEN = r"(?:[RYBKrybk](?:1[0-3]|[1-9])|\*|[Jj][Kk]|[Jj][Oo][Kk][Ee][Rr])"
CARD_TOKEN = r"(?:(?:[AaTtJjQqKk]|[2-9]|10)[SHDCshdc♠♥♦♣])"

_SP = r"\s*"
_BOOL = r"(?:on|off|true|false|yes|no|1|0)"


def _rules_pattern(name: str, options: list[str]) -> str:
    opt = "(?:" + "|".join(options) + ")"
    return (rf"^{_SP}{name}{_SP}(?:\({_SP}(?:{opt}(?:{_SP},{_SP}{opt})*)?{_SP}\))?{_SP}$")


def _opt(name: str, value: str) -> str:
    return rf"{name}{_SP}={_SP}{value}"


RULES: dict[str, str] = {
    "rummy101": _rules_pattern("rummy101", [
        _opt("players", "[2-4]"), _opt("threshold", "(?:fixed|increasing)"),
        _opt("button_jokers", "(?:[0-9]|[1-9][0-9]{1,2}|1000)")]),
    "remi": _rules_pattern("remi", [
        _opt("players", "[2-4]"), _opt("atu", _BOOL), _opt("doubles", _BOOL),
        _opt("tabla", _BOOL), _opt("joly_atu_deal", "1[34]"), _opt("joly_retrievals", "[12]")]),
    "remi_tabla": _rules_pattern("remi", [
        _opt("players", "[2-4]"), _opt("atu", _BOOL), _opt("doubles", _BOOL),
        _opt("tabla", "(?:on|true|yes|1)"), _opt("joly_atu_deal", "1[34]"),
        _opt("joly_retrievals", "[12]")]),
    "classic": _rules_pattern("classic", [
        _opt("players", "[2-4]"), _opt("target", "(?:[1-9][0-9]{0,4}|100000)"),
        _opt("go_out", "(?:broad|narrow)")]),
}

SEMANTIC_RULES = (
    "Beyond this schema: a rack (or the rack, table and last discard of a hint together) holds "
    "no more copies of a tile than the variant's set (2 of each tile, 1 of each card; jokers: 2 "
    "in remi; in rummy101 a solved rack or a meld holds at most 6 whatever the options (the "
    "set's 2 plus one joker-button joker per player, docs/rules.md), and a hint's rack, table "
    "and last discard together 2, plus one per player when `button_jokers` > 0); an option is given once in a rules string; `must_use` is on the "
    "rack; in a hint, table melds are legal melds (R101-5) owned by seats marked opened, a "
    "pair is on the table only when some seat opened with pairs, a seat that did owns no "
    "run or set (R101-8), seats are below the number "
    "of players and listed once, `threshold`/`pairs_threshold` differ from 101/5 only with "
    "`threshold=increasing` and never fall below them, `button_available` needs "
    "`button_jokers` > 0, `taken_discard` needs stage `play` and is on the rack, "
    "`last_discard` needs stage `take`; an `observation` or `record` comes from the engine at "
    "a turn of the game. A request that breaks one of these answers 422 naming it.")


def _string(pattern: str, what: str, max_length: int) -> dict[str, Any]:
    return {"type": "string", "pattern": pattern, "maxLength": max_length, "description": what}


def rack_schema(token: str, lo: int, hi: int, what: str) -> dict[str, Any]:
    """A rack as a string of ``lo``..``hi`` tokens separated by spaces or commas, or a list of
    tokens."""
    sep = r"[\s,]"
    text = rf"^{sep}*{token}(?:{sep}+{token}){{{lo - 1},{hi - 1}}}{sep}*$"
    return {"anyOf": [
        _string(text, f"{what}: {lo} to {hi} tokens separated by spaces or commas", MAX_RACK_CHARS),
        {"type": "array", "minItems": lo, "maxItems": hi,
         "items": {"type": "string", "pattern": rf"^\s*{token}\s*$"},
         "description": f"{what}: a list of {lo} to {hi} tokens"},
    ]}


def _int(lo: int, hi: int, what: str) -> dict[str, Any]:
    return {"type": ["integer", "null"], "minimum": lo, "maximum": hi, "description": what}


def _rules(pattern: str, default: str | None) -> dict[str, Any]:
    schema: dict[str, Any] = {
        "type": "string" if default is None else ["string", "null"], "pattern": pattern,
        "maxLength": MAX_RULES_CHARS,
        "description": "Rule set: variant name, optionally with options in parentheses, e.g. "
                       "`rummy101(threshold=increasing,players=3)`"}
    if default is not None:
        schema["default"] = default
    return schema


_NULL = {"type": "null"}
_THRESHOLD = _int(0, MAX_INT, "Current melds threshold (R101-14).")
_PAIRS = _int(0, MAX_INT, "Current pairs threshold (R101-14, rummy101 only).")


def _family(variant: str, token: str, optional_rules: bool, fields: dict[str, Any],
            rack_field: str, rack: dict[str, Any], title: str) -> dict[str, Any]:
    props = {"rules": _rules(RULES[variant], "rummy101" if optional_rules else None),
             rack_field: rack, **fields}
    return {"title": title, "type": "object", "additionalProperties": False,
            "required": [rack_field] if optional_rules else ["rules", rack_field],
            "properties": props}


def _opening(variant: str, token: str, optional_rules: bool) -> dict[str, Any]:
    fields: dict[str, Any] = {
        "threshold": _THRESHOLD,
        "pairs_threshold": _PAIRS if variant == "rummy101" else _NULL,
        "must_use": {"anyOf": [{"type": "string", "pattern": rf"^\s*{token}\s*$"}, _NULL],
                     "description": "A tile just taken from the discard pile that the opening "
                                    "has to contain (R101-4); it must be on the rack."},
    }
    return _family(variant, token, optional_rules, fields, "rack",
                   rack_schema(token, 1, MAX_RACK, "The rack"), f"Opening request ({variant})")


def _penalty(variant: str, token: str, optional_rules: bool) -> dict[str, Any]:
    fields = {"keep": {"type": ["boolean", "null"], "default": None,
                       "description": "Keep at least one piece on the rack (for the discard). "
                                      "Absent or null: as the variant finishes, always in "
                                      "rummy101 and remi (R101-12, RO-13), in classic only where "
                                      "going out needs a final discard (CR-4)."}}
    return _family(variant, token, optional_rules, fields, "rack",
                   rack_schema(token, 1, MAX_RACK, "The rack"), f"Penalty request ({variant})")


def _meld(variant: str, token: str, optional_rules: bool) -> dict[str, Any]:
    fields = {"kind": {"enum": ["run", "set", "pair", None], "default": None,
                       "description": "The reading asked for: needed only for a set of one tile "
                                      "and jokers such as `* * K13` (a solver's set of 13s), "
                                      "which reads as a run otherwise. Tiles that are a meld "
                                      "of another kind answer `valid: false`."}}
    return _family(variant, token, optional_rules, fields, "meld",
                   rack_schema(token, 1, MAX_MELD, "The tiles of one meld in table order"),
                   f"Meld request ({variant})")


_VIEW_FIELDS = ("rules", "rack", "table", "last_discard", "players", "threshold",
                "pairs_threshold", "button_available", "stage", "taken_discard")


def _hint_schemas() -> dict[str, dict[str, Any]]:
    tile = {"type": "string", "pattern": rf"^\s*{TILE_TOKEN}\s*$"}
    alternatives = _int(0, 10, "How many next-best turns to list (default 3).")
    table_meld = {
        "title": "TableMeld", "type": "object", "additionalProperties": False,
        "required": ["owner", "tiles"],
        "properties": {
            "owner": {"type": "integer", "minimum": 0, "maximum": 3,
                      "description": "Seat that laid the meld (a seat marked opened)."},
            "tiles": rack_schema(TILE_TOKEN, 1, MAX_MELD, "The meld's tiles in table order"),
            "kind": {"enum": ["run", "set", "pair", None],
                     "description": "Needed only for a set such as `R5 * *`, which reads as a "
                                    "run otherwise."},
            "id": {"description": "Ignored (an engine observation's meld id)."},
            "value": {"description": "Ignored (an engine observation's meld value)."},
        }}
    player = {
        "title": "PlayerView", "type": "object", "additionalProperties": False,
        "required": ["seat"],
        "properties": {
            "seat": {"type": "integer", "minimum": 0, "maximum": 3},
            "opened": {"enum": ["melds", "pairs", None],
                       "description": "How this player opened, or null (R101-7, R101-8)."},
            "rack_size": _int(0, MAX_INT, "Tiles on that player's rack (informative)."),
        }}
    view = {
        "title": "HintView", "type": "object", "additionalProperties": False,
        "required": ["seat", "rack"],
        "description": "One seat's view of a Rummy 101 game.",
        "properties": {
            "rules": _rules(RULES["rummy101"], "rummy101"),
            "seat": {"type": "integer", "minimum": 0, "maximum": 3,
                     "description": "The seat to advise (below the number of players)."},
            "rack": rack_schema(TILE_TOKEN, 1, MAX_HINT_RACK,
                                "Its tiles (in stage `play`, with the tile taken this turn)"),
            "table": {"type": ["array", "null"], "maxItems": MAX_TABLE_MELDS,
                      "items": {"$ref": "#/components/schemas/TableMeld"}},
            "last_discard": {"anyOf": [tile, _NULL],
                             "description": "Stage `take`: the previous player's discard, which "
                                            "may be taken (R101-4)."},
            "players": {"type": ["array", "null"], "maxItems": 4,
                        "items": {"$ref": "#/components/schemas/PlayerView"}},
            "threshold": _int(1, MAX_INT, "Current melds threshold (increasing mode, R101-14)."),
            "pairs_threshold": _int(1, 52, "Current pairs threshold (increasing mode)."),
            "button_available": {"type": ["boolean", "null"],
                                 "description": "The joker button may be pressed (R101-10)."},
            "stage": {"enum": ["take", "play", None],
                      "description": "`take` (default): the turn starts; `play`: the take is "
                                     "done and `rack` holds the taken tile."},
            "taken_discard": {"anyOf": [tile, _NULL],
                              "description": "Stage `play`: the discard taken this turn (it must "
                                             "be used, R101-4)."},
            "alternatives": alternatives,
            "record": _NULL,
            "observation": _NULL,
        }}
    nulls = {name: _NULL for name in _VIEW_FIELDS}
    observation = {
        "title": "HintObservation", "type": "object", "additionalProperties": False,
        "required": ["observation"],
        "description": "The engine's `State.observation(seat)` at that seat's turn, as "
                       "it is: every field is checked, those the hint does not read too.",
        "properties": {**nulls, "observation": {"type": "object"},
                       "seat": {"type": ["integer", "null"],
                                "description": "The observation's seat (optional)."},
                       "alternatives": alternatives, "record": _NULL}}
    record = {
        "title": "HintRecord", "type": "object", "additionalProperties": False,
        "required": ["record"],
        "description": "A game record (rummy101.game.records; object or its JSON text, at most "
                       "5000 actions of at most 200 characters each, the fields of a record "
                       "only, with its optional `seats`): the hint is for the player to move "
                       "once every action is played (`seat`, if given, must be that seat); no "
                       "`rules` beside it, the record carries its own.",
        "properties": {**nulls, "record": {"type": ["object", "string"]},
                       "seat": {"type": ["integer", "null"]},
                       "alternatives": alternatives, "observation": _NULL}}
    return {"TableMeld": table_meld, "PlayerView": player, "HintView": view,
            "HintObservation": observation, "HintRecord": record}


def request_schemas() -> tuple[dict[str, dict[str, Any]], dict[str, Any]]:
    """(components, request body schema per operation path)."""
    comps: dict[str, dict[str, Any]] = {}
    for kind, make in (("Opening", _opening), ("Penalty", _penalty), ("Meld", _meld)):
        comps[f"{kind}Rummy101"] = make("rummy101", TILE_TOKEN, True)
        comps[f"{kind}Remi"] = make("remi", TILE_TOKEN, False)
        comps[f"{kind}Classic"] = make("classic", CARD_TOKEN, False)
    comps["OpeningBatch"] = {
        "title": "Opening batch", "type": "object", "additionalProperties": False,
        "required": ["racks"],
        "properties": {
            "rules": _rules("|".join(RULES[v] for v in ("rummy101", "remi", "classic")),
                            "rummy101"),
            "racks": {"type": "array", "minItems": 1, "maxItems": MAX_BATCH,
                      "items": {"description": "A rack (string or list of tokens) or an opening "
                                              "request object; each item is checked on its own "
                                              "and a bad one gets {\"error\"} in its place."}},
            "threshold": _THRESHOLD,
            "pairs_threshold": _PAIRS,
            "must_use": {"type": ["string", "null"],
                         "description": "Shared by the items (checked per item)."},
        }}
    comps["OpeningBatchList"] = {
        "title": "Opening batch (list)", "type": "array", "minItems": 1, "maxItems": MAX_BATCH,
        "items": {"description": "An opening request object (checked on its own; a bad one "
                                 "gets {\"error\"} in its place)."}}
    comps["TablaRequest"] = {
        "title": "Tabla request", "type": "object", "additionalProperties": False,
        "required": ["rack"],
        "properties": {"rules": _rules(RULES["remi_tabla"], "remi"),
                       "rack": rack_schema(TILE_TOKEN, 14, 15,
                                           "A Remi rack of 14 or 15 tiles")}}
    comps.update(_hint_schemas())

    def ref(name: str) -> dict[str, str]:
        return {"$ref": f"#/components/schemas/{name}"}

    bodies: dict[str, Any] = {
        "/v1/solve/opening": {"anyOf": [ref("OpeningRummy101"), ref("OpeningRemi"),
                                        ref("OpeningClassic"), ref("OpeningBatch"),
                                        ref("OpeningBatchList")]},
        "/v1/solve/penalty": {"anyOf": [ref("PenaltyRummy101"), ref("PenaltyRemi"),
                                        ref("PenaltyClassic")]},
        "/v1/solve/tabla": ref("TablaRequest"),
        "/v1/validate/meld": {"anyOf": [ref("MeldRummy101"), ref("MeldRemi"),
                                        ref("MeldClassic")]},
        "/v1/hint": {"anyOf": [ref("HintView"), ref("HintObservation"), ref("HintRecord")]},
    }
    return comps, bodies

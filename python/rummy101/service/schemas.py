"""Pydantic models that *document* the HTTP service in its OpenAPI document.

Requests are validated by :mod:`.validate` (one place for the CLI and HTTP, with messages that
name the problem); these models describe the same shapes for clients and for schemathesis.
"""

from __future__ import annotations

from typing import Any, Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field

from .examples import EXAMPLES
from .limits import MAX_BATCH, MAX_INT, MAX_MELD, MAX_RACK, MAX_RULES_CHARS, MAX_TABLE_MELDS

__all__ = [
    "ErrorAnswer", "Health", "Info",
    "OpeningRequest", "OpeningBatchRequest", "OpeningAnswer", "OpeningBatchAnswer", "MeldOut",
    "PenaltyRequest", "PenaltyAnswer", "TablaRequest", "TablaAnswer",
    "MeldRequest", "MeldAnswer", "HintRequest", "HintAnswer",
]

_RACK_DOC = (f"A rack: tokens separated by spaces or commas (\"R1 R2 * K13\"), or a list of "
             f"tokens; at most {MAX_RACK} tokens. Tiles R/Y/B/K + 1-13, `*` for the joker; cards "
             f"A 2-10 J Q "
             f"K + S H D C for `classic`.")

Rack = Union[str, list[str]]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ErrorAnswer(BaseModel):
    """Every 4xx answer: what was wrong with the request."""

    error: str = Field(description="What was wrong, quoting the bad input and what is accepted.")
    model_config = ConfigDict(json_schema_extra={"examples": [
        {"error": "field 'rack': token 2 of 2 ('X5') is not a tile: a tile is a colour R/Y/B/K "
                  "followed by a number 1-13 (e.g. R5, k13), or * / JK / JOKER"}]})


class Health(BaseModel):
    status: Literal["ok"]


class Info(BaseModel):
    version: str
    backend: Literal["native", "pure"]
    limits: dict[str, int]


def _rules_field(default: str) -> Any:
    return Field(default, max_length=MAX_RULES_CHARS,
                 description="Rule set: `rummy101`, `remi`, `classic`, optionally with options in "
                             "parentheses, e.g. `rummy101(threshold=increasing,players=3)`.")


class OpeningRequest(_Strict):
    """One rack to open with (CONTRACT.md, Solver results)."""

    rules: str = _rules_field("rummy101")
    rack: Rack = Field(description=_RACK_DOC)
    threshold: Optional[int] = Field(None, ge=0, le=MAX_INT,
                                     description="Current melds threshold (R101-14).")
    pairs_threshold: Optional[int] = Field(None, ge=0, le=MAX_INT,
                                           description="Current pairs threshold (R101-14).")
    must_use: Optional[str] = Field(None, description="A tile just taken from the discard pile "
                                                      "that the opening has to contain (R101-4).")
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [EXAMPLES["opening"]]})


class OpeningBatchRequest(_Strict):
    """Many racks in one request; they go through the batch solver."""

    rules: str = _rules_field("rummy101")
    racks: list[Union[str, list[str], OpeningRequest]] = Field(
        min_length=1, max_length=MAX_BATCH,
        description=f"1 to {MAX_BATCH} racks; an item may be an opening request object with its "
                    f"own rules and thresholds.")
    threshold: Optional[int] = Field(None, ge=0, le=MAX_INT)
    pairs_threshold: Optional[int] = Field(None, ge=0, le=MAX_INT)
    must_use: Optional[str] = None
    model_config = ConfigDict(extra="forbid",
                              json_schema_extra={"examples": [EXAMPLES["opening_batch"]]})


class MeldOut(BaseModel):
    """A meld of an answer: its tiles in table order and what each joker stands for."""

    kind: Literal["run", "set", "pair"]
    tiles: list[str]
    value: int
    jokers: dict[str, str] = Field(description="Index of each joker in `tiles` -> the tile it "
                                               "stands for.")


class OpeningAnswer(BaseModel):
    """The best opening (CONTRACT.md): optimal `value`; `kind` null when the rack cannot open."""

    rules: str
    rack: str
    kind: Optional[Literal["melds", "pairs"]]
    value: int
    melds: list[MeldOut]
    rest: list[str]


class OpeningBatchAnswer(BaseModel):
    """One answer per item of the batch, in order; a bad item gets `{"error": ...}`."""

    results: list[Union[OpeningAnswer, ErrorAnswer]]


class PenaltyRequest(_Strict):
    rules: str = _rules_field("rummy101")
    rack: Rack = Field(description=_RACK_DOC)
    keep: bool = Field(True, description="Keep at least one tile on the rack (for the discard).")
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [EXAMPLES["penalty"]]})


class PenaltyAnswer(BaseModel):
    """The lay-down leaving the least penalty on the rack, and that penalty."""

    rules: str
    rack: str
    keep: bool
    penalty: int
    melds: list[MeldOut]
    rest: list[str]


class TablaRequest(_Strict):
    rules: str = _rules_field("remi")
    rack: Rack = Field(description=_RACK_DOC)
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [EXAMPLES["tabla"]]})


class TablaMeldOut(BaseModel):
    kind: Literal["run", "set"]
    tiles: list[str]
    value: Optional[int] = Field(None, description="Lay-down value (RO-8).")
    jokers: dict[str, str]


class TablaCloseOut(BaseModel):
    """One close: a simple close lists `melds`, a row pattern lists `row` and `jokers`."""

    discard: Optional[str] = Field(None, description="The final discard (15-tile racks only).")
    pattern: Literal["simple", "mozaic", "bicolor", "monocolor"]
    score: int
    joly_finish: Optional[bool] = None
    melds: Optional[list[TablaMeldOut]] = None
    row: Optional[list[str]] = None
    jokers: Optional[dict[str, str]] = None


class TablaDistanceOut(BaseModel):
    simple: int
    mozaic: int
    bicolor: int
    monocolor: int


class TablaAnswer(BaseModel):
    """The best close on the rack (RO-11) of a Remi rack: `closes` for 15 tiles (one per closing
    discard), `patterns` for 14 tiles; `best` is null when the rack does not close."""

    rules: str
    rack: str
    closes: Optional[list[TablaCloseOut]] = None
    patterns: Optional[list[TablaCloseOut]] = None
    best: Optional[TablaCloseOut]
    distance: TablaDistanceOut


class MeldRequest(_Strict):
    rules: str = _rules_field("rummy101")
    meld: Rack = Field(description=f"The tiles of one meld in table order (at most {MAX_MELD}); a "
                                   f"joker sits at the position it fills.")
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [EXAMPLES["meld"]]})


class MeldAnswer(BaseModel):
    """Whether the tiles form a legal meld (`valid`, else `reason` says why), its kind, its value
    for openings (`open_value`) and at round end (`end_value`), what each joker stands for,
    every single tile that can be added as `[position, tile]` (0 = before the first tile), and
    per joker index the alternative tile groups that release it (R101-9, RO-9.5/9.6)."""

    rules: str
    tiles: list[str]
    valid: bool
    kind: Optional[Literal["run", "set", "pair"]]
    reason: Optional[str]
    open_value: Optional[int]
    end_value: Optional[int]
    jokers: dict[str, str]
    additions: list[list[Union[int, str]]] = Field(
        description="`[position, tile]` pairs: position 0 is before the first tile, len(tiles) "
                    "after the last (sets: where the tile sorts in).")
    releases: list[list[Union[int, list[list[str]]]]] = Field(
        description="`[joker index, [[tiles], ...]]`: the alternative tile groups that release "
                    "that joker.")


class PlayerView(_Strict):
    seat: int = Field(ge=0, le=3)
    opened: Optional[Literal["melds", "pairs"]] = Field(
        None, description="How this player opened, or null if not yet (R101-7, R101-8).")
    rack_size: Optional[int] = Field(None, ge=0, le=MAX_RACK)


class TableMeld(_Strict):
    owner: int = Field(ge=0, le=3, description="Seat that laid the meld.")
    tiles: list[str] = Field(min_length=2, max_length=MAX_MELD)
    kind: Optional[Literal["run", "set", "pair"]] = Field(
        None, description="Needed only for a set such as `R5 * *`, which reads as a run otherwise.")


class HintRequest(_Strict):
    """One seat's view of a Rummy 101 game, or a game record (then `seat` defaults to the player
    to move)."""

    rules: str = _rules_field("rummy101")
    seat: Optional[int] = Field(None, ge=0, le=3)
    rack: Optional[Rack] = Field(None, description=_RACK_DOC)
    table: list[TableMeld] = Field([], max_length=MAX_TABLE_MELDS)
    last_discard: Optional[str] = Field(None, description="The previous player's discard, which "
                                                          "may be taken (R101-4).")
    players: list[PlayerView] = Field([], max_length=4)
    threshold: Optional[int] = Field(None, ge=0, le=MAX_INT)
    pairs_threshold: Optional[int] = Field(None, ge=0, le=MAX_INT)
    button_available: bool = Field(False, description="The joker button may be pressed (R101-10).")
    stage: Literal["take", "play"] = Field(
        "take", description="`take`: the turn starts (draw, discard or button to choose); `play`: "
                            "the take is done and `rack` holds the taken tile.")
    taken_discard: Optional[str] = Field(
        None, description="In stage `play`: the discard taken this turn, which must be used "
                          "(R101-4).")
    alternatives: int = Field(3, ge=0, le=10)
    record: Optional[Union[str, dict[str, Any]]] = Field(
        None, description="A game record (rummy101.game.records, object or JSON text, at most 5000 "
                          "actions): the hint is for the player to move (or `seat`); replaces the "
                          "view fields.")
    observation: Optional[dict[str, Any]] = Field(
        None, description="`State.observation(seat)` of the rummy101 game engine at that seat's "
                          "turn; replaces the view fields.")
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [EXAMPLES["hint"]]})


class Step(BaseModel):
    """One step of a turn, with why, and the engine actions (`rummy101.game.Action` text) that
    play it. `open`/`lay` carry `melds` (each with its table index `meld`); `add` carries
    `tile`, `meld`, `position`; `retrieve` carries `meld`, `index` (of the joker) and `tile`;
    `take_discard`, `button` and `discard` carry `tile`."""

    model_config = ConfigDict(extra="allow")
    step: Literal["draw", "take_discard", "button", "open", "lay", "add", "retrieve", "discard"]
    reason: str
    actions: list[str]


class Evaluation(BaseModel):
    """Higher is better: 1000+ for a finish; otherwise minus the penalty if the round ended now,
    minus 3 per tile left, plus progress towards an opening (see docs/service.md)."""

    model_config = ConfigDict(extra="allow")
    score: float
    opened: Optional[Literal["melds", "pairs"]]
    finishes: bool
    tiles_left: int
    penalty_if_round_ended: int


class TurnOut(BaseModel):
    steps: list[Step]
    actions: list[str] = Field(description="The whole turn as engine actions, in order.")
    evaluation: Evaluation


class HintAnswer(BaseModel):
    """The recommended turn, with a reason per step, and the next-best alternatives."""

    rules: str
    seat: int
    stage: Literal["take", "play"]
    rack: str
    turn: TurnOut
    alternatives: list[TurnOut]

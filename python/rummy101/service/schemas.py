"""Pydantic models that *document* the HTTP service's answers in its OpenAPI document.

Requests are validated by :mod:`rummy101._validate` (one place for the CLI and HTTP, with
messages that name the problem) and described by :mod:`.request_schema`; these models describe the
answers for clients and for schemathesis.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "Deleted",
    "ErrorAnswer",
    "GameHint",
    "GameOptions",
    "GameRecord",
    "GameView",
    "Health",
    "HintAnswer",
    "Info",
    "MeldAnswer",
    "MeldOut",
    "OpeningAnswer",
    "OpeningBatchAnswer",
    "PenaltyAnswer",
    "ReplaySummary",
    "ReplayTurn",
    "TablaAnswer",
]



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
    limits: dict[str, float] = Field(description="Every limit of `rummy101.service.limits` "
                                                 "(sizes, seconds, work budgets in nodes).")


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
    kind: Literal["melds", "pairs"] | None
    value: int
    melds: list[MeldOut]
    rest: list[str]


class OpeningBatchAnswer(BaseModel):
    """One answer per item of the batch, in order; a bad item gets `{"error": ...}`."""

    results: list[OpeningAnswer | ErrorAnswer]


class PenaltyAnswer(BaseModel):
    """The lay-down leaving the least penalty on the rack, and that penalty."""

    rules: str
    rack: str
    keep: bool
    penalty: int
    melds: list[MeldOut]
    rest: list[str]


class TablaMeldOut(BaseModel):
    kind: Literal["run", "set"]
    tiles: list[str]
    value: int | None = Field(None, description="Lay-down value (RO-8).")
    jokers: dict[str, str]


class TablaCloseOut(BaseModel):
    """One close: a simple close lists `melds`, a row pattern lists `row` and `jokers`."""

    discard: str | None = Field(None, description="The final discard (15-tile racks only).")
    pattern: Literal["simple", "mozaic", "bicolor", "monocolor"]
    score: int
    joly_finish: bool | None = None
    melds: list[TablaMeldOut] | None = None
    row: list[str] | None = None
    jokers: dict[str, str] | None = None


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
    closes: list[TablaCloseOut] | None = None
    patterns: list[TablaCloseOut] | None = None
    best: TablaCloseOut | None
    distance: TablaDistanceOut


class MeldAnswer(BaseModel):
    """Whether the tiles form a legal meld (`valid`, else `reason` says why), its kind, its value
    for openings (`open_value`) and at round end (`end_value`), what each joker stands for,
    every single tile that can be added as `[position, tile]` (0 = before the first tile), and
    per joker index the alternative tile groups that release it (R101-9, RO-9.5/9.6)."""

    rules: str
    tiles: list[str]
    valid: bool
    kind: Literal["run", "set", "pair"] | None
    reason: str | None
    open_value: int | None
    end_value: int | None
    jokers: dict[str, str]
    additions: list[list[int | str]] = Field(
        description="`[position, tile]` pairs: position 0 is before the first tile, len(tiles) "
                    "after the last (sets: where the tile sorts in).")
    releases: list[list[int | list[list[str]]]] = Field(
        description="`[joker index, [[tiles], ...]]`: the alternative tile groups that release "
                    "that joker.")


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
    opened: Literal["melds", "pairs"] | None
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


# ---- the games API of the web page (rummy101.service.games) ----------------------------------
class _Open(BaseModel):
    model_config = ConfigDict(extra="allow")


class GameOptions(_Open):
    """What a new game may be: the playable variants with their options, the bots, limits."""

    variants: list[dict[str, object]]
    bots: list[str]
    limits: dict[str, float]


class GameView(_Open):
    """Your view of a game: your seat's observation (the engine's `State.observation`), the
    legal actions as text when it is your turn, status, standings and round results, the
    moves played by this request (yours and the bots') and the latest moves."""

    id: str
    rules: str
    variant: str
    seed: int | None = Field(description="The deal's seed, once the game is over (`null` "
                                         "before: it deals every rack, the bots' too).")
    seat: int
    players: int
    bots: list[str] = Field(description="Per seat: the bot's name, `you` for your seat.")
    observation: dict[str, object]
    legal: list[str]
    your_turn: bool
    over: bool
    status: str
    standings: list[int]
    round_scores: list[list[int]]
    round_results: list[dict[str, object]]
    hints: bool
    log: list[dict[str, object]]
    moves: list[dict[str, object]]


class GameHint(_Open):
    """A hint for your turn (`available: false` with a `message` for a variant without hints;
    otherwise the fields of `POST /v1/hint`'s answer)."""

    available: bool


class GameRecord(_Open):
    """The game record (`rummy101.game.records`), with `seats`: who played each seat; once the
    game is over (before, 422: its seed deals every rack, the bots' too)."""

    format: str
    rules: str
    seed: int
    actions: list[str]


class Deleted(BaseModel):
    deleted: str


class ReplaySummary(_Open):
    """A loaded record: its outcome and its turns (consecutive actions of one seat), each marked
    once analysed (`mistake`, `loss`)."""

    id: str
    rules: str
    turns: list[dict[str, object]]


class ReplayTurn(_Open):
    """One turn: the position before it (the seat's observation), the actions played, the
    hint's turn (Rummy 101), both scored by the hint's evaluation, the loss and whether it is a
    mistake."""

    turn: int
    seat: int
    played: list[str]
    mistake: bool
    loss: float | None

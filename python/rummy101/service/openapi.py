"""The OpenAPI document of the service: every request and response shape, examples and limits.

Routes read their bodies themselves (:mod:`rummy101._validate`), so the document is assembled
here from the models of :mod:`.schemas` rather than from route signatures.
"""

from __future__ import annotations

import warnings
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from ..game.state import MAX_MATCH_ROUNDS
from . import schemas as s
from .examples import EXAMPLES
from .games import (
    BOTS,
    IDLE_SECONDS,
    MAX_ACTION_CHARS,
    MAX_GAMES,
    MAX_GAMES_PER_CLIENT,
    MAX_RECORD_ACTIONS,
    MAX_REPLAYS,
    MAX_REPLAYS_PER_CLIENT,
    MAX_SEED,
    options,
)
from .limits import (
    BODY_SECONDS,
    MAX_BATCH,
    MAX_BODY_BYTES,
    MAX_HEAD_BYTES,
    MAX_HINT_RACK,
    MAX_IN_FLIGHT,
    MAX_RACK,
    MAX_RULES_CHARS,
    MAX_WAIT_SECONDS,
)
from .request_schema import RULES, SEMANTIC_RULES, request_schemas

__all__ = ["OPERATIONS", "install_openapi"]

_REF = "#/components/schemas/{model}"

# path -> (200 model(s), example names, description)
OPERATIONS: dict[str, tuple[type[BaseModel] | list[type[BaseModel]], list[str], str]] = {
    "/v1/solve/opening": (
        [s.OpeningAnswer, s.OpeningBatchAnswer],
        ["opening", "opening_batch"],
        ("The best opening of a rack (CONTRACT.md): runs/sets reaching the threshold, else five "
        "pairs, else `kind: null` with the best selection. A batch (`racks`, or a JSON list of "
        f"request objects, at most {MAX_BATCH}) answers `{{\"results\": [...]}}` in order: each "
        "item is checked and solved on its own, and a bad item (or one too dense for the work "
        "budget, or not reached within the batch's time budget) gets `{\"error\": \"item i: "
        "...\"}` in its place while the others are answered."),
    ),
    "/v1/solve/penalty": (s.PenaltyAnswer, ["penalty"],
                          ("The lay-down that leaves the smallest penalty on the rack (R101-13, "
                           "RO-12, CR-6 values).")),
    "/v1/solve/tabla": (s.TablaAnswer, ["tabla"],
                        ("Remi only (with `tabla` on): the best close on the rack (RO-11) of a "
                         "rack of 14 or 15 tiles.")),
    "/v1/validate/meld": (s.MeldAnswer, ["meld"],
                          ("Whether a meld is legal under the rules (and why not), its value, "
                           "what each joker stands for and which tiles can be added where.")),
    "/v1/hint": (s.HintAnswer, ["hint"],
                 ("Rummy 101: the recommended full turn for one seat (take, open or lay, add, "
                  "retrieve jokers, discard) with a reason per step and the next-best "
                  f"alternatives. The view's rack holds at most {MAX_HINT_RACK} tiles.")),
}

_LIMITS = (f"Limits: at most {MAX_RACK} tokens per rack, {MAX_BATCH} racks per batch, "
           f"{MAX_BODY_BYTES} bytes per body, {MAX_IN_FLIGHT} requests held at once, the body "
           f"within {BODY_SECONDS:g} s of the headers, a work budget per solve (see /v1/info). "
           "POST bodies are JSON sent as `Content-Type: application/json` (else 415); a key "
           "given twice in one object is refused. No endpoint reads a query parameter: a "
           "query string on a POST or DELETE, or a parameter other than the cache-buster `_` "
           "on a JSON GET, answers 422 naming it (the web page, /docs and /openapi.json take "
           "any).")


def _ref(model: type[BaseModel]) -> dict[str, str]:
    return {"$ref": _REF.format(model=model.__name__)}


def _error_response(text: str) -> dict[str, Any]:
    return {"description": text,
            "content": {"application/json": {"schema": _ref(s.ErrorAnswer)}}}


def build_openapi(app: FastAPI) -> dict[str, Any]:
    """The whole OpenAPI document (cached on the app)."""
    with warnings.catch_warnings():
        # /v1/games/{game_id} is one route for GET and DELETE (so that a 405 there lists both in
        # Allow); FastAPI gives both methods the route's one operation id and warns. The ids are
        # made unique per method just below, so the warning says nothing about the document.
        warnings.filterwarnings("ignore", message="Duplicate Operation ID")
        doc = get_openapi(title=app.title, version=app.version,
                          description=f"{app.description}\n\n{_LIMITS}\n\n{SEMANTIC_RULES}",
                          routes=app.routes)
    # FastAPI lists a route's methods in the order of a set (string hashes, so per process):
    # put them in OpenAPI's order, so that the document, its operation ids and the operations
    # the schema tests generate are the same in every process (pytest-xdist compares them)
    order = {m: i for i, m in enumerate(("get", "put", "post", "delete", "options", "head", "patch", "trace"))}
    for path, ops in doc.get("paths", {}).items():
        doc["paths"][path] = dict(sorted(ops.items(), key=lambda kv: order.get(kv[0], len(order))))
    # one route, several methods: FastAPI gives them all the id it made from one of them
    # (`..._get` or `..._delete`, whichever the set gave first); each gets its own method's
    count: dict[str, int] = {}
    for ops in doc.get("paths", {}).values():
        for op in ops.values():
            if isinstance(op, dict) and "operationId" in op:
                count[op["operationId"]] = count.get(op["operationId"], 0) + 1
    for ops in doc.get("paths", {}).values():
        for method, op in ops.items():
            if isinstance(op, dict) and count.get(op.get("operationId", ""), 0) > 1:
                base = op["operationId"]
                for m in order:
                    base = base.removesuffix(f"_{m}")
                op["operationId"] = f"{base}_{method}"
    models: list[type[BaseModel]] = [s.ErrorAnswer, s.Health, s.Info, *GAME_MODELS]
    for resp, _, _ in OPERATIONS.values():
        models += resp if isinstance(resp, list) else [resp]
    _, defs = models_json_schema([(m, "validation") for m in dict.fromkeys(models)],
                                 ref_template=_REF)
    components = doc.setdefault("components", {}).setdefault("schemas", {})
    components.update(defs.get("$defs", {}))
    request_components, bodies = request_schemas()
    components.update(request_components)
    errors = {
        "400": _error_response("The body is not JSON, is empty, gives a key twice, or could not "
                               "be read; or an internal failure (the answer quotes a request "
                               "id, the details are logged)."),
        "408": _error_response(f"The body did not arrive within {BODY_SECONDS:g} s of the "
                               "headers (the connection is closed)."),
        "413": _error_response(f"The body is larger than {MAX_BODY_BYTES} bytes."),
        "415": _error_response("The body was not sent as `Content-Type: application/json`."),
        "422": _error_response("The body is JSON but not an acceptable request: wrong type, "
                               "missing or unknown field, unknown rules, bad token, impossible "
                               "or oversized rack, oversized batch, a position the rules do not "
                               "allow, or a solve over the work budget (the limit is named)."),
        "429": _error_response("The service is saturated (too many requests or request bytes "
                               "held, too many waiting for a solver, or this one waited "
                               f"{MAX_WAIT_SECONDS:g} s for one); retry later."),
        "431": _error_response(f"The request line and headers are longer than {MAX_HEAD_BYTES} "
                               "bytes (the connection is closed)."),
    }
    for path, (resp, example_names, description) in OPERATIONS.items():
        op = doc["paths"][path]["post"]
        op["description"] = f"{description}\n\n{_LIMITS}"
        op["requestBody"] = {
            "required": True,
            "content": {"application/json": {
                "schema": bodies[path],
                "examples": {name: {"value": EXAMPLES[name]} for name in example_names},
            }},
        }
        resp_list = resp if isinstance(resp, list) else [resp]
        ok = resp_list[0] if len(resp_list) == 1 else None
        op["responses"] = {
            "200": {"description": "The answer.",
                    "content": {"application/json": {
                        "schema": _ref(ok) if ok else {"anyOf": [_ref(m) for m in resp_list]}}}},
            **errors,
        }
    _document_games(doc, errors)
    for path, model in (("/health", s.Health), ("/v1/info", s.Info)):
        doc["paths"][path]["get"]["responses"] = {
            "200": {"description": "OK", "content": {"application/json": {"schema": _ref(model)}}}}
    return doc


# ---- the games API of the web page (rummy101.service.games, docs/web.md) ---------------------
GAME_MODELS: list[type[BaseModel]] = [s.GameOptions, s.GameView, s.GameHint, s.GameRecord,
                                      s.Deleted, s.ReplaySummary, s.ReplayTurn]
_ID = {"type": "string", "pattern": "^[0-9a-f]{16}$",
       "description": "16 lower-case hexadecimal digits (0-9, a-f), as answered when the game or "
                      "replay was made"}
_RULES_ANY = {"type": "string", "maxLength": MAX_RULES_CHARS,
              "pattern": "|".join(f"(?:{RULES[v]})" for v in ("rummy101", "remi", "classic")),
              "description": "a rule set of a playable variant: `rummy101(players=2)`, `remi`, "
                             "`classic(target=100)`"}
def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    """Absent and null mean the same to the games' readers (the default)."""
    return {"anyOf": [schema, {"type": "null"}]}


_GAME_BODIES: dict[tuple[str, str], dict[str, Any]] = {
    ("/v1/games", "post"): {
        "type": "object", "additionalProperties": False,
        "properties": {
            "rules": _nullable(_RULES_ANY),
            "bots": {"type": ["array", "null"], "maxItems": 4,
                     "items": {"type": "string", "enum": list(BOTS)},
                     "description": "one bot per other seat, in seat order (default "
                                    "greedy everywhere)"},
            "seat": {"type": ["integer", "null"], "minimum": 0, "maximum": 3,
                     "description": "your seat (default 0)"},
            "seed": {"type": ["integer", "null"], "minimum": 0, "maximum": MAX_SEED,
                     "description": "the deal's seed (default random)"},
        }},
    ("/v1/games/{game_id}/actions", "post"): {
        "type": "object", "additionalProperties": False, "required": ["action"],
        "properties": {"action": {"type": "string", "minLength": 1, "maxLength": MAX_ACTION_CHARS,
                                  "pattern": "\\S",
                                  "description": "an engine action text: `draw`, `take`, "
                                                 "`run R3 R4 R5`, `add R6 to 0@end`, `discard K7`"}}},
    ("/v1/games/{game_id}/play-hint", "post"): {
        "type": "object", "additionalProperties": False, "properties": {}},
    ("/v1/replays", "post"): {
        "type": "object", "additionalProperties": False, "required": ["record"],
        "properties": {"record": {
            "type": "object", "required": ["rules", "seed", "actions"],
            "description": "a game record of `rummy101.game.records` (its stored outcome, when "
                           "given, must be the replay's)",
            "properties": {
                "format": {"type": "string", "enum": ["rummy101-game/1", "rummy101-game/2"]},
                "rules": _RULES_ANY,
                "seed": {"type": "integer", "minimum": 0, "maximum": MAX_SEED},
                "match_rounds": {"type": ["integer", "null"], "minimum": 1,
                                 "maximum": MAX_MATCH_ROUNDS},
                "actions": {"type": "array", "maxItems": MAX_RECORD_ACTIONS,
                            "items": {"type": "string", "maxLength": MAX_ACTION_CHARS}},
            }}}},
}
_GAME_ANSWERS: dict[tuple[str, str], type[BaseModel]] = {
    ("/v1/game-options", "get"): s.GameOptions,
    ("/v1/games", "post"): s.GameView,
    ("/v1/games/{game_id}", "get"): s.GameView,
    ("/v1/games/{game_id}", "delete"): s.Deleted,
    ("/v1/games/{game_id}/actions", "post"): s.GameView,
    ("/v1/games/{game_id}/hint", "get"): s.GameHint,
    ("/v1/games/{game_id}/play-hint", "post"): s.GameView,
    ("/v1/games/{game_id}/record", "get"): s.GameRecord,
    ("/v1/replays", "post"): s.ReplaySummary,
    ("/v1/replays/{replay_id}", "get"): s.ReplaySummary,
    ("/v1/replays/{replay_id}/turns/{turn}", "get"): s.ReplayTurn,
}
_GAMES_TEXT = (f"Games live on the server: at most {MAX_GAMES} games and {MAX_REPLAYS} replays, "
               f"{MAX_GAMES_PER_CLIENT} games and {MAX_REPLAYS_PER_CLIENT} replays per client "
               f"address (a client's next one evicts its own least recently used; a full "
               f"server evicts the least recently used of the client holding the most), each "
               f"dropped after {IDLE_SECONDS:g} s idle; one request at a time per game (another "
               f"answers 429). "
               "Bots move on the server, in worker threads, until it is your turn.")


def _document_games(doc: dict[str, Any], errors: dict[str, Any]) -> None:
    """Bodies, answers and errors of the games API (its routes read their bodies themselves)."""
    for (path, method), model in _GAME_ANSWERS.items():
        op = doc["paths"][path][method]
        op["description"] = f"{op.get('summary', '')}.\n\n{_GAMES_TEXT}"
        for param in op.get("parameters", []):
            if param["name"] in ("game_id", "replay_id"):
                param["schema"] = dict(_ID)
            elif param["name"] == "turn":
                param["schema"] = {"type": "integer", "minimum": 0, "maximum": 1_000_000}
        responses: dict[str, Any] = {
            "200": {"description": "The answer.",
                    "content": {"application/json": {"schema": _ref(model)}}},
            "404": _error_response("No game or replay with that id (never made, idle too "
                                   "long, evicted or deleted: the message says which when "
                                   "it knows), or no such turn."),
            "422": _error_response("A refused action (the engine's message cites the rule; "
                                   "the game is unchanged) or request; a path parameter of "
                                   "the wrong type."),
            "429": _error_response("The game is busy with another request, or too many game "
                                   "requests wait; retry later."),
            "400": errors["400"],
        }
        body = _GAME_BODIES.get((path, method))
        if body is not None and (path, method) == ("/v1/games", "post"):  # installed bots
            body = {**body, "properties": {**body["properties"], "bots": {
                **body["properties"]["bots"],
                "items": {"type": "string", "enum": options()["bots"]}}}}
        if body is not None:
            op["requestBody"] = {"required": True,
                                 "content": {"application/json": {"schema": body}}}
            responses.update({k: errors[k] for k in ("408", "413", "415")})
        op["responses"] = responses


def install_openapi(app: FastAPI) -> None:
    """Make ``app.openapi()`` (and ``/openapi.json``) serve :func:`build_openapi`."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = build_openapi(app)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]

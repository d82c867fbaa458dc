"""The OpenAPI document of the service: every request and response shape, examples and limits.

Routes read their bodies themselves (:mod:`.validate`), so the document is assembled here from
the models of :mod:`.schemas` rather than from route signatures.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from . import schemas as s
from .examples import EXAMPLES
from .limits import MAX_BATCH, MAX_BODY_BYTES, MAX_RACK

__all__ = ["install_openapi", "OPERATIONS"]

_REF = "#/components/schemas/{model}"

# path -> (request alternatives, 200 model(s), example names, description)
OPERATIONS: dict[str, tuple[list[Any], type[BaseModel] | list[type[BaseModel]], list[str], str]] = {
    "/v1/solve/opening": (
        [s.OpeningRequest, s.OpeningBatchRequest, ("list", s.OpeningRequest)],
        [s.OpeningAnswer, s.OpeningBatchAnswer],
        ["opening", "opening_batch"],
        "The best opening of a rack (CONTRACT.md): runs/sets reaching the threshold, else five "
        "pairs, else `kind: null` with the best selection. A batch (`racks`, or a JSON list of "
        f"request objects, at most {MAX_BATCH}) answers `{{\"results\": [...]}}` in order, with "
        "`{\"error\"}` for a bad item.",
    ),
    "/v1/solve/penalty": ([s.PenaltyRequest], s.PenaltyAnswer, ["penalty"],
                          "The lay-down that leaves the smallest penalty on the rack (R101-13, "
                          "RO-12, CR-6 values)."),
    "/v1/solve/tabla": ([s.TablaRequest], s.TablaAnswer, ["tabla"],
                        "Remi only: the best close on the rack (RO-11)."),
    "/v1/validate/meld": ([s.MeldRequest], s.MeldAnswer, ["meld"],
                          "Whether a meld is legal under the rules (and why not), its value, what "
                          "each joker stands for and which tiles can be added where."),
    "/v1/hint": ([s.HintRequest], s.HintAnswer, ["hint"],
                 "Rummy 101: the recommended full turn for one seat (take, open or lay, add, "
                 "retrieve jokers, discard) with a reason per step and the next-best "
                 "alternatives."),
}

_LIMITS = (f"Limits: at most {MAX_RACK} tokens per rack, {MAX_BATCH} racks per batch, "
           f"{MAX_BODY_BYTES} bytes per body.")


def _ref(model: type[BaseModel]) -> dict[str, str]:
    return {"$ref": _REF.format(model=model.__name__)}


def _schema_of(item: Any) -> dict[str, Any]:
    if isinstance(item, tuple):
        return {"type": "array", "items": _ref(item[1]), "minItems": 1, "maxItems": MAX_BATCH}
    return _ref(item)


def _error_response(text: str) -> dict[str, Any]:
    return {"description": text,
            "content": {"application/json": {"schema": _ref(s.ErrorAnswer)}}}


def build_openapi(app: FastAPI) -> dict[str, Any]:
    """The whole OpenAPI document (cached on the app)."""
    doc = get_openapi(title=app.title, version=app.version,
                      description=f"{app.description}\n\n{_LIMITS}", routes=app.routes)
    models: list[type[BaseModel]] = [s.ErrorAnswer, s.Health, s.Info]
    for req, resp, _, _ in OPERATIONS.values():
        models += [m[1] if isinstance(m, tuple) else m for m in req]
        models += resp if isinstance(resp, list) else [resp]
    _, defs = models_json_schema([(m, "validation") for m in dict.fromkeys(models)],
                                 ref_template=_REF)
    components = doc.setdefault("components", {}).setdefault("schemas", {})
    components.update(defs.get("$defs", {}))
    errors = {
        "400": _error_response("The body is not JSON, is empty, or could not be read."),
        "413": _error_response(f"The body is larger than {MAX_BODY_BYTES} bytes."),
        "422": _error_response("The body is JSON but not an acceptable request: wrong type, "
                               "missing or unknown field, unknown rules, bad token, impossible "
                               "or oversized rack, oversized batch."),
        "429": _error_response("The service is saturated (too many requests waiting); retry."),
    }
    for path, (req, resp, example_names, description) in OPERATIONS.items():
        op = doc["paths"][path]["post"]
        alternatives = [_schema_of(r) for r in req]
        schema = alternatives[0] if len(alternatives) == 1 else {"anyOf": alternatives}
        op["description"] = f"{description}\n\n{_LIMITS}"
        op["requestBody"] = {
            "required": True,
            "content": {"application/json": {
                "schema": schema,
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
    for path, model in (("/health", s.Health), ("/v1/info", s.Info)):
        doc["paths"][path]["get"]["responses"] = {
            "200": {"description": "OK", "content": {"application/json": {"schema": _ref(model)}}}}
    return doc


def install_openapi(app: FastAPI) -> None:
    """Make ``app.openapi()`` (and ``/openapi.json``) serve :func:`build_openapi`."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = build_openapi(app)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]

"""The OpenAPI document of the service: every request and response shape, examples and limits.

Routes read their bodies themselves (:mod:`rummy101._validate`), so the document is assembled
here from the models of :mod:`.schemas` rather than from route signatures.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from . import schemas as s
from .examples import EXAMPLES
from .limits import (
    BODY_SECONDS,
    MAX_BATCH,
    MAX_BODY_BYTES,
    MAX_HINT_RACK,
    MAX_IN_FLIGHT,
    MAX_RACK,
)
from .request_schema import SEMANTIC_RULES, request_schemas

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
           "given twice in one object is refused.")


def _ref(model: type[BaseModel]) -> dict[str, str]:
    return {"$ref": _REF.format(model=model.__name__)}


def _error_response(text: str) -> dict[str, Any]:
    return {"description": text,
            "content": {"application/json": {"schema": _ref(s.ErrorAnswer)}}}


def build_openapi(app: FastAPI) -> dict[str, Any]:
    """The whole OpenAPI document (cached on the app)."""
    doc = get_openapi(title=app.title, version=app.version,
                      description=f"{app.description}\n\n{_LIMITS}\n\n{SEMANTIC_RULES}",
                      routes=app.routes)
    models: list[type[BaseModel]] = [s.ErrorAnswer, s.Health, s.Info]
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
                               "held, or too many waiting for a solver); retry later."),
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

"""Schemathesis, every check, against the service's own OpenAPI document, in process (ASGI):
generated and negative bodies never answer 5xx, schema-invalid bodies are refused, schema-valid
bodies are accepted, 405s carry ``Allow``, every answer is documented (status, content type,
headers, schema).

JSON Schema cannot state every rule of a request (the copies of a tile in the set, meld legality,
a consistent game position: ``SEMANTIC_RULES`` in the document). :func:`breaks_a_stated_rule` is
an independent reading of those rules, written with the library's primitives (rules, notation,
melds), not with the service's validator: a schema-valid body that breaks one of them must answer
422 and pass every other check; any other schema-valid body must be accepted.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest

pytest.importorskip("schemathesis")
import schemathesis
from hypothesis import HealthCheck, settings
from rummy101.errors import RummyError
from rummy101.melds import check_meld
from rummy101.rules import Rules
from rummy101.service.app import create_app
from rummy101.tiles import JOKER_CODE, Tile
from schemathesis.checks import positive_data_acceptance

APP = create_app()
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)
# valid bodies and deliberately invalid ones (wrong types, missing fields, extra fields ...)
schema.config.generation.update(modes=[schemathesis.GenerationMode.POSITIVE,
                                       schemathesis.GenerationMode.NEGATIVE])

DEFAULT_RULES = {"/v1/solve/tabla": "remi"}


def _rack(rules: Rules, value: Any) -> list[Any]:
    return rules.parse_rack(value)  # NotationError / RackError: a rule of the set is broken


def _hint_breaks(body: dict[str, Any]) -> bool:
    if body.get("observation") is not None or body.get("record") is not None:
        return True  # a position of the engine; generated ones are not (the examples are)
    rules = Rules.parse(body.get("rules") or "rummy101")
    players = rules.players
    seat = body["seat"]
    opened: dict[int, Any] = {}
    for p in body.get("players") or []:
        if p["seat"] >= players or p["seat"] in opened:
            return True
        opened[p["seat"]] = p.get("opened")
    if seat >= players:
        return True
    rack = _rack(rules, body["rack"])
    tiles = list(rack)
    for meld in body.get("table") or []:
        if meld["owner"] >= players or opened.get(meld["owner"]) is None:
            return True
        m = _rack(rules, meld["tiles"])
        kind = meld.get("kind")
        info = check_meld(rules, m)
        reals = [t for t in m if t != JOKER_CODE]
        forced_set = kind == "set" and 3 <= len(m) <= 4 and len(reals) == 1
        if not info.valid and not forced_set:
            return True
        if kind is not None and kind != info.kind and not forced_set:
            return True
        if (kind or info.kind) == "pair" and "pairs" not in opened.values():
            return True
        tiles += m
    stage = body.get("stage") or "take"
    last, taken = body.get("last_discard"), body.get("taken_discard")
    if last is not None:
        if stage == "play":
            return True
        tiles.append(Tile(last))
    if taken is not None and (stage != "play" or Tile(taken) not in rack):
        return True
    rules.check_supply(tiles)
    button = bool(body.get("button_available"))
    if button and rules.opts.button_jokers == 0:
        return True
    jokers = rules.jokers + (players if rules.opts.button_jokers else 0) - (1 if button else 0)
    if sum(1 for t in tiles if t == JOKER_CODE) > jokers:
        return True
    t, p = body.get("threshold"), body.get("pairs_threshold")
    if rules.opts.threshold == "fixed":
        return t not in (None, rules.opening_points) or p not in (None, rules.pairs_opening)
    return (t is not None and t < rules.opening_points) or (
        p is not None and p < rules.pairs_opening)


def _games_breaks(path: str, body: dict[str, Any]) -> bool:
    """The games API (docs/web.md): a new game's seat and bots fit its players; a replayed
    record replays (game ids in paths are random: those answer 404, which is accepted)."""
    if path == "/v1/games":
        players = Rules.parse(body.get("rules") or "rummy101").players
        bots = body.get("bots")
        return (body.get("seat") or 0) >= players or (
            isinstance(bots, list) and len(bots) != players - 1)
    if path == "/v1/replays":
        from rummy101.game import records
        record = dict(body["record"])
        for key in ("seed", "match_rounds"):  # a whole float (3.0) is read as its integer, as
            value = record.get(key)           # every number of the service is (read_int)
            if isinstance(value, float) and value.is_integer():
                record[key] = int(value)
        records.from_dict(record)  # RummyError: it does not replay
    return False


def breaks_a_stated_rule(path: str, body: Any) -> bool:
    """Whether a schema-valid ``body`` breaks one of the document's ``SEMANTIC_RULES``."""
    if not isinstance(body, dict):
        return False  # a JSON-list batch: each item is answered on its own
    try:
        spec = body.get("rules") or DEFAULT_RULES.get(path, "rummy101")
        rules = Rules.parse(spec)
        if "racks" in body:
            return False  # a batch: each item is answered on its own
        if path == "/v1/hint":
            return _hint_breaks(body)
        if path.startswith(("/v1/games", "/v1/replays")):
            return _games_breaks(path, body)
        rack = _rack(rules, body["meld" if path == "/v1/validate/meld" else "rack"])
        must = body.get("must_use")
        return must is not None and rules.piece(must) not in rack
    except RummyError:
        return True


@schema.parametrize()
@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
def test_api_conforms_to_its_openapi_document(case: schemathesis.Case) -> None:  # type: ignore[type-arg]
    positive = case.meta is not None and case.meta.generation.mode.is_positive
    if positive and case.method == "POST" and breaks_a_stated_rule(case.path, case.body):
        response = case.call()
        case.validate_response(response, excluded_checks=[positive_data_acceptance])
        assert response.status_code == 422, response.text
        return
    case.call_and_validate()


def test_openapi_document_states_limits_examples_and_errors() -> None:
    doc = APP.openapi()
    assert "28 tokens per rack" in doc["info"]["description"]
    assert "Beyond this schema" in doc["info"]["description"]
    for path in ("/v1/solve/opening", "/v1/solve/penalty", "/v1/solve/tabla",
                 "/v1/validate/meld", "/v1/hint"):
        op = doc["paths"][path]["post"]
        assert op["requestBody"]["content"]["application/json"]["examples"]
        assert {"200", "400", "408", "413", "415", "422", "429"} <= set(op["responses"])
        assert "Limits:" in op["description"]
    assert doc["paths"]["/health"]["get"]["responses"]["200"]


def test_semantic_reading_is_not_vacuous() -> None:
    """The predicate that exempts bodies from positive_data_acceptance says yes and no."""
    assert breaks_a_stated_rule("/v1/solve/opening", {"rack": "R1 R1 R1"})
    assert breaks_a_stated_rule("/v1/solve/opening", {"rules": "remi(players=2,players=3)",
                                                      "rack": "R1"})
    assert not breaks_a_stated_rule("/v1/solve/opening", {"rack": "R1 R1 K3"})
    assert breaks_a_stated_rule("/v1/hint", {"seat": 0, "rack": "R1",
                                             "table": [{"owner": 1, "tiles": "R3 R4 R5"}]})
    assert not breaks_a_stated_rule("/v1/hint", {
        "seat": 0, "rack": "R1", "table": [{"owner": 1, "tiles": "R3 R4 R5"}],
        "players": [{"seat": 1, "opened": "melds"}]})
    assert json.dumps(APP.openapi())  # the document is JSON


def test_openapi_document_is_the_same_in_every_process() -> None:
    """FastAPI lists the methods of the GET/DELETE games route in set order, which string hashing
    changes from process to process; the document (and the operations the schema test above
    generates, which pytest-xdist compares between its workers) must not change with it."""
    code = ("import hashlib, json; from rummy101.service.app import create_app; "
            "print(hashlib.sha256(json.dumps(create_app().openapi()).encode()).hexdigest())")
    digests = set()
    for seed in ("1", "3"):  # seeds that ordered GET and DELETE differently before the fix
        env = dict(os.environ, PYTHONHASHSEED=seed)
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                             timeout=120, check=True)
        digests.add(out.stdout.strip())
    assert len(digests) == 1


def test_the_joker_limit_the_document_states_is_the_one_the_service_keeps() -> None:
    """The document said a rummy101 rack holds 2 jokers, plus one per player only when
    ``button_jokers`` > 0; the solvers take up to 6 whatever the options (docs/rules.md) and
    only a hint's position keeps the 2. A client checking racks by the document refused
    racks the service answers."""
    from fastapi.testclient import TestClient
    app = create_app()
    text = app.openapi()["info"]["description"]
    client = TestClient(app)
    assert client.post("/v1/solve/opening", json={"rack": "* * * R1 R2 K5"}).status_code == 200
    assert client.post("/v1/validate/meld", json={"meld": "R1 * * *"}).status_code == 200
    assert client.post("/v1/solve/opening", json={"rack": "* " * 7 + "R1"}).status_code == 422
    assert client.post("/v1/hint", json={"seat": 0, "stage": "play",
                                         "rack": "* * * R1 R2 K5"}).status_code == 422
    assert "at most 6 whatever the options" in text, text
    assert "a hint's rack, table and last discard together 2" in text, text

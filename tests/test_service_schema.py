"""Schemathesis against the service's own OpenAPI document, in process (ASGI): generated and
negative bodies never answer 5xx, every answer is documented (status, content type, schema)."""

from __future__ import annotations

import pytest

pytest.importorskip("schemathesis")
import schemathesis  # noqa: E402
from hypothesis import HealthCheck, settings  # noqa: E402
from schemathesis.checks import (  # noqa: E402
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

from rummy101.service.app import create_app  # noqa: E402

APP = create_app()
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)
# valid bodies and deliberately invalid ones (wrong types, missing fields, extra fields ...)
schema.config.generation.update(modes=[schemathesis.GenerationMode.POSITIVE,
                                       schemathesis.GenerationMode.NEGATIVE])

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_schema_conformance]


@schema.parametrize()
@settings(max_examples=25, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
def test_api_conforms_to_its_openapi_document(case: schemathesis.Case) -> None:
    case.call_and_validate(checks=CHECKS)


def test_openapi_document_states_limits_examples_and_errors() -> None:
    doc = APP.openapi()
    assert "28 tokens per rack" in doc["info"]["description"]
    for path in ("/v1/solve/opening", "/v1/solve/penalty", "/v1/solve/tabla",
                 "/v1/validate/meld", "/v1/hint"):
        op = doc["paths"][path]["post"]
        assert op["requestBody"]["content"]["application/json"]["examples"]
        assert {"200", "400", "413", "422"} <= set(op["responses"])
        assert "Limits:" in op["description"]
    assert doc["paths"]["/health"]["get"]["responses"]["200"]

"""Hostile inputs: every one answers 4xx with {"error": "..."} naming the problem, never 5xx, and
the service keeps answering afterwards (CONTRACT.md, HTTP service)."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient
from rummy101.service.app import create_app
from rummy101.service.limits import MAX_BATCH, MAX_BODY_BYTES, MAX_RACK

JSON = {"content-type": "application/json"}
POSTS = ["/v1/solve/opening", "/v1/solve/penalty", "/v1/solve/tabla", "/v1/validate/meld",
         "/v1/hint"]


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(), raise_server_exceptions=False)


def _nest(depth: int) -> str:
    return "[" * depth + "]" * depth


# (raw body, a word the error must contain)
RAW_BODIES: list[tuple[bytes, str]] = [
    (b"", "empty"),
    (b"   \n", "empty"),
    (b"{", "not valid JSON"),
    (b"{'rack': 'R1'}", "not valid JSON"),
    (b"\xff\xfe\x00garbage", "UTF-8"),
    (b"NaN", "JSON"),
    (b'{"rack": "R1", "threshold": Infinity}', "JSON"),
    (b'{"threshold": ' + b"9" * 5000 + b"}", "5,000 digits"),  # not Python's own advice
    (b'{"rack": "R1", "threshold": -' + b"1" * 500_000 + b"}", "no field accepts a number"),
    (_nest(100_000).encode(), ""),
    (b"null", ""),
    (b"true", ""),
    (b"42", ""),
    (b'"R1 R2 R3"', ""),
]

# (JSON body for /v1/solve/opening, a word the error must contain)
OPENING_BODIES: list[tuple[object, str]] = [
    ({}, "rack"),
    ({"rack": None}, "rack"),
    ({"rack": 5}, "rack"),
    ({"rack": 10 ** 30}, "rack"),
    ({"rack": -1.5}, "rack"),
    ({"rack": True}, "rack"),
    ({"rack": {"a": 1}}, "rack"),
    ({"rack": [1, 2, 3]}, "token 1"),
    ({"rack": [["R1"]]}, "token 1"),
    ({"rack": [None]}, "token 1"),
    ({"rack": "R1 R2 X9"}, "X9"),
    ({"rack": "R0"}, "R0"),
    ({"rack": "R14"}, "R14"),
    ({"rack": "R1 R1 R1"}, "3 copies of R1"),
    ({"rack": "* * * * * * *"}, "jokers"),
    ({"rack": " ".join(["R1"] * 10_000)}, "characters"),
    ({"rack": ["R1"] * 10_000}, "10000 tokens"),
    ({"rack": " ".join(f"{c}{n}" for c in "RYBK" for n in range(1, 14)) * 1}, "52 tokens"),
    ({"rack": "R1 🀄 R2"}, "🀄"),
    ({"rack": "Ｒ１"}, "Ｒ１"),
    ({"rack": "R1\u0000R2"}, "token"),
    ({"rules": "poker", "rack": "R1"}, "poker"),
    ({"rules": "rummy101(players=9)", "rack": "R1"}, "players"),
    ({"rules": "rummy101(colour=pink)", "rack": "R1"}, "colour"),
    ({"rules": 101, "rack": "R1"}, "rules"),
    ({"rules": ["rummy101"], "rack": "R1"}, "rules"),
    ({"rules": "x" * 100_000, "rack": "R1"}, "rules"),
    ({"rack": "R1", "threshold": "high"}, "threshold"),
    ({"rack": "R1", "threshold": 10 ** 100}, "threshold"),
    ({"rack": "R1", "threshold": -5}, "threshold"),
    ({"rack": "R1", "threshold": 1.5}, "threshold"),
    ({"rack": "R1", "must_use": 7}, "must_use"),
    ({"rack": "R1", "must_use": "Q9"}, "must_use"),
    ({"rack": "R1", "surprise": {"nested": [1, {"x": None}]}}, "surprise"),
    ({"racks": "R1 R2"}, "racks"),
    ({"racks": []}, "empty"),
    ({"racks": ["R1"] * (MAX_BATCH + 1)}, str(MAX_BATCH)),
    ({"racks": ["R1"], "unknown": 1}, "unknown"),
    ([{"rack": "R1"}] * (MAX_BATCH + 1), str(MAX_BATCH)),
    ([], "empty"),
]


@pytest.mark.parametrize("path", POSTS)
@pytest.mark.parametrize("raw,word", RAW_BODIES, ids=range(len(RAW_BODIES)))
@pytest.mark.backend_free
def test_raw_bodies_answer_4xx_error(client: TestClient, path: str, raw: bytes, word: str) -> None:
    r = client.post(path, content=raw, headers={"content-type": "application/json"})
    assert 400 <= r.status_code < 500, r.text
    assert r.headers["content-type"].startswith("application/json")
    body = r.json()
    assert set(body) == {"error"} and body["error"]
    assert word in body["error"]


@pytest.mark.parametrize("body,word", OPENING_BODIES, ids=range(len(OPENING_BODIES)))
def test_bad_opening_requests_answer_422_naming_the_problem(client: TestClient, body: object,
                                                             word: str) -> None:
    r = client.post("/v1/solve/opening", json=body)
    assert r.status_code == 422, r.text
    err = r.json()
    assert set(err) == {"error"}
    assert word in err["error"]


@pytest.mark.parametrize("path,body,word", [
    ("/v1/solve/penalty", {"rack": "R1", "keep": "yes"}, "keep"),
    ("/v1/solve/penalty", {"rack": "K1 K1 K1"}, "copies"),
    ("/v1/solve/tabla", {"rules": "rummy101", "rack": "R1 R2"}, "Remi"),
    ("/v1/solve/tabla", {"rack": "R1 R2"}, "15"),
    ("/v1/solve/tabla", {"rules": "remi(tabla=off)", "rack": "R1"}, "tabla"),
    ("/v1/validate/meld", {"meld": ""}, "empty"),
    ("/v1/validate/meld", {"meld": ["R1"] * 20}, "20 tokens"),
    ("/v1/validate/meld", {"meld": "R1 Z2"}, "Z2"),
    ("/v1/validate/meld", {"tiles": "R1 R2 R3"}, "tiles"),
    ("/v1/hint", {"rack": "R1"}, "seat"),
    ("/v1/hint", {"seat": 7, "rack": "R1"}, "seat"),
    ("/v1/hint", {"rules": "remi", "seat": 0, "rack": "R1"}, "Rummy 101"),
    ("/v1/hint", {"seat": 0, "rack": "R1", "table": [{"owner": 1, "tiles": "R1 B7 K9"}]},
     "not a legal meld"),
    ("/v1/hint", {"seat": 0, "rack": "R1", "table": "R1 R2 R3"}, "table"),
    ("/v1/hint", {"seat": 0, "rack": "R1", "stage": "later"}, "stage"),
    ("/v1/hint", {"seat": 0, "rack": "R1 R1", "last_discard": "R1"}, "copies"),
    ("/v1/hint", {"seat": 0, "rack": "R1", "players": [{"seat": 0, "opened": "yes"}]}, "opened"),
    ("/v1/hint", {"seat": 0, "rack": "R1", "threshold": 150}, "increasing"),
    ("/v1/hint", {"seat": 0, "rack": "R1", "button_available": True}, "button"),
])
def test_bad_requests_on_other_endpoints(client: TestClient, path: str, body: object,
                                         word: str) -> None:
    r = client.post(path, json=body)
    assert r.status_code == 422, r.text
    assert set(r.json()) == {"error"}
    assert word in r.json()["error"]


@pytest.mark.backend_free
def test_oversized_body_answers_413(client: TestClient) -> None:
    big = json.dumps({"rack": "R1", "pad": "x" * (MAX_BODY_BYTES + 10)})
    r = client.post("/v1/solve/opening", content=big, headers=JSON)
    assert r.status_code == 413
    assert str(MAX_BODY_BYTES) in r.json()["error"]


@pytest.mark.backend_free
def test_unknown_paths_and_methods_answer_error_objects(client: TestClient) -> None:
    r = client.get("/v1/solve/nothing")
    assert r.status_code == 404 and "error" in r.json()
    r = client.get("/v1/solve/opening")
    assert r.status_code == 405 and "GET" in r.json()["error"]
    r = client.delete("/health")
    assert r.status_code == 405 and "error" in r.json()


def test_service_keeps_answering_after_hostile_inputs(client: TestClient) -> None:
    for raw, _ in RAW_BODIES:
        client.post("/v1/solve/opening", content=raw, headers=JSON)
    assert client.get("/health").json() == {"status": "ok"}
    r = client.post("/v1/validate/meld", json={"meld": "R10 * R12"})
    assert r.status_code == 200 and r.json()["valid"] is True


def test_rack_limit_is_stated_and_enforced(client: TestClient) -> None:
    rack = " ".join(f"{c}{n}" for c in "RYBK" for n in range(1, 14))[: 4 * (MAX_RACK + 1)]
    r = client.post("/v1/solve/opening", json={"rack": rack.split()[: MAX_RACK + 1]})
    assert r.status_code == 422 and f"at most {MAX_RACK}" in r.json()["error"]


def test_unexpected_internal_failure_answers_400_with_a_request_id_not_500(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """An internal failure never leaks its message: the answer quotes a request id, the log has
    the details under the same id."""
    from rummy101.service import api

    def boom(body: object) -> object:
        raise ZeroDivisionError("simulated bug in /secret/path.py")

    monkeypatch.setattr(api, "validate_meld", boom)
    app = create_app()
    c = TestClient(app, raise_server_exceptions=False)
    with caplog.at_level("ERROR", logger="rummy101.service"):
        r = c.post("/v1/validate/meld", json={"meld": "R1 R2 R3"})
    assert r.status_code == 400
    error = r.json()["error"]
    assert "ZeroDivisionError" not in error and "secret" not in error
    rid = error.split("request id ")[1].split(")")[0]
    assert any(rid in rec.getMessage() and rec.exc_info for rec in caplog.records)
    assert c.get("/health").status_code == 200


def test_memory_stays_flat_under_repeated_bad_requests() -> None:
    """The process keeps no per-request state: after a warm-up, 400 more hostile requests
    leave the traced memory where it was (bounded growth, not per request)."""
    import gc
    import tracemalloc

    c = TestClient(create_app(), raise_server_exceptions=False)
    bodies = [raw for raw, _ in RAW_BODIES[:8]] + [
        json.dumps(b).encode() for b, _ in OPENING_BODIES[:20]]

    def burst(n: int) -> None:
        for i in range(n):
            c.post("/v1/solve/opening", content=bodies[i % len(bodies)], headers=JSON)

    burst(100)
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    burst(400)
    gc.collect()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    assert after - before < 2_000_000, (before, after)


def test_saturated_service_answers_429_not_5xx() -> None:
    """More waiting requests than the queue holds: the extra ones get 429 {"error"}."""
    import asyncio

    import httpx
    app = create_app(threads=1)
    for r in app.state.runners.values():
        r.max_pending = 2

    async def main() -> list[int]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
            rs = await asyncio.gather(*(client.post("/v1/validate/meld", json={"meld": "R1 R2 R3"})
                                        for _ in range(12)))
        return [r.status_code for r in rs]

    codes = asyncio.run(main())
    assert set(codes) <= {200, 429} and 429 in codes and 200 in codes


@pytest.mark.parametrize("raw", [b'{"rack": "R1", "threshold": 1e999}', b"1e999999", b"[-1e400]"])
@pytest.mark.backend_free
def test_numbers_too_large_for_a_float_answer_400(client: TestClient, raw: bytes) -> None:
    """JSON has no Infinity: ``1e999`` was read as one and answered 422 'got a number Infinity'."""
    r = client.post("/v1/solve/opening", content=raw, headers={"content-type": "application/json"})
    assert r.status_code == 400 and "too large to hold" in r.json()["error"], r.text


@pytest.mark.parametrize("encoding", ["gzip", "deflate", "br"])
def test_compressed_bodies_answer_415(client: TestClient, encoding: str) -> None:
    """A compressed body was read as raw bytes ('not UTF-8 text'), and a plain one labelled
    compressed was accepted: any Content-Encoding but identity answers 415 naming it."""
    import gzip

    r = client.post("/v1/solve/opening", content=gzip.compress(b'{"rack": "R1 R2 R3"}'),
                    headers={"content-type": "application/json", "content-encoding": encoding})
    assert r.status_code == 415 and encoding in r.json()["error"], r.text
    plain = client.post("/v1/solve/opening", content=b'{"rack": "R1 R2 R3"}',
                        headers={"content-type": "application/json", "content-encoding": "identity"})
    assert plain.status_code == 200

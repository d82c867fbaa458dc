"""QA round s44 on the HTTP service and the CLI: a hostile app's requests whose answers were
refusals in the documented shape but misled the person reading them (a meld called a rack, a
rule cited twice, Python's advice for a byte order mark, a record's field named as the
request's), and a query string on a POST endpoint that was silently ignored."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from rummy101 import check_meld
from rummy101.cli import main
from rummy101.errors import RackError

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient
from rummy101.service.app import create_app


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app())


# --- a meld is no rack -------------------------------------------------------------------------


MELD_PAST_SUPPLY = [
    (
        "rummy101",
        "R1 R1 R1",
        "3 of 3 ('R1'): the meld holds 3 copies of R1, but rummy101 has only 2 of each tile (R101-1)",
    ),
    (
        "rummy101",
        "* * * * * * * R1",
        (
            "7 of 8 ('*'): the meld holds 7 jokers, but a rummy101 meld holds at most 6 "
            "(2 jokers plus one joker-button joker per player, R101-10)"
        ),
    ),
    (
        "remi",
        ["R1", "*", "*", "*"],
        "4 of 4 ('*'): the meld holds 3 jokers, but a remi meld holds at most 2 (RO-1)",
    ),
    (
        "classic",
        "AS AS 2S",
        "2 of 3 ('AS'): the meld holds 2 copies of AS, but classic has only 1 of each card (CR-1)",
    ),
]


@pytest.mark.parametrize("rules, meld, token", MELD_PAST_SUPPLY)
def test_a_meld_past_the_supply_is_called_a_meld(
    client: TestClient, rules: str, meld: object, token: str
) -> None:
    # POST /v1/validate/meld answered "the rack holds 3 copies of R1" to a request that sent no
    # rack (its token-table path and its notation path alike)
    r = client.post("/v1/validate/meld", json={"rules": rules, "meld": meld})
    assert r.status_code == 422, r.text
    assert r.json() == {"error": f"field 'meld': token {token}"}


def test_the_library_and_the_cli_call_a_meld_a_meld(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(RackError, match=r"^token 3 of 3 \('R1'\): the meld holds 3 copies of R1"):
        check_meld("rummy101", "R1 R1 R1")
    assert main(["meld", "R5 R5 R5"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == (
        "rummy101 meld: error: the meld: token 3 of 3 ('R5'): the meld holds "
        "3 copies of R5, but rummy101 has only 2 of each tile (R101-1)"
    )
    # a rack is still a rack
    r = TestClient(create_app()).post("/v1/solve/opening", json={"rack": "R1 R1 R1"})
    assert "the rack holds 3 copies of R1" in r.json()["error"]


def test_a_meld_too_short_cites_its_rule_once(client: TestClient) -> None:
    # "... at least 3 tiles (or 2 for a pair, R101-5) (R101-5)"
    r = client.post("/v1/validate/meld", json={"meld": "R1"})
    assert r.status_code == 200
    assert r.json()["reason"] == (
        "R1 is too short: a run or set needs at least 3 tiles, or 2 for a pair (R101-5)"
    )
    r = client.post("/v1/validate/meld", json={"rules": "remi", "meld": "R1 R2"})
    assert r.json()["reason"] == "R1 R2 is too short: a run or set needs at least 3 tiles (RO-6)"


# --- a byte order mark ------------------------------------------------------------------------

BOM_PROBLEM = (
    "it begins with a byte order mark (U+FEFF, the bytes EF BB BF), which JSON text "
    "does not carry: save or send it as UTF-8 without a BOM"
)


@pytest.mark.parametrize("path", ["/v1/solve/opening", "/v1/hint", "/v1/games"])
def test_a_body_with_a_byte_order_mark_is_told_to_drop_it(client: TestClient, path: str) -> None:
    # (Notepad and PowerShell 5 write one) the answer was Python's "Unexpected UTF-8 BOM (decode
    # using utf-8-sig) at line 1 column 1", advice for the server's code, not for the client
    body = b"\xef\xbb\xbf" + json.dumps({"rack": "R1 R2 R3"}).encode()
    r = client.post(path, content=body, headers={"content-type": "application/json"})
    assert r.status_code == 400
    assert r.json() == {"error": f"request body is not valid JSON: {BOM_PROBLEM}"}


def test_cli_files_with_a_byte_order_mark_are_told_to_drop_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    lines = tmp_path / "racks.jsonl"
    lines.write_bytes(b'\xef\xbb\xbf{"rack": "R1 R2 R3"}\n{"rack": "R4"}\n')
    assert main(["solve", "opening", "--jsonl", "--input", str(lines)]) == 2
    out = capsys.readouterr().out.splitlines()
    assert json.loads(out[0]) == {"error": f"line 1 is not valid JSON: {BOM_PROBLEM}"}
    assert json.loads(out[1])["rack"] == "R4"
    request = tmp_path / "hint.json"
    request.write_bytes(b'\xef\xbb\xbf{"seat": 0, "rack": "R1 R2 R3"}')
    assert main(["hint", "--request", str(request)]) == 2
    err = capsys.readouterr().err.strip()
    assert (
        err == f"rummy101 hint: error: --request {str(request)!r} is not valid JSON: {BOM_PROBLEM}"
    )
    assert "utf-8-sig" not in err


# --- a query string on a POST endpoint --------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    ["/v1/solve/opening", "/v1/solve/penalty", "/v1/solve/tabla", "/v1/validate/meld", "/v1/hint"],
)
def test_a_query_string_on_an_operation_endpoint_is_refused_not_ignored(
    client: TestClient, path: str
) -> None:
    # `POST /v1/solve/opening?rules=remi` answered for rummy101: the service reads its fields
    # from the body only, and unknown body fields are refused; a query was dropped unread
    r = client.post(path + "?rules=remi", json={"rack": "R1 R2 R3"})
    assert r.status_code == 422
    assert r.json() == {
        "error": f'POST {path} reads no query parameters (got "?rules=remi"): '
        f'give every field in the JSON body, e.g. {{"rules": '
        f'"remi", ...}}'
    }
    assert r.headers.get("connection") == "close"  # its body was not read
    # an empty query is no query
    r = client.post("/v1/solve/opening?", json={"rack": "R1 R2 R3"})
    assert r.status_code == 200, r.text


# --- a game record's fields are the record's --------------------------------------------------


@pytest.mark.parametrize(
    "record, expected",
    [
        ({}, "field 'record': 'seed' is missing: a whole number from 0 to 9223372036854775807"),
        (
            '{"rules": "rummy101", "seed": -1}',
            "field 'record': 'seed' is -1; accepted: a whole number from 0 to 9223372036854775807",
        ),
        (
            {"rules": "rummy101", "seed": 1, "match_rounds": 0},
            # (1 to 100 until s46: the engine's and the replays' range is the hint's too)
            "field 'record': 'match_rounds' is 0; accepted: a whole number from 1 to 10000",
        ),
    ],
)
def test_a_hint_records_seed_is_named_as_the_records(
    client: TestClient, record: object, expected: str
) -> None:
    # "field 'seed' is missing" sent a person looking for a 'seed' beside 'record'
    r = client.post("/v1/hint", json={"record": record})
    assert r.status_code == 422 and r.json() == {"error": expected}, r.text


def test_a_replays_seed_is_named_as_the_records(client: TestClient) -> None:
    r = client.post(
        "/v1/replays", json={"record": {"rules": "rummy101", "seed": "7", "actions": []}}
    )
    assert r.status_code == 422
    assert r.json() == {
        "error": "field 'record': 'seed' must be a whole number from 0 to "
        '9223372036854775807, got a string "7"'
    }


# --- a batch on the pure backend keeps its time budget ------------------------------------------


@pytest.mark.parametrize("form", ["text racks", "request objects"])
def test_a_pure_batch_checks_its_time_budget_between_racks(
    monkeypatch: pytest.MonkeyPatch, form: str
) -> None:
    # the budget was checked between calls of 256 racks: on the pure backend a dense rack may
    # spend its whole work budget (about 3 s), and 23 dense racks answered after 31 s, 460
    # after 54 s, holding the one slow-lane thread. A fake clock that jumps past the budget at
    # each solver call stands for racks that each take that long (no timed assertion).
    import rummy101
    from rummy101.service import api

    clock = [0.0]
    monkeypatch.setattr(api, "time", SimpleNamespace(monotonic=lambda: clock[0]))
    for name in ("openings_json", "answers_json"):
        solver = getattr(api, name)

        def late(*args: object, _solver: Any = solver, **kwargs: object) -> Any:
            clock[0] += 30.0  # one call takes longer than the batch's whole budget
            return _solver(*args, **kwargs)

        monkeypatch.setattr(api, name, late)
    racks = ["R1 R2 R3 K9", "Y5 Y6 Y7", "B1 B1 B2", "K13 K12 K11 R2"]
    items: list[Any] = racks if form == "text racks" else [{"rack": r} for r in racks]
    with rummy101.using_backend("pure"):
        answers = api.openings(items)
    assert "error" not in answers[0] and answers[0] is not None
    for i, answer in enumerate(answers[1:], start=1):
        assert answer["error"].startswith(f"item {i}: not solved: the request used up its 20 s")


# --- the CLI reads no more than a request holds ------------------------------------------------


def test_a_jsonl_line_longer_than_a_request_is_answered_and_skipped(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # `--input /dev/zero` (a line without end) was read whole, until a MemoryError traceback;
    # a line is one request, held to the service's body limit, and the lines after it go on
    from rummy101.cli.solve import MAX_LINE_BYTES

    lines = tmp_path / "lines.jsonl"
    lines.write_bytes(b"a" * (MAX_LINE_BYTES + 10) + b'\n{"rack": "R1 R2 R3"}\n')
    assert main(["solve", "opening", "--jsonl", "--input", str(lines)]) == 2
    out = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert out[0] == {
        "error": "line 1 is longer than 4,194,304 bytes, the most one request holds (as a "
        "service body)"
    }
    assert out[1]["rack"] == "R1 R2 R3" and len(out) == 2


def test_a_hint_request_longer_than_a_request_is_refused_unread(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    request = tmp_path / "big.json"
    request.write_bytes(b" " * (4 * 1024 * 1024) + b"{}")
    assert main(["hint", "--request", str(request)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(
        f"rummy101 hint: error: --request {str(request)!r} holds more than 4,194,304 bytes"
    )


def test_running_out_of_memory_is_one_line_not_a_traceback(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from rummy101.service import api

    def exhausted(*args: object, **kwargs: object) -> None:
        raise MemoryError

    monkeypatch.setattr(api, "penalty", exhausted)
    assert main(["solve", "penalty", "--rack", "R1 R2"]) == 2
    err = capsys.readouterr().err
    assert err == "rummy101 solve: error: out of memory; give a smaller input\n"


# --- a hint's view that no game makes -----------------------------------------------------------


def test_a_hint_view_past_the_supply_names_rack_table_and_discard_not_the_rack(
    client: TestClient,
) -> None:
    # "rack, table and last discard together: the rack holds 3 copies of Y5" (the rack held none)
    body = {
        "seat": 0,
        "stage": "take",
        "rack": "R1 R2 K5",
        "last_discard": "Y5",
        "players": [{"seat": 1, "opened": "melds"}],
        "table": [{"owner": 1, "tiles": "Y5 Y6 Y7"}, {"owner": 1, "tiles": "Y5 Y6 Y7 Y8"}],
    }
    r = client.post("/v1/hint", json=body)
    assert r.status_code == 422
    assert r.json() == {
        "error": "the rack, table and last discard hold 3 copies of Y5, but rummy101 has only 2 of "
        "each tile (R101-1)"
    }


def test_a_run_of_a_seat_that_opened_with_pairs_is_refused(client: TestClient) -> None:
    # a player who opened with pairs never lays runs or sets (R101-8): the view was hinted as
    # it came; its pairs, and the runs of a seat that opened with melds, stay accepted
    players = [{"seat": 0, "opened": "pairs"}, {"seat": 1, "opened": "melds"}]
    body = {"seat": 0, "stage": "play", "rack": "R1 R2 K5", "players": players}
    r = client.post("/v1/hint", json={**body, "table": [{"owner": 0, "tiles": "Y1 Y2 Y3"}]})
    assert r.status_code == 422
    assert r.json() == {
        "error": "table meld 0 is a run of seat 0, which field 'players' marks as opened with "
        "pairs: a player who opened with pairs never lays runs or sets, only pairs (R101-8)"
    }
    table = [
        {"owner": 0, "tiles": "Y1 Y1"},
        {"owner": 1, "tiles": "K1 K1"},
        {"owner": 1, "tiles": "B1 B2 B3"},
    ]
    r = client.post("/v1/hint", json={**body, "table": table})
    assert r.status_code == 200, r.text


# --- a method HTTP does not define ---------------------------------------------------------------


@pytest.mark.backend_free
def test_a_method_http_does_not_define_is_told_which_methods_are() -> None:
    # `BREW / HTTP/1.1` (httptools knows HTTP's methods only) was told to check for "an
    # upper-case method", which BREW is
    pytest.importorskip("httptools")
    from rummy101.service.server import GuardedHttp
    from test_service_qa_h1_server import _exchange, _serve_in_thread

    async def app(scope: dict[str, object], receive: object, send: object) -> None:
        raise AssertionError("no request reaches the app")

    server, port = _serve_in_thread(app, GuardedHttp)
    try:
        got = _exchange(port, b"BREW /health HTTP/1.1\r\nHost: t\r\n\r\n")
    finally:
        server.should_exit = True  # type: ignore[attr-defined]
    head, _, body = got.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400 "), got[:300]
    error = json.loads(body)["error"]
    assert "a method HTTP defines, such as GET or POST, in upper case" in error, error

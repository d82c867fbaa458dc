"""The HTTP service tried by hand as a hostile or careless app would (QA round s35): what it
found, sent to the real server (``rummy101 serve``) where the fault was in the protocol."""

from __future__ import annotations

import os
import socket
import sys
from collections.abc import Iterator

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("httptools")

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "bench"))
import bench_service_hostile as hostile
from rummy101 import backend_name
from rummy101.service.limits import MAX_HEAD_BYTES


@pytest.fixture(scope="module")
def server() -> Iterator[hostile.Server]:
    with hostile.Server(backend_name()) as s:
        yield s


def _exchange(port: int, data: bytes, tail: bytes = b"", tail_times: int = 0) -> bytes:
    """Send ``data``, then ``tail`` up to ``tail_times`` times while the server reads; what
    came back before the server closed the connection."""
    with socket.create_connection(("127.0.0.1", port), timeout=20) as s:
        got = b""
        try:
            s.sendall(data)
            for _ in range(tail_times):
                s.sendall(tail)
        except OSError:  # the server answered and closed while we were still sending
            pass
        try:
            while chunk := s.recv(65536):
                got += chunk
        except OSError:  # closed with bytes of ours unread
            pass
        return got


CHUNKED = (
    b"POST /v1/validate/meld HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
    b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    b"14\r\n" + b'{"meld": "R1 R2 R3"}' + b"\r\n0\r\n"
)


def test_trailer_fields_of_a_chunked_body_are_capped_like_headers(server: hostile.Server) -> None:
    # the header cap counted up to the blank line after the headers only: the trailer fields
    # after a chunked body's last chunk were held whatever their size (httptools buffers them,
    # uvicorn adds them to the request's headers), within the body timeout: 100 MB of them took
    # the process from 128 MB to 208 MB, and a client that never ended them got its 408 only
    # after 10 s of sending
    line = b"X-T: " + b"a" * 1000 + b"\r\n"
    endless = _exchange(server.port, CHUNKED, tail=line, tail_times=8 * 1024)  # 8 MB, never ended
    assert endless.startswith(b"HTTP/1.1 431 "), endless[:200]
    assert b"trailer fields" in endless and str(MAX_HEAD_BYTES).encode() in endless, endless
    # one field of 1 MB sent in one piece with the body (the read that brings the last chunk is
    # not counted: the cap may be passed by the rest of that read, as for pipelined headers)
    big = _exchange(server.port, CHUNKED + b"X-T: " + b"a" * (1 << 20) + b"\r\n\r\n")
    assert big.startswith(b"HTTP/1.1 431 "), big[:200]
    # trailers under the cap, and none, are read as before
    for ok in (CHUNKED + line * 20 + b"\r\n", CHUNKED + b"\r\n"):
        got = _exchange(server.port, ok)
        assert got.startswith(b"HTTP/1.1 200 ") and b'"valid":true' in got, got[:300]

    # a body of two chunks whose data comes in reads after their size lines: the data of a
    # chunk is never taken for trailer fields
    with socket.create_connection(("127.0.0.1", server.port), timeout=20) as s:
        s.sendall(CHUNKED.removesuffix(b"14\r\n" + b'{"meld": "R1 R2 R3"}' + b"\r\n0\r\n"))
        body = b'{"meld": "R1 R2 R3"' + b" " * (2 * MAX_HEAD_BYTES) + b"}"
        for piece in (body[:10], body[10:]):
            s.sendall(f"{len(piece):x}\r\n".encode())
            s.sendall(piece + b"\r\n")
        s.sendall(b"0\r\n\r\n")
        got = b""
        while chunk := s.recv(65536):
            got += chunk
    assert got.startswith(b"HTTP/1.1 200 ") and b'"valid":true' in got, got[:300]


def test_a_game_busy_with_a_request_is_not_deleted_under_it() -> None:
    # DELETE took the game from under a running action: the delete answered 200, then the
    # action answered 200 with a view of a game that was gone (play-hint with search bots, the
    # delete sent 0.1 s later). One request works on a game at a time: the delete answers 429
    from rummy101.service import games as g

    store = g.GameStore()
    view = store.create({"rules": "rummy101(players=2)", "seed": 4})
    game = store.game(view["id"])
    with game.lock, pytest.raises(g.GameBusy, match=f"^game {view['id']} is busy"):
        store.delete(view["id"])
    assert store.view(view["id"])["id"] == view["id"]  # still there, and free again
    assert store.delete(view["id"]) == {"deleted": view["id"]}
    with pytest.raises(g.NotFound, match="it was deleted"):
        store.view(view["id"])


@pytest.mark.parametrize(
    "path,raw,expected",
    [
        (
            "/v1/solve/opening",
            b'{"rack": "R1',
            "request body is not valid JSON: Unterminated string starting at line 1 column 10",
        ),
        (
            "/v1/solve/opening",
            b'{"rack": "R1\x00 R2"}',
            (
                "request body is not valid JSON: Invalid control character U+0000 in a string "
                "(write it escaped, \\u0000) at line 1 column 13"
            ),
        ),
        (
            "/v1/solve/opening",
            b'{"rack": "[\\"R1\\", \\"R2\\u0001\\""}',
            (
                "field 'rack': rack '[\"R1\", \"R2\\x01\"' starts with '[' but is not a JSON list: "
                "Invalid control character U+0001 in a string (write it escaped, \\u0001) at line 1 "
                "column 11"
            ),
        ),
        (
            "/v1/hint",
            b'{"record": "{\\"rules\\": \\"rumm"}',
            "field 'record' is not valid JSON: Unterminated string starting at line 1 column 11",
        ),
    ],
    ids=["unterminated", "raw NUL", "rack list", "record text"],
)
def test_a_json_mistake_is_named_in_words_that_read(path: str, raw: bytes, expected: str) -> None:
    # Python's message for these ends in "at", and the line and column were added after it:
    # "Unterminated string starting at at line 1 column 10", "Invalid control character at at
    # line 1 column 13" (which character, and that it must be escaped, went unsaid), and a rack
    # given as a JSON list text ended in a bare "at"
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient
    from rummy101.service.app import create_app

    client = TestClient(create_app())
    r = client.post(path, content=raw, headers={"content-type": "application/json"})
    assert r.status_code in (400, 422) and r.json() == {"error": expected}, r.text


def test_a_number_out_of_range_is_named_as_it_was_sent() -> None:
    # 1e300 is a whole number, read as the int it equals, and the message showed that int's
    # first 57 digits ("field 'threshold' is 100000000000000005250476025520442024870446...")
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient
    from rummy101.service.app import create_app

    client = TestClient(create_app())
    r = client.post("/v1/solve/opening", json={"rack": "R1 R2 R3", "threshold": 1e300})
    assert r.status_code == 422
    assert r.json() == {
        "error": "field 'threshold' is 1e+300; accepted: a whole number from 0 to 1000000"
    }


def test_a_batch_item_that_is_a_number_is_told_it_is_no_rack() -> None:
    # it was read as {"rack": 5}: "item 1: field 'rack' must be a rack ...", a field the
    # request does not have; the item itself is what is wrong, as for null
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient
    from rummy101.service.app import create_app

    client = TestClient(create_app())
    r = client.post("/v1/solve/opening", json={"racks": [None, 5, True, "R1 R2 R3"]})
    assert r.status_code == 200, r.text
    errors = [a.get("error") for a in r.json()["results"]]
    shape = 'must be a rack such as "R1 R2 R3" or an object such as {"rack": "R1 R2 R3"}, got'
    assert errors == [
        f"item 0: {shape} null",
        f"item 1: {shape} a number 5",
        f"item 2: {shape} a boolean true",
        None,
    ]


def test_an_unknown_replay_is_not_said_to_have_been_deleted() -> None:
    # the 404 of an unknown id listed "was deleted" among the causes for replays too, which no
    # request can delete (DELETE /v1/replays/{id} is 405)
    from rummy101.service import games as g

    store = g.GameStore()
    with pytest.raises(g.NotFound) as replay:
        store.replay("0123456789abcdef")
    assert "deleted" not in str(replay.value) and "restarted" in str(replay.value)
    with pytest.raises(g.NotFound, match="was deleted, or the service restarted"):
        store.game("0123456789abcdef")


def test_requests_before_bytes_that_are_not_http_are_answered_first(
    server: hostile.Server,
) -> None:
    # a Content-Length shorter than its body leaves the rest of the body to be read as the
    # next request; uvicorn answered that 400 at once and closed the connection, dropping the
    # answers of the requests read whole before it, which still ran: a game action was played
    # (the bots moved on), and its client was told only that its request was not HTTP
    import json

    import httpx

    with httpx.Client(base_url=f"http://127.0.0.1:{server.port}", timeout=20) as client:
        view = client.post("/v1/games", json={"rules": "rummy101(players=2)", "seed": 5}).json()
        discard = next(a for a in view["legal"] if a.startswith("discard"))
        body = json.dumps({"action": discard}).encode()
        head = (
            f"POST /v1/games/{view['id']}/actions HTTP/1.1\r\nHost: t\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
        ).encode()
        got = _exchange(server.port, head + body + b"\r\nX")
        answers = _answers(got)
        assert [status for status, _ in answers] == [200, 400], got[:300]
        played = json.loads(answers[0][1])
        assert played["moves"][0]["action"] == discard
        assert client.get(f"/v1/games/{view['id']}").json()["actions_played"] == len(played["log"])
        assert "Content-Length count every byte" in json.loads(answers[1][1])["error"]
    # three meld checks pipelined, then garbage: three answers, then the 400
    one = (
        b"POST /v1/validate/meld HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
        b'Content-Length: 20\r\n\r\n{"meld": "R1 R2 R3"}'
    )
    got = _exchange(server.port, one * 3 + b"GARBAGE\r\n\r\n")
    assert [status for status, _ in _answers(got)] == [200, 200, 200, 400], got[-300:]


def _answers(got: bytes) -> list[tuple[int, bytes]]:
    """The answers in ``got``, one after the other: (status, body)."""
    out = []
    while got:
        head, _, rest = got.partition(b"\r\n\r\n")
        lines = head.split(b"\r\n")
        fields = (line.partition(b":") for line in lines[1:])
        length = next(int(v) for k, _, v in fields if k.lower() == b"content-length")
        out.append((int(lines[0].split()[1]), rest[:length]))
        got = rest[length:]
    return out


def test_a_body_of_a_million_empty_lists_is_refused_before_it_is_read() -> None:
    # 4 MiB of '[],' is 1.4 million lists: reading them (and the collector's passes over them)
    # held the interpreter for about a second (3.3 s on a loaded machine), and the service
    # answered nothing else meanwhile, /health included; the brackets are counted first
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient
    from rummy101.service.app import create_app

    client = TestClient(create_app())
    raw = b'{"x": [' + b"[], " * 1_000_000 + b"[]]}"
    r = client.post("/v1/hint", content=raw, headers={"content-type": "application/json"})
    assert r.status_code == 400, r.text
    assert r.json() == {
        "error": "request body holds 1,000,003 JSON arrays and objects (counting its '[' and "
        "'{'); at most 50,000 are read, more than any request needs"
    }
    from rummy101.service.limits import MAX_JSON_CONTAINERS

    assert client.get("/v1/info").json()["limits"]["max_json_containers"] == MAX_JSON_CONTAINERS
    # the biggest request there is, a batch of 10,000 request objects whose racks are lists
    batch = [{"rack": ["R1", "R2", "R3"]}] * 10_000
    r = client.post("/v1/solve/opening", json=batch)
    assert r.status_code == 200 and len(r.json()["results"]) == 10_000


@pytest.mark.parametrize("rules", ["remi", "classic"])
@pytest.mark.parametrize(
    "key,value,named",
    [
        ("table", [["R1", "R2", "R3"]], "its 'table' item 0 must be an object"),
        ("table", "x", "its 'table' must be a list"),
        ("rack", [5], "its 'rack' item 0 must be a string"),
        ("rack", [[1]], "its 'rack' item 0 must be a string"),
        ("turn_state", 5, "its 'turn_state' must be an object"),
        ("stock", "x", "its 'stock' must be a number"),
    ],
)
def test_an_observation_value_of_the_wrong_kind_is_named(
    rules: str, key: str, value: object, named: str
) -> None:
    # these answered Python's own words, which name no field: "list indices must be integers
    # or slices, not str", "'int' object is not subscriptable", "unhashable type: 'list'",
    # "unsupported operand type(s) for +: 'int' and 'str'", and a rack [5] "lacks the field 5"
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient
    from rummy101.game import new_game
    from rummy101.service.app import create_app

    state = new_game(rules, 3)
    obs = {**state.observation(state.current_player), key: value}
    r = TestClient(create_app()).post("/v1/hint", json={"observation": obs})
    assert r.status_code == 422, r.text
    error = r.json()["error"]
    assert error.startswith(
        f"field 'observation': {named}, as State.observation(seat) writes it, got "
    ), error


@pytest.mark.parametrize(
    "key,value",
    [
        ("table", {"0": {"owner": 1, "tiles": ["R1", "R2", "R3"]}}),
        ("opened", {"0": "melds"}),
        ("thresholds", [120, 6]),
        ("button", True),
        ("turn_state", "play"),
    ],
)
def test_a_rummy101_observation_field_of_another_kind_is_refused_not_read_as_empty(
    key: str, value: object
) -> None:
    # these were read as empty (no table, nobody opened, the fixed thresholds, no joker button)
    # and the hint answered 200 for a position the client did not describe
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient
    from rummy101.game import new_game
    from rummy101.service.app import create_app

    state = new_game("rummy101", 3)
    obs = {**state.observation(state.current_player), key: value}
    r = TestClient(create_app()).post("/v1/hint", json={"observation": obs})
    assert r.status_code == 422, r.text
    assert r.json()["error"].startswith(f"field 'observation': its {key!r} must be ") and r.json()[
        "error"
    ].endswith(
        ", as State.observation(seat) writes it, got "
        + {
            "table": 'an object {"0": {"owner": 1, "tiles": ["R1", "R2", "R3"]}}',
            "opened": 'an object {"0": "melds"}',
            "thresholds": "a list [120, 6]",
            "button": "a boolean true",
            "turn_state": 'a string "play"',
        }[key]
    ), r.text


def test_requests_sent_ahead_of_their_answers_are_capped_per_connection(
    server: hostile.Server,
) -> None:
    # uvicorn queued every request a client sent ahead of its answers: 300,000 pipelined GETs
    # (10 MB) took the process from 120 MB to 1.7 GB and /health waited 7 s; 20,000 pipelined
    # solves made it answer nothing else for 18 s. Those past MAX_PIPELINED are not read: the
    # ones before are answered, then a 429 says so, and the connection is closed
    from rummy101.service.limits import MAX_PIPELINED

    rss0 = server.rss()
    got = _exchange(server.port, b"GET /health HTTP/1.1\r\nHost: t\r\n\r\n" * 100_000)
    answers = _answers(got)
    assert [status for status, _ in answers] == [200] * (MAX_PIPELINED + 1) + [429], got[-300:]
    assert b"more than 64 requests were sent on one connection" in answers[-1][1]
    assert server.rss() - rss0 < 50 * 1024 * 1024
    # as many as the cap are all answered, on a connection that stays open
    one = (
        b"POST /v1/validate/meld HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
        b'Content-Length: 20\r\n\r\n{"meld": "R1 R2 R3"}'
    )
    last = one.replace(b"Host: t\r\n", b"Host: t\r\nConnection: close\r\n")
    got = _exchange(server.port, one * MAX_PIPELINED + last)
    assert [status for status, _ in _answers(got)] == [200] * (MAX_PIPELINED + 1)


def test_a_429_for_the_readers_cap_says_it_is_about_bodies_being_received() -> None:
    # with 1,024 bodies being dribbled in, a POST was told "the service holds 1024 requests,
    # the most it takes at once", which a person cannot tell from the other cap (256 requests
    # whose bodies arrived) that /v1/info and docs/service.md state
    import asyncio

    pytest.importorskip("fastapi")
    from rummy101.service.app import create_app

    app = create_app(threads=1)
    service = app.state.service
    service.max_reading = 2
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
        "scheme": "http", "path": "/v1/validate/meld", "raw_path": b"/v1/validate/meld",
        "query_string": b"", "root_path": "", "client": ("t", 1), "server": ("t", 80),
        "headers": [(b"content-type", b"application/json"), (b"content-length", b"20")],
    }  # fmt: skip

    async def main() -> list[dict[str, object]]:
        stall = asyncio.Event()

        async def never() -> dict[str, object]:  # the body never comes, then the client leaves
            await stall.wait()
            return {"type": "http.disconnect"}

        async def reader() -> list[dict[str, object]]:
            sent: list[dict[str, object]] = []

            async def send(message: dict[str, object]) -> None:
                sent.append(message)

            await app(dict(scope), never, send)  # type: ignore[arg-type]
            return sent

        readers = [asyncio.ensure_future(reader()) for _ in range(3)]
        await asyncio.sleep(0.2)
        third = [t.result() for t in readers if t.done()]
        stall.set()
        await asyncio.gather(*readers)
        return third[0]

    sent = asyncio.run(main())
    assert sent[0]["status"] == 429
    body = b"".join(m.get("body", b"") for m in sent)  # type: ignore[misc]
    assert body == (
        b'{"error":"the service is receiving the bodies of 2 requests, the most it reads at '
        b'once; retry later"}'
    ), body

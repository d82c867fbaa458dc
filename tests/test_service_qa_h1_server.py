"""Requests that are not HTTP/1.1 at all, sent to the real server (``rummy101 serve``): they are
answered with the service's own error shape (QA round h1)."""

from __future__ import annotations

import json
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


@pytest.fixture(scope="module")
def server() -> Iterator[hostile.Server]:
    with hostile.Server(backend_name()) as s:
        yield s


def _exchange(port: int, data: bytes) -> bytes:
    """Send ``data``; everything the server sent back before it closed the connection."""
    with socket.create_connection(("127.0.0.1", port), timeout=20) as s:
        got = b""
        try:
            s.sendall(data)
            while chunk := s.recv(65536):
                got += chunk
        except ConnectionResetError:  # closed with bytes of ours unread
            pass
        return got


BODY = b'{"rack": "R1 R2 R3"}'
HEAD = b"POST /v1/solve/opening HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"


@pytest.mark.parametrize("raw", [
    HEAD + b"Content-Length: -1\r\n\r\n" + BODY,
    HEAD + b"Content-Length: abc\r\n\r\n" + BODY,
    HEAD + b"Content-Length: 5\r\nContent-Length: 20\r\n\r\n" + BODY,
    HEAD + b"Content-Length: 20\r\nTransfer-Encoding: chunked\r\n\r\n14\r\n" + BODY + b"\r\n0\r\n\r\n",
    HEAD + b"Transfer-Encoding: chunked\r\n\r\nzz\r\n" + BODY + b"\r\n0\r\n\r\n",
    b"GARBAGE\r\n\r\n",
    b"post /v1/solve/opening HTTP/1.1\r\nHost: t\r\n\r\n",
], ids=["negative length", "length not a number", "two lengths", "length and chunked",
        "bad chunk size", "no request line", "lower-case method"])
def test_a_request_that_is_not_http_is_answered_400_with_an_error_object(
        server: hostile.Server, raw: bytes) -> None:
    # uvicorn answered these in text/plain ("Invalid HTTP request received."), the one answer
    # of the service that was not {"error": ...}
    got = _exchange(server.port, raw)
    head, _, body = got.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400 "), got[:300]
    assert b"content-type: application/json" in head.lower()
    assert b"connection: close" in head.lower()
    error = json.loads(body)["error"]
    assert "not valid HTTP/1.1" in error and "Content-Length" in error, error


def _serve_in_thread(app: object, protocol: type) -> tuple[object, int]:
    """uvicorn with ``protocol`` on a free port of 127.0.0.1, in a thread: (server, port)."""
    import threading
    import time

    import uvicorn

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = uvicorn.Config(app, host="127.0.0.1", port=port, http=protocol, loop="asyncio",
                            log_level="critical", lifespan="off")  # type: ignore[arg-type]
    server = uvicorn.Server(config)
    threading.Thread(target=server.run, daemon=True).start()
    for _ in range(200):
        if server.started:
            break
        time.sleep(0.05)
    return server, port


@pytest.mark.backend_free
def test_a_pipelined_body_waits_for_the_answer_before_it_without_a_408() -> None:
    """A client that pipelines a request behind a slow one (a batch of dense racks runs up to
    20 s) has the second body left unread by uvicorn until the first is answered. The body timer
    ran meanwhile: after 10 s the server wrote a 408 as the answer to the FIRST request, closed
    the connection, and the first answer was lost (and logged as an error). The timer now starts
    once the pipelined request is the one being answered."""
    import asyncio

    from rummy101.service.server import GuardedHttp

    class Quick(GuardedHttp):
        body_seconds = 0.5

    async def app(scope: dict[str, object], receive: object, send: object) -> None:
        body = b""
        while True:
            message = await receive()  # type: ignore[operator]
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        if scope["path"] == "/slow":
            await asyncio.sleep(1.5)  # longer than the body timer
        answer = json.dumps({"path": scope["path"], "bytes": len(body)}).encode()
        await send({"type": "http.response.start", "status": 200,  # type: ignore[operator]
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(answer)).encode())]})
        await send({"type": "http.response.body", "body": answer})  # type: ignore[operator]

    server, port = _serve_in_thread(app, Quick)
    try:
        big = b"x" * (2 * 1024 * 1024)  # more than one read: uvicorn pauses reading in it
        data = (b"POST /slow HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\n\r\n{}"
                b"POST /next HTTP/1.1\r\nHost: t\r\nConnection: close\r\nContent-Length: "
                + str(len(big)).encode() + b"\r\n\r\n" + big)
        got = _exchange(port, data)
    finally:
        server.should_exit = True  # type: ignore[attr-defined]
    assert got.count(b"HTTP/1.1 ") == 2 and got.count(b"HTTP/1.1 200 OK") == 2, got[:400]
    assert b'{"path": "/slow", "bytes": 2}' in got
    assert b'{"path": "/next", "bytes": ' + str(len(big)).encode() + b"}" in got


@pytest.mark.backend_free
def test_a_request_pipelined_behind_learns_that_its_client_left() -> None:
    """uvicorn tells only the latest request of a connection that its client disconnected: a
    request answered while a pipelined one waited behind it never learned it (a batch ran its
    whole 20 s in the slow lane for a client that was gone, and a batch of two racks sent by
    another client waited 18.9 s instead of 0.7 s). Every request of the connection learns it."""
    import threading

    from rummy101.service.server import GuardedHttp

    told = threading.Event()

    async def app(scope: dict[str, object], receive: object, send: object) -> None:
        while True:  # the request's body
            message = await receive()  # type: ignore[operator]
            if not message.get("more_body"):
                break
        if scope["path"] == "/slow":  # a long solve that watches its client (Service.process)
            if (await receive())["type"] == "http.disconnect":  # type: ignore[operator]
                told.set()
            return
        await send({"type": "http.response.start", "status": 200,  # type: ignore[operator]
                    "headers": [(b"content-length", b"0")]})
        await send({"type": "http.response.body", "body": b""})  # type: ignore[operator]

    server, port = _serve_in_thread(app, GuardedHttp)
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=20) as s:
            s.sendall(b"POST /slow HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\n\r\n{}"
                      b"GET /next HTTP/1.1\r\nHost: t\r\n\r\n")
            import time
            time.sleep(0.3)
        assert told.wait(15), "the request before the pipelined one was never told"
    finally:
        server.should_exit = True  # type: ignore[attr-defined]


H2C = (b"Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\n"
       b"HTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n")
THEN = b"GET /health HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n"


@pytest.mark.parametrize("framing", ["length", "chunked", "split"])
@pytest.mark.backend_free
def test_a_post_offering_an_h2c_upgrade_keeps_its_body(server: hostile.Server,
                                                       framing: str) -> None:
    """Java's HttpClient (HTTP_2 by default) and curl --http2 offer an h2c upgrade on plain
    http://: httptools then hands the headers over as an upgrade and uvicorn, which does not
    upgrade, dropped the body (uvicorn#2722): every such POST answered 400 "request body is
    empty". The service speaks HTTP/1.1 and answers the request as if no upgrade was offered,
    body and all, and the connection goes on."""
    import time

    if framing == "chunked":
        body = (hex(len(BODY))[2:].encode() + b"\r\n" + BODY + b"\r\n0\r\n\r\n")
        head = HEAD + H2C + b"Transfer-Encoding: chunked\r\n\r\n"
    else:
        body, head = BODY, HEAD + H2C + b"Content-Length: 20\r\n\r\n"
    with socket.create_connection(("127.0.0.1", server.port), timeout=20) as s:
        if framing == "split":  # the body in another read than the headers
            s.sendall(head + body[:7])
            time.sleep(0.3)
            s.sendall(body[7:] + THEN)
        else:
            s.sendall(head + body + THEN)
        got = b""
        while chunk := s.recv(65536):
            got += chunk
    assert got.count(b"HTTP/1.1 200 OK") == 2, got[:600]
    assert b'"rack":"R1 R2 R3"' in got and b'{"status":"ok"}' in got


@pytest.mark.backend_free
def test_connect_is_answered_400(server: hostile.Server) -> None:
    got = _exchange(server.port, b"CONNECT example.com:443 HTTP/1.1\r\nHost: example.com\r\n\r\n")
    assert got.startswith(b"HTTP/1.1 400 "), got[:300]
    assert "error" in json.loads(got.partition(b"\r\n\r\n")[2])

"""QA round s36 on the HTTP service: a pipelined request behind an incomplete head, large
bodies and the event loop, and a hostile pass on the game endpoints (Remi and classic)."""

from __future__ import annotations

import asyncio
import json
import socket
import time

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("httptools")

from test_service_qa_h1_server import _serve_in_thread


def _slow_app(seconds: float) -> object:
    """An ASGI app that answers ``{"path"}``, after ``seconds`` for the path /slow."""

    async def app(scope: dict[str, object], receive: object, send: object) -> None:
        if scope["type"] != "http":
            return
        while True:
            message = await receive()  # type: ignore[operator]
            if not message.get("more_body"):
                break
        if scope["path"] == "/slow":
            await asyncio.sleep(seconds)
        answer = json.dumps({"path": scope["path"]}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 200,  # type: ignore[operator]
                "headers": [(b"content-length", str(len(answer)).encode())],
            }
        )
        await send({"type": "http.response.body", "body": answer})  # type: ignore[operator]

    return app


def _read_all(s: socket.socket) -> bytes:
    got = b""
    try:
        while chunk := s.recv(65536):
            got += chunk
    except ConnectionResetError:
        pass
    return got


SLOW = b"POST /slow HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\n\r\n{}"


@pytest.mark.parametrize("rest", ["never", "late"])
def test_a_request_read_whole_is_answered_though_the_next_head_is_incomplete(rest: str) -> None:
    """A client pipelined a long request (a batch runs up to 20 s) and the first bytes of the
    next one. The next head's timer ran from its first byte while the long request was still
    running: it closed the connection, and the answer of the request read whole was lost (the
    batch ran for nobody). The timer now starts once the request before is answered; a head
    that then stays incomplete is dropped after its time, one that completes is answered."""
    from rummy101.service.server import GuardedHttp

    class Quick(GuardedHttp):
        header_seconds = 0.5

    server, port = _serve_in_thread(_slow_app(1.5), Quick)  # the long request outlives the timer
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=20) as s:
            t0 = time.monotonic()
            s.sendall(SLOW + b"GET /next HTT")
            if rest == "late":  # the rest of the head after the first timer would have fired
                time.sleep(1.0)
                s.sendall(b"P/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
            got = _read_all(s)
            seconds = time.monotonic() - t0
    finally:
        server.should_exit = True  # type: ignore[attr-defined]
    assert b'{"path": "/slow"}' in got, got[:400]
    if rest == "late":
        assert got.count(b"HTTP/1.1 200 OK") == 2 and b'{"path": "/next"}' in got, got[:600]
    else:  # the incomplete head still had a bounded time, counted from the answer
        assert got.count(b"HTTP/1.1 ") == 1, got[:600]
        assert seconds < 15

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
        s.sendall(data)
        got = b""
        while chunk := s.recv(65536):
            got += chunk
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

"""Reading one operation request's body from ASGI, once for every path that answers it.

The headers are checked first (``Content-Type: application/json``, a declared length within
:data:`~.limits.MAX_BODY_BYTES`), then the body is read chunk by chunk within that size and within
the process's :class:`BodyBudget`, and parsed strictly (:func:`rummy101._validate.loads`; a big
body in a worker thread, off the event loop, in pieces that let the loop run between them). A problem found before the body is read whole is an
:class:`HttpError`, after which the connection is closed.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import anyio
import anyio.to_thread
from starlette.types import Receive, Scope

from .._validate import loads
from .limits import MAX_BODY_BYTES

__all__ = ["BIG_BODY", "FREE_BODY_BYTES", "FREE_BODY_BYTES_IN_FLIGHT", "BodyBudget", "HttpError",
           "parse_body", "receive_body"]

BIG_BODY = 64 * 1024  # bytes: bodies larger than this are parsed in a worker thread
#: the first bytes of each body are held in a pool of their own (:class:`BodyBudget`), so that
#: ordinary requests (solves, hints, game moves: well under this) are never refused for the bytes
#: of big bodies that others hold (eight 4 MiB bodies sent but their last byte held the whole
#: budget, and every POST answered 429 for the body timeout, 10 s at a time)
FREE_BODY_BYTES = 8 * 1024
#: bytes that pool holds at once: the heads of 1,024 bodies, as many as the requests reading
#: their bodies (:data:`~.limits.MAX_READING`)
FREE_BODY_BYTES_IN_FLIGHT = 8 * 1024 * 1024


class HttpError(Exception):
    """An answer decided before the body is fully read: the connection is closed after it."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def check_content_type(value: bytes | str | None) -> None:
    """POST bodies are JSON: ``Content-Type: application/json`` (parameters such as
    ``charset=utf-8`` allowed). Anything else answers 415: a browser may send ``text/plain``
    to any address without asking, but not ``application/json``."""
    text = value.decode("latin-1") if isinstance(value, bytes) else (value or "")
    media, *params = (part.strip().lower() for part in text.split(";"))
    if media != "application/json":
        got = f"got {text[:60]!r}" if text else "no Content-Type was sent"
        raise HttpError(415, f"the body must be JSON sent as Content-Type: application/json "
                             f"({got}); e.g. curl --json '{{...}}' or -H 'Content-Type: "
                             f"application/json'")
    for param in params:  # JSON is UTF-8 (RFC 8259): another declared charset would be misread
        name, _, charset = param.partition("=")
        charset = charset.strip().strip('"')
        if name.strip() == "charset" and charset not in ("utf-8", "utf8"):
            raise HttpError(415, f"the body is read as UTF-8, the encoding of JSON (got "
                                 f"{text[:60]!r}): send charset=utf-8 or no charset")


def check_length(length: bytes | str | None) -> None:
    """A declared ``Content-Length`` must be a number within :data:`~.limits.MAX_BODY_BYTES`."""
    if length is None:
        return
    try:
        declared = int(length)
    except ValueError:
        raise HttpError(400, f"Content-Length {str(length)[:40]!r} is not a number") from None
    if declared > MAX_BODY_BYTES:
        raise HttpError(413, f"request body is {declared} bytes; at most {MAX_BODY_BYTES} "
                             f"bytes are accepted")


class BodyBudget:
    """Bytes of request bodies held at once in this process: a request reserves its bytes as
    they arrive and gives them back when it is answered; past a limit it answers 429. The first
    ``free`` bytes of each body (:data:`FREE_BODY_BYTES`) are held in a pool of their own, of
    ``free_limit`` bytes, and the rest within ``limit``: big bodies cannot take the bytes that
    ordinary requests need."""

    def __init__(self, limit: int, free: int = FREE_BODY_BYTES,
                 free_limit: int = FREE_BODY_BYTES_IN_FLIGHT) -> None:
        self.limit = limit
        self.free = free
        self.free_limit = free_limit
        self.held = 0       # bytes past each body's first `free`
        self.held_free = 0  # the first `free` bytes of each body

    def _head(self, n: int) -> int:
        return min(n, self.free)

    def take(self, before: int, n: int) -> None:
        """Reserve ``n`` more bytes of a body of which ``before`` bytes are reserved."""
        head = self._head(before + n) - self._head(before)
        for held, more, limit in ((self.held_free, head, self.free_limit),
                                  (self.held, n - head, self.limit)):
            if held + more > limit:
                raise HttpError(429, f"the service is holding {held} bytes of request bodies, "
                                     f"the most it holds at once is {limit}; retry later")
        self.held_free += head
        self.held += n - head

    def give(self, n: int) -> None:
        """Give back the ``n`` bytes reserved for one body."""
        head = self._head(n)
        self.held_free -= head
        self.held -= n - head


async def receive_body(scope: Scope, receive: Receive, budget: BodyBudget,
                       held: list[int]) -> bytes:
    """The whole body, after checking its headers; ``held[0]`` counts the bytes reserved in
    ``budget`` (the caller gives them back)."""
    length = None
    content_type = None
    encoding = b"identity"
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            length = value
        elif name == b"content-type":
            content_type = value
        elif name == b"content-encoding" and encoding.strip().lower() in (b"identity", b""):
            encoding = value  # the first coding that is not identity: given twice, the
            # header's values are one list (RFC 9110 5.3), and 'gzip' then 'identity' is gzip
        elif name == b"transfer-encoding":
            # the server takes the chunks apart but no other coding: a body sent with
            # 'Transfer-Encoding: gzip, chunked' reached the JSON reader compressed and was told
            # it is 'not UTF-8 text (bad byte at offset 1)'
            codings = [c.strip().lower() for c in value.split(b",")]
            if any(c not in (b"chunked", b"identity", b"") for c in codings):
                raise HttpError(415, f"the body must be sent as it is, not compressed (got "
                                     f"Transfer-Encoding: {value[:40].decode('latin-1')!r}); "
                                     f"send it with Content-Length or Transfer-Encoding: chunked "
                                     f"alone")
    check_content_type(content_type)
    if encoding.strip().lower() not in (b"identity", b""):
        raise HttpError(415, f"the body must be sent as it is, not compressed (got Content-Encoding: "
                             f"{encoding[:40].decode('latin-1')!r})")
    check_length(length)
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise HttpError(400, "the client disconnected before sending the whole body")
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            raise HttpError(413, f"request body is larger than {MAX_BODY_BYTES} bytes, the most "
                                 f"accepted")
        budget.take(held[0], len(chunk))
        held[0] += len(chunk)
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


async def parse_body(raw: bytes, limiter: anyio.CapacityLimiter) -> Any:
    """The JSON of ``raw`` (:class:`~rummy101._validate.BadRequest` if it is none); a big body is
    parsed in a worker thread of ``limiter``, off the event loop."""
    if len(raw) > BIG_BODY:  # (yielding: a thread in json's C reader holds the interpreter)
        return await anyio.to_thread.run_sync(partial(loads, raw, yielding=True), limiter=limiter)
    return loads(raw)

"""The ASGI front door: operation requests answered without the framework's routing stack.

:class:`Service` answers one operation request (caps on what is held at once, the body read and
parsed by :mod:`.body`, the work handed to a :class:`~.batching.Coalescer`, every outcome turned
into a status and a JSON payload); :class:`FrontDoor` is the outermost ASGI layer that sends it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import parse_qsl

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .._validate import BadRequest, quoted_list, short
from ..errors import RummyError
from .answer import encode, internal_error
from .batching import Busy, ClientGone, Coalescer, Lanes
from .body import BodyBudget, HttpError, parse_body, receive_body
from .limits import MAX_BODY_BYTES_IN_FLIGHT, MAX_IN_FLIGHT, MAX_READING

__all__ = ["CACHE_BUSTER", "FrontDoor", "Service", "query_refused", "unread_query"]


class Service:
    """Answers the operation requests of one app: its :class:`~.batching.Lanes`, the requests
    and body bytes it holds at once."""

    def __init__(self, threads: int, max_in_flight: int = MAX_IN_FLIGHT,
                 max_body_bytes_in_flight: int = MAX_BODY_BYTES_IN_FLIGHT,
                 max_reading: int = MAX_READING) -> None:
        self.lanes = Lanes(threads)
        self.stopping = self.lanes.stopping  # set when the server shuts down
        self.max_in_flight = max_in_flight
        self.in_flight = 0  # requests whose bodies have arrived (queued or solving)
        self.max_reading = max_reading
        self.reading = 0  # requests reading their bodies
        self.bodies = BodyBudget(max_body_bytes_in_flight)

    async def process(self, read: Callable[[], Awaitable[bytes]], runner: Coalescer,
                      path: str, receive: Receive | None = None) -> tuple[int, Any]:
        """Read, parse and answer one request: (status, JSON payload). With ``receive`` (the
        request's, its body read), a client that disconnects while its request is in the slow
        lane cancels it there (:class:`~.batching.Coalescer`; status 499, which nobody reads)."""
        try:
            raw = await read()
            try:
                body = await parse_body(raw, self.lanes.limiter)
            except BadRequest as exc:
                return 400, {"error": str(exc)}
            gone = None if receive is None else (lambda: _disconnected(receive))
            return 200, await runner.submit(body, gone)
        except ClientGone as exc:
            return 499, {"error": str(exc)}
        except HttpError as exc:
            return exc.status, {"error": exc.message}
        except Busy as exc:
            return 429, {"error": str(exc)}
        except RummyError as exc:
            return 422, {"error": str(exc)}
        except Exception as exc:  # noqa: BLE001 - logged; the answer says no more than an id
            return 400, internal_error(exc, path)

    async def handle(self, scope: Scope, receive: Receive,
                     runner: Coalescer) -> tuple[int, Any, bool]:
        """Answer one operation request: (status, payload, close the connection after it).

        At most ``max_in_flight`` requests whose bodies have arrived are held at once (queued
        or solving; more answer 429, without reading their bodies when the cap is reached
        already) and at most ``bodies.limit`` bytes of bodies. Requests still reading their
        bodies are capped apart, at ``max_reading``: a body dribbled a byte a second holds its
        slot for the whole body timeout, and 256 of them used to lock every POST out (a hostile
        probe); they now need four times the sockets, and never take the slots of requests
        that have arrived."""
        if self.in_flight >= self.max_in_flight:
            return 429, {"error": f"the service holds {self.in_flight} requests, the most it "
                                  f"takes at once; retry later"}, True
        if self.reading >= self.max_reading:  # (it said "holds 1024 requests": the readers'
            # cap, which a person could not tell from the in-flight one, 256)
            return 429, {"error": f"the service is receiving the bodies of {self.reading} "
                                  f"requests, the most it reads at once; retry later"}, True
        held = [0]
        counted = [False]
        arrived = [False]  # the whole body was read (nothing of it is left on the connection)

        async def read() -> bytes:
            self.reading += 1
            try:
                raw = await receive_body(scope, receive, self.bodies, held)
                arrived[0] = True
            finally:
                self.reading -= 1
            if self.in_flight >= self.max_in_flight:
                raise HttpError(429, f"the service holds {self.in_flight} requests, the most it "
                                     f"takes at once; retry later")
            self.in_flight += 1
            counted[0] = True
            return raw

        try:
            status, payload = await self.process(read, runner, str(scope.get("path"))[:100],
                                                 receive)
        finally:
            if counted[0]:
                self.in_flight -= 1
            self.bodies.give(held[0])
        return status, payload, status in (408, 413, 415, 429, 499) or (status == 400
                                                                        and not arrived[0])


def query_refused(scope: Scope, advice: str = 'give every field in the JSON body, e.g. '
                                            '{"rules": "remi", ...}') -> str:
    """The message for a query string on a POST endpoint (an operation's, a game's), which
    reads its fields from the JSON body only: a field given as ``?rules=remi`` would silently
    not apply. ``advice`` says what to send instead."""
    query = bytes(scope.get("query_string", b"")).decode("latin-1")
    return (f"POST {_path(scope)} reads no query parameters (got {short('?' + query, 60)}): "
            f"{advice}")


#: The one query parameter a JSON ``GET`` lets through, unread: the cache-buster that jQuery's
#: ``cache: false`` and many fetch wrappers add (``?_=1701``); any other name is refused.
CACHE_BUSTER = "_"


def unread_query(scope: Scope, advice: str) -> str | None:
    """The message for a query string on a JSON ``GET`` (or ``DELETE``) endpoint, which reads no
    query parameter, or None when there is nothing to refuse.

    ``GET /v1/games/{id}?seat=1`` answered your own seat's view, ``/v1/replays/{id}/turns/3?view=1``
    the turn's own seat: a client could believe it got what it asked for. Every parameter is
    refused and named, but a ``GET``'s cache-buster ``_`` (:data:`CACHE_BUSTER`, any value) and
    a query that names nothing (a bare ``?``, ``?&``); a ``DELETE`` is refused any query, as a
    ``POST`` is. ``advice`` says what to send instead. (The web page and its files, ``/docs`` and
    ``/openapi.json`` are the same whatever the query, and keep taking any: ``?v=3``,
    ``?utm_source=…``.)"""
    raw = bytes(scope.get("query_string", b""))
    if not raw:
        return None
    method = str(scope.get("method", "GET"))
    get = method in ("GET", "HEAD")
    pairs = parse_qsl(raw.decode("latin-1"), keep_blank_values=True, encoding="utf-8",
                      errors="replace")
    names = list(dict.fromkeys(name for name, _ in pairs if not get or name != CACHE_BUSTER))
    if get and not names:
        return None
    shown = [short(name, 30)[1:-1] or "(no name)" for name in names[:3]]
    if not shown:
        which = "the query would be ignored"
    elif len(names) <= 3:
        which = f"{quoted_list(shown)} would be ignored"
    else:
        which = f"{', '.join(repr(n) for n in shown)} and {len(names) - 3} more would be ignored"
    buster = (f" (a cache-buster may be sent as ?{CACHE_BUSTER}=…, which is ignored)"
              if get else "")
    return (f"{method} {_path(scope)} reads no query parameters: {which} (got "
            f"{short('?' + raw.decode('latin-1'), 60)}); {advice}{buster}")


def _path(scope: Scope) -> str:
    """The request's path for a message, cut (a game id may be any length)."""
    path = str(scope.get("path", ""))
    return path if len(path) <= 100 else path[:97] + "..."


async def _disconnected(receive: Receive) -> None:
    """Returns once the client has disconnected (the request's body already read)."""
    while (await receive())["type"] != "http.disconnect":
        pass


class FrontDoor:
    """Outermost ASGI layer.

    * ``POST`` to an operation path is answered here directly (check the content type, read the
      body within the byte budget, coalesce, send JSON), without the framework's routing stack;
      the FastAPI routes stay registered for the OpenAPI document and other methods;
    * at most :data:`~.limits.MAX_IN_FLIGHT` operation requests are held at once; more answer
      429 at once, without reading their bodies;
    * an answer given before the body was fully read closes the connection;
    * ``HEAD`` is answered as ``GET`` without the body (RFC 9110 9.3.2: uptime monitors and
      link checkers send it; the framework's routes list GET only and answered 405);
    * anything else goes to FastAPI;
    * any exception that escapes becomes a 400 ``{"error"}`` answer with a request id (never a
      5xx; the details go to the log).
    """

    def __init__(self, app: ASGIApp, service: Service | None = None,
                 runners: dict[str, Coalescer] | None = None) -> None:
        self.app = app
        self.service = service
        self.runners = runners or {}

    @staticmethod
    async def _send_json(send: Send, status: int, payload: Any, close: bool) -> None:
        body = encode(payload)
        headers = [(b"content-type", b"application/json"),
                   (b"content-length", str(len(body)).encode())]
        if close:  # the rest of an unread body is not waited for
            headers.append((b"connection", b"close"))
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False
        head = scope["method"] == "HEAD"
        if head:
            scope = {**scope, "method": "GET"}

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            elif head and message["type"] == "http.response.body":
                message = {**message, "body": b""}  # the GET's headers, length included
            await send(message)

        try:
            runner = self.runners.get(scope["path"]) if scope["method"] == "POST" else None
            if runner is not None and self.service is not None:
                if scope.get("query_string"):  # `?rules=remi` was ignored: answered as rummy101
                    await self._send_json(guarded_send, 422, {"error": query_refused(scope)},
                                          True)
                    return
                try:
                    status, payload, close = await self.service.handle(scope, receive, runner)
                except asyncio.CancelledError:  # the server's shutdown grace is over
                    status, close = 429, True
                    payload = {"error": "the service shut down before this request was "
                                        "answered; retry later"}
                await self._send_json(guarded_send, status, payload, close)
                return
            await self.app(scope, receive, guarded_send)
        except Exception as exc:
            if started:
                raise
            await self._send_json(send, 400, internal_error(exc, str(scope.get("path"))[:100]),
                                  True)

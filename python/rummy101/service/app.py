"""The HTTP service (FastAPI): thin routes over :mod:`rummy101.service.api`.

Every answer is JSON. Bad input answers 4xx with ``{"error": "..."}`` naming the problem
(400 unreadable body, 413 body too large, 422 a well-formed body the rules reject, 404/405 unknown
path or method); no request body makes it answer 5xx (a catch-all turns any unexpected failure
into a 400 and logs it). Solves run in worker threads, bounded by a capacity limiter, so the event
loop stays free; the native batch solver releases the GIL.

>>> from fastapi.testclient import TestClient
>>> client = TestClient(create_app())
>>> client.get("/health").json()
{'status': 'ok'}
>>> r = client.post("/v1/solve/opening", json={"rules": "rummy101", "rack": "R1 X5"})
>>> r.status_code, r.json()["error"][:27]
(422, "field 'rack': token 2 of 2 ")
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

import anyio
import anyio.to_thread
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .. import __version__, backend_name
from ..errors import RummyError
from . import api
from .limits import MAX_BODY_BYTES, MAX_PENDING
from .openapi import install_openapi
from .validate import BadRequest, loads

__all__ = ["create_app", "app", "app_from_env", "FrontDoor", "Coalescer"]

log = logging.getLogger("rummy101.service")

BIG_BODY = 64 * 1024  # bytes: bodies larger than this are parsed in a worker thread

Operation = Callable[[Any], Any]


class _HttpError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def _json_response(payload: Any, status: int = 200) -> Response:
    return Response(content=_encode(payload), status_code=status, media_type="application/json")


def _encoded(many: Callable[[list[Any]], list[Any]]) -> Callable[[list[Any]], list[Any]]:
    """``many`` whose answers are JSON-encoded in the worker thread, not on the event loop."""
    def run(bodies: list[Any]) -> list[Any]:
        return [r if isinstance(r, BaseException) else _encode(r) for r in many(bodies)]
    return run


def _error(status: int, message: str) -> Response:
    return _json_response({"error": message}, status)


def _check_length(length: bytes | str | None) -> None:
    if length is None:
        return
    try:
        declared = int(length)
    except ValueError:
        raise _HttpError(400, f"Content-Length {str(length)[:40]!r} is not a number") from None
    if declared > MAX_BODY_BYTES:
        raise _HttpError(413, f"request body is {declared} bytes; at most {MAX_BODY_BYTES} "
                              f"bytes are accepted")


def _too_large() -> _HttpError:
    return _HttpError(413, f"request body is larger than {MAX_BODY_BYTES} bytes, the most accepted")


async def _read_body(request: Request) -> bytes:
    _check_length(request.headers.get("content-length"))
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            raise _too_large()
        chunks.append(chunk)
    return b"".join(chunks)


async def _receive_body(scope: Scope, receive: Receive) -> bytes:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            _check_length(value)
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise _HttpError(400, "the client disconnected before sending the whole body")
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            raise _too_large()
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


class Busy(Exception):
    """Too many requests are waiting for a solver thread."""


class Coalescer:
    """Runs one operation for many concurrent requests in few worker-thread calls.

    Requests wait in a queue; at most ``max_running`` drains run at once, each taking up to
    ``max_items`` waiting bodies to a worker thread (bounded by the service's limiter) and
    calling ``many(bodies)``, which answers each body or gives its exception. Concurrent single
    opening solves thus share batch-solver calls (which release the GIL) and one thread hop, and
    the event loop never runs a solve itself.
    """

    def __init__(self, many: Callable[[list[Any]], list[Any]], service: "Service",
                 max_items: int, max_running: int, max_pending: int,
                 weigh: Callable[[Any], int] = lambda body: 1) -> None:
        self.many = _encoded(many)
        self.weigh = weigh
        self.service = service
        self.max_items = max_items
        self.max_running = max_running
        self.max_pending = max_pending
        self.pending: deque[tuple[Any, asyncio.Future[Any]]] = deque()
        self.running = 0
        self.tasks: set[asyncio.Task[None]] = set()

    async def submit(self, body: Any) -> Any:
        if len(self.pending) >= self.max_pending:
            raise Busy(f"the service is busy ({len(self.pending)} requests waiting); retry later")
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[Any] = loop.create_future()
        self.pending.append((body, fut))
        if self.running < self.max_running:
            self.running += 1
            task = loop.create_task(self._drain())
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)
        result = await fut
        if isinstance(result, BaseException):
            raise result
        return result

    async def _drain(self) -> None:
        try:
            while self.pending:
                batch = [self.pending.popleft()]  # at least one, then up to max_items in weight
                load = self.weigh(batch[0][0])
                while self.pending and load + self.weigh(self.pending[0][0]) <= self.max_items:
                    load += self.weigh(self.pending[0][0])
                    batch.append(self.pending.popleft())
                try:
                    results = await anyio.to_thread.run_sync(
                        self.many, [b for b, _ in batch], limiter=self.service.limiter)
                except Exception as exc:  # noqa: BLE001 - handed to every waiting request
                    results = [exc] * len(batch)
                if len(results) != len(batch):
                    wrong = RuntimeError("the operation gave a wrong number of answers")
                    results = [wrong] * len(batch)
                for (_, fut), result in zip(batch, results, strict=True):
                    if not fut.done():
                        fut.set_result(result)
        finally:
            self.running -= 1


def _one(body: Any) -> int:
    return 1


def _opening_weight(body: Any) -> int:
    """Racks in an opening request: a batch is worth its size, so that big batches are not
    queued behind each other in one thread call."""
    if isinstance(body, list):
        return max(1, len(body))
    if isinstance(body, dict) and isinstance(body.get("racks"), list):
        return max(1, len(body["racks"]))
    return 1


def _each(op: Operation) -> Callable[[list[Any]], list[Any]]:
    def many(bodies: list[Any]) -> list[Any]:
        out: list[Any] = []
        for body in bodies:
            try:
                out.append(op(body))
            except Exception as exc:  # noqa: BLE001 - returned to that request
                out.append(exc)
        return out
    return many


class Service:
    """Holds the thread limiter and one :class:`Coalescer` per operation; one per app."""

    def __init__(self, threads: int) -> None:
        self.threads = threads
        self._limiter: anyio.CapacityLimiter | None = None

    @property
    def limiter(self) -> anyio.CapacityLimiter:
        if self._limiter is None:
            self._limiter = anyio.CapacityLimiter(self.threads)
        return self._limiter

    def coalescer(self, many: Callable[[list[Any]], list[Any]], max_items: int,
                  weigh: Callable[[Any], int] = lambda body: 1) -> Coalescer:
        return Coalescer(many, self, max_items=max_items, max_running=self.threads,
                         max_pending=MAX_PENDING, weigh=weigh)

    async def process(self, read: Callable[[], Awaitable[bytes]], runner: Coalescer,
                      path: str) -> tuple[int, Any]:
        """Read, parse and answer one request: (status, JSON payload)."""
        try:
            raw = await read()
            try:
                if len(raw) > BIG_BODY:  # a big body is parsed off the event loop
                    body = await anyio.to_thread.run_sync(loads, raw, limiter=self.limiter)
                else:
                    body = loads(raw)
            except BadRequest as exc:
                return 400, {"error": str(exc)}
            return 200, await runner.submit(body)
        except _HttpError as exc:
            return exc.status, {"error": exc.message}
        except Busy as exc:
            return 429, {"error": str(exc)}
        except RummyError as exc:
            return 422, {"error": str(exc)}
        except (ValueError, TypeError, KeyError, IndexError, OverflowError, RecursionError,
                MemoryError, ArithmeticError, AttributeError, NotImplementedError,
                RuntimeError) as exc:
            log.exception("unexpected failure on %s", path)
            return 400, {"error": f"could not answer this request: {type(exc).__name__}: "
                                  f"{str(exc)[:200]}"}

    async def answer(self, request: Request, runner: Coalescer) -> Response:
        status, payload = await self.process(lambda: _read_body(request), runner,
                                             request.url.path)
        return _json_response(payload, status)


def _encode(payload: Any) -> bytes:
    if isinstance(payload, bytes):
        return payload  # already encoded in a worker thread
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


class FrontDoor:
    """Outermost ASGI layer.

    * ``POST`` to an operation path is answered here directly (read the body, coalesce, send
      JSON), without the framework's routing stack: the same :meth:`Service.process` as the
      FastAPI routes, which stay registered for the OpenAPI document and other methods;
    * anything else goes to FastAPI;
    * any exception that escapes becomes a 400 ``{"error"}`` answer (never a 5xx).
    """

    def __init__(self, app: ASGIApp, service: "Service | None" = None,
                 runners: "dict[str, Coalescer] | None" = None) -> None:
        self.app = app
        self.service = service
        self.runners = runners or {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            runner = self.runners.get(scope["path"]) if scope["method"] == "POST" else None
            if runner is not None and self.service is not None:
                status, payload = await self.service.process(
                    lambda: _receive_body(scope, receive), runner, scope["path"])
                body = _encode(payload)
                await guarded_send({"type": "http.response.start", "status": status,
                                    "headers": [(b"content-type", b"application/json"),
                                                (b"content-length", str(len(body)).encode())]})
                await send({"type": "http.response.body", "body": body})
                return
            await self.app(scope, receive, guarded_send)
        except Exception as exc:  # noqa: BLE001 - the service must not answer 5xx
            log.exception("unhandled failure on %s", scope.get("path"))
            if started:
                raise
            body = _encode({"error": f"could not answer this request: {type(exc).__name__}"})
            await send({"type": "http.response.start", "status": 400,
                        "headers": [(b"content-type", b"application/json"),
                                    (b"content-length", str(len(body)).encode())]})
            await send({"type": "http.response.body", "body": body})


def create_app(*, threads: int = 4) -> FastAPI:
    """Build the service app. ``threads`` bounds the solves running at once."""
    app = FastAPI(
        title="rummy101",
        version=__version__,
        description=("Exact solvers and turn hints for Rummy 101, Romanian Remi and classic card "
                     "Rummy. Every error answers 4xx with `{\"error\": \"...\"}`."),
        docs_url="/docs",
        redoc_url=None,
    )
    service = Service(threads)
    app.state.service = service

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        status = exc.status_code if 400 <= exc.status_code < 500 else 400
        detail = exc.detail if isinstance(exc.detail, str) else "bad request"
        if exc.status_code == 404:
            detail = f"no endpoint at {request.url.path[:100]!r}; see /openapi.json"
        elif exc.status_code == 405:
            detail = f"method {request.method} is not allowed on {request.url.path[:100]!r}"
        return _error(status, detail)

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> Response:
        return _error(422, f"invalid request: {str(exc.errors())[:300]}")

    @app.exception_handler(RummyError)
    async def rummy_error(request: Request, exc: RummyError) -> Response:
        return _error(422, str(exc))

    def route(path: str, runner: Coalescer) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            return await service.answer(request, runner)
        endpoint.__name__ = path.strip("/").replace("/", "_")
        return endpoint

    @app.get("/health", tags=["service"], summary="Liveness check")
    async def health() -> Response:
        return _json_response({"status": "ok"})

    @app.get("/v1/info", tags=["service"], summary="Version, live backend and limits")
    async def info() -> Response:
        from . import limits
        return _json_response({
            "version": __version__, "backend": backend_name(),
            "limits": {name.lower(): getattr(limits, name) for name in limits.__all__},
        })

    ops: dict[str, tuple[Callable[[list[Any]], list[Any]], int, str]] = {
        "/v1/solve/opening": (api.solve_opening_bodies, 512,
                              "Best opening / first lay-down (single or batch)"),
        "/v1/solve/penalty": (_each(api.penalty), 64, "Lay-down that leaves the least penalty"),
        "/v1/solve/tabla": (_each(api.tabla), 16, "Remi close on the rack (tabla)"),
        "/v1/validate/meld": (_each(api.validate_meld), 64, "Check one meld"),
        "/v1/hint": (_each(api.hint), 2, "Recommended full turn for one seat of a Rummy 101 game"),
    }
    runners: dict[str, Coalescer] = {}
    for path, (many, max_items, summary) in ops.items():
        runners[path] = service.coalescer(many, max_items,
                                          _opening_weight if path == "/v1/solve/opening" else _one)
        app.add_api_route(path, route(path, runners[path]), methods=["POST"],
                          summary=summary, tags=["solve"], name=path.strip("/").replace("/", "_"))
    install_openapi(app)
    app.add_middleware(FrontDoor, service=service, runners=runners)
    return app


app: FastAPI  # built on first access (``uvicorn rummy101.service.app:app``)


def __getattr__(name: str) -> Any:
    if name == "app":
        global app
        app = create_app()
        return app
    raise AttributeError(name)


def app_from_env() -> FastAPI:
    """App factory for ``uvicorn --factory`` (``rummy101 serve``): threads from
    ``RUMMY101_SERVICE_THREADS`` (default 4)."""
    import os

    raw = os.environ.get("RUMMY101_SERVICE_THREADS", "4")
    try:
        threads = max(1, min(256, int(raw)))
    except ValueError:
        threads = 4
    return create_app(threads=threads)

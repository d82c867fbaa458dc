"""The HTTP service (FastAPI): thin routes over :mod:`rummy101.service.api`.

Every answer is JSON. Bad input answers 4xx with ``{"error": "..."}`` naming the problem
(400 unreadable body, 408 body too slow, 413 body too large, 415 not ``application/json``, 422 a
well-formed body the rules reject, 404/405 unknown path or method, 429 saturated); no request body
makes it answer 5xx (a catch-all turns any unexpected failure into a 400 with a request id, and
logs it). Solves run in worker threads, bounded by a capacity limiter, under a work budget, so the
event loop stays free; the native batch solver releases the GIL.

>>> from fastapi.testclient import TestClient
>>> client = TestClient(create_app())
>>> client.get("/health").json()
{'status': 'ok'}
>>> r = client.post("/v1/solve/opening", json={"rules": "rummy101", "rack": "R1 X5"})
>>> r.status_code, r.json()["error"][:27]
(422, "field 'rack': token 2 of 2 ")
>>> r = client.post("/v1/solve/opening", content=b'{"rack": "R1"}', headers={"content-type": "text/plain"})
>>> r.status_code, r.json()["error"][:52]
(415, 'the body must be JSON sent as Content-Type: applicat')
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import sys
import threading
import uuid
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Any

import anyio
import anyio.to_thread
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .. import __version__, backend_name
from .._cancel import watching
from .._validate import BadRequest, loads
from ..errors import RummyError, WorkBudgetExceeded
from ..solve import work_budget
from . import api
from .limits import (
    MAX_BODY_BYTES,
    MAX_BODY_BYTES_IN_FLIGHT,
    MAX_IN_FLIGHT,
    MAX_PENDING,
    NATIVE_QUICK_NODES,
    NATIVE_QUICK_SECONDS,
    NATIVE_SOLVE_NODES,
    PURE_QUICK_NODES,
    PURE_QUICK_SECONDS,
    PURE_SOLVE_NODES,
)
from .openapi import install_openapi

__all__ = [
    "Coalescer",
    "FrontDoor",
    "app",
    "app_from_env",
    "create_app",
    "request_id",
]

log = logging.getLogger("rummy101.service")

BIG_BODY = 64 * 1024  # bytes: bodies larger than this are parsed in a worker thread

Operation = Callable[[Any], Any]

def request_id() -> str:
    """A short id quoted in a generic error answer and in the log line that has the details."""
    return uuid.uuid4().hex[:12]


class _HttpError(Exception):
    """An answer decided before the body is fully read: the connection is closed after it."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def _internal_error(path: str, exc: BaseException) -> tuple[int, dict[str, str]]:
    rid = request_id()
    log.error("request %s on %s failed", rid, path, exc_info=exc)
    return 400, {"error": f"internal error while answering this request (request id {rid}); "
                          f"the details are in the service log"}


def _check_content_type(value: bytes | str | None) -> None:
    """POST bodies are JSON: ``Content-Type: application/json`` (parameters such as
    ``charset=utf-8`` allowed). Anything else answers 415: a browser may send ``text/plain``
    to any address without asking, but not ``application/json``."""
    text = value.decode("latin-1") if isinstance(value, bytes) else (value or "")
    media = text.split(";", 1)[0].strip().lower()
    if media != "application/json":
        got = f"got {text[:60]!r}" if text else "no Content-Type was sent"
        raise _HttpError(415, f"the body must be JSON sent as Content-Type: application/json "
                              f"({got}); e.g. curl --json '{{...}}' or -H 'Content-Type: "
                              f"application/json'")


class _BodyBudget:
    """Bytes of request bodies held at once in this process: a request reserves its bytes as
    they arrive and gives them back when it is answered; past the limit it answers 429."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.held = 0

    def take(self, n: int) -> None:
        if self.held + n > self.limit:
            raise _HttpError(429, f"the service is holding {self.held} bytes of request bodies, "
                                  f"the most it holds at once is {self.limit}; retry later")
        self.held += n

    def give(self, n: int) -> None:
        self.held -= n


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


async def _receive_body(scope: Scope, receive: Receive, budget: _BodyBudget,
                        held: list[int]) -> bytes:
    """The whole body, after checking its headers; ``held[0]`` counts the bytes reserved in
    ``budget`` (the caller gives them back)."""
    length = None
    content_type = None
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            length = value
        elif name == b"content-type":
            content_type = value
    _check_content_type(content_type)
    _check_length(length)
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
        budget.take(len(chunk))
        held[0] += len(chunk)
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


class Busy(Exception):
    """Too many requests are waiting for a solver thread."""


def quick_nodes() -> int:
    """The work budget of one search in the quick lane, for the live backend."""
    return NATIVE_QUICK_NODES if backend_name() == "native" else PURE_QUICK_NODES


def quick_seconds() -> float:
    """Time a request may spend in the quick lane (checked between core searches)."""
    return NATIVE_QUICK_SECONDS if backend_name() == "native" else PURE_QUICK_SECONDS


def full_nodes() -> int:
    """The work budget of one search in the slow lane (the service's limit)."""
    return NATIVE_SOLVE_NODES if backend_name() == "native" else PURE_SOLVE_NODES


def _budget_answer(exc: WorkBudgetExceeded) -> RummyError:
    name = "native_solve_nodes" if backend_name() == "native" else "pure_solve_nodes"
    return RummyError(f"{exc} (this service allows {full_nodes()} search nodes per solve on the "
                      f"{backend_name()} backend: limit {name} in /v1/info)")


class Coalescer:
    """Runs one operation for many concurrent requests in few worker-thread calls.

    Requests wait in a queue; at most ``max_running`` drains run at once, each taking up to
    ``max_items`` waiting bodies (in weight) to a worker thread (bounded by ``limiter``) and
    calling ``many(bodies)`` under a work budget of ``nodes()`` search nodes per search; it answers
    each body or gives its exception. Concurrent single opening solves thus share batch-solver
    calls (which release the GIL) and one thread hop, and the event loop never runs a solve.

    With ``escalate`` (the slow lane), a body whose answer spent the quick budget, or that
    ``heavy(body)`` says is big work (a batch), is handed to that other coalescer, which has
    its own threads and the full budget.
    """

    def __init__(self, many: Callable[[list[Any]], list[Any]], service: Service,
                 max_items: int, max_running: int, max_pending: int,
                 weigh: Callable[[Any], int] = lambda body: 1,
                 limiter: Callable[[], anyio.CapacityLimiter] | None = None,
                 nodes: Callable[[], int] = full_nodes,
                 escalate: Coalescer | None = None,
                 heavy: Callable[[Any], bool] = lambda body: False) -> None:
        self.many = _encoded(many)
        self.weigh = weigh
        self.service = service
        self.max_items = max_items
        self.max_running = max_running
        self.max_pending = max_pending
        self.limiter = limiter or (lambda: service.limiter)
        self.nodes = nodes
        self.escalate = escalate
        self.heavy = heavy
        self.pending: deque[tuple[Any, asyncio.Future[Any]]] = deque()
        self.running = 0
        self.tasks: set[asyncio.Task[None]] = set()

    async def submit(self, body: Any) -> Any:
        if self.service.stopping.is_set():
            raise Busy("the service is shutting down; retry later")
        if self.escalate is not None and self.heavy(body):
            return await self.escalate.submit(body)
        if len(self.pending) >= self.max_pending:
            raise Busy(f"the service is busy ({len(self.pending)} requests waiting); retry later")
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._enqueue(body, fut)
        result = await fut
        if isinstance(result, WorkBudgetExceeded):
            raise _budget_answer(result)
        if isinstance(result, BaseException):
            raise result
        return result

    def _enqueue(self, body: Any, fut: asyncio.Future[Any]) -> None:
        self.pending.append((body, fut))
        if self.running < self.max_running:
            self.running += 1
            task = asyncio.get_running_loop().create_task(self._drain())
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    def _call(self, bodies: list[Any]) -> list[Any]:
        seconds = None if self.escalate is None else quick_seconds()
        with work_budget(self.nodes()), watching(self.service.stopping, seconds):
            return self.many(bodies)

    async def _drain(self) -> None:
        try:
            while self.pending and not self.service.stopping.is_set():
                batch = [self.pending.popleft()]  # at least one, then up to max_items in weight
                load = self.weigh(batch[0][0])
                while self.pending and load + self.weigh(self.pending[0][0]) <= self.max_items:
                    load += self.weigh(self.pending[0][0])
                    batch.append(self.pending.popleft())
                try:
                    results = await anyio.to_thread.run_sync(
                        self._call, [b for b, _ in batch], limiter=self.limiter())
                except Exception as exc:  # noqa: BLE001 - handed to every waiting request
                    results = [exc] * len(batch)
                if not isinstance(results, list) or len(results) != len(batch):
                    wrong = RuntimeError("the operation gave a wrong number of answers")
                    results = [wrong] * len(batch)
                for (body, fut), result in zip(batch, results, strict=True):
                    if fut.done():
                        continue
                    if (self.escalate is not None and isinstance(result, WorkBudgetExceeded)
                            and not self.service.stopping.is_set()):
                        self.escalate._enqueue(body, fut)  # dense: the slow lane takes it
                    else:
                        fut.set_result(result)
            while self.pending:  # shutting down: nothing more is started
                _, fut = self.pending.popleft()
                if not fut.done():
                    fut.set_result(Busy("the service is shutting down; retry later"))
        finally:
            self.running -= 1


def _one(body: Any) -> int:
    return 1


def _never(body: Any) -> bool:
    return False


def _is_batch(body: Any) -> bool:
    return isinstance(body, list) or (isinstance(body, dict) and "racks" in body)


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

    def __init__(self, threads: int, max_in_flight: int = MAX_IN_FLIGHT,
                 max_body_bytes_in_flight: int = MAX_BODY_BYTES_IN_FLIGHT) -> None:
        native = backend_name() == "native"
        # pure Python solves hold the GIL: more than two quick threads only add contention
        self.threads = threads if native else min(threads, 2)
        # the slow lane: natively half the threads, at most half the cores (the core releases
        # the GIL, so the slow lane must leave cores to the quick one); one on the pure backend,
        # where every running solve also takes the GIL from the quick lane
        cores = os.cpu_count() or 2
        self.slow_threads = max(1, min(threads // 2, cores // 2)) if native else 1
        self.stopping = threading.Event()  # set when the server shuts down
        self._limiter: anyio.CapacityLimiter | None = None
        self._slow_limiter: anyio.CapacityLimiter | None = None
        self.max_in_flight = max_in_flight
        self.in_flight = 0
        self.bodies = _BodyBudget(max_body_bytes_in_flight)

    @property
    def limiter(self) -> anyio.CapacityLimiter:
        """Threads of the quick lane (created in the event loop that uses it)."""
        if self._limiter is None:
            self._limiter = anyio.CapacityLimiter(self.threads)
        return self._limiter

    @property
    def slow_limiter(self) -> anyio.CapacityLimiter:
        """Threads of the slow lane: dense racks and batches."""
        if self._slow_limiter is None:
            self._slow_limiter = anyio.CapacityLimiter(self.slow_threads)
        return self._slow_limiter

    def coalescer(self, many: Callable[[list[Any]], list[Any]], max_items: int,
                  weigh: Callable[[Any], int] = lambda body: 1,
                  heavy: Callable[[Any], bool] = lambda body: False) -> Coalescer:
        """A quick-lane coalescer for ``many`` with its slow-lane twin."""
        slow = Coalescer(many, self, max_items=max_items, max_running=self.slow_threads,
                         max_pending=MAX_PENDING, weigh=weigh,
                         limiter=lambda: self.slow_limiter, nodes=full_nodes)
        return Coalescer(many, self, max_items=max_items, max_running=self.threads,
                         max_pending=MAX_PENDING, weigh=weigh, nodes=quick_nodes,
                         escalate=slow, heavy=heavy)

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
        except Exception as exc:  # noqa: BLE001 - logged; the answer says no more than an id
            return _internal_error(path, exc)

    async def handle(self, scope: Scope, receive: Receive,
                     runner: Coalescer) -> tuple[int, Any, bool]:
        """Answer one operation request: (status, payload, close the connection after it).

        At most ``max_in_flight`` requests are held at once (more answer 429 without reading
        their bodies) and at most ``bodies.limit`` bytes of their bodies."""
        if self.in_flight >= self.max_in_flight:
            return 429, {"error": f"the service holds {self.in_flight} requests, the most it "
                                  f"takes at once; retry later"}, True
        held = [0]
        self.in_flight += 1
        try:
            status, payload = await self.process(
                lambda: _receive_body(scope, receive, self.bodies, held), runner,
                str(scope.get("path"))[:100])
        finally:
            self.in_flight -= 1
            self.bodies.give(held[0])
        return status, payload, status in (408, 413, 415, 429) or (status == 400 and not held[0])


def _encode(payload: Any) -> bytes:
    if isinstance(payload, bytes):
        return payload  # already encoded in a worker thread
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


class FrontDoor:
    """Outermost ASGI layer.

    * ``POST`` to an operation path is answered here directly (check the content type, read the
      body within the byte budget, coalesce, send JSON), without the framework's routing stack;
      the FastAPI routes stay registered for the OpenAPI document and other methods;
    * at most :data:`~.limits.MAX_IN_FLIGHT` operation requests are held at once; more answer
      429 at once, without reading their bodies;
    * an answer given before the body was fully read closes the connection;
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
        body = _encode(payload)
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

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            runner = self.runners.get(scope["path"]) if scope["method"] == "POST" else None
            if runner is not None and self.service is not None:
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
            _, payload = _internal_error(str(scope.get("path"))[:100], exc)
            await self._send_json(send, 400, payload, True)


def create_app(*, threads: int = 4, cors_origins: Sequence[str] = (),
               exit_after_shutdown: float | None = None) -> FastAPI:
    """Build the service app.

    ``threads`` bounds the requests solving at once in the quick lane (the slow lane, for dense
    racks and batches, has half as many). ``cors_origins``: browser origins allowed to call the
    service (none by default: no CORS headers at all). ``exit_after_shutdown``: for a server
    process (``rummy101 serve``), end the process this many seconds after the app's shutdown,
    even if a solve is still running in a worker thread.
    """
    service = Service(threads)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        service.stopping.clear()
        yield
        service.stopping.set()  # queued work is dropped, long loops stop at their next check
        if exit_after_shutdown is not None:
            timer = threading.Timer(exit_after_shutdown, _exit_now)
            timer.daemon = True
            timer.start()

    if backend_name() == "pure" and exit_after_shutdown is not None:
        # a server process on the pure backend: hand the GIL over every millisecond (not 5), so
        # that the event loop answers promptly while solver threads run Python code
        sys.setswitchinterval(0.001)
    app = FastAPI(
        lifespan=lifespan,
        title="rummy101",
        version=__version__,
        description=("Exact solvers and turn hints for Rummy 101, Romanian Remi and classic card "
                     "Rummy. Every error answers 4xx with `{\"error\": \"...\"}`."),
        docs_url="/docs",
        redoc_url=None,
    )
    app.state.service = service

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        status = exc.status_code if 400 <= exc.status_code < 500 else 400
        detail = exc.detail if isinstance(exc.detail, str) else "bad request"
        if exc.status_code == 404:
            detail = f"no endpoint at {request.url.path[:100]!r}; see /openapi.json"
        elif exc.status_code == 405:
            detail = f"method {request.method} is not allowed on {request.url.path[:100]!r}"
        response = _error(status, detail)
        for name, value in (exc.headers or {}).items():
            if name.lower() == "allow":  # RFC 9110: a 405 lists the methods that are allowed
                response.headers["Allow"] = value
        return response

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> Response:
        return _error(422, f"invalid request: {str(exc.errors())[:300]}")

    @app.exception_handler(RummyError)
    async def rummy_error(request: Request, exc: RummyError) -> Response:
        return _error(422, str(exc))

    def route(path: str, runner: Coalescer) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            status, payload, close = await service.handle(request.scope, request.receive, runner)
            return Response(content=_encode(payload), status_code=status,
                            media_type="application/json",
                            headers={"connection": "close"} if close else None)
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
        opening = path == "/v1/solve/opening"
        runners[path] = service.coalescer(many, max_items, _opening_weight if opening else _one,
                                          heavy=_is_batch if opening else _never)
        app.add_api_route(path, route(path, runners[path]), methods=["POST"],
                          summary=summary, tags=["solve"], name=path.strip("/").replace("/", "_"))
    app.state.runners = runners
    install_openapi(app)
    app.add_middleware(FrontDoor, service=service, runners=runners)
    if cors_origins:  # outermost, so that it also answers the operation paths and preflights
        app.add_middleware(CORSMiddleware, allow_origins=list(cors_origins),
                           allow_methods=["GET", "POST"], allow_headers=["Content-Type"])
    return app


def _exit_now() -> None:
    """End the server process: a solve still running in a worker thread must not keep it
    alive (and burning CPU) after the shutdown grace."""
    logging.shutdown()
    os._exit(0)


app: FastAPI  # built on first access (``uvicorn rummy101.service.app:app``)


def __getattr__(name: str) -> Any:
    if name == "app":
        global app
        app = create_app()
        return app
    raise AttributeError(name)


def cors_from_env() -> list[str]:
    """Origins of ``RUMMY101_CORS_ORIGINS`` (comma-separated; empty or unset: no CORS)."""
    raw = os.environ.get("RUMMY101_CORS_ORIGINS", "")
    return [o.strip() for o in raw.split(",") if o.strip()]


def app_from_env() -> FastAPI:
    """App factory for ``uvicorn --factory`` (``rummy101 serve``): threads from
    ``RUMMY101_SERVICE_THREADS`` (default 4), CORS origins from ``RUMMY101_CORS_ORIGINS``
    (default none); the process ends at most 1 s after the app's shutdown."""
    raw = os.environ.get("RUMMY101_SERVICE_THREADS", "4")
    try:
        threads = max(1, min(256, int(raw)))
    except ValueError:
        threads = 4
    return create_app(threads=threads, cors_origins=cors_from_env(), exit_after_shutdown=1.0)

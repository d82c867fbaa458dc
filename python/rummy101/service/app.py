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

import json
import logging
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
from .limits import MAX_BODY_BYTES
from .openapi import install_openapi
from .validate import BadRequest, loads

__all__ = ["create_app", "app"]

log = logging.getLogger("rummy101.service")

Operation = Callable[[Any], Any]


class _HttpError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def _json_response(payload: Any, status: int = 200) -> Response:
    body = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return Response(content=body, status_code=status, media_type="application/json")


def _error(status: int, message: str) -> Response:
    return _json_response({"error": message}, status)


async def _read_body(request: Request) -> bytes:
    length = request.headers.get("content-length")
    if length is not None:
        try:
            declared = int(length)
        except ValueError:
            raise _HttpError(400, f"Content-Length {length[:40]!r} is not a number") from None
        if declared > MAX_BODY_BYTES:
            raise _HttpError(413, f"request body is {declared} bytes; at most {MAX_BODY_BYTES} "
                                  f"bytes are accepted")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            raise _HttpError(413, f"request body is larger than {MAX_BODY_BYTES} bytes, the most "
                                  f"accepted")
        chunks.append(chunk)
    return b"".join(chunks)


class Service:
    """Holds the thread limiter; one per app."""

    def __init__(self, threads: int) -> None:
        self.threads = threads
        self._limiter: anyio.CapacityLimiter | None = None

    @property
    def limiter(self) -> anyio.CapacityLimiter:
        if self._limiter is None:
            self._limiter = anyio.CapacityLimiter(self.threads)
        return self._limiter

    async def answer(self, request: Request, op: Operation) -> Response:
        try:
            raw = await _read_body(request)
            try:
                body = loads(raw)
            except BadRequest as exc:
                return _error(400, str(exc))
            result = await anyio.to_thread.run_sync(op, body, limiter=self.limiter)
            return _json_response(result)
        except _HttpError as exc:
            return _error(exc.status, exc.message)
        except RummyError as exc:
            return _error(422, str(exc))
        except (ValueError, TypeError, KeyError, IndexError, OverflowError, RecursionError,
                MemoryError, ArithmeticError, AttributeError, NotImplementedError) as exc:
            log.exception("unexpected failure on %s", request.url.path)
            return _error(400, f"could not answer this request: {type(exc).__name__}: "
                               f"{str(exc)[:200]}")


class CatchAll:
    """Outermost ASGI guard: any exception that escapes becomes a 400 ``{"error"}`` answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

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
            await self.app(scope, receive, guarded_send)
        except Exception as exc:  # noqa: BLE001 - the service must not answer 5xx
            log.exception("unhandled failure on %s", scope.get("path"))
            if started:
                raise
            body = json.dumps({"error": f"could not answer this request: {type(exc).__name__}"}).encode()
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

    def route(path: str, op: Operation) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            return await service.answer(request, op)
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

    ops: dict[str, tuple[Operation, str]] = {
        "/v1/solve/opening": (api.solve_opening_body, "Best opening / first lay-down (single or batch)"),
        "/v1/solve/penalty": (api.penalty, "Lay-down that leaves the least penalty"),
        "/v1/solve/tabla": (api.tabla, "Remi close on the rack (tabla)"),
        "/v1/validate/meld": (api.validate_meld, "Check one meld"),
        "/v1/hint": (api.hint, "Recommended full turn for one seat of a Rummy 101 game"),
    }
    for path, (op, summary) in ops.items():
        app.add_api_route(path, route(path, op), methods=["POST"], summary=summary,
                          tags=["solve"], name=path.strip("/").replace("/", "_"))
    install_openapi(app)
    app.add_middleware(CatchAll)
    return app


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

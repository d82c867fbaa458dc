"""The HTTP service (FastAPI): its routes, over :mod:`rummy101.service.api`.

Every answer is JSON. Bad input answers 4xx with ``{"error": "..."}`` naming the problem
(400 unreadable body, 408 body too slow, 413 body too large, 415 not ``application/json``, 422 a
well-formed body the rules reject, 404/405 unknown path or method, 429 saturated); no request body
makes it answer 5xx (a catch-all turns any unexpected failure into a 400 with a request id, and
logs it). Solves run in worker threads, bounded by a capacity limiter, under a work budget, so the
event loop stays free; the native batch solver releases the GIL.

The service is built in layers: :mod:`.body` reads a request body, :mod:`.batching` runs the work
of concurrent requests in two lanes of worker threads, :mod:`.asgi` is the front door that answers
operation requests, and this module declares the routes and builds the app.

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

import contextlib
import difflib
import logging
import os
import sys
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from .. import __version__, backend_name
from .._validate import quoted_list, short
from ..errors import RummyError
from . import api
from .answer import encode
from .asgi import FrontDoor, Service, unread_query
from .batching import Coalescer
from .games import LIMITS as GAME_LIMITS
from .openapi import install_openapi
from .web_routes import add_game_routes

__all__ = ["app", "app_from_env", "cors_from_env", "create_app"]

Operation = Callable[[Any], Any]


def _json_response(payload: Any, status: int = 200) -> Response:
    return Response(content=encode(payload), status_code=status, media_type="application/json")


_PLACES = {"path": "path segment", "query": "query parameter", "header": "header",
           "cookie": "cookie", "body": "body field"}


def _validation_message(errors: Sequence[Any]) -> str:
    """FastAPI's validation errors (a path segment that is no number…) in words: which value
    is wrong, what it was, what it should be; not the repr of pydantic's error list.

    >>> print(_validation_message([{"loc": ("path", "turn"), "input": "1e3",
    ...                             "msg": "Input should be a valid integer"}]))
    path segment 'turn' is "1e3": it should be a valid integer
    """
    parts = []
    for e in list(errors)[:3]:
        loc = [str(x) for x in e.get("loc", ())] or ["request"]
        where = _PLACES.get(loc[0], loc[0])
        name = ".".join(loc[1:])
        msg = str(e.get("msg", "is not valid"))
        msg = "it s" + msg[len("Input s"):] if msg.startswith("Input should") else msg
        parts.append(f"{where} {name!r} is {short(e.get('input'), 40)}: {msg}" if name
                     else f"{where}: {msg}")
    return "; ".join(parts) or "invalid request"


def _endpoint_meant(path: str, app: FastAPI) -> str:
    """A pointer to the endpoint an unknown path was meant as (``/v1/opening`` ->
    ``/v1/solve/opening``), or ''."""
    if len(path) > 100:
        return ""
    known = sorted({p for r in app.routes if isinstance(p := getattr(r, "path", None), str)
                    and (p.startswith("/v1/") or p == "/health") and "{" not in p})
    last = path.rstrip("/").rsplit("/", 1)[-1]
    under = [p for p in known if p.startswith(path.rstrip("/") + "/")]  # `/v1/solve`
    meant = under if len(under) <= 4 else []
    if not meant and not under:
        meant = [p for p in known if last and p.rsplit("/", 1)[-1] == last]
    if not meant and not under:
        meant = difflib.get_close_matches(path, known, n=1, cutoff=0.7)
    if not meant or meant[0] == path:
        return ""
    return f"; did you mean {quoted_list(meant, 'or')}?"


def _error(status: int, message: str) -> Response:
    return _json_response({"error": message}, status)


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
        # a path with a trailing slash is an unknown path (404 {"error"}), not a 307 with an
        # empty body to a Location built from the request's own Host header
        redirect_slashes=False,
    )
    app.state.service = service

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        status = exc.status_code if 400 <= exc.status_code < 500 else 400
        detail = exc.detail if isinstance(exc.detail, str) else "bad request"
        if exc.status_code == 404:
            detail = (f"no endpoint at {request.url.path[:100]!r}"
                      f"{_endpoint_meant(request.url.path, app)}; see /openapi.json")
        elif exc.status_code == 405:
            allow = next((v for k, v in (exc.headers or {}).items() if k.lower() == "allow"), "")
            detail = f"method {request.method} is not allowed on {request.url.path[:100]!r}"
            if allow:
                detail += f" (allowed: {allow})"
        response = _error(status, detail)
        for name, value in (exc.headers or {}).items():
            if name.lower() == "allow":  # RFC 9110: a 405 lists the methods that are allowed
                response.headers["Allow"] = value
        return response

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> Response:
        return _error(422, _validation_message(exc.errors()))

    @app.exception_handler(RummyError)
    async def rummy_error(request: Request, exc: RummyError) -> Response:
        return _error(422, str(exc))

    def route(path: str, runner: Coalescer) -> Callable[[Request], Awaitable[Response]]:
        """The route of an operation: its POSTs are answered by the front door, unless the app
        is mounted under a prefix inside another app (the front door then sees another path)."""
        async def endpoint(request: Request) -> Response:
            status, payload, close = await service.handle(request.scope, request.receive, runner)
            return Response(content=encode(payload), status_code=status,
                            media_type="application/json",
                            headers={"connection": "close"} if close else None)
        endpoint.__name__ = path.strip("/").replace("/", "_")
        return endpoint

    @app.get("/health", tags=["service"], summary="Liveness check")
    async def health(request: Request) -> Response:
        refused = unread_query(request.scope, "it answers the same to every request")
        if refused is not None:
            return _error(422, refused)
        return _json_response({"status": "ok"})

    @app.get("/v1/info", tags=["service"], summary="Version, live backend and limits")
    async def info(request: Request) -> Response:
        refused = unread_query(request.scope, "it answers the same to every request: the "
                                              "version, the live backend and every limit")
        if refused is not None:
            return _error(422, refused)
        from . import limits
        return _json_response({
            "version": __version__, "backend": backend_name(),
            "limits": {**{name.lower(): getattr(limits, name) for name in limits.__all__},
                       **GAME_LIMITS},
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
        # the other operations answer their bodies one by one (_each): in the slow lane, one a call
        runners[path] = service.lanes.coalescer(many, max_items, _opening_weight if opening else _one,
                                          heavy=_is_batch if opening else _never,
                                          slow_items=None if opening else 1)
        app.add_api_route(path, route(path, runners[path]), methods=["POST"],
                          summary=summary, tags=["solve"], name=path.strip("/").replace("/", "_"))
    app.state.runners = runners
    app.state.games = add_game_routes(app, service)
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

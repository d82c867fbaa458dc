"""Routes of the web page and its games API (:mod:`.games`), added to the app by
:func:`add_game_routes`.

* ``GET /`` (or ``/index.html``) and ``GET /web/{file}``: the page's static files (:mod:`rummy101.web`), with a
  Content-Security-Policy that lets the page load nothing from elsewhere;
* ``/v1/games…`` and ``/v1/replays…``: JSON, bodies read like the operations' (JSON content type,
  size limits, strict JSON; :mod:`.body`), the work done in the games' own worker threads
  (:data:`~.games.GAME_THREADS`), never on the event loop.

Games and replays belong to the client that started them (:func:`client_of`, its address): the
store caps what one client holds and evicts from the client holding the most (:mod:`.games`).
The game threads are shared fairly between clients (:class:`GameLane`): a freed thread goes to
the waiting client with the fewest requests running, of equals the one served least recently,
not to the request that came first, so that one client sending a request to each of its games
at once cannot make another's click wait behind all of them. At most
:data:`~.games.MAX_GAME_WAITING_PER_CLIENT` requests of one client wait for a thread and
:data:`~.games.MAX_GAME_WAITING` in all, more answer 429, and so does one that waited
:data:`~.games.MAX_GAME_WAIT_SECONDS` (slow bots must not make a click wait minutes).

Errors: 404 unknown game or replay, 422 a refused action or request (the engine's rule-cited
message; a query string on a POST, whose fields are all in the body), 429 the game is busy with another request or too many wait (of the client's, or in
all), 400/413/415 as for every POST of the service.
"""

from __future__ import annotations

import ipaddress
from collections import deque
from collections.abc import Callable, Mapping
from enum import Enum
from typing import Any

import anyio
import anyio.to_thread
from fastapi import FastAPI, Request
from fastapi.responses import Response

from .._cancel import watching
from .._validate import BadRequest, short, type_name
from ..errors import RummyError
from .answer import encode, internal_error
from .asgi import Service, query_refused, unread_query
from .body import HttpError, parse_body, receive_body
from .games import (
    GAME_THREADS,
    MAX_GAME_WAIT_SECONDS,
    MAX_GAME_WAITING,
    MAX_GAME_WAITING_PER_CLIENT,
    GameBusy,
    GameStore,
    NotFound,
    options,
)

__all__ = ["GameLane", "add_game_routes", "client_of"]


def _json(payload: Any, status: int = 200, close: bool = False) -> Response:
    return Response(content=encode(payload), status_code=status, media_type="application/json",
                    headers={"connection": "close"} if close else None)


class _Waiter:
    """One game request waiting for a thread: its client, and the event set when it is given
    one (``granted``: the thread is already counted as its, whether or not it has woken)."""

    __slots__ = ("client", "event", "granted")

    def __init__(self, client: str | None) -> None:
        self.client = client
        self.event = anyio.Event()
        self.granted = False


class GameLane:
    """The worker threads of game requests, shared fairly between clients.

    A request starts at once when a thread is free. Otherwise it waits in its client's queue
    (``None``, no address, is one client), in arrival order. When a thread frees, it goes to the
    waiting client with the fewest requests running; of equals, to the one whose latest request
    started longest ago (a client that has started none since it last had nothing running or
    waiting comes first; several such, in the order they began waiting). So a client that sends
    many requests at once gets one thread after another only while nobody else waits, and a
    person's click waits for the next thread that frees, behind at most one request of each
    client waiting before it with as few running. At most ``max_waiting`` requests wait in all
    and ``max_waiting_per_client`` per client (more answer 429), each at most ``max_wait``
    seconds (then 429).

    Everything here runs on the event loop, without awaits between reading and updating the
    counts; a request that leaves while waiting (its wait ran out, its client disconnected, the
    server stops) leaves its client's queue, or, if a thread had just been given to it, hands
    that thread on. A client with nothing running or waiting leaves no trace."""

    def __init__(self, service: Service, threads: int = GAME_THREADS,
                 max_waiting: int = MAX_GAME_WAITING,
                 max_wait: float = MAX_GAME_WAIT_SECONDS,
                 max_waiting_per_client: int = MAX_GAME_WAITING_PER_CLIENT) -> None:
        self.service = service
        self.threads = threads
        self.max_waiting = max_waiting
        self.max_waiting_per_client = max_waiting_per_client
        self.max_wait = max_wait
        self.free = threads     # threads not given to a request
        self.waiting = 0        # requests in the queues
        #: the requests waiting, per client (one with none is absent), clients in the order
        #: they began waiting
        self.queues: dict[str | None, deque[_Waiter]] = {}
        #: requests given a thread, per client (one with none is absent)
        self.running: dict[str | None, int] = {}
        #: when the latest request of each client running or waiting started (a count of starts)
        self.started: dict[str | None, int] = {}
        self._starts = 0
        self._run: anyio.CapacityLimiter | None = None

    def _give_back(self, client: str | None) -> None:
        """A request of ``client`` is done with its thread: the thread goes to the next."""
        self.free += 1
        left = self.running[client] - 1
        if left:
            self.running[client] = left
        else:
            del self.running[client]
            if client not in self.queues:
                del self.started[client]
        self._dispatch()

    def _turn(self, client: str | None) -> tuple[int, int]:
        """The order in which waiting clients get a thread: the least first."""
        return self.running.get(client, 0), self.started.get(client, 0)

    def _dispatch(self) -> None:
        """Give the free threads to the waiting requests, by the rule of the class."""
        while self.free and self.queues:
            client = min(self.queues, key=self._turn)  # min: the first of equals
            queue = self.queues[client]
            waiter = queue.popleft()
            if not queue:
                del self.queues[client]
            self.waiting -= 1
            self.free -= 1
            self.running[client] = self.running.get(client, 0) + 1
            self._starts += 1
            self.started[client] = self._starts
            waiter.granted = True
            waiter.event.set()

    def _withdraw(self, waiter: _Waiter) -> None:
        """A request that was not given a thread leaves its queue."""
        queue = self.queues[waiter.client]
        queue.remove(waiter)
        self.waiting -= 1
        if not queue:
            del self.queues[waiter.client]
            if waiter.client not in self.running:
                self.started.pop(waiter.client, None)

    def _call(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> tuple[int, Any]:
        with watching(self.service.stopping):
            try:
                return 200, encode(fn(*args))
            except NotFound as exc:
                return 404, {"error": str(exc)}
            except GameBusy as exc:
                return 429, {"error": str(exc)}
            except RummyError as exc:
                return 422, {"error": str(exc)}
            except Exception as exc:  # noqa: BLE001 - logged; the answer quotes an id
                return 400, internal_error(exc, getattr(fn, "__name__", "game"))

    async def run(self, fn: Callable[..., Any], *args: Any, client: str | None) -> Response:
        """``fn(*args)`` in a game thread when ``client``'s turn comes; its answer."""
        if self.free == 0:  # else nobody waits: the request starts at once
            queue = self.queues.get(client)
            if queue is not None and len(queue) >= self.max_waiting_per_client:
                return _json({"error": f"this client has {len(queue)} game requests waiting "
                                       f"for a thread, the most one client may queue; retry "
                                       f"later"}, 429)
            if self.waiting >= self.max_waiting:
                return _json({"error": f"{self.waiting} game requests are waiting, the most "
                                       f"this service queues; retry later"}, 429)
        if self._run is None:  # the threads themselves (created in the loop that uses them)
            self._run = anyio.CapacityLimiter(self.threads)
        waiter = _Waiter(client)
        self.queues.setdefault(client, deque()).append(waiter)
        self.waiting += 1
        self._dispatch()
        if not waiter.granted:
            try:
                with anyio.move_on_after(self.max_wait):
                    await waiter.event.wait()
            except BaseException:  # the caller left (disconnect, server stopping)
                if waiter.granted:  # as its turn came: the thread goes to the next
                    self._give_back(client)
                else:
                    self._withdraw(waiter)
                raise
            if not waiter.granted:  # no thread in time
                self._withdraw(waiter)
                return _json({"error": f"the request waited more than {self.max_wait:g} s for "
                                       f"a game thread (the games share {self.threads}); "
                                       f"retry later"}, 429)
        try:
            status, payload = await anyio.to_thread.run_sync(self._call, fn, args,
                                                             limiter=self._run)
        finally:
            self._give_back(client)
        return _json(payload, status)


def client_of(scope: Mapping[str, Any]) -> str | None:
    """Who starts a game or replay: the client's address as the ASGI scope gives it, an IPv6
    address by its /64 network (one host commonly holds a whole /64, and would otherwise be any
    number of clients); ``None`` when the server gives no address (a Unix socket).

    Behind a reverse proxy the address is the proxy's, the same for every client, unless the
    server replaced it: ``rummy101 serve`` (uvicorn) takes the client's address from
    X-Forwarded-For, but only on connections from 127.0.0.1 and ::1 (uvicorn's
    ``FORWARDED_ALLOW_IPS``). This function reads no header itself."""
    client = scope.get("client")
    host = client[0] if client else None
    if not host or not isinstance(host, str):
        return None
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:  # not an address (a test client's name): taken as it is
        return host[:100]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((int(ip) >> 64 << 64, 64)))
    return str(ip)


async def _read(service: Service, request: Request) -> tuple[Any, Response | None]:
    """The JSON body of a POST (read as the operations read theirs), or the error answer."""
    held = [0]
    try:
        raw = await receive_body(request.scope, request.receive, service.bodies, held)
        return await parse_body(raw, service.lanes.limiter), None
    except HttpError as exc:
        return None, _json({"error": exc.message}, exc.status, close=True)
    except BadRequest as exc:
        return None, _json({"error": str(exc)}, 400)
    finally:
        service.bodies.give(held[0])


def _no_query(request: Request, example: str) -> Response | None:
    """The answer to a game POST with a query string (422, before its body is read, so the
    connection closes), or None. These endpoints read the JSON body only: ``?seed=7`` was
    silently ignored (a game dealt at random), as ``?rules=remi`` once was by the operations
    (:func:`.asgi.query_refused`). A bare ``?`` is no query."""
    if not request.scope.get("query_string"):
        return None
    advice = ("send the empty JSON object {} as the body" if example == "{}" else
              f"give every field in the JSON body, e.g. {example}")
    return _json({"error": query_refused(request.scope, advice)}, 422, close=True)


def unread_query_answer(request: Request, advice: str,
                        known: Callable[[], object] | None = None) -> Response | None:
    """The answer to a JSON ``GET`` or ``DELETE`` with a query parameter it does not read (422
    naming it, :func:`.asgi.unread_query`: ``GET /v1/games/{id}?seat=1`` answered your own
    seat's view), or None (no query, or only the cache-buster ``?_=…`` of a ``GET``).

    ``known`` looks the path's game or replay up (raising :class:`NotFound`): an id that names
    nothing answers its 404 before the query's 422, as an unknown path does, so that a client
    is told first that the thing is gone (fixing the query would only lead to the 404)."""
    message = unread_query(request.scope, advice)
    if message is None:
        return None
    if known is not None:
        try:
            known()
        except NotFound as exc:
            return _json({"error": str(exc)}, 404)
    return _json({"error": message}, 422)


def add_game_routes(app: FastAPI, service: Service) -> GameStore:
    """Add the page and the games API to ``app``; returns the store of games and replays."""
    from ..web import CSP, static_files

    store = GameStore()
    lane = GameLane(service)
    page_headers = {"content-security-policy": CSP, "x-content-type-options": "nosniff",
                    "cache-control": "no-cache", "referrer-policy": "no-referrer"}

    def static(name: str) -> Response:
        found = static_files().get(name)
        if found is None:
            return _json({"error": f"no file {name[:80]!r} in the web page"}, 404)
        data, kind = found
        return Response(content=data, media_type=kind, headers=page_headers)

    # /index.html too: a person (or a bookmark) typing the file's name got a 404
    @app.get("/", include_in_schema=False)
    @app.get("/index.html", include_in_schema=False)
    async def page() -> Response:
        return static("index.html")

    @app.get("/web/{name}", include_in_schema=False)
    async def web_file(name: str) -> Response:
        return static(name)

    tags: list[str | Enum] = ["games"]

    @app.get("/v1/game-options", tags=tags, summary="Variants, options and bots for a new game")
    async def game_options(request: Request) -> Response:
        refused = unread_query_answer(request, "it lists every variant with its options, the "
                                               "bots and the limits; a game's rules, seat and "
                                               "bots go in the JSON body of POST /v1/games")
        if refused is not None:
            return refused
        # no game is involved: a worker thread of its own, not a place in the games' threads
        # behind other clients' bot moves (the first call imports the bots: not on the loop)
        return _json(await anyio.to_thread.run_sync(options))

    @app.post("/v1/games", tags=tags, summary="Start a game against the bots")
    async def create_game(request: Request) -> Response:
        refused = _no_query(request, '{"rules": "remi", "seed": 7}')
        if refused is not None:
            return refused
        body, error = await _read(service, request)
        client = client_of(request.scope)
        return error or await lane.run(store.create, body, client, client=client)

    @app.api_route("/v1/games/{game_id}", methods=["GET", "DELETE"], tags=tags,
                   summary="Your view of a game (GET), or drop it (DELETE)")
    async def game(game_id: str, request: Request) -> Response:
        # one route for both methods, so that a 405 on this path lists both in Allow
        refused = unread_query_answer(request, (
            "the view is always of your own seat, chosen when the game was created (\"seat\" "
            "in the body of POST /v1/games); the other seats' racks are never shown"
            if request.method == "GET" else f"send DELETE /v1/games/{game_id[:40]} bare"),
            lambda: store.game(game_id))
        if refused is not None:
            return refused
        if request.method == "DELETE":
            return await lane.run(store.delete, game_id, client=client_of(request.scope))
        return await lane.run(store.view, game_id, client=client_of(request.scope))

    @app.post("/v1/games/{game_id}/actions", tags=tags,
              summary="Play one action; the bots then move until your turn")
    async def act(game_id: str, request: Request) -> Response:
        refused = _no_query(request, '{"action": "draw"}')
        if refused is not None:
            return refused
        body, error = await _read(service, request)
        return error or await lane.run(store.act, game_id, body,
                                       client=client_of(request.scope))

    @app.get("/v1/games/{game_id}/hint", tags=tags, summary="The recommended turn")
    async def game_hint(game_id: str, request: Request) -> Response:
        refused = unread_query_answer(request, "the hint is for your own seat, at your turn, "
                                               "with 3 alternatives; for another seat or "
                                               "position, or other alternatives, POST /v1/hint "
                                               "with {\"record\": …} or {\"observation\": …}",
                                      lambda: store.game(game_id))
        if refused is not None:
            return refused
        return await lane.run(store.hint, game_id, client=client_of(request.scope))

    @app.post("/v1/games/{game_id}/play-hint", tags=tags,
              summary="Play the recommended turn; the bots then move until your turn")
    async def play_hint(game_id: str, request: Request) -> Response:
        refused = _no_query(request, "{}")
        if refused is not None:
            return refused
        body, error = await _read(service, request)
        if error is None and body not in ({}, None):
            error = _json({"error": f"the body of play-hint must be an empty JSON object {{}}, "
                                    f"got {type_name(body)} {short(body)}"}, 422)
        return error or await lane.run(store.play_hint, game_id,
                                       client=client_of(request.scope))

    @app.get("/v1/games/{game_id}/record", tags=tags, summary="The game record, once the game is over")
    async def game_record(game_id: str, request: Request) -> Response:
        refused = unread_query_answer(request, "the record is the whole game, once it is over",
                                      lambda: store.game(game_id))
        if refused is not None:
            return refused
        return await lane.run(store.record, game_id, client=client_of(request.scope))

    @app.post("/v1/replays", tags=tags, summary="Load a game record to replay and analyse")
    async def load_replay(request: Request) -> Response:
        refused = _no_query(request, '{"record": {...}}')
        if refused is not None:
            return refused
        body, error = await _read(service, request)
        client = client_of(request.scope)
        return error or await lane.run(store.load_replay, body, client, client=client)

    @app.get("/v1/replays/{replay_id}", tags=tags, summary="A replay's turns and outcome")
    async def get_replay(replay_id: str, request: Request) -> Response:
        refused = unread_query_answer(request, f"it answers the whole replay; one turn is GET "
                                               f"/v1/replays/{replay_id[:40]}/turns/{{n}}",
                                      lambda: store.find_replay(replay_id))
        if refused is not None:
            return refused
        return await lane.run(store.replay, replay_id, client=client_of(request.scope))

    @app.get("/v1/replays/{replay_id}/turns/{turn}", tags=tags,
             summary="One turn: the position, the move played, the hint and the verdict")
    async def replay_turn(replay_id: str, turn: int, request: Request) -> Response:
        refused = unread_query_answer(request, "the turn is the path's last segment, seen by the "
                                               "seat that played it (its 'seat'; the other "
                                               "racks are hidden), analysed with the hint's "
                                               "alternatives",
                                      lambda: store.find_replay(replay_id))
        if refused is not None:
            return refused
        return await lane.run(store.replay_turn, replay_id, turn,
                              client=client_of(request.scope))

    return store

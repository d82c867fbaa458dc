"""Batching the work of concurrent requests: two lanes of worker threads and a :class:`Coalescer`
per operation and lane.

Every request is first tried in the quick lane, under a small work budget per search and a short
time limit; one that spends either (a dense rack, a long hint) or that is big work by itself (a
batch) goes to the slow lane, which has fewer threads and the service's full budget, so that dense
racks never hold the threads that ordinary requests need. The event loop never runs a solve.
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

import anyio
import anyio.to_thread

from .. import backend_name
from .._cancel import watching
from ..errors import RummyError, WorkBudgetExceeded
from ..solve import work_budget
from .answer import encode
from .limits import (
    MAX_PENDING,
    MAX_WAIT_SECONDS,
    NATIVE_QUICK_NODES,
    NATIVE_QUICK_SECONDS,
    NATIVE_SOLVE_NODES,
    PURE_QUICK_NODES,
    PURE_QUICK_SECONDS,
    PURE_SOLVE_NODES,
)

__all__ = ["Busy", "ClientGone", "Coalescer", "Lanes", "full_nodes", "quick_nodes", "quick_seconds"]

Many = Callable[[list[Any]], list[Any]]  # answers (or exceptions) for many bodies, in order


class Busy(Exception):
    """Too many requests are waiting for a solver thread."""


class ClientGone(Exception):
    """The client disconnected while its request waited or ran in the slow lane."""


#: returns once the request's client has disconnected (Service.process: its ASGI receive)
Gone = Callable[[], Awaitable[None]]


class _Client:
    """A request's client while the request is queued or running: how to learn that it
    disconnected, and whether it did."""

    __slots__ = ("gone", "left")

    def __init__(self, gone: Gone) -> None:
        self.gone = gone
        self.left = False


def quick_nodes() -> int:
    """The work budget of one search in the quick lane, for the live backend."""
    return NATIVE_QUICK_NODES if backend_name() == "native" else PURE_QUICK_NODES


def quick_seconds() -> float:
    """Time a request may spend in the quick lane (checked between core searches)."""
    return NATIVE_QUICK_SECONDS if backend_name() == "native" else PURE_QUICK_SECONDS


def full_nodes() -> int:
    """The work budget of one search in the slow lane (the service's limit)."""
    return NATIVE_SOLVE_NODES if backend_name() == "native" else PURE_SOLVE_NODES


def _waited_too_long() -> Busy:
    return Busy(f"the request waited more than {MAX_WAIT_SECONDS:g} s for a solver thread (dense "
                f"racks and batches share a few); retry later, or send fewer racks per batch")


def _budget_answer(exc: WorkBudgetExceeded) -> RummyError:
    name = "native_solve_nodes" if backend_name() == "native" else "pure_solve_nodes"
    return RummyError(f"{exc} (this service allows {full_nodes()} search nodes per solve on the "
                      f"{backend_name()} backend: limit {name} in /v1/info)")


def _encoded(many: Many) -> Many:
    """``many`` whose answers are JSON-encoded in the worker thread, not on the event loop."""
    def run(bodies: list[Any]) -> list[Any]:
        return [r if isinstance(r, BaseException) else encode(r) for r in many(bodies)]
    return run


def _watch(fut: asyncio.Future[Any], client: _Client) -> None:
    """Cancel ``fut`` (and mark the client as left) if its client disconnects before it is
    done; one task per request in the slow lane only (the quick lane answers too soon for a
    watch to be worth its cost, ~20 us a request)."""
    watcher = asyncio.ensure_future(client.gone())

    def client_left(task: asyncio.Future[None]) -> None:
        if not task.cancelled() and task.exception() is None and not fut.done():
            client.left = True
            fut.cancel()

    watcher.add_done_callback(client_left)
    fut.add_done_callback(lambda _: watcher.cancel())


def _all_cancelled(futs: list[asyncio.Future[Any]],
                   event: threading.Event) -> Callable[[asyncio.Future[Any]], None]:
    """A done-callback for each of ``futs`` that sets ``event`` once all are cancelled."""
    def done(_: asyncio.Future[Any]) -> None:
        if all(f.cancelled() for f in futs):
            event.set()
    return done


class Lanes:
    """The worker threads of one app: a quick lane and a slow lane, and the event that stops
    their work when the server shuts down."""

    def __init__(self, threads: int) -> None:
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
        self._carrier: anyio.CapacityLimiter | None = None

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

    @property
    def carrier(self) -> anyio.CapacityLimiter:
        """The worker threads that run the lanes' calls: one per thread of both lanes, so that
        a call holding its lane's token never waits here (the lanes' own limiters decide)."""
        if self._carrier is None:
            self._carrier = anyio.CapacityLimiter(self.threads + self.slow_threads)
        return self._carrier

    def coalescer(self, many: Many, max_items: int,
                  weigh: Callable[[Any], int] = lambda body: 1,
                  heavy: Callable[[Any], bool] = lambda body: False,
                  slow_items: int | None = None) -> Coalescer:
        """A quick-lane coalescer for ``many`` with its slow-lane twin; ``slow_items``: the
        twin's ``max_items`` (default the same). An operation that answers its bodies one by one
        gains nothing from sharing a call and gives its twin 1: else the dense requests queued
        while the slow thread was busy all went into its next call, one after another with the
        full budget each, out of reach of the wait limit (40 dense penalty solves sent at once
        to the pure backend: answers after 116 s)."""
        slow = Coalescer(many, self, max_items=slow_items or max_items,
                         max_running=self.slow_threads,
                         max_pending=MAX_PENDING, weigh=weigh,
                         limiter=lambda: self.slow_limiter, nodes=full_nodes)
        return Coalescer(many, self, max_items=max_items, max_running=self.threads,
                         max_pending=MAX_PENDING, weigh=weigh, nodes=quick_nodes,
                         escalate=slow, heavy=heavy)


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

    No request holds a lane for long on behalf of nobody, or waits in it without end: a body
    whose request was cancelled (its client disconnected) is dropped before it runs, and a call
    whose requests have all been cancelled is told to stop (:func:`~rummy101._cancel.check_stop`
    between core searches); a body that has waited more than :data:`~.limits.MAX_WAIT_SECONDS`
    since its request arrived answers :class:`Busy` (429) at that moment, by a timer, even while
    the lane's threads are all still taken; and a batch's time budget counts from that arrival
    (:func:`~rummy101._cancel.waited`). A drain takes a thread of the lane first and only then
    takes bodies off the queue, so that bodies wait for a thread in the queue, where their
    limit holds (the lane's threads are shared by every operation: before, a drain took its
    bodies at once and then waited for the thread without limit, and a body that waited 20 s
    was refused only when a thread came free, after 91 s in one run on the pure backend).
    """

    def __init__(self, many: Many, lanes: Lanes,
                 max_items: int, max_running: int, max_pending: int,
                 weigh: Callable[[Any], int] = lambda body: 1,
                 limiter: Callable[[], anyio.CapacityLimiter] | None = None,
                 nodes: Callable[[], int] = full_nodes,
                 escalate: Coalescer | None = None,
                 heavy: Callable[[Any], bool] = lambda body: False) -> None:
        self.many = _encoded(many)
        self.weigh = weigh
        self.lanes = lanes
        self.max_items = max_items
        self.max_running = max_running
        self.max_pending = max_pending
        self.limiter = limiter or (lambda: lanes.limiter)
        self.nodes = nodes
        self.escalate = escalate
        self.heavy = heavy
        # (body, its request's future, when the request arrived: time.monotonic())
        self.pending: deque[tuple[Any, asyncio.Future[Any], float, _Client | None]] = deque()
        self.running = 0
        self.tasks: set[asyncio.Task[None]] = set()
        # the timer of each queued body's wait limit (cancelled when the body is taken to run)
        self.timers: dict[asyncio.Future[Any], asyncio.TimerHandle] = {}

    async def submit(self, body: Any, gone: Gone | None = None) -> Any:
        """The answer to ``body``. ``gone`` (returns once the client has disconnected) is
        watched while the body is in the slow lane: a disconnect there cancels the request
        (:class:`ClientGone`), and its work with it."""
        if self.lanes.stopping.is_set():
            raise Busy("the service is shutting down; retry later")
        if self.escalate is not None and self.heavy(body):
            return await self.escalate.submit(body, gone)
        if len(self.pending) >= self.max_pending:
            raise Busy(f"the service is busy ({len(self.pending)} requests waiting); retry later")
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        client = None if gone is None else _Client(gone)
        self._enqueue(body, fut, time.monotonic(), client)
        try:
            result = await fut  # (a cancelled request cancels fut: _drain then drops the body)
        except asyncio.CancelledError:
            if client is not None and client.left:
                raise ClientGone("the client closed the connection before the answer") from None
            raise
        if isinstance(result, WorkBudgetExceeded):
            raise _budget_answer(result)
        if isinstance(result, BaseException):
            raise result
        return result

    def _enqueue(self, body: Any, fut: asyncio.Future[Any], arrived: float,
                 client: _Client | None) -> None:
        self.pending.append((body, fut, arrived, client))
        loop = asyncio.get_running_loop()
        self.timers[fut] = loop.call_later(max(0.0, arrived + MAX_WAIT_SECONDS - time.monotonic()),
                                           self._expire, fut)
        if self.escalate is None and client is not None:  # the slow lane watches its clients
            _watch(fut, client)
        if self.running < self.max_running:
            self.running += 1
            task = asyncio.get_running_loop().create_task(self._drain())
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    def _call(self, bodies: list[Any], abandoned: threading.Event, arrived: float) -> list[Any]:
        seconds = None if self.escalate is None else quick_seconds()
        with (work_budget(self.nodes()),
              watching(self.lanes.stopping, seconds, abandoned=abandoned, arrived=arrived)):
            return self.many(bodies)

    def _expire(self, fut: asyncio.Future[Any]) -> None:
        """The wait limit of a queued body ran out: its request answers Busy now."""
        self.timers.pop(fut, None)
        if not fut.done():
            fut.set_result(_waited_too_long())

    def _taken(self, fut: asyncio.Future[Any]) -> None:
        timer = self.timers.pop(fut, None)
        if timer is not None:
            timer.cancel()

    def _next(self) -> tuple[Any, asyncio.Future[Any], float, _Client | None] | None:
        """The next body to run, past those whose requests are gone or waited too long."""
        while self.pending:
            entry = self.pending.popleft()
            _, fut, arrived, _ = entry
            self._taken(fut)
            if fut.done():  # cancelled (its client disconnected) or waited too long (_expire)
                continue
            if time.monotonic() - arrived > MAX_WAIT_SECONDS:
                fut.set_result(_waited_too_long())
                continue
            return entry
        return None

    async def _drain(self) -> None:
        try:
            while self.pending and not self.lanes.stopping.is_set():
                async with self.limiter():  # a thread first: the bodies wait in the queue
                    first = self._next()  # at least one, then up to max_items in weight
                    if first is None or self.lanes.stopping.is_set():
                        if first is not None:
                            self.pending.appendleft(first)  # answered below: shutting down
                        break
                    batch = [first]
                    load = self.weigh(first[0])
                    while self.pending and load + self.weigh(self.pending[0][0]) <= self.max_items:
                        entry = self._next()
                        if entry is None:
                            break
                        load += self.weigh(entry[0])
                        batch.append(entry)
                    # every request of the call cancelled: the work stops at its next check
                    abandoned = threading.Event()
                    gone = _all_cancelled([f for _, f, _, _ in batch], abandoned)
                    for _, fut, _, _ in batch:
                        fut.add_done_callback(gone)
                    try:
                        results = await anyio.to_thread.run_sync(
                            self._call, [b for b, _, _, _ in batch], abandoned,
                            min(a for _, _, a, _ in batch), limiter=self.lanes.carrier)
                    except Exception as exc:  # noqa: BLE001 - handed to every waiting request
                        results = [exc] * len(batch)
                for _, fut, _, _ in batch:
                    fut.remove_done_callback(gone)
                if not isinstance(results, list) or len(results) != len(batch):
                    wrong = RuntimeError("the operation gave a wrong number of answers")
                    results = [wrong] * len(batch)
                for (body, fut, arrived, client), result in zip(batch, results, strict=True):
                    if fut.done():
                        continue
                    if (self.escalate is not None and isinstance(result, WorkBudgetExceeded)
                            and not self.lanes.stopping.is_set()):
                        self.escalate._enqueue(body, fut, arrived, client)  # dense: the slow lane
                    else:
                        fut.set_result(result)
            while self.pending:  # shutting down: nothing more is started
                fut = self.pending.popleft()[1]
                self._taken(fut)
                if not fut.done():
                    fut.set_result(Busy("the service is shutting down; retry later"))
        finally:
            self.running -= 1

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
from collections import deque
from collections.abc import Callable
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
    NATIVE_QUICK_NODES,
    NATIVE_QUICK_SECONDS,
    NATIVE_SOLVE_NODES,
    PURE_QUICK_NODES,
    PURE_QUICK_SECONDS,
    PURE_SOLVE_NODES,
)

__all__ = ["Busy", "Coalescer", "Lanes", "full_nodes", "quick_nodes", "quick_seconds"]

Many = Callable[[list[Any]], list[Any]]  # answers (or exceptions) for many bodies, in order


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


def _encoded(many: Many) -> Many:
    """``many`` whose answers are JSON-encoded in the worker thread, not on the event loop."""
    def run(bodies: list[Any]) -> list[Any]:
        return [r if isinstance(r, BaseException) else encode(r) for r in many(bodies)]
    return run


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

    def coalescer(self, many: Many, max_items: int,
                  weigh: Callable[[Any], int] = lambda body: 1,
                  heavy: Callable[[Any], bool] = lambda body: False) -> Coalescer:
        """A quick-lane coalescer for ``many`` with its slow-lane twin."""
        slow = Coalescer(many, self, max_items=max_items, max_running=self.slow_threads,
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
        self.pending: deque[tuple[Any, asyncio.Future[Any]]] = deque()
        self.running = 0
        self.tasks: set[asyncio.Task[None]] = set()

    async def submit(self, body: Any) -> Any:
        if self.lanes.stopping.is_set():
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
        with work_budget(self.nodes()), watching(self.lanes.stopping, seconds):
            return self.many(bodies)

    async def _drain(self) -> None:
        try:
            while self.pending and not self.lanes.stopping.is_set():
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
                            and not self.lanes.stopping.is_set()):
                        self.escalate._enqueue(body, fut)  # dense: the slow lane takes it
                    else:
                        fut.set_result(result)
            while self.pending:  # shutting down: nothing more is started
                _, fut = self.pending.popleft()
                if not fut.done():
                    fut.set_result(Busy("the service is shutting down; retry later"))
        finally:
            self.running -= 1

"""Stopping long work cooperatively: when the server shuts down, and when a request outstays
its lane.

A worker thread runs a request's operation inside :func:`watching` with the server's stop event
(and, in the quick lane, a time limit); long loops (batch chunks, hint planning) call
:func:`check_stop` between core calls. It raises :class:`ShuttingDown` once the server is going
down, and :class:`~rummy101.errors.WorkBudgetExceeded` once the lane's time is up (the request
then moves to the slow lane). Outside a server nothing ever stops.

>>> import threading
>>> stop = threading.Event()
>>> with watching(stop):
...     before = stop_requested()
...     stop.set()
...     after = stop_requested()
>>> before, after, stop_requested()
(False, True, False)
"""

from __future__ import annotations

import contextlib
import contextvars
import threading
import time
from collections.abc import Iterator

from .errors import RummyError, WorkBudgetExceeded

__all__ = ["ShuttingDown", "check_stop", "stop_requested", "watching"]

_STOP: contextvars.ContextVar[threading.Event | None] = contextvars.ContextVar(
    "rummy101_service_stop", default=None)
_DEADLINE: contextvars.ContextVar[tuple[float, float] | None] = contextvars.ContextVar(
    "rummy101_service_lane_deadline", default=None)


class ShuttingDown(RummyError):
    """The server is shutting down; the request was not finished."""


@contextlib.contextmanager
def watching(event: threading.Event, seconds: float | None = None) -> Iterator[None]:
    """Within the block, :func:`stop_requested` reports ``event``, and :func:`check_stop` ends
    the work after ``seconds`` (None: no limit)."""
    token = _STOP.set(event)
    limit = _DEADLINE.set(None if seconds is None else (time.monotonic() + seconds, seconds))
    try:
        yield
    finally:
        _DEADLINE.reset(limit)
        _STOP.reset(token)


def stop_requested() -> bool:
    event = _STOP.get()
    return event is not None and event.is_set()


def check_stop() -> None:
    """Raise :class:`ShuttingDown` once the server is going down, and
    :class:`~rummy101.errors.WorkBudgetExceeded` once the block's time is up."""
    if stop_requested():
        raise ShuttingDown("the service is shutting down; this request was not finished, retry "
                           "later")
    deadline = _DEADLINE.get()
    if deadline is not None and time.monotonic() > deadline[0]:
        raise WorkBudgetExceeded(f"the request needs more than the quick lane's {deadline[1]:g} s")

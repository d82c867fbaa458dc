"""Stopping long work cooperatively: when the server shuts down, when a request outstays its
lane, and when every client of the work has disconnected.

A worker thread runs a request's operation inside :func:`watching` with the server's stop event
(and, in the quick lane, a time limit); long loops (batch chunks, hint planning) call
:func:`check_stop` between core calls. It raises :class:`ShuttingDown` once the server is going
down, :class:`~rummy101.errors.WorkBudgetExceeded` once the lane's time is up (the request
then moves to the slow lane), and :class:`OverTime` once the work's own :func:`time_limit` is
up. Outside a server nothing ever stops.

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

__all__ = ["STOPS", "OverTime", "ShuttingDown", "check_stop", "queued", "stop_requested", "time_limit",
           "waited", "watching"]

_STOP: contextvars.ContextVar[threading.Event | None] = contextvars.ContextVar(
    "rummy101_service_stop", default=None)
_DEADLINE: contextvars.ContextVar[tuple[float, float] | None] = contextvars.ContextVar(
    "rummy101_service_lane_deadline", default=None)
_ABANDONED: contextvars.ContextVar[threading.Event | None] = contextvars.ContextVar(
    "rummy101_service_abandoned", default=None)
_ARRIVED: contextvars.ContextVar[tuple[float, float] | None] = contextvars.ContextVar(
    "rummy101_service_arrived", default=None)  # (arrived, started)
_LIMIT: contextvars.ContextVar[tuple[float, str] | None] = contextvars.ContextVar(
    "rummy101_service_work_limit", default=None)  # (deadline, what to say)


class ShuttingDown(RummyError):
    """The server is shutting down; the request was not finished."""


class OverTime(RummyError):
    """The work outlasted its own time limit (:func:`time_limit`), in whatever lane it ran: an
    answer (422), not a reason to try again in the slow lane."""


#: What :func:`check_stop` (and a spent work budget) raise: no fault of the request, so a reader
#: that names the field a fault is in (a record's replay, a hint's observation) lets them through
STOPS: tuple[type[RummyError], ...] = (WorkBudgetExceeded, OverTime, ShuttingDown)


@contextlib.contextmanager
def watching(event: threading.Event, seconds: float | None = None, *,
             abandoned: threading.Event | None = None,
             arrived: float | None = None) -> Iterator[None]:
    """Within the block, :func:`stop_requested` reports ``event`` (and ``abandoned``: every
    client of the work has gone), :func:`check_stop` ends the work after ``seconds`` (None: no
    limit), and :func:`waited` counts from ``arrived`` (the ``time.monotonic()`` at which the
    request came in; None: from now)."""
    token = _STOP.set(event)
    limit = _DEADLINE.set(None if seconds is None else (time.monotonic() + seconds, seconds))
    gone = _ABANDONED.set(abandoned)
    came = _ARRIVED.set(None if arrived is None else (arrived, time.monotonic()))
    try:
        yield
    finally:
        _ARRIVED.reset(came)
        _ABANDONED.reset(gone)
        _DEADLINE.reset(limit)
        _STOP.reset(token)


def stop_requested() -> bool:
    event, gone = _STOP.get(), _ABANDONED.get()
    return (event is not None and event.is_set()) or (gone is not None and gone.is_set())


def waited() -> float:
    """Seconds since the request being worked on came in (0 outside :func:`watching` or
    without an arrival time): a batch's time budget counts from there, so that time spent
    waiting for a thread is part of it."""
    times = _ARRIVED.get()
    return 0.0 if times is None else max(0.0, time.monotonic() - times[0])


def queued() -> float:
    """Of :func:`waited`, the seconds the request waited before its work started."""
    times = _ARRIVED.get()
    return 0.0 if times is None else max(0.0, times[1] - times[0])


def check_stop() -> None:
    """Raise :class:`ShuttingDown` once the server is going down, and
    :class:`~rummy101.errors.WorkBudgetExceeded` once the block's time is up."""
    gone = _ABANDONED.get()
    if gone is not None and gone.is_set():
        raise ShuttingDown("the client of this request has gone; its work was stopped")
    if stop_requested():
        raise ShuttingDown("the service is shutting down; this request was not finished, retry "
                           "later")
    deadline = _DEADLINE.get()
    if deadline is not None and time.monotonic() > deadline[0]:
        raise WorkBudgetExceeded(f"the request needs more than the quick lane's {deadline[1]:g} s")
    limit = _LIMIT.get()
    if limit is not None and time.monotonic() > limit[0]:
        raise OverTime(limit[1])


@contextlib.contextmanager
def time_limit(seconds: float, message: str) -> Iterator[None]:
    """Within the block, :func:`check_stop` raises :class:`OverTime` (``message``) once
    ``seconds`` have passed: a limit of the work itself (a Remi or classic hint, which replays
    a record and plans with the engine), where the lane's own limits are per search (the slow
    lane's work budget) and not of the whole request. The quick lane's time, shorter, still
    moves the request to the slow lane first."""
    token = _LIMIT.set((time.monotonic() + seconds, message))
    try:
        yield
    finally:
        _LIMIT.reset(token)

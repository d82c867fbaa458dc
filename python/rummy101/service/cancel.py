"""Stopping long work when the server shuts down.

A worker thread runs a request's operation inside :func:`watching` with the server's stop event;
long loops (batch chunks, hint planning) call :func:`stop_requested` between core calls and stop
with :class:`ShuttingDown` once the server is going down. Outside a server nothing ever stops.

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
from collections.abc import Iterator

from ..errors import RummyError

__all__ = ["ShuttingDown", "check_stop", "stop_requested", "watching"]

_STOP: contextvars.ContextVar[threading.Event | None] = contextvars.ContextVar(
    "rummy101_service_stop", default=None)


class ShuttingDown(RummyError):
    """The server is shutting down; the request was not finished."""


@contextlib.contextmanager
def watching(event: threading.Event) -> Iterator[None]:
    """Within the block, :func:`stop_requested` reports ``event``."""
    token = _STOP.set(event)
    try:
        yield
    finally:
        _STOP.reset(token)


def stop_requested() -> bool:
    event = _STOP.get()
    return event is not None and event.is_set()


def check_stop() -> None:
    """Raise :class:`ShuttingDown` once the server is going down."""
    if stop_requested():
        raise ShuttingDown("the service is shutting down; this request was not finished, retry "
                           "later")

"""rummy101 as a service: JSON operations (:mod:`.api`) shared by the CLI and an HTTP app.

The HTTP app needs the optional ``service`` extra (FastAPI + uvicorn); :func:`create_app` says so
clearly when it is missing. :mod:`.api` and :mod:`rummy101._validate` need nothing beyond rummy101.
"""

from __future__ import annotations

from typing import Any

from ..errors import pip_extra

__all__ = ["ServiceUnavailable", "create_app", "require_service_extra"]


class ServiceUnavailable(RuntimeError):
    """The optional ``service`` extra (FastAPI, uvicorn) is not installed."""


def require_service_extra(server: bool = False) -> None:
    """Raise :class:`ServiceUnavailable` (how to install) if FastAPI or uvicorn is missing (and,
    for ``server``, httptools, whose protocol carries the server's read timeouts)."""
    missing = []
    for name in ("fastapi", "uvicorn") + (("httptools",) if server else ()):
        try:
            __import__(name)
        except ImportError:
            missing.append(name)
    if missing:
        raise ServiceUnavailable(
            f"the HTTP service needs {' and '.join(missing)}, which are not installed; install the "
            f"service extra: {pip_extra('service')}")


def create_app(**kwargs: Any) -> Any:
    """The FastAPI app of the service (see :func:`rummy101.service.app.create_app`)."""
    require_service_extra()
    from .app import create_app as _create

    return _create(**kwargs)


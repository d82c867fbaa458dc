"""The error of an environment asked for without the ``rl`` extra installed."""

from __future__ import annotations

from ..errors import pip_extra

__all__ = ["missing_extra"]


def missing_extra(exc: ImportError) -> ModuleNotFoundError:
    """A ModuleNotFoundError that says what to install (``report --plot`` does the same for
    matplotlib), for ``raise missing_extra(exc) from exc``."""
    return ModuleNotFoundError(
        f"the rummy101.rl environments need the optional extra 'rl' (pettingzoo, gymnasium); "
        f"{exc.name or 'a module'} is not installed: {pip_extra('rl')}", name=exc.name)

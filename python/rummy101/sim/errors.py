"""The simulator's own error."""

from __future__ import annotations

from ..errors import RummyError

__all__ = ["SimError"]


class SimError(RummyError):
    """Bad simulation arguments (bot names, game or worker counts, output file)."""

"""The phases of a turn (shared by every engine)."""

from __future__ import annotations

import enum

__all__ = ["Phase"]


class Phase(str, enum.Enum):
    """Where the current turn stands: ``take`` (draw / take / button, R101-3), ``play`` (lay,
    add, retrieve, open, reset, discard) or ``over`` (the match is finished).

    >>> Phase("take") is Phase.TAKE
    True
    """

    TAKE = "take"
    PLAY = "play"
    OVER = "over"

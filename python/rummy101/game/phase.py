"""The phases of a turn (shared by every engine)."""

from __future__ import annotations

import enum

__all__ = ["Phase"]


class Phase(str, enum.Enum):
    """Where the current turn stands: ``take`` (draw / take / button, R101-3), ``play`` (lay,
    add, retrieve, open, reset, discard), ``exchange`` (before play: Remi's exchange of doubles,
    RO-3) or ``over`` (the match is finished). An engine uses the phases its rules have.

    >>> Phase("take") is Phase.TAKE
    True
    """

    TAKE = "take"
    PLAY = "play"
    EXCHANGE = "exchange"
    OVER = "over"

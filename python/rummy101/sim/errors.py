"""The simulator's own error."""

from __future__ import annotations

from ..errors import RummyError

__all__ = ["GameFailed", "SimError"]


class SimError(RummyError):
    """Bad simulation arguments (bot names, game or worker counts, output file)."""


class GameFailed(SimError, RuntimeError):
    """A game of a simulation failed (an illegal bot action, a loop, a bot's exception); the
    message names the game index, seeds, step, seat and bot, and how to replay the game."""

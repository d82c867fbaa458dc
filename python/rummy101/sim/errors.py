"""The simulator's own error."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import RummyError

if TYPE_CHECKING:
    from .stats import SimResult

__all__ = ["GameFailed", "SimError", "SimInterrupted"]


class SimError(RummyError):
    """Bad simulation arguments (bot names, game or worker counts, output file)."""


class GameFailed(SimError, RuntimeError):
    """A game of a simulation failed (an illegal bot action, a loop, a bot's exception); the
    message names the game index, seeds, step, seat and bot, and how to replay the game."""


class SimInterrupted(KeyboardInterrupt):
    """Ctrl-C (``KeyboardInterrupt``) during :func:`~rummy101.sim.simulate`, keeping what was
    done: ``partial`` is the :class:`~rummy101.sim.SimResult` of the games that had finished
    from game 0 on without a gap (the same games, record for record, as in any run of that
    seed; ``None`` when none had), of the ``games`` asked for. With ``keep_records=False`` its
    stats cover those games and its ``records`` hold only those ``on_records`` had not taken."""

    def __init__(self, partial: SimResult | None, games: int) -> None:
        done = partial.games if partial is not None else 0
        super().__init__(f"simulation interrupted after {done:,} of {games:,} games")
        self.partial = partial
        self.games = games

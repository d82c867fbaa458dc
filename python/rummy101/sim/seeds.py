"""The seeds of a simulation: every game and every bot gets one derived from the run's seed.

Everything a game does is a pure function of ``(rules, bots, seed, game index)``: the deal uses
:func:`game_seed` ``(seed, index)`` and the seat ``s`` bot's ``random.Random`` is seeded with
:func:`bot_seed` ``(seed, index, s)``, so results do not depend on how games are spread over
workers.

>>> game_seed(7, 0), game_seed(7, 1) != game_seed(7, 0)
(2564258699000977781, True)
"""

from __future__ import annotations

from hashlib import sha256

__all__ = ["bot_seed", "game_seed"]


def _digest63(text: str) -> int:
    """The first 8 bytes of ``sha256(text)``, big-endian, shifted right by one (below 2**63)."""
    return int.from_bytes(sha256(text.encode()).digest()[:8], "big") >> 1


def _derive(*parts: int | str) -> int:
    """A stable 63-bit integer from ``parts`` (SHA-256, independent of Python's hash seed)."""
    return _digest63(":".join(str(p) for p in parts))


def game_seed(seed: int, index: int) -> int:
    """The deal seed of game ``index`` of a run started with ``seed``.

    Defined as the first 8 bytes (big-endian, shifted right by one to stay below 2**63) of
    ``sha256(f"rummy101-game:{seed}:{index}")``. Stable across Python versions, platforms and
    processes; part of the reproducibility contract of :func:`simulate`.

    >>> game_seed(0, 0) == game_seed(0, 0), game_seed(0, 0) != game_seed(0, 1)
    (True, True)
    """
    return _digest63(f"rummy101-game:{seed!s}:{index!s}")  # _derive's text, one f-string


def bot_seed(seed: int, index: int, seat: int) -> int:
    """The seed of the ``random.Random`` handed to the bot in ``seat`` in game ``index``:
    ``sha256(f"rummy101-bot:{seed}:{index}:{seat}")`` reduced as in :func:`game_seed`."""
    return _digest63(f"rummy101-bot:{seed!s}:{index!s}:{seat!s}")

"""The bot protocol and the registry by name (used by the simulator and the CLI).

How to write a bot, what ``act`` receives and how to lay a solver meld: docs/bots.md (its
examples run as tests)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from ..errors import RummyError

__all__ = ["Bot", "BotError", "BotFactory", "bot_names", "get_bot", "register_bot"]


class BotError(RummyError):
    """An unknown bot name, or a bot asked to act with no legal action."""


class Bot:
    """Base class of bots. Subclasses set :attr:`name` and implement :meth:`act` (docs/bots.md).

    A bot holds its own ``random.Random`` (``self.rng``); with the same seed and the same inputs
    it makes the same choices. It may keep memory between calls (one bot object plays one seat of
    one game).
    """

    name: ClassVar[str] = "bot"

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng if rng is not None else random.Random(0)

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[Any]) -> Any:
        """Return one element of ``legal_actions`` (``state.legal_actions()``: exactly what
        ``apply`` accepts) given the seat's ``observation`` (``state.observation(seat)``; other
        racks and the stock order hidden). Called once per action of a turn."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


BotFactory = Callable[[random.Random], Bot]

_REGISTRY: dict[str, BotFactory] = {}


def register_bot(name: str, factory: BotFactory) -> None:
    """Make a bot available by ``name`` (lower case letters, digits, ``_`` and ``-``)."""
    key = name.strip().lower()
    if not key or not all(c.isalnum() or c in "_-" for c in key):
        raise BotError(f"bot name {name!r} must be letters, digits, '_' or '-'")
    _REGISTRY[key] = factory


def bot_names() -> list[str]:
    """The names :func:`get_bot` accepts, sorted."""
    return sorted(_REGISTRY)


def get_bot(name: str, rng: random.Random | None = None) -> Bot:
    """A new bot of kind ``name`` using ``rng`` (a fresh ``random.Random(0)`` if omitted)."""
    if not isinstance(name, str):
        raise BotError(f"a bot name must be a string, got {type(name).__name__} {name!r}; "
                       f"accepted bots: {', '.join(bot_names())}")
    key = name.strip().lower()
    factory = _REGISTRY.get(key)
    if factory is None:
        raise BotError(f"unknown bot {name!r}; accepted bots: {', '.join(bot_names())}")
    return factory(rng if rng is not None else random.Random(0))


def no_legal_action(bot: Bot, observation: Mapping[str, Any]) -> BotError:
    return BotError(f"{bot.name} bot asked to act with no legal action "
                    f"(seat {observation.get('seat', '?')})")

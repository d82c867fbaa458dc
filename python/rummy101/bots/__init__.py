"""Bots: players that choose an action from what one seat can see.

A bot is made by name from a registry (:func:`get_bot`, :func:`bot_names`) with a seeded
``random.Random``; its :meth:`Bot.act` receives ``state.observation(seat)`` and
``state.legal_actions()`` and returns one of those actions. Bots never see the state itself, so
they cannot peek at hidden tiles. A user's bot is named by ``package.module:BotClass`` or
published under the ``rummy101.bots`` entry-point group (docs/bots.md).

>>> bot_names()
['greedy', 'random', 'search']
>>> import random
>>> get_bot("random", random.Random(1)).name
'random'
>>> get_bot("minimax")
Traceback (most recent call last):
...
rummy101.bots.base.BotError: unknown bot 'minimax'; accepted bots: greedy, random, search, an installed 'rummy101.bots' entry point, or 'package.module:BotClass'
"""

from __future__ import annotations

from . import greedy as _greedy  # noqa: F401  (registers "greedy")
from . import random_bot as _random_bot  # noqa: F401  (registers "random")
from . import search as _search  # noqa: F401  (registers "search")
from .base import Bot, BotError, bot_names, get_bot, register_bot
from .greedy import GreedyBot
from .random_bot import RandomBot
from .search import SearchBot

__all__ = ["Bot", "BotError", "GreedyBot", "RandomBot", "SearchBot", "bot_names", "get_bot",
           "register_bot"]

"""Game engines (docs/DESIGN.md, "Game surface"): :func:`new_game`, :class:`State`,
:class:`Action`, and game records in :mod:`rummy101.game.records`.

>>> from rummy101.game import new_game
>>> s = new_game("rummy101(players=2)", seed=5)
>>> s.apply("discard " + str(s.rack(0)[0]))
>>> s.phase.value, s.current_player
('take', 1)
"""

from __future__ import annotations

from .actions import Action, declare_verb
from .engine import Engine, engine_for, playable_variants
from .phase import Phase
from .playout import random_playout
from .state import State, new_game

__all__ = ["Action", "Engine", "Phase", "State", "declare_verb", "engine_for", "new_game",
           "playable_variants", "random_playout"]

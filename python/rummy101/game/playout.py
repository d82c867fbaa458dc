"""Random playouts on the ordinary rule code (``legal_actions`` + ``apply``), no shortcuts.

>>> import random
>>> from rummy101.game import new_game
>>> s = new_game("rummy101(players=2)", 3)
>>> steps = random_playout(s, random.Random(0))
>>> s.is_terminal and steps > 0
True
"""

from __future__ import annotations

import random

from .state import State

__all__ = ["random_playout"]


def random_playout(state: State, rng: random.Random, *, max_steps: int = 10_000_000) -> int:
    """Play ``state`` to the end of the match choosing uniformly among the legal actions with
    ``rng``; returns the number of actions applied. ``state`` is changed in place."""
    if not isinstance(rng, random.Random):
        raise TypeError(f"rng must be a random.Random, got {type(rng).__name__}")
    # named like rng's check (a str state was "'str' object has no attribute 'legal_actions'")
    if not isinstance(state, State):
        raise TypeError(f"state must be a rummy101 State (rummy101.new_game(...)), got "
                        f"{type(state).__name__}")
    if isinstance(max_steps, bool) or not isinstance(max_steps, int):
        raise TypeError(f"max_steps must be an int, got {type(max_steps).__name__}")
    steps = 0
    legal = state.legal_actions
    apply = state.apply
    choice = rng.choice
    while not state.is_terminal and steps < max_steps:
        apply(choice(legal()))
        steps += 1
    return steps

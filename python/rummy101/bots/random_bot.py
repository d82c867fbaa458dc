"""The ``random`` bot: uniform over the legal actions, weighted so that turns end.

A Rummy turn is built step by step (lay a meld, add a tile, ... then discard), so a bot that is
uniform over all legal actions may keep a turn going for a long time whenever many non-final
actions are legal. The random bot therefore chooses in two stages:

1. if some legal actions end the turn (a discard, or going out) and others do not, it ends the
   turn with probability :data:`END_TURN_PROBABILITY` (1/2);
2. it then picks uniformly among the actions of the chosen group.

Each step of a turn thus ends it with probability 1/2, so a turn lasts 2 steps on average before
the discard, and a round always ends (by a finish or by the stock running out). When only one
group is legal (only takes, or only discards) the choice is plainly uniform.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .base import Bot, check_act, register_bot
from .view import ends_turn

__all__ = ["END_TURN_PROBABILITY", "RandomBot"]

END_TURN_PROBABILITY = 0.5


class RandomBot(Bot):
    """Uniform over legal actions, ending each turn with probability 1/2 per step."""

    name = "random"

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[Any]) -> Any:
        check_act(self, observation, legal_actions)
        try:
            enders = [a for a in legal_actions if a.ends_turn]
            verb = True
        except AttributeError:  # not engine actions: read their verb or text form
            enders = [a for a in legal_actions if ends_turn(a)]
            verb = False
        rng = self.rng
        # randrange(n) for n >= 1 is _randbelow(n) (CPython's random.py): the same draw without
        # randrange's argument checks; any other rng keeps randrange.
        below = getattr(rng, "_randbelow", None) or rng.randrange
        if enders and len(enders) < len(legal_actions):  # both groups: choose one, then within
            if rng.random() < END_TURN_PROBABILITY:
                group = enders
            elif verb:  # the others are built only when chosen (same draws, in the same order)
                group = [a for a in legal_actions if not a.ends_turn]
            else:
                group = [a for a in legal_actions if not ends_turn(a)]
            return group[below(len(group))]
        return legal_actions[below(len(legal_actions))]


register_bot(RandomBot.name, RandomBot)

"""The classic card Rummy engine (RULES.md CR-1 .. CR-6, seed 002): the rules in :mod:`.engine`,
the state record in :mod:`.data`, table melds of cards in :mod:`.table`.

It is found by :func:`rummy101.game.engine.engine_for` from the variant name and implements the
:class:`~rummy101.game.engine.Engine` protocol.

>>> from rummy101.game import new_game
>>> s = new_game("classic(players=2)", seed=3)
>>> s.sizes, len(s.stock), [str(a) for a in s.legal_actions()]
([7, 7], 37, ['draw', 'take'])
"""

from __future__ import annotations

from .engine import (
    DEFAULT_MATCH_ROUNDS,
    VERBS,
    apply,
    dealer,
    describe,
    encoder_observation,
    hand_value,
    legal_actions,
    meld_actions,
    new_match,
    observation,
    start_round,
)
from .world import sample_state

__all__ = ["DEFAULT_MATCH_ROUNDS", "VERBS", "apply", "dealer", "describe", "encoder_observation", "hand_value",
           "legal_actions", "meld_actions", "new_match", "observation", "sample_state",
           "start_round"]

"""The Rummy 101 engine (RULES.md R101-1 .. R101-14): the rules in :mod:`.engine`, the state
record in :mod:`.data`, interned actions in :mod:`._precomputed`.

It is found by :func:`rummy101.game.engine.engine_for` from the variant name and implements the
:class:`~rummy101.game.engine.Engine` protocol.
"""

from __future__ import annotations

from .engine import (
    DEFAULT_MATCH_ROUNDS,
    VERBS,
    apply,
    describe,
    encoder_observation,
    legal_actions,
    meld_actions,
    new_match,
    observation,
    start_round,
)
from .world import sample_state

__all__ = ["DEFAULT_MATCH_ROUNDS", "VERBS", "apply", "describe", "encoder_observation", "legal_actions", "meld_actions", "new_match",
           "observation", "sample_state", "start_round"]

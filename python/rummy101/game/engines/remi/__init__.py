"""The Romanian Rummy (Remi) engine (RULES.md RO-1 .. RO-13, seed 004): the rules in
:mod:`.engine`, the state record in :mod:`.data`, table melds on the core's meld logic in
:mod:`.table`, the exact core questions (lay-down with a taken tile, tabla closes, the Atu
finish) in :mod:`.rules_core`.

It is found by :func:`rummy101.game.engine.engine_for` from the variant name and implements the
:class:`~rummy101.game.engine.Engine` protocol.

>>> from rummy101.game import new_game
>>> s = new_game("remi(doubles=off)", seed=1)
>>> s.sizes, len(s.stock), s.observation(0)["atu"] is not None
([15, 14, 14, 14], 48, True)
"""

from __future__ import annotations

from ...actions import declare_verb

# Remi's own verbs (rummy101.game.actions): the doubles exchange (RO-3), breaking the train
# (RO-9.4), taking the Atu (RO-4), declaring and closing tabla (RO-11), laying a whole run.
declare_verb("announce", "tiles", 1)
declare_verb("accept", "tiles", 1)
declare_verb("decline", "bare")
declare_verb("break", "index")
declare_verb("atu", "bare")
declare_verb("tabla", "bare")
declare_verb("close", "bare")
# a whole run that single additions cannot build (two Jolys bridging gaps, RO-6/RO-7)
declare_verb("lay", "tiles", -1)

from .engine import (
    DEFAULT_MATCH_ROUNDS,
    apply,
    encoder_observation,
    format1_omits,
    legal_actions,
    meld_actions,
    new_match,
    observation,
    public_text,
    round_deltas,
    start_round,
)
from .world import sample_state

#: The verbs of a Remi turn.
VERBS = frozenset({"draw", "take", "run", "set", "add", "retrieve", "open", "reset", "discard",
                   "announce", "accept", "decline", "break", "atu", "tabla", "close", "lay"})

__all__ = ["DEFAULT_MATCH_ROUNDS", "VERBS", "apply", "encoder_observation", "format1_omits", "legal_actions",
           "meld_actions", "new_match", "observation", "public_text", "round_deltas",
           "sample_state", "start_round"]

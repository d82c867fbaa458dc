"""Re-export of :mod:`rummy101.bots.native_greedy` (the native greedy round, issue 12), which
moved to the bots layer so that the search bot's rollouts can use it (bots do not import sim).
Patch the functions there, not here: :mod:`rummy101.sim.runner` calls that module."""

from ..bots.native_greedy import (
    ENV_VAR,
    NativeRound,
    at_turn_boundary,
    fast_path_applies,
    finish_round,
    native_available,
    play_round,
    replay_round,
)

__all__ = ["ENV_VAR", "NativeRound", "at_turn_boundary", "fast_path_applies", "finish_round",
           "native_available", "play_round", "replay_round"]

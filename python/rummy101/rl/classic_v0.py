"""Classic card Rummy (RULES.md CR-*), version 0 of its RL encoding: ``env(**options)`` (PettingZoo AEC),
``parallel_env``, ``raw_env`` (the class) and ``gym_env(opponents, seat, **options)``. Rule
options go in ``rules`` (``env(rules="classic(players=2)")``); the other options are those of
:mod:`rummy101.rl`."""

from __future__ import annotations

from ._versioned import make

env, parallel_env, raw_env, gym_env = make("classic")

__all__ = ["env", "gym_env", "parallel_env", "raw_env"]

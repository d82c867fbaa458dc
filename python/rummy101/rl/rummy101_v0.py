"""Rummy 101 (RULES.md R101-*), version 0 of its RL encoding: ``env(**options)`` (PettingZoo AEC),
``parallel_env``, ``raw_env`` (the class) and ``gym_env(opponents, seat, **options)``. Rule
options go in ``rules`` (``env(rules="rummy101(players=2)")``); the other options are those of
:mod:`rummy101.rl`."""

from __future__ import annotations

from ._versioned import make

env, parallel_env, raw_env, gym_env = make("rummy101")

__all__ = ["env", "gym_env", "parallel_env", "raw_env"]

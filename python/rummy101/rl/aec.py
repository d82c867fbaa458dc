"""The PettingZoo AEC environment (``rummy101.rl.env``) and its parallel form.

Agents are ``player_0 .. player_{n-1}`` (the seats); the agent selected is always the seat to
move (a turn is several steps: draw, lay, add, discard...). Needs the ``rl`` extra
(``pip install 'rummy101[rl]'``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..rules import Rules
from ._extra import missing_extra
from .session import NO_GAME_YET, Session, check_options

try:
    from gymnasium import spaces
    from gymnasium.error import ResetNeeded
    from pettingzoo import AECEnv  # type: ignore[import-untyped]
    from pettingzoo.utils import wrappers  # type: ignore[import-untyped]
    from pettingzoo.utils.conversions import (  # type: ignore[import-untyped]
        turn_based_aec_to_parallel_wrapper,
    )
except ImportError as exc:  # the rl extra is not installed
    raise missing_extra(exc) from exc

__all__ = ["RummyAEC", "env", "parallel_env"]


class _SetByReset:
    """A class attribute standing for one that ``reset()`` sets on the environment: before it,
    reading it raised "'RummyAEC' object has no attribute 'agent_selection'" from ``step``,
    ``last``, ``agent_iter`` or a PettingZoo wrapper's code. It raises an AttributeError still
    (``hasattr`` and the wrappers read it as absent) that says to call ``reset()``. A non-data
    descriptor: once set, the instance's value is read without it (a ``__getattr__`` turns off
    CPython's specialised attribute reads of every attribute of the env: bench/ab_rl.py, 4
    passes, load 9-10, read the env steps/s of the descriptors 1.04x those of a __getattr__
    for classic, 1.02x rummy101, 1.01x Remi, and 1.02x, 1.01x, 1.03x those before either)."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, obj: object, owner: type | None = None) -> Any:
        if obj is None:
            return self
        raise AttributeError(f"{self.name} is set by reset(): call reset() first (no match is "
                             f"dealt yet)")


def _reset_first(call: str) -> ResetNeeded:
    """The error of a call before the first ``reset()`` (Gymnasium's, as ``gym_env``'s step
    raises it; ``env()``'s PettingZoo wrapper raises its own AssertionError first)."""
    return ResetNeeded(f"call reset() before {call}: no match is dealt yet (reset(seed=...) "
                       f"deals a reproducible one)")


def _episode_over(call: str) -> ResetNeeded:
    return ResetNeeded(f"{call}: the episode is over and every agent has stepped out (its "
                       f"step(None) done); call reset() for a new one")


class RummyAEC(AECEnv):  # type: ignore[misc]
    """A match as a PettingZoo AEC environment (options: :mod:`rummy101.rl`)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "name": "rummy101_v0",  # noqa: RUF012
                                "is_parallelizable": False}
    agents = _SetByReset()
    agent_selection = _SetByReset()
    rewards = _SetByReset()
    _cumulative_rewards = _SetByReset()
    terminations = _SetByReset()
    truncations = _SetByReset()
    infos = _SetByReset()

    def __init__(self, rules: str | Rules = "rummy101", *, render_mode: str | None = None,
                 **options: Any) -> None:
        super().__init__()
        check_options(options, "rummy101.rl.env")
        self.session = Session(rules, **options)
        r = self.session.rules
        self.metadata = dict(self.metadata, name=f"{r.variant}_v0")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, got {render_mode!r}")
        self.render_mode = render_mode
        self.possible_agents = [f"player_{q}" for q in range(r.players)]
        self._seat = {a: q for q, a in enumerate(self.possible_agents)}
        enc = self.session.encoder
        self._obs_space = spaces.Dict({
            "observation": spaces.Box(enc.low, enc.high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(self.session.codec.n,), dtype=np.int8),
        })
        self._act_space = spaces.Discrete(self.session.codec.n)
        self.observation_spaces = dict.fromkeys(self.possible_agents, self._obs_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, self._act_space)
        self._dealt = False  # reset() has been called (the session holds a placeholder game)
        # last() observes through the session itself unless a subclass changes observe
        self._own_observe = type(self).observe is RummyAEC.observe

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_space

    @property
    def codec(self) -> Any:
        """The :class:`~rummy101.rl.actions.ActionCodec` (index <-> action)."""
        return self.session.codec

    @property
    def rules(self) -> Rules:
        """The rule set the env plays (readable before the first ``reset()``, unlike ``game``)."""
        return self.session.rules

    @property
    def game(self) -> Any:
        """The :class:`~rummy101.game.State` being played (full information: for tools).
        Before the first ``reset()`` there is none: Gymnasium's ``ResetNeeded``, as ``step`` and
        ``observe`` raise (it was a placeholder game of seed 0, read as if it were the match);
        the rule set is ``rules``."""
        if not self._dealt:
            raise ResetNeeded(NO_GAME_YET)
        return self.session.state

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.session.new(seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.session.current]
        self._dealt = True

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        seat = self._seat.get(agent) if isinstance(agent, str) else None
        if seat is None:  # (was a bare KeyError)
            raise ValueError(f"unknown agent {agent!r:.40}: the agents are "
                             f"{', '.join(self.possible_agents)}")
        if not self._dealt:  # (was the placeholder game's observation)
            raise _reset_first("observe()")
        return self.session.observe(seat)

    def last(self, observe: bool = True) -> Any:
        # AECEnv.last with its two errors (no call to it: a frame less per step)
        if not self._dealt:
            raise _reset_first("last()")
        agent = self.agent_selection
        if agent not in self.terminations:  # every agent stepped out (was KeyError 'player_0')
            raise _episode_over("last()")
        # (self.observe, not the session's, when a subclass changes observe: last changes too;
        # otherwise the session's straight away, the agent selected being a valid one)
        if not observe:
            obs = None
        elif self._own_observe:
            obs = self.session.observe(self._seat[agent])
        else:
            obs = self.observe(agent)
        return (obs, self._cumulative_rewards[agent],
                self.terminations[agent], self.truncations[agent], self.infos[agent])

    def agent_iter(self, max_iter: int = 2**63) -> Any:
        if not self._dealt:  # (was "no attribute 'agents'" at the loop's first turn)
            raise _reset_first("agent_iter()")
        return super().agent_iter(max_iter)

    def step(self, action: Any) -> None:
        if not self._dealt:  # (was "'RummyAEC' object has no attribute 'agent_selection'")
            raise _reset_first("step()")
        if not self.agents:  # (was KeyError 'player_0'; env()'s wrapper warns and plays nothing)
            raise _episode_over("step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        ses = self.session
        rewards = ses.step(action)  # may raise (a refused index): then nothing has changed
        cumulative = self._cumulative_rewards
        cumulative[agent] = 0.0
        agents = self.possible_agents
        # Every agent is in play here (the flags are set for all at once, and an agent steps out
        # only once they are): one loop sets the rewards, adds them up as AECEnv's
        # _accumulate_rewards did after the flags (the same sums, that method's work without
        # its call and second loop) and gives each agent a new info dict (an info edited by
        # the caller does not stay).
        rew = self.rewards
        infos = self.infos
        for a, r in zip(agents, rewards):
            rew[a] = r
            cumulative[a] += r
            infos[a] = {}
        state = ses.state
        if ses.ended_illegal or state.is_terminal:
            self.terminations = dict.fromkeys(self.agents, True)
        elif ses.truncated:
            self.truncations = dict.fromkeys(self.agents, True)
        if ses.last_illegal:
            infos[agent] = {"illegal_action": True}
        self.agent_selection = agents[state.current]
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if not self._dealt:  # (was the placeholder game, drawn as if it were being played)
            raise _reset_first("render()")
        if self.render_mode is None:
            return None
        text = self.session.render()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def env(rules: str | Rules = "rummy101", **options: Any) -> Any:
    """The AEC environment of a rule set, order-enforced (``rummy101.rl.env``)."""
    return _OrderEnforcing(RummyAEC(rules, **options))


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's order-enforcing wrapper with ``last`` and ``step`` handed straight to the env
    once it has been reset. Inherited, ``last`` read ``agent_selection``, the rewards, the flags
    and the infos on the wrapper, each a failed lookup and two ``__getattr__``, and ``step`` read
    ``agents`` so: about a tenth of a classic env step. Before a reset, or a step with no agents
    left, the wrapper's own code runs (its errors and warning)."""

    def last(self, observe: bool = True) -> Any:
        if not getattr(self, "_has_reset", False):  # (a PettingZoo without it: its own code)
            return super().last(observe)
        return self.env.last(observe)

    def step(self, action: Any) -> None:
        e = self.env
        if not getattr(self, "_has_reset", False) or not e.agents:
            super().step(action)
            return
        self._has_updated = True
        e.step(action)

    def __str__(self) -> str:
        # as PettingZoo's class prints itself (a subclass would print "_OrderEnforcing<...>")
        return str(self.env) if hasattr(self, "metadata") else repr(self)


def parallel_env(rules: str | Rules = "rummy101", **options: Any) -> Any:
    """The parallel form (PettingZoo's ``turn_based_aec_to_parallel``): every step takes a dict of
    actions, only the action of the seat to move is played (its mask is the only non-zero one)
    and one parallel step is one game step."""
    return _Parallel(env(rules, **options))


class _Parallel(turn_based_aec_to_parallel_wrapper):  # type: ignore[misc]
    """PettingZoo's turn-based parallel wrapper, with the actions checked: a step given no dict,
    or a dict without the seat to move, was "'int' object is not subscriptable", an IndexError
    (a numpy integer) or KeyError 'player_0' from inside the wrapper."""

    def step(self, actions: Any) -> Any:
        if "agents" not in vars(self):  # (was "'_Parallel' object has no attribute 'agents'")
            raise _reset_first("step()")
        if self.agents:
            mover = self.aec_env.agent_selection
            if not isinstance(actions, Mapping) or mover not in actions:
                raise ValueError(f"a parallel step takes a dict of actions by agent with the "
                                 f"action of the agent to move, {mover!r}, got "
                                 f"{type(actions).__name__} {actions!r:.40}")
        return super().step(actions)

"""Calls in the wrong order on the RL environments (docs/rl.md): before the first ``reset()``
and after the episode is over. The error says to call ``reset()`` (Gymnasium's ``ResetNeeded``,
as ``gym_env``'s step raises it), never a bare AttributeError or KeyError from inside, and
nothing is played. Skips without the ``rl`` extra."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from gymnasium.error import ResetNeeded
from pettingzoo.utils import wrappers
from rummy101.rl import classic_v0, parallel_env, remi_v0, rummy101_v0

RAW = {
    "rummy101": lambda: rummy101_v0.raw_env("rummy101(players=2)"),
    "remi": lambda: remi_v0.raw_env("remi(players=2)"),
    "classic": lambda: classic_v0.raw_env("classic(players=2)", render_mode="ansi"),
}
# PettingZoo's own wrappers around the raw env read its attributes (agent_selection, agents)
WRAPPED = {
    "raw": lambda e: e,
    "assert_out_of_bounds": wrappers.AssertOutOfBoundsWrapper,
    "terminate_illegal": lambda e: wrappers.TerminateIllegalWrapper(e, illegal_reward=-1),
}
RESET_FIRST = r"reset\(\) (before|first)"


@pytest.mark.parametrize("variant", list(RAW))
@pytest.mark.parametrize("wrap", list(WRAPPED))
def test_a_step_before_reset_says_to_call_reset(variant: str, wrap: str) -> None:
    # was AttributeError: 'RummyAEC' object has no attribute 'agent_selection'
    e = WRAPPED[wrap](RAW[variant]())
    for call in (lambda: e.step(0), lambda: e.last(), lambda: next(iter(e.agent_iter()))):
        with pytest.raises((ResetNeeded, AttributeError), match=RESET_FIRST):
            call()
    raw = e.unwrapped
    # nothing was played (the session's placeholder: env.game is for a dealt match only)
    assert not raw.session.state.history and not hasattr(raw, "agents")
    e.reset(seed=1)
    obs = e.last()[0]
    e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert len(raw.game.history) == 1


@pytest.mark.parametrize(
    "call",
    [
        lambda e: e.step(0),
        lambda e: e.step(None),
        lambda e: e.last(),
        lambda e: e.agent_iter(),
        lambda e: e.observe("player_0"),
        lambda e: e.render(),
    ],
    ids=["step", "step-None", "last", "agent_iter", "observe", "render"],
)
def test_the_raw_env_before_reset_raises_reset_needed(call: Any) -> None:
    """observe and render answered the placeholder game the env holds before a deal, as if it
    were the one being played."""
    e = RAW["classic"]()
    with pytest.raises(ResetNeeded, match=r"call reset\(\) before \w+\(\)"):
        call(e)
    assert not e.session.state.history  # (e.game raises before a reset too)


def test_a_parallel_step_before_reset_says_to_call_reset() -> None:
    # was AttributeError: '_Parallel' object has no attribute 'agents'
    par = parallel_env("classic(players=2)")
    with pytest.raises(ResetNeeded, match=r"call reset\(\) before step\(\)"):
        par.step({"player_0": 0, "player_1": 0})
    obs, _ = par.reset(seed=1)
    mover = par.aec_env.agent_selection
    par.step({mover: int(np.flatnonzero(obs[mover]["action_mask"])[0])})
    assert len(par.unwrapped.game.history) == 1


def test_the_raw_env_after_every_agent_stepped_out_says_to_call_reset() -> None:
    # was KeyError: 'player_0' from step() and last() (the wrapped env() warns on a step, as
    # PettingZoo's wrapper does, and its last() is the raw env's)
    e = classic_v0.raw_env("classic(players=2)", max_cycles=3)
    e.reset(seed=2)
    for _ in range(3):
        e.step(int(np.flatnonzero(e.last()[0]["action_mask"])[0]))
    while e.agents:
        assert e.last()[3]  # truncated
        e.step(None)
    history = len(e.game.history)
    for call in (lambda: e.step(None), lambda: e.step(0), lambda: e.last()):
        with pytest.raises(ResetNeeded, match=r"the episode is over .* call reset\(\)"):
            call()
    assert len(e.game.history) == history
    e.reset(seed=2)
    assert e.agents == ["player_0", "player_1"] and not e.last()[3]


@pytest.mark.parametrize(
    "call", [lambda g: g.action_masks(), lambda g: g.render()], ids=["action_masks", "render"]
)
def test_the_gym_env_before_reset_shows_no_placeholder_game(call: Any) -> None:
    """``gym_env(...)`` is the bare environment (no Gymnasium OrderEnforcing): its mask and its
    render showed the placeholder game held before a deal, as if it were the one played."""
    from rummy101.rl import gym_env

    g = gym_env("classic(players=2)", opponents="random", render_mode="ansi")
    with pytest.raises(ResetNeeded, match=r"call reset\(\) before \w+\(\)"):
        call(g)
    g.reset(seed=4)
    assert g.action_masks().any() and g.render() == str(g.game)


@pytest.mark.parametrize("how", ["terminated", "truncated"])
def test_a_gym_step_after_the_episode_ended_says_to_call_reset(how: str) -> None:
    """A step after ``terminated`` or ``truncated`` was returned raised IllegalActionIndex
    ("the match is over"), a ValueError read as the agent's index refused; Gymnasium's
    convention is a ``ResetNeeded`` (as the raw AEC env's step after the episode)."""
    from rummy101.rl import gym_env

    g = gym_env("classic(players=2)", opponents="random", max_cycles=6)
    obs, _ = g.reset(seed=5)
    done = False
    while not done:  # an index outside the mask ends it (illegal="lose"); max_cycles truncates
        pick = np.flatnonzero(obs["action_mask"] == (how == "truncated"))[0]
        obs, _, terminated, truncated, _ = g.step(int(pick))
        done = terminated or truncated
    assert (terminated, truncated) == (how == "terminated", how == "truncated")
    history = len(g.game.history)
    for action in (0, int(pick)):
        with pytest.raises(ResetNeeded, match=rf"episode is over \(it {how}\); call reset\(\)"):
            g.step(action)
    assert len(g.game.history) == history  # nothing was played
    obs, _ = g.reset(seed=5)
    g.step(int(np.flatnonzero(obs["action_mask"])[0]))  # a new episode steps again

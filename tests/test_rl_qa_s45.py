"""QA round s45 on the RL environments: ``env.game`` before the first ``reset()`` was the
placeholder game the session holds (seed 0, nobody's match), while every other call before a
reset raises Gymnasium's ``ResetNeeded``. It raises too now; ``env.rules`` gives the rule set
(what a tool read ``game.rules`` for) before a reset."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import gymnasium
from gymnasium.error import ResetNeeded
from rummy101.rl import classic_v0, env, gym_env, parallel_env, remi_v0, rummy101_v0

NO_GAME = (
    r"^call reset\(\) before reading game: no match is dealt yet \(reset\(seed=\.\.\.\) deals "
    r"a reproducible one\); env\.rules gives the rule set before it$"
)

MAKERS: dict[str, Callable[[], Any]] = {
    "gym_env": lambda: gym_env("rummy101(players=2)", opponents="random", seat=1),
    "gym id": lambda: gymnasium.make("rummy101/Remi-v0", rules="remi(players=3)").unwrapped,
    "raw_env": lambda: classic_v0.raw_env("classic(players=2)"),
    "env": lambda: remi_v0.env("remi(players=2)"),
    "env unwrapped": lambda: rummy101_v0.env("rummy101(players=3)").unwrapped,
    "parallel_env": lambda: parallel_env("classic(players=3)").unwrapped,
}
RULES = {
    "gym_env": "rummy101(players=2)",
    "gym id": "remi(players=3)",
    "raw_env": "classic(players=2)",
    "env": "remi(players=2)",
    "env unwrapped": "rummy101(players=3)",
    "parallel_env": "classic(players=3)",
}


@pytest.mark.parametrize("name", list(MAKERS))
def test_game_before_reset_raises_reset_needed_and_rules_answer(name: str) -> None:
    e = MAKERS[name]()
    with pytest.raises(ResetNeeded, match=NO_GAME):
        e.game  # noqa: B018 - the read is the test
    assert str(e.rules) == RULES[name]
    e.reset(seed=3)
    game = e.game
    assert str(game.rules) == RULES[name] and game.seed == 3
    assert str(e.rules) == str(game.rules)


def test_game_after_a_reset_is_the_match_being_played() -> None:
    g = gym_env("rummy101(players=2)", opponents="random", seat=0)
    obs, _ = g.reset(seed=5)
    before = len(g.game.history)
    legal = [i for i, m in enumerate(obs["action_mask"]) if m]
    g.step(legal[0])
    assert len(g.game.history) > before
    a = env("classic(players=2)")
    a.reset(seed=1)
    assert a.unwrapped.game.current_player == int(a.agent_selection.split("_")[1])

"""play_game's step limit (``max_steps``, :data:`rummy101.sim.MAX_STEPS`) catches a round that
never ends (a bot or the engine looping); it is a limit per round, so a long match that
``--rounds`` allows (up to 10,000 rounds) is no loop: ``rummy101 sim --rounds 1000`` of two
random Rummy 101 bots, ~360 steps a round, used to stop at step 200,001 with "a bot or the
engine loops"."""

from __future__ import annotations

import pytest
from rummy101.sim import GameFailed, play_game


@pytest.mark.parametrize("bots", [["random", "random"], ["greedy", "greedy"]],
                         ids=["python-flow", "native-rounds"])
def test_the_step_limit_is_per_round_not_per_match(bots: list[str]) -> None:
    whole = play_game("rummy101(players=2)", bots, 5, match_rounds=3)
    assert whole.rounds == 3
    # every round is shorter than the match: a limit just below the match's steps is no loop
    assert play_game("rummy101(players=2)", bots, 5, match_rounds=3,
                     max_steps=whole.steps - 1) == whole


def test_a_round_longer_than_the_limit_is_still_a_failure() -> None:
    one = play_game("rummy101(players=2)", ["random", "random"], 5)
    with pytest.raises(GameFailed, match=f"did not end within {one.steps - 1} steps"):
        play_game("rummy101(players=2)", ["random", "random"], 5, max_steps=one.steps - 1)

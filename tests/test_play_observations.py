"""``rummy101 play``'s bots get the observation of their own step (docs/bots.md): a bot that
keeps what it is handed and reads it at a later turn must see the position it acted on, as in
the simulator and a replay; a lazily built observation showed the position of the later read."""

from __future__ import annotations

import io
import random
from typing import Any

from rummy101.bots import get_bot
from rummy101.cli.play import _Session
from rummy101.game import new_game


class Keeper:
    """Keeps every observation it is handed, reads none while acting; plays as the random bot."""

    name = "keeper"

    def __init__(self, rng: random.Random) -> None:
        self.inner = get_bot("random", rng)
        self.kept: list[tuple[Any, Any]] = []
        self.state: Any = None

    def act(self, observation: Any, legal: Any) -> Any:
        seat = self.state.current_player
        self.kept.append((observation, self.state.observation(seat)))
        return self.inner.act({}, legal)


def test_a_kept_observation_is_the_one_of_its_step() -> None:
    state = new_game("rummy101(players=2)", 5, match_rounds=1)
    bot = Keeper(random.Random(1))
    bot.state = state
    session = _Session(state, [None, bot], ["you", "keeper"], io.StringIO(), io.StringIO())
    steps = 0
    while not state.is_terminal and steps < 60:
        if state.current_player == 1:
            session._bot_step(1)
        else:
            state.apply(random.Random(steps).choice(list(state.legal_actions())))
        steps += 1
    assert len(bot.kept) > 5
    for handed, at_the_time in bot.kept:  # read only now, turns later
        assert dict(handed) == dict(at_the_time)

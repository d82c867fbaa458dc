"""The observation a simulated bot is handed is the one of its step, as in any other loop
(docs/bots.md, docs/simulation.md): the simulator builds it lazily (``LazyObservation``), so
a bot that keeps it and reads it later (say, its discard's observation at its next turn) used
to read the position of that later moment instead, and played otherwise than in ``rummy101
play`` or a replay of the record; a bot that keeps nothing still costs no observation."""

from __future__ import annotations

import random
from typing import Any

import pytest
from rummy101.bots import get_bot
from rummy101.game import new_game
from rummy101.sim import game_seed, play_game


class Keeper:
    """Keeps every observation it is handed, never reads one; plays as the random bot."""

    name = "keeper"

    def __init__(self, rng: random.Random) -> None:
        self.inner = get_bot("random", rng)
        self.kept: list[Any] = []

    def act(self, observation: Any, legal: Any) -> Any:
        self.kept.append(observation)
        return self.inner.act(observation, legal)


@pytest.mark.parametrize("rules", ["rummy101(players=2)", "remi(players=2)", "classic(players=2)"])
def test_a_kept_observation_is_the_one_of_its_step(rules: str) -> None:
    sim = [Keeper(random.Random(1)), Keeper(random.Random(2))]
    play_game(rules, sim, 3, match_rounds=1)
    state = new_game(rules, game_seed(3, 0), match_rounds=1)
    plain = [Keeper(random.Random(1)), Keeper(random.Random(2))]
    while not state.is_terminal:
        seat = state.current_player
        state.apply(plain[seat].act(state.observation(seat), state.legal_actions()))
    for a, b in zip(sim, plain, strict=True):
        assert len(a.kept) == len(b.kept) > 10
        assert [dict(o) for o in a.kept] == b.kept


def test_a_bot_that_keeps_nothing_costs_no_observation(monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[int] = []
    cls = type(new_game("classic(players=2)", 1))
    observe = cls.observation

    def counting(self: Any, seat: int) -> Any:
        built.append(seat)
        return observe(self, seat)

    monkeypatch.setattr(cls, "observation", counting)
    rec = play_game("classic(players=2)", ["random", "random"], 3, match_rounds=1)
    assert rec.steps > 10 and built == []
    play_game("classic(players=2)", [Keeper(random.Random(1)), "random"], 3, match_rounds=1)
    assert built and set(built) == {0}  # the keeper's observations only, each built once

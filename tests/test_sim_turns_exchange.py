"""The simulator's turn counts (GameRecord.turns, the summary's turns per round) count turns of
play only: Remi's exchange of doubles (RO-3) asks every seat before play, and its steps are no
turns. Checked against the engine's own count of the turns each seat began (own_turns, RO-5)."""

from __future__ import annotations

import json

import pytest
from rummy101.game.records import loads
from rummy101.sim import simulate


@pytest.mark.parametrize(
    ("rules", "bots"),
    [
        ("remi", ["greedy", "random", "greedy", "random"]),
        ("remi(players=2)", ["greedy", "random"]),
        ("remi(players=3)", ["random", "greedy", "random"]),
        ("remi(doubles=false)", ["greedy"] * 4),  # no exchange: nothing to leave out
    ],
)
def test_turns_are_the_turns_each_seat_began(rules: str, bots: list[str]) -> None:
    result = simulate(rules, games=6, bots=bots, seed=5, record="full", workers=1)
    for rec in result.records:
        assert rec.game_record is not None
        state = loads(json.dumps(rec.game_record))
        assert state.round == 0 and state.is_terminal  # one round a game (Remi's default)
        assert rec.turns == tuple(state.x.own_turns), rec.game

"""The simulator's turn counts (GameRecord.turns, the summary's turns per round) count turns of
play only: Remi's exchange of doubles (RO-3) asks every seat before play, and its steps are no
turns. Checked against the engine's own count of the turns each seat began (own_turns, RO-5).
In a match of several rounds each round's first turn is a turn, whoever ended the round before."""

from __future__ import annotations

import json
import random

import pytest
from rummy101.bots import get_bot
from rummy101.game import new_game
from rummy101.game.records import loads
from rummy101.sim import bot_seed, game_seed, simulate


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


def _turns_begun(rules: str, bots: list[str], seed: int, index: int, rounds: int) -> list[int]:
    """The turns each seat began, counted from the outside: a new turn whenever the seat to act
    or the round changes (a round's first turn is a turn even when its starter is the seat that
    ended the round before), the exchange of doubles (RO-3) apart."""
    state = new_game(rules, game_seed(seed, index), match_rounds=rounds)
    players = [get_bot(b, random.Random(bot_seed(seed, index, s))) for s, b in enumerate(bots)]
    turns, last = [0] * len(bots), None
    while not state.is_terminal:
        seat = state.current_player
        if getattr(state, "phase", None) == "exchange":
            last = None
        else:
            if (state.round, seat) != last:
                turns[seat] += 1
            last = (state.round, seat)
        state.apply(players[seat].act(state.observation(seat), state.legal_actions()))
    return turns


@pytest.mark.parametrize(
    ("rules", "bots", "rounds"),
    [
        ("rummy101(players=2)", ["greedy", "greedy"], 4),   # native greedy rounds (issue 12)
        ("rummy101(players=2)", ["greedy", "random"], 4),   # the Python flow
        ("classic(players=2)", ["greedy", "greedy"], 5),    # the starter moves each round (CR-6)
        ("remi(players=2,doubles=false)", ["greedy", "greedy"], 4),
    ],
)
def test_a_rounds_first_turn_counts_when_its_starter_ended_the_round_before(
        rules: str, bots: list[str], rounds: int) -> None:
    # The seat that ends a round (a finish, or the last draw of an exhausted stock) may be the
    # next round's starter; its first turn there was taken for the same turn going on and not
    # counted, so multi-round games lost about a turn a round from the records and the summary.
    result = simulate(rules, bots, games=6, seed=1, workers=1, match_rounds=rounds)
    for rec in result.records:
        assert list(rec.turns) == _turns_begun(rules, bots, 1, rec.game, rounds), rec.game

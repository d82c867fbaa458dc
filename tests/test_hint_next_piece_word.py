"""A hint that stops before a draw says what the drawn piece is in that variant's words.

docs/service.md: the plan "stops before a draw from the stock (`"complete": false`, `"next"`
says to ask again after drawing)". For classic card Rummy it said "the drawn tile"; a card game
has cards (rummy101.rules.Rules.piece_word, as the engines' own messages say).
"""

from __future__ import annotations

import random

import pytest
from rummy101.bots import get_bot
from rummy101.game import new_game, records
from rummy101.service.api import hint


def first_incomplete_hint(rules: str, seed: int) -> dict[str, object]:
    """Seat 0's first hinted turn that ends at a draw (the others play greedy)."""
    s = new_game(rules, seed, match_rounds=1)
    bots = [get_bot("greedy", random.Random(seed + q)) for q in range(s.n)]
    while not s.is_terminal:
        q = s.current_player
        if q == 0:
            answer = hint({"record": records.to_dict(s), "alternatives": 0})
            if not answer["turn"]["complete"]:
                return answer["turn"]
        s.apply(bots[q].act(s.observation(q), s.legal_actions()))
    raise AssertionError(f"{rules} seed {seed}: no hint stopped at a draw")


@pytest.mark.parametrize(("rules", "word"), [("classic", "card"), ("remi", "tile")])
def test_next_names_the_drawn_piece(rules: str, word: str) -> None:
    turn = first_incomplete_hint(rules, 3)
    assert turn["next"] == f"draw, then ask again: the drawn {word} decides the rest of the turn"

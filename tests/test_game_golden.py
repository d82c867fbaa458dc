"""Golden values: the documented deal (R101-2) and seeded random playthroughs must not change by
accident. After an *intended* change of the deal, the action order of ``legal_actions`` or a rule,
regenerate with ``PYTHONPATH=python python tests/test_game_golden.py`` and paste the output."""

from __future__ import annotations

import hashlib
import random

import pytest
from rummy101 import Rules
from rummy101.game import new_game, random_playout
from rummy101.game.deal import shuffled_tiles

DEAL_PREFIX = [33, 46, 12, 16, 0, 34, 23, 36, 44, 42, 40, 45]  # rummy101, seed 0, round 0

PLAYTHROUGHS = [  # (rules, seed, actions, sha256 of the action texts [:16], standings), 2 rounds
    ("rummy101", 0, 408, "43c5b5e82dda5f31", [-230, -243, -404, -404]),
    ("rummy101(players=2,threshold=increasing)", 1, 627, "903ef4a5a3307a87", [-404, -242]),
    ("rummy101(players=3,button_jokers=2)", 2, 1182, "8a3ea965eb054c7b", [-404, -342, -265]),
]


def playthrough(rules: str, seed: int) -> tuple[str, int, int, str, list[int]]:
    s = new_game(rules, seed, match_rounds=2)
    random_playout(s, random.Random(seed))
    digest = hashlib.sha256("\n".join(map(str, s.history)).encode()).hexdigest()[:16]
    return (rules, seed, len(s.history), digest, s.standings())


def test_deal_golden() -> None:
    """R101-2: the Fisher-Yates deal of deal.py gives these tiles on every machine."""
    assert shuffled_tiles(Rules.parse("rummy101"), 0, 0)[:12] == DEAL_PREFIX


@pytest.mark.parametrize("golden", PLAYTHROUGHS, ids=[f"{r}-{s}" for r, s, *_ in PLAYTHROUGHS])
def test_playthrough_golden(golden: tuple[str, int, int, str, list[int]]) -> None:
    assert playthrough(golden[0], golden[1]) == golden


if __name__ == "__main__":
    print("DEAL_PREFIX =", shuffled_tiles(Rules.parse("rummy101"), 0, 0)[:12])
    for rules, seed, *_ in PLAYTHROUGHS:
        print(f"    {playthrough(rules, seed)!r},")

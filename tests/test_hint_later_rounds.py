"""A Remi or classic hint from an observation in a later round of a match: a position sampled
from the observation has the earlier rounds' scores but not their results, and a plan that
finishes the round read the result at the index of the round (IndexError), which the service
answered as a malformed observation ("a list in it is shorter than the seats")."""

from __future__ import annotations

import random

from rummy101.game import new_game
from rummy101.service import api


def _position(rules: str, seed: int, steps: int) -> dict[str, object]:
    s = new_game(rules, seed, match_rounds=3)
    rng = random.Random(seed)
    for _ in range(steps):
        s.apply(rng.choice(s.legal_actions()))
    return s.observation(s.current_player)


def test_a_finishing_hint_in_round_two_of_a_match() -> None:
    obs = _position("remi(players=2)", 4, 1012)  # found by a scan: round 1, a finish in reach
    assert obs["round"] == 1 and obs["round_scores"]
    got = api.hint({"observation": obs})
    turns = [got["turn"], *got["alternatives"]]
    assert any(t["evaluation"]["finishes"] for t in turns), turns
    won = next(t for t in turns if t["evaluation"]["finishes"])
    assert won["evaluation"]["score"] == 1000 + won["evaluation"]["round_points"]


def test_every_hint_turn_of_later_rounds_is_playable() -> None:
    """Every turn a hint gives (and its alternatives) is played by the real game as it stands,
    in the later rounds of random matches too."""
    played = 0
    for rules in ("remi(players=2)", "classic(players=3)"):
        s = new_game(rules, 2, match_rounds=3)
        rng = random.Random(2)
        while not s.is_terminal:
            obs = s.observation(s.current_player)
            if obs["round"] >= 1 and obs["phase"] != "exchange" and rng.random() < 0.2:
                # a pending tile or staged lay-down included (tests/test_midturn_samples.py)
                got = api.hint({"observation": obs, "alternatives": 1})
                for turn in [got["turn"], *got["alternatives"]]:
                    w = s.copy()
                    for a in turn["actions"]:
                        w.apply(a)
                    played += 1
            s.apply(rng.choice(s.legal_actions()))
    assert played > 20


def test_a_rollout_from_a_later_round_sample_says_how_the_round_ended() -> None:
    """rollout.play_round read the end at the round's index: "over" for every round after the
    first of a sampled position (which holds no earlier results)."""
    from rummy101.bots.rollout import play_round
    from rummy101.game.engine import engine_for

    obs = _position("remi(players=2)", 4, 1012)
    world = engine_for(new_game("remi(players=2)", 0).rules).sample_state(obs, random.Random(3))
    assert world.round == 1 and world.results == []
    assert play_round(world, random.Random(0), check=True) in ("finish", "exhausted")

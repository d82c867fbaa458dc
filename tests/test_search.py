"""The search bot (issue 12): worlds sampled from one seat's observation are consistent with
everything public, its options, determinism, and that it sees only the observation."""

from __future__ import annotations

import importlib
import random

import pytest
from rummy101.bots import BotError, SearchBot, get_bot
from rummy101.game import engine_for, new_game
from rummy101.sim import play_game

RULES = ["rummy101", "rummy101(players=2,threshold=increasing)", "rummy101(players=3,button_jokers=2)",
         "classic", "classic(players=3,go_out=narrow)", "remi", "remi(players=2,doubles=off)"]


def oracle(rules: str):
    return importlib.import_module(f"oracles.{new_game(rules, 0).rules.variant}")


def decision_points(rules: str, seed: int):
    """Positions of a seeded game where the search bot may search: the take phase, and play
    phases with nothing staged and nothing to undo (the observations it samples from)."""
    s = new_game(rules, seed, match_rounds=1)
    rng = random.Random(seed)
    eager = oracle(rules).eager
    while not s.is_terminal:
        legal = s.legal_actions()
        ts = s.observation(s.current_player).get("turn_state", {})
        if s.phase.value == "take" or (s.phase.value == "play" and "reset" not in legal
                                       and not ts.get("staged") and ts.get("pending") is None):
            yield s
        s.apply(eager(rng, s, legal))


@pytest.mark.parametrize("rules", RULES)
def test_sampled_worlds_agree_with_the_observation(rules: str) -> None:
    """The sampled position's observation for the seat is exactly the one it was sampled from;
    pieces are conserved; the hidden racks differ between samples (they are really sampled)."""
    sample = engine_for(new_game(rules, 0).rules).sample_state
    worlds = differ = 0
    for seed in range(4):
        for k, s in enumerate(decision_points(rules, seed)):
            if k % 7:
                continue
            seat = s.current_player
            obs = s.observation(seat)
            a = sample(obs, random.Random(k))
            b = sample(obs, random.Random(k + 1))
            assert a.observation(seat) == obs and b.observation(seat) == obs
            oracle(rules).check_pieces(a)
            assert a.legal_actions() == s.legal_actions()  # the seat's options are public
            differ += a.racks != b.racks
            worlds += 1
    assert worlds > 20 and differ > worlds // 2


def test_sampling_never_reads_the_true_hidden_racks() -> None:
    """Two positions that differ only in what seat 0 cannot see give the same worlds."""
    s = next(p for i, p in enumerate(decision_points("rummy101", 3)) if i == 12)
    t = s.copy()
    t.racks[1], t.racks[2] = t.racks[2], t.racks[1]
    t.sizes[1], t.sizes[2] = t.sizes[2], t.sizes[1]
    if t.sizes[1] != s.sizes[1]:
        pytest.skip("seats 1 and 2 hold different numbers of tiles here")
    seat = s.current_player
    sample = engine_for(s.rules).sample_state
    assert sample(s.observation(seat), random.Random(5)).racks == \
        sample(t.observation(seat), random.Random(5)).racks


def test_options_and_errors() -> None:
    bot = get_bot("search:playouts=30:candidates=3", random.Random(1))
    assert isinstance(bot, SearchBot) and (bot.playouts, bot.candidates) == (30, 3)
    with pytest.raises(BotError, match="has no option 'depth'.*playouts"):
        get_bot("search:depth=3")
    with pytest.raises(BotError, match="expected a int"):
        get_bot("search:playouts=many")
    with pytest.raises(BotError, match="playouts must be a whole number from 1"):
        get_bot("search:playouts=0")


def test_search_plays_whole_games_deterministically() -> None:
    """Same seeds, same game; it searched some decisions; its moves are all legal."""
    bots = ["search:playouts=12", "greedy", "random"]
    a = play_game("rummy101(players=3)", bots, 4, 0)
    b = play_game("rummy101(players=3)", bots, 4, 0)
    assert a == b and a.steps > 0
    bot = get_bot("search:playouts=12", random.Random(0))
    s = new_game("rummy101(players=2)", 8)
    others = get_bot("greedy", random.Random(1))
    while not s.is_terminal:
        q = s.current_player
        s.apply((bot if q == 0 else others).act(s.observation(q), s.legal_actions()))
    assert bot.decisions > 0 and bot.search_seconds > 0

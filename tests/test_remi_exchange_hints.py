"""Hints and samples in Remi's exchange of doubles (RO-3), which asks every seat before play.

From an observation the announced double is hidden: the sampler deals it to the announcer
(remi/world.py), and the plan ends at an ``accept`` (the double it brings is unknown, as a
draw's tile) and after any other step of the exchange (the next decision is asked anew). So a
hint from the observation equals the hint from the game record at every step of the exchange,
and no hint runs on into the first turn of play."""

from __future__ import annotations

import random

import pytest
from rummy101._validate import BadRequest
from rummy101.errors import IllegalAction
from rummy101.game import new_game, records
from rummy101.game.engine import engine_for
from rummy101.service.api import hint


def _exchange_positions(rules: str, seeds: range) -> list:
    """Every position of the exchange in random deals whose seats mostly announce and accept."""
    out = []
    for seed in seeds:
        s = new_game(rules, seed)
        rng = random.Random(seed)
        while s.phase.value == "exchange":
            out.append(s.copy())
            legal = s.legal_actions()
            offers = [a for a in legal if a.verb != "decline"]
            s.apply(rng.choice(offers) if offers and rng.random() < 0.8 else rng.choice(legal))
    return out


@pytest.mark.parametrize(
    ("rules", "seeds"),
    [("remi", range(8)), ("remi(players=2)", range(8, 16)), ("remi(players=3)", range(16, 24))],
)
def test_the_hint_from_the_observation_is_the_records(rules: str, seeds: range) -> None:
    positions = _exchange_positions(rules, seeds)
    offers = 0
    for s in positions:
        seat = s.current_player
        obs = s.observation(seat)
        offers += obs["exchange"]["announcer"] is not None
        from_obs = hint({"observation": obs, "alternatives": 2})
        assert from_obs == hint({"record": records.to_dict(s), "alternatives": 2})
        actions = from_obs["turn"]["actions"]
        assert len(actions) == 1, actions  # one decision of the exchange a hint
        assert actions[0] in [str(a) for a in s.legal_actions()]
    assert offers >= len(seeds)  # offers on the table were hinted, not only announcements


def test_every_seat_samples_the_exchange() -> None:
    """The sample of any seat's observation shows that observation, and for the seat to move
    the real moves (an accept's choices are the seat's own doubles of the size on offer)."""
    for s in _exchange_positions("remi", range(30, 36)):
        for seat in range(s.n):
            obs = s.observation(seat)
            got = engine_for(s.rules).sample_state(obs, random.Random(seat))
            assert got.observation(seat) == obs
            if seat == s.current_player:
                assert sorted(map(str, got.legal_actions())) == sorted(map(str, s.legal_actions()))
            if obs["exchange"]["announcer"] is not None:  # the announcer holds such a double
                a = obs["exchange"]["announcer"]
                assert got.racks[a][got.x.ex_code] >= 2


def test_the_last_step_of_the_exchange_is_not_carried_into_play() -> None:
    # two players: the starter's pass as a responder ends the exchange, and play begins with
    # the starter's own turn; the hint of that pass is the pass alone
    for seed in range(40):
        s = new_game("remi(players=2)", seed)
        s.apply("decline")  # the starter announces nothing
        if s.legal_actions() == [s.legal_actions()[0]] and str(s.legal_actions()[0]) == "decline":
            continue
        s.apply(next(a for a in s.legal_actions() if a.verb == "announce"))
        assert s.current_player == s.starter
        answer = hint({"observation": s.observation(s.starter)})
        assert len(answer["turn"]["actions"]) == 1, answer["turn"]["actions"]
        return
    pytest.fail("no deal of 40 gave the second seat a double")


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (lambda o: o.update(exchange=None), "'exchange' must be an object"),
        (lambda o: o["exchange"].update(announcer=0, size="big"), "does not fit"),
        (lambda o: o["exchange"].update(size="huge"), "does not fit"),
        (lambda o: o.update(doubles_log=5), "'doubles_log' must be a list"),
        (lambda o: o.update(doubles_log=[["a", 1]]), "'doubles_log' must be a list"),
        (lambda o: o.update(doubles_log=[[0, "big", 7]]), "'doubles_log' must be a list"),
    ],
)
def test_exchange_observations_no_game_makes_are_refused(change, says: str) -> None:
    s = new_game("remi(players=2)", 3)
    s.apply("decline")
    while not any(a.verb == "announce" for a in s.legal_actions()):
        s = new_game("remi(players=2)", s.seed + 1)  # a deal whose second seat holds a double
        s.apply("decline")
    s.apply(next(a for a in s.legal_actions() if a.verb == "announce"))
    obs = s.observation(s.current_player)
    change(obs)
    with pytest.raises(IllegalAction, match=says):
        engine_for(s.rules).sample_state(obs, random.Random(0))
    with pytest.raises(BadRequest):
        hint({"observation": obs})

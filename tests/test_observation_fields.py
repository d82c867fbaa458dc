"""An observation sent for a hint (or sampled by a search bot) holding values no game makes is
refused naming the field: a sampled position holds what the observation says, so its round trip
(``State.observation(seat) == obs``) saw nothing wrong with ``laid: [30, 31, 30, 30]``, a round
past the match, standings that are not the sums of the round scores, a classic stock turned
over seven times (CR-5: the second exhaustion ends the round) or Remi turn counts that do not
add up (RO-11 decides the tabla by them); each got a hint. Real observations are never refused."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

import pytest
from rummy101._validate import BadRequest
from rummy101.errors import IllegalAction
from rummy101.game import new_game
from rummy101.game.engine import engine_for
from rummy101.service import api


def _at_a_discard(rules: str, seed: int) -> dict[str, Any]:
    s = new_game(rules, seed)
    while s.current_player != 0 or not any(str(a).startswith("discard") for a in s.legal_actions()):
        s.apply(s.legal_actions()[0])
    return s.observation(0)


def _moves(state: Any) -> list[str]:
    """The legal moves, ``reset`` and Remi's ``tabla`` included: the turn's undo snapshot, which
    both read (RO-11: tabla before any play of the turn), is rebuilt from the observation's
    ``own_turn`` (tests/test_midturn_samples.py)."""
    return sorted(map(str, state.legal_actions()))


def _set(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    return lambda o: o.__setitem__(key, value)


CASES = [
    ("remi", "laid", _set("laid", [30, 31, 30, 30]), "'laid' must be a list of 4 true/false"),
    ("remi", "tabla", _set("tabla", [0, 0, 0, 0]), "'tabla' must be a list of 4 true/false"),
    (
        "remi",
        "own_turns",
        _set("own_turns", [31, 30, 30, 30]),
        "'own_turns' [31, 30, 30, 30] do not count the 1 turns begun",
    ),
    ("remi", "turn", _set("turn", 7), "do not count the 8 turns begun"),
    (
        "remi",
        "own_turns",
        _set("own_turns", [1, -1, 1, 0]),
        "'own_turns' must be a list of 4 whole numbers >= 0",
    ),
    ("remi", "round", _set("round", 7), "'round' must be a whole number from 0 to 0, got 7"),
    (
        "remi",
        "standings",
        _set("standings", [30, 30, 30, 30]),
        "are not the sums of its 'round_scores'",
    ),
    ("remi", "round_scores", _set("round_scores", [[1, 1, 1, 1]]), "one row a round played"),
    ("remi", "match_rounds", _set("match_rounds", 0), "'match_rounds' must be a whole number >= 1"),
    ("remi", "starter", _set("starter", True), "'starter' must be a whole number from 0 to 3"),
    (
        "classic",
        "stock_turnovers",
        _set("stock_turnovers", 7),
        "'stock_turnovers' must be a whole number from 0 to 1, got 7",
    ),
    ("classic", "melded", _set("melded", [1, 0, 0, 0]), "'melded' must be a list of 4 true/false"),
    (
        "classic",
        "standings",
        _set("standings", [0, 0, 0, 1.5]),
        "'standings' must be a list of 4 whole numbers",
    ),
    ("classic", "round", _set("round", -1), "'round' must be a whole number"),
]


@pytest.mark.parametrize(
    "variant,field,edit,says", CASES, ids=[f"{c[0]}-{c[1]}-{i}" for i, c in enumerate(CASES)]
)
def test_a_hint_refuses_field_values_no_game_makes(
    variant: str, field: str, edit: Callable[[dict[str, Any]], None], says: str
) -> None:
    obs = _at_a_discard(variant, 7 if variant == "remi" else 3)
    assert api.hint({"observation": obs})["seat"] == 0  # as the engine made it: a hint
    bad = copy.deepcopy(obs)
    edit(bad)
    with pytest.raises(BadRequest) as info:
        api.hint({"observation": bad})
    assert says in str(info.value), str(info.value)


@pytest.mark.parametrize(
    "rules", ["rummy101(players=3)", "remi(players=2)", "remi(players=4)", "classic(players=3)"]
)
def test_every_real_observation_samples(rules: str) -> None:
    """No false refusal: every observation of random matches of 2 rounds (any seat, every
    step the sampler takes) gives a position whose observation is the one given and whose legal
    moves are the real ones (a Rummy 101 sample after a discard take lost the duty to use it)."""
    engine = engine_for(new_game(rules, 0).rules)
    checked = 0
    for seed in range(3):
        s = new_game(rules, seed, match_rounds=2)
        rng = random.Random(seed)
        while not s.is_terminal:
            seat = s.current_player
            obs = s.observation(seat)
            try:
                got = engine.sample_state(obs, random.Random(1))
            except IllegalAction as exc:  # the doubles exchange (RO-3), by design
                assert "doubles exchange" in str(exc), exc
            else:
                assert got.observation(seat) == obs
                # the seat's moves depend only on what it sees and did this turn: the same in
                # the sample (a Rummy 101 discard taken and not yet used must be used there
                # too, R101-4; the undo of the turn's plays and Remi's tabla, RO-11)
                assert _moves(got) == _moves(s)
                checked += 1
            s.apply(rng.choice(s.legal_actions()))
    assert checked > 100

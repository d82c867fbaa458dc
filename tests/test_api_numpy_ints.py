"""The game API takes numpy's integers where it takes a whole number, as ``rummy101.sim`` and
``rummy101.rl`` do: a researcher's seeds and seats often come from numpy
(``rng.integers(...)``, ``np.arange(n)``). They were refused with a message that contradicted
itself ("seed must be a whole number, got int64 np.int64(3)", "seat np.int64(1) does not
exist: seats are 0..1"). A float, a bool or a string is still refused."""

from __future__ import annotations

from typing import Any

import pytest
import rummy101
from rummy101.game import records

np = pytest.importorskip("numpy")

SPECS = ["rummy101(players=2)", "remi(players=2)", "classic(players=2)"]


@pytest.mark.parametrize("spec", SPECS)
def test_a_numpy_seed_and_match_rounds_deal_the_same_game(spec: str) -> None:
    got = rummy101.new_game(spec, np.int64(3), match_rounds=np.int32(2))
    want = rummy101.new_game(spec, 3, match_rounds=2)
    assert got == want and type(got.seed) is int and type(got.match_rounds) is int
    assert records.dumps(got) == records.dumps(want)  # (a numpy seed is no JSON number)


@pytest.mark.parametrize("spec", SPECS)
def test_a_numpy_seat_is_a_seat(spec: str) -> None:
    s = rummy101.new_game(spec, 5)
    for seat in np.arange(s.n):
        assert s.observation(seat) == s.observation(int(seat))
        assert s.rack(seat) == s.rack(int(seat))


@pytest.mark.parametrize("bad", [1.5, np.float64(2.0), "3", True, np.bool_(True), None])
def test_a_seed_that_is_no_whole_number_is_still_refused(bad: Any) -> None:
    with pytest.raises(rummy101.RulesError, match="seed must be a whole number"):
        rummy101.new_game("rummy101", bad)
    with pytest.raises(rummy101.RulesError, match="match_rounds must be a whole number"):
        rummy101.new_game("rummy101", 1, match_rounds=bad if bad is not None else 0.5)


@pytest.mark.parametrize("bad", [np.int64(2), np.int64(-1), np.float64(1.0), np.bool_(True)])
def test_a_numpy_seat_outside_the_seats_is_refused(bad: Any) -> None:
    s = rummy101.new_game("rummy101(players=2)", 5)
    for call in (s.observation, s.rack):
        with pytest.raises(rummy101.IllegalAction, match="does not exist: seats are 0..1"):
            call(bad)

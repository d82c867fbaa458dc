"""Error messages of the hint request (issue 16, point 8): a missing or null seat says what to
send instead of "got null null"; null values are named once everywhere."""

from __future__ import annotations

import json

import pytest

from rummy101._validate import BadRequest, described, read_bool
from rummy101.cli import main
from rummy101.game import new_game


def hint_error(capsys: pytest.CaptureFixture[str], body: object) -> str:
    assert main(["hint", "--json", json.dumps(body)]) == 2
    err = capsys.readouterr().err
    assert "null null" not in err
    return err


@pytest.mark.parametrize("body", [
    {"rules": "rummy101", "rack": "R1 R2 R3"},
    {"rules": "rummy101", "seat": None, "rack": "R1 R2 R3"},
    {"observation": None, "rack": "R1 R2 R3"},
    {},
])
def test_a_missing_seat_says_what_to_send(capsys: pytest.CaptureFixture[str], body: object) -> None:
    err = hint_error(capsys, body)
    assert "field 'seat' is missing: send the number of the seat to hint (0 to 3" in err
    assert "State.observation(seat)" in err and "\"record\"" in err


def test_an_observation_without_its_seat(capsys: pytest.CaptureFixture[str]) -> None:
    obs = new_game("rummy101", 1).observation(0)
    err = hint_error(capsys, {"observation": {**obs, "seat": None}})
    assert "field 'observation' has seat null: send State.observation(seat) as it is" in err
    err = hint_error(capsys, {"observation": {k: v for k, v in obs.items() if k != "seat"}})
    assert "lacks seat" in err


def test_null_is_named_once() -> None:
    assert described(None) == "null"
    assert described("R1") == 'a string "R1"'
    with pytest.raises(BadRequest, match=r"got a number 3$"):
        read_bool({"flag": 3}, "flag", False)

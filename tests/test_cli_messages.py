"""Error messages of the hint request (issue 16, point 8): a missing or null seat says what to
send instead of "got null null"; null values are named once everywhere."""

from __future__ import annotations

import json
from pathlib import Path

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


def test_a_sim_output_file_given_as_a_hint_request(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`rummy101 hint --request results.jsonl` (a `sim --out` file) said "not valid JSON: Extra
    data at line 2 column 1", and one summary row of it "field 'record' is not valid JSON"
    (the row's "record": "summary" read as a game record). Both now say what the input is."""
    out = tmp_path / "results.jsonl"
    assert main(["sim", "--games", "2", "--workers", "1", "--out", str(out), "-q"]) == 0
    capsys.readouterr()
    assert main(["hint", "--request", str(out)]) == 2
    err = capsys.readouterr().err
    assert "holds 2 JSON objects, one a line: a hint request is one object" in err
    assert "Extra data" not in err
    row = tmp_path / "row.json"
    row.write_text(out.read_text().splitlines()[0])
    assert main(["hint", "--request", str(row)]) == 2
    err = capsys.readouterr().err
    assert "this is a summary row of `rummy101 sim --out`" in err and "not valid JSON" not in err


def test_a_full_sim_line_sent_to_the_service_hint(tmp_path: Path) -> None:
    from rummy101.service import api

    out = tmp_path / "games.jsonl"
    assert main(["sim", "--games", "1", "--workers", "1", "--out", str(out), "-q",
                 "--record", "full"]) == 0
    line = json.loads(out.read_text())
    with pytest.raises(BadRequest, match="line of `rummy101 sim --record full`, a finished game"):
        api.hint(line)

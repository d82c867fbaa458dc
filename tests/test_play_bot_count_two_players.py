"""`rummy101 play` with the wrong number of bots in a two-player game names seat 1 alone.

docs/play.md: "--bots names the bots of seats 1, 2, … (one per other seat)". With
`classic(players=2)` and two bots the message said "give 1 bot for seats 1 to 1".
"""

from __future__ import annotations

import pytest
from rummy101.cli import main


def test_two_player_bot_count_message_names_seat_1(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["play", "--rules", "classic(players=2)", "--bots", "greedy,greedy"])
    err = capsys.readouterr().err
    assert code == 2
    assert "give 1 bot for seat 1 (you play seat 0)" in err
    assert "seats 1 to 1" not in err


def test_four_player_bot_count_message_still_names_the_range(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["play", "--bots", "greedy"]) == 2
    assert "give 3 bots for seats 1 to 3 (you play seat 0)" in capsys.readouterr().err

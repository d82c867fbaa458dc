"""docs/simulation.md, "Seats are not rotated": the claims a researcher relies on to compare
bots apart from their seats. Seat 0 starts the first round of every game of a run (so the
per-seat tables mix a bot with its seat), and game ``i`` of a seed is the same deal whatever
the bots, so every seating of a line-up with one ``--seed`` plays the same deals."""

from __future__ import annotations

from pathlib import Path

import pytest
from rummy101.cli import main
from rummy101.game import new_game, playable_variants
from rummy101.sim import game_seed, simulate


@pytest.mark.parametrize("variant", playable_variants())
def test_seat_0_starts_the_first_round_of_every_game(variant: str) -> None:
    for i in range(40):
        s = new_game(variant, game_seed(1, i))
        assert s.observation(0)["starter"] == 0


def test_every_seating_plays_the_same_deals() -> None:
    a = simulate("rummy101(players=2)", "greedy,random", 4, seed=3, workers=1, progress=False)
    b = simulate("rummy101(players=2)", "random,greedy", 4, seed=3, workers=1, progress=False)
    assert [r.game_seed for r in a.records] == [r.game_seed for r in b.records]
    assert [r.bots for r in b.records] == [("random", "greedy")] * 4


def test_the_tables_of_a_mixed_line_up_say_that_a_row_is_a_bot_in_its_seat(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The summary and the report labelled each row by its bot only: 'greedy,random,random,random'
    reads as greedy against random, though it measures greedy in seat 0, which starts every
    game. A mixed line-up says so under its tables (once each); one bot in every seat does not
    need it (its rows differ by seat alone)."""
    out = tmp_path / "mixed.jsonl"
    assert main(["sim", "--rules", "rummy101(players=2)", "--bots", "greedy,random", "--games",
                 "3", "--workers", "1", "-q", "--out", str(out)]) == 0
    note = "seats are not rotated: seat 0 starts the first round of every game, so a row"
    assert capsys.readouterr().out.count(note) == 1
    assert main(["report", str(out)]) == 0
    assert capsys.readouterr().out.count(note) == 1
    same = simulate("rummy101(players=2)", "random,random", 3, seed=1, workers=1, progress=False)
    assert "seats are not rotated" not in same.summary()

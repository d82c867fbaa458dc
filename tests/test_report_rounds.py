"""``rummy101 report`` on runs of other match lengths (``--rounds``): points per game of a
1-round game and of a 3-round match are not one quantity, so each length gets its own table
(Rummy 101 and Remi play every match of a run to the same number of rounds); a classic match
plays to its target score, so its games of any length stay one table."""

from __future__ import annotations

from pathlib import Path

import pytest
from rummy101.cli import main
from rummy101.sim import simulate, write_records
from rummy101.sim.report import format_report, group_records


def test_matches_of_other_lengths_get_their_own_table() -> None:
    one = simulate("rummy101(players=2)", "greedy,random", 6, seed=1, workers=1, progress=False)
    three = simulate("rummy101(players=2)", "greedy,random", 6, seed=2, workers=1,
                     progress=False, match_rounds=3)
    groups = group_records(one.records + three.records)
    assert [(g.games, g.match_rounds) for g in groups] == [(6, 1), (6, 3)]
    assert groups[0].seats == one.seats and groups[1].seats == three.seats
    text = format_report(groups)
    assert "6 games of rummy101(players=2); bots" in text
    assert "6 games of rummy101(players=2), matches of 3 rounds; bots" in text


def test_classic_matches_of_any_length_are_one_table() -> None:
    res = simulate("classic(players=2)", "greedy,random", 6, seed=1, workers=1, progress=False)
    assert len({r.rounds for r in res.records}) > 1  # played to the target: lengths vary
    [g] = group_records(res.records)
    assert g.match_rounds is None and g.seats == res.seats


def test_cli_report_of_two_match_lengths(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for rounds in (1, 2):
        res = simulate("remi(players=2)", "greedy,random", 3, seed=4, workers=1, progress=False,
                       match_rounds=rounds)
        write_records(res.records, tmp_path / f"r{rounds}.jsonl")
    assert main(["report", str(tmp_path / "r1.jsonl"), str(tmp_path / "r2.jsonl")]) == 0
    out = capsys.readouterr().out
    assert "3 games of remi(players=2); bots" in out
    assert "3 games of remi(players=2), matches of 2 rounds; bots" in out

"""Replayable simulation results (issue 16): ``--record full`` lines replay with
``rummy101.game.records.loads``, every line carries the game's and the bots' seeds, summary rows
say they are summaries, and ``--out`` keeps an existing file unless ``--force``."""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

import pytest
from rummy101 import sim
from rummy101.bots import get_bot
from rummy101.errors import NotationError
from rummy101.game import new_game, playable_variants, records


def run_cli(argv: list[str]) -> int:
    from rummy101.cli import sim as cli_sim
    parser = argparse.ArgumentParser(prog="rummy101")
    cli_sim.add_subcommands(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return int(args.func(args))


@pytest.mark.parametrize("variant", playable_variants())
def test_full_lines_replay_with_records_loads(variant: str) -> None:
    """A full line is a game record plus the summary fields; the loader ignores the extras."""
    # greedy ends Remi rounds far sooner than random play (which draws a long game on the pure
    # backend); random everywhere else
    bots = "greedy,greedy" if variant == "remi" else "random,random"
    res = sim.simulate(f"{variant}(players=2)", bots, 2, seed=4, workers=1,
                       progress=False, record="full")
    for rec in res.records:
        line = json.dumps(rec.to_json())
        row = json.loads(line)
        assert row["record"] == "full" and row["format"] == records.FORMAT
        state = records.loads(line)                      # extra keys are ignored by the loader
        assert state.is_terminal and len(state.history) == rec.steps == len(row["actions"])
        assert tuple(state.standings()) == rec.scores and row["standings"] == row["scores"]
        assert row["game_seed"] == row["seed"] == sim.game_seed(4, rec.game) == state.seed
        assert row["bot_seeds"] == [sim.bot_seed(4, rec.game, s) for s in range(2)]
        assert row["run_seed"] == 4 and row["bots"] == bots.split(",")


def test_variant_rules_default_players_full_records() -> None:
    """rummy101 with its default 4 seats: full and summary runs play the same games."""
    bots = "greedy,random,random,random"
    full = sim.simulate("rummy101", bots, 3, seed=6, workers=1, progress=False, record="full")
    summ = sim.simulate("rummy101", bots, 3, seed=6, workers=1, progress=False)
    for f, s in zip(full.records, summ.records):
        assert f.game_record is not None and s.game_record is None
        fj, sj = f.to_json(), s.to_json()
        assert sj["record"] == "summary" and "actions" not in sj
        assert {k: v for k, v in fj.items() if k in sj and k != "record"} == \
            {k: v for k, v in sj.items() if k != "record"}


def test_summary_row_seeds_replay_the_game() -> None:
    """game_seed / bot_seed are the API to replay a summary row: same deal, same bots' RNGs."""
    res = sim.simulate("rummy101(players=3)", "greedy,random,random", 2, seed=12, workers=1,
                       progress=False)
    row = res.records[1].to_json()
    assert row["record"] == "summary"
    state = new_game(row["rules"], row["game_seed"])
    bots = [get_bot(name, random.Random(seed)) for name, seed in zip(row["bots"], row["bot_seeds"])]
    while not state.is_terminal:
        seat = state.current_player
        state.apply(bots[seat].act(state.observation(seat), state.legal_actions()))
    assert state.standings() == row["scores"] and len(state.history) == row["steps"]


def test_full_records_are_the_same_on_a_process_pool() -> None:
    one = sim.simulate("rummy101(players=2)", "random,random", 4, seed=3, workers=1,
                       progress=False, record="full")
    two = sim.simulate("rummy101(players=2)", "random,random", 4, seed=3, workers=2,
                       progress=False, record="full")
    assert [r.to_json() for r in one.records] == [r.to_json() for r in two.records]


def test_to_rows_one_flat_dict_per_game() -> None:
    res = sim.simulate("rummy101(players=2)", "random,random", 3, seed=1, workers=1,
                       progress=False)
    rows = res.to_rows()
    assert [r["game"] for r in rows] == [0, 1, 2]
    assert [r["score_1"] for r in rows] == [r.scores[1] for r in res.records]
    assert rows[2]["bot_seed_0"] == sim.bot_seed(1, 2, 0) and rows[2]["run_seed"] == 1
    assert all(not isinstance(v, (list, dict, tuple)) for r in rows for v in r.values())


def test_bad_record_kind() -> None:
    with pytest.raises(sim.SimError, match=r"record must be one of 'summary', 'full', got 'all'"):
        sim.simulate("rummy101", "random,random,random,random", 1, record="all")


BASE = ["sim", "--rules", "rummy101(players=2)", "--bots", "random,random", "--games", "2",
        "--seed", "5", "--workers", "1", "--quiet"]


def test_cli_record_full_lines_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "games.jsonl"
    assert run_cli([*BASE, "--out", str(out), "--record", "full"]) == 0
    assert "full game records" in capsys.readouterr().out
    lines = out.read_text().splitlines()
    assert len(lines) == 2
    for i, line in enumerate(lines):
        state = records.loads(line)
        assert state.is_terminal and state.seed == sim.game_seed(5, i)
        assert json.loads(line)["bot_seeds"] == [sim.bot_seed(5, i, 0), sim.bot_seed(5, i, 1)]


def test_cli_summary_rows_are_the_default_and_say_so(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "games.jsonl"
    assert run_cli([*BASE, "--out", str(out)]) == 0
    assert "summary rows" in capsys.readouterr().out
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    assert [r["record"] for r in rows] == ["summary", "summary"]
    assert all("actions" not in r and r["game_seed"] == r["seed"] for r in rows)
    # the error says what the line is and how to get records that replay (issue 16)
    with pytest.raises(NotationError, match=r"summary row .* `--record full`"):
        records.loads(out.read_text().splitlines()[0])


def test_cli_out_is_not_overwritten_without_force(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "games.jsonl"
    out.write_text("precious\n")
    assert run_cli([*BASE, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "already exists" in err and "--force" in err and str(out) in err
    # the file may hold the games of a killed run (kill -9 prints nothing): --force is not
    # the only way on, and throws them away
    assert "add --resume to continue the run that wrote it" in err
    assert out.read_text() == "precious\n"
    assert run_cli([*BASE, "--out", str(out), "--force"]) == 0
    assert len(out.read_text().splitlines()) == 2


@pytest.mark.parametrize("extra, message", [
    (["--record", "full", "--out", "x.csv"], r"full game records are written as JSON Lines"),
    (["--record", "full"], r"--record full needs --out FILE\.jsonl"),
])
def test_cli_record_full_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                extra: list[str], message: str) -> None:
    import re
    extra = [str(tmp_path / e) if e.endswith(".csv") else e for e in extra]
    assert run_cli([*BASE, *extra]) == 2
    err = capsys.readouterr().err
    assert re.search(message, err)
    assert not (tmp_path / "x.csv").exists()

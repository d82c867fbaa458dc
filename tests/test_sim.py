"""The simulator on the real Rummy 101 engine: reproducibility whatever the executor, the CLI,
a Dask LocalCluster executor, and greedy against random (R101-13 scoring)."""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import json
from typing import Any

import pytest
import rummy101
from rummy101 import sim

# The pure backend plays the greedy bot ~50x slower: keep its runs short.
FAST = rummy101.backend_name() == "native"


def test_same_records_with_1_or_2_workers_or_threads() -> None:
    bots = "greedy,random,random,greedy"
    n = 8 if FAST else 4
    one = sim.simulate("rummy101", bots, n, seed=3, workers=1, progress=False)
    two = sim.simulate("rummy101", bots, n, seed=3, workers=2, progress=False)
    with cf.ThreadPoolExecutor(2) as ex:
        thr = sim.simulate("rummy101", bots, n, seed=3, executor=ex, progress=False)
    assert one.records == two.records == thr.records
    assert one.seats == two.seats == thr.seats
    assert [r.game for r in one.records] == list(range(n))
    for r in one.records:
        assert r.rounds == 1 and r.steps > 0 and sum(r.turns) >= 4
        assert r.finishes[0] in ("exhausted", "normal", "joker", "one_turn", "one_turn_joker")
        assert (r.finishers[0] is None) == (r.finishes[0] == "exhausted")
        assert list(r.scores) == list(r.round_scores[0])


def test_matches_of_several_rounds() -> None:
    res = sim.simulate("rummy101(players=2)", "greedy,random", 3 if FAST else 1, seed=8,
                       workers=1, progress=False, match_rounds=3)
    for r in res.records:
        assert r.rounds == 3 and len(r.finishes) == 3
        assert list(r.scores) == [sum(x[p] for x in r.round_scores) for p in range(2)]


def test_the_record_replays_the_game() -> None:
    """A record's seed is the deal: new_game(rules, record.seed) starts the same game."""
    rec = sim.play_game("rummy101", ["random"] * 4, 5, 2)
    assert rec.seed == sim.game_seed(5, 2)
    again = sim.play_game("rummy101", ["random"] * 4, 5, 2)
    assert again == rec


def run_cli(argv: list[str]) -> int:
    from rummy101.cli import sim as cli_sim
    parser = argparse.ArgumentParser(prog="rummy101")
    cli_sim.add_subcommands(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return int(args.func(args))


def test_cli_output_files(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "results.jsonl"
    argv = ["sim", "--rules", "rummy101", "--bots", "greedy,random,random,random", "--games", "4",
            "--seed", "9", "--workers", "1", "--quiet"]
    assert run_cli([*argv, "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "95% CI (Wilson)" in text and "greedy" in text and "wrote 4 records" in text
    assert "finish rate" in text and "best rate" in text and "stock exhausted with no winner" in text
    recs = [json.loads(x) for x in out.read_text().splitlines()]
    want = sim.simulate("rummy101", "greedy,random,random,random", 4, 9, workers=1, progress=False)
    assert recs == [r.to_json() for r in want.records]
    assert recs[0]["bots"] == ["greedy", "random", "random", "random"]
    csv_out = tmp_path / "results.csv"
    assert run_cli([*argv, "--out", str(csv_out)]) == 0
    lines = csv_out.read_text().splitlines()
    assert lines[0].startswith("game,seed,rules,best,rounds,steps,bot_0,score_0,turns_0")
    assert len(lines) == 5


def test_cli_runs_on_built_in_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    """`rummy101 sim` with no options: one greedy bot against random bots in every other seat."""
    assert run_cli(["sim", "--games", "2", "--workers", "1", "--quiet"]) == 0
    assert "bots greedy,random,random,random" in capsys.readouterr().out
    assert run_cli(["sim", "--rules", "rummy101(players=2)", "--games", "1", "--workers", "1",
                    "--quiet"]) == 0
    assert "bots greedy,random" in capsys.readouterr().out


def test_dask_local_cluster() -> None:
    """Dask distributed (the optional extra rummy101[dask]): client.get_executor() runs the
    simulation with the same results. One in-process worker keeps it small for CI."""
    distributed = pytest.importorskip("distributed")
    want = sim.simulate("rummy101", "random,random,random,random", 6, seed=2, workers=1,
                        progress=False)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        got = sim.simulate("rummy101", "random,random,random,random", 6, seed=2,
                           executor=client.get_executor(), progress=False)
    assert got.records == want.records


def test_greedy_beats_random() -> None:
    """Greedy in seat 0 against three random bots finishes at least as often as any of them and
    has the best final standing far more often than its 1/4 share (seeded, so the outcome is
    reproducible; the margin makes it robust to engine changes)."""
    n = 60 if FAST else 12
    res = sim.simulate("rummy101", "greedy,random,random,random", n, seed=101, workers=1,
                       progress=False)
    g = res.seats[0]
    # Four players leave 21 stock tiles, so most rounds run out with nobody finishing (R101-13);
    # those rounds have no winner, and greedy's "best score" there only means losing least.
    assert g.finished >= 1 and g.finished >= max(s.finished for s in res.seats[1:])
    assert g.best >= n // 2                 # the best final standing in most games
    assert g.best_ci95[0] > 0.25            # better than an equal 1/4 share, at 95%
    assert all(g.mean_score > s.mean_score for s in res.seats[1:])
    # R101-13: an exhausted round has no winner: finishes and exhausted rounds add up to rounds
    assert sum(s.finished for s in res.seats) + res.exhausted == res.rounds == n
    for r in res.records:
        if r.finishes == ("exhausted",):
            assert r.finishers == (None,)
        else:
            assert r.finishers[0] == r.best  # a finisher gains, every other seat loses


@pytest.mark.parametrize("rules, rule", [("rummy101(players=2)", "R101-13"),
                                         ("remi(players=2)", "RO-10"),
                                         ("classic(players=2)", "CR-5")])
def test_summary_cites_the_variants_exhaustion_rule(rules: str, rule: str) -> None:
    """A round with no winner ends by R101-13, RO-10 (the stock out after its one reshuffle) or
    CR-5 (the second exhaustion), whichever game was simulated."""
    text = sim.format_summary(sim.simulate(rules, "random,random", 2, 3, workers=1, progress=False))
    assert "stock exhausted with no winner" in text and f"({rule}); round endings" in text


@pytest.mark.parametrize("rules, finish, other", [("rummy101(players=2)", "R101-12", "CR-"),
                                                  ("remi(players=2)", "RO-13", "R101-"),
                                                  ("classic(players=2)", "CR-4", "R101-")])
def test_summary_legend_cites_the_variants_finish_rule(rules: str, finish: str,
                                                        other: str) -> None:
    """The legend under the table ("finished = rounds won by finishing (...)", "normal = ...")
    cited Rummy 101's R101-12 for a Remi or classic run too."""
    text = sim.format_summary(sim.simulate(rules, "greedy,greedy", 4, 3, workers=1,
                                           progress=False))
    legend = text.split("round endings:", 1)[1]
    assert f"finished = rounds won by finishing ({finish})" in legend
    assert other not in legend

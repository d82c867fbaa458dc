"""The simulation runner's own mechanics (seeds, ordering, statistics, output files, errors),
checked on a tiny race game whose every outcome is known in advance, so that the expected figures
can be computed by hand. The runner on the real engines is tested in test_sim.py."""

from __future__ import annotations

import concurrent.futures as cf
import csv
import io
import json
import math
import random
import sys
from dataclasses import dataclass
from typing import Any

import pytest
from rummy101 import RulesError, sim
from rummy101.bots import Bot, BotError, get_bot
from rummy101.bots import base as bots_base
from rummy101.rules import Rules
from rummy101.sim import runner


@dataclass(frozen=True)
class Step:
    n: int

    def __str__(self) -> str:
        return f"step {self.n}"


class Race:
    """Seats take turns moving 1 or 2 squares; the first to reach ``GOAL`` wins the round
    (+10, others -distance left). A seed-derived handicap moves seat ``seed % players`` 1 square
    ahead at the start. Matches of several rounds add the rounds up."""

    GOAL = 6

    def __init__(self, players: int, seed: int, rounds: int) -> None:
        self.players, self.seed, self.rounds_left = players, seed, rounds
        self.results: list[dict[str, Any]] = []
        self._deal()

    def _deal(self) -> None:
        self.pos = [0] * self.players
        self.pos[self.seed % self.players] = 1
        self.current_player = len(self.results) % self.players

    @property
    def is_terminal(self) -> bool:
        return self.rounds_left == 0

    def legal_actions(self) -> list[Step]:
        return [Step(1), Step(2)]

    def observation(self, seat: int) -> dict[str, Any]:
        return {"seat": seat, "pos": list(self.pos)}

    def apply(self, a: Step) -> None:
        s = self.current_player
        self.pos[s] += a.n
        if self.pos[s] >= self.GOAL:
            scores = [10 if p == s else -(self.GOAL - self.pos[p]) for p in range(self.players)]
            self.results.append({"end": "finish", "winner": s, "joker_finish": a.n == 2 and s == 3,
                                 "one_turn": False, "scores": scores})
            self.rounds_left -= 1
            if self.rounds_left:
                self._deal()
        else:
            self.current_player = (s + 1) % self.players

    def round_scores(self) -> list[list[int]]:
        return [r["scores"] for r in self.results]

    def round_results(self) -> list[dict[str, Any]]:
        return self.results

    def standings(self) -> list[int]:
        return [sum(r["scores"][p] for r in self.results) for p in range(self.players)]


class Always2(Bot):
    name = "always2"

    def act(self, observation: Any, legal_actions: Any) -> Any:
        return legal_actions[1]


class Coin(Bot):
    name = "coin"

    def act(self, observation: Any, legal_actions: Any) -> Any:
        return self.rng.choice(legal_actions)


@pytest.fixture
def race(monkeypatch: pytest.MonkeyPatch) -> None:
    """Play the race instead of the engine (in this process, and in forked pool workers)."""
    monkeypatch.setattr(runner, "_new_game", lambda rules, seed, rounds: Race(rules.players, seed, rounds))
    monkeypatch.setitem(bots_base._REGISTRY, "always2", Always2)
    monkeypatch.setitem(bots_base._REGISTRY, "coin", Coin)


def expected_always2(seed: int, games: int, players: int = 4) -> list[list[int]]:
    """Hand computation of the race with every seat moving 2: the seat with the handicap
    needs 3 moves like the others unless it starts 1 ahead of an odd goal... with GOAL 6 a seat at
    1 still needs 3 moves, so seat 0 (first mover) always wins: +10, the others stand at 4 (or 5
    with the handicap, seats after 0 having moved twice) ."""
    out = []
    for i in range(games):
        h = sim.game_seed(seed, i) % players
        scores = [10] + [-(Race.GOAL - (4 + (1 if p == h else 0))) for p in range(1, players)]
        out.append(scores)
    return out


def test_game_seed_is_stable_and_documented() -> None:
    import hashlib
    want = int.from_bytes(hashlib.sha256(b"rummy101-game:7:3").digest()[:8], "big") >> 1
    assert sim.game_seed(7, 3) == want
    assert sim.bot_seed(7, 3, 1) == int.from_bytes(
        hashlib.sha256(b"rummy101-bot:7:3:1").digest()[:8], "big") >> 1
    assert len({sim.game_seed(1, i) for i in range(1000)}) == 1000


def test_known_small_run_statistics(race: None) -> None:
    res = sim.simulate("rummy101", "always2,always2,always2,always2", 10, seed=5, workers=1,
                       progress=False)
    want = expected_always2(5, 10)
    assert [list(r.scores) for r in res.records] == want
    assert [r.game for r in res.records] == list(range(10))
    s0, s1 = res.seats[0], res.seats[1]
    assert (s0.best, s0.best_rate, s0.mean_score, s0.sd_score) == (10, 1.0, 10.0, 0.0)
    assert (s0.finished, s0.rounds, s0.finish_rate) == (10, 10, 1.0)
    assert (s1.finished, s1.finish_rate, s1.best) == (0, 0.0, 0)
    assert s0.finishes == {"normal": 10} and s1.finishes == {}
    assert s0.mean_turns_per_round == 3.0 and s1.mean_turns_per_round == 2.0
    assert s0.finish_ci95 == s0.best_ci95
    lo, hi = s0.best_ci95
    assert hi == pytest.approx(1.0) and lo == pytest.approx(10 / (10 + 1.959963984540054 ** 2))
    col = [w[1] for w in want]
    mean = sum(col) / 10
    assert s1.mean_score == pytest.approx(mean)
    assert s1.sd_score == pytest.approx(math.sqrt(sum((x - mean) ** 2 for x in col) / 9))
    assert (s1.min_score, s1.max_score) == (min(col), max(col))
    assert res.ties == 0 and res.finish_counts == {"normal": 10}
    text = res.summary()
    assert "always2" in text and "[0.722, 1.000]" in text


class Stall(Race):
    """The race, except that a round in which nobody reaches the goal within 2 moves per seat is
    exhausted: no winner, everyone loses the distance left (as R101-13's exhausted round)."""

    def __init__(self, players: int, seed: int, rounds: int) -> None:
        self.moves = 0
        super().__init__(players, seed, rounds)

    def apply(self, a: Step) -> None:
        s = self.current_player
        self.moves += 1
        if self.pos[s] + a.n >= self.GOAL:
            self.moves = 0
        elif self.moves >= 2 * self.players:
            self.pos[s] += a.n
            self.results.append({"end": "exhausted", "winner": None, "joker_finish": False,
                                 "one_turn": False,
                                 "scores": [-(self.GOAL - p) for p in self.pos]})
            self.rounds_left -= 1
            self.moves = 0
            if self.rounds_left:
                self._deal()
            return
        Race.apply(self, a)


def test_exhausted_rounds_have_no_winner_and_best_is_apart(
        race: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 8 / R101-13: with every seat moving 1, nobody reaches the goal in 2 moves: every
    round is exhausted. Nobody finished, yet the handicapped seat has the best score in every
    game: the summary reports 0 finishes for it and the best score apart."""
    monkeypatch.setattr(runner, "_new_game", lambda rules, seed, rounds: Stall(rules.players, seed, rounds))
    monkeypatch.setitem(bots_base._REGISTRY, "always1", type(
        "Always1", (Bot,), {"name": "always1", "act": lambda self, o, legal: legal[0]}))
    res = sim.simulate("rummy101", "always1,always1,always1,always1", 12, seed=2, workers=1,
                       progress=False)
    assert res.finish_counts == {"exhausted": 12} and res.exhausted == 12 and res.rounds == 12
    assert all(r.finishers == (None,) and r.finishes == ("exhausted",) for r in res.records)
    assert all(st.finished == 0 and st.finish_rate == 0.0 and st.finishes == {} for st in res.seats)
    handicap = [sim.game_seed(2, i) % 4 for i in range(12)]
    assert [r.best for r in res.records] == handicap
    assert [st.best for st in res.seats] == [handicap.count(p) for p in range(4)]
    assert sum(st.best for st in res.seats) == 12 and res.ties == 0
    text = res.summary()
    assert "0/12" in text and "stock exhausted with no winner 12" in text
    assert "finish rate" in text and "best rate" in text and "win" not in text.split("\n")[1]


def test_match_rounds_add_up(race: None) -> None:
    res = sim.simulate("rummy101", ["always2"] * 4, 3, seed=1, workers=1, progress=False,
                       match_rounds=4)
    for r in res.records:
        assert r.rounds == 4
        assert list(r.scores) == [sum(rs[p] for rs in r.round_scores) for p in range(4)]
        assert r.finishers == (0, 1, 2, 3)   # the starter rotates, and the starter wins
        assert r.finishes == ("normal", "normal", "normal", "joker")


def test_same_results_whatever_the_workers(race: None) -> None:
    bots = "coin,coin,always2,coin"
    one = sim.simulate("rummy101", bots, 40, seed=11, workers=1, progress=False)
    two = sim.simulate("rummy101", bots, 40, seed=11, workers=2, progress=False)
    with cf.ThreadPoolExecutor(3) as ex:
        thr = sim.simulate("rummy101", bots, 40, seed=11, executor=ex, progress=False)
    assert one.records == two.records == thr.records
    assert one.seats == two.seats == thr.seats
    other = sim.simulate("rummy101", bots, 40, seed=12, workers=1, progress=False)
    assert other.records != one.records


def test_outputs(race: None, tmp_path: Any) -> None:
    res = sim.simulate("rummy101", "coin,coin,coin,coin", 5, seed=3, workers=1, progress=False)
    assert sim.write_records(res.records, tmp_path / "r.jsonl") == "jsonl"
    lines = (tmp_path / "r.jsonl").read_text().splitlines()
    assert [json.loads(x) for x in lines] == [r.to_json() for r in res.records]
    assert json.loads(lines[2])["game"] == 2 and json.loads(lines[2])["bots"] == ["coin"] * 4
    assert sim.write_records(res.records, tmp_path / "r.CSV") == "csv"
    with open(tmp_path / "r.CSV") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 5
    assert [int(r["score_3"]) for r in rows] == [r.scores[3] for r in res.records]
    assert rows[0]["finishes"] == "normal"
    with pytest.raises(sim.SimError, match=r"r\.txt'.*accepted: \.jsonl, \.csv"):
        sim.write_records(res.records, tmp_path / "r.txt")


@pytest.mark.parametrize("kwargs, message", [
    ({"bots": "coin,coin,nobot,coin"}, r"unknown bot name 'nobot'.*accepted bots: .*coin.*random"),
    ({"bots": "coin,coin"}, r"2 bots given.*4 players"),
    ({"games": 0}, r"games must be a whole number >= 1, got 0"),
    ({"workers": 0}, r"workers must be a whole number >= 1, got 0"),
    ({"match_rounds": 0}, r"match_rounds must be"),
])
def test_bad_arguments(race: None, kwargs: dict[str, Any], message: str) -> None:
    args: dict[str, Any] = {"rules": "rummy101", "bots": "coin,coin,coin,coin", "games": 2, "workers": 1,
                                "progress": False}
    args.update(kwargs)
    with pytest.raises(sim.SimError, match=message):
        sim.simulate(**args)


def test_unknown_rules_lists_variants() -> None:
    with pytest.raises(RulesError, match=r"'poker'.*rummy101, remi, classic"):
        sim.simulate("poker", "random,random", 1)
    with pytest.raises(RulesError, match=r"'players'.*2 to 4"):
        sim.simulate("rummy101(players=5)", "random,random", 1)


@pytest.mark.parametrize("rules", ["chess", "remi(tabla=maybe)", "rummy101(", "classic(target=0)"])
def test_a_rules_error_is_said_once(rules: str) -> None:
    """The rules' own message, as `rummy101 sim` without --bots prints it: simulate wrapped it in
    'unknown rules for simulation: ... (accepted variants: rummy101, remi, classic)', which
    called a bad option value of a known variant unknown rules and listed the variants twice."""
    with pytest.raises(RulesError) as simulated:
        sim.simulate(rules, "random,random", 1, workers=1)
    with pytest.raises(RulesError) as parsed:
        Rules.parse(rules)
    assert str(simulated.value) == str(parsed.value)
    assert "unknown rules" not in str(simulated.value)
    assert str(simulated.value).count("rummy101, remi, classic") <= 1


def test_bot_errors_are_value_errors() -> None:
    with pytest.raises(BotError, match="accepted bots"):
        get_bot("nope", random.Random(0))
    assert issubclass(sim.SimError, ValueError) and issubclass(BotError, ValueError)


def test_a_looping_game_is_reported(race: None, monkeypatch: pytest.MonkeyPatch) -> None:
    class Never(Race):
        def apply(self, a: Step) -> None:
            self.current_player = (self.current_player + 1) % self.players
    monkeypatch.setattr(runner, "_new_game", lambda rules, seed, rounds: Never(4, seed, rounds))
    with pytest.raises(RuntimeError, match="did not end within 50 steps"):
        sim.play_game("rummy101", ["coin"] * 4, 0, max_steps=50)


def run_cli(argv: list[str]) -> int:
    """A tiny argparse harness standing in for ``rummy101`` (rummy101.cli) around our subcommand."""
    import argparse

    from rummy101.cli import sim as cli_sim
    parser = argparse.ArgumentParser(prog="rummy101")
    cli_sim.add_subcommands(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return int(args.func(args))


def test_cli_writes_jsonl_and_csv(race: None, tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "res.jsonl"
    assert run_cli(["sim", "--bots", "always2,always2,always2,always2", "--games", "6",
                    "--seed", "5", "--workers", "1", "--out", str(out)]) == 0
    printed = capsys.readouterr()
    assert "always2" in printed.out and "wrote 6 records" in printed.out
    assert printed.err == ""                      # no progress bar when not a terminal
    recs = [json.loads(x) for x in out.read_text().splitlines()]
    assert [r["scores"] for r in recs] == expected_always2(5, 6)
    out2 = tmp_path / "res.csv"
    assert run_cli(["sim", "--bots", "always2,always2,always2,always2", "--games", "6",
                    "--seed", "5", "--workers", "2", "--quiet", "--out", str(out2)]) == 0
    with open(out2) as fh:
        rows = list(csv.DictReader(fh))
    assert [[int(r[f"score_{s}"]) for s in range(4)] for r in rows] == expected_always2(5, 6)


@pytest.mark.parametrize("argv, message", [
    (["--bots", "coin,coin,coin,zzz"], "unknown bot name 'zzz'"),
    # options written as the rules' are: the name and its options as the error's example
    (["--bots", "search(playouts=3),coin,coin,coin"],
     (r"unknown bot name 'search\(playouts=3\)'.*; a bot's options follow colons, not "
     r"parentheses as the rules' do: write 'search:playouts=3' \(name:option=value")),
    (["--bots", "Search(playouts=3, turns=0),coin,coin"],  # the comma cut the options in two
     r"unknown bot names 'search\(playouts=3', 'turns=0\)'.*write 'search:playouts=3:turns=0'"),
    (["--bots", "coin(),coin,coin,coin"], r"unknown bot name 'coin\(\)'.*write 'coin' \("),
    (["--bots", "coin,coin,coin,coin", "--games", "0"], "--games 0 is not a number of games"),
    (["--bots", "coin,coin,coin,coin", "--workers", "0"], "--workers 0 is not a number of worker"),
    (["--bots", "coin,coin,coin,coin", "--rules", "chess"], "unknown variant 'chess'.*rummy101, remi, classic"),
    (["--bots", "coin,coin,coin,coin", "--out", "x.parquet"], r"accepted: \.jsonl, \.csv"),
])
def test_cli_bad_input_exits_2(race: None, capsys: pytest.CaptureFixture[str], argv: list[str],
                               message: str) -> None:
    import re
    assert run_cli(["sim", "--quiet", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("rummy101 sim: error: ") and re.search(message, err)


def test_dask_local_cluster_executor(race: None) -> None:
    """A Dask distributed LocalCluster works as the executor (client.get_executor())."""
    distributed = pytest.importorskip("distributed")
    bots = "coin,coin,always2,coin"
    want = sim.simulate("rummy101", bots, 12, seed=4, workers=1, progress=False)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        got = sim.simulate("rummy101", bots, 12, seed=4, executor=client.get_executor(),
                           progress=False)
    assert got.records == want.records and got.seats == want.seats


class FakeTTY(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_only_on_a_terminal(race: None, monkeypatch: pytest.MonkeyPatch) -> None:
    tty = FakeTTY()
    monkeypatch.setattr(sys, "stderr", tty)
    sim.simulate("rummy101", "coin,coin,coin,coin", 5, seed=1, workers=1)
    assert "5/5" in tty.getvalue() and "game" in tty.getvalue()
    quiet = FakeTTY()
    monkeypatch.setattr(sys, "stderr", quiet)
    sim.simulate("rummy101", "coin,coin,coin,coin", 5, seed=1, workers=1, progress=False)
    assert quiet.getvalue() == ""
    pipe = io.StringIO()                                # not a terminal: no bar
    monkeypatch.setattr(sys, "stderr", pipe)
    sim.simulate("rummy101", "coin,coin,coin,coin", 5, seed=1, workers=1)
    assert pipe.getvalue() == ""


# (the fork below is called from this test's module: pyproject's filter names multiprocessing's)
@pytest.mark.filterwarnings("ignore:This process .* is multi-threaded:DeprecationWarning")
def test_the_bar_starts_no_thread_before_the_pool_forks(race: None,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The pool forks its workers after the bar is drawn: tqdm's monitor thread was running
    then, so a run on a terminal forked a multi-threaded process (unsafe; Python 3.12 and 3.13
    warn: "This process ... is multi-threaded, use of fork() may lead to deadlocks in the
    child"). The run starts no thread of its own before its workers are forked."""
    import os
    import threading

    before = set(threading.enumerate())
    at_fork: list[set[threading.Thread]] = []
    real_fork = os.fork

    def fork() -> int:
        at_fork.append(set(threading.enumerate()) - before)
        return real_fork()

    monkeypatch.setattr(os, "fork", fork)
    tty = FakeTTY()
    monkeypatch.setattr(sys, "stderr", tty)
    res = sim.simulate("rummy101", "coin,coin,coin,coin", 8, seed=1, workers=2)
    assert res.games == 8 and "8/8" in tty.getvalue()
    if not at_fork:
        pytest.skip("the pool did not fork (start method not fork)")
    assert all(not new for new in at_fork), [sorted(t.name for t in new) for new in at_fork]


def test_the_bars_rate_is_steady_when_chunks_arrive_in_bursts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two workers hand in their chunks unevenly: here 64 games 0.2 s after the last chunk,
    then 64 after 1.8 s, 64 games a second on average. tqdm's default smoothing (0.3, the last
    few refreshes) showed 56 then 75 game/s by turns, and on a real 100,000-game run an ETA that
    went 6:47, 8:12, 10:05 within two seconds; the bar averages over about 20 refreshes: every
    rate shown after the first few is within 10% of the true 64."""
    tty = FakeTTY()
    monkeypatch.setattr(sys, "stderr", tty)
    now = [0.0]
    bar = runner._progress(100_000, True)
    bar._time = lambda: now[0]
    bar.start_t = bar.last_print_t = 0.0
    rates = []
    for i in range(200):
        now[0] += 0.2 if i % 2 == 0 else 1.8
        bar.update(64)
        rates.append(bar.format_dict["rate"])
    bar.close()
    assert all(abs(r / 64 - 1) < 0.1 for r in rates[100:]), (min(rates[100:]), max(rates[100:]))


def test_progress_lines_when_not_a_terminal(race: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """A run logged to a file (nohup, a batch job) showed nothing until its end: it now gets a
    plain line (no carriage returns) at most every LOG_EVERY_SECONDS, here every chunk."""
    from rummy101.sim import runner
    monkeypatch.setattr(runner, "LOG_EVERY_SECONDS", 0.0)
    pipe = io.StringIO()
    monkeypatch.setattr(sys, "stderr", pipe)
    sim.simulate("rummy101", "coin,coin,coin,coin", 6, seed=1, workers=1)
    lines = pipe.getvalue().splitlines()
    assert lines and "\r" not in pipe.getvalue(), pipe.getvalue()
    assert all(line.startswith("sim: ") and "/6 games" in line and "s left" in line
               for line in lines), lines
    assert not any(line.startswith("sim: 6/6") for line in lines)  # the summary says the end
    quiet = io.StringIO()
    monkeypatch.setattr(sys, "stderr", quiet)
    sim.simulate("rummy101", "coin,coin,coin,coin", 6, seed=1, workers=1, progress=False)
    assert quiet.getvalue() == ""


@pytest.mark.parametrize("method", ["fork", "spawn", "forkserver"])
def test_the_pool_runs_under_every_start_method(method: str) -> None:
    """Workers set up to die with the run (sim.runner._die_with_parent) must not refuse to
    start when the run is not their parent: a fork server (Linux's default from Python 3.14)
    is. Under forkserver every worker exited at start-up and the pool broke."""
    import os
    import subprocess

    script = ("import multiprocessing as mp, sys\n"
              "if __name__ == '__main__':\n"
              f"    mp.set_start_method({method!r})\n"
              "    from rummy101.sim import simulate\n"
              "    r = simulate('rummy101', 'greedy,random,random,random', 6, seed=3, workers=2,"
              " progress=False)\n"
              "    one = simulate('rummy101', 'greedy,random,random,random', 6, seed=3, workers=1,"
              " progress=False)\n"
              "    print(r.games, r.records == one.records)\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    out = subprocess.run([sys.executable, "-c", script], check=False, capture_output=True,
                         text=True, timeout=300, env=env)
    assert out.returncode == 0 and out.stdout.split() == ["6", "True"], out.stderr[-2000:]

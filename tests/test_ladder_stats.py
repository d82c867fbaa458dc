"""bench/ladder.py's statistics (docs/bots.md "Strength ladder"): the finish rate is per round
played, its interval allows for the seats of one deal not being independent, one deal prints no
interval rather than infinities, and --summarise counts each record once."""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import math
import sys
from pathlib import Path
from types import ModuleType

import pytest
from rummy101.sim import GameFailed, wilson_interval

ROOT = Path(__file__).resolve().parents[1]


def _ladder() -> ModuleType:
    spec = importlib.util.spec_from_file_location("ladder_under_test", ROOT / "bench" / "ladder.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


ladder = _ladder()


@pytest.fixture(autouse=True)
def _registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bots a test registers (forked to the pool's workers) stay with the test: a later
    test in the same process lists the registered names (rummy101.bots' doctest)."""
    from rummy101.bots import base
    monkeypatch.setattr(base, "_REGISTRY", dict(base._REGISTRY))
    monkeypatch.setattr(base, "_OPTIONS", dict(base._OPTIONS))


def seat(deal: int, k: int, finished: int, rounds: int = 1, points: float = 0.0,
         baseline: float = 0.0, bot: str = "cand") -> object:
    return ladder.Seat(bot, deal, k, points, baseline, finished, 0, 0.0, 0.0, rounds)


def test_finish_rate_counts_rounds_not_games_with_a_finish() -> None:
    """With --rounds 3 the rate was (games with at least one finish) / games: greedy against
    greedy, 2 seats, 30 deals, seed 1, printed 88.3% (above the 50% two seats can share);
    it is 84 finishes of 180 rounds, 46.7%."""
    seats = [seat(0, 0, 2, 3), seat(0, 1, 1, 3), seat(1, 0, 0, 3), seat(1, 1, 3, 3)]
    assert ladder.finish_interval(seats)[:2] == (6, 12)
    assert " 50.0% [" in ladder.summary("cand", seats)
    got = ladder.deal_task("rummy101(players=2)", "greedy", "greedy", 1, 0, 3)
    for s in got:
        assert s.rounds == 3 and 0 <= s.finished <= 3 and not isinstance(s.finished, bool)
    # greedy against greedy is the baseline game itself: its finishers are the round results
    _, finishers, _ = ladder.play("rummy101(players=2)", ["greedy", "greedy"], 1, 0, 3)
    assert [s.finished for s in got] == [finishers.count(0), finishers.count(1)]


def test_finish_interval_is_clustered_by_deal() -> None:
    """The candidate plays every seat of a deal, so its rounds are not independent trials.
    Seats that all finish or all fail together (a design effect of 4 with 4 seats) carry the
    information of one trial per deal: the interval is the Wilson interval of the deals, not of
    the seats; seats that are no more alike than independent ones keep the plain interval."""
    together = [seat(d, k, int(d % 5 == 0)) for d in range(40) for k in range(4)]
    fin, rounds, lo, hi = ladder.finish_interval(together)
    assert (fin, rounds) == (32, 160)
    # design effect 4 * 40/39 (the clustered variance's small-sample factor g/(g-1)): 39
    # effective rounds, about the 40 deals' own Wilson interval
    assert (lo, hi) == pytest.approx(ladder._wilson(0.2, 39.0))
    wlo, whi = wilson_interval(8, 40)
    assert math.isclose(lo, wlo, rel_tol=0.02) and math.isclose(hi, whi, rel_tol=0.02)
    plain = wilson_interval(32, 160)
    assert hi - lo > 1.9 * (plain[1] - plain[0])
    apart = [seat(d, k, int(k == d % 4)) for d in range(40) for k in range(4)]  # one a deal
    assert ladder.finish_interval(apart)[2:] == pytest.approx(wilson_interval(40, 160))
    assert ladder.finish_interval([seat(d, k, 0) for d in range(10) for k in range(4)])[2:] == \
        wilson_interval(0, 40)


def test_one_deal_prints_no_infinite_interval() -> None:
    line = ladder.summary("cand", [seat(0, k, 0, points=-10.0 * k) for k in range(4)])
    assert "inf" not in line and "(1 deal)" in line


def test_summarise_counts_a_record_once_and_refuses_two_runs(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    a = tmp_path / "a.jsonl"
    rows = [seat(d, k, int(k == 0), points=5.0 * k, baseline=1.0) for d in range(3) for k in range(2)]
    a.write_text("".join(json.dumps(dataclasses.asdict(s)) + "\n" for s in rows))
    got = ladder.read_seats([str(a), str(a)])   # the same file twice
    assert len(got["cand"]) == 6
    assert "6 record(s) read more than once" in capsys.readouterr().err
    assert ladder.main(["--summarise", str(a), str(a)]) == 0
    assert " 50.0% [" in capsys.readouterr().out        # 3 of 6, not 6 of 12 (same rate,
    other = tmp_path / "b.jsonl"                        # narrower interval)
    other.write_text(json.dumps(dataclasses.asdict(seat(0, 0, 0, points=-99.0))) + "\n")
    with pytest.raises(SystemExit, match="two different runs"):
        ladder.read_seats([str(a), str(other)])


def test_old_files_without_rounds_read_as_one_round_games(tmp_path: Path) -> None:
    old = {"bot": "cand", "deal": 0, "seat": 0, "points": 1.0, "baseline": 0.0,
           "finished": True, "decisions": 0, "seconds": 0.0, "cpu_seconds": 0.0}
    p = tmp_path / "old.jsonl"
    p.write_text(json.dumps(old) + "\n" + json.dumps({**old, "seat": 1, "finished": False}) + "\n")
    seats = ladder.read_seats([str(p)])["cand"]
    assert ladder.finish_interval(seats)[:2] == (1, 2)


# The points interval, the paired difference and the baseline, checked against numbers worked by
# hand (mutation test, qa-h4: the standard error over seats instead of deals, t with `deals`
# degrees of freedom instead of deals - 1, the population sd in the paired interval and every
# seat's baseline read from seat 0 all passed the tests above).
T975 = {2: 4.302653, 3: 3.182446}  # Student t, 0.975 quantile (scipy.stats.t.ppf(0.975, df))


def _interval(text: str) -> tuple[float, float]:
    """The first ``[lo, hi]`` printed in ``text``."""
    lo, hi = text.split("[", 1)[1].split("]", 1)[0].split(",")
    return float(lo), float(hi)


def test_points_interval_is_over_deals_with_deals_minus_1_degrees_of_freedom() -> None:
    # 3 deals x 2 seats, points - baseline per seat: deal 0 (10, 30), deal 1 (-10, 10),
    # deal 2 (40, 80); the deal means 20, 0, 60 are the 3 observations
    diffs = {0: (10.0, 30.0), 1: (-10.0, 10.0), 2: (40.0, 80.0)}
    seats = [seat(d, k, 0, points=5.0 + x, baseline=5.0) for d, xs in diffs.items()
             for k, x in enumerate(xs)]
    cluster = [20.0, 0.0, 60.0]
    mean = sum(cluster) / 3
    sd = math.sqrt(sum((c - mean) ** 2 for c in cluster) / 2)       # n - 1
    half = T975[2] * sd / math.sqrt(3)                                # 3 deals, not 6 seats
    line = ladder.summary("cand", seats)
    assert f"{mean:+8.1f}" in line
    assert f" {5.0 + mean:+8.1f}  " in line  # pts/round: the candidate's points, not the difference
    assert _interval(line) == pytest.approx((mean - half, mean + half), abs=0.051)


def test_paired_difference_of_two_bots_by_hand() -> None:
    # bots a and b on the same 4 deals (same baselines); per deal the mean over its 2 seats of
    # a's points minus b's: 3, -1, 7, 5
    a = [seat(d, k, 0, points=p, baseline=-1.0, bot="a")
         for d, pts in enumerate(((4, 2), (0, -2), (10, 4), (6, 4))) for k, p in enumerate(pts)]
    b = [seat(d, k, 0, points=0.0, baseline=-1.0, bot="b") for d in range(4) for k in range(2)]
    diffs = [3.0, -1.0, 7.0, 5.0]
    mean = sum(diffs) / 4
    sd = math.sqrt(sum((x - mean) ** 2 for x in diffs) / 3)
    half = T975[3] * sd / 2
    line = ladder.paired("a", a, "b", b)
    assert f"{mean:+.1f} [" in line and "over 4 common deals" in line
    assert _interval(line) == pytest.approx((mean - half, mean + half), abs=0.051)


def test_each_seat_is_paired_with_the_baseline_of_its_own_seat() -> None:
    rules, rounds = "rummy101(players=2)", 2  # points and baselines are per round
    base, _, _ = ladder.play(rules, ["greedy", "greedy"], 3, 0, rounds)
    assert base[0] != base[1]  # one seat finished: the seats' baselines differ
    got = ladder.deal_task(rules, "random", "greedy", 3, 0, rounds)
    for s in got:
        alone, _, _ = ladder.play(rules, ["random" if q == s.seat else "greedy" for q in range(2)],
                                  3, 0, rounds)
        assert (s.seat, s.points, s.baseline) == (s.seat, alone[s.seat] / rounds,
                                                  base[s.seat] / rounds)


class _DiscardsAbsent:
    """Answers the first legal action, then, at its first discard, a card of a tile deck."""

    name = "absent"

    def __init__(self, rng: object = None) -> None:
        self.rng = rng

    def act(self, observation: object, legal_actions: list) -> object:
        from rummy101.game import Action
        if any(a.verb == "discard" for a in legal_actions):
            return Action.parse("discard R1")  # classic is played with cards: refused (CR-1)
        return legal_actions[0]


class _Broken:
    def __init__(self, rng: object = None) -> None:
        raise RuntimeError("no config file")


def test_a_failing_bot_stops_the_ladder_in_one_line_naming_deal_seat_and_bot(
        capsys: pytest.CaptureFixture[str]) -> None:
    """docs/bots.md: a bot that answers an illegal action (or raises) stops the ladder with the
    simulator's GameFailed message, the deal, the seat, the bot as given and how to replay it,
    exit 2. Before, the worker's IllegalAction came back as a traceback with the engine's message
    only (no deal, seat or bot), once every other deal had been played."""
    from rummy101.bots import register_bot
    register_bot("ladder-absent", _DiscardsAbsent)  # the pool's workers are forked: they see it
    rules = "classic(players=2)"
    with pytest.raises(GameFailed, match=r"ladder deal 1, bots by seat greedy,ladder-absent: game 1 "
                                         r"of the run with seed 5 .*seat 1 \(absent bot\): "
                                         r"IllegalAction: discard R1"):
        ladder.play(rules, ["greedy", "ladder-absent"], 5, 1, 1)
    assert ladder.main(["--rules", rules, "--deals", "3", "--seed", "5",
                        "--bots", "ladder-absent", "--workers", "1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("ladder: error: ladder deal ") and "Traceback" not in err
    assert "(absent bot): IllegalAction: discard R1" in err and "Replay it with" in err


def test_a_bot_that_cannot_be_made_is_refused_before_any_game(
        capsys: pytest.CaptureFixture[str]) -> None:
    """A constructor that raises was a traceback (exit 1); now argparse's one line, exit 2."""
    from rummy101.bots import register_bot
    register_bot("ladder-broken", _Broken)
    with pytest.raises(SystemExit) as info:
        ladder.main(["--rules", "classic", "--deals", "2", "--bots", "ladder-broken"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert ("bot 'ladder-broken': making it with a random.Random failed: RuntimeError: no config "
            "file") in err and "Traceback" not in err
    with pytest.raises(SystemExit) as info:
        ladder.main(["--rules", "classic", "--deals", "2", "--bots", "no-such-bot"])
    assert info.value.code == 2 and "unknown bot 'no-such-bot'" in capsys.readouterr().err


class _Slow:
    """Random play, slowly: on two workers the other candidate's deal 0 finishes first."""

    name = "slow"

    def __init__(self, rng: object = None) -> None:
        import random as _random
        self.rng = rng if isinstance(rng, _random.Random) else _random.Random(0)

    def act(self, observation: object, legal_actions: list) -> object:
        import time
        time.sleep(0.01)
        return self.rng.choice(legal_actions)


def test_the_jsonl_file_lists_deals_and_bots_in_the_order_asked(tmp_path: Path) -> None:
    """--summarise pairs every bot against the first one of the file. Records were appended as
    their deals completed, so with two workers a file of --bots slow,random began with random's
    deal 0 and paired slow - random; they are appended in the order submitted (deal by deal, the
    --bots order within one): the file's first bot is the first of --bots."""
    from rummy101.bots import register_bot
    register_bot("ladder-slow", _Slow)
    out = tmp_path / "ladder.jsonl"
    assert ladder.main(["--rules", "classic(players=2)", "--deals", "2", "--seed", "1",
                        "--bots", "ladder-slow,random", "--workers", "2", "--jsonl", str(out)]) == 0
    got = [(r["deal"], r["bot"], r["seat"]) for r in map(json.loads, out.read_text().splitlines())]
    assert got == [(d, b, k) for d in range(2) for b in ("ladder-slow", "random") for k in range(2)]


def test_classic_difference_interval_stays_within_what_a_round_can_score() -> None:
    # classic(players=2), 1 round: a game scores 0 to 70 (CR-6: the other hand's 7 cards), so
    # a difference of points per round lies within ±70; two deals (t(1) = 12.7) reached past it
    bounds = ladder.difference_bounds("classic(players=2)", 1)
    assert bounds == (-70.0, 70.0)
    seats = [seat(0, k, 0, points=30.0, baseline=0.0) for k in range(2)]
    seats += [seat(1, k, 0, points=0.0, baseline=20.0) for k in range(2)]
    mean, lo, hi, deals = ladder.baseline_interval(seats)
    assert (mean, deals) == (5.0, 2) and lo < -70 and hi > 70
    assert ladder.baseline_interval(seats, bounds) == (5.0, -70.0, 70.0, 2)
    assert _interval(ladder.summary("cand", seats, bounds)) == (-70.0, 70.0)
    other = [dataclasses.replace(s, bot="b", points=s.baseline) for s in seats]
    line = ladder.paired("cand", seats, "b", other, bounds)
    assert _interval(line) == (-70.0, 70.0)
    # no bound where a side is unbounded (Rummy 101's penalties), and none without the rules
    assert ladder.difference_bounds("rummy101(players=2)", 1) == (-math.inf, math.inf)
    assert ladder.baseline_interval(seats) == (mean, lo, hi, deals)

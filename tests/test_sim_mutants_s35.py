"""Mutation round s35 on the simulator and its statistics (sim/, game/records.py): each test
here fails on a single planted change that the rest of the suite let pass, and derives its
expected figures by hand (the arithmetic is in the test, not read back from the code)."""

from __future__ import annotations

import concurrent.futures as cf
import dataclasses
import importlib.util
import io
import json
import math
import sys
from pathlib import Path
from types import ModuleType, SimpleNamespace

import pytest
from rummy101 import sim
from rummy101.cli import main
from rummy101.errors import IllegalAction
from rummy101.game import records
from rummy101.sim import runner
from rummy101.sim.report import drop_duplicates, format_report, group_records, summarise
from rummy101.sim.resume import read_run
from rummy101.sim.stats import SEATS_NOT_ROTATED


def _rec(**kw: object) -> sim.GameRecord:
    """A hand-made one-round record of two seats (bot seeds, so its key is the seeds)."""
    base: dict[str, object] = {
        "game": 0,
        "seed": 7,
        "rules": "rummy101(players=2)",
        "bots": ("greedy", "random"),
        "scores": (101, -50),
        "round_scores": ((101, -50),),
        "best": 0,
        "finishes": ("normal",),
        "finishers": (0,),
        "turns": (4, 3),
        "steps": 9,
        "run_seed": 1,
        "bot_seeds": (11, 12),
        "match_rounds": 1,
        "rummy101_version": "1.0",
    }
    base.update(kw)
    return sim.GameRecord(**base)  # type: ignore[arg-type]


def test_the_same_seeds_played_by_two_versions_are_two_games() -> None:
    """drop_duplicates' key holds the version that played the game: another version's engines
    or bots may play other games from the same seeds, and group_records puts them in groups of
    their own. A key without the version dropped the second version's game as a repeat, so its
    group lost a game (mutation s35: the key without ``rummy101_version`` passed the suite)."""
    old, new = (
        _rec(rummy101_version="1.0"),
        _rec(rummy101_version="1.1", scores=(-20, 20), round_scores=((-20, 20),), best=1),
    )
    kept, dropped = drop_duplicates([old, new, old])
    assert kept == [old, new] and dropped == 1
    groups, repeats = summarise([old, new, old])
    assert repeats == 1
    assert [(g.rummy101_version, g.games) for g in groups] == [("1.0", 1), ("1.1", 1)]


def test_one_classic_deal_under_two_caps_is_two_games() -> None:
    """A classic match plays to its target (CR-6) and --rounds only caps it: the same deal and
    bot seeds under cap 2 and cap 50 are two matches, each counted in its own group, even when
    both stopped after the same number of rounds (mutation s35: a key without the cap dropped
    the cap-50 match as a repeat of the cap-2 one, and the cap-50 group vanished)."""
    rules = "classic(players=2)"
    capped = _rec(
        rules=rules,
        round_scores=((10, -10), (91, -40)),
        finishes=("normal", "normal"),
        finishers=(0, 0),
        match_rounds=2,
    )
    longer = dataclasses.replace(capped, match_rounds=50)
    kept, dropped = drop_duplicates([capped, longer])
    assert kept == [capped, longer] and dropped == 0
    groups, repeats = summarise([capped, longer, longer])
    assert repeats == 1
    assert [(g.round_cap, g.games) for g in groups] == [(2, 1), (50, 1)]


def _three_games() -> list[sim.GameRecord]:
    """Seat 0 scores 10, 20, 30 (seat 1 the opposite): mean 20, sample sd 10."""
    return [
        _rec(
            game=g,
            seed=100 + g,
            bot_seeds=(2 * g, 2 * g + 1),
            scores=(x, -x),
            round_scores=((x, -x),),
        )
        for g, x in enumerate((10, 20, 30))
    ]


def test_report_prints_the_half_width_of_the_t_interval() -> None:
    """The points table's '± 95%' column is the half width, t(0.975, n-1) * sd / sqrt(n); the
    interval beside it is mean ± that. Scores 10, 20, 30: sd = sqrt((100 + 0 + 100) / 2) = 10,
    t(0.975, 2) = 4.302653, half = 4.302653 * 10 / sqrt(3) = 24.84 (mutation s35: the full
    width 49.7 printed under '± 95%' passed the suite)."""
    half = 4.302653 * 10 / math.sqrt(3)
    assert round(half, 1) == 24.8
    text = format_report(group_records(_three_games()))
    row = next(ln for ln in text.splitlines() if ln.split()[:2] == ["0", "greedy"] and "±" in ln)
    assert "± 24.8" in row and "[-4.8, 44.8]" in row, row
    assert "49.7" not in row


def test_wilson_interval_of_7_in_10_by_hand_at_95_and_at_z_1() -> None:
    """Wilson: centre (p + z²/2n) / (1 + z²/n), half z·sqrt(p(1-p)/n + z²/4n²) / (1 + z²/n).
    7 of 10 at z = 1.959964 (z² = 3.841459): denominator 1.384146, centre 0.892073 / 1.384146 =
    0.644493, half 1.959964 · sqrt(0.021 + 0.009604) / 1.384146 = 0.247715: [0.396778, 0.892209].
    At z = 1: denominator 1.1, centre 0.75 / 1.1 = 0.681818, half sqrt(0.0235) / 1.1 = 0.139361:
    [0.542457, 0.821179] (mutation s35: a z argument ignored in z² or in the half width, the
    95% figure used whatever was asked, passed the suite)."""
    lo, hi = sim.wilson_interval(7, 10)
    assert math.isclose(lo, 0.396778, abs_tol=1e-6) and math.isclose(hi, 0.892209, abs_tol=1e-6)
    lo, hi = sim.wilson_interval(7, 10, z=1.0)
    assert math.isclose(lo, 0.542457, abs_tol=1e-6) and math.isclose(hi, 0.821179, abs_tol=1e-6)


def test_summary_of_two_different_bots_says_seats_are_not_rotated() -> None:
    """Seat 0 starts the first round of every game and the simulator does not rotate seats, so a
    row of a mixed line-up measures its bot in its seat: the summary says so under any line-up
    of two or more different bots, not only of three (mutation s35: the note shown only for
    three different bots passed the suite), and not under one bot in every seat."""
    mixed = sim.simulate(
        "rummy101(players=2)", "greedy,random", 2, seed=3, workers=1, progress=False
    )
    assert SEATS_NOT_ROTATED in mixed.summary()
    same = sim.simulate(
        "rummy101(players=2)", "random,random", 2, seed=3, workers=1, progress=False
    )
    assert SEATS_NOT_ROTATED not in same.summary()


def test_merged_tally_keeps_the_run_seeds_of_both() -> None:
    """GameTally.merge sums two tallies as if every game had been added to one: the run seeds
    too (mutation s35: the merged tally kept only the other tally's seeds whenever it had any,
    and the suite passed)."""
    a, b, both = sim.GameTally(2), sim.GameTally(2), sim.GameTally(2)
    first, second = _rec(run_seed=1), _rec(run_seed=2, seed=8, bot_seeds=(13, 14))
    a.add(first)
    b.add(second)
    both.add_all([first, second])
    a.merge(b)
    assert a.run_seeds == both.run_seeds == {1, 2}
    assert (a.games, a.total, a.squares) == (2, [202, -100], [2 * 101**2, 2 * 50**2])


def _fails(rules: str, bots: list[str], max_steps: int) -> bool:
    try:
        sim.play_game(rules, bots, 5, 0, max_steps=max_steps)
    except sim.GameFailed:
        return True
    return False


def test_max_steps_is_the_most_steps_a_round_may_take() -> None:
    """A round that takes more than max_steps steps raises GameFailed: one that takes exactly
    max_steps is played, one step fewer is refused, in the Python flow (random bots) and when
    the round would be played natively (greedy bots, Issue 12: a native round longer than
    max_steps goes to the Python flow, which refuses it). Mutation s35: a bound one step looser,
    and the native round played whatever its length, passed the suite."""
    for bots in (["random", "random"], ["greedy", "greedy"]):
        steps = sim.play_game("rummy101(players=2)", bots, 5, 0).steps  # one round: its steps
        assert not _fails("rummy101(players=2)", bots, steps)
        assert _fails("rummy101(players=2)", bots, steps - 1)


def test_a_tie_for_the_best_standing_has_no_best_seat() -> None:
    """``best`` is the seat with the strictly highest final standing, None on a tie for first,
    and such games are counted as ties, not given to the first seat of the tie. Two random bots
    in Rummy 101 often both lose 202 (R101-13: the stock runs out with neither opened, and the
    penalty of a player who has not opened is 202); seed 1 has three such games of six. Mutation s35: the first
    seat of a tie taken as best passed the suite, a seat-0 advantage out of nothing."""
    res = sim.simulate("rummy101(players=2)", "random,random", 6, seed=1, workers=1, progress=False)
    tied = [r for r in res.records if r.scores[0] == r.scores[1]]
    assert len(tied) == 3 and all(r.best is None for r in tied)
    for r in res.records:
        if r.scores[0] != r.scores[1]:
            assert r.best == (0 if r.scores[0] > r.scores[1] else 1)
    assert res.ties == 3
    assert [st.best for st in res.seats] == [1, 2]


def _log_lines(monkeypatch: pytest.MonkeyPatch, **kw: object) -> list[str]:
    """The progress lines of a run logged to a file (not a terminal), one after every chunk."""
    monkeypatch.setattr(runner, "LOG_EVERY_SECONDS", 0.0)
    pipe = io.StringIO()
    monkeypatch.setattr(sys, "stderr", pipe)
    sim.simulate("rummy101(players=2)", "random,random", 6, seed=2, **kw)  # type: ignore[arg-type]
    return [line.split(" games")[0] for line in pipe.getvalue().splitlines()]


def test_progress_of_a_resumed_run_counts_from_where_it_resumed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A run resumed at game 3 of 6 (``start=3``, what ``sim --resume`` does) plays games 3, 4
    and 5, one a chunk: its progress reads 4/6 then 5/6 (the last chunk's line is the summary's
    job), serial or on an executor; every game played is counted once. Mutations s35: the
    display started at 0 (1/6, 2/6: the file's games unseen), and a chunk's update one game
    short (a run that ended at 5/6, hiding a game), serial or on a pool, passed the suite."""
    assert _log_lines(monkeypatch, start=3, workers=1) == ["sim: 4/6", "sim: 5/6"]
    with cf.ThreadPoolExecutor(2) as ex:
        assert _log_lines(monkeypatch, start=3, executor=ex) == ["sim: 4/6", "sim: 5/6"]


def test_time_left_of_a_resumed_run_is_from_the_games_it_played(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The estimate of the time left divides by the games this run played, not by the games
    done (a resumed run's first games were played before): resumed at 50 of 100, 10 games in
    10 s leave 40 games, about 10 s x 40 / 10 = 40 s (mutation s35: 10 x 40 / 60 = 7 s, a run
    that looked nearly done, passed the suite)."""
    clock = iter([0.0, 10.0])
    monkeypatch.setattr(runner, "time", SimpleNamespace(monotonic=lambda: next(clock)))
    monkeypatch.setattr(runner, "LOG_EVERY_SECONDS", 5.0)
    pipe = io.StringIO()
    monkeypatch.setattr(sys, "stderr", pipe)
    runner._LogLines(100, 50).update(10)
    assert pipe.getvalue() == "sim: 60/100 games (60.0%), 10 s so far, about 40 s left\n"


def test_finish_kind_names_its_features_in_their_documented_order() -> None:
    """A finish's kind joins its features in one order, atu, tabla, one_turn, joker: Rummy 101's
    whole hand laid in one turn with a joker as the last discard (R101-12, scored +404 / -808 by
    R101-13) is ``one_turn_joker``, Remi's Atu finish with a tabla close and a Joly discard
    (RO-4, RO-11, RO-12) ``atu_tabla_joker``; reports count endings by these names, so
    ``joker_one_turn`` would be a kind of its own (mutation s35: one_turn after joker passed
    the suite)."""
    assert (
        sim.finish_type({"end": "finish", "winner": 1, "one_turn": True, "joker_finish": True})
        == "one_turn_joker"
    )
    assert (
        sim.finish_type(
            {
                "end": "finish",
                "winner": 0,
                "finish": "tabla",
                "atu_finish": True,
                "joker_finish": True,
            }
        )
        == "atu_tabla_joker"
    )


def test_resume_refuses_a_line_with_fewer_rounds_than_the_match(tmp_path: Path) -> None:
    """Every Rummy 101 match of a run plays exactly its --rounds (only a classic match, playing
    to its target score, CR-6, may stop short of its cap): a line of a --rounds 2 run that holds
    one round is no game of that run, and --resume refuses it rather than summing it in (only
    the file's last game is replayed, so an earlier line is checked by what it holds). Mutation
    s35: a Rummy 101 line allowed fewer rounds than --rounds, as a classic one, passed."""
    path = tmp_path / "run.jsonl"
    assert (
        main(
            [
                "sim",
                "--rules",
                "rummy101(players=2)",
                "--bots",
                "random,random",
                "--games",
                "3",
                "--seed",
                "5",
                "--rounds",
                "2",
                "--workers",
                "1",
                "-q",
                "--out",
                str(path),
            ]
        )
        == 0
    )
    lines = path.read_text().splitlines()
    first = json.loads(lines[0])
    assert first["rounds"] == 2 and first["match_rounds"] == 2
    first.update(
        round_scores=first["round_scores"][:1],
        scores=first["round_scores"][0],
        finishes=first["finishes"][:1],
        finishers=first["finishers"][:1],
        rounds=1,
    )
    path.write_text("\n".join([json.dumps(first, separators=(",", ":")), *lines[1:]]) + "\n")
    with pytest.raises(sim.SimError, match=r"written with --rounds 1, not --rounds 2 \(line 1\)"):
        read_run(
            path, rules="rummy101(players=2)", bots="random,random", seed=5, games=5, match_rounds=2
        )


def test_a_record_whose_terminal_flag_was_edited_is_refused() -> None:
    """A game record's stored outcome is checked against its replay, ``terminal`` too: a
    finished game's record that says it is still running was edited and is refused, as an
    edited score is (mutation s35: the terminal flag left unchecked passed the suite)."""
    res = sim.play_game("rummy101(players=2)", ["random", "random"], 5, 0, record="full")
    record = dict(res.game_record or {})
    assert record["terminal"] is True
    assert records.from_dict(record).is_terminal
    with pytest.raises(IllegalAction, match="'terminal' says False but the replay gives True"):
        records.from_dict({**record, "terminal": False})


def _ladder() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "ladder_s35", Path(__file__).resolve().parents[1] / "bench" / "ladder.py"
    )
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


def test_ladder_finish_interval_holds_its_estimate_at_0_and_100_percent() -> None:
    """bench/ladder.py's finish interval at a rate of 0 or 1 (design effect 1 there) is the
    package's Wilson interval of the rounds, whose lower bound at 0 finishes is 0 and upper
    bound at all finishes is 1, exactly: computed, centre ± half missed them by a rounding
    error (5.6e-17 for 0 of 3, 0.9999999999999999 for 10 of 10), an interval that left out its
    own estimate (mutation s35: the ladder's edge cases dropped passed the suite)."""
    ladder = _ladder()

    def seats(finished: int, deals: int) -> list[object]:
        return [ladder.Seat("cand", d, 0, 0.0, 0.0, finished, 0, 0.0, 0.0, 1) for d in range(deals)]

    assert ladder.finish_interval(seats(1, 10)) == (10, 10, *sim.wilson_interval(10, 10))
    assert ladder.finish_interval(seats(1, 10))[3] == 1.0
    assert ladder.finish_interval(seats(0, 3)) == (0, 3, *sim.wilson_interval(0, 3))
    assert ladder.finish_interval(seats(0, 3))[2] == 0.0


def test_report_counts_the_rounds_of_matches_not_their_games() -> None:
    """A match of --rounds 2 plays two rounds: two matches are 4 rounds, one of which ended with
    the stock exhausted (R101-13: no winner), and the report's round line says 4 and 1, the
    denominator of the finish rates above it (mutation s35: the games counted as the rounds,
    'rounds: 2', passed the suite)."""
    a = _rec(
        round_scores=((101, -50), (-202, -202)),
        scores=(-101, -252),
        finishes=("normal", "exhausted"),
        finishers=(0, None),
        match_rounds=2,
    )
    b = _rec(
        game=1,
        seed=8,
        bot_seeds=(13, 14),
        round_scores=((-20, 101), (101, -30)),
        scores=(81, 71),
        finishes=("normal", "normal"),
        finishers=(1, 0),
        match_rounds=2,
    )
    text = format_report(group_records([a, b]))
    assert "rounds: 4; ended with no winner (stock exhausted): 1;" in text, text
    assert "2/4" in text and "1/4" in text  # seat 0 finished 2 of the 4 rounds, seat 1 one

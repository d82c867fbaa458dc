"""Every simulation record says the match length it was played with (``match_rounds``), and
``rummy101 report`` keeps classic matches of other ``--rounds`` caps apart.

A classic match plays to its target score (CR-6, first to 200) and ``--rounds`` only caps it:
matches capped at 2 rounds mostly end at the cap with nobody near 200, matches capped at 50 end
at the target, so their points per game are two quantities and must be two tables. Rummy 101
and Remi play every match of a run to exactly ``--rounds`` rounds and keep being grouped by the
rounds played. Lines written before records held the field still read (``match_rounds`` None)
and report as their own group, saying the cap is unknown."""

from __future__ import annotations

import csv
import dataclasses
import json
from pathlib import Path

import pytest
from rummy101 import sim
from rummy101.cli import main
from rummy101.sim.report import drop_duplicates, format_report, group_records

CLASSIC, BOTS = "classic(players=2)", "greedy,random"
CAP2 = "6 games of classic(players=2), matches to the target score, capped at 2 rounds; bots"
CAP50 = "6 games of classic(players=2), matches to the target score, capped at 50 rounds; bots"
UNKNOWN = ("classic(players=2), matches to the target score, round cap unknown (records "
           "without match_rounds); bots")


def run(capsys: pytest.CaptureFixture[str], args: list[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def sim_to(capsys: pytest.CaptureFixture[str], out: Path, *extra: str, rules: str = CLASSIC,
           bots: str = BOTS, games: int = 6, seed: int = 3) -> None:
    code, _, err = run(capsys, ["sim", "--rules", rules, "--bots", bots, "--games", str(games),
                                "--seed", str(seed), "--workers", "1", "--out", str(out), "-q",
                                *extra])
    assert code == 0, err


def strip_cap(path: Path, *, version: bool = True) -> None:
    """Rewrite ``path`` as a rummy101 before this field wrote it: no match_rounds key in a
    summary line, no match_rounds column in a CSV (nor, with ``version``, the rummy101_version
    added later)."""
    gone = ("match_rounds", "rummy101_version") if version else ("match_rounds",)
    if path.suffix == ".csv":
        with open(path, newline="") as fh:
            rows = list(csv.DictReader(fh))
        fields = [f for f in rows[0] if f not in gone]
        with open(path, "w", newline="") as fh:
            w = csv.DictWriter(fh, fieldnames=fields, lineterminator="\n")
            w.writeheader()
            w.writerows({f: r[f] for f in fields} for r in rows)
        return
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    for d in lines:
        for key in gone:
            del d[key]
    path.write_text("".join(json.dumps(d, separators=(",", ":")) + "\n" for d in lines))


def test_two_classic_caps_report_as_two_groups_that_say_their_cap(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """CR-6: --rounds 2 and --rounds 50 of the same deals (one --seed) are two tables, each
    labelled with its cap; the same cap in two files is one table."""
    a, b = tmp_path / "cap2.jsonl", tmp_path / "cap50.jsonl"
    sim_to(capsys, a, "--rounds", "2")
    sim_to(capsys, b, "--rounds", "50")
    recs_a, recs_b = sim.read_records(a), sim.read_records(b)
    assert {r.match_rounds for r in recs_a} == {2} and {r.match_rounds for r in recs_b} == {50}
    assert {r.rounds for r in recs_a} == {2}            # every cap-2 match stopped at its cap
    assert all(max(r.scores) >= 200 for r in recs_b)    # every cap-50 match reached the target

    groups = group_records(recs_a + recs_b)
    assert [(g.games, g.round_cap, g.match_rounds) for g in groups] == [(6, 2, None),
                                                                        (6, 50, None)]
    alone = [group_records(recs_a)[0], group_records(recs_b)[0]]
    assert [g.points for g in groups] == [g.points for g in alone]
    assert [g.seats for g in groups] == [g.seats for g in alone]

    code, out, err = run(capsys, ["report", str(a), str(b)])
    assert code == 0 and err == ""                       # the same deals, no "read twice" note
    assert out.count(" games of classic") == 2
    assert CAP2 in out and CAP50 in out

    c = tmp_path / "cap2_more.jsonl"                      # the same cap, other deals: one table
    sim_to(capsys, c, "--rounds", "2", seed=4)
    code, out, _ = run(capsys, ["report", str(a), str(c)])
    assert code == 0 and out.count(" games of classic") == 1
    assert "12 games of classic(players=2), matches to the target score, capped at 2 rounds" \
        in out


def test_a_run_without_rounds_records_the_default_cap(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from rummy101.game import engine_for
    from rummy101.rules import Rules
    default = engine_for(Rules.parse(CLASSIC)).DEFAULT_MATCH_ROUNDS
    out = tmp_path / "c.jsonl"
    sim_to(capsys, out, games=2)
    assert {r.match_rounds for r in sim.read_records(out)} == {default}
    code, text, _ = run(capsys, ["report", str(out)])
    assert code == 0 and f"capped at {default:,} rounds; bots" in text


@pytest.mark.parametrize("rules, bots, rounds, want", [
    (CLASSIC, BOTS, None, None),        # the engine's default cap, filled in below
    (CLASSIC, BOTS, 3, 3),
    ("rummy101(players=2)", "greedy,random", None, 1),
    ("rummy101(players=2)", "greedy,random", 2, 2),
    ("remi(players=2)", "greedy,greedy", 2, 2),
])
@pytest.mark.parametrize("fmt", [".jsonl", ".csv", "full.jsonl"])
def test_every_line_and_row_holds_the_match_length_and_reads_it_back(
        tmp_path: Path, rules: str, bots: str, rounds: int | None, want: int | None,
        fmt: str) -> None:
    from rummy101.game import engine_for
    from rummy101.rules import Rules
    if want is None:
        want = engine_for(Rules.parse(rules)).DEFAULT_MATCH_ROUNDS
    record = "full" if fmt.startswith("full") else "summary"
    res = sim.simulate(rules, bots, 2, seed=5, workers=1, progress=False, match_rounds=rounds,
                       record=record)
    assert [r.match_rounds for r in res.records] == [want, want]
    path = tmp_path / f"r{fmt}"
    sim.write_records(res.records, path)
    if path.suffix == ".csv":
        with open(path, newline="") as fh:
            rows = list(csv.DictReader(fh))
        assert [row["match_rounds"] for row in rows] == [str(want)] * 2
        assert list(rows[0])[-2:] == ["match_rounds", "rummy101_version"]  # new ones go last
    else:
        lines = [json.loads(line) for line in path.read_text().splitlines()]
        assert [d["match_rounds"] for d in lines] == [want, want]
        assert [d["record"] for d in lines] == [record] * 2
    back = sim.read_records(path)
    assert [r.match_rounds for r in back] == [want, want]
    assert [r.to_row() for r in back] == [r.to_row() for r in res.records]
    if path.suffix == ".jsonl":
        assert [r.to_json() for r in back] == [r.to_json() for r in res.records]


@pytest.mark.parametrize("ext", [".jsonl", ".csv"])
def test_lines_written_before_the_field_still_read_and_report(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], ext: str) -> None:
    old, new = tmp_path / f"old{ext}", tmp_path / f"new{ext}"
    sim_to(capsys, old, "--rounds", "2", seed=4)
    sim_to(capsys, new, "--rounds", "2")
    strip_cap(old)
    assert "match_rounds" not in old.read_text()
    recs = sim.read_records(old)
    assert len(recs) == 6 and {r.match_rounds for r in recs} == {None}
    assert {r.rounds for r in recs} == {2}
    assert all(r.to_json()["match_rounds"] is None for r in recs)
    code, out, err = run(capsys, ["report", str(old), str(new)])
    assert code == 0, err
    assert "6 games of " + UNKNOWN in out               # its own group: the cap is unknown
    assert CAP2 in out                                  # not pooled with the known cap


def test_rummy101_and_remi_grouping_is_the_rounds_played_as_before(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for rounds in (1, 2):
        sim_to(capsys, tmp_path / f"r{rounds}.jsonl", "--rounds", str(rounds),
               rules="remi(players=2)", bots="greedy,greedy", games=3, seed=4)
    old = tmp_path / "r1_old.jsonl"                     # the 1-round run, as an older file
    old.write_bytes((tmp_path / "r1.jsonl").read_bytes())
    strip_cap(old, version=False)      # (without the version too it is a group of its own)
    recs = sim.read_records(tmp_path / "r1.jsonl") + sim.read_records(tmp_path / "r2.jsonl")
    groups = group_records(recs + sim.read_records(old))
    # the old lines are the same games as r1's, and group with them by the rounds played
    assert [(g.games, g.match_rounds, g.round_cap) for g in groups] == [(6, 1, None),
                                                                        (3, 2, None)]
    text = format_report(groups)
    assert "6 games of remi(players=2); bots" in text
    assert "3 games of remi(players=2), matches of 2 rounds; bots" in text
    # and `report` counts them once, as before the field (only a classic cap tells games apart)
    code, out, err = run(capsys, ["report", str(tmp_path / "r1.jsonl"), str(old),
                                  str(tmp_path / "r2.jsonl")])
    assert code == 0 and "3 games read more than once" in err
    assert "3 games of remi(players=2); bots" in out


def test_the_same_deal_under_two_caps_is_two_games_not_a_repeat() -> None:
    """drop_duplicates: a deal played with --rounds 2 and with --rounds 3 is two games even when
    both stopped after the same rounds (the cap-3 match could have gone on); the same record
    read twice is still one game."""
    [rec] = sim.simulate(CLASSIC, BOTS, 1, seed=3, workers=1, progress=False,
                         match_rounds=2).records
    other_cap = dataclasses.replace(rec, match_rounds=3)
    kept, dropped = drop_duplicates([rec, other_cap, rec])
    assert kept == [rec, other_cap] and dropped == 1
    assert [g.round_cap for g in group_records(kept)] == [2, 3]


@pytest.mark.parametrize("value, why", [
    (0, "match_rounds 0 is no length of a match that played 2 rounds"),
    (1, "match_rounds 1 is no length of a match that played 2 rounds"),
    (2.5, "match_rounds is a whole number, got 2.5"),
    (True, "match_rounds is a whole number, got True"),
    ("x", "invalid literal for int()"),
])
def test_a_match_length_that_cannot_be_is_named_by_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], value: object, why: str) -> None:
    path = tmp_path / "c.jsonl"
    sim_to(capsys, path, "--rounds", "2", games=2)
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    lines[1]["match_rounds"] = value
    path.write_text("".join(json.dumps(d) + "\n" for d in lines))
    with pytest.raises(sim.SimError, match="line 2 is no simulation record") as exc:
        sim.read_records(path)
    assert why in str(exc.value)


@pytest.mark.parametrize("ext", [".jsonl", ".csv"])
def test_a_cut_classic_run_resumes_to_the_whole_run(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], ext: str) -> None:
    cut, whole = tmp_path / f"cut{ext}", tmp_path / f"whole{ext}"
    sim_to(capsys, cut, "--rounds", "2", games=3)
    sim_to(capsys, cut, "--rounds", "2", "--resume", games=6)
    sim_to(capsys, whole, "--rounds", "2", games=6)
    assert cut.read_bytes() == whole.read_bytes()
    assert {r.match_rounds for r in sim.read_records(cut)} == {2}


@pytest.mark.parametrize("ext", [".jsonl", ".csv"])
def test_resume_refuses_a_file_of_an_older_rummy101(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], ext: str) -> None:
    """Lines appended to a file without the field would say a cap its first lines do not, and
    report would split the one run in two groups: --resume says so and leaves the file."""
    path = tmp_path / f"old{ext}"
    sim_to(capsys, path, "--rounds", "2", games=3)
    strip_cap(path)
    before = path.read_bytes()
    code, out, err = run(capsys, ["sim", "--rules", CLASSIC, "--bots", BOTS, "--games", "6",
                                  "--seed", "3", "--workers", "1", "--out", str(path), "-q",
                                  "--rounds", "2", "--resume"])
    assert code == 2 and out == "" and err.count("\n") == 1, err
    why = "its header has no match_rounds column" if ext == ".csv" else \
        "it has no match_rounds field"
    assert f"line 1 was written by an older rummy101 ({why}; records now hold the match's " \
           f"--rounds)" in err, err
    assert path.read_bytes() == before


def test_a_full_line_keeps_the_field_where_its_game_record_puts_it() -> None:
    """A full line's match_rounds comes from its rummy101.game.records record, in the record's
    place (its bytes were those written before summary lines held the field); the version of
    rummy101 that played it comes last, as in a summary line."""
    [rec] = sim.simulate(CLASSIC, BOTS, 1, seed=3, workers=1, progress=False, match_rounds=2,
                         record="full").records
    assert rec.game_record is not None
    keys = list(rec.to_json())
    summary = list(dataclasses.replace(rec, game_record=None).to_json())
    assert summary[-2:] == ["match_rounds", "rummy101_version"]
    before = summary[:-2]   # a summary line's older keys
    assert keys == before + [k for k in rec.game_record if k not in before] + ["rummy101_version"]
    assert keys.index("match_rounds") > keys.index("format")


def test_a_last_line_with_its_fields_reordered_is_refused_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The same fields and values in another order are not the bytes the run appends to: said
    in one line (it was a StopIteration traceback)."""
    path = tmp_path / "c.jsonl"
    sim_to(capsys, path, "--rounds", "2", games=2)
    lines = path.read_text().splitlines()
    last = json.loads(lines[-1])
    lines[-1] = json.dumps(dict(reversed(list(last.items()))), separators=(",", ":"))
    path.write_text("\n".join(lines) + "\n")
    before = path.read_bytes()
    code, _, err = run(capsys, ["sim", "--rules", CLASSIC, "--bots", BOTS, "--games", "4",
                                "--seed", "3", "--workers", "1", "--out", str(path), "-q",
                                "--rounds", "2", "--resume"])
    assert code == 2 and err.count("\n") == 1, err
    assert "game 1 (its last complete line) holds what these arguments play but not byte for " \
           "byte" in err
    assert path.read_bytes() == before

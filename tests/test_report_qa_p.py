"""``rummy101 report`` reads its files as a stream (sim.report.summarise); these are the hand-edited
records on which the stream and the in-memory read it replaced (f13cc63) must still agree, and on
which both must answer bad input with one line and exit status 2 (CONTRACT.md "Command line"),
never a traceback nor a misleading message."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rummy101 import sim
from rummy101.cli import main


@pytest.fixture(scope="module")
def lines() -> list[dict[str, object]]:
    res = sim.simulate("rummy101(players=2)", "greedy,random", 4, seed=4, workers=1, progress=False)
    return [r.to_json() for r in res.records]


def report(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["report", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("field", ["seed", "game", "scores"])
def test_an_infinite_number_is_no_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], lines: list[dict[str, object]], field: str
) -> None:
    """JSON reads 1e400 as inf, which is no whole number: the line is named as no simulation
    record (before: a traceback in the in-memory read, then 'the scores are too large to
    average' once the read streamed)."""
    text = json.dumps(lines[1])
    value = json.dumps(lines[1][field])
    assert text.count(f'"{field}": {value}') == 1
    value_inf = "[1e400, 0]" if field == "scores" else "1e400"
    bad = tmp_path / "games.jsonl"
    bad.write_text(
        json.dumps(lines[0])
        + "\n"
        + text.replace(f'"{field}": {value}', f'"{field}": {value_inf}')
        + "\n"
    )
    code, out, err = report(capsys, str(bad))
    assert code == 2 and out == "", err
    assert err == (
        f"rummy101 report: error: {str(bad)!r} line 2 is no simulation record "
        f"(cannot convert float infinity to integer): give a file written by "
        f"`rummy101 sim --out`\n"
    )


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        # a seat's score missing: the in-memory read and the stream died on an IndexError
        ({"scores": "drop"}, "1 score for 2 bots"),
        ({"bots": "add"}, "2 scores for 3 bots"),
        ({"turns": "drop"}, "1 turn count for 2 bots"),
        # a bot missing: a one-seat table was printed for a two-seat game
        ({"bots": "drop"}, "2 scores for 1 bot"),
        # a finish too many: the stream counted 1 round, the in-memory read 2 (and with a
        # finisher too many, a finish rate above 1 failed in the Wilson interval)
        ({"finishes": "add"}, "2 finishes for 1 round (round_scores)"),
        ({"finishers": "add"}, "2 finishers for 1 round (round_scores)"),
    ],
)
def test_a_record_whose_seats_or_rounds_disagree_is_no_record(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    lines: list[dict[str, object]],
    edit: dict[str, str],
    message: str,
) -> None:
    ((field, how),) = edit.items()
    line = json.loads(json.dumps(lines[1]))
    values = line[field]
    assert isinstance(values, list) and len(values) == (1 if field.startswith("finish") else 2)
    line[field] = values[:-1] if how == "drop" else [*values, values[0]]
    _refused_as_no_record(tmp_path, capsys, lines[0], line, message)


def _refused_as_no_record(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                          head: dict[str, object], line: dict[str, object], message: str) -> None:
    """A file of ``head`` and ``line`` is refused by report at line 2 with ``message``."""
    bad = tmp_path / "games.jsonl"
    bad.write_text(json.dumps(head) + "\n" + json.dumps(line) + "\n")
    code, out, err = report(capsys, str(bad))
    assert code == 2 and out == "", err
    assert err == (
        f"rummy101 report: error: {str(bad)!r} line 2 is no simulation record ({message}): "
        f"give a file written by `rummy101 sim --out`\n"
    )


def test_every_file_written_by_sim_reads_whole(tmp_path: Path) -> None:
    """The shape check holds for what ``rummy101 sim --out`` writes: every variant, a match of
    several rounds, classic caps, full lines and CSV."""
    runs = [
        ("rummy101", "greedy,random,random,random", 1, "summary"),
        ("remi(players=3)", "greedy,random,greedy", 2, "full"),
        ("classic(players=2)", "greedy,random", 3, "summary"),
        ("classic(players=4)", "greedy,random,greedy,random", None, "full"),
    ]
    for rules, bots, rounds, kind in runs:
        res = sim.simulate(
            rules, bots, 5, seed=2, workers=1, progress=False, match_rounds=rounds, record=kind
        )
        for ext in (".jsonl", ".csv") if kind == "summary" else (".jsonl",):
            path = tmp_path / f"{rules}{ext}"
            sim.write_records(res.records, path)
            assert len(sim.read_records(path)) == 5


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        # int() cut 1.5 to 1 and read true as 1: the means moved without a word
        ("scores", [1.5, -50], "scores holds 1.5, no whole number"),
        ("scores", [True, -50], "scores holds True, no whole number"),
        ("turns", [6.5, 6], "turns holds 6.5, no whole number"),
        # a seat out of range was counted nowhere: neither a best score nor a tie ...
        ("best", 5, "best 5 where the scores [120, -50] give 0"),
        # ... or a best seat the scores do not give moved the best rates
        ("best", 1, "best 1 where the scores [120, -50] give 0"),
        ("best", None, "best None where the scores [120, -50] give 0"),
        # a finished round of no seat (and a finish with nobody finishing, or the reverse)
        ("finishers", [7], "finisher 7 is no seat of 2"),
        # a game number below 0, a round with a score too few, and standings that are not the
        # rounds' sums (one game's rounds beside another's scores) were read without a word
        ("game", -1, "game -1: games are numbered from 0"),
        # a negative count printed a negative turns/round in the table
        ("turns", [-6, 6], "turns [-6, 6]: a count is never below 0"),
        ("steps", -1, "steps -1: a count is never below 0"),
        ("round_scores", [[120]], "round 1 has 1 score for 2 bots (round_scores)"),
        ("round_scores", [[100, -50]],
         "scores [120, -50] are not the sums of the round_scores [100, -50]"),
        ("finishers", [None], ("a round 'normal' with finisher None: a round has a finisher "
                              "unless it is 'exhausted'")),
        ("finishes", ["exhausted"], ("a round 'exhausted' with finisher 0: a round has a "
                                    "finisher unless it is 'exhausted'")),
    ],
)
def test_a_value_the_statistics_would_misread_is_no_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], lines: list[dict[str, object]],
    field: str, value: object, message: str,
) -> None:
    line = {**json.loads(json.dumps(lines[1])), "scores": [120, -50], "round_scores": [[120, -50]],
            "best": 0, "finishes": ["normal"], "finishers": [0]}
    line[field] = value
    _refused_as_no_record(tmp_path, capsys, lines[0], line, message)


def test_a_whole_number_written_as_a_float_still_reads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], lines: list[dict[str, object]]
) -> None:
    """2.0 is a whole number (a tool that wrote the numbers as floats): read as 2."""
    line = json.loads(json.dumps(lines[1]))
    line["steps"] = float(line["steps"])  # type: ignore[arg-type]
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps(lines[0]) + "\n" + json.dumps(line) + "\n")
    assert [r.steps for r in sim.read_records(path)] == [lines[0]["steps"], lines[1]["steps"]]

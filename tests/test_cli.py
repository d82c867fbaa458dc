"""The ``rummy101`` command line, called in process through ``main(argv)`` (CONTRACT.md, Command
line), plus one real subprocess smoke test."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import pytest
from rummy101.cli import build_parser, main
from rummy101.service.examples import DEMO_RACK

RACK = "R10 * R12 K13 K12 K11 Y9 Y8 Y7 B13 B12 B11 R2"


def run(capsys: pytest.CaptureFixture[str], argv: list[str], stdin: str | None = None,
        monkeypatch: pytest.MonkeyPatch | None = None) -> tuple[int, str, str]:
    if stdin is not None:
        assert monkeypatch is not None
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_solve_opening_prints_the_contract_object(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, ["solve", "opening", "--rules", "rummy101", "--rack", RACK])
    assert code == 0 and err == ""
    answer = json.loads(out)
    assert list(answer) == ["rules", "rack", "kind", "value", "melds", "rest"]
    assert answer["rules"] == "rummy101" and answer["rack"] == RACK
    assert answer["kind"] == "melds" and answer["value"] == 129 and answer["rest"] == ["R2"]
    joker_meld = next(m for m in answer["melds"] if "*" in m["tiles"])
    assert joker_meld == {"kind": "run", "tiles": ["R10", "*", "R12"], "value": 33,
                          "jokers": {"1": "R11"}}


def test_solve_opening_without_rack_uses_the_builtin_example(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, ["solve", "opening"])
    assert code == 0
    assert json.loads(out)["rack"] == DEMO_RACK
    assert "built-in example" in err


def test_solve_opening_options_reach_the_solver(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, ["solve", "opening", "--rules", "rummy101(threshold=increasing)",
                                "--rack", RACK, "--threshold", "130"])
    assert code == 0 and json.loads(out)["kind"] is None
    code, out, _ = run(capsys, ["solve", "opening", "--rack", RACK, "--must-use", "R12"])
    laid = [t for m in json.loads(out)["melds"] for t in m["tiles"]]
    assert code == 0 and "R12" in laid
    code, _, err = run(capsys, ["solve", "opening", "--rack", RACK, "--must-use", "K1"])
    assert code == 2 and "K1" in err


@pytest.mark.parametrize("argv,word", [
    (["solve", "opening", "--rack", "R1 R2 X9"], "X9"),
    (["solve", "opening", "--rack", "R1 R1 R1"], "copies"),
    (["solve", "opening", "--rules", "poker", "--rack", "R1"], "poker"),
    (["solve", "opening", "--rules", "rummy101(players=7)", "--rack", "R1"], "players"),
    (["solve", "opening", "--rack", "R1", "--must-use", "Q"], "--must-use: 'Q' is not a tile"),
    # the flag the person typed, not the request field behind it
    (["solve", "opening", "--rack", "R1 R2 R3", "--threshold", "-5"], "--threshold is -5"),
    (["solve", "opening", "--rack", "R1 R2 R3", "--must-use", "R9"], "--must-use: R9 is not on"),
    (["hint", "--alternatives", "99"], "--alternatives is 99"),
    # one seed range everywhere (a game record's), and at least one round
    (["sim", "--seed", "-1"], "argument --seed: -1 is not a seed"),
    (["play", "--seed", str(2**63)], "argument --seed: 9223372036854775808 is not a seed"),
    (["hint", "--new-game", "-1"], "argument --new-game: -1 is not a seed"),
    (["sim", "--rounds", "0"], "argument --rounds: 0 is not a number of rounds"),
    (["sim", "--games", "1", "--bots", "search:playouts=abc,greedy,greedy,greedy"],
     "expected a whole number"),
    (["solve", "tabla", "--rules", "rummy101", "--rack", "R1"], "Remi"),
    (["solve", "penalty", "--rack", "* * * * * * *"], "jokers"),
    (["meld", "R1 R2 Z3"], "Z3"),
    (["hint", "--json", "{"], "not valid JSON"),
    (["hint", "--json", '{"seat": 0, "rack": "R1", "rules": "remi"}'], "Rummy 101"),
    (["serve", "--port", "0"], "port"),
    (["solve", "opening", "--input", "x.jsonl", "--rack", "R1"], "--jsonl"),
])
def test_bad_input_exits_2_with_a_message_and_no_traceback(
        capsys: pytest.CaptureFixture[str], argv: list[str], word: str) -> None:
    code, out, err = run(capsys, argv)
    assert code == 2
    assert out == ""
    assert word in err and "Traceback" not in err


@pytest.mark.parametrize("argv", [["solve"], ["solve", "opening", "--threshold", "x"],
                                  ["frobnicate"], []])
def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    code, _, err = run(capsys, argv)
    assert code == 2 and err


def test_help_and_version_exit_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    assert "solve" in capsys.readouterr().out
    assert main(["--version"]) == 0
    assert "rummy101" in capsys.readouterr().out


def test_jsonl_mixed_good_and_bad_lines_answer_in_order(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    lines = [
        json.dumps({"rack": RACK}),
        "not json",
        json.dumps({"rack": "R1 R2 X3"}),
        json.dumps({"rack": "R1 R2 R3 R4", "rules": "remi"}),
        "",
        json.dumps(["R1"]),
        json.dumps({"rack": RACK, "threshold": 200, "rules": "rummy101(threshold=increasing)"}),
        json.dumps({"rack": "R1 R2 R3", "colour": "red"}),
        json.dumps({"rack": "AS 2S 3S 9D", "rules": "classic"}),
    ]
    code, out, err = run(capsys, ["solve", "opening", "--jsonl"], "\n".join(lines) + "\n",
                         monkeypatch)
    answers = [json.loads(x) for x in out.splitlines()]
    assert len(answers) == len(lines)
    assert answers[0]["kind"] == "melds" and answers[0]["value"] == 129
    assert "line 2" in answers[1]["error"] and "JSON" in answers[1]["error"]
    assert "line 3" in answers[2]["error"] and "X3" in answers[2]["error"]
    assert answers[3]["rules"] == "remi" and answers[3]["kind"] is None
    assert answers[3]["value"] == 15  # RO-8: a 3-tile run of 5s, a tile kept to discard
    assert "line 5" in answers[4]["error"] and "empty" in answers[4]["error"]
    assert "line 6" in answers[5]["error"] and "object" in answers[5]["error"]
    assert answers[6]["kind"] is None and answers[6]["value"] == 129
    assert "colour" in answers[7]["error"]
    assert answers[8]["rules"] == "classic" and answers[8]["rest"] == ["9D"]
    assert code == 2 and "5 of 9 lines had errors" in err


def test_jsonl_all_good_exits_0_and_uses_default_rules(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    lines = [json.dumps({"rack": "R1 R2 R3 R4 R5 Y5 B5 K5 K9"}) for _ in range(3)]
    code, out, err = run(capsys, ["solve", "opening", "--rules", "remi", "--jsonl"],
                         "\n".join(lines), monkeypatch)
    assert code == 0 and err == ""
    answers = [json.loads(x) for x in out.splitlines()]
    assert [a["rules"] for a in answers] == ["remi"] * 3
    assert len({json.dumps(a) for a in answers}) == 1


def test_jsonl_penalty_and_tabla(capsys: pytest.CaptureFixture[str],
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = run(capsys, ["solve", "penalty", "--jsonl"],
                       '{"rack": "R1 R2 R3 K9"}\n{"rack": 3}\n', monkeypatch)
    a, b = (json.loads(x) for x in out.splitlines())
    assert a["rules"] == "rummy101" and "error" in b and code == 2
    code, out, _ = run(capsys, ["solve", "tabla", "--jsonl"],
                       json.dumps({"rack": "R1 R2 R3 R4 R5 Y5 Y6 Y7 B9 B10 B11 K12 K13 K1 K5"}),
                       monkeypatch)
    assert code == 0 and json.loads(out)["best"]["pattern"] == "simple"


def test_jsonl_reads_input_file(capsys: pytest.CaptureFixture[str],
                                tmp_path: os.PathLike[str]) -> None:
    path = os.path.join(str(tmp_path), "racks.jsonl")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(json.dumps({"rack": RACK}) + "\n")
    code, out, _ = run(capsys, ["solve", "opening", "--jsonl", "--input", path])
    assert code == 0 and json.loads(out)["value"] == 129
    code, _, err = run(capsys, ["solve", "opening", "--jsonl", "--input", path + ".missing"])
    assert code == 2 and "cannot read" in err


def test_solve_penalty_and_tabla_single(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, ["solve", "penalty", "--rack", "R1 R2 R3 K9"])
    assert code == 0 and json.loads(out)["rules"] == "rummy101"
    code, out, _ = run(capsys, ["solve", "tabla"])
    assert code == 0 and json.loads(out)["best"]["pattern"] == "simple"


def test_meld_check(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, ["meld", "R10 * R12"])
    info = json.loads(out)
    assert code == 0 and info["valid"] and info["jokers"] == {"1": "R11"}
    code, out, _ = run(capsys, ["meld", "--rules", "remi", "R12 R13 R1"])
    assert code == 0 and json.loads(out)["kind"] == "run"
    code, out, _ = run(capsys, ["meld", "R7 R7 B7"])
    assert code == 0 and json.loads(out)["valid"] is False


def test_meld_check_reads_a_solver_set_back(capsys: pytest.CaptureFixture[str]) -> None:
    """A solver lays the 13s as * * K13 (39); the tiles alone read as the run K11-K13 (36):
    --kind set reads the meld back as it was laid (CONTRACT.md, meld notation round trip)."""
    code, out, _ = run(capsys, ["meld", "* * K13"])
    assert code == 0 and json.loads(out)["open_value"] == 36
    code, out, _ = run(capsys, ["meld", "--kind", "set", "* * K13"])
    info = json.loads(out)
    assert code == 0 and info["kind"] == "set" and info["open_value"] == 39
    assert info["jokers"] == {"0": "R13", "1": "Y13"}


def test_hint_builtin_example_and_new_game(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, ["hint"])
    answer = json.loads(out)
    assert code == 0 and "built-in example" in err
    assert answer["turn"]["steps"][0]["step"] in ("draw", "take_discard")
    code, out, _ = run(capsys, ["hint", "--new-game", "3", "--rules", "rummy101(players=2)",
                                "--alternatives", "1"])
    answer = json.loads(out)
    assert code == 0 and len(answer["alternatives"]) <= 1
    assert answer["turn"]["actions"][-1].startswith("discard ")


def test_demo_runs_every_example(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, ["demo"])
    assert code == 0
    heads = [line for line in out.splitlines() if line.startswith("# ")]
    assert [h.split(":")[0] for h in heads] == ["# opening", "# opening_batch", "# penalty",
                                                "# tabla", "# meld", "# hint"]
    for line in out.splitlines():
        if not line.startswith("# "):
            assert "error" not in json.loads(line)


def test_parser_has_every_area_subcommand() -> None:
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    names = set(sub.choices)  # type: ignore[attr-defined]
    assert {"solve", "meld", "hint", "serve", "demo"} <= names


def test_serve_reports_missing_extra(capsys: pytest.CaptureFixture[str],
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "uvicorn", None)
    code, _, err = run(capsys, ["serve"])
    assert code == 2 and "pip install 'rummy101[service]'" in err


def test_serve_needs_httptools_for_its_read_timeouts(capsys: pytest.CaptureFixture[str],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "httptools", None)
    code, _, err = run(capsys, ["serve"])
    assert code == 2 and "httptools" in err and "rummy101[service]" in err


def test_serve_says_where_it_listens(capsys: pytest.CaptureFixture[str],
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("uvicorn")
    pytest.importorskip("httptools")
    from rummy101.service import server

    seen: list[tuple[str, int]] = []
    monkeypatch.setattr(server, "serve", lambda host, port, **kw: seen.append((host, port)))
    code, _, err = run(capsys, ["serve", "--port", "8123"])
    assert code == 0 and seen == [("127.0.0.1", 8123)]
    assert "http://127.0.0.1:8123" in err and "/openapi.json" in err



def test_subprocess_smoke() -> None:
    env = dict(os.environ)
    import rummy101

    root = os.path.dirname(os.path.dirname(os.path.abspath(rummy101.__file__)))
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    done = subprocess.run([sys.executable, "-m", "rummy101", "solve", "opening", "--rack", RACK],
                          capture_output=True, text=True, env=env, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["value"] == 129
    bad = subprocess.run([sys.executable, "-m", "rummy101", "solve", "opening", "--rack", "R1 Q"],
                         capture_output=True, text=True, env=env, timeout=120, check=False)
    assert bad.returncode == 2 and "Q" in bad.stderr and "Traceback" not in bad.stderr

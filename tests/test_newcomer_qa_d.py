"""A newcomer's pass over a fresh clone (README.md and docs/ only), one test per finding.

Each test runs the command line in-process through ``rummy101.cli.main`` or reads the argparse
tree that ``rummy101 COMMAND --help`` prints.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import rummy101
from rummy101.cli import _parsers, build_parser, main

# Options that do nothing unless given (so there is no default to state): a file to write, an
# alternative input.
_ONLY_WHEN_GIVEN = {
    ("rummy101 sim", "--out"),
    ("rummy101 report", "--plot"),
    ("rummy101 play", "--save"),
    ("rummy101 hint", "--json"),
    ("rummy101 hint", "--new-game"),
}


def _valued_options() -> list[tuple[str, str, str]]:
    """(command, flag, help) of every option of every command that takes a value."""
    found = []
    for parser in _parsers(build_parser()):
        for action in parser._actions:
            if isinstance(action, argparse._HelpAction | argparse._SubParsersAction):
                continue
            if action.nargs == 0 or not action.option_strings or action.required:
                continue
            found.append((parser.prog, action.option_strings[-1], action.help or ""))
    return found


def test_every_option_that_takes_a_value_says_its_default() -> None:
    """`rummy101 sim --help` said "--rules RULES  rule set, e.g. rummy101 or ..." without the
    default (rummy101), as did `play --rules` and `meld --rules`; `serve --log-level` had no
    help at all (default warning); `solve opening --threshold` and `--pairs-threshold` did not
    say that the rule set's threshold applies unless given, nor `hint --request` that without
    any input the built-in example is answered. Each now says its default."""
    missing = [
        (prog, flag, text)
        for prog, flag, text in _valued_options()
        if "default" not in text and (prog, flag) not in _ONLY_WHEN_GIVEN
    ]
    assert missing == []


def test_the_list_of_options_without_a_default_is_not_stale() -> None:
    options = {(prog, flag) for prog, flag, _ in _valued_options()}
    assert _ONLY_WHEN_GIVEN <= options


@pytest.mark.parametrize(
    "argv", [["sim", "--help"], ["play", "--help"], ["meld", "--help"], ["serve", "--help"]]
)
def test_rules_and_log_level_defaults_show_in_help(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    assert main(argv) == 0
    out = " ".join(capsys.readouterr().out.split())
    expected = "default warning" if argv[0] == "serve" else "default rummy101"
    assert expected in out


# --- a --bots list typed with spaces --------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "fixed"),
    [
        (["sim", "--bots", "greedy,", "random,random,random"], "greedy,random,random,random"),
        (
            ["sim", "--bots", "greedy", "random", "random", "random", "-q"],
            "greedy,random,random,random",
        ),
        (
            ["sim", "--bots", "Greedy", "search:playouts=50", "--games", "2"],
            "Greedy,search:playouts=50",
        ),
        (["play", "--bots", "greedy", "greedy"], "greedy,greedy"),
    ],
)
def test_a_bots_list_with_spaces_is_pointed_at(
    capsys: pytest.CaptureFixture[str], argv: list[str], fixed: str
) -> None:
    """`rummy101 sim --bots greedy, random,random,random` (a space after the first comma) said
    only "unrecognized arguments: random,random,random": nothing told that --bots is one word.
    The error now shows the list as one word."""
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    last = err.splitlines()[-1]  # after argparse's usage lines
    assert last.startswith(f"rummy101 {argv[0]}: error: unrecognized arguments: ")
    assert last.endswith(f"without spaces (or in quotes): rummy101 {argv[0]} --bots {fixed}")


@pytest.mark.parametrize(
    "argv",
    [["sim", "--bots", "greedy", "foo"], ["sim", "--games", "3", "greedy"], ["sim", "x"]],
)
def test_no_bots_pointer_for_words_that_are_no_bots(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    assert main(argv) == 2
    assert "--bots takes" not in capsys.readouterr().err


# --- a Remi or classic hint asked with Rummy 101's view fields ------------------------------


@pytest.mark.parametrize("rules", ["remi", "classic(players=2)"])
def test_a_view_field_hint_of_another_variant_says_how_to_ask(
    capsys: pytest.CaptureFixture[str], rules: str
) -> None:
    """`rummy101 hint --json '{"rules": "remi", "seat": 0, "rack": ...}'` said "hints are for
    Rummy 101 only", while `rummy101 hint --help`, `--new-game SEED --rules remi` and
    docs/service.md hint Remi and classic (from an observation or a game record, the greedy
    turn). The error now says that only the view fields are Rummy 101's and what to send."""
    body = json.dumps({"rules": rules, "seat": 0, "rack": "R1 R2"})
    assert main(["hint", "--json", body]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert "hints are for Rummy 101 only" not in err
    assert "view fields" in err and '"observation"' in err and '"record"' in err
    assert f"for {rules.split('(')[0]} send" in err


# --- numbers written as the help texts print them ------------------------------------------


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (
            ["sim", "--games", "1,000"],
            "argument --games: 1,000 is not a whole number as written: give 1000",
        ),
        (
            ["sim", "--games", "1e3"],
            "argument --games: 1e3 is not a whole number as written: give 1000",
        ),
        (
            ["sim", "--workers", "two"],
            "argument --workers: two is not a whole number as written: give digits only",
        ),
        (
            ["solve", "opening", "--threshold", "1.5"],
            "argument --threshold: 1.5 is not a whole number",
        ),
        (["hint", "--alternatives", "x"], "argument --alternatives: x is not a whole number"),
    ],
)
def test_a_number_with_separators_is_told_how_to_write_it(
    capsys: pytest.CaptureFixture[str], argv: list[str], said: str
) -> None:
    """`rummy101 sim --help` prints "number of games (1 to 10,000,000, default 100)", and
    `--games 10,000` got argparse's "invalid int value: '10,000'". The error now says how to
    write the number (and which number that is, when it is one)."""
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert said in err.splitlines()[-1]


def test_plain_numbers_still_read(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "--games", "2", "--workers", "1", "-q"]) == 0
    assert capsys.readouterr().out.startswith("2 games of rummy101")


# --- an install with a compiler but without the Python headers --------------------------------

ROOT = Path(__file__).resolve().parent.parent

# A Python whose sysconfig names an include folder that does not exist, as on Debian/Ubuntu
# without python3-dev: what CMake's FindPython reads to find Python.h.
_NO_HEADERS = """
import sysconfig
_path, _paths, _var = sysconfig.get_path, sysconfig.get_paths, sysconfig.get_config_var
NOWHERE = "/nonexistent/include"
def get_path(name, *a, **k):
    return NOWHERE if name in ("include", "platinclude") else _path(name, *a, **k)
def get_paths(*a, **k):
    return {**_paths(*a, **k), "include": NOWHERE, "platinclude": NOWHERE}
def get_config_var(name):
    return NOWHERE if name in ("INCLUDEPY", "CONFINCLUDEPY") else _var(name)
sysconfig.get_path, sysconfig.get_paths = get_path, get_paths
sysconfig.get_config_var = get_config_var
"""


@pytest.mark.skipif(
    shutil.which("cmake") is None or shutil.which(os.environ.get("CXX") or "c++") is None,
    reason="needs cmake and a C++ compiler (the configure step of pip install .)",
)
def test_configure_without_python_headers_falls_back_to_the_pure_backend(tmp_path: Path) -> None:
    """README: without a C++ compiler `pip install .` installs the pure-Python backend. With a
    compiler but without the Python headers (python3-dev not installed), CMake stopped with
    "Could NOT find Python (missing: Development.Module)" and the install failed. The configure
    step now warns and builds no module, as without a compiler."""
    (tmp_path / "sitecustomize.py").write_text(_NO_HEADERS)
    python = tmp_path / "python"
    python.write_text(f'#!/bin/sh\nPYTHONPATH={tmp_path} exec {sys.executable} "$@"\n')
    python.chmod(0o755)
    done = subprocess.run(
        ["cmake", "-S", str(ROOT), "-B", str(tmp_path / "build"), f"-DPython_EXECUTABLE={python}"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    said = " ".join((done.stdout + done.stderr).split())
    assert done.returncode == 0, said[-2000:]
    assert "Python development headers (Python.h) were not found" in said
    assert "python3-dev" in said and "installing the pure-Python backend only" in said


# --- tabla asked under another variant's rules ------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "variant"),
    [
        (["solve", "tabla", "--rules", "rummy101"], "rummy101"),
        (["solve", "tabla", "--rules", "classic"], "classic"),
        (["solve", "tabla", "--rules", "rummy101(players=2)", "--rack", "R1 R2 R3"], "rummy101"),
    ],
)
def test_tabla_under_other_rules_is_refused_in_the_flags_words(
    capsys: pytest.CaptureFixture[str], argv: list[str], variant: str
) -> None:
    """`rummy101 solve tabla --rules rummy101` first announced "(no --rack given: solving the
    built-in example rack ...)", a Remi rack it then did not solve, and refused with the
    solver function's name: "solve_tabla: closing on the rack ... use 'remi'". It now refuses
    at once, naming --rules and what to give."""
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and "built-in example" not in err and "solve_tabla" not in err
    assert f"exists only in Remi, not in {variant}: give --rules remi" in err


def test_tabla_under_remi_rules_still_solves(capsys: pytest.CaptureFixture[str]) -> None:
    rack = "R1 R2 R3 R4 R5 Y5 Y6 Y7 B9 B10 B11 K12 K13 K1 K5"
    assert main(["solve", "tabla", "--rules", "remi(players=2)", "--rack", rack]) == 0
    assert json.loads(capsys.readouterr().out)["best"]["discard"] == "K5"


def test_a_tabla_rack_of_the_wrong_size_names_the_flag_and_the_rule(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`rummy101 solve tabla --rack "R1 R2"` answered "solve_tabla: a tabla rack holds 14 tiles
    ..." (the solver function's name, no rule ID); the HTTP answer said the same. Both now name
    the rack as given (--rack, field 'rack') and RO-11."""
    assert main(["solve", "tabla", "--rules", "remi", "--rack", "R1 R2"]) == 2
    err = capsys.readouterr().err
    assert err == ("rummy101 solve: error: --rack holds 2 tiles: a tabla rack holds 14 tiles "
                   "(after the final discard) or 15 (before it), RO-11\n")
    from rummy101.service import api

    with pytest.raises(rummy101.RackError, match=r"^field 'rack' holds 3 tiles: .*RO-11$"):
        api.tabla({"rack": "R1 R2 R3"})
    with pytest.raises(rummy101.RackError, match=r"RO-11; got 2: 'R1 R2'$"):
        rummy101.solve_tabla("remi", "R1 R2")

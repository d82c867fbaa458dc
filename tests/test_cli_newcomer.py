"""What a newcomer typed on a fresh install and tripped over (one test per finding).

Each test runs the command line in-process through ``rummy101.cli.main``: exit status 0 on
success, 2 on a usage error with a one-line message on standard error (no traceback).
"""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from rummy101.cli import main


def run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


# --- built-in examples follow --rules --------------------------------------------------------

@pytest.mark.parametrize("argv", [
    ["solve", "opening", "--rules", "classic"],
    ["solve", "penalty", "--rules", "classic"],
    ["solve", "penalty", "--rules", "classic(players=2)"],
    ["meld", "--rules", "classic"],
])
def test_builtin_example_of_a_classic_solve_is_a_hand_of_cards(
        capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    """`rummy101 solve opening --rules classic` (no --rack) used to solve the Rummy 101 example
    rack and fail with "--rack: token 1 of 22 ('R10') is not a card", blaming a flag the user
    never gave."""
    code, out, err = run(capsys, argv)
    assert code == 0, err
    answer = json.loads(out)
    assert answer["rules"].startswith("classic")
    assert "built-in example" in err and "R10" not in err


def test_builtin_example_of_a_remi_solve_keeps_its_rules(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, ["solve", "opening", "--rules", "remi"])
    assert code == 0 and json.loads(out)["rules"] == "remi"


# --- hint --rules ------------------------------------------------------------------------------

@pytest.mark.parametrize("argv", [
    ["hint", "--rules", "remi"],
    ["hint", "--rules", "classic", "--json", '{"seat": 0, "rack": "R1 R2 R3"}'],
])
def test_hint_rules_without_new_game_is_refused(capsys: pytest.CaptureFixture[str],
                                                argv: list[str]) -> None:
    """`rummy101 hint --rules remi` answered the built-in Rummy 101 example ("rules":
    "rummy101") without a word: --rules is read only with --new-game."""
    code, out, err = run(capsys, argv)
    assert code == 2 and out == ""
    assert "--rules" in err and "--new-game" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_hint_rules_with_new_game_still_works(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, ["hint", "--rules", "remi", "--new-game", "3"])
    assert code == 0 and json.loads(out)["rules"].startswith("remi")


# --- an unknown option after a command names that command ------------------------------------

def test_a_mistyped_option_names_the_command_and_the_option_meant(
        capsys: pytest.CaptureFixture[str]) -> None:
    """`rummy101 sim --gmaes 10` printed the top-level usage (`rummy101 [-h] [--version] ...
    COMMAND`) and "rummy101: error: unrecognized arguments", which lists none of sim's options."""
    code, out, err = run(capsys, ["sim", "--gmaes", "10"])
    assert code == 2 and out == ""
    assert "usage: rummy101 sim" in err
    assert "rummy101 sim: error: unrecognized arguments: --gmaes 10" in err
    assert "did you mean --games?" in err


@pytest.mark.parametrize(("typed", "meant"), [
    (["--jobs", "2"], "rummy101 sim --workers 2"),
    (["--jobs=2"], "rummy101 sim --workers=2"),
    (["-j2"], "rummy101 sim --workers 2"),
    (["--n-jobs", "2"], "rummy101 sim --workers 2"),
    (["--processes", "2"], "rummy101 sim --workers 2"),
    (["--threads", "2"], "rummy101 sim --workers 2"),  # serve's --threads, but sim's is --workers
])
def test_another_tools_name_for_workers_points_at_workers(
        capsys: pytest.CaptureFixture[str], typed: list[str], meant: str) -> None:
    """make -j, joblib's n_jobs, xargs -P: `rummy101 sim --jobs 2` answered "did you mean
    --bots?", the option spelled most like it, which sets something else entirely."""
    code, out, err = run(capsys, ["sim", "--games", "1", *typed])
    assert code == 2 and out == ""
    assert f"rummy101 sim: error: unrecognized arguments: {' '.join(typed)}; --workers sets " \
           f"that here: {meant}\n" in err, err
    assert "--bots" not in err.splitlines()[-1]


def test_a_top_level_option_after_the_command_says_where_it_goes(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, ["sim", "--backend", "pure"])
    assert code == 2
    assert "rummy101 --backend pure sim" in err


def test_a_stray_rack_after_solve_still_points_at_rack(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, ["solve", "opening", "R10", "R11", "R12"])
    assert code == 2
    assert "unrecognized arguments: R10 R11 R12; a rack goes after --rack" in err
    assert "usage: rummy101 solve opening" in err


# --- a rack or meld typed without quotes ------------------------------------------------------

def test_an_unquoted_rack_after_rack_is_quoted_whole(capsys: pytest.CaptureFixture[str]) -> None:
    """`solve opening --rack R1 R2 R3` pointed to `--rack 'R2 R3'`, dropping the R1 that
    --rack had taken."""
    code, _, err = run(capsys, ["solve", "opening", "--rack", "R1", "R2", "R3"])
    assert code == 2
    assert "rummy101 solve opening --rack 'R1 R2 R3'" in err


def test_an_unquoted_meld_says_to_quote_it(capsys: pytest.CaptureFixture[str]) -> None:
    """`rummy101 meld R9 R10 '*'` said only "unrecognized arguments: R10 *"."""
    code, _, err = run(capsys, ["meld", "--rules", "remi", "R9", "R10", "*"])
    assert code == 2
    assert "rummy101 meld --rules remi 'R9 R10 *'" in err
    code, _, err = run(capsys, ["meld", "R9", "R10", "R11"])
    assert "rummy101 meld 'R9 R10 R11'" in err
    code, _, err = run(capsys, ["meld", "R9", "foo"])  # not tiles: no pointer
    assert code == 2 and "in quotes" not in err


# --- a folder where a file goes ---------------------------------------------------------------

@pytest.mark.parametrize("name", ["", "runs.jsonl"])
def test_a_folder_given_as_out_is_called_a_folder(capsys: pytest.CaptureFixture[str],
                                                  tmp_path: Any, name: str) -> None:
    """`rummy101 sim --out /tmp` said "cannot tell the output format of '/tmp' from its
    extension '(none)'", and a folder named runs.jsonl "already exists ... add --force"."""
    folder = tmp_path / name if name else tmp_path
    folder.mkdir(exist_ok=True)
    code, out, err = run(capsys, ["sim", "--games", "1", "--out", str(folder)])
    assert code == 2 and out == ""
    assert "is a folder" in err and "--force" not in err and "extension" not in err


def test_a_folder_given_to_report_is_called_a_folder(capsys: pytest.CaptureFixture[str],
                                                     tmp_path: Any) -> None:
    code, _, err = run(capsys, ["report", str(tmp_path)])
    assert code == 2 and "is a folder" in err and "extension" not in err


@pytest.mark.parametrize("argv", [
    ["sim", "--games", "1", "--out", ""],
    ["sim", "--games", "1", "--out", "", "--resume"],
    ["sim", "--games", "1", "--out", "", "--force"],
    ["report", ""],
])
def test_an_empty_file_name_is_called_empty(capsys: pytest.CaptureFixture[str], tmp_path: Any,
                                            monkeypatch: pytest.MonkeyPatch,
                                            argv: list[str]) -> None:
    """`rummy101 sim --out "$OUT"` with OUT unset said "cannot write '': it is a folder" (the
    empty path is the current folder to pathlib): the name is empty, not a folder."""
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, argv)
    assert code == 2 and out == ""
    assert "empty" in err and "folder" not in err, err
    assert list(tmp_path.iterdir()) == []


def test_one_game_written_is_one_record(capsys: pytest.CaptureFixture[str],
                                        tmp_path: Any) -> None:
    """`rummy101 sim --games 1 --out one.jsonl` said "wrote 1 records" (the header above it
    already says "1 game")."""
    out_file = tmp_path / "one.jsonl"
    code, out, err = run(capsys, ["sim", "--rules", "rummy101(players=2)", "--games", "1",
                                  "--workers", "1", "-q", "--out", str(out_file)])
    assert code == 0, err
    assert f"wrote 1 record to {out_file} (" in out and "1 records" not in out


# --- play's help about the hint ----------------------------------------------------------------

@pytest.mark.parametrize("rules", ["remi", "classic(players=2)"])
def test_play_help_does_not_limit_the_hint_to_rummy101(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, rules: str) -> None:
    """`help` in a Remi or classic game said "?  the hint for this turn (Rummy 101)", and
    docs/play.md that other variants answer "no hint for this variant yet"; `?` answers a hint
    in every variant."""
    monkeypatch.setattr("sys.stdin", io.StringIO("help\n?\nquit\n"))
    bots = "greedy" if rules.startswith("classic") else "greedy,greedy,greedy"
    assert main(["play", "--rules", rules, "--bots", bots, "--seed", "7"]) == 0
    out = capsys.readouterr().out
    assert "the hint for this turn (Rummy 101)" not in out
    assert "\nhint:\n" in out and "no hint" not in out


# --- the variant named as other tools name it --------------------------------------------------

@pytest.mark.parametrize("command", [["sim"], ["hint"], ["play"], ["solve", "opening"], ["meld"]])
def test_variant_points_at_rules(capsys: pytest.CaptureFixture[str], command: list[str]) -> None:
    """The docs call rummy101, remi and classic variants; `--variant remi` was answered "did you
    mean --input?" after `solve opening` and with no pointer after hint, play or sim."""
    code, out, err = run(capsys, [*command, "--variant", "remi"])
    assert code == 2 and out == ""
    shown = " ".join(command)
    assert "unrecognized arguments: --variant" in err  # (meld's argument takes the remi)
    assert f"; --rules sets that here: rummy101 {shown} --rules remi\n" in err, err
    assert "--input" not in err.splitlines()[-1]


@pytest.mark.parametrize(("typed", "meant"), [
    (["--variant", "remi", "--rack", "R1 R2 R3"], "rummy101 solve opening --rules remi ..."),
    (["--rules", "remi", "tabla"], "rummy101 solve tabla --rules remi ..."),
    (["--threshold", "120", "--rack", "R1 R2 R3"], "rummy101 solve opening --threshold 120 ..."),
])
def test_an_option_before_the_solver_says_the_solver_comes_first(
        capsys: pytest.CaptureFixture[str], typed: list[str], meant: str) -> None:
    """`rummy101 solve --rules remi opening` was answered only "invalid choice: 'remi' (choose
    from 'opening', 'penalty', 'tabla')": the option's value read as the solver's name."""
    code, out, err = run(capsys, ["solve", *typed])
    assert code == 2 and out == ""
    assert "the solver's name comes first, then its options" in err, err
    assert err.rstrip().endswith(meant), err


def test_an_option_the_solver_lacks_gets_no_pointer(capsys: pytest.CaptureFixture[str]) -> None:
    """penalty has no --threshold: pointing at `solve penalty --threshold 120` would send the
    user to a second error."""
    code, _, err = run(capsys, ["solve", "--threshold", "120", "penalty", "--rack", "R1 R2 R3"])
    assert code == 2
    assert "comes first" not in err
    assert "invalid choice: '120'" in err


def test_variant_before_a_meld_points_at_the_rule_set_not_the_meld(
        capsys: pytest.CaptureFixture[str]) -> None:
    """`meld --variant 'remi(players=3)' 'R1 R2 R3'`: the meld argument took the rule set, so
    the word after --variant is the meld; the pointer names the rule set, quoted for a shell."""
    code, _, err = run(capsys, ["meld", "--variant", "remi(players=3)", "R1 R2 R3"])
    assert code == 2
    assert err.rstrip().endswith("--rules sets that here: rummy101 meld --rules 'remi(players=3)'"), err

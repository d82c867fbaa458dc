"""What a careless command-line user typed and got a wrong answer or a wrong pointer for (one
test per finding).

Each test runs the command line in-process through ``rummy101.cli.main``: exit status 0 on
success, 2 on a usage error with a message on standard error that says what to fix.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from rummy101.cli import main


def run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


# --- a single-rack flag with --jsonl ----------------------------------------------------------

def test_no_keep_with_jsonl_is_refused_not_ignored(capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """`solve penalty --jsonl --no-keep` answered every line with "keep": true: the flag was
    dropped without a word, so the penalties were not the ones asked for. Like --threshold and
    --must-use, it is refused and the message says to put "keep" in each line."""
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b'{"rack": "R1 R2 R3"}\n')))
    code, out, err = run(capsys, ["solve", "penalty", "--jsonl", "--no-keep"])
    assert code == 2 and out == ""
    assert "--no-keep applies to --rack" in err and '"keep": false' in err
    # the line's own "keep" still works
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(
        b'{"rack": "R1 R2 R3", "keep": false}\n')))
    code, out, err = run(capsys, ["solve", "penalty", "--jsonl"])
    assert code == 0, err
    assert json.loads(out)["keep"] is False


# --- the "a rack goes in quotes" pointer ------------------------------------------------------

@pytest.mark.parametrize("argv, flag", [
    (["solve", "penalty", "--rack", "R1 R2 R3", "--threshold", "5"], "--threshold"),
    (["solve", "penalty", "--rack", "R1 R2 R3", "--must-use", "R1"], "--must-use"),
    (["solve", "opening", "--rack", "R1 R2 R3", "--no-keep"], "--no-keep"),
    (["solve", "tabla", "--rack", "R1 R2 R3", "--no-keep"], "--no-keep"),
])
def test_an_option_of_another_solver_is_not_put_in_the_rack(
        capsys: pytest.CaptureFixture[str], argv: list[str], flag: str) -> None:
    """`solve penalty --rack 'R1 R2 R3' --threshold 5` told the user to quote the option into
    the rack (`--rack 'R1 R2 R3 --threshold 5' (and fix it: token 4 of 5 ('--threshold') is not
    a tile...)`). An option is no tile: the message says which solver takes it instead."""
    code, _, err = run(capsys, argv)
    assert code == 2
    assert "in quotes" not in err and "is not a tile" not in err
    solver = "opening" if flag in ("--threshold", "--must-use") else "penalty"
    assert f"{flag} is an option of 'solve {solver}'" in err


def test_an_unknown_option_after_a_bare_rack_stays_out_of_the_quotes(
        capsys: pytest.CaptureFixture[str]) -> None:
    """`solve opening --rack R1 R2 R3 --bogus`: the rack pointer quotes the tiles only."""
    code, _, err = run(capsys, ["solve", "opening", "--rack", "R1", "R2", "R3", "--bogus"])
    assert code == 2
    assert "rummy101 solve opening --rack 'R1 R2 R3'" in err
    assert "'R1 R2 R3 --bogus'" not in err and "is not a tile" not in err


def test_a_rack_in_place_of_the_solver_is_quoted_whole(capsys: pytest.CaptureFixture[str]) -> None:
    """`rummy101 solve R10 R11 R12` pointed to `solve opening --rack 'R10'`: argparse names only
    the first word as the bad choice, so the pointer dropped the rest of the rack."""
    code, _, err = run(capsys, ["solve", "R10", "R11", "R12"])
    assert code == 2
    assert "rummy101 solve opening --rack 'R10 R11 R12'" in err
    code, _, err = run(capsys, ["solve", "AS", "KS", "QS"])
    assert code == 2
    assert "rummy101 solve opening --rules classic --rack 'AS KS QS'" in err
    code, _, err = run(capsys, ["solve", "--rules", "remi", "R1", "R2"])  # remi is no tile
    assert code == 2 and "'remi R1 R2'" not in err


# --- messages name what the user typed --------------------------------------------------------

@pytest.mark.parametrize("argv, flag", [
    (["sim", "--games", "0"], "--games 0"),
    (["sim", "--games", "-3"], "--games -3"),
    (["sim", "--games", "2", "--workers", "0"], "--workers 0"),
    (["sim", "--games", "2", "--workers", "-1"], "--workers -1"),
])
def test_sim_counts_below_one_name_the_flag(capsys: pytest.CaptureFixture[str], argv: list[str],
                                            flag: str) -> None:
    """`sim --games 0` said "games must be a whole number >= 1, got 0" (the Python argument's
    name) where `--games 99999999999` and `--workers 100000` name the flag."""
    code, _, err = run(capsys, argv)
    assert code == 2
    assert f"error: {flag} " in err and "must be a whole number" not in err


@pytest.mark.parametrize("argv, text", [
    (["meld", "R1 R2 X3"], "the meld: token 3 of 3 ('X3') is not a tile"),
    (["meld", ""], "the meld is empty"),
    (["meld", "R1 R1 R1 R1"], "the meld: token 3 of 4 ('R1'): the meld holds 4 copies of R1"),
])
def test_meld_errors_name_the_meld_not_a_json_field(capsys: pytest.CaptureFixture[str],
                                                    argv: list[str], text: str) -> None:
    """`rummy101 meld 'R1 R2 X3'` said "field 'meld': ..." (the service's JSON field) to a
    command-line user who typed no field; the solve commands name --rack the same way."""
    code, _, err = run(capsys, argv)
    assert code == 2
    assert text in err and "field 'meld'" not in err


# --- a folder where a file goes (sim --out was fixed; report --plot and play --save were not) ---

@pytest.mark.parametrize("argv", [
    ["report", "RECORDS", "--plot", "FOLDER"],
    ["report", "RECORDS", "--plot", "FOLDER.png"],
    ["play", "--save", "FOLDER"],
    ["play", "--save", "FOLDER.json"],
])
def test_a_folder_given_as_the_output_file_is_called_a_folder(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str]) -> None:
    """`report --plot /tmp` said "cannot tell the figure format of '/tmp' from its extension
    '(none)'", and a folder named figs.png (or game.json for play --save) "already exists ...
    add --force", after which --force said it is a folder: two tries to learn one thing."""
    records = tmp_path / "games.jsonl"
    records.write_text(json.dumps({"rules": "rummy101", "bots": ["random"] * 4, "seed": 0,
                                   "game": 0, "scores": [0, 0, 0, 0]}) + "\n")
    folder = tmp_path / "out"
    words = [str(records) if w == "RECORDS" else w for w in argv]
    words = [str(folder) + w[len("FOLDER"):] if w.startswith("FOLDER") else w for w in words]
    Path(words[-1]).mkdir()
    code, out, err = run(capsys, words)
    assert code == 2 and out == ""
    assert "is a folder" in err and "--force" not in err and "extension" not in err


# --- hint --request with the game record play --save wrote ------------------------------------

def test_hint_takes_the_game_record_play_saved(capsys: pytest.CaptureFixture[str],
                                               tmp_path: Path) -> None:
    """`rummy101 play --save game.json` writes a game record and `rummy101 hint` answers "a game
    record", but `hint --request game.json` said 'unknown field "format" in hint request'; a
    `sim --record full` line said "field 'record' is not valid JSON" (its "record": "full"
    read as the record). A bare record is now hinted as {"record": ...}."""
    from rummy101.game import new_game, records

    state = new_game("rummy101", 7)
    state.apply(state.legal_actions()[-1])  # the starter discards: seat 1 is to move
    saved = tmp_path / "game.json"
    saved.write_text(records.dumps(state) + "\n")
    code, out, err = run(capsys, ["hint", "--request", str(saved)])
    assert code == 0, err
    answer = json.loads(out)
    assert answer["seat"] == 1 and answer["turn"]["actions"]
    assert "game record" in err
    # the same as the wrapped request
    code, wrapped, _ = run(capsys, ["hint", "--json", json.dumps({"record": records.to_dict(state)})])
    assert code == 0 and json.loads(wrapped) == answer
    # a finished game (a `sim --record full` line) says so, not "field 'record' is not valid JSON"
    from rummy101.sim import simulate
    line = simulate("rummy101(players=2)", "greedy,greedy", 1, seed=1, workers=1, progress=False,
                    record="full").records[0].to_json()
    code, _, err = run(capsys, ["hint", "--json", json.dumps(line)])
    assert code == 2 and "is over" in err and "not valid JSON" not in err


# --- closed standard streams ------------------------------------------------------------------

@pytest.mark.parametrize("argv, message", [
    (["solve", "opening", "--jsonl"], ""),
    (["hint", "--request", "-"], "standard input is empty"),
    (["play", "--seed", "1"], ""),
])
def test_a_closed_standard_input_is_no_traceback(capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch,
                                                 argv: list[str], message: str) -> None:
    """`rummy101 solve opening --jsonl <&-` (as a supervisor or cron may start it: Python then
    sets sys.stdin to None) ended in "TypeError: 'NoneType' object is not iterable"; hint
    --request - and play in AttributeErrors. A closed input now reads as an empty one."""
    monkeypatch.setattr("sys.stdin", None)
    code = main(argv)
    err = capsys.readouterr().err
    assert code in (0, 2) and "Traceback" not in err and message in err


def test_a_closed_standard_output_is_no_traceback(capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """`echo '{"rack": "R1"}' | rummy101 solve opening --jsonl >&-` ended in "AttributeError:
    'NoneType' object has no attribute 'write'" (print() alone skips a None sys.stdout)."""
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b'{"rack": "R1"}\n')))
    monkeypatch.setattr("sys.stdout", None)
    assert main(["solve", "opening", "--jsonl"]) == 0


def test_a_closed_standard_error_keeps_errors_off_standard_output(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """`rummy101 solve opening --rack X1 2>&-` printed its error message on standard output
    (print(file=None) writes to sys.stdout), where a pipeline reads answers."""
    monkeypatch.setattr("sys.stderr", None)
    assert main(["solve", "opening", "--rack", "X1"]) == 2
    assert capsys.readouterr().out == ""


# --- which core the install built --------------------------------------------------------------

def test_version_says_which_core_is_live(capsys: pytest.CaptureFixture[str],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Without a C++ compiler `pip install .` builds no core and says nothing (README: the
    package "runs on the pure-Python backend, only slower"); nothing in the command line told a
    newcomer which one they got. `rummy101 --version` now names it, and says the C++ core was
    not built when it was not."""
    from rummy101 import _backend

    code, out, _ = run(capsys, ["--version"])
    assert code == 0 and f"({_backend.backend_name()} core" in out
    monkeypatch.setattr(_backend, "available_backends", lambda: ["pure"])
    monkeypatch.setattr(_backend, "backend_name", lambda: "pure")
    code, out, _ = run(capsys, ["--version"])
    assert code == 0 and "(pure core; the C++ core was not built" in out
    monkeypatch.setenv("RUMMY101_BACKEND", "bogus")  # a bad setting is said, not a traceback
    monkeypatch.setattr(_backend, "backend_name", _backend_error)
    code, out, _ = run(capsys, ["--version"])
    assert code == 0 and out.startswith("rummy101 ") and "bogus" in out


def _backend_error() -> str:
    from rummy101.errors import BackendError
    raise BackendError("RUMMY101_BACKEND='bogus' is not a backend; accepted: native, pure, auto")

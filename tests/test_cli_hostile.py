"""The command line against hostile input (newcomer round 9): bytes that are not UTF-8, a Remi
deal that opens with the doubles exchange, worker and game counts that would exhaust the
machine. Each answers a one-line message and exit status 2 (or a per-line ``{"error"}``),
never a traceback."""

from __future__ import annotations

import errno
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import rummy101
from rummy101.cli import main

BINARY = b"\xca\xfe\x00\xff\xfe junk \x80\n\x81\x82"


def test_jsonl_lines_that_are_not_utf8_get_their_own_error(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "mixed.jsonl"
    path.write_bytes(b'{"rack": "R1 R2 R3"}\n\xff\xfe\n{"rack": "R4 R5 R6"}\n')
    assert main(["solve", "opening", "--jsonl", "--input", str(path)]) == 2
    out, err = capsys.readouterr()
    lines = [json.loads(line) for line in out.splitlines()]
    assert [line.get("rack") for line in lines] == ["R1 R2 R3", None, "R4 R5 R6"]
    assert lines[1] == {"error": "line 2 is not UTF-8 text (bad byte at offset 0)"}
    assert "1 of 3 lines had errors" in err and "Traceback" not in err


@pytest.mark.parametrize("op", ["opening", "penalty", "tabla"])
def test_a_binary_jsonl_file_answers_every_line(capsys: pytest.CaptureFixture[str],
                                                tmp_path: Path, op: str) -> None:
    path = tmp_path / "junk.bin"
    path.write_bytes(BINARY)
    assert main(["solve", op, "--jsonl", "--input", str(path)]) == 2
    out, err = capsys.readouterr()
    assert [json.loads(line)["error"] for line in out.splitlines()] == [
        "line 1 is not UTF-8 text (bad byte at offset 0)",
        "line 2 is not UTF-8 text (bad byte at offset 0)"]
    assert "Traceback" not in err


def test_jsonl_from_binary_standard_input(capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b'{"rack": "R1"}\n\xff\n')))
    assert main(["solve", "opening", "--jsonl"]) == 2
    out = capsys.readouterr().out.splitlines()
    assert json.loads(out[0])["rack"] == "R1"
    assert json.loads(out[1]) == {"error": "line 2 is not UTF-8 text (bad byte at offset 0)"}


def test_hint_request_file_that_is_not_utf8(capsys: pytest.CaptureFixture[str],
                                           tmp_path: Path) -> None:
    path = tmp_path / "junk.bin"
    path.write_bytes(BINARY)
    assert main(["hint", "--request", str(path)]) == 2
    err = capsys.readouterr().err
    assert err == f"rummy101 hint: error: --request '{path}' is not UTF-8 text (bad byte at offset 0)\n"


def test_hint_request_from_binary_standard_input(capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(BINARY)))
    assert main(["hint", "--request", "-"]) == 2
    err = capsys.readouterr().err
    assert err == "rummy101 hint: error: standard input is not UTF-8 text (bad byte at offset 0)\n"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_hint_new_game_of_a_remi_deal_that_opens_with_the_doubles_exchange(
        capsys: pytest.CaptureFixture[str], seed: int) -> None:
    from rummy101.game import new_game

    state = new_game("remi", seed)
    assert "decline" in [str(a) for a in state.legal_actions()]  # the exchange (RO-3)
    assert main(["hint", "--new-game", str(seed), "--rules", "remi"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["stage"] == "exchange" and answer["seat"] == state.current_player
    assert answer["turn"]["actions"][0] in [str(a) for a in state.legal_actions()]


# Remi without the exchange: with it every Remi deal opens with it (RO-3: every seat is asked,
# so the turn order tells nobody who holds a double), and no observation of it is hinted
@pytest.mark.parametrize("rules", ["rummy101", "classic", "remi(doubles=off)"])
def test_hint_new_game_equals_the_hint_from_the_seats_observation(
        capsys: pytest.CaptureFixture[str], rules: str) -> None:
    from rummy101.game import new_game
    from rummy101.service import api

    state = new_game(rules, 7)  # remi: the first turn is play, the starter's discard (RO-5)
    assert main(["hint", "--new-game", "7", "--rules", rules]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got == api.hint({"observation": state.observation(state.current_player)})


def _no_simulation(*args: object, **kwargs: object) -> None:
    raise AssertionError("the simulation started")


@pytest.mark.parametrize("games", ["1000000000001", "99999999999999999999"])
def test_sim_refuses_more_games_than_a_run_holds_before_playing(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, games: str) -> None:
    from rummy101.cli import sim

    monkeypatch.setattr(sim, "simulate", _no_simulation)  # 10**20 games once grew 1.5 GB in 12 s
    assert main(["sim", "--games", games]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"rummy101 sim: error: --games {games} is more than one run can "
                          f"play: at most 1,000,000,000,000 games")
    assert "`rummy101 report A.jsonl B.jsonl ...` pools them" in err  # what to do instead
    assert err.count("\n") == 1


def test_sim_takes_more_games_than_a_kept_run_holds(monkeypatch: pytest.MonkeyPatch) -> None:
    """The CLI streams its games (keep_records=False), so the 10,000,000 games a run that keeps
    its records holds are no limit of ``rummy101 sim``."""
    from rummy101.cli import sim

    seen: dict[str, object] = {}

    def record_call(*args: object, **kwargs: object) -> None:
        seen.update(kwargs, games=args[2])
        raise sim.SimError("stopped before a game")  # nothing is played

    monkeypatch.setattr(sim, "simulate", record_call)
    assert main(["sim", "--games", "10000001", "-q"]) == 2
    assert seen["games"] == 10_000_001 and seen["keep_records"] is False


def test_sim_refuses_a_fork_bomb_of_workers(capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    from rummy101.cli import sim

    monkeypatch.setattr(sim, "simulate", _no_simulation)
    assert main(["sim", "--games", "2", "--workers", "100000"]) == 2
    assert capsys.readouterr().err == (
        f"rummy101 sim: error: --workers 100000 would start 100000 processes on "
        f"{os.cpu_count()} CPU(s): give at most {4 * (os.cpu_count() or 1)} (4 per CPU)\n")


def test_sim_starts_no_more_processes_than_games(capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    import concurrent.futures as cf

    sizes: list[int | None] = []

    class Recording(cf.ProcessPoolExecutor):
        def __init__(self, max_workers: int | None = None, **kwargs: object) -> None:
            sizes.append(max_workers)
            super().__init__(max_workers, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(cf, "ProcessPoolExecutor", Recording)
    assert main(["sim", "--games", "2", "--workers", "8", "--quiet"]) == 0
    assert "2 games of rummy101" in capsys.readouterr().out
    assert sizes == [2]


def test_play_on_a_strict_utf8_standard_input_fed_bytes(capsys: pytest.CaptureFixture[str],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """With a strict decoder (a UTF-8 locale other than C.UTF-8, or PYTHONIOENCODING=utf-8)
    a binary file piped into ``rummy101 play`` raised UnicodeDecodeError."""
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(BINARY), encoding="utf-8",
                                                      errors="strict"))
    assert main(["play", "--seed", "1"]) == 2
    err = capsys.readouterr().err
    assert err == ("rummy101 play: error: the input is not utf-8 text (invalid continuation "
                   "byte); give text in that encoding\n")


def test_ctrl_c_says_it_was_interrupted(capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    from rummy101.cli import sim

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(sim, "simulate", interrupted)  # where a long run is when Ctrl-C lands
    assert main(["sim", "--games", "5000", "--workers", "1"]) == 130
    assert capsys.readouterr().err == "\nrummy101 sim: interrupted\n"


def _no_server(*args: object, **kwargs: object) -> None:
    raise AssertionError("the server started")


@pytest.mark.parametrize(("argv", "env", "source", "origin"), [
    (["--cors-origin", "https://app.example/"], None, "--cors-origin", "https://app.example/"),
    (["--cors-origin", "http://localhost:3000", "--cors-origin", "app.example"], None,
     "--cors-origin", "app.example"),
    ([], "https://a.example, ftp://b.example", "RUMMY101_CORS_ORIGINS", "ftp://b.example"),
])
def test_serve_refuses_cors_origins_no_browser_sends(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, argv: list[str],
        env: str | None, source: str, origin: str) -> None:
    """An origin with a trailing slash or a path never equals a browser's Origin header: the
    page meant to be allowed silently got no CORS headers."""
    pytest.importorskip("uvicorn")
    from rummy101.service import server

    monkeypatch.setattr(server, "serve", _no_server)
    if env is None:
        monkeypatch.delenv("RUMMY101_CORS_ORIGINS", raising=False)
    else:
        monkeypatch.setenv("RUMMY101_CORS_ORIGINS", env)
    assert main(["serve", "--port", "1", *argv]) == 2
    assert capsys.readouterr().err == (
        f"rummy101 serve: error: {source} {origin!r} is not a browser origin: give "
        f"scheme://host[:port] with nothing after it, e.g. https://app.example or "
        f"http://localhost:3000\n")


def test_serve_warns_about_the_any_origin(capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("uvicorn")
    from rummy101.service import server

    calls: list[object] = []
    monkeypatch.setattr(server, "serve", lambda *a, **k: calls.append(k["cors_origins"]))
    monkeypatch.setattr("rummy101.cli.serve._cannot_listen", lambda host, port: None)
    assert main(["serve", "--cors-origin", "*", "--cors-origin", "http://[::1]:8080"]) == 0
    err = capsys.readouterr().err
    assert err.startswith("rummy101 serve: warning: CORS origin '*': every web page may call "
                          "this service\n")
    assert calls == ["*,http://[::1]:8080"]


def test_help_texts_say_what_each_command_does(capsys: pytest.CaptureFixture[str]) -> None:
    """The top help claimed every command answers JSON (sim and report print tables); tabla's
    help offered a Rummy 101 rule set, which tabla refuses."""
    assert main(["--help"]) == 0
    top = " ".join(capsys.readouterr().out.split())
    assert "Every command answers JSON" not in top and "sim and report print tables" in top
    assert main(["solve", "tabla", "--help"]) == 0
    tabla = " ".join(capsys.readouterr().out.split())
    assert "rummy101(" not in tabla and "tabla exists only in Remi" in tabla
    assert main(["hint", "--help"]) == 0
    assert "Remi and classic" in " ".join(capsys.readouterr().out.split())


def test_report_of_absurd_scores_says_so(capsys: pytest.CaptureFixture[str],
                                         tmp_path: Path) -> None:
    """A score of 10**400 parsed as an int and the mean raised OverflowError (a traceback)."""
    out = tmp_path / "games.jsonl"
    assert main(["sim", "--games", "2", "--workers", "1", "--quiet", "--out", str(out)]) == 0
    line = json.loads(out.read_text().splitlines()[0])
    line["scores"] = [10**400] + line["scores"][1:]
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(line) + "\n")
    capsys.readouterr()
    assert main(["report", str(bad)]) == 2
    assert capsys.readouterr().err == (
        f"rummy101 report: error: {str(bad)!r} line 1 is no simulation record (a score or count "
        f"of 401 digits; they are at most 1,000,000,000 here): give a file written by "
        f"`rummy101 sim --out`\n")
    from rummy101.sim import SimError, read_records

    with pytest.raises(SimError, match="401 digits"):  # the library's reader, not only the CLI
        read_records(bad)
    first = json.loads(out.read_text().splitlines()[0])["scores"][0]
    line["scores"] = [10**9] + line["scores"][1:]  # the limit itself is read
    line["round_scores"][0][0] += 10**9 - first  # (the scores are the rounds' sums)
    line["best"] = 0  # (the best score now: a best the scores do not give is no record)
    bad.write_text(json.dumps(line) + "\n")
    assert read_records(bad)[0].scores[0] == 10**9


def test_play_refuses_a_huge_line_without_reading_it_as_an_action(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """A 9 MB line took 32 s and 700 MB to refuse, echoed twice (18 MB of output)."""
    line = "discard " + "R1 " * 300_000
    monkeypatch.setattr("sys.stdin", io.StringIO(line + "\nquit\n"))
    assert main(["play", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert len(out) < 5000
    assert "not played: a line of 900007 characters is no action" in out
    assert "leaving the game" in out


def test_a_rack_pasted_where_a_command_goes_is_not_echoed_whole(
        capsys: pytest.CaptureFixture[str]) -> None:
    """argparse quotes an invalid choice whole: 30,000 characters of 'R1 R1 ...'."""
    rack = " ".join(["R1"] * 10_000)
    assert main(["solve", rack]) == 2
    _, err = capsys.readouterr()
    assert "invalid choice" in err and "cut: the message is 30,0" in err
    assert len(err) < 800
    assert main(["solve", "openin"]) == 2  # a short message stays whole
    assert "'openin' (choose from 'opening', 'penalty', 'tabla')" in capsys.readouterr().err


def test_a_bare_rack_after_solve_points_to_rack(capsys: pytest.CaptureFixture[str]) -> None:
    """A newcomer's first try, `rummy101 solve opening R10 R11 R12`, says where the rack goes."""
    assert main(["solve", "opening", "R10", "R11", "R12"]) == 2
    err = capsys.readouterr().err
    assert "unrecognized arguments: R10 R11 R12; a rack goes after --rack" in err
    assert "rummy101 solve opening --rack 'R10 R11 R12'" in err
    assert main(["solve", "opening", "AS", "KS", "QS"]) == 2
    assert "solve opening --rules classic --rack 'AS KS QS'" in capsys.readouterr().err
    assert main(["solve", "R10", "R11"]) == 2  # in place of the solver's name
    assert "a rack goes after --rack" in capsys.readouterr().err
    for argv in (["solve", "opening", "foo"], ["sim", "--games", "5", "R1"]):
        assert main(argv) == 2  # not tiles, or not a solve command: no pointer
        assert "a rack goes after --rack" not in capsys.readouterr().err


def test_a_bare_rack_with_a_typo_still_points_to_rack(capsys: pytest.CaptureFixture[str]) -> None:
    """`rummy101 solve opening R10 R11 R12 Q3` (a typo among tiles) points at the quotes too, and
    says which token to fix; words that are mostly not tiles or cards get no pointer."""
    assert main(["solve", "opening", "R10", "R11", "R12", "Q3", "K14"]) == 2
    err = capsys.readouterr().err
    assert "a rack goes after --rack, in quotes: rummy101 solve opening --rack 'R10 R11 R12 Q3 K14'" in err
    assert "(and fix it: token 4 of 5 ('Q3') is not a tile" in err
    assert main(["solve", "opening", "AS", "KS", "QS", "1H"]) == 2  # cards: the card parser's word
    err = capsys.readouterr().err
    assert "--rules classic --rack 'AS KS QS 1H' (and fix it: token 4 of 4 ('1H') is not a card" in err
    assert main(["meld", "R10", "R11", "R1O"]) == 2
    assert "a meld goes in quotes: rummy101 meld 'R10 R11 R1O' (and fix it: token 3" in capsys.readouterr().err
    for argv in (["solve", "opening", "R10", "foo", "bar"], ["solve", "opening", "foo"]):
        assert main(argv) == 2
        assert "a rack goes after --rack" not in capsys.readouterr().err


def test_a_meld_that_is_too_long_is_called_a_meld(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["meld", " ".join(["R1"] * 10_000)]) == 2
    err = capsys.readouterr().err
    assert "at most 2000 are accepted (a meld holds at most" in err and "rack" not in err


def test_the_library_refuses_what_the_cli_refuses_before_any_game() -> None:
    """simulate() itself: 10**20 games grew 1.5 GB before a game, workers=100000 forked until
    the load average passed 70."""
    import os

    from rummy101.sim import MAX_GAMES, SimError, max_workers, simulate

    bots = ["random"] * 4
    with pytest.raises(SimError, match=f"at most {MAX_GAMES:,}"):
        simulate("rummy101", bots, 10**20)
    with pytest.raises(SimError, match=r"give at most \d+ \(4 per CPU\)"):
        simulate("rummy101", bots, 2, workers=max_workers() + 1)
    assert max_workers() == 4 * (os.cpu_count() or 1)
    r = simulate("rummy101", bots, 1, workers=max_workers(), progress=False)  # one process
    assert r.games == 1


class _FullDisk(io.StringIO):
    """Standard output on a full disk (`> out.json` with no room left): every write fails."""

    def write(self, text: str) -> int:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


@pytest.mark.parametrize("argv", [
    ["solve", "opening", "--rack", "R1 R2 R3"], ["solve", "penalty", "--jsonl"], ["meld", "R1 R2 R3"],
    ["demo"], ["hint", "--new-game", "3"], ["sim", "--games", "2", "--workers", "1", "-q"],
    ["play", "--seed", "1"], ["--version"]])
def test_output_that_cannot_be_written_is_one_line_not_a_traceback(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        argv: list[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO('{"rack": "R1 R2 R3"}\nquit\n'))
    monkeypatch.setattr("sys.stdout", _FullDisk())
    assert main(argv) == 2
    command = "rummy101" + (f" {argv[0]}" if not argv[0].startswith("-") else "")
    assert capsys.readouterr().err.endswith(
        f"{command}: error: cannot write the output: No space left on device; "
        "free space or write it elsewhere\n")


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_standard_output_on_a_full_device_exits_2_without_a_traceback() -> None:
    # buffered standard output fails only when flushed, at the end of the command
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    env["PYTHONPATH"] = os.pathsep.join([str(Path(rummy101.__file__).parents[1]),
                                         env.get("PYTHONPATH", "")])
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "rummy101", "solve", "opening", "--rack",
                               "R1 R2 R3"], stdout=full, stderr=subprocess.PIPE, text=True,
                              env=env, check=False)
    assert done.returncode == 2
    assert done.stderr == ("rummy101 solve: error: cannot write the output: No space left on "
                           "device; free space or write it elsewhere\n")


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("unbuffered", [False, True])
@pytest.mark.parametrize("argv", [["--help"], ["--version"], ["sim", "--help"]])
def test_help_and_version_on_a_full_device_exit_2(argv: list[str], unbuffered: bool) -> None:
    # argparse drops the OSError of its own writes: `--help > /dev/full` exited 0, nothing written
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    if unbuffered:
        env["PYTHONUNBUFFERED"] = "1"
    env["PYTHONPATH"] = os.pathsep.join([str(Path(rummy101.__file__).parents[1]),
                                         env.get("PYTHONPATH", "")])
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "rummy101", *argv], stdout=full,
                              stderr=subprocess.PIPE, text=True, env=env, check=False)
    assert done.returncode == 2
    command = " ".join(["rummy101", *argv[:-1]])
    assert done.stderr == (f"{command}: error: cannot write the output: No space left on "
                           "device; free space or write it elsewhere\n")


def test_help_into_a_pipe_closed_early_is_not_an_error() -> None:
    # `rummy101 --help | head -1`: the rest of the help is dropped quietly, as before
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(Path(rummy101.__file__).parents[1]), os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.Popen([sys.executable, "-m", "rummy101", "--help"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # the reader goes away before the help is written
    err = proc.stderr.read().decode()
    assert proc.wait() == 0 and "Traceback" not in err, err


def test_hint_new_game_refuses_empty_rules_as_sim_and_solve_do(
        capsys: pytest.CaptureFixture[str]) -> None:
    # an empty --rules was read as the default rummy101: the hint was for rules nobody named
    assert main(["hint", "--new-game", "1", "--rules", ""]) == 2
    err = capsys.readouterr().err
    assert "rules '' are not of the form variant" in err and "Traceback" not in err


def test_a_bare_joker_globbed_by_the_shell_is_named(capsys: pytest.CaptureFixture[str],
                                                     tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """`rummy101 meld * * K13` typed in a shell reaches us as the names of the folder's files
    (the shell expands *): the usage error listed them as arguments nobody took and did not say
    why; it now says that the shell replaced the joker and how to write it. Words that name no
    file get the usual pointer to quotes."""
    (tmp_path / "notes.txt").write_text("")
    (tmp_path / "data").mkdir()
    monkeypatch.chdir(tmp_path)
    globbed = ["data", "notes.txt"]
    assert main(["meld", *globbed, *globbed, "K13"]) == 2
    err = capsys.readouterr().err
    assert "'data', 'notes.txt' are names in this folder" in err
    assert "replaces an unquoted * (a joker)" in err and "rummy101 meld 'R5 R6 *'" in err
    assert main(["solve", "opening", "--rack", *globbed, "R1", "R2", "R3"]) == 2
    err = capsys.readouterr().err
    assert "are names in this folder" in err and "rummy101 solve opening --rack 'R5 R6 *'" in err
    assert main(["solve", "opening", "R1", "R2", *globbed[1:]]) == 2
    assert "'notes.txt' is a name in this folder" in capsys.readouterr().err
    # one file here: the meld (or rack) took its name, and the notation error says why
    assert main(["meld", "notes.txt"]) == 2
    assert "('notes.txt') is not a tile" in (err := capsys.readouterr().err)
    assert "'notes.txt' is a name in this folder" in err
    assert main(["solve", "opening", "--rack", "data"]) == 2
    assert "'data' is a name in this folder" in capsys.readouterr().err
    # no such file: the pointer to quotes as before
    assert main(["meld", "R10", "R11", "R1O"]) == 2
    err = capsys.readouterr().err
    assert "a meld goes in quotes" in err and "in this folder" not in err

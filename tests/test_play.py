"""``rummy101 play`` (issue 16): a person in seat 0 plays a whole game through standard input
(no terminal) in every playable variant; the board comes from the person's observation only;
``?`` hints (Rummy 101) or says there is none; ``undo`` is the engine's ``reset``."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from rummy101 import sim
from rummy101.cli import main
from rummy101.cli.play import completions, format_board, play
from rummy101.game import Action, State, new_game, playable_variants

ROOT = Path(__file__).resolve().parent.parent


def script_of(rules: str, seed: int) -> tuple[list[str], Any]:
    """Seat 0's actions in game 0 of `rummy101 sim --seed seed` with greedy everywhere: the same
    deal and the same bots (seeds) as `rummy101 play --seed seed`, so typing these lines plays
    that very game."""
    players = new_game(rules, 0).observation(0)["rack_sizes"]
    rec = sim.play_game(rules, ["greedy"] * len(players), seed, 0, match_rounds=1, record="full")
    assert rec.game_record is not None
    state = new_game(rules, rec.seed, match_rounds=1)
    mine = []
    for text in rec.game_record["actions"]:
        if state.current_player == 0:
            mine.append(text)
        state.apply(text)
    return mine, rec


def run_play(rules: str, seed: int, lines: list[str], **kw: Any) -> tuple[Any, str]:
    out = io.StringIO()
    state = play(rules, None, seed, match_rounds=1, stdin=io.StringIO("\n".join(lines) + "\n"),
                 stdout=out, **kw)
    return state, out.getvalue()


@pytest.mark.parametrize("variant", playable_variants())
def test_a_whole_game_through_stdin(variant: str) -> None:
    rules = f"{variant}(players=2)"
    mine, rec = script_of(rules, 5)
    lines = ["help", "?", "legal", "board", "no such action", "12345", *mine]
    state, out = run_play(rules, 5, lines)
    assert state.is_terminal
    assert [str(a) for a in state.history] == rec.game_record["actions"]
    assert tuple(state.standings()) == rec.scores
    assert "game over: standings" in out and "your rack (" in out and "stock: " in out
    assert "not played:" in out and "no action number 12345" in out
    assert "hint:" in out and "no hint" not in out
    if variant == "rummy101":
        assert "discard" in out.split("hint:")[1]


@pytest.mark.parametrize("variant", playable_variants())
def test_the_help_gives_examples_of_the_variants_own_pieces(variant: str) -> None:
    """Each action the help text shows as an example ('run R3 R4 R5') parses under the game's
    rules: classic's help showed tiles, which a card game refuses ("'R3' is not a card")."""
    _, out = run_play(f"{variant}(players=2)", 5, ["help", "quit"])
    head = out.split("type an action as listed", 1)[1].split("Commands:", 1)[0]
    examples = re.findall(r"'([^']+)'", head)
    assert len(examples) >= 4, head
    for text in examples:
        if text != "legal":
            Action.parse(text, f"{variant}(players=2)")


def test_the_board_shows_only_the_persons_view(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing of the state but seat 0's observation is drawn: reading another seat's rack or
    the full-information str(state) fails the test."""
    real_rack = State.rack

    def rack(self: State, seat: int) -> Any:
        assert seat == 0, f"play read seat {seat}'s hidden rack"
        return real_rack(self, seat)

    def no_str(self: State) -> str:
        raise AssertionError("play printed str(state), which shows every rack")

    mine, _ = script_of("rummy101(players=2)", 9)
    monkeypatch.setattr(State, "rack", rack)
    monkeypatch.setattr(State, "__str__", no_str)
    monkeypatch.setattr(State, "__format__", lambda self, spec: no_str(self))
    state, out = run_play("rummy101(players=2)", 9, ["?", *mine])
    assert state.is_terminal
    monkeypatch.undo()
    other = " ".join(map(str, new_game("rummy101(players=2)", sim.game_seed(9, 0)).rack(1)))
    assert other not in out


def test_board_numbers_table_melds_from_the_observation() -> None:
    s = new_game("rummy101(players=2)", 3)        # seat 0 holds B6 B7 B8 K11 K12 K13, once
    s.apply("run B6 B7 B8")
    s.apply("run K11 K12 K13")
    board = format_board(s.observation(0), ["you", "greedy"])
    assert "  [0] B6 B7 B8   (seat 0, run, value 21, staged)" in board
    assert "  [1] K11 K12 K13   (seat 0, run, value 36, staged)" in board
    assert "your turn (play)" in board and "your rack (16):" in board
    assert "K12" not in board.split("your rack")[1]


def test_undo_is_the_engines_reset() -> None:
    rules = "rummy101(players=2)"
    mine, rec = script_of(rules, 3)
    first = new_game(rules, sim.game_seed(3, 0))
    lay = next(str(a) for a in first.legal_actions() if str(a).startswith("run"))
    state, out = run_play(rules, 3, ["undo", lay, "undo", *mine])
    assert "nothing to undo now" in out                       # at the turn's start: no reset
    assert "undone: the turn starts again (reset)" in out
    assert [str(a) for a in state.history[:2]] == [lay, "reset"]
    assert tuple(state.standings()) == rec.scores             # the same game afterwards


def test_undo_where_the_rules_have_no_reset() -> None:
    mine, _ = script_of("classic(players=2)", 2)
    _, out = run_play("classic(players=2)", 2, [mine[0], "undo", *mine[1:]])
    assert "nothing to undo now: the classic rules offer no 'reset'" in out


def test_end_of_input_and_quit_leave_the_game() -> None:
    state, out = run_play("remi(players=2)", 1, [])
    assert "end of input: leaving the game" in out and not state.is_terminal
    state, out = run_play("rummy101(players=2)", 1, ["quit", "draw"])
    assert "leaving the game" in out and state.history == []


def test_completion_of_legal_actions() -> None:
    s = new_game("rummy101(players=2)", 3)
    legal = s.legal_actions()
    runs = [str(a) for a in legal if str(a).startswith("run ")]
    assert len(runs) >= 2 and completions("run", legal) == runs
    assert completions(runs[0], legal) == [runs[0]]
    assert completions("UN", legal) == ["undo"]
    assert all(c.startswith("discard ") for c in completions("disc", legal))


def test_bad_bots_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--rules", "rummy101(players=3)", "--bots", "greedy"]) == 2
    assert "give 2 bots for seats 1 to 2" in capsys.readouterr().err
    assert main(["play", "--rules", "remi(players=2)", "--bots", "nobot"]) == 2
    assert "unknown bot 'nobot'" in capsys.readouterr().err


def test_the_command_through_a_pipe(tmp_path: Path) -> None:
    """`rummy101 play` as a process, standard input a pipe (no TTY), to the end of the game;
    --save writes a record that replays."""
    mine, rec = script_of("rummy101(players=2)", 4)
    save = tmp_path / "game.json"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "python") + os.pathsep
           + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.run(
        [sys.executable, "-m", "rummy101", "play", "--rules", "rummy101(players=2)", "--seed", "4",
         "--rounds", "1", "--save", str(save)], input="\n".join(["?", *mine]) + "\n",
        capture_output=True, text=True, env=env, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    assert "game over: standings" in proc.stdout and "hint:" in proc.stdout
    from rummy101.game import records
    assert tuple(records.loads(save.read_text()).standings()) == rec.scores


def _boards(rules: str, games: int) -> list[str]:
    """Seat 0's board before every action of a few greedy games (seat 0 greedy too)."""
    import random

    from rummy101.bots import get_bot
    boards = []
    for g in range(games):
        s = new_game(rules, g)
        n = len(s.observation(0)["rack_sizes"])
        bots = [get_bot("greedy", random.Random(10 * g + k)) for k in range(n)]
        while not s.is_terminal:
            boards.append(format_board(s.observation(0), ["you"] + ["greedy"] * (n - 1)))
            p = s.current_player
            s.apply(bots[p].act(s.observation(p), s.legal_actions()))
    return boards


@pytest.mark.parametrize(("rules", "words"), [
    ("rummy101(threshold=increasing,button_jokers=1)",
     ["to open: ", "(increasing: an opening must beat", "used the joker button",
      "this turn: you must use ", "this turn: your opening melds are staged"]),
    ("remi", ["Atu: ", "face up in the stock", "train: ", "(the first discard: never taken)",
              "laid down", "doubles announced: ", "3 or fewer left"]),
    ("classic", ["dealer: seat ", "going out: any play that empties your hand (CR-4)",
                 "laid down"]),
])
def test_board_says_the_variants_facts_in_words(rules: str, words: list[str]) -> None:
    """The board a person reads names each variant's public facts (the threshold, the joker
    button, the Atu, the train, the doubles, the dealer, a discard that must be used) in words,
    and no line of it is an observation field dumped as JSON (it was: ``turn_state: {"took":
    null, ...}``, ``laid: [false, false, ...]``)."""
    boards = _boards(rules, 6)
    text = "\n".join(boards)
    for w in words:
        assert w in text, f"{rules}: no board says {w!r}"
    for board in boards:
        for line in board.splitlines():
            assert not any(t in line for t in ('{"', '": ', "[false", "[true", "[0, ", "null")), line


def test_board_lists_an_unknown_field_as_it_is() -> None:
    """A plugin variant's own observation field still reaches the person (as JSON)."""
    obs = dict(new_game("rummy101(players=2)", 7).observation(0))
    obs["omens"] = {"crows": 3}
    assert 'omens: {"crows": 3}' in format_board(obs).splitlines()

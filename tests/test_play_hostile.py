"""``rummy101 play`` when things go wrong (issue 16): a bot that raises or answers an illegal
action stops the game with one line naming its seat and bot (exit 2, the game so far still
saved), a bot whose constructor raises is named before the deal, ``--save`` keeps an existing
file unless ``--force`` and is checked before the game; the board says who took which discard."""

from __future__ import annotations

import random
import sys
import textwrap
from pathlib import Path

import pytest
from rummy101.bots import get_bot
from rummy101.cli import main
from rummy101.cli.play import format_board
from rummy101.game import new_game, records

BOTS = textwrap.dedent('''
    from rummy101.bots import Bot

    class Crash(Bot):
        """Plays its first two actions (a draw and a discard), then raises."""
        def __init__(self, rng=None):
            super().__init__(rng)
            self.calls = 0

        def act(self, observation, legal_actions):
            self.calls += 1
            if self.calls > 2:
                raise RuntimeError("bot bug")
            discards = [a for a in legal_actions if a.verb == "discard"]
            return (discards or legal_actions)[0]

    class Cheat(Bot):
        def act(self, observation, legal_actions):
            return "open"

    class First(Bot):
        """Plays the first legal action: in Rummy 101 it lays its melds and takes them back
        with reset for ever (docs/bots.md); it gives up after 5,000 actions, so that a `play`
        without a guard fails instead of hanging."""
        def __init__(self, rng=None):
            super().__init__(rng)
            self.calls = 0

        def act(self, observation, legal_actions):
            self.calls += 1
            if self.calls > 5000:
                raise RuntimeError("still looping")
            return legal_actions[0]

    class BadInit(Bot):
        def __init__(self, rng=None):
            raise ValueError("no weights file")
''')


@pytest.fixture()
def bots(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    (tmp_path / "playbots.py").write_text(BOTS)
    monkeypatch.delitem(sys.modules, "playbots", raising=False)
    monkeypatch.syspath_prepend(str(tmp_path))
    return "playbots"


def play(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], lines: list[str],
         *argv: str) -> tuple[int, str, str]:
    import io
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{x}\n" for x in lines)))
    code = main(["play", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def turns(n: int, seed: int = 2) -> list[str]:
    """Seat 0's lines for its first ``n`` turns of `play --rules classic(players=2) --seed
    seed` while seat 1 only draws and discards: draw, then discard the first card it may."""
    from rummy101.sim import game_seed
    state = new_game("classic(players=2)", game_seed(seed, 0))
    lines = []
    while len(lines) < 2 * n:
        legal = [str(a) for a in state.legal_actions()]
        action = "draw" if "draw" in legal else next(a for a in legal if a.startswith("discard"))
        if state.current_player == 0:
            lines.append(action)
        state.apply(action)
    return lines


def test_a_raising_bot_names_seat_and_bot_and_the_game_is_saved(
        bots: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    save = tmp_path / "g.json"
    code, out, err = play(monkeypatch, capsys, turns(3), "--rules", "classic(players=2)",
                          "--bots", "playbots:Crash", "--seed", "2", "--save", str(save))
    assert code == 2 and "Traceback" not in err
    assert err.startswith("rummy101 play: error: the bot of seat 1 (playbots:Crash) failed at "
                          "turn ") and err.rstrip().endswith("RuntimeError: bot bug; the game "
                                                             "stops here")
    state = records.loads(save.read_text())   # the game so far replays: every move shown
    shown = [x.split(": ", 1)[1] for x in out.splitlines()
             if x.startswith(("  you: ", "  seat 1 (playbots:Crash): "))]
    assert not state.is_terminal and [str(a) for a in state.history] == shown
    assert sum(x.startswith("  seat 1 (") for x in out.splitlines()) == 2


def test_an_illegal_bot_action_names_seat_and_bot(bots: str, monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = play(monkeypatch, capsys, turns(1), "--rules", "classic(players=2)",
                        "--bots", "playbots:Cheat", "--seed", "2")
    assert code == 2 and "the bot of seat 1 (playbots:Cheat) failed" in err
    assert "IllegalAction" in err and err.count("\n") == 1


def test_a_looping_bot_stops_the_game_and_the_game_is_saved(
        bots: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A bot that never ends its turn printed its moves until Ctrl-C: now, past MAX_TURN_STEPS
    actions in one turn, one line names its seat and bot and the last actions (which show the
    loop, as `sim` does), exit 2, and --save writes the game so far."""
    from rummy101.sim import game_seed
    limit = 1000  # rummy101.cli.play.MAX_TURN_STEPS (checked last)
    first = new_game("rummy101(players=2)", game_seed(2, 0))
    mine = next(str(a) for a in first.legal_actions() if str(a).startswith("discard"))
    save = tmp_path / "g.json"
    code, out, err = play(monkeypatch, capsys, [mine], "--rules", "rummy101(players=2)",
                          "--bots", "playbots:First", "--seed", "2", "--save", str(save))
    assert code == 2 and "Traceback" not in err and err.count("\n") == 1
    assert err.startswith("rummy101 play: error: the bot of seat 1 (playbots:First) did not end "
                          f"its turn within {limit} actions (turn 1, ")
    last = err.split("the last actions: ")[1].split("; ")[0].split(", ")
    assert len(last) == 12 and "reset" in last
    assert sum(x.startswith("  seat 1 (") for x in out.splitlines()) == limit
    state = records.loads(save.read_text())  # the game so far replays
    assert not state.is_terminal and len(state.history) == limit + 1
    assert [str(a) for a in state.history][-12:] == last
    from rummy101.cli import play as play_module
    assert play_module.MAX_TURN_STEPS == limit


def test_a_bot_that_cannot_be_made(bots: str, monkeypatch: pytest.MonkeyPatch,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = play(monkeypatch, capsys, ["quit"], "--rules", "remi(players=3)",
                          "--bots", "greedy,playbots:BadInit")
    assert code == 2 and out == ""
    assert err == ("rummy101 play: error: making the bot of seat 2 (playbots:BadInit) failed: "
                   "ValueError: no weights file\n")


def test_save_is_checked_before_the_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    save = tmp_path / "g.json"
    save.write_text("keep me")
    argv = ["--rules", "rummy101(players=2)", "--bots", "greedy", "--seed", "1"]
    code, out, err = play(monkeypatch, capsys, ["quit"], *argv, "--save", str(save))
    assert code == 2 and out == "" and "already exists" in err and "--force" in err
    assert save.read_text() == "keep me"
    code, out, err = play(monkeypatch, capsys, ["quit"], *argv, "--save", str(save), "--force")
    assert code == 0 and records.loads(save.read_text()).history == []
    code, out, err = play(monkeypatch, capsys, ["quit"], *argv, "--save",
                          str(tmp_path / "no" / "g.json"))
    assert code == 2 and out == "" and "the folder '" in err


def test_the_board_says_who_took_which_discard() -> None:
    """Issue 16: a discard taken by another player does not silently vanish from the board."""
    for seed in range(40):
        state = new_game("rummy101(players=3)", seed)
        players = [get_bot("greedy", random.Random(s)) for s in range(3)]
        while not state.is_terminal:
            obs = state.observation(0)
            if obs.get("taken_discards"):
                taken = obs["taken_discards"][-1]
                board = format_board(obs, ["you", "greedy", "greedy"])
                line = [x for x in board.splitlines() if x.startswith("discards taken")]
                assert line and (f"seat {taken['seat']} took {taken['tile']} from seat "
                                 f"{taken['from']} (turn {taken['turn']})") in line[0]
                return
            seat = state.current_player
            state.apply(players[seat].act(state.observation(seat), state.legal_actions()))
    pytest.fail("no discard taken in 40 greedy games")


class _CtrlC:
    """Standard input that gives ``lines`` and then raises what Ctrl-C raises in a read."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = [f"{x}\n" for x in lines]

    def readline(self) -> str:
        if not self.lines:
            raise KeyboardInterrupt
        return self.lines.pop(0)

    def isatty(self) -> bool:
        return False


def test_ctrl_c_saves_the_game_so_far(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    """Ctrl-C is how many leave a terminal game: --save still writes the game so far (as
    end of input and a failing bot do), then the usual 'interrupted' line and exit 130."""
    save = tmp_path / "g.json"
    mine = turns(3)
    monkeypatch.setattr(sys, "stdin", _CtrlC(mine))
    code = main(["play", "--rules", "classic(players=2)", "--bots", "greedy", "--seed", "2",
                 "--save", str(save)])
    out, err = capsys.readouterr()
    assert code == 130 and err == "\nrummy101 play: interrupted\n"
    assert f"game record written to {save}" in out
    state = records.loads(save.read_text())  # the game so far replays: every move shown
    shown = [x.split(": ", 1)[1] for x in out.splitlines()
             if x.startswith(("  you: ", "  seat 1 (greedy): "))]
    assert not state.is_terminal and [str(a) for a in state.history] == shown
    assert sum(x.startswith("  you: ") for x in out.splitlines()) >= 2


@pytest.mark.parametrize(("rules", "own", "foreign"), [
    ("remi(players=2)", "announce T", "button"),
    ("classic(players=2)", "add C to M", "retrieve"),
])
def test_an_unknown_verb_lists_this_games_verbs(monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str], rules: str,
                                                own: str, foreign: str) -> None:
    """`foo` in a Remi game listed Rummy 101's verbs (button, pair, retrieve) and "or a verb of
    the variant's engine", not Remi's announce, tabla, close...; the service already said the
    game's own (its _this_games_verbs), the terminal game did not."""
    code, out, _ = play(monkeypatch, capsys, ["foo", "quit"], "--rules", rules, "--seed", "3")
    assert code == 0  # (quit leaves the game)
    line = next(x for x in out.splitlines() if x.startswith("not played: action 'foo'"))
    assert f"the actions of {rules.split('(')[0]}: " in line and own in line, line
    assert foreign not in line and "variant's engine" not in line, line
    assert line.endswith("'legal' lists the actions playable now)"), line


def test_state_apply_of_an_unknown_verb_lists_this_games_verbs() -> None:
    """The Python API: `state.apply("foo")` in a Remi game listed Rummy 101's verbs too."""
    from rummy101.errors import NotationError

    state = new_game("remi(players=2)", 3)
    with pytest.raises(NotationError) as info:
        state.apply("foo")
    text = str(info.value)
    assert "the actions of remi: " in text and "announce T" in text and "button" not in text, text
    assert text.endswith("legal_actions() lists the actions playable now)"), text

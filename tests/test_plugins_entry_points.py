"""A user's bot published under the ``rummy101.bots`` entry-point group (issue 16), resolved in
every worker of a process pool, and the errors a broken plugin gives: a plugin whose import
fails, a bot class whose constructor raises (before any game, and in ``rummy101 sim``), named
in one line each.

The entry point comes from a ``.dist-info`` folder on ``sys.path`` (what ``pip install`` of a
package declaring ``[project.entry-points."rummy101.bots"]`` leaves), so no package is installed.
"""

from __future__ import annotations

import os
import sys
import textwrap
from pathlib import Path

import pytest
from rummy101.bots import BotError, bot_names, get_bot
from rummy101.cli import main
from rummy101.sim import GameFailed, SimError, play_game, simulate

PLUGIN = textwrap.dedent('''
    from rummy101.bots import Bot

    class HighDiscard(Bot):
        """Lays nothing: draws or takes, then discards its highest tile."""
        name = "highdiscard"

        def act(self, observation, legal_actions):
            discards = [a for a in legal_actions if a.verb == "discard"]
            if discards:
                return max(discards, key=lambda a: (int(a.tiles[0]), str(a)))
            return self.rng.choice([a for a in legal_actions if a.verb in ("draw", "take")]
                                   or list(legal_actions))

    class BadInit(Bot):
        def __init__(self, rng=None):
            raise ValueError("no config file found")

    class LateInit(Bot):
        """Fails only with some seeds: the name check passes, a game's seat does not."""
        def __init__(self, rng=None):
            super().__init__(rng)
            if self.rng.random() < 0.5:
                raise ValueError("unlucky seed")

        def act(self, observation, legal_actions):
            return legal_actions[-1]
''')


@pytest.fixture()
def published(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``epbots/play.py`` and a dist-info folder declaring three entry points."""
    pkg = tmp_path / "epbots"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "play.py").write_text(PLUGIN)
    info = tmp_path / "epbots-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: epbots\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        "[rummy101.bots]\n"
        "HighDiscard = epbots.play:HighDiscard\n"
        "badinit = epbots.play:BadInit\n"
        "needsdep = epbots.missing_dep:Bot\n")
    for mod in [m for m in sys.modules if m == "epbots" or m.startswith("epbots.")]:
        monkeypatch.delitem(sys.modules, mod)
    from rummy101.bots import base  # a loaded entry point registers its bot: not past this test
    monkeypatch.setattr(base, "_REGISTRY", dict(base._REGISTRY))
    monkeypatch.setattr(base, "_OPTIONS", dict(base._OPTIONS))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
        p for p in (str(tmp_path), os.environ.get("PYTHONPATH", "")) if p))
    return tmp_path


def test_entry_point_names_are_listed_and_resolve(published: Path) -> None:
    assert {"highdiscard", "badinit", "needsdep"} <= set(bot_names())
    bot = get_bot("HIGHDISCARD")   # names are case-insensitive, as the registered ones
    assert type(bot).__name__ == "HighDiscard"


def test_entry_point_bot_on_two_processes(published: Path) -> None:
    bots = ["highdiscard", "greedy", "random", "random"]
    one = simulate("rummy101", bots, 6, seed=3, workers=1, progress=False)
    two = simulate("rummy101", bots, 6, seed=3, workers=2, progress=False)
    assert one.records == two.records and one.bots[0] == "highdiscard"
    # the plugin played: it never lays, so it never finishes and keeps its tiles
    assert one.seats[0].finished == 0


def test_entry_point_that_fails_to_import(published: Path) -> None:
    with pytest.raises(BotError, match=r"bot 'needsdep' of entry point 'epbots.missing_dep:Bot' "
                                       r"failed to import: ModuleNotFoundError"):
        get_bot("needsdep")


@pytest.mark.parametrize("name", ["badinit", "epbots.play:BadInit"])
def test_a_raising_constructor_is_named_before_any_game(published: Path, name: str) -> None:
    with pytest.raises(SimError) as info:
        simulate("rummy101(players=2)", [name, "random"], 2, workers=1, progress=False)
    msg = str(info.value)
    assert msg.startswith(f"bot {name!r}: making it with a random.Random failed: ValueError: "
                          "no config file found")
    assert msg.count(f"bot {name!r}") == 1   # said once (it was said twice before)
    assert msg.endswith(f"(in the bots '{name},random')")


def test_a_constructor_failing_in_one_game_names_game_and_seat(published: Path) -> None:
    """LateInit passes the name check (seeded 0) and fails in a seat whose seed is unlucky."""
    failures = []
    for index in range(8):
        try:
            play_game("rummy101(players=2)", ["random", "epbots.play:LateInit"], 4, index)
        except GameFailed as exc:
            failures.append((index, str(exc)))
    assert failures, "no unlucky seed in 8 games"
    index, msg = failures[0]
    assert msg.startswith(f"game {index} of the run with seed 4: making the bot of seat 1 "
                          "(epbots.play:LateInit) failed: ValueError: unlucky seed")


def test_cli_names_the_broken_bot(published: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "--rules", "rummy101(players=2)", "--bots", "badinit,greedy",
                 "--games", "2", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("rummy101 sim: error: bot 'badinit': making it with a random.Random "
                          "failed: ValueError: no config file found")
    assert "Traceback" not in err and err.count("\n") == 1


def test_an_entry_point_bot_given_options_is_told_it_has_none(
        published: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``highdiscard:depth=3`` before the entry point was first loaded said "unknown bot
    'highdiscard'" while listing highdiscard among the accepted bots; it is known, and has no
    option (options are declared by register_bot, docs/bots.md)."""
    from rummy101.bots import base
    monkeypatch.delitem(base._REGISTRY, "highdiscard", raising=False)  # not loaded yet
    with pytest.raises(BotError, match=r"bot 'highdiscard' has no option 'depth' \(in "
                                       r"'highdiscard:depth=3'\); its options: none"):
        get_bot("highdiscard:depth=3")
    assert type(get_bot("highdiscard")).__name__ == "HighDiscard"

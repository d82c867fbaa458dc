"""A user's own bot by module path (``package.module:BotClass``) or entry point: in ``get_bot``,
in the simulator on 2 processes and on a Dask LocalCluster with worker processes, and clear
errors when it is wrong (issue 16)."""

from __future__ import annotations

import importlib
import os
import random
import sys
import textwrap
from pathlib import Path

import pytest
from rummy101.bots import BotError, get_bot
from rummy101.sim import SimError, simulate

PLUGIN = textwrap.dedent('''
    from rummy101.bots import Bot

    class OpenAsap(Bot):
        """Takes the first non-discard action while there is one, then discards the highest tile."""
        name = "openasap"

        def act(self, observation, legal_actions):
            others = [a for a in legal_actions if a.verb not in ("discard", "reset")]
            if others and self.rng.random() < 0.5:
                return others[0]
            discards = [a for a in legal_actions if a.verb == "discard"]
            return max(discards, key=lambda a: int(a.tiles[0])) if discards else legal_actions[0]

    class NoAct:
        def __init__(self, rng):
            pass
''')


@pytest.fixture()
def plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    pkg = tmp_path / "userbots"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "mine.py").write_text(PLUGIN)
    (pkg / "broken.py").write_text("import no_such_module_here\n")
    for mod in [m for m in sys.modules if m == "userbots" or m.startswith("userbots.")]:
        monkeypatch.delitem(sys.modules, mod)  # each test's package lives in its own tmp_path
    monkeypatch.syspath_prepend(str(tmp_path))
    # worker processes (Dask spawns them) find the plugin package here, and rummy101 where this
    # process found it: the installed package, or the source tree of PYTHONPATH=python
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
        p for p in (str(tmp_path), os.environ.get("PYTHONPATH", "")) if p))
    return "userbots.mine:OpenAsap"


def test_module_path_bot(plugin: str) -> None:
    bot = get_bot(plugin, random.Random(3))
    assert type(bot).__name__ == "OpenAsap" and bot.name == "openasap"


def test_plugin_in_simulation_same_result_on_two_processes(plugin: str) -> None:
    bots = [plugin, "greedy", "random", "random"]
    one = simulate("rummy101", bots, 8, seed=5, workers=1, progress=False)
    two = simulate("rummy101", bots, 8, seed=5, workers=2, progress=False)
    assert one.games == two.games and one.seats == two.seats
    assert [r.to_dict() if hasattr(r, "to_dict") else r for r in one.records] == \
        [r.to_dict() if hasattr(r, "to_dict") else r for r in two.records]


def test_plugin_on_dask_worker_processes(plugin: str) -> None:
    distributed = pytest.importorskip("distributed")
    bots = [plugin, "random", "random", "random"]
    local = simulate("rummy101", bots, 6, seed=2, workers=1, progress=False)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        remote = simulate("rummy101", bots, 6, seed=2, executor=client.get_executor(),
                          progress=False)
    assert remote.seats == local.seats


@pytest.mark.parametrize(("name", "message"), [
    ("userbots.mine:Missing", r"has no 'Missing'"),
    ("userbots.broken:Bot", r"module 'userbots.broken' failed to import: ModuleNotFoundError"),
    ("userbots.mine:NoAct", r"has no act\(observation, legal_actions\) method"),
    ("not a path:x", r"package.module:BotClass"),
    # was "write a module path and a name as 'package.module:BotClass'", as if the path were wrong
    ("userbots.mine:OpenAsap:depth=3", r"a module path takes no options \(name:option=value"),
    ("nosuchbot", r"unknown bot 'nosuchbot'.*package.module:BotClass"),
])
def test_plugin_errors_say_what_to_fix(plugin: str, name: str, message: str) -> None:
    with pytest.raises(BotError, match=message):
        get_bot(name)


def test_simulation_names_the_broken_plugin(plugin: str) -> None:
    with pytest.raises(SimError, match=r"bot 'userbots.broken:Bot'.*failed to import"):
        simulate("rummy101(players=2)", ["userbots.broken:Bot", "random"], 2, progress=False)


def test_an_illegal_bot_move_names_game_seed_seat_and_bot(plugin: str, tmp_path: Path) -> None:
    """Issue 16: an illegal action during a simulation names the game, its seed, the seat and
    the bot (and how to replay it), not only the engine's message."""
    (tmp_path / "userbots" / "cheat.py").write_text(textwrap.dedent('''
        from rummy101.bots import Bot
        from rummy101.game import Action

        class Cheat(Bot):
            def act(self, observation, legal_actions):
                return Action.parse("open")  # never legal at the start of a turn
    '''))
    importlib.invalidate_caches()  # the package was imported before this module existed
    with pytest.raises(SimError) as info:
        simulate("rummy101(players=2)", ["random", "userbots.cheat:Cheat"], 3, seed=9,
                 workers=1, progress=False)
    msg = str(info.value)
    assert "game 0 of the run with seed 9" in msg and "seat 1 (userbots.cheat:Cheat bot)" in msg
    assert "IllegalAction" in msg and "bot_seed(9, 0, seat)" in msg


@pytest.mark.parametrize("layout", ["mybot_here.py", "mybot_here/__init__.py"])
def test_a_bot_module_in_the_current_folder_says_how_to_reach_it(
        layout: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The `rummy101` console script does not search the current folder (`python -m` does), so
    `--bots mybot_here:Bot` beside mybot_here.py failed with only 'No module named'; the message
    now names the file and PYTHONPATH=. (a module elsewhere keeps the plain message)."""
    (tmp_path / layout).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / layout).write_text("Bot = None\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", ".", str(tmp_path))])
    sys.modules.pop("mybot_here", None)
    with pytest.raises(BotError, match=r"mybot_here(\.py|/) is in the current folder.*PYTHONPATH=\. "):
        get_bot("mybot_here:Bot")
    with pytest.raises(BotError) as info:
        get_bot("mybot_elsewhere:Bot")
    assert "current folder" not in str(info.value)


def test_a_bot_that_returns_no_action_is_told_what_act_returns() -> None:
    """docs/bots.md: act returns one of the legal actions (the object or its text). A bot that
    returned None was told "an action must be a string", which reads as if an Action object
    were wrong; the message now names both forms and where they come from."""
    from rummy101.bots import Bot
    from rummy101.errors import NotationError
    from rummy101.game import new_game
    from rummy101.sim import GameFailed, play_game

    class Forgets(Bot):
        def act(self, observation, legal_actions):  # type: ignore[no-untyped-def]
            self.rng.choice(legal_actions)  # computes a move and forgets to return it

    with pytest.raises(GameFailed, match=r"NotationError: an action must be an Action \(one of "
                                         r"state.legal_actions\(\)\) or its text, got NoneType None"):
        play_game("classic(players=2)", [Forgets(random.Random(1)), get_bot("random")], 4)
    with pytest.raises(NotationError, match=r"an Action .* or its text, got list \["):
        new_game("rummy101(players=2)", 1).apply(["draw"])  # type: ignore[arg-type]


def test_a_failing_run_names_its_first_failing_game_whatever_the_pool_finished_first(
        plugin: str, tmp_path: Path) -> None:
    """A bot that fails in every game, slowly in game 0: on a pool of two, game 1 failed first
    and the run named game 1, where one worker names game 0 (docs/simulation.md: a run is the
    same whatever the workers). The run now stops at the first failing game in game order."""
    (tmp_path / "userbots" / "fails.py").write_text(textwrap.dedent('''
        import time
        from rummy101.bots import Bot
        from rummy101.game import new_game
        from rummy101.sim import game_seed

        FIRST = list(new_game("classic(players=2)", game_seed(3, 0)).observation(0)["rack"])

        class FailsEveryGame(Bot):
            def act(self, observation, legal_actions):
                if list(observation["rack"]) == FIRST:
                    time.sleep(1.0)  # game 0: the last to fail on a pool of two
                raise ValueError("broken")
    '''))
    importlib.invalidate_caches()
    for workers in (1, 2):
        with pytest.raises(SimError, match=r"^game 0 of the run with seed 3 .*ValueError: broken"):
            simulate("classic(players=2)", ["userbots.fails:FailsEveryGame", "random"], 2, seed=3,
                     workers=workers, progress=False)


def test_a_round_that_never_ends_shows_its_last_actions() -> None:
    """docs/bots.md: a bot that lays melds and takes them back (reset) for ever is stopped at
    MAX_STEPS. The error said only that a bot or the engine loops; its last actions now show
    the loop, so the bot's author sees what it repeats without replaying 200,000 steps. A bot
    object without a name of its own is named by its class (it was "(bot bot)")."""
    from rummy101.bots import Bot
    from rummy101.sim import GameFailed, play_game

    class LaysFirst(Bot):
        """Lays whatever it can, else takes the first legal action (reset, when only that is)."""

        def act(self, observation, legal_actions):  # type: ignore[no-untyped-def]
            lays = [a for a in legal_actions if a.verb in ("run", "set", "pair", "add", "open")]
            draws = [a for a in legal_actions if a.verb == "draw"]
            discards = [a for a in legal_actions if a.verb == "discard"]
            return (lays or draws or discards or legal_actions)[0]

    bots = [LaysFirst(random.Random(0)), *(get_bot("greedy", random.Random(s)) for s in (1, 2, 3))]
    with pytest.raises(GameFailed, match=r"seat 0 \(LaysFirst bot\): RuntimeError: round 0 "
                                         r"did not end within 300 steps: a bot or the engine "
                                         r"loops; the last actions: (.*, )?reset, run "):
        play_game("rummy101", bots, 1, 0, max_steps=300)

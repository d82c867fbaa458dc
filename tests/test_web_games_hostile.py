"""The games API behind the web page, probed as a hostile or unlucky client would: a bot that fails
in the middle of a request, replays of the longest records the service accepts, path values of
the wrong type. (tests/test_web_api.py has the ordinary hostile bodies and ids.)"""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient
from rummy101.errors import RummyError, WorkBudgetExceeded
from rummy101.service import games as g
from rummy101.service.app import create_app


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app())


def _fail_once(bot: Any) -> None:
    """Make ``bot``'s next decision fail as a search over its work budget does."""
    real = bot.act
    calls = [0]

    def act(obs: Any, legal: Any) -> Any:
        calls[0] += 1
        if calls[0] == 1:
            raise WorkBudgetExceeded("the rack is too dense to solve within 10 search nodes")
        return real(obs, legal)

    bot.act = act


@pytest.mark.parametrize("how", ["act", "play_hint"])
def test_a_bot_failing_mid_request_does_not_strand_the_game(how: str) -> None:
    """The person's move is applied, then a bot fails: the answer says the move was played, and
    the next look at the game lets the bots go on to the person's turn. Before, the game stayed
    at the bot's turn for good and refused every action as out of turn."""
    store = g.GameStore()
    view = store.create({"rules": "rummy101(players=2)", "bots": ["greedy"], "seed": 7})
    gid = view["id"]
    _fail_once(store.game(gid).bots[1])
    discard = next(a for a in view["legal"] if a.startswith("discard "))
    with pytest.raises(RummyError) as err:
        if how == "act":
            store.act(gid, {"action": discard})
        else:
            store.play_hint(gid)
    assert "was played" in str(err.value) and f"GET /v1/games/{gid}" in str(err.value)
    after = store.view(gid)
    assert after["your_turn"] and after["legal"], after["status"]
    assert after["observation"]["phase"] == "take"
    assert after["moves"] and {m["seat"] for m in after["moves"]} == {1}  # the bot's turn
    played = store.act(gid, {"action": "draw"})  # and the game goes on
    assert played["actions_played"] == after["actions_played"] + 1


def test_a_bot_failing_while_a_game_starts_leaves_no_game_behind(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The bots open a game where the person is not the starter: if one fails, the id was never
    given out, so the game must not sit in the store taking the place of a live one."""
    from rummy101 import bots

    store = g.GameStore()
    view = store.create({"rules": "rummy101(players=2)", "seat": 1, "seed": 3})
    assert view["your_turn"]
    real = bots.get_bot

    def failing(name: str, rng: Any) -> Any:
        bot = real(name, rng)
        _fail_once(bot)
        return bot

    monkeypatch.setattr(bots, "get_bot", failing)
    with pytest.raises(WorkBudgetExceeded):
        store.create({"rules": "rummy101(players=2)", "seat": 1, "seed": 3})
    assert list(store.games) == [view["id"]]

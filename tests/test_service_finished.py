"""A hint asked for a finished game (newcomer round 9): every variant and both ways of sending
the game (record or observation) answer 422 saying the game is over, over HTTP."""

from __future__ import annotations

import json
import random

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient
from rummy101.bots import get_bot
from rummy101.game import new_game
from rummy101.game.records import dumps
from rummy101.service.app import create_app


def finished(rules: str, seed: int):  # type: ignore[no-untyped-def]
    state = new_game(rules, seed)
    bots = [get_bot("greedy", random.Random(i)) for i in range(state.rules.players)]
    while not state.is_terminal:
        seat = state.current_player
        state.apply(bots[seat].act(state.observation(seat), state.legal_actions()))
    return state


@pytest.mark.parametrize("rules", ["rummy101(players=2)", "remi(players=2)", "classic(players=2)"])
def test_a_finished_game_has_no_turn_to_hint(rules: str) -> None:
    state = finished(rules, 3)
    client = TestClient(create_app(), raise_server_exceptions=False)
    for body in ({"record": json.loads(dumps(state))}, {"record": dumps(state)}):
        r = client.post("/v1/hint", json=body)
        assert r.status_code == 422
        assert r.json() == {"error": "the game of field 'record' is over: there is no turn to hint"}
    for seat in range(state.rules.players):
        r = client.post("/v1/hint", json={"observation": state.observation(seat)})
        assert r.status_code == 422
        error = r.json()["error"]
        assert 'the observed game is' in error and 'phase "over"' in error, error


def test_the_web_pages_game_over_has_no_hint_and_says_so() -> None:
    """A finished game on the page's API said 'it is not your turn' for a hint."""
    client = TestClient(create_app(), raise_server_exceptions=False)
    view = client.post("/v1/games", json={"rules": "classic(players=2,target=50)", "seed": 4,
                                          "bots": ["random"]}).json()
    for _ in range(300):
        if view["over"]:
            break
        view = client.post(f"/v1/games/{view['id']}/play-hint", json={}).json()
    assert view["over"]
    for r in (client.get(f"/v1/games/{view['id']}/hint"),
              client.post(f"/v1/games/{view['id']}/play-hint", json={})):
        assert r.status_code == 422
        assert r.json() == {"error": "the game is over: there is no turn to hint; start a new one"}


@pytest.mark.parametrize("charset", ["latin-1", "utf-16", "iso-8859-1"])
def test_a_body_declared_in_another_charset_is_refused_not_misread(charset: str) -> None:
    """'application/json; charset=latin-1' was accepted, then its bytes were read as UTF-8: an
    é in the body answered 'not UTF-8 text', blaming the client's correct encoding."""
    client = TestClient(create_app(), raise_server_exceptions=False)
    r = client.post("/v1/validate/meld", content='{"meld": "R1 R2 R3"}'.encode(charset),
                    headers={"content-type": f"application/json; charset={charset}"})
    assert r.status_code == 415
    assert r.json()["error"] == (f"the body is read as UTF-8, the encoding of JSON (got "
                                 f"'application/json; charset={charset}'): send charset=utf-8 or "
                                 f"no charset")
    for ok in ("utf-8", "UTF-8", '"utf-8"', "utf8"):
        r = client.post("/v1/validate/meld", content=b'{"meld": "R1 R2 R3"}',
                        headers={"content-type": f"application/json; charset={ok}"})
        assert r.status_code == 200, (ok, r.text)

"""RO-3 in what a person sees: every seat is asked in the doubles exchange, so a seat without a
double is told plainly that it passes (status line, hint, the page's button), and the bots'
announcements reach the person as the seed has them said, "big" or "small", never the tiles.

The web game's move log and ``rummy101 play`` printed a bot's move as its action text,
``announce K1``: the person learned the announced tile before deciding whether to swap."""

from __future__ import annotations

import io
import re

import pytest
from rummy101.cli.play import play
from rummy101.game import new_game
from rummy101.hint import generic

TILE = re.compile(r"\b[RYBK]\d{1,2}\b")


def test_the_hint_of_a_seat_without_a_double_says_it_passes() -> None:
    s = new_game("remi(players=2)", 2)  # seat 0 holds no double
    assert [str(a) for a in s.legal_actions()] == ["decline"]
    h = generic.plan(s, 0, alternatives=1)
    (step,) = h["turn"]["steps"]
    assert step["action"] == "decline" and "holds no double" in step["reason"], step
    assert "RO-3" in step["reason"] and h["alternatives"] == []


def test_a_hint_with_a_double_to_announce_keeps_its_reason() -> None:
    s = new_game("remi(players=2)", 4)  # seat 0 holds Y5 Y5 and B11 B11
    h = generic.plan(s, 0, alternatives=1)
    assert "holds no double" not in h["turn"]["steps"][0]["reason"]


def _announcing_game() -> str:
    """What `rummy101 play` printed in a 2-player deal where seat 0 declines and the greedy bot
    of seat 1 then announces."""
    from rummy101.sim import game_seed

    for seed in range(40):
        out = io.StringIO()
        state = play(
            "remi(players=2)",
            None,
            seed,
            match_rounds=1,
            stdin=io.StringIO("decline\n"),
            stdout=out,
        )
        if len(state.history) > 1 and state.history[1].verb == "announce":
            assert state.seed == game_seed(seed, 0)
            return out.getvalue()
    raise AssertionError("no deal with an announcement by seat 1")


def test_play_shows_a_bots_announcement_by_size_only() -> None:
    out = _announcing_game()
    bot_lines = [line for line in out.splitlines() if line.startswith("  seat 1 (")]
    assert bot_lines and "announce a " in bot_lines[0], out
    assert re.search(r"announce a (big|small) double$", bot_lines[0]), bot_lines
    assert not any(TILE.search(line) for line in bot_lines), bot_lines


def test_play_tells_a_seat_without_a_double_why_it_may_only_decline() -> None:
    out = io.StringIO()  # `rummy101 play --seed 4`: seat 0 holds no double
    play("remi(players=2)", None, 4, match_rounds=1, stdin=io.StringIO(""), stdout=out)
    legal = [line for line in out.getvalue().splitlines() if line.startswith("legal: ")]
    said = "you hold no double to announce, or none of the size on offer to swap: pass, RO-3"
    assert legal == [f"legal: decline ({said})"], legal


def test_the_web_games_log_and_status_show_sizes_not_tiles() -> None:
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient
    from rummy101.service.app import create_app

    client = TestClient(create_app())
    view = client.post(
        "/v1/games", json={"rules": "remi(players=2)", "bots": ["greedy"], "seed": 10}
    ).json()
    assert view["legal"] != ["decline"]  # seat 0 holds a small double (Y6 Y6)
    assert "announce one or decline" in view["status"]
    view = client.post(f"/v1/games/{view['id']}/actions", json={"action": "decline"}).json()
    bot = [m for m in view["log"] if m["seat"] == 1]
    assert [m["action"] for m in bot] == ["announce a big double"], view["log"]
    assert view["legal"] == ["decline"]  # no big double to swap
    assert "seat 1 (greedy) announced a big double" in view["status"], view["status"]
    assert "no big double to swap, so pass" in view["status"], view["status"]
    view = client.post(f"/v1/games/{view['id']}/actions", json={"action": "decline"}).json()
    assert view["observation"]["phase"] == "play"
    # the person's own moves are listed as played (an own announcement keeps its tiles:
    # test_web_browser); the record, given once the game is over, holds every action
    assert [m["action"] for m in view["log"] if m["seat"] == 0] == ["decline", "decline"]


def test_public_text_hides_the_tiles_of_the_exchange_only() -> None:
    from rummy101.game import Action
    from rummy101.game.engines.remi import public_text

    said = {
        text: public_text(Action.parse(text, "remi"))
        for text in (
            "announce R12",
            "announce B1",
            "announce Y9",
            "accept K4",
            "decline",
            "discard K7",
        )
    }
    assert said == {
        "announce R12": "announce a big double",
        "announce B1": "announce a big double",  # 1 is big (RO-3)
        "announce Y9": "announce a small double",
        "accept K4": "accept",
        "decline": "decline",
        "discard K7": "discard K7",
    }

"""RO-3 in what a person sees: every seat is asked in the doubles exchange, so a seat without a
double is told plainly that it passes (status line, hint, the page's button)."""

from __future__ import annotations

import pytest
from rummy101.game import new_game
from rummy101.hint import generic


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


def test_the_web_games_status_says_when_to_pass() -> None:
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
    assert view["legal"] == ["decline"]  # no big double to swap
    assert "seat 1 (greedy) announced a big double" in view["status"], view["status"]
    assert "no big double to swap, so pass" in view["status"], view["status"]
    view = client.post(f"/v1/games/{view['id']}/actions", json={"action": "decline"}).json()
    assert view["observation"]["phase"] == "play"

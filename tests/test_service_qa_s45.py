"""QA round s45 on the HTTP service: strictness gaps a hostile app found.

* A Rummy 101 hint from an observation read only the fields its planner needs (rack, table,
  opened, thresholds, button, turn_state...); garbage in the others (``"stock": "lots"``,
  ``"round": -5``, an unknown field) got a hint (200), while Remi's and classic's hints refuse
  it (422 naming the field). The observation is now checked whole for Rummy 101 too.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from rummy101.bots import get_bot
from rummy101.errors import RummyError
from rummy101.game import new_game
from rummy101.service import api

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient
from rummy101.service.app import create_app


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app())


def _played(rules: str, seed: int, steps: int) -> Any:
    """A game of greedy bots ``steps`` actions in."""
    s = new_game(rules, seed)
    bots = [get_bot("greedy", random.Random(seed * 10 + q)) for q in range(s.n)]
    for _ in range(steps):
        s.apply(bots[s.current_player].act(s.observation(s.current_player), s.legal_actions()))
    return s


def _obs(steps: int = 0) -> dict[str, Any]:
    s = _played("rummy101", 7, steps)
    return json.loads(json.dumps(s.observation(s.current_player)))


def _set(path: tuple[str, ...], value: Any) -> Callable[[dict[str, Any]], None]:
    def mutate(obs: dict[str, Any]) -> None:
        target = obs
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return mutate


# --- 1. a Rummy 101 observation is checked whole ---------------------------------------------

NOT_OF_THE_ENGINE = (
    "field 'observation': the observation is not one the rummy101 engine makes (fields {} do "
    "not fit together): send State.observation(seat) as it is"
)

UNREAD_GARBAGE = [
    (("stock",), "lots", "the observation's 'stock' must be a whole number >= 0, got \"lots\""),
    (("stock",), -3, "the observation's 'stock' must be a whole number >= 0, got -3"),
    (("round",), -5, "the observation's 'round' must be a whole number from 0 to 0, got -5"),
    (("turn",), "x", "the observation's 'turn' must be a whole number >= 0, got \"x\""),
    (("starter",), 99, "the observation's 'starter' must be a whole number from 0 to 3, got 99"),
    (("match_rounds",), 0, "the observation's 'match_rounds' must be a whole number >= 1, got 0"),
    (
        ("standings",),
        {"a": 1},
        "the observation's 'standings' must be a list of 4 whole numbers, got {\"a\": 1}",
    ),
    (
        ("round_scores",),
        "x",
        "the observation's 'round_scores' must hold one row a round played (0 in round 0), got \"x\"",
    ),
    (
        ("rack_sizes",),
        [1],
        "the observation's 'rack_sizes' must be a list of 4 whole numbers >= 0, got [1]",
    ),
    (
        ("discards",),
        7,
        "its 'discards' must be a list, as State.observation(seat) writes it, got a number 7",
    ),
    (
        ("taken_discards",),
        3,
        "its 'taken_discards' must be a list, as State.observation(seat) writes it, got a number 3",
    ),
    (
        ("opened_turn",),
        [99, 99, 99, 99],
        (
            "the observation's 'opened_turn' must be a list of 4 whole numbers from -1 to {turn}, got "
            "[99, 99, 99, 99]"
        ),
    ),
    (
        ("last_discard",),
        "R1",  # the starter's first turn (stage play): there is none
        (
            "the observation's 'last_discard' \"R1\" is not the last of seat {before}'s 'discards' "
            "{pile}: it is the previous seat's latest discard, or null once taken (R101-4)"
        ),
    ),
    (
        ("turn_state", "took"),
        "banana",
        (
            "the observation's turn_state 'took' must be how the turn began: null, \"start\", "
            '"draw", "take" or "button" (R101-3), got "banana"'
        ),
    ),
    (
        ("button", "used"),
        "no",
        (
            "its 'button'[\"used\"] must be a list, as State.observation(seat) writes it, got a "
            'string "no"'
        ),
    ),
]


@pytest.mark.parametrize("steps", [0, 9])
@pytest.mark.parametrize("path, value, message", UNREAD_GARBAGE)
def test_garbage_in_a_field_the_rummy101_hint_does_not_read_is_refused(
    client: TestClient, steps: int, path: tuple[str, ...], value: Any, message: str
) -> None:
    obs = _obs(steps)
    before = (obs["current_player"] - 1) % 4
    for name, text in (
        ("turn", str(obs["turn"])),
        ("before", str(before)),
        ("pile", json.dumps(obs["discards"][before])),
    ):
        message = message.replace("{" + name + "}", text)
    _set(path, value)(obs)
    r = client.post("/v1/hint", json={"observation": obs})
    assert r.status_code == 422, r.text
    assert r.json() == {"error": f"field 'observation': {message}"}


@pytest.mark.parametrize(
    "mutate, fields",
    [
        (_set(("foo",), 1), "foo"),  # a field no observation has
        (_set(("thresholds", "mode"), "weird"), "thresholds"),
    ],
)
def test_an_observation_no_game_makes_is_refused_naming_the_fields(
    client: TestClient, mutate: Callable[[dict[str, Any]], None], fields: str
) -> None:
    obs = _obs()
    mutate(obs)
    r = client.post("/v1/hint", json={"observation": obs})
    assert r.status_code == 422, r.text
    assert r.json() == {"error": NOT_OF_THE_ENGINE.format(fields)}


def test_remi_and_classic_refuse_the_same_garbage_alike(client: TestClient) -> None:
    # the model: the Rummy 101 messages above are theirs
    for rules in ("remi", "classic"):
        s = _played(rules, 7, 9)
        obs = s.observation(s.current_player)
        obs["starter"] = 99
        r = client.post("/v1/hint", json={"observation": obs})
        assert r.status_code == 422, r.text
        assert r.json() == {
            "error": "field 'observation': the observation's 'starter' must be "
            "a whole number from 0 to 3, got 99"
        }


RULE_SETS = [
    "rummy101",
    "rummy101(players=2)",
    "rummy101(threshold=increasing,button_jokers=1)",
    "rummy101(players=3,button_jokers=2)",
]


@pytest.mark.parametrize("rules", RULE_SETS)
def test_every_observation_a_game_makes_passes_the_whole_check(rules: str) -> None:
    # nothing valid is refused: every position of greedy matches of three rounds, at every step
    # of every turn (take, after a draw or a take, mid-turn plays), through JSON as an app sends
    seen = 0
    for seed in range(3):
        s = new_game(rules, seed, match_rounds=3)
        bots = [get_bot("greedy", random.Random(seed * 10 + q)) for q in range(s.n)]
        while not s.is_terminal:
            obs = s.observation(s.current_player)
            api._check_unread_fields(json.loads(json.dumps(obs)))
            seen += 1
            s.apply(bots[s.current_player].act(obs, s.legal_actions()))
    assert seen > 100


@pytest.mark.parametrize("steps", [0, 1, 9, 30])
def test_a_valid_observation_still_gets_its_hint(client: TestClient, steps: int) -> None:
    s = _played("rummy101", 7, steps)
    obs = s.observation(s.current_player)
    r = client.post("/v1/hint", json={"observation": obs, "alternatives": 1})
    assert r.status_code == 200, r.text
    assert r.json() == api.hint({"observation": obs, "alternatives": 1})


def _staged() -> dict[str, Any]:
    """The observation of a seat to move with a staged opening (R101-7/8)."""
    s = new_game("rummy101(players=3)", 1)
    rng = random.Random(1)
    while not s.is_terminal:
        obs = s.observation(s.current_player)
        if obs["turn_state"]["staged"]:
            return json.loads(json.dumps(obs))
        legal = s.legal_actions()
        lays = [a for a in legal if a.verb in ("run", "set", "pair")]
        s.apply(rng.choice(lays) if lays and rng.random() < 0.8 else rng.choice(legal))
    raise AssertionError("no staged opening")


def test_a_staged_opening_names_the_field_too() -> None:
    # its observation was read by the engine already, but Python's words came back
    # ("field 'observation': '<' not supported between instances of 'str' and 'int'")
    obs = _staged()
    assert api.hint({"observation": obs, "alternatives": 0})["turn"]["actions"][0] == "reset"
    bad = copy.deepcopy(obs)
    bad["rack_sizes"] = "lots"
    with pytest.raises(RummyError) as info:
        api.hint({"observation": bad})
    assert str(info.value) == (
        "field 'observation': the observation's 'rack_sizes' must be a list of 3 whole "
        'numbers >= 0, got "lots"'
    )


def test_an_opening_turn_for_a_seat_not_opened_is_refused(client: TestClient) -> None:
    obs = _obs()  # turn 0: nobody has opened
    obs["opened_turn"] = [0, -1, -1, -1]
    r = client.post("/v1/hint", json={"observation": obs})
    assert r.status_code == 422, r.text
    assert r.json() == {
        "error": "field 'observation': the observation's 'opened_turn' [0, -1, -1, -1] does not "
        "fit its 'opened' [null, null, null, null]: -1 for a seat not opened, else the turn of "
        "its opening (R101-7)"
    }


# --- 2. a query string on a game POST endpoint ------------------------------------------------


def _record(client: TestClient) -> dict[str, Any]:
    """A finished game's record (a game of bots only, played through)."""
    s = _played("rummy101(players=2)", 3, 0)
    bots = [get_bot("greedy", random.Random(q)) for q in range(s.n)]
    while not s.is_terminal:
        s.apply(bots[s.current_player].act(s.observation(s.current_player), s.legal_actions()))
    from rummy101.game import records

    return records.to_dict(s)


def test_a_query_string_on_a_game_post_is_refused_not_ignored(client: TestClient) -> None:
    # `POST /v1/games?seed=7` dealt a random game, `.../actions?action=discard%20R5` played the
    # body's action: the games read their fields from the JSON body only, like the operations
    # (tests/test_service_qa_s44.py), which refuse a query string
    view = client.post("/v1/games", json={"rules": "rummy101(players=2)", "seed": 3}).json()
    gid = view["id"]
    cases = [
        (
            "/v1/games",
            {"rules": "rummy101(players=2)"},
            '{"rules": "remi", "seed": 7}',
            "give every field in the JSON body, e.g. ",
        ),
        (
            f"/v1/games/{gid}/actions",
            {"action": view["legal"][0]},
            '{"action": "draw"}',
            "give every field in the JSON body, e.g. ",
        ),
        (f"/v1/games/{gid}/play-hint", {}, "", "send the empty JSON object {} as the body"),
        (
            "/v1/replays",
            {"record": _record(client)},
            '{"record": {...}}',
            "give every field in the JSON body, e.g. ",
        ),
    ]
    for path, body, example, advice in cases:
        r = client.post(path + "?seed=7", json=body)
        assert r.status_code == 422, (path, r.text)
        assert r.json() == {
            "error": f'POST {path} reads no query parameters (got "?seed=7"): {advice}{example}'
        }
        assert r.headers.get("connection") == "close"  # its body was not read
    # nothing was played
    assert client.get(f"/v1/games/{gid}").json()["actions_played"] == view["actions_played"]
    # an empty query is no query
    for path, body, _, _ in cases:
        r = client.post(path + "?", json=body)
        assert r.status_code == 200, (path, r.text)


# --- 4. the view's supply check is the set's -------------------------------------------------


def test_the_views_supply_check_is_the_rules_one(client: TestClient) -> None:
    # hint/view.py counted copies in a loop of its own beside Rules.check_supply; it calls it
    # now, with the view's noun ("the rack, table and last discard hold", plural)
    body = {
        "seat": 0,
        "rack": "R1 R2 K5 Y5",
        "last_discard": "Y5",
        "players": [{"seat": 1, "opened": "melds"}],
        "table": [{"owner": 1, "tiles": "Y5 Y6 Y7"}],
    }
    r = client.post("/v1/hint", json=body)
    assert r.status_code == 422, r.text
    assert r.json() == {
        "error": "the rack, table and last discard hold 3 copies of Y5, but rummy101 has only 2 "
        "of each tile (R101-1)"
    }
    body["rack"] = "R1 R2 K5 * *"
    body["last_discard"] = "*"
    r = client.post("/v1/hint", json=body)
    assert r.status_code == 422, r.text
    assert r.json()["error"].startswith("the rack, table and last discard hold 3 jokers, but a ")
    # the rules' own check says so too, and keeps its singular for one rack
    from rummy101.errors import RackError
    from rummy101.rules import Rules
    from rummy101.tiles import parse_tiles

    tiles = parse_tiles("Y5 Y5 Y5")
    with pytest.raises(RackError, match=r"^the rack holds 3 copies of Y5"):
        Rules.parse("rummy101").check_supply(tiles)
    with pytest.raises(RackError, match=r"^the rack, table and last discard hold 3 copies"):
        Rules.parse("rummy101").check_supply(tiles, "rack, table and last discard", verb="hold")

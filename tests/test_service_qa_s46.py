"""QA round s46 on the HTTP service: query strings on GET endpoints, and the hint's ``record``.

1. ``GET /v1/games/{id}?seat=1``, ``GET /v1/games/{id}/hint?seat=2`` or
   ``GET /v1/replays/{id}/turns/3?view=1`` answered 200 with what the endpoint always answers
   (your own seat's view, the turn's own seat): the query was dropped unread, so a client could
   believe it got another seat's view. The JSON GET endpoints (and ``DELETE /v1/games/{id}``)
   read no query parameter, as the POST endpoints (tests/test_service_qa_s44.py, _s45.py): one
   is refused (422) with its name and what to do instead; a GET's cache-buster ``?_=…`` (jQuery's
   ``cache: false``) still passes. The web page, its files, ``/docs`` and ``/openapi.json`` are
   the same whatever the query and keep taking any (``?v=3``, ``?utm_source=…``).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from rummy101.bots import get_bot
from rummy101.game import new_game, records

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient
from rummy101.service.app import create_app

RULES = "rummy101(players=2)"  # seat 0 moves first: creating a game plays no bot move


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app())


def _finished(rules: str, seed: int) -> dict[str, Any]:
    s = new_game(rules, seed)
    bots = [get_bot("greedy", random.Random(q)) for q in range(s.n)]
    while not s.is_terminal:
        s.apply(bots[s.current_player].act(s.observation(s.current_player), s.legal_actions()))
    return records.to_dict(s)


@pytest.fixture(scope="module")
def ids(client: TestClient) -> dict[str, str]:
    game = client.post("/v1/games", json={"rules": RULES, "seed": 3}).json()["id"]
    replay = client.post("/v1/replays", json={"record": _finished(RULES, 3)}).json()["id"]
    return {"game": game, "replay": replay}


BUSTER = " (a cache-buster may be sent as ?_=…, which is ignored)"

# (path, the advice of its refusal); {game} and {replay} are filled in
JSON_GETS = [
    ("/health", "it answers the same to every request"),
    (
        "/v1/info",
        ("it answers the same to every request: the version, the live backend and every limit"),
    ),
    (
        "/v1/game-options",
        (
            "it lists every variant with its options, the bots and the limits; a "
            "game's rules, seat and bots go in the JSON body of POST /v1/games"
        ),
    ),
    (
        "/v1/games/{game}",
        (
            "the view is always of your own seat, chosen when the game was created "
            '("seat" in the body of POST /v1/games); the other seats\' racks are '
            "never shown"
        ),
    ),
    (
        "/v1/games/{game}/hint",
        (
            "the hint is for your own seat, at your turn, with 3 "
            "alternatives; for another seat or position, or other "
            'alternatives, POST /v1/hint with {{"record": …}} or '
            '{{"observation": …}}'
        ),
    ),
    ("/v1/games/{game}/record", "the record is the whole game, once it is over"),
    (
        "/v1/replays/{replay}",
        ("it answers the whole replay; one turn is GET /v1/replays/{replay}/turns/{{n}}"),
    ),
    (
        "/v1/replays/{replay}/turns/3",
        (
            "the turn is the path's last segment, seen by the seat "
            "that played it (its 'seat'; the other racks are hidden), "
            "analysed with the hint's alternatives"
        ),
    ),
]


@pytest.mark.parametrize(("template", "advice"), JSON_GETS)
def test_a_query_parameter_on_a_json_get_is_refused_not_ignored(
    client: TestClient, ids: dict[str, str], template: str, advice: str
) -> None:
    path = template.format(**ids)
    advice = advice.format(**ids)
    for query, named in (
        ("seat=1", "'seat'"),
        ("view=1", "'view'"),
        ("v=3", "'v'"),
        ("_=1701&seat=2", "'seat'"),
    ):
        r = client.get(f"{path}?{query}")
        assert r.status_code == 422, (path, query, r.text)
        assert r.json() == {
            "error": f"GET {path} reads no query parameters: {named} would be ignored (got "
            f'"?{query}"); {advice}{BUSTER}'
        }
        # HEAD is answered as GET: the same status, no body
        h = client.head(f"{path}?{query}")
        assert (h.status_code, h.content) == (422, b"")


@pytest.mark.parametrize(("template", "advice"), JSON_GETS)
def test_a_cache_buster_or_an_empty_query_on_a_json_get_still_answers(
    client: TestClient, ids: dict[str, str], template: str, advice: str
) -> None:
    path = template.format(**ids)
    bare = client.get(path)  # (the record of a game not over: 422, saying why)
    assert bare.status_code == (422 if path.endswith("/record") else 200), bare.text
    for query in ("?_=1701", "?_=1&_=2", "?", "?&"):
        r = client.get(path + query)
        assert r.status_code == bare.status_code, (path, query, r.text)
        if path != "/v1/info" and "/hint" not in path:  # (the hint samples hidden racks)
            assert r.json() == bare.json()
        assert client.head(path + query).status_code == bare.status_code


def test_several_parameters_are_named_and_odd_names_stay_short(
    client: TestClient, ids: dict[str, str]
) -> None:
    path = f"/v1/games/{ids['game']}/record"
    r = client.get(f"{path}?seat=1&view=2&turn=3&at=4&x")
    assert r.status_code == 422
    assert r.json()["error"].startswith(
        f"GET {path} reads no query parameters: 'seat', 'view', 'turn' and 2 more would be "
        f'ignored (got "?seat=1&view=2&turn=3&at=4&x"); '
    )
    r = client.get(f"{path}?{'s' * 5000}=1")
    assert r.status_code == 422
    assert len(r.json()["error"]) < 400
    r = client.get(f"{path}?%ff%fe=1")  # not UTF-8 once decoded: named, not a 400/500
    assert r.status_code == 422
    assert "'\ufffd\ufffd' would be ignored" in r.json()["error"]


def test_delete_reads_no_query_either(client: TestClient) -> None:
    gid = client.post("/v1/games", json={"rules": RULES, "seed": 4}).json()["id"]
    for query in ("_=1", "seat=1", "&"):
        r = client.delete(f"/v1/games/{gid}?{query}")
        assert r.status_code == 422, r.text
        assert r.json()["error"].startswith(f"DELETE /v1/games/{gid} reads no query parameters")
        assert r.json()["error"].endswith(f"; send DELETE /v1/games/{gid} bare")
    assert client.get(f"/v1/games/{gid}").status_code == 200  # not deleted
    assert client.delete(f"/v1/games/{gid}?").json() == {"deleted": gid}


@pytest.mark.parametrize(
    "path", ["/", "/index.html", "/web/app.js", "/web/style.css", "/openapi.json", "/docs"]
)
def test_documents_take_any_query(client: TestClient, path: str) -> None:
    # a cache-buster (`?v=3`, `?_=1701`) or a link's tracking parameters: the same file
    bare = client.get(path)
    assert bare.status_code == 200
    for query in ("?v=3", "?_=1701", "?utm_source=mail&seat=1", "?%ff=1"):
        r = client.get(path + query)
        assert (r.status_code, r.content) == (200, bare.content), (path, query)
        assert client.head(path + query).status_code == 200


def test_an_unknown_path_or_method_is_answered_as_such_whatever_the_query(
    client: TestClient,
) -> None:
    # the path and method are checked first: the query's refusal does not hide a 404 or 405
    r = client.get("/v1/nothing?seat=1")
    assert r.status_code == 404
    r = client.get("/v1/solve/opening?seat=1")
    assert r.status_code == 405


# --- 2. the hint's `record` input --------------------------------------------------------------
#
# A hostile sweep of `POST /v1/hint` with a game record (truncated, reordered, illegal actions,
# other rules, seats out of range, huge, unicode, nested, numbers as strings: bench-free, in
# /tmp during the round) found these answers that were 200, or a 422 that named the wrong thing
# or echoed megabytes. Rummy 101 records and Remi/classic ones were read by two readers with
# different checks; they share one now (rummy101.hint.view.read_game_record).

VARIANTS = ["rummy101", "remi", "classic"]


def _played(rules: str, seed: int, steps: int) -> dict[str, Any]:
    s = new_game(rules, seed)
    bots = [get_bot("greedy", random.Random(seed * 10 + q)) for q in range(s.n)]
    for _ in range(steps):
        s.apply(bots[s.current_player].act(s.observation(s.current_player), s.legal_actions()))
    return records.to_dict(s)


@pytest.fixture(scope="module")
def recs() -> dict[str, dict[str, Any]]:
    return {v: _played(v, 7, 9) for v in VARIANTS}


def _hint(client: TestClient, body: Any) -> tuple[int, Any]:
    r = client.post("/v1/hint", json=body)
    return r.status_code, r.json()


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_field_no_record_has_is_refused_not_ignored(
    client: TestClient, recs: dict[str, dict[str, Any]], variant: str
) -> None:
    # `"turn": 3` (the hint at turn 3?) was ignored: the hint came for the end of the actions
    status, answer = _hint(client, {"record": {**recs[variant], "turn": 3}})
    assert status == 422
    assert answer == {
        "error": (
            "field 'record' holds \"turn\", which no game record has (its fields: format, rules, "
            "seed, match_rounds, actions, terminal, round_scores, standings, results, seats): the "
            "hint is for the seat to move once all of its 'actions' are played; for an earlier "
            "turn, send the actions up to it"
        )
    }
    # the record as it is, its `seats` (GET /v1/games/{id}/record adds it) and a line of
    # `rummy101 sim --record full` (its summary fields beside the record's) are read
    assert _hint(client, {"record": recs[variant]})[0] == 200
    seats = ["you"] + ["greedy"] * (new_game(variant, 7).n - 1)
    assert _hint(client, {"record": {**recs[variant], "seats": seats}})[0] == 200
    line = {
        **recs[variant],
        "record": "full",
        "game": 0,
        "scores": [0] * len(seats),
        "bots": ["greedy"] * len(seats),
        "turns": [1] * len(seats),
        "steps": 9,
    }
    assert _hint(client, {"record": line})[0] == 200


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_records_seats_are_checked_as_the_replays_check_them(
    client: TestClient, recs: dict[str, dict[str, Any]], variant: str
) -> None:
    n = new_game(variant, 7).n
    for seats in (5, ["a"], ["x" * 41] * n, [1] * n):
        status, answer = _hint(client, {"record": {**recs[variant], "seats": seats}})
        assert status == 422, seats
        assert answer["error"].startswith(
            f"field 'record': 'seats' must list who played each of the {n} seats (texts of 1 "
            f"to 40 characters"
        )


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_huge_action_is_named_not_echoed(
    client: TestClient, recs: dict[str, dict[str, Any]], variant: str
) -> None:
    # a 1 MB action text came back three times: a 3 MB error message
    actions = recs[variant]["actions"] + ["x" * 1_000_000]
    status, answer = _hint(client, {"record": {**recs[variant], "actions": actions}})
    assert status == 422
    assert answer == {
        "error": (
            f"field 'record': action {len(actions) - 1} is 1000000 characters long (\""
            f"{'x' * 36}...); at most 200 are read, more than any action takes"
        )
    }


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_records_fields_are_named_the_same_in_every_variant(
    client: TestClient, recs: dict[str, dict[str, Any]], variant: str
) -> None:
    r = recs[variant]
    cases = [
        # Remi and classic: the engine's words ("seed must be a whole number, got str '7'")
        (
            {"seed": "7"},
            (
                "field 'record': 'seed' must be a whole number from 0 to "
                '9223372036854775807, got a string "7"'
            ),
        ),
        # Remi and classic took any seed: -1 dealt a game no record holds
        (
            {"seed": -1, "actions": []},
            "field 'record': 'seed' is -1; accepted: a whole number from 0 to 9223372036854775807",
        ),
        # the rules were checked after the numbers: a classic record (match_rounds 10000) with
        # a rules object was told "'match_rounds' is 10000; accepted: ... from 1 to 100"
        (
            {"rules": {"variant": "remi"}},
            (
                "field 'record': 'rules' must be a rules string such "
                "as 'rummy101' or 'remi(players=3)', got an object "
                '{"variant": "remi"}'
            ),
        ),
        (
            {"rules": "remi(" + "x" * 40_000 + ")"},
            "field 'record': 'rules' is 40006 characters long; at most 200 are accepted",
        ),
        (
            {"actions": "draw discard R5"},
            (
                "field 'record': 'actions' must be a list of action "
                'texts (such as "draw" or "discard R5"), got a '
                'string "draw discard R5"'
            ),
        ),
        (
            {"actions": ["draw", 7]},
            (
                "field 'record': action 1 must be an action text (such as "
                '"draw" or "discard R5"), got a number 7'
            ),
        ),
    ]
    for change, error in cases:
        status, answer = _hint(client, {"record": {**r, **change}})
        assert (status, answer) == (422, {"error": error}), change


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_seat_out_of_range_or_not_to_move_is_named(
    client: TestClient, recs: dict[str, dict[str, Any]], variant: str
) -> None:
    r = recs[variant]
    mover = records.from_dict(r).current_player
    other = (mover + 1) % 4
    for seat in (9, -1):
        # (Remi and classic said "field 'seat' is 9 but it is seat 2's turn in the record")
        assert _hint(client, {"record": r, "seat": seat}) == (
            422,
            {"error": (f"field 'seat' is {seat}, but the record's game has seats 0 to 3")},
        )
    assert _hint(client, {"record": r, "seat": other}) == (
        422,
        {
            "error": (
                f"field 'seat' is {other} but it is seat {mover}'s turn in the record: a hint is for "
                f"the seat to move (leave 'seat' out, or send the record's actions up to a turn of seat "
                f"{other})"
            )
        },
    )
    assert _hint(client, {"record": r, "seat": mover})[0] == 200


@pytest.mark.parametrize("variant", VARIANTS)
def test_rules_beside_a_record_are_named_as_such(
    client: TestClient, recs: dict[str, dict[str, Any]], variant: str
) -> None:
    # "remove rules" (Rummy 101) or 'unknown field "rules"' (Remi, classic): now the conflict
    other = "remi" if variant != "remi" else "classic"
    assert _hint(client, {"rules": other, "record": recs[variant]}) == (
        422,
        {
            "error": (
                f"field 'rules' says \"{other}\" but the game record in field 'record' is of "
                f"\"{variant}\": the game record carries its own rules, and 'rules' is not read beside "
                f"it; remove 'rules' (or send a game record of those rules)"
            )
        },
    )
    assert _hint(client, {"rules": variant, "record": recs[variant]}) == (
        422,
        {
            "error": (
                "field 'rules' is not read beside field 'record': the game record carries its own "
                "rules; remove 'rules'"
            )
        },
    )


def test_a_rummy101_match_of_more_than_100_rounds_is_read_as_the_engine_reads_it(
    client: TestClient,
) -> None:
    # the Rummy 101 reader allowed match_rounds 1-100, Remi's and classic's, the replays and
    # the engine 1-10000
    s = new_game("rummy101", 7, match_rounds=500)
    status, answer = _hint(client, {"record": records.to_dict(s)})
    assert status == 200, answer


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_huge_stored_outcome_is_not_echoed(
    client: TestClient, recs: dict[str, dict[str, Any]], variant: str
) -> None:
    # records.from_dict put the whole stored value in its message: 400,000 standings came back
    # as a 4 MB error
    status, answer = _hint(client, {"record": {**recs[variant], "standings": [7] * 400_000}})
    assert status == 422
    assert answer["error"].startswith(
        "field 'record': game record field 'standings' says [7, 7, 7, "
    )
    assert answer["error"].endswith(f"... but the replay gives {new_game(variant, 7).standings()}")
    assert len(answer["error"]) < 300


def test_a_replays_record_with_a_field_no_record_has_is_refused_not_dropped(
    client: TestClient,
) -> None:
    # POST /v1/replays kept the fields it knows and dropped the rest: `"seat"` for `"seats"`
    # lost who played each seat, without a word
    rec = _finished(RULES, 3)
    r = client.post("/v1/replays", json={"record": {**rec, "seat": ["you", "greedy"]}})
    assert r.status_code == 422
    assert r.json() == {
        "error": (
            "field 'record' holds \"seat\", which no game record has (its fields: format, rules, "
            "seed, match_rounds, actions, terminal, round_scores, standings, results, seats): send "
            'the game record as it is; did you mean "seats"?'
        )
    }
    r = client.post("/v1/replays", json={"record": {**rec, "seats": ["you", "greedy"]}})
    assert r.status_code == 200
    assert r.json()["seats"] == ["you", "greedy"]


def test_rules_beside_an_observation_are_named_as_such(client: TestClient) -> None:
    # the same check as beside a record (it was "remove rules" here too)
    s = new_game("remi", 7)
    obs = s.observation(s.current_player)
    assert _hint(client, {"rules": "rummy101", "observation": obs}) == (
        422,
        {
            "error": "field 'rules' says \"rummy101\" but the observation in field "
            "'observation' is of \"remi\": the observation carries its own rules, and 'rules' is "
            "not read beside it; remove 'rules' (or send an observation of those rules)"
        },
    )

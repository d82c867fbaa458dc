"""Hostile and careless clients (QA round h1): inputs that used to answer 400 "internal error"
or a wrong message now answer 4xx naming what to fix."""

from __future__ import annotations

import json
import random

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient
from rummy101.bots import get_bot
from rummy101.game import new_game
from rummy101.service.app import create_app

JSON = {"content-type": "application/json"}
LONE = b'"\\ud800"'  # valid JSON: a string holding a lone surrogate (U+D800)


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(), raise_server_exceptions=False)


def _game(client: TestClient) -> str:
    r = client.post("/v1/games", json={"rules": "rummy101(players=2)", "seed": 1})
    assert r.status_code == 200, r.text
    gid: str = r.json()["id"]
    return gid


# A lone surrogate is legal JSON (RFC 8259 allows "\ud800"); echoed in an error message it made
# the answer unencodable as UTF-8, and the client got "internal error" instead of the field.
@pytest.mark.parametrize("path,raw,word", [
    ("/v1/solve/opening", b'{"rack": "R1", ' + LONE + b': 1}', "unknown field"),
    ("/v1/solve/opening", b'{"rack": "R1", "threshold": ' + LONE + b'}', "threshold"),
    ("/v1/solve/opening", LONE, "JSON object"),
    ("/v1/solve/penalty", b'{"rack": "R1", "keep": ' + LONE + b'}', "keep"),
    ("/v1/hint", b'{"seat": 0, "rack": "R1", "stage": ' + LONE + b'}', "stage"),
    ("/v1/hint", b'{"seat": 0, "rack": "R1", "players": [{"seat": 0, "opened": ' + LONE + b'}]}',
     "opened"),
    ("/v1/games", b'{' + LONE + b': 1}', "unknown field"),
    ("/v1/replays", b'{"record": {"format": ' + LONE + b', "rules": "rummy101", "seed": 1, '
                    b'"actions": []}}', "format"),
])
def test_a_lone_surrogate_echoed_in_an_error_answers_4xx_naming_the_field(
        client: TestClient, path: str, raw: bytes, word: str) -> None:
    r = client.post(path, content=raw, headers=JSON)
    assert r.status_code == 422, r.text
    error = r.json()["error"]
    assert "internal error" not in error and word in error, error
    assert "\\ud800" in r.text  # sent back escaped, as JSON allows: the answer is UTF-8


def test_a_lone_surrogate_in_a_batch_item_gets_that_items_error(client: TestClient) -> None:
    r = client.post("/v1/solve/opening", content=b'{"racks": [{"rack": "R1", ' + LONE + b': 2}, '
                                                 b'"R1 R2 R3"]}', headers=JSON)
    assert r.status_code == 200, r.text
    first, second = r.json()["results"]
    assert first["error"].startswith("item 0: unknown field") and second["value"] == 0


def test_a_lone_surrogate_in_game_requests_answers_422(client: TestClient) -> None:
    gid = _game(client)
    for path in (f"/v1/games/{gid}/actions", f"/v1/games/{gid}/play-hint"):
        r = client.post(path, content=b'{' + LONE + b': 1}', headers=JSON)
        assert r.status_code == 422, r.text
        assert "internal error" not in r.json()["error"]


def test_a_replay_whose_seats_hold_a_lone_surrogate_is_answered(client: TestClient) -> None:
    raw = (b'{"record": {"rules": "rummy101(players=2)", "seed": 1, "actions": [], "seats": ['
           + LONE + b', "greedy"]}}')
    r = client.post("/v1/replays", content=raw, headers=JSON)
    assert r.status_code == 200, r.text
    assert r.json()["seats"] == ["\ud800", "greedy"]
    again = client.get(f"/v1/replays/{r.json()['id']}")
    assert again.status_code == 200 and again.json()["seats"] == ["\ud800", "greedy"]


# A Remi or classic observation whose per-seat lists are shorter than the seats made the generic
# hint index past them (IndexError): 400 "internal error" instead of 422 naming the field.
def _observation(rules: str) -> dict[str, object]:
    state = new_game(rules, 3)
    bots = [get_bot("greedy", random.Random(i)) for i in range(state.rules.players)]
    while state.current_player != 0 or state.phase.value not in ("take", "play"):
        seat = state.current_player
        state.apply(bots[seat].act(state.observation(seat), state.legal_actions()))
    obs: dict[str, object] = json.loads(json.dumps(state.observation(0)))
    return obs


@pytest.mark.parametrize("rules,key", [
    ("classic(players=2)", "rack_sizes"),
    ("classic(players=2)", "melded"),
    ("remi(players=2)", "own_turns"),
])
def test_an_observation_with_a_short_per_seat_list_answers_422(client: TestClient, rules: str,
                                                               key: str) -> None:
    obs = _observation(rules)
    assert isinstance(obs[key], list)
    obs[key] = []
    r = client.post("/v1/hint", json={"observation": obs})
    assert r.status_code == 422, r.text
    error = r.json()["error"]
    assert "internal error" not in error and "field 'observation'" in error, error


def test_the_turns_of_a_replay_without_turns(client: TestClient) -> None:
    r = client.post("/v1/replays", json={"record": {"rules": "rummy101(players=2)", "seed": 1,
                                                    "actions": []}})
    assert r.status_code == 200 and r.json()["turns"] == []
    r = client.get(f"/v1/replays/{r.json()['id']}/turns/0")
    assert r.status_code == 404
    assert "0..-1" not in r.json()["error"] and "no turns" in r.json()["error"], r.text


@pytest.mark.parametrize("value", ["2", 0, 10_001])
def test_a_records_match_rounds_states_the_range_the_engine_accepts(client: TestClient,
                                                                   value: object) -> None:
    r = client.post("/v1/replays", json={"record": {"rules": "rummy101(players=2)", "seed": 1,
                                                    "match_rounds": value, "actions": []}})
    assert r.status_code == 422
    error = r.json()["error"]
    assert "1 to 10000" in error and "100000" not in error, error


@pytest.mark.parametrize("path,body,field", [
    ("/v1/replays", {"record": None}, "field 'record'"),
    ("/v1/replays", {"record": {"rules": None, "seed": 1, "actions": []}}, "'rules'"),
    ("/v1/games/0123456789abcdef/actions", {"action": None}, "field 'action'"),
    ("/v1/games", {"bots": None, "rules": "rummy101(players=2)"}, None),
])
def test_a_null_is_called_null_once(client: TestClient, path: str, body: object,
                                    field: str | None) -> None:
    r = client.post(path, json=body)
    if field is None:  # no bots given: the default bots
        assert r.status_code == 200, r.text
        return
    assert r.status_code == 422, r.text
    error = r.json()["error"]
    assert field in error and "got null" in error and "null null" not in error, error


@pytest.mark.parametrize("method,path", [
    ("POST", "/v1/solve/opening/"), ("GET", "/health/"), ("GET", "/v1/info/"),
    ("POST", "/v1/games/"), ("GET", "/v1/game-options/"),
])
def test_a_trailing_slash_is_an_unknown_path_not_a_redirect(client: TestClient, method: str,
                                                            path: str) -> None:
    # Starlette redirected (307, empty body) to a Location built from the request's own Host
    # header: no {"error"} for the client, and an address any client could choose
    r = client.request(method, path, json={"rack": "R1"}, follow_redirects=False,
                       headers={"host": "evil.example"})
    assert r.status_code == 404, (r.status_code, r.headers)
    assert "location" not in r.headers
    # (and points at the path without the slash)
    assert r.json() == {"error": f"no endpoint at {path!r}; did you mean {path.rstrip('/')!r}?; "
                                 f"see /openapi.json"}


def test_big_bodies_held_by_one_client_do_not_lock_out_ordinary_requests() -> None:
    """Eight connections that each send a 4 MiB body but its last byte held the 32 MiB byte
    budget, and every POST of every client (solves, hints, game moves) answered 429 for the
    body timeout, 10 s at a time. A body's first 8 KiB are held in a pool of their own: ordinary
    requests are answered while big bodies wait, and a big body over the budget still answers
    429."""
    import asyncio

    import httpx

    app = create_app(threads=1)
    service = app.state.service
    service.bodies.limit = 200_000
    big = 99_995  # two of them hold all but 10 bytes of the budget
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
             "scheme": "http", "path": "/v1/validate/meld", "raw_path": b"/v1/validate/meld",
             "query_string": b"", "root_path": "", "client": ("t", 1), "server": ("t", 80),
             "headers": [(b"content-type", b"application/json"),
                         (b"content-length", str(big + 10).encode())]}

    async def main() -> tuple[list[int], list[int], list[int]]:
        stall = asyncio.Event()

        async def held() -> int:
            first = [True]

            async def receive() -> dict[str, object]:  # most of the body, then nothing
                if first[0]:
                    first[0] = False
                    return {"type": "http.request", "body": b" " * big, "more_body": True}
                await stall.wait()
                return {"type": "http.disconnect"}

            sent: list[dict[str, object]] = []

            async def send(message: dict[str, object]) -> None:
                sent.append(message)

            await app(dict(scope), receive, send)  # type: ignore[arg-type]
            return int(sent[0]["status"])  # type: ignore[call-overload]

        holders = [asyncio.ensure_future(held()) for _ in range(2)]
        await asyncio.sleep(0.2)
        transport = httpx.ASGITransport(app=app)  # type: ignore[arg-type]
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
            ordinary = [
                (await client.post("/v1/validate/meld", json={"meld": "R1 R2 R3"})).status_code,
                (await client.post("/v1/solve/opening", json={"rack": "R1 R2 R3"})).status_code,
                (await client.post("/v1/games", json={"rules": "rummy101(players=2)"})).status_code,
            ]
            padded = {"meld": "R1 R2 R3" + " " * 30_000}
            over = [(await client.post("/v1/validate/meld", json=padded)).status_code]
        stall.set()
        return ordinary, over, list(await asyncio.gather(*holders))

    ordinary, over, holders = asyncio.run(main())
    assert ordinary == [200, 200, 200]
    assert over == [429]  # big bodies still share the budget
    assert holders == [400, 400]  # they left without sending the rest
    assert service.bodies.held == 0 and service.bodies.held_free == 0
    assert service.in_flight == 0 and service.reading == 0


def test_the_heads_of_bodies_have_a_bounded_pool_of_their_own() -> None:
    from rummy101.service.body import BodyBudget, HttpError

    budget = BodyBudget(limit=100, free=10, free_limit=25)
    budget.take(0, 4)     # a body's first bytes: the heads' pool
    budget.take(4, 30)    # across its head: 6 more there, 24 in the main pool
    assert (budget.held_free, budget.held) == (10, 24)
    budget.take(0, 10)
    with pytest.raises(HttpError) as full:  # the heads' pool is full
        budget.take(0, 10)
    assert full.value.status == 429 and "25" in full.value.message
    with pytest.raises(HttpError):  # and so is the main pool
        budget.take(10, 80)
    budget.give(34)
    budget.give(10)
    assert (budget.held_free, budget.held) == (0, 0)


def test_game_options_are_answered_while_the_game_threads_are_busy(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """GET /v1/game-options (the page's first request) waited in the games' worker threads
    behind other clients' bot moves (3.5 s behind one client's sixteen games of search bots, and
    429 after 20 s); it needs no game, so it no longer queues there."""
    import asyncio
    import threading

    import httpx

    app = create_app(threads=1)
    store = app.state.games
    gids = [store.create({"rules": "rummy101(players=2)", "seed": i})["id"] for i in range(2)]
    release = threading.Event()

    def slow_view(gid: str) -> dict[str, object]:  # a bot move that takes a while
        release.wait(30)
        return {"id": gid}

    monkeypatch.setattr(store, "view", slow_view)

    async def main() -> tuple[int, bool]:
        transport = httpx.ASGITransport(app=app)  # type: ignore[arg-type]
        async with httpx.AsyncClient(transport=transport, base_url="http://t",
                                     timeout=60) as client:
            busy = [asyncio.ensure_future(client.get(f"/v1/games/{g}")) for g in gids]
            await asyncio.sleep(0.3)  # both game threads are now held
            options = asyncio.ensure_future(client.get("/v1/game-options"))
            await asyncio.wait([options], timeout=15)
            answered_first = options.done() and not any(b.done() for b in busy)
            release.set()
            await asyncio.gather(*busy)
            return (await options).status_code, answered_first

    try:
        status, answered_first = asyncio.run(main())
    finally:
        release.set()
    assert status == 200
    assert answered_first  # while both game threads were still held


@pytest.mark.parametrize("path,meant", [
    ("/v1/opening", "did you mean '/v1/solve/opening'?"),
    ("/v1/solve/opnening", "did you mean '/v1/solve/opening'?"),
    ("/v1/hints", "did you mean '/v1/hint'?"),
    ("/v1/solve", "did you mean '/v1/solve/opening', '/v1/solve/penalty' or '/v1/solve/tabla'?"),
    ("/v1/meld", "did you mean '/v1/validate/meld'?"),
])
def test_an_unknown_path_points_at_the_endpoint_meant(client: TestClient, path: str,
                                                      meant: str) -> None:
    """`POST /v1/opening` (the CLI's `solve opening` read as a path) was answered "no endpoint
    at '/v1/opening'; see /openapi.json", a document of 17 paths to read for the one meant."""
    r = client.post(path, json={"rack": "R1 R2 R3"})
    assert r.status_code == 404
    assert r.json() == {"error": f"no endpoint at {path!r}; {meant}; see /openapi.json"}


@pytest.mark.parametrize("path", ["/v1/", "/foo", "/v1/zzzzzz"])
def test_an_unknown_path_like_no_endpoint_gets_no_pointer(client: TestClient, path: str) -> None:
    r = client.post(path, json={})
    assert r.json() == {"error": f"no endpoint at {path!r}; see /openapi.json"}


def test_a_get_on_a_post_endpoint_names_the_method_allowed(client: TestClient) -> None:
    """`curl URL` (a GET) on a solver was answered "method GET is not allowed" without saying
    which is."""
    r = client.get("/v1/solve/opening")
    assert r.status_code == 405 and r.headers["allow"] == "POST"
    assert r.json() == {"error": "method GET is not allowed on '/v1/solve/opening' (allowed: POST)"}


@pytest.mark.parametrize("path,body,pointer", [
    ("/v1/solve/opening", {"variant": "remi", "rack": "R1 R2 R3"},
     '; the variant and its options go in "rules" (e.g. "rules": "remi")'),
    ("/v1/solve/penalty", {"rules": "remi", "tiles": "R1 R2 R3"}, '; did you mean "rack"?'),
    ("/v1/solve/opening", {"rack": "R1 R2 R3", "must_used": "R1"}, '; did you mean "must_use"?'),
    ("/v1/hint", {"game": "remi"}, '; the variant and its options go in "rules" (e.g. "rules": "remi")'),
])
def test_an_unknown_field_points_at_the_field_meant(client: TestClient, path: str,
                                                    body: dict[str, str], pointer: str) -> None:
    """`{"variant": "remi", ...}` (the docs' word) was answered with the list of fields only."""
    r = client.post(path, json=body)
    assert r.status_code == 422, r.text
    assert r.json()["error"].endswith(pointer), r.json()

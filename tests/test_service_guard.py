"""The service's guards (issue 8), in process: content type, duplicate keys, non-ASCII digits,
CORS only when configured, ``Allow`` on 405, capped rules everywhere, hint positions checked
against their rules, work budgets that answer 422 naming the limit, caps on requests and body
bytes held at once."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping

import pytest

pytest.importorskip("fastapi")
import httpx
from fastapi.testclient import TestClient
from rummy101 import backend_name
from rummy101.game import new_game, records
from rummy101.service import app as app_module
from rummy101.service import batching
from rummy101.service.app import create_app

POSTS = ["/v1/solve/opening", "/v1/solve/penalty", "/v1/solve/tabla", "/v1/validate/meld",
         "/v1/hint"]
BAIT = "rummy101(" + " " * 39_990 + ")"


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(), raise_server_exceptions=False)


@pytest.mark.parametrize("path", POSTS)
@pytest.mark.parametrize("content_type", [None, "text/plain", "application/x-www-form-urlencoded",
                                          "multipart/form-data; boundary=x", "application/jsonx",
                                          "application/xml"])
def test_post_bodies_must_be_sent_as_json(client: TestClient, path: str,
                                          content_type: str | None) -> None:
    headers = {} if content_type is None else {"content-type": content_type}
    r = client.post(path, content=b'{"rack": "R1 R2 R3"}', headers=headers)
    assert r.status_code == 415, r.text
    assert "application/json" in r.json()["error"] and "--json" in r.json()["error"]
    assert r.headers["connection"] == "close"


@pytest.mark.parametrize("content_type", ["application/json", "application/json; charset=utf-8",
                                          "Application/JSON"])
def test_json_content_types_are_accepted(client: TestClient, content_type: str) -> None:
    r = client.post("/v1/validate/meld", content=b'{"meld": "R1 R2 R3"}',
                    headers={"content-type": content_type})
    assert r.status_code == 200 and r.json()["valid"] is True


@pytest.mark.parametrize("raw,key", [
    (b'{"rack": "R1 R2 R3", "rack": "K1 K2 K3"}', "rack"),
    (b'{"rules": "remi", "rack": "R1", "rules": "rummy101"}', "rules"),
    (b'{"racks": [{"rack": "R1", "threshold": 5, "threshold": 200}]}', "threshold"),
])
def test_duplicate_keys_are_refused_naming_the_key(client: TestClient, raw: bytes,
                                                   key: str) -> None:
    r = client.post("/v1/solve/opening", content=raw, headers={"content-type": "application/json"})
    assert r.status_code == 400
    assert f'"{key}" twice' in r.json()["error"]


@pytest.mark.parametrize("token", ["R５", "R٥", "R۵", "Ｒ5", "R1٣", "K¹"])
def test_non_ascii_digits_are_refused_naming_the_token(client: TestClient, token: str) -> None:
    r = client.post("/v1/solve/opening", json={"rack": f"R1 R2 {token}"})
    assert r.status_code == 422
    error = r.json()["error"]
    assert f"({token!r})" in error and "ASCII" in error and "U+" in error


def test_non_ascii_digits_in_rules_options_are_refused(client: TestClient) -> None:
    r = client.post("/v1/solve/opening", json={"rules": "rummy101(players=３)", "rack": "R1"})
    assert r.status_code == 422 and "players" in r.json()["error"]


def test_no_cors_headers_unless_configured(client: TestClient) -> None:
    origin = {"origin": "https://evil.example"}
    r = client.post("/v1/validate/meld", json={"meld": "R1 R2 R3"}, headers=origin)
    assert r.status_code == 200 and "access-control-allow-origin" not in r.headers
    pre = client.options("/v1/validate/meld", headers={
        **origin, "access-control-request-method": "POST",
        "access-control-request-headers": "content-type"})
    assert "access-control-allow-origin" not in pre.headers


def test_cors_for_configured_origins_only() -> None:
    c = TestClient(create_app(cors_origins=["https://app.example"]))
    ok = {"origin": "https://app.example"}
    pre = c.options("/v1/solve/opening", headers={
        **ok, "access-control-request-method": "POST",
        "access-control-request-headers": "content-type"})
    assert pre.status_code == 200
    assert pre.headers["access-control-allow-origin"] == "https://app.example"
    r = c.post("/v1/validate/meld", json={"meld": "R1 R2 R3"}, headers=ok)
    assert r.headers["access-control-allow-origin"] == "https://app.example"
    other = c.post("/v1/validate/meld", json={"meld": "R1 R2 R3"},
                   headers={"origin": "https://evil.example"})
    assert "access-control-allow-origin" not in other.headers


def test_cors_origins_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RUMMY101_CORS_ORIGINS", " https://a.example , https://b.example ")
    assert app_module.cors_from_env() == ["https://a.example", "https://b.example"]
    monkeypatch.setenv("RUMMY101_CORS_ORIGINS", "")
    assert app_module.cors_from_env() == []


@pytest.mark.parametrize("method,path,allowed", [
    ("GET", "/v1/solve/opening", "POST"), ("DELETE", "/health", "GET"),
    ("TRACE", "/v1/info", "GET"), ("PUT", "/v1/hint", "POST")])
def test_405_lists_the_allowed_methods(client: TestClient, method: str, path: str,
                                       allowed: str) -> None:
    r = client.request(method, path)
    assert r.status_code == 405 and allowed in r.headers["allow"]
    assert method in r.json()["error"]


@pytest.mark.parametrize("path", ["/", "/health", "/v1/info", "/openapi.json", "/nowhere"])
def test_head_answers_as_get_without_the_body(client: TestClient, path: str) -> None:
    """Uptime monitors and link checkers send HEAD (RFC 9110 9.3.2): the GET's status and
    headers, no body (the routes list GET only, and HEAD answered 405)."""
    got, head = client.get(path), client.head(path)
    assert head.status_code == got.status_code and head.content == b""
    assert head.headers["content-length"] == got.headers["content-length"] != "0"
    assert head.headers["content-type"] == got.headers["content-type"]


def test_head_of_a_post_only_path_is_405(client: TestClient) -> None:
    r = client.head("/v1/solve/opening")
    assert r.status_code == 405 and "POST" in r.headers["allow"] and r.content == b""


@pytest.mark.parametrize("body", [
    {"rules": BAIT, "rack": "R1"},
    {"racks": ["R1"], "rules": BAIT},
    {"racks": [{"rules": BAIT, "rack": "R1"}]},
])
def test_long_rules_are_refused_on_the_solvers(client: TestClient, body: object) -> None:
    r = client.post("/v1/solve/opening", json=body)
    assert "40000" in r.text and ("characters" in r.text)


def test_long_rules_are_refused_inside_hint_records_and_observations(client: TestClient) -> None:
    state = new_game("rummy101(players=2)", 3)
    record = json.loads(records.dumps(state))
    record["rules"] = BAIT
    obs = state.observation(state.current_player)
    obs["rules"] = BAIT
    for body in ({"record": record}, {"record": json.dumps(record)}, {"observation": obs}):
        r = client.post("/v1/hint", json=body)
        assert r.status_code == 422 and "40000 characters" in r.json()["error"], r.text


# ---- hint positions against their rules -------------------------------------------------------
@pytest.mark.parametrize("body,words", [
    ({"rules": "rummy101(button_jokers=1)", "seat": 0, "rack": "* * * * * * R1",
      "button_available": True}, ["jokers", "at most 5"]),
    ({"rules": "rummy101(button_jokers=1,players=2)", "seat": 0, "rack": "* * * * * R1"},
     ["jokers", "at most 4"]),
    ({"seat": 0, "rack": "* * * R1"}, ["3 jokers", "at most 2"]),
    ({"seat": 0, "rack": "R1 K5", "table": [{"owner": 1, "tiles": "R3 R4 R5"}]},
     ["seat 1", "not opened"]),
    ({"seat": 0, "rack": "R1 K5", "table": [{"owner": 1, "tiles": "R3 R3"}],
      "players": [{"seat": 1, "opened": "melds"}]}, ["pair", "R101-8"]),
    ({"seat": 0, "rack": "R1 K5", "stage": "play", "last_discard": "K9"}, ["last_discard"]),
    ({"seat": 0, "rack": "R1 K5", "stage": ""}, ["stage"]),
])
def test_hint_positions_the_rules_do_not_allow_answer_422(client: TestClient, body: object,
                                                          words: list[str]) -> None:
    r = client.post("/v1/hint", json=body)
    assert r.status_code == 422, r.text
    assert all(w in r.json()["error"] for w in words), r.json()["error"]
    assert "CoreInputError" not in r.text


def test_most_jokers_a_hint_allows_is_answered(client: TestClient) -> None:
    r = client.post("/v1/hint", json={"rules": "rummy101(button_jokers=1,players=2)", "seat": 0,
                                      "rack": "* * * R1 R2 K9", "button_available": True,
                                      "alternatives": 1})
    assert r.status_code == 200, r.text


# ---- work budgets -------------------------------------------------------------------------------
DENSE = " ".join(f"{c}{n}" for n in (5, 6, 7, 8) for c in "RYBK" for _ in range(2)).split()
DENSE_RACK = " ".join(DENSE[:26] + ["*", "*"])
DENSE_HINT_RACK = " ".join(DENSE[:22] + ["*", "*"])


def _budgets(monkeypatch: pytest.MonkeyPatch, quick: int, full: int) -> None:
    for name, value in (("NATIVE_QUICK_NODES", quick), ("PURE_QUICK_NODES", quick),
                        ("NATIVE_SOLVE_NODES", full), ("PURE_SOLVE_NODES", full)):
        monkeypatch.setattr(batching, name, value)


def test_a_solve_over_the_work_budget_answers_422_naming_the_limit(
        monkeypatch: pytest.MonkeyPatch) -> None:
    _budgets(monkeypatch, quick=20, full=40)
    c = TestClient(create_app())
    limit = "native_solve_nodes" if backend_name() == "native" else "pure_solve_nodes"
    for path, body in (("/v1/solve/opening", {"rack": DENSE_RACK}),
                       ("/v1/solve/penalty", {"rack": DENSE_RACK}),
                       ("/v1/hint", {"seat": 0, "stage": "play", "rack": DENSE_HINT_RACK})):
        r = c.post(path, json=body)
        assert r.status_code == 422, (path, r.text)
        assert "40 search nodes" in r.json()["error"] and limit in r.json()["error"], r.text
    batch = c.post("/v1/solve/opening", json={"racks": [DENSE_RACK, "R1 R2 R3 K9"]}).json()
    assert "item 0" in batch["results"][0]["error"]
    assert "search nodes" in batch["results"][0]["error"]
    assert batch["results"][1]["rack"] == "R1 R2 R3 K9"
    assert c.get("/health").status_code == 200


def test_a_solve_over_the_quick_budget_is_finished_in_the_slow_lane(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The quick lane's budget is tiny here: dense and ordinary requests alike move to the slow
    lane and are answered there with the full budget."""
    _budgets(monkeypatch, quick=2, full=10**9)
    c = TestClient(create_app())
    from rummy101 import solve_opening

    for rack in (DENSE_RACK, "R10 * R12 K13 K12 K11 Y9 Y8 Y7 B13 B12 B11 R2"):
        r = c.post("/v1/solve/opening", json={"rack": rack})
        assert r.status_code == 200 and r.json() == solve_opening("rummy101", rack).to_json()


# ---- caps on what is held at once ---------------------------------------------------------------
def _concurrent_posts(app: object, n: int, body: Mapping[str, object]) -> list[int]:
    async def main() -> list[int]:
        transport = httpx.ASGITransport(app=app)  # type: ignore[arg-type]
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
            rs = await asyncio.gather(*(client.post("/v1/validate/meld", json=body)
                                        for _ in range(n)))
        return [r.status_code for r in rs]

    return asyncio.run(main())


def test_requests_over_the_in_flight_cap_answer_429() -> None:
    app = create_app(threads=1)
    app.state.service.max_in_flight = 3
    codes = _concurrent_posts(app, 12, {"meld": "R1 R2 R3"})
    assert set(codes) == {200, 429} and codes.count(200) >= 3


def test_bodies_over_the_byte_budget_answer_429() -> None:
    app = create_app(threads=1)
    app.state.service.bodies.limit = 3000
    app.state.service.bodies.free = 0  # every byte counted (a body's first 8 KiB are not)
    pad = {"meld": "R1 R2 R3 " + " " * 1000}
    codes = _concurrent_posts(app, 12, pad)
    assert set(codes) == {200, 429}
    assert app.state.service.bodies.held == 0  # every reservation was given back


def test_a_request_out_of_quick_lane_time_is_finished_in_the_slow_lane(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """No time at all in the quick lane: every opening (single or coalesced) and every hint is
    still answered, from the slow lane."""
    for name in ("NATIVE_QUICK_SECONDS", "PURE_QUICK_SECONDS"):
        monkeypatch.setattr(batching, name, 0.0)
    c = TestClient(create_app())
    r = c.post("/v1/solve/opening", json={"rack": "R1 R2 R3 K9"})
    assert r.status_code == 200 and r.json()["value"] == 6
    h = c.post("/v1/hint", json={"seat": 0, "stage": "play", "rack": "R1 R2 R3 K9 K9",
                                 "alternatives": 0})
    assert h.status_code == 200 and h.json()["turn"]["actions"]


def _few_turns(rules: str) -> object:
    """A game of ``rules`` a few greedy turns in, at a seat's turn."""
    import random

    from rummy101.bots import get_bot

    state = new_game(rules, 3)
    bots = [get_bot("greedy", random.Random(seat)) for seat in range(state.n)]
    for _ in range(12):
        seat = state.current_player
        state.apply(bots[seat].act(state.observation(seat), state.legal_actions()))
    return state


@pytest.mark.parametrize("rules", ["remi(players=2)", "classic"])
def test_a_remi_or_classic_hint_over_the_quick_budget_is_finished_in_the_slow_lane(
        monkeypatch: pytest.MonkeyPatch, rules: str) -> None:
    """The Remi and classic hints (a record or an observation) replay and plan in the engine,
    whose spent quick-lane budget was answered 422 "game record action 250 ... does not
    replay: the request needs more than the quick lane's 0.1 s" (a 60-tile Remi record of
    bench/data, valid; a spent node budget alike): the engine's reading turned the lane's
    signal into a fault of the request. Now both are answered from the slow lane, as a Rummy
    101 hint is."""
    _budgets(monkeypatch, quick=2, full=10**9)  # every search spends the quick lane's nodes
    state = _few_turns(rules)
    c = TestClient(create_app())
    for body in ({"record": records.to_dict(state)},  # type: ignore[arg-type]
                 {"observation": state.observation(state.current_player)}):  # type: ignore[attr-defined]
        h = c.post("/v1/hint", json={**body, "alternatives": 0})
        assert h.status_code == 200, h.text
        assert h.json()["turn"]["actions"]


@pytest.mark.parametrize("rules", ["remi(players=2)", "classic"])
def test_a_remi_or_classic_hint_stops_at_the_hints_time_limit(
        monkeypatch: pytest.MonkeyPatch, rules: str) -> None:
    """A Remi or classic hint replays its record and plans with the engine, which the slow
    lane bounded per search only: a 60-tile Remi record of bench/data held the pure backend's
    one slow thread for 67 s. It now stops at the hint's time limit (HINT_SECONDS, here 0) and
    answers 422 saying so, the record replay included."""
    from rummy101.service import api

    monkeypatch.setattr(api, "HINT_SECONDS", 0.0)
    state = _few_turns(rules)
    c = TestClient(create_app())
    for source, body in (("record", {"record": records.to_dict(state)}),  # type: ignore[arg-type]
                         ("observation", {"observation": state.observation(  # type: ignore[attr-defined]
                             state.current_player)})):  # type: ignore[attr-defined]
        h = c.post("/v1/hint", json={**body, "alternatives": 0})
        assert h.status_code == 422, h.text
        assert h.json() == {"error": f"the hint needs more than 0 s for this {source} (replaying "
                                     "it and planning the turn); no turn is recommended"}


def test_check_stop_ends_work_at_shutdown_and_at_the_lane_deadline() -> None:
    import threading

    from rummy101._cancel import ShuttingDown, check_stop, watching
    from rummy101.errors import WorkBudgetExceeded

    stop = threading.Event()
    with watching(stop, seconds=0.0), pytest.raises(WorkBudgetExceeded, match="quick lane"):
        check_stop()
    with watching(stop):
        check_stop()  # no deadline, not stopping: goes on
        stop.set()
        with pytest.raises(ShuttingDown):
            check_stop()
    check_stop()  # outside a server nothing stops


# ---- no request holds the slow lane for nobody, or waits in it without end ---------------------
def _slow_lane(many: object) -> batching.Coalescer:
    """A slow-lane coalescer (one thread, full budget) around ``many``."""
    lanes = batching.Lanes(threads=2)
    lanes.slow_threads = 1
    return lanes.coalescer(many, max_items=1).escalate  # type: ignore[arg-type,return-value]


def test_a_request_whose_client_left_is_dropped_before_it_runs() -> None:
    """A queued request whose client disconnects answers ClientGone and never runs; the one
    running goes on and is answered."""
    import threading

    ran: list[str] = []
    release = threading.Event()

    def many(bodies: list[str]) -> list[str]:
        ran.extend(bodies)
        release.wait(10)
        return [b.upper() for b in bodies]

    async def main() -> tuple[object, object]:
        lane = _slow_lane(many)
        left = asyncio.Event()

        async def gone() -> None:
            await left.wait()

        first = asyncio.ensure_future(lane.submit("a", gone))
        await asyncio.sleep(0.1)  # "a" is running
        second = asyncio.ensure_future(lane.submit("b", gone=lambda: asyncio.sleep(0.05)))
        await asyncio.sleep(0.3)  # its client has gone
        third = asyncio.ensure_future(lane.submit("c"))  # queued behind "b"
        release.set()
        return await first, await asyncio.gather(second, third, return_exceptions=True)

    a, (b, c) = asyncio.run(main())  # type: ignore[misc]
    assert a == b'"A"' and c == b'"C"'  # (answers are JSON-encoded in the worker thread)
    assert isinstance(b, batching.ClientGone)
    assert ran == ["a", "c"]  # "b" never ran


def test_running_work_whose_clients_all_left_is_told_to_stop() -> None:
    """The work of a request whose client disconnects sees stop_requested() and check_stop()
    raises at its next check: a batch stops at its next chunk instead of running to its end."""
    import time

    from rummy101._cancel import ShuttingDown, check_stop

    stopped: list[str] = []

    def many(bodies: list[str]) -> list[str]:
        end = time.monotonic() + 10
        while time.monotonic() < end:
            try:
                check_stop()
            except ShuttingDown as exc:
                stopped.append(str(exc))
                return ["stopped"] * len(bodies)
            time.sleep(0.01)
        return ["ran to the end"] * len(bodies)

    async def main() -> object:
        lane = _slow_lane(many)
        got = asyncio.ensure_future(lane.submit("a", gone=lambda: asyncio.sleep(0.1)))
        return (await asyncio.gather(got, return_exceptions=True))[0]

    t0 = time.monotonic()
    result = asyncio.run(main())
    assert isinstance(result, batching.ClientGone)
    for _ in range(200):  # the worker thread notices within a check or two
        if stopped:
            break
        time.sleep(0.01)
    assert stopped and "client" in stopped[0], stopped
    assert time.monotonic() - t0 < 5


def test_a_request_that_waited_too_long_for_a_thread_answers_busy(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Behind work that holds the lane's one thread, a request that waited more than
    MAX_WAIT_SECONDS answers Busy (429) instead of running then."""
    import time

    monkeypatch.setattr(batching, "MAX_WAIT_SECONDS", 0.2)
    ran: list[str] = []

    def many(bodies: list[str]) -> list[str]:
        ran.extend(bodies)
        time.sleep(0.5 if bodies == ["slow"] else 0)
        return bodies

    async def main() -> list[object]:
        lane = _slow_lane(many)
        first = asyncio.ensure_future(lane.submit("slow"))
        await asyncio.sleep(0.05)
        return await asyncio.gather(first, lane.submit("late"), return_exceptions=True)

    slow, late = asyncio.run(main())
    assert slow == b'"slow"'
    assert isinstance(late, batching.Busy) and "waited" in str(late), late
    assert ran == ["slow"]


def test_a_batch_time_budget_counts_from_the_request_arrival() -> None:
    """A batch that already waited its whole budget for a thread answers every item 'not
    solved', saying how long it waited, instead of holding the lane for 20 s more."""
    import threading
    import time

    from rummy101._cancel import watching
    from rummy101.service import api
    from rummy101.service.limits import BATCH_SECONDS

    with watching(threading.Event(), arrived=time.monotonic() - BATCH_SECONDS - 1):
        out = api.openings(["R1 R2 R3", {"rack": "K1 K2 K3"}])
    assert all("used up its 20 s time budget, 21 s of it waiting" in a["error"] for a in out), out
    with watching(threading.Event(), arrived=time.monotonic()):
        assert all("error" not in a for a in api.openings(["R1 R2 R3", {"rack": "K1 K2 K3"}]))


def test_requests_still_reading_their_bodies_do_not_take_the_in_flight_slots() -> None:
    """Bodies that never arrive (a byte a second, for the body timeout) hold reading slots, not
    the in-flight ones: with more stalled readers than in-flight slots an ordinary request is
    still answered, and readers past their own cap answer 429 (256 dribbled bodies used to lock
    every POST out for 10 s at a time)."""
    app = create_app(threads=1)
    service = app.state.service
    service.max_in_flight, service.max_reading = 3, 6
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
             "scheme": "http", "path": "/v1/validate/meld", "raw_path": b"/v1/validate/meld",
             "query_string": b"", "root_path": "", "client": ("t", 1), "server": ("t", 80),
             "headers": [(b"content-type", b"application/json"), (b"content-length", b"20")]}

    async def main() -> tuple[list[int], int, list[int]]:
        stall = asyncio.Event()

        async def never() -> dict[str, object]:  # the body never comes, then the client leaves
            await stall.wait()
            return {"type": "http.disconnect"}

        async def stalled() -> int:
            sent: list[dict[str, object]] = []

            async def send(message: dict[str, object]) -> None:
                sent.append(message)

            await app(dict(scope), never, send)  # type: ignore[arg-type]
            return int(sent[0]["status"])  # type: ignore[call-overload]

        readers = [asyncio.ensure_future(stalled()) for _ in range(5)]
        await asyncio.sleep(0.2)
        transport = httpx.ASGITransport(app=app)  # type: ignore[arg-type]
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
            r = await client.post("/v1/validate/meld", json={"meld": "R1 R2 R3"})
        readers += [asyncio.ensure_future(stalled()) for _ in range(2)]
        await asyncio.sleep(0.2)
        early = [t.result() for t in readers if t.done()]
        stall.set()
        late = await asyncio.gather(*(t for t in readers if not t.done()))
        return early, r.status_code, list(late)

    early, status, late = asyncio.run(main())
    assert status == 200  # five stalled readers hold none of the three in-flight slots
    assert early == [429]  # the seventh reader was over the reading cap
    assert late == [400] * 6  # the others, once their clients left
    assert service.in_flight == 0 and service.reading == 0

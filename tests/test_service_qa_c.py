"""Found by attacking the running service from outside (QA helper c): requests that waited for
a solver thread past the promised limit, and answers that did not say what to fix."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

pytest.importorskip("fastapi")
from rummy101.service import batching


def _busy_lanes(monkeypatch: pytest.MonkeyPatch) -> tuple[batching.Lanes, threading.Event]:
    """Lanes whose slow lane has one thread, a wait limit of 0.2 s, and an event that holds
    the work named "hold" until it is set."""
    monkeypatch.setattr(batching, "MAX_WAIT_SECONDS", 0.2)
    lanes = batching.Lanes(threads=2)
    lanes.slow_threads = 1
    return lanes, threading.Event()


async def _late_while_held(first: Any, second: Any,
                           release: threading.Event) -> tuple[object, bool, object]:
    """``first`` takes the lane's thread with "hold"; "late" is then submitted to ``second`` and
    its outcome kept (an answer or the exception); whether "hold" was still running when "late"
    was answered; then the thread is released and "hold"'s answer awaited."""
    held = asyncio.ensure_future(first.submit("hold"))
    await asyncio.sleep(0.05)
    try:
        late: object = await asyncio.wait_for(second.submit("late"), timeout=10)
    except Exception as exc:  # noqa: BLE001 - the outcome is checked by the caller
        late = exc
    still_held = not held.done()
    release.set()
    return late, still_held, await held


def _many(release: threading.Event) -> batching.Many:
    def many(bodies: list[str]) -> list[str]:
        if "hold" in bodies:
            release.wait(30)
        return bodies

    return many


def test_a_request_behind_a_held_thread_is_refused_when_its_wait_runs_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A request queued behind work that holds the slow lane's one thread answers Busy (429)
    once it has waited MAX_WAIT_SECONDS, while that work still runs: before, it was answered
    only when the thread came free (a 2,280-rack batch behind dense racks on the pure backend
    answered after 91 s, not 20)."""
    lanes, release = _busy_lanes(monkeypatch)
    lane = lanes.coalescer(_many(release), max_items=1).escalate
    assert lane is not None

    async def main() -> tuple[object, bool, object]:
        return await _late_while_held(lane, lane, release)

    late, still_held, held = asyncio.run(main())
    assert isinstance(late, batching.Busy) and "waited" in str(late), late
    assert still_held  # answered while the thread was still taken, not when it came free
    assert held == b'"hold"'


def test_a_request_of_another_operation_does_not_wait_past_its_limit_for_the_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The slow lane's thread is shared by every operation (openings, penalty, hints…): a
    request of one operation queued while another operation's work holds the thread answers
    Busy when its wait runs out. Before, its coalescer took it off the queue at once and then
    waited for the thread without any limit; after the wait it ran anyway. Once the thread is
    free, that operation answers again."""
    lanes, release = _busy_lanes(monkeypatch)
    ran: list[str] = []

    def other(bodies: list[str]) -> list[str]:
        ran.extend(bodies)
        return bodies

    first = lanes.coalescer(_many(release), max_items=1).escalate
    second = lanes.coalescer(other, max_items=1).escalate
    assert first is not None and second is not None

    async def main() -> tuple[object, bool, object, object]:
        late, still_held, held = await _late_while_held(first, second, release)
        return late, still_held, held, await asyncio.wait_for(second.submit("next"), 10)

    late, still_held, held, after = asyncio.run(main())
    assert isinstance(late, batching.Busy) and "waited" in str(late), late
    assert still_held
    assert held == b'"hold"' and after == b'"next"'
    assert ran == ["next"]  # "late" never ran


def test_dense_requests_queued_together_are_not_run_in_one_call_past_their_wait(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Penalty, tabla, meld and hint requests are answered one by one, so their slow lane takes
    one a call: requests that reach it together wait in its queue, where their wait limit
    holds. Before, the next call took all of them and ran them one after another with the full
    budget each (40 dense penalty solves sent at once to the pure backend were answered after
    up to 116 s); now the ones still waiting when their limit runs out answer Busy (429)."""
    from rummy101.service import app as app_module

    _, release = _busy_lanes(monkeypatch)
    ran: list[str] = []

    def penalty(body: str) -> str:
        ran.append(body)
        if body == "hold":
            release.wait(30)
        return body

    monkeypatch.setattr(app_module.api, "penalty", penalty)
    app = app_module.create_app(threads=2)
    lane = app.state.runners["/v1/solve/penalty"].escalate  # the slow lane: one thread
    assert lane is not None and lane.lanes.slow_threads == 1

    async def main() -> tuple[list[object], bool, object]:
        # three requests reach the slow lane together while its thread is free
        held = asyncio.ensure_future(lane.submit("hold"))
        others = [asyncio.ensure_future(lane.submit(b)) for b in ("b", "c")]
        await asyncio.sleep(0.05)
        try:
            late = list(await asyncio.wait_for(asyncio.gather(*others), timeout=10))
        except Exception as exc:  # noqa: BLE001 - the outcome is checked below
            late = [exc]
        still_held = not held.done()
        release.set()
        return late, still_held, await held

    late, still_held, held = asyncio.run(main())
    assert all(isinstance(r, batching.Busy) for r in late), late
    assert still_held
    assert held == b'"hold"' and ran == ["hold"]


def test_a_single_rack_not_reached_in_time_answers_busy_not_send_fewer_racks() -> None:
    """Single opening requests that reach the slow lane together share one solver call; when
    that call runs out of its 20 s, a single request used to answer 422 'not solved: the
    request used up its 20 s time budget ...; send fewer racks per request' (14 of 230 dense
    single racks sent at once to the pure backend): a client that sent one valid rack was told
    to fix its request. Now it is Busy (429, retry later); a batch's items keep their error."""
    import time

    from rummy101._cancel import watching
    from rummy101.service import api
    from rummy101.service.limits import BATCH_SECONDS

    with watching(threading.Event(), arrived=time.monotonic() - BATCH_SECONDS - 1):
        single, batch = api.solve_opening_bodies([{"rack": "R1 R2 R3"}, {"racks": ["R1 R2 R3"]}])
    assert isinstance(single, batching.Busy), single
    assert "busy" in str(single) and "retry later" in str(single) and "fewer" not in str(single)
    assert isinstance(batch, bytes) and b"not solved" in batch and b"send fewer racks" in batch


@pytest.mark.parametrize("path", ["/v1/solve/opening", "/v1/games"])
@pytest.mark.parametrize("coding", ["gzip, chunked", "deflate,chunked", "br"])
def test_a_body_with_a_compressing_transfer_coding_answers_415_naming_it(
    path: str, coding: str
) -> None:
    """'Transfer-Encoding: gzip, chunked' (HTTP/1.1 allows a compressing transfer coding
    before chunked): the server takes the chunks apart but does not inflate, and the body
    reached the JSON reader compressed: 400 'request body is not UTF-8 text (bad byte at offset
    1)', which names nothing to fix. Now 415 names the header, as for Content-Encoding."""
    import gzip

    from fastapi.testclient import TestClient
    from rummy101.service.app import create_app

    client = TestClient(create_app(), raise_server_exceptions=False)
    body = gzip.compress(b'{"rack": "R1 R2 R3"}')
    headers = {"content-type": "application/json", "transfer-encoding": coding}
    answer = client.post(path, content=body, headers=headers)
    assert answer.status_code == 415, answer.text
    assert "Transfer-Encoding" in answer.json()["error"] and coding in answer.json()["error"]
    plain = client.post(
        path,
        content=b"{}",
        headers={"content-type": "application/json", "transfer-encoding": "chunked"},
    )
    assert plain.status_code == 422 if path.endswith("opening") else plain.status_code == 200


_OPENED = [{"seat": 0, "opened": "melds"}, {"seat": 1, "opened": "melds"}]


@pytest.mark.parametrize(
    ("change", "told", "not_told"),
    [
        ({"table": [{"owner": 1, "tiles": "* * *"}]}, "holds only jokers", "reason code"),
        ({"table": [{"owner": 1, "tiles": "R12 R13 R1"}]}, "nothing follows 13", "reason code"),
        (
            {"table": [{"tiles": "R1 R2 R3"}]},
            "table meld 0: field 'owner' is missing",
            "observation",
        ),
        ({"table": [{"owner": None, "tiles": "R1 R2 R3"}]}, "whose meld it is", "observation"),
        (
            {"table": [{"owner": 7, "tiles": "R1 R2 R3"}]},
            "table meld 0: field 'owner' is 7",
            "hint",
        ),
        ({"players": [{"opened": "melds"}]}, "player 0: field 'seat' is missing", "observation"),
        ({"players": [{"seat": "0"}]}, "player 0: field 'seat' must be a seat number", "hint"),
    ],
)
def test_a_hint_views_table_and_players_mistakes_are_named_where_they_are(
    change: dict[str, object], told: str, not_told: str
) -> None:
    """A table meld that is no meld was refused as "'* * *' is not a legal meld (R101-5,
    reason code 3)", a code the client cannot read; a table meld or player without its seat
    got the advice for the request's own seat ("send the number of the seat to hint ... or
    send observation / record"), naming neither the meld nor the player. Now the reason is in
    words (as /v1/validate/meld gives it) and the meld or player is named."""
    from fastapi.testclient import TestClient
    from rummy101.service.app import create_app

    client = TestClient(create_app(), raise_server_exceptions=False)
    body = {"seat": 0, "stage": "play", "players": _OPENED, "rack": "R11 K5 K6 B2 Y9", **change}
    answer = client.post("/v1/hint", json=body)
    assert answer.status_code == 422, answer.text
    error = answer.json()["error"]
    assert told in error and not_told not in error, error


@pytest.mark.parametrize(
    ("body", "told"),
    [
        ({}, "field 'meld' is missing: give the tiles of one meld"),
        ({"meld": None}, "field 'meld' is missing: give the tiles of one meld"),
        ({"meld": 5}, "field 'meld' must be a meld: a string such as \"R10 * R12\""),
        ({"meld": {"tiles": ["R1"]}}, "field 'meld' must be a meld"),
    ],
)
def test_a_meld_request_without_a_meld_is_asked_for_a_meld_not_a_rack(
    body: dict[str, object], told: str
) -> None:
    """POST /v1/validate/meld without a usable 'meld' was told "give the rack as a string
    such as "R1 R2 R3 *"" / "must be a rack": a client checking one meld was asked for a
    rack."""
    from fastapi.testclient import TestClient
    from rummy101.service.app import create_app

    client = TestClient(create_app(), raise_server_exceptions=False)
    answer = client.post("/v1/validate/meld", json=body)
    assert answer.status_code == 422, answer.text
    error = answer.json()["error"]
    assert told in error and "rack" not in error, error


@pytest.mark.parametrize(
    ("rules", "foreign"),
    [
        ("classic(players=2)", ["button", "pair", "retrieve", "open"]),
        ("remi(players=2)", ["button", "pair"]),
    ],
)
@pytest.mark.parametrize("action", ["layoff 5H", "discard", "draw draw"])
def test_a_game_action_the_notation_refuses_lists_this_games_verbs(
    rules: str, foreign: list[str], action: str
) -> None:
    """In a classic or Remi game, an action text the notation cannot read ('layoff 5H', a
    discard without its card) was answered with every engine's verbs ('actions: draw | take |
    button | run T T T | set T T T | pair T T | ... | retrieve M:I with T | open | reset ...'):
    Rummy 101's button, pair… which this game refuses. Now it lists this game's verbs as they
    are written, and the refused action changes nothing."""
    from fastapi.testclient import TestClient
    from rummy101.service.app import create_app

    client = TestClient(create_app(), raise_server_exceptions=False)
    game = client.post("/v1/games", json={"rules": rules, "seed": 5}).json()
    answer = client.post(f"/v1/games/{game['id']}/actions", json={"action": action})
    assert answer.status_code == 422, answer.text
    error = answer.json()["error"]
    variant = rules.split("(")[0]
    assert f"the actions of {variant}: draw | take" in error, error
    assert not any(f"| {verb}" in error for verb in foreign), error
    after = client.get(f"/v1/games/{game['id']}").json()
    assert after["observation"] == game["observation"] and after["legal"] == game["legal"]


@pytest.mark.parametrize(
    ("opened", "rack", "taken"),
    [("melds", "R11 K5 K6 B2 Y9", "K5"), (None, "R1 R2 R3 K9", "R1")],
)
def test_a_hint_whose_taken_discard_cannot_be_used_says_so(
    opened: str | None, rack: str, taken: str
) -> None:
    """A view in stage 'play' whose taken discard no meld (or no opening) can hold was answered
    "no legal turn found for seat 0 with rack '...' (R101-3)", naming neither the tile nor the
    rule that left no turn. Now the message names the taken discard and R101-4."""
    from fastapi.testclient import TestClient
    from rummy101.service.app import create_app

    client = TestClient(create_app(), raise_server_exceptions=False)
    players = [{"seat": 0, "opened": opened}, {"seat": 1, "opened": "melds"}]
    body = {"seat": 0, "stage": "play", "players": players, "rack": rack, "taken_discard": taken}
    answer = client.post("/v1/hint", json=body)
    assert answer.status_code == 422, answer.text
    error = answer.json()["error"]
    assert f"taken discard {taken} must be used this turn" in error and "R101-4" in error, error


@pytest.mark.parametrize("rules", ["classic(players=2)", "rummy101(players=2)"])
@pytest.mark.parametrize("numbers", [{"seed": 3.0}, {"seed": 3, "match_rounds": 1.0}])
def test_a_record_whose_whole_numbers_are_written_as_floats_replays(
    rules: str, numbers: dict[str, float]
) -> None:
    """A game record whose seed (or match_rounds) is a whole float, as some JSON writers put
    numbers (3.0), passed the service's check ('a whole number') and was then refused by the
    engine: 422 'seed must be a whole number, got float 3.0', naming no field. Now the number
    as read is replayed, on /v1/replays and /v1/hint alike."""
    from fastapi.testclient import TestClient
    from rummy101.game import new_game, records
    from rummy101.service.app import create_app

    client = TestClient(create_app(), raise_server_exceptions=False)
    state = new_game(rules, 3)
    for _ in range(4 if rules.startswith("classic") else 0):  # (Rummy 101: the deal itself)
        state.apply(state.legal_actions()[0])
    record = {**records.to_dict(state), **numbers}
    replay = client.post("/v1/replays", json={"record": record})
    assert replay.status_code == 200, replay.text
    assert replay.json()["seed"] == 3
    hint = client.post("/v1/hint", json={"record": record})
    assert hint.status_code == 200, hint.text


def test_a_compressing_content_encoding_given_before_identity_is_still_refused() -> None:
    """'Content-Encoding: gzip' then 'Content-Encoding: identity' is one list (RFC 9110
    5.3): the body is gzip-coded. The last header won, the compressed body was read as JSON
    and answered 400 'not UTF-8 text'; now 415 names the gzip coding."""
    import gzip

    from fastapi.testclient import TestClient
    from rummy101.service.app import create_app

    client = TestClient(create_app(), raise_server_exceptions=False)
    headers = [
        ("content-type", "application/json"),
        ("content-encoding", "gzip"),
        ("content-encoding", "identity"),
    ]
    answer = client.post(
        "/v1/solve/opening", content=gzip.compress(b'{"rack": "R1 R2 R3"}'), headers=headers
    )
    assert answer.status_code == 415, answer.text
    assert "Content-Encoding: 'gzip'" in answer.json()["error"]


@pytest.mark.parametrize(
    ("rules", "change"),
    [
        ("remi(players=2)", {"atu": "K99"}),
        ("remi(players=2)", {"rack": ["R1", "X5"]}),
        ("classic(players=2)", {"rack": ["AS", "ZZ"]}),
    ],
)
def test_an_observation_holding_a_bad_piece_is_told_so_not_that_a_field_is_missing(
    rules: str, change: dict[str, object]
) -> None:
    """An observation for a Remi or classic hint whose 'atu' or rack held a token that is no
    tile or card ('K99') was answered "field 'observation' lacks the field 'K99': send
    State.observation(seat) ...": the engine's look-up of the piece was taken for a missing
    field. Now the message names the piece. A field that is really missing keeps its
    message."""
    from fastapi.testclient import TestClient
    from rummy101.game import new_game
    from rummy101.service.app import create_app

    client = TestClient(create_app(), raise_server_exceptions=False)
    state = new_game(rules, 7)
    while state.current_player != 0 or state.phase.value != "play":
        state.apply(state.legal_actions()[0])
    observation = {**state.observation(0), **change}
    answer = client.post("/v1/hint", json={"observation": observation})
    assert answer.status_code == 422, answer.text
    bad = next(v for v in (change.get("atu"), *list(change.get("rack") or [])[1:]) if v)
    error = answer.json()["error"]
    assert f"holds '{bad}', which is no piece" in error and "lacks the field" not in error, error
    missing = {k: v for k, v in state.observation(0).items() if k != "turn_state"}
    answer = client.post("/v1/hint", json={"observation": missing})
    assert "lacks the field 'turn_state'" in answer.json()["error"], answer.text


def test_an_observation_in_the_exchange_of_doubles_is_hinted() -> None:
    """A Remi observation taken during the exchange of doubles (RO-3) was refused, first with
    "a Remi position is sampled at the start of a turn or at a discard, not during the doubles
    exchange ...", then by pointing to the record. The exchange asks every seat, so every Remi
    deal opens with it: the observation is hinted now, and its hint is the record's."""
    from fastapi.testclient import TestClient
    from rummy101.game import new_game, records
    from rummy101.service.app import create_app

    client = TestClient(create_app(), raise_server_exceptions=False)
    state = new_game("remi(players=2)", 46)  # a deal that starts with the exchange
    observation = state.observation(state.current_player)
    assert observation["phase"] == "exchange"
    answer = client.post("/v1/hint", json={"observation": observation})
    assert answer.status_code == 200, answer.text
    by_record = client.post("/v1/hint", json={"record": records.to_dict(state)})
    assert by_record.status_code == 200, by_record.text
    assert answer.json() == by_record.json()

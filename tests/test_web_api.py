"""The games API behind the web page (issue 14), without a browser: games against the bots, the
engine refusing illegal actions with its rule (state unchanged), hints and play-hint to the end of
a game, replays with per-turn analysis and mistakes, the page's static files, and hostile input
(garbage JSON, unknown ids, too many games, huge bodies, a busy game)."""

from __future__ import annotations

import json
import random

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient
from rummy101.bots import get_bot
from rummy101.game import new_game, playable_variants
from rummy101.game import records as game_records
from rummy101.service import games as g
from rummy101.service.app import create_app
from rummy101.service.limits import MAX_BODY_BYTES


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app())


def new(client: TestClient, **body: object) -> dict:
    r = client.post("/v1/games", json=body)
    assert r.status_code == 200, r.text
    return r.json()


def test_page_and_static_files_are_served(client: TestClient) -> None:
    r = client.get("/")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert "default-src 'self'" in r.headers["content-security-policy"]
    assert 'data-testid="rules"' in r.text and 'data-testid="new-game"' in r.text
    for name, kind in (("app.js", "text/javascript"), ("style.css", "text/css"),
                       ("favicon.svg", "image/svg+xml")):
        r = client.get(f"/web/{name}")
        assert r.status_code == 200 and r.headers["content-type"].startswith(kind), name
    assert "https://" not in client.get("/web/app.js").text  # nothing from the network
    for bad in ("nope.js", "..%2Fgames.py", "%2e%2e%2f__init__.py"):
        assert client.get(f"/web/{bad}").status_code == 404


def test_the_page_is_also_at_index_html(client: TestClient) -> None:
    """/ and /web/index.html served the page, /index.html (typed by a person) answered 404."""
    page = client.get("/")
    r = client.get("/index.html")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert r.text == page.text
    assert r.headers["content-security-policy"] == page.headers["content-security-policy"]


def test_options_list_every_playable_variant_and_bot(client: TestClient) -> None:
    body = client.get("/v1/game-options").json()
    assert [v["name"] for v in body["variants"]] == list(playable_variants())
    assert {"random", "greedy"} <= set(body["bots"])
    r101 = next(v for v in body["variants"] if v["name"] == "rummy101")
    assert r101["hints"] and {o["name"] for o in r101["options"]} >= {"players", "threshold"}


def test_illegal_action_is_refused_with_its_rule_and_changes_nothing(client: TestClient) -> None:
    view = new(client, rules="rummy101(players=2)", bots=["greedy"], seed=7)
    assert view["your_turn"] and view["observation"]["phase"] == "play"
    before = client.get(f"/v1/games/{view['id']}").json()
    rack = view["observation"]["rack"]
    r = client.post(f"/v1/games/{view['id']}/actions", json={"action": "draw"})
    assert r.status_code == 422 and "R101-" in r.json()["error"], r.text
    r = client.post(f"/v1/games/{view['id']}/actions",
                    json={"action": f"meld {rack[0]} {rack[5]} {rack[-1]}"})
    assert r.status_code == 422 and "R101-" in r.json()["error"], r.text
    after = client.get(f"/v1/games/{view['id']}").json()
    assert after == before


def test_legal_action_then_bots_move_until_your_turn(client: TestClient) -> None:
    view = new(client, rules="rummy101(players=3)", bots=["random", "greedy"], seed=11)
    discard = next(a for a in view["legal"] if a.startswith("discard "))
    r = client.post(f"/v1/games/{view['id']}/actions", json={"action": discard})
    assert r.status_code == 200, r.text
    after = r.json()
    assert after["moves"][0]["seat"] == 0
    assert {m["seat"] for m in after["moves"][1:]} == {1, 2}  # both bots played
    assert after["your_turn"] and after["observation"]["current_player"] == 0
    assert after["observation"]["phase"] == "take"


def test_a_whole_game_by_play_hint_ends_over_with_standings(client: TestClient) -> None:
    view = new(client, rules="rummy101(players=2)", bots=["greedy"], seed=7)
    for _ in range(200):
        if view["over"]:
            break
        hint = client.get(f"/v1/games/{view['id']}/hint").json()
        assert hint["available"] and hint["turn"]["steps"][0]["reason"]
        r = client.post(f"/v1/games/{view['id']}/play-hint", json={})
        assert r.status_code == 200, r.text
        view = r.json()
        assert view["played_hint"]["actions"]
    assert view["over"] and "over" in view["status"]
    assert len(view["standings"]) == 2 and view["round_results"]
    record = client.get(f"/v1/games/{view['id']}/record").json()
    assert record["seats"] == ["you", "greedy"]
    state = game_records.from_dict({k: v for k, v in record.items() if k != "seats"})
    assert state.is_terminal and state.standings() == view["standings"]


@pytest.mark.parametrize("variant", [v for v in playable_variants() if v != "rummy101"])
def test_other_variants_play_by_hints(client: TestClient, variant: str) -> None:
    """Remi and classic: the hint is the variant's greedy turn (rummy101.hint.generic) and
    "play hint" plays it; the engine's legal texts apply as they are."""
    view = new(client, rules=f"{variant}(players=2)", bots=["greedy"], seed=5)
    assert view["variant"] == variant and view["your_turn"] and view["hints"]
    hint = client.get(f"/v1/games/{view['id']}/hint").json()
    assert hint["available"] and hint["planner"] == "greedy" and hint["turn"]["actions"]
    for _ in range(4):
        if view["over"] or not view["your_turn"]:
            break
        r = client.post(f"/v1/games/{view['id']}/play-hint", json={})
        assert r.status_code == 200, r.text
        view = r.json()
        assert view["played_hint"]["actions"]
    for _ in range(6):  # the first legal action each time: the engine's texts apply as they are
        if view["over"]:
            break
        r = client.post(f"/v1/games/{view['id']}/actions", json={"action": view["legal"][0]})
        assert r.status_code == 200, r.text
        view = r.json()
    assert view["actions_played"] >= 6


def _played_record() -> dict:
    """A Rummy 101 game: seat 0 follows the greedy bot, seat 1 plays at random."""
    state = new_game("rummy101(players=2)", seed=21)
    bots = [get_bot("greedy", random.Random(0)), get_bot("random", random.Random(1))]
    while not state.is_terminal:
        seat = state.current_player
        state.apply(bots[seat].act(state.observation(seat), state.legal_actions()))
    return json.loads(game_records.dumps(state))


def test_replay_marks_random_play_as_mistakes_and_not_the_hint() -> None:
    store = g.GameStore()
    summary = store.load_replay({"record": _played_record()})
    assert summary["terminal"] and summary["turns"]
    losses: dict[int, list[float]] = {0: [], 1: []}
    for t in summary["turns"]:
        turn = store.replay_turn(summary["id"], t["turn"])
        assert turn["played"] == t["actions"] and turn["hint"]
        if turn["loss"] is not None:
            losses[turn["seat"]].append(turn["loss"])
            assert turn["mistake"] == (turn["loss"] >= g.MISTAKE_POINTS)
    assert max(losses[1]) >= g.MISTAKE_POINTS  # random play: clearly worse turns are marked
    assert sum(losses[1]) / len(losses[1]) > sum(losses[0]) / len(losses[0])
    marks = store.replay(summary["id"])["turns"]
    assert all(m["analysed"] for m in marks)


def test_replay_of_a_hint_follower_has_no_mistakes(client: TestClient) -> None:
    view = new(client, rules="rummy101(players=2)", bots=["greedy"], seed=3)
    while not view["over"]:
        view = client.post(f"/v1/games/{view['id']}/play-hint", json={}).json()
    record = client.get(f"/v1/games/{view['id']}/record").json()
    summary = client.post("/v1/replays", json={"record": json.dumps(record)}).json()
    mine = [t["turn"] for t in summary["turns"] if t["seat"] == 0]
    for n in mine:
        turn = client.get(f"/v1/replays/{summary['id']}/turns/{n}").json()
        assert not turn["mistake"], turn
    assert client.get(f"/v1/replays/{summary['id']}/turns/{len(summary['turns'])}").status_code == 404


def test_a_record_that_does_not_replay_is_refused(client: TestClient) -> None:
    record = _played_record()
    record["actions"][3] = "discard R99"
    r = client.post("/v1/replays", json={"record": record})
    assert r.status_code == 422 and "action 3" in r.json()["error"]
    record = _played_record()
    record["standings"] = [1, 2]
    assert client.post("/v1/replays", json={"record": record}).status_code == 422
    r = client.post("/v1/replays", json={"record": "{not json"})
    assert r.status_code == 422


# ---- hostile input ------------------------------------------------------------------------------
def test_garbage_bodies(client: TestClient) -> None:
    for raw in (b"{", b"", b"[1,2", b'{"rules": NaN}', b'{"a":1,"a":2}'):
        r = client.post("/v1/games", content=raw, headers={"content-type": "application/json"})
        assert r.status_code == 400, (raw, r.text)
        assert "error" in r.json()
    r = client.post("/v1/games", content=b"{}", headers={"content-type": "text/plain"})
    assert r.status_code == 415
    for body in ([], "x", {"rules": 5}, {"rules": "poker"}, {"bots": ["nobody"]},
                 {"rules": "rummy101(players=2)", "bots": ["greedy", "greedy"]},
                 {"seat": 9}, {"seed": -1}, {"seed": 2**70}, {"extra": 1}):
        r = client.post("/v1/games", json=body)
        assert r.status_code == 422, (body, r.text)
    view = new(client, rules="rummy101(players=2)", seed=1)
    for body in ({}, {"action": 5}, {"action": " "}, {"action": "x" * 500}, {"action": "fly"},
                 {"action": "discard R5", "more": 1}):
        r = client.post(f"/v1/games/{view['id']}/actions", json=body)
        assert r.status_code == 422, (body, r.text)
    assert client.post(f"/v1/games/{view['id']}/play-hint", json={"x": 1}).status_code == 422


def test_unknown_ids(client: TestClient) -> None:
    for path in ("/v1/games/0123456789abcdef", "/v1/games/zz", "/v1/games/0123456789abcdef/hint",
                 "/v1/replays/0123456789abcdef", "/v1/replays/0123456789abcdef/turns/0"):
        r = client.get(path)
        assert r.status_code == 404 and "error" in r.json(), path
    r = client.post("/v1/games/0123456789abcdef/actions", json={"action": "draw"})
    assert r.status_code == 404
    assert client.get("/v1/replays/0123456789abcdef/turns/x").status_code == 422
    assert client.delete("/v1/games/0123456789abcdef").status_code == 404


def test_huge_body_is_refused(client: TestClient) -> None:
    big = b'{"action": "' + b"x" * (MAX_BODY_BYTES + 10) + b'"}'
    r = client.post("/v1/games", content=big, headers={"content-type": "application/json"})
    assert r.status_code == 413


def test_too_many_games_evicts_the_least_recently_used(client: TestClient) -> None:
    """One client (this test client's address) holds MAX_GAMES_PER_CLIENT games at most; its
    next evicts its own least recently used (tests/test_service_games_clients.py: several)."""
    first = new(client, rules="rummy101(players=2)", seed=1)["id"]
    second = new(client, rules="rummy101(players=2)", seed=2)["id"]
    client.get(f"/v1/games/{first}")  # used: the second is now the oldest
    for i in range(g.MAX_GAMES_PER_CLIENT - 1):
        new(client, rules="rummy101(players=2)", seed=100 + i)
    store = client.app.state.games  # type: ignore[attr-defined]
    assert len(store.games) == g.MAX_GAMES_PER_CLIENT
    assert client.get(f"/v1/games/{first}").status_code == 200
    r = client.get(f"/v1/games/{second}")
    assert r.status_code == 404 and "evicted" in r.json()["error"]


def test_idle_games_are_dropped_and_a_busy_game_answers_busy() -> None:
    now = [0.0]
    store = g.GameStore(max_games=4, idle_seconds=60, clock=lambda: now[0])
    view = store.create({"rules": "rummy101(players=2)", "seed": 4})
    game = store.game(view["id"])
    with game.lock, pytest.raises(g.GameBusy):
        store.act(view["id"], {"action": "discard R1"})
    now[0] = 61.0
    with pytest.raises(g.NotFound):
        store.view(view["id"])


def test_info_lists_the_games_limits(client: TestClient) -> None:
    limits = client.get("/v1/info").json()["limits"]
    assert limits["max_games"] == g.MAX_GAMES and limits["game_idle_seconds"] == g.IDLE_SECONDS
    assert limits["max_games_per_client"] == g.MAX_GAMES_PER_CLIENT
    assert limits["max_replays_per_client"] == g.MAX_REPLAYS_PER_CLIENT


def test_a_game_in_progress_does_not_give_away_the_deal(client: TestClient) -> None:
    """The view held the game's seed and GET .../record the seed and every action mid-game: the
    record loaded as a replay (the page's "Analyse this game") showed the bots' racks, and the
    seed alone deals every rack and the stock offline. Until the game is over the view has no
    seed and the record is refused; once it is over both come."""
    view = new(client, rules="rummy101(players=2)", bots=["greedy"])
    gid = view["id"]
    assert view["seed"] is None and not view["over"]
    r = client.get(f"/v1/games/{gid}/record")
    assert r.status_code == 422 and "over" in r.json()["error"], r.text
    view = client.post(f"/v1/games/{gid}/play-hint", json={}).json()
    assert view["seed"] is None and client.get(f"/v1/games/{gid}/record").status_code == 422
    while not view["over"]:
        view = client.post(f"/v1/games/{gid}/play-hint", json={}).json()
    assert isinstance(view["seed"], int)
    record = client.get(f"/v1/games/{gid}/record").json()
    assert record["seed"] == view["seed"] and record["terminal"]


def test_the_status_says_when_a_discard_is_the_only_move(client: TestClient) -> None:
    """Remi's first player starts with a discard alone (RO-5), yet the status said "lay melds,
    add to the table, then discard": a person who laid a run was refused. When discarding (or
    tabla / close) is all there is to do, the status says so, with the rule when it is RO-5."""
    view = new(client, rules="remi(players=2)", bots=["greedy"], seed=24)
    # first the exchange of doubles, where every seat is asked (RO-3): seat 0 has no double
    assert view["legal"] == ["decline"] and "no double, so pass" in view["status"]
    while view["legal"] == ["decline"]:  # and again once the bot has announced a double
        view = client.post(f"/v1/games/{view['id']}/actions", json={"action": "decline"}).json()
    assert {a.split()[0] for a in view["legal"]} <= {"discard", "tabla"}
    assert "lay melds" not in view["status"], view["status"]
    assert "discard a tile" in view["status"] and "RO-5" in view["status"], view["status"]
    assert "tabla" in view["status"]
    r101 = new(client, rules="rummy101(players=2)", bots=["greedy"], seed=24)
    assert "lay melds" in r101["status"]  # Rummy 101's starter may lay: unchanged


def test_the_status_says_a_taken_discard_must_be_laid_first(client: TestClient) -> None:
    """Rummy 101: a discard taken must reach the table in the same turn, in the opening when not
    opened (R101-4), and no discard is legal until it does; the status still said "lay melds,
    add to the table, then discard", and the discard it invited was refused."""
    view = new(client, rules="rummy101(players=2)", bots=["greedy"], seed=9)
    gid = view["id"]
    view = client.post(f"/v1/games/{gid}/actions", json={"action": "discard R2"}).json()
    assert "take" in view["legal"], view["legal"]
    view = client.post(f"/v1/games/{gid}/actions", json={"action": "take"}).json()
    assert view["observation"]["turn_state"]["must_use"] == "K9"
    assert not any(a.startswith("discard ") for a in view["legal"])
    status = view["status"]
    assert status == ("Your turn (round 1): lay K9, the discard you took, in your opening before "
                      "you discard (R101-4), or take back this turn's plays."), status
    view = client.post(f"/v1/games/{gid}/actions", json={"action": "reset"}).json()
    assert "take a tile" in view["status"], view["status"]
    # Remi: before the first lay-down (RO-10); a bare discard first (RO-5), then the take
    view = new(client, rules="remi(players=2,doubles=off)", bots=["greedy"], seed=1)
    while "take" not in view["legal"]:
        move = "draw" if "draw" in view["legal"] else next(a for a in view["legal"]
                                                          if a.startswith("discard "))
        view = client.post(f"/v1/games/{view['id']}/actions", json={"action": move}).json()
    view = client.post(f"/v1/games/{view['id']}/actions", json={"action": "take"}).json()
    assert view["status"] == ("Your turn (round 1): lay R12, the discard you took, in your first "
                              "lay-down before you discard (RO-10), or take back this turn's "
                              "plays."), view["status"]


def test_the_status_counts_a_staged_opening(client: TestClient) -> None:
    """Rummy 101: melds laid before opening are staged until they reach 101 points (or five
    pairs) and are opened; the status still said "lay melds, add to the table, then discard",
    and the discard it invited was refused. It now counts the staged points against the
    threshold, with the rule, and says what is left to do."""
    view = new(client, rules="rummy101(players=2)", bots=["greedy"], seed=7)
    gid = view["id"]
    view = client.post(f"/v1/games/{gid}/actions", json={"action": "run Y5 Y6 Y7"}).json()
    status = view["status"]
    assert "18 of the 101 points" in status and "R101-7" in status, status
    assert "then discard" not in status, status
    view = client.post(f"/v1/games/{gid}/actions", json={"action": "reset"}).json()
    assert "lay melds" in view["status"]


@pytest.mark.parametrize("rules", ["classic", "classic(players=2)"])
def test_the_move_that_ends_a_round_is_logged_in_that_round(client: TestClient, rules: str) -> None:
    """A log entry's ``round`` is the round its move was played in: it was read after the move,
    so the move that ended a round (the person's, a bot's) was logged in the next one, and the
    page could not mark where a round ended."""
    view = new(client, rules=rules, seed=11)
    seen: dict[int, dict] = {}
    for _ in range(400):
        if len(view["round_results"]) >= 3 or view["over"]:
            break
        r = client.post(f"/v1/games/{view['id']}/play-hint", json={})
        assert r.status_code == 200, r.text
        view = r.json()
        seen.update((m["n"], m) for m in view["log"])
    assert len(view["round_results"]) >= 3
    log = [seen[n] for n in sorted(seen)]
    assert [m["n"] for m in log] == list(range(1, len(log) + 1))
    # the moves of a round are its log entries, the last one the move that ended it
    rounds = [m["round"] for m in log]
    assert rounds == sorted(rounds)
    for r, result in enumerate(view["round_results"]):
        last = log[max(i for i, m in enumerate(log) if m["round"] == r)]
        # a round ends on a discard (the stock exhausted after it) or a lay-out, never on a take
        assert last["action"].split()[0] not in ("draw", "take"), (r, last, result)
        if result["end"] == "finish":
            assert last["seat"] == result["winner"], (r, last, result)


def test_the_status_offers_the_train_when_it_may_be_broken(client: TestClient) -> None:
    """Remi (RO-9.4): a laid-down seat may take a tile from the train instead of drawing; the
    status line spoke only of the stock and the discard."""
    view = new(client, rules="remi(players=2)", seed=11)
    for _ in range(30):
        if any(a.startswith("break ") for a in view["legal"]):
            break
        verb = "actions" if view["legal"] == ["decline"] else "play-hint"
        body = {"action": "decline"} if verb == "actions" else {}
        view = client.post(f"/v1/games/{view['id']}/{verb}", json=body).json()
    assert any(a.startswith("break ") for a in view["legal"]), view["legal"]
    assert view["status"] == ("Your turn (round 1): take a tile: draw from the stock, take the "
                              "discard or take a tile from the train (RO-9.4)."), view["status"]

"""QA round s48 on the HTTP service: an unknown game or replay id is named before a query.

``GET /v1/games/{id}?seat=1`` for an id that names no game answered 422 ("reads no query
parameters: 'seat' would be ignored"); the client dropped the query and only then learnt that
the game was gone (404). An unknown path is answered 404 whatever its query
(tests/test_service_qa_s46.py); an unknown id now is too, with the 404 that says why (never
made, idle, evicted, deleted). A known id with a query is still refused with the 422.
"""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient
from rummy101.service.app import create_app

RULES = "rummy101(players=2)"
NOBODY = "0123456789abcdef"  # a well-formed id that names nothing

# every JSON GET whose path names a game or a replay ({id} filled in)
GAME_GETS = ["/v1/games/{id}", "/v1/games/{id}/hint", "/v1/games/{id}/record"]
REPLAY_GETS = ["/v1/replays/{id}", "/v1/replays/{id}/turns/3"]


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app())


def _error(r: Any) -> str:
    body = r.json()
    assert set(body) == {"error"}, body
    return str(body["error"])


@pytest.mark.parametrize("template", GAME_GETS + REPLAY_GETS)
@pytest.mark.parametrize("bad_id", [NOBODY, "nope"])
def test_an_unknown_id_answers_404_whatever_the_query(
    client: TestClient, template: str, bad_id: str
) -> None:
    path = template.format(id=bad_id)
    bare = client.get(path)
    assert bare.status_code == 404, bare.text
    for query in ("seat=1", "view=2&_=1", "%ff=1"):
        r = client.get(f"{path}?{query}")
        assert r.status_code == 404, (path, query, r.text)
        assert _error(r) == _error(bare)  # the same reason as without the query
        assert client.head(f"{path}?{query}").status_code == 404


def test_a_deleted_game_says_so_before_the_query(client: TestClient) -> None:
    gid = client.post("/v1/games", json={"rules": RULES, "seed": 5}).json()["id"]
    assert client.delete(f"/v1/games/{gid}").json() == {"deleted": gid}
    for method, path in (
        ("GET", f"/v1/games/{gid}"),
        ("GET", f"/v1/games/{gid}/hint"),
        ("DELETE", f"/v1/games/{gid}"),
    ):
        r = client.request(method, f"{path}?seat=1")
        assert r.status_code == 404, (method, path, r.text)
        assert _error(r) == f"no game {gid}: it was deleted"


def test_a_known_id_with_a_query_is_still_refused(client: TestClient) -> None:
    gid = client.post("/v1/games", json={"rules": RULES, "seed": 6}).json()["id"]
    for path in (f"/v1/games/{gid}", f"/v1/games/{gid}/hint", f"/v1/games/{gid}/record"):
        r = client.get(f"{path}?seat=1")
        assert r.status_code == 422, (path, r.text)
        assert "reads no query parameters: 'seat' would be ignored" in _error(r)
    r = client.delete(f"/v1/games/{gid}?seat=1")
    assert r.status_code == 422
    assert client.get(f"/v1/games/{gid}").status_code == 200  # neither refusal deleted it

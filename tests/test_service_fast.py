"""The service's batch path (rummy101.service.fast) answers exactly what the public solver
answers (rummy101.solve_opening(...).to_json()), on both backends, for every variant, with
thresholds and must_use (CONTRACT.md, Solver results)."""

from __future__ import annotations

import random

import pytest
import rummy101
from rummy101.rules import Rules
from rummy101.service import api
from rummy101.service.answer import encode
from rummy101.service.fast import openings_json

TILES = [f"{c}{n}" for c in "RYBK" for n in range(1, 14)] * 2 + ["*", "*"]
CARDS = [f"{r}{s}" for s in "SHDC" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10",
                                             "J", "Q", "K")]


def _racks(rules: Rules, n: int, seed: int) -> list[list[object]]:
    rng = random.Random(seed)
    pool = CARDS if rules.family == "cards" else TILES
    sizes = (5, 9, 14, 15, 21, 22) if rules.family == "tiles" else (3, 5, 7, 8, 10)
    return [rules.parse_rack(rng.sample(pool, rng.choice(sizes))) for _ in range(n)]


@pytest.mark.parametrize("spec,kw", [
    ("rummy101", {}),
    ("rummy101(threshold=increasing)", {"threshold": 120, "pairs_threshold": 6}),
    ("rummy101(threshold=increasing)", {"threshold": 60}),
    ("remi", {}),
    ("classic", {}),
])
def test_batch_path_equals_the_public_solver(backend: str, spec: str, kw: dict[str, int]) -> None:
    rules = Rules.parse(spec)
    racks = _racks(rules, 40 if backend == "native" else 12, seed=len(spec) + len(kw))
    got = openings_json(rules, [[int(t) for t in r] for r in racks], kw.get("threshold"),
                        kw.get("pairs_threshold"))
    want = [rummy101.solve_opening(rules, r, **kw).to_json() for r in racks]
    assert got == want


def test_batch_path_with_must_use_equals_the_public_solver(backend: str) -> None:
    rules = Rules.parse("rummy101")
    racks = [r for r in _racks(rules, 60 if backend == "native" else 15, seed=9)
             if any(t.number == 7 for t in r if not t.is_joker)]
    for rack in racks:
        mu = next(t for t in rack if not t.is_joker and t.number == 7)
        got = openings_json(rules, [[int(t) for t in rack]], must_use=int(mu))
        assert got == [rummy101.solve_opening(rules, rack, must_use=mu).to_json()]
    assert racks


def test_pairs_openings_and_jokers_in_pairs(backend: str) -> None:
    rules = Rules.parse("rummy101")
    rack = rules.parse_rack("R5 R5 Y7 Y7 B2 B2 K9 K9 * R1 K13 B12")
    got = openings_json(rules, [[int(t) for t in rack]])[0]
    assert got == rummy101.solve_opening(rules, rack).to_json()
    assert got["kind"] == "pairs" and any(m["jokers"] for m in got["melds"])


def test_service_answers_equal_the_public_solver_through_the_api() -> None:
    rules = Rules.parse("remi")
    racks = _racks(rules, 20, seed=3)
    body = {"rules": "remi", "racks": [" ".join(map(str, r)) for r in racks]}
    assert api.solve_opening_body(body)["results"] == [
        rummy101.solve_opening(rules, r).to_json() for r in racks]


@pytest.mark.parametrize("body,word", [
    ({"rack": ""}, "empty"),
    ({"rack": "R1 R2 R3", "must_use": "K9"}, "not on the rack"),
    ({"rules": "remi", "rack": "R1 R2 R3", "pairs_threshold": 5}, "no pairs opening"),
])
def test_requests_the_public_solver_refuses_are_refused(body: dict[str, object], word: str) -> None:
    with pytest.raises(rummy101.RummyError, match=word):
        api.opening(body)


def test_batch_time_budget_answers_unsolved_items_with_an_error() -> None:
    """A batch that runs out of its time budget answers the rest with {"error"}, not a hang."""
    rules = Rules.parse("rummy101")
    jobs = [api.opening_job({"rack": " ".join(map(str, r))}) for r in _racks(rules, 5, seed=1)]
    answers = api.solve_jobs(jobs, budget=-1.0)
    assert all(isinstance(a, api.OutOfTime) for a in answers)
    assert "time budget" in str(answers[0])
    assert all(isinstance(a, dict) for a in api.solve_jobs(jobs))


def test_hint_time_budget_answers_422(monkeypatch: pytest.MonkeyPatch) -> None:
    import rummy101.hint.plan as hint_plan
    from fastapi.testclient import TestClient
    from rummy101.service.app import create_app
    from rummy101.service.examples import EXAMPLES

    monkeypatch.setattr(hint_plan, "HINT_SECONDS", -1.0)
    r = TestClient(create_app()).post("/v1/hint", json=EXAMPLES["hint"])
    assert r.status_code == 422 and "more than" in r.json()["error"]


# ---- the text-rack fast path of a batch (issue 11): the same answers as the request reader's ----
ODD_RACKS = ["R1 R1 R1", "R1 X5", "", "   ", "R05 R6 R7", "* * * * * * *", "R1,R2 R3", "R1, R2,,R3 *",
             "[\"R1\", \"R2\"]", " [\"R1\"]", "Jk R1 r2", "joker JOKER r13 R12 R11", "R1 R2 R\u0665",
             "R1\x1cR2\x1fR3", "R1\u00a0R2", "JOKERS R1", "r1 y1 b1 k1 * *", "K13 " * 29, "R1 " * 40,
             "R5 R6 R7 K9", "r5 r6 r7 k9", 5, None, ["R5", "R6", "R7"], ["R5", 6], {"rack": "R5 R6 R7"},
             {"rack": "R1 R2 R3", "threshold": 3}, {"rack": "R1 R2", "rules": "remi"}]


def _slow_path(monkeypatch: pytest.MonkeyPatch, body: object) -> object:
    """What the batch answered before the fast path: every item through opening_job."""
    with monkeypatch.context() as m:
        m.setattr(api, "_text_jobs", lambda *a: {})
        return _answer(body)


def _answer(body: object) -> object:
    try:
        return api.solve_opening_body(body)
    except rummy101.RummyError as exc:
        return (type(exc), str(exc))


def _texts(rules: Rules, n: int, seed: int) -> list[object]:
    rng = random.Random(seed)
    out: list[object] = []
    for rack in _racks(rules, n, seed):
        text = " ".join(map(str, rack))
        roll = rng.random()
        out.append(text.lower() if roll < 0.2 else text.replace(" ", ", ") if roll < 0.3 else text)
    return out


@pytest.mark.parametrize("spec,shared", [
    ("rummy101", {}),
    ("rummy101", {"must_use": "R5"}),
    ("rummy101", {"must_use": "*", "threshold": 60}),
    ("rummy101(threshold=increasing)", {"threshold": 130, "pairs_threshold": 6}),
    ("remi", {}),
    ("remi", {"must_use": "Y7"}),
    ("classic", {}),
    ("classic(go_out=narrow)", {}),
    ("rummy101", {"threshold": -1}),
    ("remi", {"pairs_threshold": 5}),
    ("rummy101", {"must_use": "X9"}),
])
def test_text_racks_answer_as_the_request_reader_does(monkeypatch: pytest.MonkeyPatch, backend: str,
                                                      spec: str, shared: dict[str, object]) -> None:
    rules = Rules.parse(spec)
    racks = _texts(rules, 40 if backend == "native" else 8, seed=len(spec)) + ODD_RACKS
    body = {"rules": spec, "racks": racks, **shared}
    want = _slow_path(monkeypatch, body)
    assert _answer(body) == want
    if isinstance(want, dict):  # the service's bytes are the old answer encoded
        assert api.solve_opening_bodies([body])[0] == encode(want)
        fast = api._text_jobs(racks, rules, shared, float("inf"))
        if shared not in ({"threshold": -1}, {"pairs_threshold": 5}, {"must_use": "X9"}):
            assert len(fast) >= (1 if "must_use" in shared else 30 if backend == "native" else 5)


def test_fast_path_on_two_threads_answers_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    from rummy101.service import fast

    if rummy101.backend_name() != "native":
        pytest.skip("threads only on the native backend")
    rules = Rules.parse("rummy101")
    body = {"rules": "rummy101", "racks": _texts(rules, 700, seed=4)}
    monkeypatch.setattr(fast, "batch_threads", lambda: 1)
    one = api.solve_opening_bodies([body])[0]
    monkeypatch.setattr(fast, "batch_threads", lambda: 2)
    monkeypatch.setattr(api, "batch_threads", lambda: 2)
    assert api.solve_opening_bodies([body])[0] == one
    assert one == encode(_slow_path(monkeypatch, body))


def test_fast_path_budget_and_time_answers_are_the_old_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    dense = "R1 B2 K2 R3 K3 Y2 Y3 K1 R1 R2 K3 Y1 B1 Y2 B3 B2 Y3 K2 Y1 R3 R2 * * * * * *"
    body = {"rules": "rummy101", "racks": ["R1 R2 R3 K9", dense, "r5 r6 r7 k9"]}
    with rummy101.work_budget(50):
        got = _answer(body)
        assert got == _slow_path(monkeypatch, body)
    results = got["results"]  # type: ignore[index]
    assert "too dense" in results[1]["error"] and results[1]["error"].startswith("item 1: rack R1 B2")
    assert results[0]["kind"] is None and results[2]["rack"] == "R5 R6 R7 K9"
    monkeypatch.setattr(api, "BATCH_SECONDS", -1.0)
    late = _answer(body)
    assert late == _slow_path(monkeypatch, body)
    assert all("time budget" in r["error"] for r in late["results"])  # type: ignore[index]


def test_http_batch_answers_the_old_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    from fastapi.testclient import TestClient
    from rummy101.service.app import create_app

    rules = Rules.parse("rummy101")
    body = {"rules": "rummy101", "racks": _texts(rules, 30, seed=8) + ODD_RACKS, "must_use": "K9"}
    with TestClient(create_app()) as client:
        r = client.post("/v1/solve/opening", json=body)
    assert r.status_code == 200
    assert r.content == encode(_slow_path(monkeypatch, body))

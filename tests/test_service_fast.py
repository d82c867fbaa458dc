"""The service's batch path (rummy101.service.fast) answers exactly what the public solver
answers (rummy101.solve_opening(...).to_json()), on both backends, for every variant, with
thresholds and must_use (CONTRACT.md, Solver results)."""

from __future__ import annotations

import random

import pytest
import rummy101
from rummy101.rules import Rules
from rummy101.service import api
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

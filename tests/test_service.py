"""The HTTP service through FastAPI's TestClient: every endpoint answers the documented shapes
(CONTRACT.md, HTTP service), batches go through the batch solver and keep their order."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
import rummy101
from fastapi.testclient import TestClient
from rummy101.service import api
from rummy101.service.app import create_app
from rummy101.service.examples import EXAMPLES

RACK = "R10 * R12 K13 K12 K11 Y9 Y8 Y7 B13 B12 B11 R2"
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app())


def test_health(client: TestClient) -> None:
    r = client.get("/health")
    assert r.status_code == 200 and r.json() == {"status": "ok"}


def test_info_states_backend_and_limits(client: TestClient) -> None:
    info = client.get("/v1/info").json()
    assert info["backend"] == rummy101.backend_name()
    assert info["limits"]["max_rack"] == 28 and info["limits"]["max_batch"] == 10000


def test_opening_answers_the_contract_object(client: TestClient) -> None:
    r = client.post("/v1/solve/opening", json={"rules": "rummy101", "rack": RACK})
    assert r.status_code == 200
    answer = r.json()
    assert answer == rummy101.solve_opening("rummy101", RACK).to_json()
    assert list(answer) == ["rules", "rack", "kind", "value", "melds", "rest"]
    assert answer["kind"] == "melds" and answer["value"] == 129 and answer["rest"] == ["R2"]


def test_opening_accepts_a_token_list_and_lower_case(client: TestClient) -> None:
    a = client.post("/v1/solve/opening", json={"rack": RACK.lower().split()}).json()
    assert a["rack"] == RACK and a["value"] == 129


def test_opening_optional_fields(client: TestClient) -> None:
    rules = "rummy101(threshold=increasing)"
    a = client.post("/v1/solve/opening",
                    json={"rules": rules, "rack": RACK, "threshold": 130}).json()
    assert a["kind"] is None and a["value"] == 129
    b = client.post("/v1/solve/opening", json={"rack": RACK, "must_use": "R12"}).json()
    assert "R12" in [t for m in b["melds"] for t in m["tiles"]]
    c = client.post("/v1/solve/opening", json={"rack": RACK, "must_use": "K1"})
    assert c.status_code == 422 and "K1" in c.json()["error"] and "(R101-4)" in c.json()["error"]


@pytest.mark.parametrize("rules,rack,piece,rule", [
    ("remi", "R1 R2 R3 K5 K6", "K7", "RO-10"),
    ("classic", "AS 2S 3S 5H", "KD", "CR-3"),
])
def test_must_use_off_the_rack_names_the_variants_rule(client: TestClient, rules: str, rack: str,
                                                       piece: str, rule: str) -> None:
    """A must_use piece that is not on the rack is refused with the variant's own rule on taking
    the discard (RO-10, CR-3), over HTTP and from Python alike."""
    r = client.post("/v1/solve/opening", json={"rules": rules, "rack": rack, "must_use": piece})
    assert r.status_code == 422
    assert piece in r.json()["error"] and f"({rule})" in r.json()["error"]
    with pytest.raises(rummy101.errors.RackError, match=rf"{piece} is not on the rack.*\({rule}\)"):
        rummy101.solve_opening(rules, rack, must_use=piece)


def test_batch_keeps_order_and_reports_bad_items(client: TestClient) -> None:
    racks = [RACK, "R1 R2 X3", "R1 R2 R3 R4", ["R13", "R12"], 5, {"rack": RACK, "rules": "remi"}]
    r = client.post("/v1/solve/opening", json={"rules": "rummy101", "racks": racks})
    assert r.status_code == 200
    results = r.json()["results"]
    assert len(results) == len(racks)
    assert results[0]["value"] == 129
    assert "item 1" in results[1]["error"] and "X3" in results[1]["error"]
    assert results[2]["kind"] is None and results[2]["rack"] == "R1 R2 R3 R4"
    assert results[3]["rack"] == "R13 R12"
    assert "item 4" in results[4]["error"]
    assert results[5]["rules"] == "remi"


def test_batch_answers_equal_single_answers(client: TestClient) -> None:
    import random

    rng = random.Random(7)
    tiles = [f"{c}{n}" for c in "RYBK" for n in range(1, 14)] * 2 + ["*", "*"]
    racks = [" ".join(rng.sample(tiles, 21)) for _ in range(40)]
    shared = {"rules": "rummy101", "threshold": None}
    batch = client.post("/v1/solve/opening", json={**shared, "racks": racks}).json()["results"]
    as_list = client.post("/v1/solve/opening", json=[{"rack": r} for r in racks]).json()["results"]
    singles = [client.post("/v1/solve/opening", json={"rack": r}).json() for r in racks]
    assert batch == singles == as_list


def test_batch_shared_fields_apply_to_every_item(client: TestClient) -> None:
    body = {"rules": "rummy101(threshold=increasing)", "threshold": 130, "racks": [RACK, RACK]}
    results = client.post("/v1/solve/opening", json=body).json()["results"]
    assert [r["kind"] for r in results] == [None, None]


def test_penalty(client: TestClient) -> None:
    r = client.post("/v1/solve/penalty", json=EXAMPLES["penalty"])
    assert r.status_code == 200
    assert r.json() == rummy101.solve_penalty("rummy101", EXAMPLES["penalty"]["rack"]).to_json()


def test_tabla(client: TestClient) -> None:
    r = client.post("/v1/solve/tabla", json=EXAMPLES["tabla"])
    assert r.status_code == 200
    answer = r.json()
    assert answer["best"]["pattern"] == "simple" and answer["best"]["discard"] == "K5"
    assert answer == rummy101.solve_tabla("remi", EXAMPLES["tabla"]["rack"]).to_json()


@pytest.mark.parametrize("rules,meld,valid,kind", [
    ("rummy101", "R10 * R12", True, "run"),
    ("rummy101", "R7 R7", True, "pair"),
    ("remi", "R7 R7", False, None),
    ("remi", "R12 R13 R1", True, "run"),
    ("rummy101", "R12 R13 R1", False, None),
    ("classic", "QS KS AS", False, None),
    ("classic", "7H 7D 7C", True, "set"),
])
def test_validate_meld(client: TestClient, rules: str, meld: str, valid: bool,
                       kind: str | None) -> None:
    r = client.post("/v1/validate/meld", json={"rules": rules, "meld": meld})
    assert r.status_code == 200
    info = r.json()
    assert info["valid"] is valid and info["kind"] == kind
    assert (info["reason"] is None) is valid


def test_validate_meld_jokers_and_additions(client: TestClient) -> None:
    info = client.post("/v1/validate/meld", json=EXAMPLES["meld"]).json()
    assert info["open_value"] == 33 and info["jokers"] == {"1": "R11"}
    assert [0, "R9"] in info["additions"] and [3, "R13"] in info["additions"]
    assert info["releases"] == [[1, [["R11"]]]]


# a set of 13s with two jokers (* * K13, 39) whose tiles alone read as the run K11-K13 (36), a
# Remi Joly as a high 1, pairs with jokers, a set with a joker and plain runs
ROUND_TRIP_RACKS = [("rummy101", "R10 R11 Y10 Y11 B12 K13 K12 * * * * * *"),
                    ("rummy101", "R5 R5 Y7 Y7 B2 B2 K9 K9 * R1 K13"),
                    ("remi", "R12 R13 * Y5 K5 B5 K2"),
                    ("remi", "R10 Y10 * K13 K12 K11 R2"),
                    ("classic", "AS 2S 3S KH KD KC 7D")]


@pytest.mark.parametrize(("rules", "rack"), ROUND_TRIP_RACKS)
def test_solver_melds_read_back_as_laid(client: TestClient, rules: str, rack: str) -> None:
    """CONTRACT.md: formatting then parsing a meld gives it back. A solver's meld object, sent
    back as {"meld": tiles, "kind": kind}, is the same meld: kind, value and jokers (the bare
    tiles of * * K13 read as a run; its kind says it is the set of 13s)."""
    answer = client.post("/v1/solve/opening", json={"rules": rules, "rack": rack}).json()
    assert answer["melds"]
    for meld in answer["melds"]:
        r = client.post("/v1/validate/meld",
                        json={"rules": rules, "meld": meld["tiles"], "kind": meld["kind"]})
        assert r.status_code == 200, r.text
        info = r.json()
        assert info["valid"] and info["kind"] == meld["kind"], (meld, info)
        assert info["tiles"] == meld["tiles"] and info["jokers"] == meld["jokers"]
        if meld["kind"] != "pair":
            assert info["open_value"] == meld["value"], (meld, info)


def test_validate_meld_kind_field(client: TestClient) -> None:
    def check(**body: object) -> dict[str, object]:
        r = client.post("/v1/validate/meld", json={"rules": "rummy101", **body})
        assert r.status_code == 200, r.text
        return r.json()  # type: ignore[no-any-return]

    assert check(meld="* * K13")["kind"] == "run" and check(meld="* * K13", kind=None)["kind"] == "run"
    info = check(meld="* * K13", kind="set")
    assert info["kind"] == "set" and info["open_value"] == 39 and info["jokers"] == {"0": "R13", "1": "Y13"}
    assert check(meld="* * K13", kind="run")["open_value"] == 36
    wrong = check(meld="R3 R4 R5", kind="set")
    assert wrong["valid"] is False and wrong["reason"] == "R3 R4 R5 is a run, not a set (R101-5)"
    r = client.post("/v1/validate/meld", json={"meld": "R3 R4 R5", "kind": "sets"})
    assert r.status_code == 422 and "field 'kind'" in r.json()["error"]


def test_every_documented_example_answers_200(client: TestClient) -> None:
    paths = {"opening": "/v1/solve/opening", "opening_batch": "/v1/solve/opening",
             "penalty": "/v1/solve/penalty", "tabla": "/v1/solve/tabla",
             "meld": "/v1/validate/meld", "hint": "/v1/hint"}
    for name, path in paths.items():
        r = client.post(path, json=EXAMPLES[name])
        assert r.status_code == 200, (name, r.text)
        assert "error" not in r.json()


def test_operations_are_the_same_as_the_python_api() -> None:
    assert api.opening({"rack": RACK}) == rummy101.solve_opening("rummy101", RACK).to_json()


def _serve_until(sig: int, *args: str) -> tuple[int, str]:
    """Start `rummy101 serve` on a free loopback port, wait for /health to answer 200, send
    ``sig`` to the process; its exit status and standard error."""
    import os
    import socket
    import subprocess
    import sys
    import time

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = dict(os.environ)
    root = os.path.dirname(os.path.dirname(os.path.abspath(rummy101.__file__)))
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    proc = subprocess.Popen([sys.executable, "-m", "rummy101", "serve", "--port", str(port), *args],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        answer = b""
        while time.monotonic() < deadline and b'"ok"' not in answer:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=2) as c:
                    c.sendall(b"GET /health HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
                    answer = c.recv(4096)
            except OSError:
                time.sleep(0.2)
        assert b"200 OK" in answer and b'{"status":"ok"}' in answer
    finally:
        proc.send_signal(sig)
        _out, err = proc.communicate(timeout=30)
    return proc.returncode, err.decode()


def test_rummy101_serve_starts_a_real_server_on_loopback() -> None:
    """`rummy101 serve` (uvicorn) answers /health on 127.0.0.1 and stops on SIGTERM (its
    default action, as uvicorn raises it again once the server is down: status -15)."""
    import signal

    status, _err = _serve_until(signal.SIGTERM)
    assert status == -signal.SIGTERM


@pytest.mark.parametrize("sig", ["SIGINT", "SIGTERM"])
def test_serve_with_workers_stops_as_one_worker_does(sig: str) -> None:
    """With --workers 2 uvicorn's supervisor handled Ctrl-C itself and the command ended with
    status 0 and no word (README: 130 on Ctrl-C, "interrupted"); now it ends as one worker does:
    Ctrl-C says "interrupted" and exits 130, SIGTERM takes its default action."""
    import signal

    status, err = _serve_until(getattr(signal, sig), "--workers", "2")
    if sig == "SIGINT":
        assert status == 130 and err.rstrip().endswith("rummy101 serve: interrupted"), (status, err)
    else:
        assert status == -signal.SIGTERM, (status, err)


@pytest.mark.parametrize(("rules", "rack", "keep", "want"), [
    ("classic", "AS 2S 3S", None, (False, 0)),                  # CR-4: melded whole, out
    ("classic", "AS 2S 3S", True, (True, 6)),
    ("classic(go_out=narrow)", "AS 2S 3S 9H", None, (True, 9)),  # CR-4 narrow: a discard
    ("classic(go_out=narrow)", "AS 2S 3S", None, (False, 0)),   # ... but for its 3-card case
    ("rummy101", "R5 R6 R7 *", None, (True, 5)),                # R101-12: a tile kept
    ("rummy101", "R5 R6 R7 *", False, (False, 0)),
    ("remi", "R1 R2 R3 K9", None, (True, 5)),                   # RO-13
])
def test_penalty_keeps_a_piece_as_the_variant_finishes(client: TestClient, rules: str, rack: str,
                                                       keep: bool | None,
                                                       want: tuple[bool, int]) -> None:
    """Without "keep" (or with null) the penalty follows the variant's way of finishing, as the
    opening does (CONTRACT.md: in classic a hand may go out without a discard): a classic hand
    that melds whole leaves no penalty. It kept a card in classic too (AS 2S 3S: 6, no meld).
    The Python call and the command line agree with the service."""
    body: dict[str, object] = {"rules": rules, "rack": rack}
    if keep is not None:
        body["keep"] = keep
    for b in (body, {**body, "keep": keep}):
        got = client.post("/v1/solve/penalty", json=b).json()
        assert (got["keep"], got["penalty"]) == want, (b, got)
    ans = rummy101.solve_penalty(rules, rack, keep=keep)
    assert (ans.keep, ans.penalty) == want
    flags = [] if keep is None else ["--keep" if keep else "--no-keep"]
    out = subprocess.run([sys.executable, "-m", "rummy101", "solve", "penalty", "--rules", rules,
                          "--rack", rack, *flags], capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONPATH": str(ROOT / "python")})
    cli = json.loads(out.stdout)
    assert (cli["keep"], cli["penalty"]) == want

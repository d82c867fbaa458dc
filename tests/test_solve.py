"""Public solvers (python/rummy101/solve.py): the CONTRACT.md opening object, the choice between
melds and pairs (R101-7, R101-8), Remi's first lay-down (RO-7, RO-8), classic hands (CR-3, CR-4),
the least penalty (R101-13, RO-12, CR-2), and input validation. Every test runs on both backends."""

from __future__ import annotations

import pytest
from reference import reference_best
from rummy101 import (
    NotationError,
    RackError,
    Rules,
    RulesError,
    Tile,
    check_meld,
    solve_opening,
    solve_openings,
    solve_penalty,
)
from rummy101.melds import rack_penalty
from rummy101.tiles import counts_of


def test_contract_json_shape_r101_7(backend: str) -> None:
    """CONTRACT.md: rules, rack, kind, value, melds (kind/tiles/value/jokers), rest."""
    o = solve_opening("rummy101", "R10 * R12 B11 B12 B13 Y10 Y11 Y12 K2 K3")
    j = o.to_json()
    assert list(j) == ["rules", "rack", "kind", "value", "melds", "rest"]
    assert j["rules"] == "rummy101" and j["kind"] == "melds"
    assert j["rack"] == "R10 * R12 B11 B12 B13 Y10 Y11 Y12 K2 K3"
    assert j["value"] == 33 + 36 + 33 == sum(m["value"] for m in j["melds"])
    joker_meld = next(m for m in j["melds"] if "*" in m["tiles"])
    assert joker_meld == {"kind": "run", "tiles": ["R10", "*", "R12"], "value": 33, "jokers": {"1": "R11"}}
    assert j["rest"] == ["K2", "K3"]


def test_rest_never_empty_r101_12(backend: str) -> None:
    """R101-12 / RO-13: a tile always stays on the rack, so the cheapest meld part is dropped."""
    o = solve_opening("rummy101", "K11 K12 K13 Y11 Y12 Y13 B11 B12 B13 R11 R12 R13")
    assert o.rest and o.kind == "melds"
    assert o.value == 36 * 4 - 11
    assert [str(t) for t in o.rest] == ["R11"]  # the first tile of least value is kept
    r = solve_opening("remi", "R7 R8 R9 R10 R11 R12 R13")
    assert r.rest and r.value == 5 * 2 + 10 * 4


def test_melds_preferred_to_pairs_r101_8(backend: str) -> None:
    """Both legal: the melds opening wins; pairs only when melds fall short."""
    rack = "R10 R11 R12 R13 Y10 Y11 Y12 Y13 B10 B10 B11 B11 B12 B12 K1"
    o = solve_opening("rummy101", rack)
    assert o.kind == "melds" and o.value >= 101
    p = solve_opening("rummy101", "R5 R5 Y7 Y7 B2 B2 K9 K9 * R1 K13")
    assert p.kind == "pairs" and p.value == 5
    assert all(m.kind == "pair" for m in p.melds)
    # issue 16: the joker goes with K13, the highest loose tile (R1 stays: 1 point, not 13)
    assert {"kind": "pair", "tiles": ["K13", "*"], "value": 26, "jokers": {"1": "K13"}} in p.to_json()["melds"]
    assert [str(t) for t in p.rest] == ["R1"]


def test_no_opening_still_shows_best_selection(backend: str) -> None:
    """kind null: melds and value show the best runs/sets selection (CONTRACT.md)."""
    o = solve_opening("rummy101", "R1 R2 R3 K9 K10 K11 Y5")
    j = o.to_json()
    assert j["kind"] is None and j["value"] == 6 + 30
    assert [m["tiles"] for m in j["melds"]] == [["R1", "R2", "R3"], ["K9", "K10", "K11"]]
    assert j["rest"] == ["Y5"]


def test_no_opening_shows_the_best_selection_that_meets_the_constraints(backend: str) -> None:
    """kind null (docs/service.md "Best opening", the reading of CONTRACT.md's "best runs/sets
    selection"): the best selection that meets the variant's constraints (Remi's run, RO-8; the
    taken discard, R101-4), which says how far the rack is; only when no selection meets them,
    the best selection without them. Checked against the integer program."""
    remi = Rules.parse("remi")
    rack = "R1 Y1 B1 R2 R3 K5"  # the run R1-R2-R3 (15) or the set of 1s (30): 15 shown
    j = solve_opening(remi, rack).to_json()
    counts = counts_of(int(t) for t in remi.parse_rack(rack))
    assert j["kind"] is None and j["value"] == 15 == reference_best(remi, counts, require_run=True)
    assert reference_best(remi, counts) == 30 and j["rest"] == ["Y1", "B1", "K5"]
    no_run = solve_opening(remi, "R10 Y10 B10 R11 Y11 B11 K2").to_json()  # no run at all
    assert no_run["kind"] is None and no_run["value"] == 60
    r101 = Rules.parse("rummy101")
    # R5 Y5 B5 (15), or with the taken R3 only R3-R4-R5 (12)
    forced = solve_opening(r101, "R3 R4 R5 Y5 B5 K1 K9", must_use="R3").to_json()
    counts = counts_of(int(t) for t in r101.parse_rack("R3 R4 R5 Y5 B5 K1 K9"))
    r3 = int(Tile.parse("R3"))
    assert forced["kind"] is None and forced["value"] == 12 == reference_best(r101, counts, must_use=r3)
    assert reference_best(r101, counts) == 15  # R5 Y5 B5, without the taken R3
    unusable = solve_opening(r101, "R3 R4 R5 Y5 B5 K1 K9", must_use="K9").to_json()
    assert unusable["kind"] is None and unusable["value"] == 15  # K9 fits no meld: the best without it


def test_thresholds_increasing_mode_r101_14(backend: str) -> None:
    rack = "R10 R11 R12 B11 B12 B13 Y10 Y11 Y12 K2"
    assert solve_opening("rummy101", rack).kind == "melds"
    assert solve_opening("rummy101", rack, threshold=103).kind is None
    pairs = "R5 R5 Y7 Y7 B2 B2 K9 K9 * R1 K13"
    assert solve_opening("rummy101", pairs, pairs_threshold=6).kind is None
    assert solve_opening("rummy101", pairs, pairs_threshold=5).kind == "pairs"


def test_must_use_taken_discard_r101_4(backend: str) -> None:
    """The taken discard must be in the opening; its value counts."""
    rack = "R10 R11 R12 B11 B12 B13 Y10 Y11 Y12 Y13 K2"
    free = solve_opening("rummy101", rack)
    assert free.kind == "melds"
    forced = solve_opening("rummy101", rack, must_use="K2")
    assert forced.kind is None  # K2 fits no meld
    with_joker = solve_opening("rummy101", "R1 R2 R3 K9 *", must_use="*", threshold=0)
    assert any(t.is_joker for m in with_joker.melds for t in m.tiles)


def test_remi_first_laydown_needs_a_run_ro_8(backend: str) -> None:
    """RO-8: >= 45 points and a run; sets alone never lay down."""
    sets_only = solve_opening("remi", "R10 Y10 B10 K10 R11 Y11 B11 K2")
    assert sets_only.kind is None
    ok = solve_opening("remi", "R10 Y10 B10 K10 R11 Y11 B11 R3 R4 R5 K2")
    assert ok.kind == "melds" and ok.value == 40 + 30 + 15
    assert any(m.kind == "run" for m in ok.melds)


def test_remi_high_ace_and_joly_values_ro_6_ro_8(backend: str) -> None:
    """RO-8 lay-down values: 1 low 5, 1 high 10, 1 in a set 10; a Joly is worth what it stands for."""
    o = solve_opening("remi", "R12 R13 R1 Y1 B1 K1 K7")
    assert o.value == 30 + 30 and o.kind == "melds"
    j = solve_opening("remi", "R12 R13 * Y2 Y3 Y4 K9 K8 K7 K5")
    assert j.value == 30 + 15 + 15 and j.to_json()["melds"][0]["jokers"] == {"2": "R1"}  # high ace


def test_remi_joly_ratio_ro_7(backend: str) -> None:
    o = solve_opening("remi", "R5 Y5 * * K9", threshold=0)
    for m in o.melds:
        assert sum(t.is_joker for t in m.tiles) * 2 <= sum(not t.is_joker for t in m.tiles)


def test_classic_best_melds_cr_3(backend: str) -> None:
    """Classic: the best melds of a hand, going out allowed (CR-4: no tile kept)."""
    o = solve_opening("classic", "AS 2S 3S 7H 7D 7C")
    assert o.kind == "melds" and o.value == 6 + 21 and o.rest == ()
    q = solve_opening("classic", "QS KS AS")
    assert q.kind is None and q.value == 0  # CR-2: Q-K-A is no run


def test_openings_batch_equals_single(backend: str) -> None:
    racks = ["R10 R11 R12 B11 B12 B13 Y10 Y11 Y12 K2", "R1 R2 R3 K9", "R5 R5 Y7 Y7 B2 B2 K9 K9 * R1 K13"]
    for spec in ("rummy101", "remi"):
        assert [o.to_json() for o in solve_openings(spec, racks)] == \
               [solve_opening(spec, r).to_json() for r in racks]
    assert solve_openings("rummy101", []) == []


def test_penalty_r101_13_and_ro_12(backend: str) -> None:
    """Least penalty: a joker left costs 101 (R101-13), so it is melded; Remi end values."""
    p = solve_penalty("rummy101", "R5 R6 R7 *")
    assert p.penalty == 5 and [str(t) for t in p.rest] == ["R5"]
    assert solve_penalty("rummy101", "R5 R6 R7 *", keep=False).penalty == 0
    q = solve_penalty("remi", "R1 R2 R3 K1 *")
    assert q.penalty == 10  # R1 K1 * laid as a set (25 + 25 + 50), R2 R3 kept (RO-12)
    for spec, rack in (("rummy101", "R1 R2 R3 K9 K9 * Y4"), ("remi", "R12 R13 R1 B7 K1"),
                       ("classic", "AS 2S 3S KD QD")):
        res = solve_penalty(spec, rack)
        assert res.penalty == rack_penalty(spec, [str(t) for t in res.rest])
        rules = Rules.parse(spec)
        best = reference_best(rules, counts_of(rules.parse_rack(rack)), valuation="penalty", keep=res.keep)
        assert res.penalty == rack_penalty(spec, rack) - best
        assert res.to_json()["penalty"] == res.penalty


def test_melds_are_valid_meld_objects(backend: str) -> None:
    o = solve_opening("rummy101", "R10 R11 R11 R12 R12 R13 R13 * * K2")
    assert o.value == 108
    for m in o.melds:
        assert check_meld("rummy101", [str(t) for t in m.tiles]).valid


# ---- validation ------------------------------------------------------------------------------
@pytest.mark.parametrize("kwargs, err, text", [
    ({"threshold": -1}, RulesError, "threshold"),
    ({"threshold": 1.5}, RulesError, "threshold"),
    ({"threshold": True}, RulesError, "threshold"),
    ({"pairs_threshold": "5"}, RulesError, "pairs_threshold"),
    ({"must_use": "K7"}, RackError, "not on the rack"),
    ({"must_use": "X9"}, NotationError, "X9"),
    ({"must_use": "R1 R2"}, RackError, "one tile"),
])
def test_bad_arguments(backend: str, kwargs: dict, err: type, text: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(err, match=text):
        solve_opening("rummy101", "R1 R2 R3 K9", **kwargs)


def test_bad_racks() -> None:
    with pytest.raises(NotationError, match="Q5"):
        solve_opening("rummy101", "R1 Q5")
    with pytest.raises(RackError, match="3 copies of R1"):
        solve_opening("rummy101", "R1 R1 R1")
    with pytest.raises(RackError, match="jokers"):
        solve_opening("remi", "R1 * * *")
    with pytest.raises(RackError, match="empty"):
        solve_opening("rummy101", "")
    with pytest.raises(RulesError, match="no pairs opening"):
        solve_opening("remi", "R1 R2 R3", pairs_threshold=5)
    with pytest.raises(RulesError, match="keep"):
        solve_penalty("rummy101", "R1", keep="yes")  # type: ignore[arg-type]
    with pytest.raises(RulesError):
        solve_opening("nope", "R1")

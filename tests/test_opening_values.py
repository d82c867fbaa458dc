"""``rummy101.opening_values`` (issue 11, forty-first round): each rack's best opening runs/sets
value as a numpy array, without the arrangement. It must be ``solve_openings``' value wherever
that answer is runs/sets, read the racks (text or counts) with the same errors, and name a rack
that spends its work budget."""

from __future__ import annotations

import random

import numpy as np
import pytest
import test_solve_api as api
from rummy101 import Rules, opening_values, solve_opening, solve_openings
from rummy101.errors import NotationError, RackError, WorkBudgetExceeded
from rummy101.solve import work_budget
from rummy101.tiles import counts_of

SPECS = ["rummy101", "rummy101(threshold=increasing)", "remi", "classic", "classic(go_out=narrow)"]


def _racks(rules: Rules, n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return [api._random_text(rng, rules) for _ in range(n)]


@pytest.mark.parametrize("spec", SPECS)
def test_values_are_the_openings_values(backend: str, spec: str) -> None:
    rules = Rules.parse(spec)
    racks = _racks(rules, 120 if backend == "native" else 25, seed=11)
    values = opening_values(rules, racks)
    assert (
        isinstance(values, np.ndarray)
        and values.dtype == np.int64
        and values.shape == (len(racks),)
    )
    answers = solve_openings(rules, racks)
    compared = 0
    for v, o in zip(values.tolist(), answers, strict=True):
        if o.kind == "pairs" or v == -1:
            continue
        assert v == o.value, (o.to_json(), v)
        compared += 1
    assert compared >= len(racks) // 2
    # the same racks as a count array: the same values
    counts = np.array([counts_of(rules.parse_rack(r)) for r in racks])
    assert opening_values(rules, counts).tolist() == values.tolist()


def test_a_constraint_no_selection_meets_is_minus_one() -> None:
    # Remi's first lay-down must hold a run (RO-8): sets only give none
    assert opening_values("remi", ["R5 Y5 B5 K5 R9 Y9 B9 K2"]).tolist() == [-1]
    assert solve_opening("remi", "R5 Y5 B5 K5 R9 Y9 B9 K2").kind is None
    # must_use (R101-4): K1 fits no meld with this rack
    assert opening_values("rummy101", ["R5 R6 R7 K1 Y2"], must_use="K1").tolist() == [-1]
    assert opening_values("rummy101", ["R5 R6 R7 K1 Y2"]).tolist() == [18]


def test_must_use_is_laid_in_every_rack() -> None:
    racks = ["R5 R6 R7 R8 K9", "R4 R5 R6 Y6 B6 K6 K1"]
    got = opening_values("rummy101", racks, must_use="R6").tolist()
    assert got == [solve_opening("rummy101", r, must_use="R6").value for r in racks]


@pytest.mark.parametrize("must_use", ["R5", "X9", "R5 R6", "K13"])
def test_errors_are_solve_openings_errors(must_use: str) -> None:
    racks = ["R5 R6 R7 K1", "r5 R8 R9 R10 * K2", "Y5 Y6 Y7 Y8", "R5 K3", "R5 R5 R5"]
    for batch in (racks, racks[:3]):
        want = api._outcome(lambda b=batch, m=must_use: solve_openings("rummy101", b, must_use=m))
        got = api._outcome(lambda b=batch, m=must_use: opening_values("rummy101", b, must_use=m))
        if isinstance(want, tuple):
            assert got == want
        else:
            assert isinstance(got, np.ndarray)


def test_bad_count_arrays_are_named() -> None:
    good = counts_of(Rules.parse("rummy101").parse_rack("R1 R2 R3 K9"))
    three = list(good)
    three[0] = 3
    with pytest.raises(
        RackError, match=r"racks\[1\]: 3 copies of R1; a rummy101 rack holds at most 2"
    ):
        opening_values("rummy101", np.array([good, three]))
    jokers = list(good)
    jokers[52] = 3
    with pytest.raises(RackError, match=r"racks\[0\]: 3 jokers; a remi rack holds at most 2"):
        opening_values("remi", np.array([jokers]))
    with pytest.raises(RackError, match=r"racks\[0\]: 1 joker; a classic rack holds none"):
        opening_values("classic", np.array([[0] * 52 + [1]]))
    with pytest.raises(RackError, match=r"racks\[1\]: the rack is empty"):
        opening_values("rummy101", np.array([good, [0] * 53]))
    with pytest.raises(RackError, match=r"shape \(n, 53\)"):
        opening_values("rummy101", np.zeros((2, 52), dtype=np.int64))
    with pytest.raises(RackError, match=r"integers of shape"):
        opening_values("rummy101", np.zeros((2, 53), dtype=np.float64))
    negative = list(good)
    negative[5] = -1
    with pytest.raises(RackError, match=r"racks\[0\]: -1 copies of R6"):
        opening_values("rummy101", np.array([negative]))
    with pytest.raises(
        RackError, match=r"got 1-D of shape \(53,\) \(one rack: np.array\(\[counts\]\)\)"
    ):
        opening_values("rummy101", np.array(good))
    with pytest.raises(RackError, match=r"got 3-D of shape \(2, 2, 53\)"):
        opening_values("rummy101", np.zeros((2, 2, 53), dtype=np.int64))
    # count vectors given one by one (a list, a tuple, a generator): say what to pass instead
    # of reading 53 numbers as 53 tile codes
    for batch in ([good], (np.array(good),), (c for c in [good])):
        with pytest.raises(
            RackError, match=r"racks\[0\] is a list of 53 numbers, a tile count vector: pass"
        ):
            opening_values("rummy101", batch)
    # text racks in a 1-D array or a tuple are text racks
    assert opening_values("rummy101", np.array(["R1 R2 R3 K9", "R5 R5"])).tolist() == [6, 0]
    assert opening_values("rummy101", ("R1 R2 R3 K9", "R5 R5")).tolist() == [6, 0]
    assert opening_values("rummy101", np.zeros((0, 53), dtype=np.uint8)).tolist() == []
    assert opening_values("rummy101", []).tolist() == []
    with pytest.raises(NotationError, match="racks must be a list of racks"):
        opening_values("rummy101", "R1 R2 R3")


def test_a_spent_budget_names_the_rack_and_keeps_the_others(backend: str) -> None:
    easy, dense = "R1 R2 R3 K9", "R1 R2 R3 R4 R5 R6 R7 Y7 B7 K7 Y5 Y6 B5 B6 * *"
    with (
        work_budget(40),
        pytest.raises(WorkBudgetExceeded, match=r"^rack 1: the rack is too dense") as info,
    ):
        opening_values("rummy101", [easy, dense, easy])
    assert info.value.index == 1
    assert info.value.partial == [6, None, 6]
    assert opening_values("rummy101", [easy, dense, easy]).tolist() == [
        6,
        solve_opening("rummy101", dense).value,
        6,
    ]


def test_classic_narrow_mixes_hands_that_keep_a_card_and_hands_that_do_not() -> None:
    # CR-4 go_out=narrow: only a hand of three may meld whole (keep False); the others keep a
    # card, so one batch holds both kinds of rack (two core calls, values put back in order)
    rules = "classic(go_out=narrow)"
    racks = ["QC QS QH", "AS 2S 3S 9D", "KH KS KD", "AS 2S 3S 4S"]
    want = [solve_opening(rules, r).value for r in racks]
    assert opening_values(rules, racks).tolist() == want == [30, 6, 30, 9]

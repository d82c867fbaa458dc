"""``solve_melds_value`` and ``solve_values_batch`` (issue 11, forty-first round): the value of
``solve_melds`` without the rebuild of its arrangement, for the callers that read only the value
(the engines' lay-down and Atu checks, the bots' evaluations, ``opening_values``).

What must hold, on both backends: the value is ``solve_melds(...)[0]`` (-1 when nothing can be
laid), the two backends agree, the work budget runs out at the same node on both (the value
search's nodes: never more than ``solve_melds`` spends), a spent rack in a batch gets
``BUDGET_SPENT`` and leaves the others alone, and bad input raises the same error as
``solve_melds``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import test_solve_parity as tsp
from hypothesis import HealthCheck, given, settings
from parity import outcome, same
from rummy101 import Rules, _backend
from rummy101.errors import WorkBudgetExceeded
from rummy101.solve import BUDGET_SPENT
from rummy101.tiles import counts_of, parse_tiles
from test_solve_dense import CASES, nodes_of

R101 = Rules.parse("rummy101")
REMI = Rules.parse("remi")
CI = settings(
    max_examples=1_000,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@pytest.fixture(autouse=True)
def _need_native() -> None:
    if "native" not in _backend.available_backends():
        pytest.skip("native core not built")


def _value(backend: str, case: Any, budget: int) -> int:
    rules, val, counts, keep, mu, rr = case[:6]
    mod = _backend._load(backend)
    return mod.solve_melds_value(
        _backend.core_rules(rules, val, backend), counts, keep, mu, rr, budget
    )  # type: ignore[no-any-return]


def _melds(backend: str, case: Any, budget: int) -> tuple[int, list[Any]]:
    rules, val, counts, keep, mu, rr = case[:6]
    mod = _backend._load(backend)
    return mod.solve_melds(_backend.core_rules(rules, val, backend), counts, keep, mu, rr, budget)  # type: ignore[no-any-return]


def _nodes(call: Any, backend: str, case: Any) -> int:
    """The smallest budget with which ``call`` finishes (the nodes it expands)."""
    return nodes_of(lambda budget: call(backend, case, budget))


@CI
@given(tsp.racks(max_tiles=8, max_jokers=3))
def test_value_is_solve_melds_value_on_both_backends(
    case: tuple[Rules, str, list[int], bool, int, bool],
) -> None:
    rules, val, counts, keep, mu, rr = case
    v = same("solve_melds_value", counts, keep, mu, rr, rules=rules, valuation=val)
    assert v == same("solve_melds", counts, keep, mu, rr, rules=rules, valuation=val)[0]


@pytest.mark.parametrize("case", CASES, ids=[c[-1][:40] for c in CASES])
def test_dense_value_equals_solve_melds(case: Any) -> None:
    """The dense set (the solver's worst shapes, tests/dense_racks.txt), native: the same value."""
    assert _value("native", case, 1 << 62) == _melds("native", case, 1 << 62)[0]


@settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(tsp.racks(max_tiles=12, max_jokers=3))
def test_budget_runs_out_at_the_same_node(
    case: tuple[Rules, str, list[int], bool, int, bool],
) -> None:
    """Native's node count N for the value: the pure twin fails at N - 1 and answers at N."""
    n = _nodes(_value, "native", case)
    if n > 1:
        with pytest.raises(WorkBudgetExceeded):
            _value("pure", case, n - 1)
    assert _value("pure", case, n) == _value("native", case, n)
    assert n <= _nodes(_melds, "native", case)


def test_the_rebuild_is_what_is_skipped() -> None:
    """A rack whose arrangement is rebuilt with nodes of its own: the value needs fewer nodes
    than solve_melds, on both backends alike (a value that rebuilt anyway would not)."""
    for case in CASES:
        try:
            _melds("native", case, 3_000)
        except WorkBudgetExceeded:
            continue  # (a cheap witness is enough; the pure twin runs it too)
        nv, nm = _nodes(_value, "native", case), _nodes(_melds, "native", case)
        if nv < nm:
            with pytest.raises(WorkBudgetExceeded):
                _melds("pure", case, nv)
            assert _value("pure", case, nv) == _melds("native", case, nm)[0]
            return
    pytest.fail("no dense rack's rebuild expands nodes of its own any more: pick another witness")


def test_values_batch_marks_only_the_spent_rack(backend: str) -> None:
    core = _backend.core()
    cr = _backend.core_rules(R101, "open")
    easy, dense = "R1 R2 R3 K9", "R1 R2 R3 R4 R5 R6 R7 Y7 B7 K7 Y5 Y6 B5 B6 * *"
    arr = np.array([counts_of(parse_tiles(r)) for r in (easy, dense, easy)], dtype=np.uint8)
    out = core.solve_values_batch(cr, arr, True, -1, False, 40)
    assert isinstance(out, np.ndarray) and out.dtype == np.int64 and out.shape == (3,)
    assert out.tolist() == [
        core.solve_melds_value(cr, arr[0].tolist(), True, -1, False),
        BUDGET_SPENT,
        core.solve_melds_value(cr, arr[0].tolist(), True, -1, False),
    ]
    assert core.solve_values_batch(
        cr, np.zeros((0, 53), dtype=np.uint8), True, -1, False
    ).shape == (0,)


def test_values_batch_equals_row_by_row_on_both_backends() -> None:
    rng = np.random.default_rng(7)
    rows = np.zeros((60, 53), dtype=np.uint8)
    for i in range(60):
        for code in rng.choice(52, size=int(rng.integers(4, 16)), replace=False):
            rows[i, code] = rng.integers(1, 3)
        rows[i, 52] = rng.integers(0, 3)
    for rules in (R101, REMI):
        for val in ("open", "penalty"):
            got = [
                outcome(
                    lambda b=b, r=rules, v=val: _backend._load(b).solve_values_batch(
                        _backend.core_rules(r, v, b), rows, True, -1, r.opening_needs_run
                    )
                )
                for b in ("native", "pure")
            ]
            assert got[0][0] == got[1][0] == "ok"
            assert got[0][1].tolist() == got[1][1].tolist()
            native = _backend._load("native")
            cr = _backend.core_rules(rules, val, "native")
            assert got[0][1].tolist() == [
                native.solve_melds(cr, [int(x) for x in r], True, -1, rules.opening_needs_run)[0]
                for r in rows
            ]


@pytest.mark.parametrize(
    "args",
    [
        ([0] * 52, False, -1, False),  # 52 entries
        ([3] + [0] * 52, False, -1, False),  # three copies of R1
        ([0] * 52 + [7], False, -1, False),  # seven jokers
        ([0] * 53, False, 53, False),  # must_use out of range
        ([-1] + [0] * 52, False, -1, False),  # negative count
        ([0] * 53, False, -1, False, 0),  # a budget of 0
    ],
)
def test_errors_are_solve_melds_errors(args: tuple[Any, ...]) -> None:
    """Bad input: the same error on both backends, and the one solve_melds raises."""
    same("solve_melds_value", *args, rules=R101)
    native = _backend._load("native")
    cr = _backend.core_rules(R101, "open", "native")
    assert outcome(lambda: native.solve_melds_value(cr, *args)) == outcome(
        lambda: native.solve_melds(cr, *args)[0]
    )


def test_batch_shape_errors_on_both_backends() -> None:
    same("solve_values_batch", np.zeros((3, 52), dtype=np.uint8), True, -1, False, rules=R101)
    same("solve_values_batch", np.zeros(53, dtype=np.uint8), True, -1, False, rules=R101)


def test_keywords_and_numpy_ints_take_the_checked_path() -> None:
    """The native entry answers exact positional calls itself and hands anything else (keywords,
    numpy ints, a numpy row) to the checked function: the same value either way."""
    native = _backend._load("native")
    cr = _backend.core_rules(R101, "open", "native")
    counts = counts_of(parse_tiles("R10 R11 R12 Y12 B12 K12 * K1"))
    want = native.solve_melds_value(cr, counts, True, -1, False)
    assert want == native.solve_melds(cr, counts, True, -1, False)[0] > 0
    assert native.solve_melds_value(cr, counts, keep=True, must_use=-1, require_run=False) == want
    assert (
        native.solve_melds_value(cr, np.array(counts), np.bool_(True), np.int64(-1), False) == want
    )
    assert native.solve_melds_value(cr, tuple(counts), True, -1, False, 10**6) == want

"""``solve_melds_value``'s ``floor`` (issue 11, forty-second round): the engines ask yes/no
questions of the solver ("does this rack open with the discard", R101-4; "does it lay down 45",
RO-10; "does every tile but one go down with the Atu", RO-4), and a search that only has to pass
a floor cuts every state that cannot pass it.

What must hold, on both backends: the answer is the value when it is above ``floor`` and -1
otherwise (``floor`` < 0: the plain value), the backends agree on it and on the node where the
work budget runs out, and the floor does cut (a dense rack needs fewer nodes to be refused at its
own value than to be solved).
"""

from __future__ import annotations

from typing import Any

import pytest
import test_solve_parity as tsp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from parity import outcome
from rummy101 import Rules, _backend
from rummy101.errors import WorkBudgetExceeded
from rummy101.tiles import counts_of, parse_tiles
from test_solve_dense import CASES, nodes_of

R101 = Rules.parse("rummy101")
REMI = Rules.parse("remi")
QUICK: dict[str, Any] = {
    "deadline": None,
    "derandomize": True,
    "database": None,
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large],
}


@pytest.fixture(autouse=True)
def _need_native() -> None:
    if "native" not in _backend.available_backends():
        pytest.skip("native core not built")


def _cr(backend: str, rules: Rules, val: str) -> Any:
    """CoreRules of ``backend``; ``val`` "unit": every tile worth 1, as Remi's Atu and close
    checks count covered tiles (rules_core.unit_rules)."""
    if val == "unit":
        mod = _backend._load(backend)
        return mod.CoreRules(rules.high_ace, rules.joker_ratio, [0] + [1] * 14, [0] + [1] * 13, -1)
    return _backend.core_rules(rules, val, backend)  # type: ignore[arg-type]


def _value(backend: str, case: Any, budget: int, floor: int = -1) -> int:
    rules, val, counts, keep, mu, rr = case[:6]
    mod = _backend._load(backend)
    return mod.solve_melds_value(_cr(backend, rules, val), counts, keep, mu, rr, budget, floor)  # type: ignore[no-any-return]


@st.composite
def floored(draw: Any, max_tiles: int) -> tuple[tuple[Any, ...], int]:
    """A rack of test_solve_parity's kind (some with every tile worth 1) and a floor near its
    value: at it, just below, just above, or anywhere from -3 to 2 past it."""
    rules, val, counts, keep, mu, rr = draw(tsp.racks(max_tiles=max_tiles, max_jokers=3))
    if draw(st.booleans()) and rules is not R101:
        val = "unit"
    case = (rules, val, counts, keep, mu, rr)
    v = _value("native", case, 1 << 62)
    return case, max(-1, v + draw(st.sampled_from([-1, 0, 1, -3, 2, -2])))


@settings(max_examples=400, **QUICK)  # type: ignore[arg-type]
@given(floored(max_tiles=10))
def test_the_value_above_the_floor_else_minus_one(got: tuple[tuple[Any, ...], int]) -> None:
    case, floor = got
    v = _value("native", case, 1 << 62)
    want = v if v > floor else -1
    assert _value("native", case, 1 << 62, floor) == want
    assert _value("pure", case, 1 << 62, floor) == want


@settings(max_examples=150, **QUICK)  # type: ignore[arg-type]
@given(floored(max_tiles=12))
def test_budget_runs_out_at_the_same_node(got: tuple[tuple[Any, ...], int]) -> None:
    """Native's node count N for the floored search: the pure twin fails at N - 1, answers at N."""
    case, floor = got
    n = nodes_of(lambda budget: _value("native", case, budget, floor))
    if n > 1:
        with pytest.raises(WorkBudgetExceeded):
            _value("pure", case, n - 1, floor)
    assert _value("pure", case, n, floor) == _value("native", case, n, floor)


@pytest.mark.parametrize("case", CASES[::4], ids=[c[-1][:40] for c in CASES[::4]])
def test_dense_racks_at_and_below_their_value(case: Any) -> None:
    """The dense set (every fourth rack), native: the value passes a floor one below it and is
    refused at its own value."""
    v = _value("native", case, 1 << 62)
    assert _value("native", case, 1 << 62, v - 1) == v
    assert _value("native", case, 1 << 62, v) == -1


def test_the_floor_cuts() -> None:
    """A dense rack refused at its own value needs fewer nodes than its plain search, on both
    backends alike (a floor that cut nothing would need the same)."""
    for case in CASES:
        plain_budget = nodes_of(lambda budget, case=case: _value("native", case, budget))
        if plain_budget > 3_000:
            continue  # (a cheap witness is enough; the pure twin runs it too)
        v = _value("native", case, 1 << 62)
        cut = nodes_of(lambda budget, case=case, v=v: _value("native", case, budget, v))
        if cut < plain_budget:
            with pytest.raises(WorkBudgetExceeded):
                _value("pure", case, cut)
            assert _value("pure", case, cut, v) == -1
            return
    pytest.fail("no dense rack is refused at its value in fewer nodes: the floor cuts nothing")


def test_the_engines_questions() -> None:
    """The questions the engines ask, by hand: rummy101's 101 (R101-4), Remi's 45 with a run
    (RO-8/RO-10) and every tile but one covered (unit values, RO-4)."""
    for b in ("native", "pure"):
        mod = _backend._load(b)
        budget = mod.DEFAULT_WORK_BUDGET
        cr = _cr(b, R101, "open")
        c = counts_of(parse_tiles("R8 R9 R10 Y13 B13 K13 Y10 Y11 Y12 B1"))  # 27 + 39 + 33 = 99
        assert mod.solve_melds_value(cr, c, True, -1, False) == 99
        assert mod.solve_melds_value(cr, c, True, -1, False, budget, 100) == -1  # does not open
        assert mod.solve_melds_value(cr, c, True, -1, False, budget, 98) == 99
        cr = _cr(b, REMI, "open")
        remi = counts_of(parse_tiles("R10 R11 R12 B9 Y9 K9 K1"))  # 30 + 15 = 45 with a run
        assert mod.solve_melds_value(cr, remi, True, -1, True, budget, 44) == 45
        assert mod.solve_melds_value(cr, remi, True, -1, True, budget, 45) == -1
        short = counts_of(parse_tiles("R10 R11 R12 B9 Y9 K1"))  # 30: no lay-down
        assert mod.solve_melds_value(cr, short, True, -1, True, budget, 44) == -1
        unit, n = _cr(b, REMI, "unit"), sum(remi)
        assert mod.solve_melds_value(unit, remi, True, -1, True, budget, n - 2) == n - 1
        remi[0] += 1  # R1 too: two tiles left over, so not every tile but one goes down
        assert mod.solve_melds_value(unit, remi, True, -1, True, budget, n - 1) == -1


def test_how_the_floor_is_passed() -> None:
    """The native entry answers seven exact positional arguments itself and hands a keyword or a
    numpy int to the checked function: the same answer; a float is refused by both backends."""
    np = pytest.importorskip("numpy")
    counts = counts_of(parse_tiles("R10 R11 R12 Y12 B12 K12 * K1"))
    native = _backend._load("native")
    cr = _cr("native", R101, "open")
    v = native.solve_melds_value(cr, counts, True, -1, False)
    budget = native.DEFAULT_WORK_BUDGET
    assert native.solve_melds_value(cr, counts, True, -1, False, budget, v - 1) == v
    assert native.solve_melds_value(cr, counts, True, -1, False, floor=v - 1) == v
    assert native.solve_melds_value(cr, counts, True, -1, False, budget, np.int64(v)) == -1
    for b in ("native", "pure"):
        mod, c = _backend._load(b), _cr(b, R101, "open")
        got = outcome(
            lambda m=mod, c=c: m.solve_melds_value(c, counts, True, -1, False, budget, 1.5)
        )
        assert got[0] == "error" and got[1][0] == "TypeError", (b, got)

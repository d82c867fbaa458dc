"""The solver refuses values it is not exact for (issue 11, tenth round): with a joker worth the
tile it stands for (joker_value -1), run values that decrease somewhere from 1 to the last
number gave wrong optima (75 of 6,000 random small racks against the brute force) and lost
arrangements. Every rule set's values never decrease (rummy101.rules), so no public call is
refused; the same values without jokers, or with a fixed joker value, stay exact."""

from __future__ import annotations

import random

import pytest

from rummy101 import Rules, _backend
from solve_brute import brute_best

BACKENDS = _backend.available_backends()
DECREASING = [0, 5, 10, 1, 11, 8, 5, 11, 13, 4, 3, 4, 3, 2, 0]  # run_value[2] > run_value[3]
SETS = [0, 7, 4, 3, 3, 9, 13, 10, 2, 6, 7, 12, 4, 3]


def _rack(codes: list[int]) -> list[int]:
    counts = [0] * 53
    for code in codes:
        counts[code] += 1
    return counts


@pytest.mark.parametrize("backend", BACKENDS)
def test_decreasing_run_values_with_a_joker_are_refused(backend: str) -> None:
    core = _backend._load(backend)
    cr = core.CoreRules(False, 0, DECREASING, SETS, -1)
    # Y7 * Y9: the rack that lost its arrangement (the value search found 28, the rebuild none)
    with pytest.raises(ValueError, match=r"run_value\[2\] = 10 > run_value\[3\] = 1"):
        core.solve_melds(cr, _rack([19, 21, 52]), False, -1, False)
    high = core.CoreRules(True, 2, [0] + [5] * 13 + [0], [0] + [5] * 13, -1)  # the high ace worth 0
    with pytest.raises(ValueError, match=r"from 1 to 14; run_value\[13\] = 5 > run_value\[14\] = 0"):
        core.solve_melds(high, _rack([0, 11, 12, 52]), True, -1, True)


def test_the_refusal_is_the_same_on_both_backends() -> None:
    if len(BACKENDS) < 2:
        pytest.skip("one backend only")
    messages = set()
    for backend in BACKENDS:
        core = _backend._load(backend)
        with pytest.raises(ValueError) as info:
            core.solve_melds(core.CoreRules(False, 0, DECREASING, SETS, -1), _rack([19, 21, 52]),
                             False, -1, False)
        messages.add(str(info.value))
    assert len(messages) == 1


@pytest.mark.parametrize("backend", BACKENDS)
def test_values_without_the_assumption_stay_exact(backend: str) -> None:
    """No joker, or a joker at a fixed value: any values are answered, and exactly."""
    core = _backend._load(backend)
    rng = random.Random(5)
    for trial in range(150):
        rv = [0] + [rng.randint(1, 13) for _ in range(14)]
        sv = [0] + [rng.randint(1, 13) for _ in range(13)]
        jv = -1 if trial % 2 == 0 else rng.choice([0, 5, 50, 101])
        high = trial % 3 == 0
        if not high:
            rv[14] = 0
        cr = core.CoreRules(high, rng.choice([0, 2]), rv, sv, jv)
        counts = _rack(rng.sample(range(52), rng.randint(3, 7)))
        if jv != -1:
            counts[52] = rng.randint(0, 2)
        keep, run = rng.random() < 0.5, rng.random() < 0.3
        assert core.solve_melds(cr, counts, keep, -1, run)[0] == brute_best(cr, counts, keep, -1, run)


@pytest.mark.parametrize("variant", ["rummy101", "remi", "classic"])
@pytest.mark.parametrize("valuation", ["open", "penalty"])
def test_every_rule_set_passes_the_guard(variant: str, valuation: str) -> None:
    rules = Rules.parse(variant)
    for backend in BACKENDS:
        cr = _backend.core_rules(rules, valuation, backend)  # type: ignore[arg-type]
        jokers = min(2, rules.max_rack_jokers)
        _backend._load(backend).solve_melds(cr, _rack([0, 1, 2] + [52] * jokers), True, -1, False)

"""The native ``solve_melds`` entry point (issue 11, tenth round): a call with positional
arguments of the exact types (a list or tuple of 53 ints, True/False, ints) is answered by a
direct reader, any other call by pybind11's checked function. Both must give the same answers and
raise the same errors, so every test here calls both ways on the same input."""

from __future__ import annotations

import random

import numpy as np
import pytest

from rummy101 import Rules, _backend
from rummy101.errors import WorkBudgetExceeded

pytestmark = pytest.mark.skipif("native" not in _backend.available_backends(),
                                reason="the native core is not built")

CASES = [("rummy101", "open", True, False), ("remi", "open", True, True),
         ("rummy101", "penalty", False, False)]


def _random_rack(rng: random.Random, jokers: int) -> list[int]:
    counts = [0] * 53
    for code in rng.sample(range(52), rng.randint(8, 26)):
        counts[code] = rng.choice((1, 1, 2))
    counts[52] = jokers
    return counts


@pytest.mark.parametrize("rules_name, valuation, keep, require_run", CASES)
def test_fast_and_checked_calls_answer_alike(rules_name: str, valuation: str, keep: bool,
                                             require_run: bool) -> None:
    core = _backend._load("native")
    rules = Rules.parse(rules_name)
    cr = _backend.core_rules(rules, valuation, "native")  # type: ignore[arg-type]
    rng = random.Random(11)
    for _ in range(300):
        counts = _random_rack(rng, rng.randint(0, rules.max_rack_jokers))
        must_use = rng.choice([-1, -1, 52] + [c for c in range(52) if counts[c]])
        if must_use == 52 and not counts[52]:
            must_use = -1
        fast = core.solve_melds(cr, counts, keep, must_use, require_run, 10**6)
        # numpy values and keywords take pybind11's checked path
        checked = core.solve_melds(cr, np.array(counts), np.bool_(keep), np.int64(must_use),
                                   require_run, budget=10**6)
        assert fast == checked
        assert core.solve_melds(cr, tuple(counts), keep, must_use, require_run) == fast
        assert fast[0] >= -1 and all(isinstance(t, int) for _, tiles, _ in fast[1] for t in tiles)


def test_errors_are_the_same_on_both_paths() -> None:
    core = _backend._load("native")
    cr = _backend.core_rules(Rules.parse("rummy101"), "open", "native")  # type: ignore[arg-type]
    rack = [0] * 53
    for code in (0, 1, 2, 13, 14, 15, 26, 27, 28, 52):
        rack[code] = 1

    def both(counts: list[int], *rest: object) -> list[str]:
        out = []
        for arg in (counts, np.array(counts)):
            with pytest.raises(Exception) as info:
                core.solve_melds(cr, arg, *rest)
            out.append(f"{type(info.value).__name__}: {info.value}")
        return out

    for counts, rest, kind in [
        (rack[:52], (True, -1, False), "CoreInputError"),            # 52 counts
        ([3] + rack[1:], (True, -1, False), "CoreInputError"),       # 3 copies
        ([65] + rack[1:], (True, -1, False), "CoreInputError"),      # out of range
        (rack, (True, 99, False), "CoreInputError"),                 # must_use not a code
        (rack, (True, -1, False, 0), "CoreInputError"),              # budget 0
        (rack, (True, -1, False, 2), "WorkBudgetExceeded"),          # budget spent
    ]:
        fast, checked = both(counts, *rest)
        assert fast == checked and fast.startswith(kind), (fast, checked)
    with pytest.raises(WorkBudgetExceeded):
        core.solve_melds(cr, rack, True, -1, False, 2)
    with pytest.raises(TypeError):
        core.solve_melds(cr, [1.0] + rack[1:], True, -1, False)
    with pytest.raises(TypeError):
        core.solve_melds(None, rack, True, -1, False)
    with pytest.raises(TypeError):
        core.solve_melds(cr, rack, True, -1)  # require_run missing
    assert core.solve_melds.__name__ == "solve_melds"
    assert "WorkBudgetExceeded" in (core.solve_melds.__doc__ or "")

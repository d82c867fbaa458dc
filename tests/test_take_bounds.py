"""The cheap bounds that let the R101-4 take check skip the solvers (issue 12) never cut off an
answer: on seeded racks of every size and joker count, ``_melds_bound`` is at least the best
runs/sets value the core solver finds (with and without a must-use tile, keeping a discard or
not) and ``_pairs_bound`` at least ``max_pairs``; and ``_opening_possible_with`` (with the
bounds) agrees with the plain solver test of R101-7/R101-8 on positions taken from games."""

from __future__ import annotations

import random

import pytest
from rummy101 import _backend, available_backends, using_backend
from rummy101.bots.random_bot import RandomBot
from rummy101.game import Phase, new_game
from rummy101.game.engines.rummy101 import engine as E
from rummy101.rules import Rules

J = 52


def _racks(seed: int, n: int) -> list[list[int]]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        size = rng.choice([rng.randint(3, 11), rng.randint(12, 25)])
        bag = [c for c in range(52) for _ in range(2)] + [J] * rng.choice([0, 1, 1, 2, 2, 3, 4])
        rack = [0] * 53
        for c in rng.sample(bag, size):
            rack[c] += 1
        out.append(rack)
    return out


@pytest.mark.parametrize("backend", available_backends())
def test_bounds_never_below_the_solvers(backend: str) -> None:
    n = 3000 if backend == "native" else 150
    rules = Rules.parse("rummy101")
    with using_backend(backend):
        core = _backend.core()
        cr = _backend.core_rules(rules, "open")
        assert E._face_values(cr)
        rng = random.Random(7)
        for rack in _racks(11, n):
            held = [c for c in range(53) if rack[c]]
            t = rng.choice(held)
            mb, pb = E._melds_bound(bytes(rack)), E._pairs_bound(bytes(rack))
            for must in (t, -1):
                for keep in (True, False):
                    v = core.solve_melds(cr, rack, keep, must, False)[0]
                    assert v <= mb, (rack, must, keep, v, mb)
                    p = core.max_pairs(rack, keep, must)[0]
                    assert p <= pb, (rack, must, keep, p, pb)


def _rack(*codes: int) -> bytes:
    rack = [0] * 53
    for c in codes:
        rack[c] += 1
    return bytes(rack)


def test_bound_is_tight_enough_to_matter() -> None:
    # Without jokers a rack of loose tiles has nothing to lay; a joker with one loose tile makes
    # no meld either (R101-5: three tiles at least).
    loose = (0, 4, 8, 13 + 2, 26 + 6, 39 + 10)  # R1 R5 R9 Y3 B7 K11: no two within reach
    assert E._melds_bound(_rack(*loose)) == 0
    assert E._melds_bound(_rack(*loose, J)) == 0
    # One joker makes one run of one colour: R10 R11 with the joker as R12 (33), not every
    # colour's loose tiles at once (the bound before issue 12's second round said 13 + 21).
    assert E._melds_bound(_rack(9, 10, 13 + 2, 26 + 6, J)) == 10 + 11 + 12
    # A second copy counts only where two disjoint melds hold it (R101-5: a run holds a number
    # once): R3 R3 R4 R5 lays one run (12); with B3 K3 the second R3 joins a set (21).
    assert E._melds_bound(_rack(2, 2, 3, 4)) == 12
    assert E._melds_bound(_rack(2, 2, 3, 4, 26 + 2, 39 + 2)) == 12 + 9
    # Two sets of one number need four tiles of the other colours, at most two each: R7 R7 Y7
    # B7 K7 lays one set of four (28); with a second Y7, R7 Y7 B7 and R7 Y7 K7 (42).
    assert E._melds_bound(_rack(6, 6, 13 + 6, 26 + 6, 39 + 6)) == 4 * 7
    assert E._melds_bound(_rack(6, 6, 13 + 6, 13 + 6, 26 + 6, 39 + 6)) == 6 * 7


@pytest.mark.parametrize("backend", available_backends())
def test_bound_never_below_the_solver_on_dense_racks(backend: str) -> None:
    # Racks of a few numbers in every colour (sets, doubles) or of a few colours over a narrow
    # range (runs, doubles): where the refinements of _melds_bound (second copies, one joker's
    # run or set) decide, the solver's best (keeping no tile, no must-use tile) never exceeds it.
    n = 4000 if backend == "native" else 150
    rules = Rules.parse("rummy101")
    rng = random.Random(12)
    with using_backend(backend):
        core = _backend.core()
        cr = _backend.core_rules(rules, "open")
        for _ in range(n):
            if rng.random() < 0.5:
                ns = rng.sample(range(13), rng.randint(2, 6))
                codes = [c * 13 + x for c in range(4) for x in ns]
            else:
                lo = rng.randint(0, 8)
                codes = [c * 13 + x for c in rng.sample(range(4), rng.randint(1, 2))
                         for x in range(lo, min(13, lo + rng.randint(3, 8)))]
            bag = [c for c in codes for _ in range(2)] + [J] * rng.choice([0, 1, 1, 2, 3])
            rack = [0] * 53
            for c in rng.sample(bag, min(len(bag), rng.randint(3, 22))):
                rack[c] += 1
            v = core.solve_melds(cr, rack, False, -1, False)[0]
            assert v <= E._melds_bound(bytes(rack)), rack


def test_opening_check_agrees_with_the_solvers() -> None:
    core = _backend.core()
    checked = 0
    for g in range(25):
        s = new_game("rummy101", g)
        bot = RandomBot(random.Random(g))
        cr = _backend.core_rules(s.rules, "open")
        while not s.is_terminal:
            p, t = s.current, s.x.last_discard
            if s.phase is Phase.TAKE and t >= 0 and s.x.opened[p] == E.NOT_OPENED:
                counts = list(s.racks[p])
                counts[t] += 1
                want = ((s.rules.pairs_allowed and core.max_pairs(counts, True, t)[0] >= s.x.thr_pairs)
                        or core.solve_melds(cr, counts, True, t, False)[0] >= s.x.thr_melds)
                E._OPENING_MEMO.clear()
                assert E._opening_possible_with(s, p, t) == want
                checked += 1
            s.apply(bot.act({}, s.legal_actions()))
    assert checked > 200

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


def test_bound_is_tight_enough_to_matter() -> None:
    # Without jokers a rack of loose tiles has nothing to lay; one joker adds one meld at most.
    rack = [0] * 53
    for c in (0, 4, 8, 13 + 2, 26 + 6, 39 + 10):  # R1 R5 R9 Y3 B7 K11: no two within reach
        rack[c] = 1
    assert E._melds_bound(bytes(rack)) == 0
    rack[J] = 1
    assert E._melds_bound(bytes(rack)) == 13 + 11 * 2  # the joker, and at most K11 with a partner


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

"""Random-play invariants of classic Rummy (CR-1 .. CR-6) over seeded matches to the target:
52 cards conserved with none in two places at every step, round scores and stock turnovers
recomputed independently (tests/oracles/classic.py), termination, legal ⇔ accepted probes,
copy equality, record round trip (rummy101.game.records) and observations that hide the other
hands and the stock order.

The quick lane plays a seeded share of matches; the slow lane (``-m slow``) plays >= 2,000; CI
runs a seeded share of the slow lane too (``RUMMY101_SLOW_SHARE``, tests/test_game_random.py).
"""

from __future__ import annotations

import random

import pytest
from oracles import classic as oracle
from oracles import generic
from rummy101.game import State, new_game
from rummy101.game.records import dumps, loads
from test_game_random import slow_share

# never reaches the core (tests/conftest.py checks it): .ci/run's pure pass leaves it out
pytestmark = pytest.mark.backend_free

MAX_STEPS = 400_000


def position(s: State) -> State:
    """A copy of the position without the history (a match's history grows to thousands of
    actions; copying it at every step would make the test quadratic)."""
    history = s.history
    s.history = []
    try:
        return s.copy()
    finally:
        s.history = history


def play(rules: str, seed: int, policy: str, *, probe: float) -> tuple[int, int]:
    """Play one match to its end with the oracle's random ``policy``; returns (rounds, steps)."""
    s = new_game(rules, seed)
    rng = random.Random(seed)
    prng = random.Random(seed ^ 0xC1A5)
    pick = oracle.POLICIES[policy]
    steps = 0
    mid_record = prng.randrange(2_000)
    oracle.check_pieces(s)
    while not s.is_terminal:
        legal = s.legal_actions()
        assert legal, "a position that is not over has a legal action"
        if prng.random() < probe:
            generic.check_probes(s, oracle.universe(prng, s), legal)
            assert s.copy() == s
            generic.check_hidden(s, prng)
        if steps == mid_record:  # one mid-match record round trip (replays are long)
            generic.check_copy_and_record(s)
        a = pick(rng, s, legal)
        before = position(s)
        s.apply(a)
        oracle.check_step(before, a, s)
        oracle.check_pieces(s)
        steps += 1
        assert steps < MAX_STEPS, f"{rules} seed {seed}: the match did not end"
    assert max(s.standings()) >= s.rules.opts.target  # the cap of 10,000 rounds is never reached
    t = loads(dumps(s))
    assert t == s and t.history == s.history and t.is_terminal
    return len(s.round_scores()), steps


def policy(seed: int) -> str:
    """Three matches in four with the eager player (melds and lays off: rounds end by going
    out), one in four uniform (long matches with many drawn rounds and stock turnovers)."""
    return "uniform" if seed % 4 == 0 else "eager"


@pytest.mark.parametrize("rules", oracle.RULES)
def test_random_matches_quick(rules: str) -> None:
    for seed in range(8):
        play(rules, seed, policy(seed), probe=0.01)


@pytest.mark.slow
@pytest.mark.parametrize("rules", oracle.RULES)
def test_random_matches_slow(rules: str) -> None:
    # 5 rules x 400 = 2,000 seeded matches to the target
    for seed in slow_share(range(1000, 1400), f"classic:{rules}"):
        play(rules, seed, policy(seed), probe=0.001)

"""Whole games, record for record, on both backends: the seeded games of the tests that the pure
pass of .ci/run leaves out as ``above_core`` (pyproject.toml's markers) are the games the pure
core plays too.

Those tests check a layer above the core (the sim's interval arithmetic, the Python engines'
memo caps, the executors' streaming order) on many seeded games; README's pass runs them on the
native core. Here the first games of each of their runs (same rules, bots and seed: a run's game
``k`` is the same game whatever the run's length) are played on each backend with every step
kept (``record="full"``), and must be equal. The solvers under them are compared call for call
in test_solve_parity*.py, test_melds_parity.py and test_tabla_parity.py. (The file's name marks
its tests ``parity``: they run once, in README's pass.)
"""

from __future__ import annotations

import pytest
from rummy101 import available_backends, using_backend
from rummy101.sim import GameRecord, simulate

pytestmark = pytest.mark.skipif(
    "native" not in available_backends(), reason="the native core is not built"
)

#: (rules, bots, seed, games, the above_core test whose run begins with these games)
RUNS = [
    ("classic(players=2)", "greedy,greedy", 7, 2, "test_sim_bounds typical_runs"),
    ("remi(players=2)", "greedy,random", 2, 6, "test_sim_memo_caps remi"),
    ("rummy101(players=2)", "greedy,random", 2, 12, "test_sim_memo_caps rummy101"),
    ("remi(players=3)", "random,greedy,random", 4, 3, "test_sim_stream streamed_run"),
]


def _games(backend: str, rules: str, bots: str, seed: int, games: int) -> list[GameRecord]:
    with using_backend(backend):
        run = simulate(rules, bots, games, seed=seed, workers=1, progress=False, record="full")
    return run.records


@pytest.mark.parametrize(
    ("rules", "bots", "seed", "games", "for_test"), RUNS, ids=[f"{r}-{b}" for r, b, *_ in RUNS]
)
def test_seeded_games_are_the_same_on_both_backends(
    rules: str, bots: str, seed: int, games: int, for_test: str
) -> None:
    native = _games("native", rules, bots, seed, games)
    pure = _games("pure", rules, bots, seed, games)
    assert len(native) == games and all(r.game_record for r in native), for_test
    for n, p in zip(native, pure, strict=True):
        assert p == n, f"{rules} {bots} seed {seed} game {n.game} differs ({for_test})"

"""The engines' memos stay small in a simulation worker, and their caps change no answer.

A simulation worker plays for hours; every memo of the engines is cleared when full, and its cap
is what the worker holds (docs/simulation.md "Memory": a Remi worker grew from 50 MB to 147 MB
while memos capped at 50,000-200,000 entries filled). These tests play games in this process
(``workers=1``) and check that each memo stays within its cap, and that a run with tiny caps
(cleared all the time) writes the same records as one with the default caps (RO-*, R101-*: the
memos hold pure answers of the rules).
"""

from __future__ import annotations

from typing import Any

import pytest
from rummy101.game import table as r101_table
from rummy101.game.engines.remi import engine as remi_engine
from rummy101.game.engines.remi import rules_core
from rummy101.game.engines.remi import table as remi_table
from rummy101.game.engines.rummy101 import engine as r101_engine
from rummy101.sim import simulate

REMI_MEMOS = ("_LAYDOWN", "_CLOSES", "_ATU", "_LEAVES", "_MOST")


def _clear_remi() -> None:
    for cache in rules_core._CACHES:
        cache.clear()
    remi_table._GEOM.clear()
    remi_table._BUILDABLE.clear()
    remi_engine._MELD_ACTIONS.clear()


def _lines(rules: str, bots: str, games: int) -> list[Any]:
    """The whole games (every step) of a run, as records."""
    return simulate(
        rules, bots, games=games, seed=5, workers=1, progress=False, record="full"
    ).records


# above_core: the Python engine's memo caps over 150 Remi games, 116 s on the pure core; test_game_parity.py plays this run's
# games on both cores alike (and the memos are keyed by the backend, filled alike)
@pytest.mark.above_core
def test_remi_memos_stay_within_their_caps() -> None:
    """150 games fill ``_CLOSES`` past 4,096 entries (some 40 a game); it is cleared at its cap
    (it held up to 100,000, ~24 MB, before)."""
    _clear_remi()
    simulate(
        "remi(players=2)",
        "greedy,random",
        games=150,
        seed=2,
        workers=1,
        progress=False,
        keep_records=False,
    )
    for name in REMI_MEMOS:
        assert len(getattr(rules_core, name)) <= 4_096, name
    assert rules_core.MEMO_CAP <= 4_096
    assert len(rules_core._OUTCOMES) <= rules_core.OUTCOMES_CAP <= 16_384
    assert len(remi_table._GEOM) <= remi_table.GEOM_CAP <= 16_384
    assert len(remi_table._BUILDABLE) <= remi_table.GEOM_CAP


def test_remi_tiny_caps_give_the_same_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """Memos cleared every few entries answer as memos that keep everything: same records."""
    _clear_remi()
    want = _lines("remi(players=2)", "greedy,random", 12)
    _clear_remi()
    monkeypatch.setattr(rules_core, "MEMO_CAP", 3)
    monkeypatch.setattr(rules_core, "OUTCOMES_CAP", 3)
    monkeypatch.setattr(remi_table, "GEOM_CAP", 3)
    got = _lines("remi(players=2)", "greedy,random", 12)
    for name in REMI_MEMOS + ("_OUTCOMES",):
        assert len(getattr(rules_core, name)) <= 3, name
    assert len(remi_table._GEOM) <= 3 and len(remi_table._BUILDABLE) <= 3
    assert got == want
    _clear_remi()


# above_core: the Python engine's memo caps over 350 Rummy 101 games, 30 s on the pure core; test_game_parity.py plays this run's
# games on both cores alike (and the memos are keyed by the backend, filled alike)
@pytest.mark.above_core
def test_rummy101_memos_stay_within_their_caps() -> None:
    """R101: the opening memo (its hits come within a turn; 350 games ask for some 5,000
    entries) is cleared at 4,096 entries, the meld and discard memos at 32,768, the shared
    table melds at 16,384."""
    simulate(
        "rummy101(players=2)",
        "greedy,random",
        games=350,
        seed=2,
        workers=1,
        progress=False,
        keep_records=False,
    )
    assert len(r101_engine._OPENING_MEMO) <= 4_096
    assert len(r101_engine._MELD_MEMO) <= 32_768
    assert len(r101_engine._JOKER_RUNS) <= 16_384
    assert len(r101_table._MEMO) <= 16_384


def test_rummy101_pair_memos_stay_within_their_cap() -> None:
    """R101-5: the pairs of a colour, memoised by its presence and doubles masks (3**13 of them),
    are cleared at 8,192 entries a colour (100,000 before: 16 MB after 12,000 games) and answer
    as a fresh scan does."""
    memo = r101_engine._PAIRS_J_MEMO[0]
    memo.clear()
    asked = [(m, d) for m in range(1, 1 << 13) for d in (0, m & 0x155)][:9_000]
    for m, d in asked:
        r101_engine._pairs_of_colour(0, m, d, True)
        assert len(memo) <= 8_192
    got = [r101_engine._pairs_of_colour(0, m, d, True) for m, d in asked[:50]]
    memo.clear()
    assert got == [r101_engine._pairs_of_colour(0, m, d, True) for m, d in asked[:50]]
    memo.clear()

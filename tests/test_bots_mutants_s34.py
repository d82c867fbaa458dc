"""Bot decisions the suite did not pin down, found by the thirty-fourth round's mutation pass
over ``rummy101.bots`` (rule IDs of RULES.md)."""

from __future__ import annotations

import random
from typing import Any

from rummy101.bots.greedy_remi import GreedyBot as RemiGreedy
from rummy101.bots.rollout import RemiRollout
from rummy101.bots.search import SearchBot
from rummy101.bots.strategy import deadwood, kit_for
from rummy101.game import new_game
from test_remi_engine import position


def test_remi_greedy_lays_down_exactly_45_points() -> None:
    """RO-8: a first lay-down needs a run and at least 45 points; R10 R11 R12 (30) and Y2 Y3 Y4
    (15) make exactly 45, so the greedy bot starts laying them down instead of discarding."""
    s = position(racks=["R5", "R10 R11 R12 Y2 Y3 Y4 K7 B13", "B2", "B3"], phase="play", took="draw")
    bot = RemiGreedy(random.Random(0))
    first = str(bot.act(s.observation(1), s.legal_actions()))
    assert first in ("run R10 R11 R12", "run Y2 Y3 Y4"), first
    s.apply(first)
    for _ in range(8):  # the other meld, then 'open'
        a = str(bot.act(s.observation(1), s.legal_actions()))
        s.apply(a)
        if a == "open":
            break
    assert s.x.laid[1]


def test_search_discard_candidates_always_hold_greedys_choice() -> None:
    """The search bot's discard candidates (docs/bots.md): greedy's choice first, then the others
    that leave the least deadwood (R101-13 penalty values), ``candidates`` in all — greedy's
    choice even when it is not among the least-deadwood discards (it is the baseline every other
    candidate must beat)."""
    state = new_game("rummy101(players=2)", 0)  # the starter: 22 tiles, many discards
    obs = state.observation(state.current_player)
    legal = state.legal_actions()
    kit = kit_for(state.rules)
    counts = list(state.racks[state.current_player])

    def left(a: Any) -> int:
        c = list(counts)
        c[int(a.tiles[0])] -= 1
        return deadwood(kit, c, keep=False)

    discards = sorted(
        (a for a in legal if a.verb == "discard"), key=lambda a: (left(a), int(a.tiles[0]))
    )
    assert len(discards) > 4
    worst = discards[-1]
    bot = SearchBot(random.Random(0), candidates=3)
    cands = bot._discards(state.rules, obs, legal, worst)
    assert cands == [worst, *discards[:2]]


def test_remi_fast_rollout_keeps_its_joly_while_other_tiles_remain() -> None:
    """The fast Remi rollout policy (``rummy101.bots.rollout``) discards a Joly only as the last
    tile: with * R2 R4 (too few tiles to lay a meld and keep a discard, RO-13) it lets a numbered
    tile go, although the Joly is worth most (50, RO-12)."""
    s = position(
        racks=["R5", "* R2 R4", "B2", "B3"],
        laid=[True, True, False, False],
        phase="play",
        took="draw",
    )
    a = RemiRollout(random.Random(0)).act(s)
    assert a.verb == "discard" and str(a) != "discard *"
    assert a in s.legal_actions()

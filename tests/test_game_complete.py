"""Completeness of the step-by-step turn (docs/DESIGN.md "Game surface"): every run and set that
the rules allow (R101-5, any length, jokers anywhere) can be laid through legal actions only, as
a 3-tile window holding a numbered tile grown with ``add``; observations are JSON and hide the
other racks."""

from __future__ import annotations

import itertools
import json
import random

from rummy101.game import Action, new_game
from rummy101.game.table import RUN, SET, TableMeld
from test_game_rules import position


def build_sequence(kind: int, tiles: tuple[int, ...], index: int) -> list[str]:
    """Actions that lay ``tiles`` (table order) as meld ``index``: a window, then additions."""
    n = len(tiles)
    if kind == SET:
        reals = [t for t in tiles if t != 52]
        jokers = [52] * (n - len(reals))
        first = (reals + jokers)[:3]
        rest = (reals + jokers)[3:]
        acts = [str(Action("set", tuple(first)))]
        acts += [f"add {'*' if t == 52 else str(Action('discard', (t,)))[8:]} to {index}" for t in rest]
        return acts
    w = next(i for i in range(n - 2) if any(t != 52 for t in tiles[i:i + 3]))
    acts = [str(Action("run", tiles[w:w + 3]))]
    lo, hi = w, w + 3
    name = lambda t: "*" if t == 52 else str(Action("discard", (t,)))[8:]
    while hi < n:
        acts.append(f"add {name(tiles[hi])} to {index}@end")
        hi += 1
    while lo > 0:
        lo -= 1
        acts.append(f"add {name(tiles[lo])} to {index}@start")
    return acts


def test_every_run_with_up_to_two_jokers_is_reachable() -> None:
    """R101-5: runs of length 3..13, any start, jokers at any positions (<= 2 jokers)."""
    rack = "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 * * K1"
    count = 0
    for length in range(3, 14):
        for first in range(1, 15 - length):
            for jpos in itertools.chain([()], itertools.combinations(range(length), 1),
                                        itertools.combinations(range(length), 2)):
                if len(jpos) == length:
                    continue
                tiles = tuple(52 if i in jpos else first - 1 + i for i in range(length))
                s = position(racks=[rack, "Y1"], opened=["melds", "melds"])
                for a in build_sequence(RUN, tiles, 0):
                    assert str(Action.parse(a)) in {str(x) for x in s.legal_actions()}, (tiles, a)
                    s.apply(a)
                assert s.table[0].tiles == TableMeld.build(RUN, 0, tiles).tiles
                count += 1
    assert count > 1000


def test_every_set_is_reachable() -> None:
    """R101-5: sets of 3 and 4 with 0-3 jokers, every number."""
    for number in range(1, 14):
        rack = " ".join(f"{c}{number}" for c in "RYBK") + " * * * K1" if number != 1 else "R1 Y1 B1 K1 * * * K2"
        for k in (3, 4):
            for colours in itertools.combinations(range(4), k):
                for nj in range(k):
                    reals = tuple(c * 13 + number - 1 for c in colours[:k - nj])
                    tiles = TableMeld.build(SET, 0, reals + (52,) * nj).tiles
                    s = position("rummy101(players=2,button_jokers=1)", racks=[rack, "Y2"],
                                 opened=["melds", "melds"])
                    for a in build_sequence(SET, tiles, 0):
                        assert str(Action.parse(a)) in {str(x) for x in s.legal_actions()}, (tiles, a)
                        s.apply(a)
                    assert s.table[0].tiles == tiles


def test_observations_are_json_and_hide_other_racks() -> None:
    rng = random.Random(3)
    for seed in range(5):
        s = new_game("rummy101(players=3,button_jokers=1)", seed)
        for _ in range(300):
            if s.is_terminal:
                break
            for seat in range(3):
                o = s.observation(seat)
                assert json.loads(json.dumps(o)) == o
                assert o["rack"] == [str(t) for t in s.rack(seat)]
                assert set(o) >= {"rack", "rack_sizes", "stock", "discards", "table", "opened",
                                  "thresholds", "button", "current_player", "phase"}
                assert isinstance(o["stock"], int)
            s.apply(rng.choice(s.legal_actions()))

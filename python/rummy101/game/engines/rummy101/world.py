"""Determinization: a full Rummy 101 position consistent with one seat's observation.

A search bot sees only ``state.observation(seat)``. :func:`sample_state` deals the pieces that
seat cannot see — the other racks and the stock — at random from what is left of the set (106
tiles plus this round's joker-button jokers, R101-1/R101-10, minus the seat's rack, the table
and the discard piles), with the public sizes, and rebuilds everything else from the
observation. The sampled position's observation for that seat equals the one given
(``tests/test_search.py``), so the world is consistent with everything public.

Positions are sampled at the start of a turn or at a discard: the turn's undo snapshot and a
staged opening are not rebuilt (a position with a staged opening is refused). The duty to use a
discard taken this turn (R101-4: ``turn_state.must_use``), which the engine reads from that
snapshot, is: the sample gets the snapshot of the take with the table as it is now, so that it
offers the same moves as the real position (``reset`` aside). Without it, greedy's own turn,
finished by greedy inside a sample after a take (the search bot's whole-turn search), could
leave the taken tile unused, a turn the real game refuses (tests/test_observation_fields.py).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ....errors import IllegalAction
from ....tiles import MELD_KINDS, Tile
from ...phase import Phase
from ...state import State
from ...table import TableMeld
from ...world import deal_hidden, from_observation
from .data import NOT_OPENED, OPEN_MELDS, OPEN_PAIRS, R101Data

__all__ = ["sample_state"]

_CODE = {str(Tile(c)): c for c in range(53)}
_KIND = {name: code for code, name in MELD_KINDS.items()}
_OPENED = {None: NOT_OPENED, "melds": OPEN_MELDS, "pairs": OPEN_PAIRS}


def sample_state(obs: Mapping[str, Any], rng: random.Random) -> State:
    """A position consistent with ``obs`` (one seat's observation), hidden pieces dealt with
    ``rng``. Raises IllegalAction when the observation cannot come from a game."""
    s = from_observation(obs)
    rules = s.rules
    if obs["turn_state"].get("staged"):
        raise IllegalAction("a position with a staged opening is not sampled: 'open' or 'reset' first")
    seat = obs["seat"]
    n = s.n
    s.table = [TableMeld.build(_KIND[m["kind"]], m["owner"], tuple(_CODE[t] for t in m["tiles"]))
               for m in obs["table"]]
    x = R101Data(n, rules.opts.button_jokers)
    x.discards = [[_CODE[t] for t in pile] for pile in obs["discards"]]
    x.last_discard = _CODE[obs["last_discard"]] if obs["last_discard"] is not None else -1
    x.taken_log = [(d["seat"], d["from"], _CODE[d["tile"]], d["turn"]) for d in obs["taken_discards"]]
    x.opened = [_OPENED[o] for o in obs["opened"]]
    x.opened_turn = list(obs["opened_turn"])
    x.thr_melds = obs["thresholds"]["points"]
    x.thr_pairs = obs["thresholds"]["pairs"]
    x.button_left = list(obs["button"]["jokers"])
    x.button_used = list(obs["button"]["used"])
    x.button_issued = sum(rules.opts.button_jokers - k for k in x.button_left)
    x.took = obs["turn_state"]["took"] or ""
    x.turn_table_start = len(s.table)
    s.x = x
    # the pieces seat cannot see: the set, less its rack, the table and the discard piles
    left = [rules.copies] * 52 + [rules.jokers + sum(x.button_used)]
    own = [0] * 53
    for t in obs["rack"]:
        own[_CODE[t]] += 1
    seen = [c for m in s.table for c in m.tiles] + [c for pile in x.discards for c in pile]
    for c in range(53):
        left[c] -= own[c]
    for c in seen:
        left[c] -= 1
    must = obs["turn_state"].get("must_use")
    if must is not None:  # a discard taken this turn and not yet used (R101-4)
        t = _CODE[must]
        if x.took != "take" or own[t] < 1:
            raise IllegalAction(f"the observation's 'must_use' {must!r} is no discard taken "
                                f"this turn and still on the rack (R101-4)")
        # the turn's undo snapshot as it was at the take, with the table as it is now: the
        # engine reads the duty from it (the taken tile is unused while the table holds no
        # more copies of it than then), and a reset gives the tile back to the discards
        prev = (s.current - 1) % n
        before = list(own)
        before[t] -= 1
        x.taken, x.taken_base = t, own[t] - 1
        x.snap = (Phase.TAKE, tuple(before), obs["rack_sizes"][seat] - 1, tuple(s.table), "",
                  -1, 0, t, (*x.discards[prev], t), x.thr_melds, x.thr_pairs,
                  len(x.taken_log) - 1)
    deal_hidden(s, seat, own, left, obs["rack_sizes"], obs["stock"], rng)
    return s

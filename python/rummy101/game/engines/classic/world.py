"""Determinization: a classic Rummy position consistent with one seat's observation.

:func:`sample_state` deals the cards the seat cannot see — the other hands and the stock — at
random from what is left of the deck (52 cards less the seat's hand, the table and the discard
pile), with the public sizes, and rebuilds everything else from the observation; the sampled
position's observation for that seat equals the one given (``tests/test_search.py``).

The card the seat to move took from the pile this turn (``turn_state.taken``, shown to every
seat) is dealt to its hand unless it is already on the table. Two public facts are not used, so a
sample can be less informed than a player with perfect memory: which cards other players took
from the pile in earlier turns (still in their hands unless laid; the observation keeps no
history of takes), and the order of a stock made by turning the pile over (CR-5), which players
saw.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ....errors import IllegalAction
from ....tiles import MELD_KINDS
from ...state import State
from ...world import check_flags, check_whole, deal_hidden, from_observation
from .data import ClassicData
from .table import CS, CardMeld

__all__ = ["sample_state"]

_CODE = {t: c for c, t in enumerate(CS)}
_KIND = {name: code for code, name in MELD_KINDS.items()}


def sample_state(obs: Mapping[str, Any], rng: random.Random) -> State:
    """A position consistent with ``obs`` (one seat's observation), hidden cards dealt with
    ``rng``. Raises IllegalAction when the observation cannot come from a game."""
    s = from_observation(obs)
    seat = obs["seat"]
    n = s.n
    s.table = [CardMeld.build(_KIND[m["kind"]], m["owner"], tuple(_CODE[t] for t in m["tiles"]))
               for m in obs["table"]]
    x = ClassicData(n)
    x.pile = [_CODE[t] for t in obs["discard_pile"]]
    x.melded = check_flags(obs, "melded", n)
    # the pile is turned over once a round; the second exhaustion ends it (CR-5)
    x.turnovers = check_whole(obs, "stock_turnovers", 0, 1)
    ts = obs["turn_state"]
    x.took = ts["took"] or ""
    x.taken = _CODE[ts["taken"]] if ts["taken"] is not None else -1
    x.start_size = ts["start_size"]
    s.x = x
    own = [0] * 53
    for t in obs["rack"]:
        own[_CODE[t]] += 1
    left = [1] * 52 + [0]
    for c in [c for m in s.table for c in m.cards] + x.pile:
        left[c] -= 1
    for c in range(52):
        left[c] -= own[c]
    sizes = list(obs["rack_sizes"])
    # The card the seat to move took from the pile this turn is in its hand until it lays it (it
    # may not be discarded this turn, CR-3): public, so it is dealt to that hand first. Laid, it
    # is on the table and seen.
    taker = s.current if x.taken >= 0 and seat != s.current and left[x.taken] > 0 else -1
    if taker >= 0:
        if not sizes[taker]:
            raise IllegalAction(f"the observation does not fit: seat {taker} took {CS[x.taken]} "
                                "from the discard pile this turn and holds no card")
        left[x.taken] -= 1
        sizes[taker] -= 1
    elif x.taken >= 0 and seat != s.current and x.taken not in [c for m in s.table
                                                                for c in m.cards]:
        raise IllegalAction(f"the observation does not fit: seat {s.current} took {CS[x.taken]} "
                            "from the discard pile this turn, and it is neither on the table nor "
                            "left for its hand")
    deal_hidden(s, seat, own, left, sizes, obs["stock"], rng)
    if taker >= 0:
        s.racks[taker][x.taken] += 1
        s.sizes = list(obs["rack_sizes"])
    return s

"""Determinization: a classic Rummy position consistent with one seat's observation.

:func:`sample_state` deals the cards the seat cannot see — the other hands and the stock — at
random from what is left of the deck (52 cards less the seat's hand, the table and the discard
pile), with the public sizes, and rebuilds everything else from the observation; the sampled
position's observation for that seat equals the one given (``tests/test_search.py``).

Every card taken from the discard pile is seen by every seat (CR-3) and stays in its taker's
hand until it is laid (then it is on the table) or discarded (then it is on the pile, and after a
turn-over, CR-5, hidden in the stock or drawn by anyone): the observation's ``known`` lists those
cards per seat, this turn's taken card (``turn_state.taken``) among them until it is laid. They
are dealt to their holders first and the rest at random. An observation whose ``known`` shows a
card somewhere else too (the observing seat's rack, the table, the pile, another seat's
``known``), more known cards than a hand holds, one of the seat's own missing from its rack, or
this turn's taken card neither on the table nor among the mover's, is refused (IllegalAction);
one without ``known`` (made before it existed) knows only this turn's taken card. One public fact
is not used, so a sample can be less informed than a player with perfect memory: the order of a
stock made by turning the pile over (CR-5), which players saw.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ...._validate import short
from ....errors import IllegalAction
from ....tiles import MELD_KINDS
from ...state import State
from ...world import check_counts, check_flags, check_whole, deal_hidden, from_observation
from .data import ClassicData
from .table import CS, CardMeld

__all__ = ["sample_state"]

_CODE = {t: c for c, t in enumerate(CS)}
_KIND = {name: code for code, name in MELD_KINDS.items()}


def _known(obs: Mapping[str, Any], x: ClassicData, seat: int, cur: int, own: list[int],
           on_table: set[int], sizes: list[int]) -> list[list[int]]:
    """The observation's ``known`` (per seat, the cards it took from the discard pile and still
    holds, CR-3) as sorted codes, checked against everything else the observation shows: each
    card in one place only, the seat's own in its rack, no more than a hand holds, and this
    turn's taken card among the mover's unless it is on the table. An observation without
    ``known`` (made before it existed) knows only this turn's taken card."""
    n = len(sizes)
    raw = obs.get("known")
    if raw is None:
        known: list[list[int]] = [[] for _ in range(n)]
        if x.taken >= 0 and x.taken not in on_table:
            known[cur].append(x.taken)
        return known
    if (not isinstance(raw, list) or len(raw) != n
            or not all(isinstance(k, list) and all(isinstance(c, str) and c in _CODE for c in k)
                       for k in raw)):
        raise IllegalAction(f"the observation's 'known' must be a list of {n} lists (one a seat) "
                            f"of cards such as QS (CR-3), got {short(raw)}")
    known = [sorted(_CODE[c] for c in k) for k in raw]
    where: dict[int, int] = {}
    pile = set(x.pile)
    for q, k in enumerate(known):
        for c in k:
            shown = ("in the observing seat's rack" if q != seat and own[c] else
                     "on the table" if c in on_table else
                     "in the discard pile" if c in pile else
                     "twice in its hand" if where.get(c) == q else
                     f"in seat {where[c]}'s hand too" if c in where else "")
            if shown:
                raise IllegalAction(f"the observation does not fit: seat {q} took {CS[c]} from "
                                    f"the discard pile and still holds it (CR-3), but it also "
                                    f"shows it {shown}")
            if q == seat and not own[c]:
                raise IllegalAction(f"the observation does not fit: seat {q} took {CS[c]} from "
                                    "the discard pile and still holds it (CR-3), but its own "
                                    "rack does not hold it")
            where[c] = q
        if len(k) > sizes[q]:
            raise IllegalAction(f"the observation does not fit: seat {q} is known to hold "
                                f"{len(k)} cards taken from the discard pile (CR-3) and holds "
                                f"{sizes[q]} cards")
    if x.taken >= 0 and x.taken not in on_table and x.taken not in known[cur]:
        raise IllegalAction(f"the observation does not fit: seat {cur} took {CS[x.taken]} from "
                            "the discard pile this turn, and it is neither on the table nor "
                            "known in its hand")
    return known


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
    sizes = check_counts(obs, "rack_sizes", n)
    on_table = {c for m in s.table for c in m.cards}
    x.known = _known(obs, x, seat, s.current, own, on_table, sizes)
    # The cards each other seat took from the pile and still holds are public (CR-3): dealt to
    # their hands first, the rest at random.
    for q in range(n):
        if q != seat:
            for c in x.known[q]:
                left[c] -= 1
            sizes[q] -= len(x.known[q])
    deal_hidden(s, seat, own, left, sizes, obs["stock"], rng)
    for q in range(n):
        if q != seat:
            for c in x.known[q]:
                s.racks[q][c] += 1
    s.sizes = list(obs["rack_sizes"])
    return s

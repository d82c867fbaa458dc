"""Determinization: a Remi position consistent with one seat's observation (search bots, hints).

:func:`sample_state` deals the tiles the seat cannot see — the other racks and the stock — at
random from what is left of the set (106 tiles less the seat's rack, the table, the train and
the Atu while it lies face up), with the public sizes, and rebuilds the rest from the
observation; the sampled position's observation for that seat equals the one given
(``tests/test_search.py``).

Sampled at the start of a turn or at a discard: positions in the doubles exchange (RO-3: the
announced double is hidden), with a tile pending a meld (RO-9.4/9.5) or a staged lay-down are
refused (IllegalAction). Not rebuilt, because no observation shows them: who holds the Atu's
twin when it is not this seat (RO-2's +50 goes to nobody in the sample), the turn of another
seat's lay-down, and the turn's undo snapshot (so a sample after taking the discard, breaking
the train or taking the Atu offers ``tabla``, which RO-11 allows only before any play of the
turn and the engine reads from that snapshot; the search bot's candidates come from the real
position's legal moves).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ....errors import IllegalAction
from ....tiles import MELD_KINDS, Tile
from ...phase import Phase
from ...state import State
from ...world import check_counts, check_flags, deal_hidden, from_observation
from .data import RemiData
from .table import RemiMeld

__all__ = ["sample_state"]

_CODE = {str(Tile(c)): c for c in range(53)}
_KIND = {name: code for code, name in MELD_KINDS.items()}


def sample_state(obs: Mapping[str, Any], rng: random.Random) -> State:
    """A position consistent with ``obs`` (one seat's observation), hidden tiles dealt with
    ``rng``. IllegalAction for positions it does not sample (see the module docstring) and
    observations that cannot come from a game."""
    ts = obs["turn_state"]
    if obs["phase"] == Phase.EXCHANGE.value or ts["staged"] or ts["pending"] is not None:
        raise IllegalAction("a Remi position is sampled at the start of a turn or at a discard, "
                            "not during the doubles exchange, a staged lay-down or a pending tile")
    s = from_observation(obs)
    rules = s.rules
    seat = obs["seat"]
    table = []
    for m in obs["table"]:
        tiles = tuple(_CODE[t] for t in m["tiles"])
        jr = tuple(m["joly_retrievals"].get(str(i), 0) for i in range(len(tiles)))
        table.append(RemiMeld.build(rules, _KIND[m["kind"]], m["owner"], tiles,
                                    tuple(m["laid_by"]), jr))
    s.table = table
    x = RemiData(s.n)
    x.atu = _CODE[obs["atu"]] if obs["atu"] is not None else -1
    x.atu_avail = bool(obs["atu_available"])
    x.twin = seat if obs["twin"] else -1
    x.train = [_CODE[t] for t in obs["train"]]
    x.train_by = check_counts(obs, "train_by", len(x.train), 0, s.n - 1)  # who discarded each
    x.reshuffled = bool(obs["reshuffled"])
    x.laid = check_flags(obs, "laid", s.n)        # etalat (RO-8)
    x.tabla = check_flags(obs, "tabla", s.n)      # closing on the rack (RO-11)
    x.own_turns = check_counts(obs, "own_turns", s.n)
    if sum(x.own_turns) != s.turn + 1:  # each turn begun adds one to its seat's count
        raise IllegalAction(f"the observation's 'own_turns' {x.own_turns} do not count the "
                            f"{s.turn + 1} turns begun this round ('turn' is {s.turn})")
    x.ex_log = [tuple(e) for e in obs["doubles_log"]]
    x.took = ts["took"] or ""
    x.closing = bool(ts["closing"])
    x.atu_turn = bool(ts["atu_turn"])
    own = [0] * 53
    for t in obs["rack"]:
        own[_CODE[t]] += 1
    if ts["taken"] is not None:
        x.taken = _CODE[ts["taken"]]
        x.taken_base = own[x.taken] - (1 if ts["must_use"] is not None else 0)
    x.turn_table_start = len(table)
    s.x = x
    left = [rules.copies] * 52 + [rules.jokers]
    seen = [c for m in table for c in m.tiles] + x.train
    if x.atu_avail:
        seen.append(x.atu)
    for c in range(53):
        left[c] -= own[c]
    for c in seen:
        left[c] -= 1
    deal_hidden(s, seat, own, left, obs["rack_sizes"], obs["stock"], rng)
    return s

"""What every engine's ``sample_state`` shares: a position rebuilt from one seat's observation,
with the pieces that seat cannot see dealt at random (determinization for search bots and hints;
docs/DESIGN.md, "Engines").

An engine's ``sample_state(obs, rng)`` calls :func:`from_observation` for the shared fields,
sets its own record ``x`` and the table from the observation, then :func:`deal_hidden` with the
pieces left of the set.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import IllegalAction
from ..rules import Rules
from .engine import engine_for
from .phase import Phase
from .state import State

__all__ = ["deal_hidden", "from_observation"]


def from_observation(obs: Mapping[str, Any]) -> State:
    """A State with the shared fields an observation shows (rules, round, phase, seats, turn,
    scores); racks, stock, table and ``x`` are the engine's to set."""
    rules = Rules.parse(obs["rules"])
    s = object.__new__(State)
    s.rules = rules
    s.seed = 0
    s.match_rounds = obs["match_rounds"]
    s.round = obs["round"]
    s.n = rules.players
    s.engine = engine_for(rules)
    s.phase = Phase(obs["phase"])
    s.current = obs["current_player"]
    s.starter = obs["starter"]
    s.turn = obs["turn"]
    s.scores = [list(r) for r in obs["round_scores"]]
    s.totals = list(obs["standings"])
    s.results = []
    s.history = []
    s.invalidate_legal()
    s.table = []
    return s


def deal_hidden(s: State, seat: int, own: list[int], left: Sequence[int], sizes: Sequence[int],
                stock: int, rng: random.Random) -> None:
    """Deal what ``seat`` cannot see: ``left[c]`` copies of each code 0..52 (the set less
    everything the seat sees) over the other racks (``sizes``) and a stock of ``stock`` pieces,
    at random; ``own`` is the seat's rack. IllegalAction when the numbers do not add up."""
    if min(left) < 0:
        raise IllegalAction("the observation shows more copies of a piece than the set has")
    pool = [c for c in range(len(left)) for _ in range(left[c])]
    hidden = sum(sizes) - sizes[seat]
    if len(pool) != hidden + stock:
        raise IllegalAction(f"the observation does not add up: {len(pool)} hidden pieces for "
                            f"{hidden} on other racks and a stock of {stock}")
    rng.shuffle(pool)
    s.racks = []
    k = 0
    for q in range(len(sizes)):
        if q == seat:
            s.racks.append(list(own))
            continue
        rack = [0] * 53
        for c in pool[k:k + sizes[q]]:
            rack[c] += 1
        k += sizes[q]
        s.racks.append(rack)
    s.sizes = list(sizes)
    s.stock = pool[k:]

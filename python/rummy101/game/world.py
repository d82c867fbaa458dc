"""What every engine's ``sample_state`` shares: a position rebuilt from one seat's observation,
with the pieces that seat cannot see dealt at random (determinization for search bots and hints;
docs/DESIGN.md, "Engines").

An engine's ``sample_state(obs, rng)`` calls :func:`from_observation` for the shared fields,
sets its own record ``x`` and the table from the observation, then :func:`deal_hidden` with the
pieces left of the set.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .._validate import short
from ..errors import IllegalAction
from ..rules import Rules
from ..tiles import counts_of
from .engine import engine_for
from .phase import Phase
from .state import State

__all__ = ["check_counts", "check_flags", "check_turn_moves", "check_whole", "deal_hidden",
           "from_observation"]


def _is_whole(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def check_whole(obs: Mapping[str, Any], key: str, lo: int, hi: int | None = None) -> int:
    """``obs[key]``, a whole number in ``lo..hi``; IllegalAction naming the field otherwise (a
    sampled position holds what the observation says, so a value no game makes must be refused
    here: the round trip of the observation would not see it)."""
    v = obs[key]
    if not _is_whole(v) or v < lo or (hi is not None and v > hi):
        span = f"from {lo} to {hi}" if hi is not None else f">= {lo}"
        raise IllegalAction(f"the observation's {key!r} must be a whole number {span}, got "
                            f"{short(v)}")
    return int(v)


def check_flags(obs: Mapping[str, Any], key: str, n: int) -> list[bool]:
    """``obs[key]``: one true/false value a seat (``n`` seats)."""
    v = obs[key]
    if not isinstance(v, list) or len(v) != n or not all(isinstance(f, bool) for f in v):
        raise IllegalAction(f"the observation's {key!r} must be a list of {n} true/false values "
                            f"(one a seat), got {short(v)}")
    return list(v)


def check_counts(obs: Mapping[str, Any], key: str, n: int, lo: int | None = 0,
                 hi: int | None = None) -> list[int]:
    """``obs[key]``: ``n`` whole numbers, each in ``lo..hi`` (None: no bound)."""
    v = obs[key]
    if (not isinstance(v, list) or len(v) != n
            or not all(_is_whole(x) and (lo is None or x >= lo) and (hi is None or x <= hi)
                       for x in v)):
        span = ("whole numbers" if lo is None else
                f"whole numbers >= {lo}" if hi is None else f"whole numbers from {lo} to {hi}")
        raise IllegalAction(f"the observation's {key!r} must be a list of {n} {span}, got "
                            f"{short(v)}")
    return list(v)


def check_turn_moves(then: Iterable[int], now: Iterable[int]) -> None:
    """The pieces (codes) of the seat to move at its turn's start (``own_turn``: its rack, the
    table, what it took) and now (its rack, the table, what is pending): a turn only moves
    them, so the two must be the same pieces. IllegalAction otherwise: a start no game makes
    would give a sample whose ``reset`` deals pieces twice."""
    if counts_of(then) != counts_of(now):
        raise IllegalAction("the observation's 'own_turn' does not fit it: the turn's start "
                            "holds other pieces than the rack and the table now (a turn only "
                            "moves them)")


def from_observation(obs: Mapping[str, Any]) -> State:
    """A State with the shared fields an observation shows (rules, round, phase, seats, turn,
    scores); racks, stock, table and ``x`` are the engine's to set."""
    rules = Rules.parse(obs["rules"])
    n = rules.players
    s = object.__new__(State)
    s.rules = rules
    s.seed = 0
    s.match_rounds = check_whole(obs, "match_rounds", 1)
    # a game in play is in round 0..match_rounds-1, with one row of scores a round played
    s.round = check_whole(obs, "round", 0, s.match_rounds - 1)
    s.n = n
    s.engine = engine_for(rules)
    s.phase = Phase(obs["phase"])
    s.current = check_whole(obs, "current_player", 0, n - 1)
    s.starter = check_whole(obs, "starter", 0, n - 1)
    s.turn = check_whole(obs, "turn", 0)
    rows = obs["round_scores"]
    if not isinstance(rows, list) or len(rows) != s.round:
        raise IllegalAction(f"the observation's 'round_scores' must hold one row a round played "
                            f"({s.round} in round {s.round}), got {short(rows)}")
    s.scores = [check_counts({"round_scores": r}, "round_scores", n, None) for r in rows]
    s.totals = check_counts(obs, "standings", n, None)
    if s.totals != [sum(r[q] for r in s.scores) for q in range(n)]:
        raise IllegalAction(f"the observation's 'standings' {short(s.totals)} are not the sums "
                            f"of its 'round_scores'")
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

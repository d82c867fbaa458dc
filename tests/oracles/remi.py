"""Remi oracle (RO-1 .. RO-13): conservation of the 106 tiles, RO-12 scores recomputed from the
final position, candidate actions for probes, and random policies — for the tests and the soak."""

from __future__ import annotations

import random
from typing import Any

from rummy101.game import Action
from rummy101.tiles import JOKER_CODE

J = JOKER_CODE
FULL = [2] * 53
RULES = ["remi", "remi(players=2)", "remi(players=3,joly_retrievals=2)", "remi(atu=off)",
         "remi(tabla=off,doubles=off)", "remi(joly_atu_deal=14)"]
#: RO-12 is recomputed from the round's final position, which the next round's deal replaces:
#: the soak plays one round per game.
MAX_ROUNDS = 1


def census(s: Any) -> list[int]:
    x = s.x
    out = [0] * 53
    for r in s.racks:
        for c in range(53):
            out[c] += r[c]
    for c in s.stock + x.train + [t for m in s.table for t in m.tiles] + list(x.pending_later):
        out[c] += 1
    if x.atu_avail:
        out[x.atu] += 1
    if x.pending >= 0:
        out[x.pending] += 1
    return out


def _value(c: int) -> int:  # RO-12 end values, written again here
    if c == J:
        return 50
    n = c % 13 + 1
    return {1: 25}.get(n, 5 if n < 10 else 10)


def expected_scores(s: Any, result: dict[str, Any]) -> list[int]:
    """RO-12 from the final position, independently of the engine's scoring code."""
    x = s.x
    winner = result["winner"]
    out = []
    for q in range(s.n):
        laid = sum(_value(c) for m in s.table for c, b in zip(m.tiles, m.by, strict=True) if b == q)
        rack = sum(_value(c) * s.racks[q][c] for c in range(53))
        if q == winner:
            if result["finish"] == "tabla":
                score = {"simple": 400, "mozaic": 800, "bicolor": 1600, "monocolor": 3200}[result["pattern"]]
                d = score * (2 if x.train[-1] == J else 1)
            else:
                d = (100 + laid) * (2 if x.train[-1] == J else 1)
        elif x.tabla[q]:
            d = -200
        elif not x.laid[q]:
            d = -100
        else:
            d = laid - rack
        if q == x.twin:
            d += 50
        if 0 <= x.atu < J and x.atu % 13 == 0:
            d *= 2
        out.append(d)
    return out



def check_pieces(s: Any) -> None:
    """Every tile in exactly one place (RO-1: two of each and two Jolys), sizes agree."""
    assert census(s) == FULL
    assert s.sizes == [sum(r) for r in s.racks]


def check_step(before: Any, a: Action, s: Any) -> None:
    """A round that ended with this action scored as RO-12 says (from the final position)."""
    if len(s.results) > len(before.results) and s.is_terminal:
        r = s.results[-1]
        assert r["scores"] == expected_scores(s, r), r
        assert s.totals == [sum(x[q] for x in s.scores) for q in range(s.n)]


def universe(rng: random.Random, s: Any) -> list[Action]:
    """Random candidate actions, legal or not, for legal <=> accepted probes."""
    out = [Action(v) for v in ("draw", "take", "open", "reset", "decline", "atu", "tabla", "close")]
    rack = [c for c in range(53) if s.racks[s.current][c]]
    pick = lambda: rng.choice(rack) if rack and rng.random() < 0.8 else rng.randrange(53)
    for _ in range(6):
        out += [Action("discard", (pick(),)), Action("announce", (pick(),)), Action("accept", (pick(),))]
        c = rng.randrange(52)
        out.append(Action("run", (c, min(c + 1, 51), J if rng.random() < 0.5 else min(c + 2, 51))))
        n = rng.randrange(13)
        out.append(Action("set", tuple(sorted(rng.sample([n, 13 + n, 26 + n, 39 + n, J], 3)))))
        out.append(Action("break", (), rng.randrange(max(1, len(s.x.train) + 1))))
        k = rng.randrange(13)                           # a bridged run (only 'lay' builds it)
        out.append(Action("lay", tuple(J if i in (1, 4) else (rng.randrange(4) * 13 + (k + i) % 13)
                                       for i in range(6))))
        if s.table:
            i = rng.randrange(len(s.table))
            out.append(Action("add", (pick(),), i, rng.choice((-1, 0, 1))))
            out.append(Action("retrieve", (pick(),), i, rng.randrange(len(s.table[i].tiles))))
    return out


def uniform(rng: random.Random, state: Any, acts: list[Action]) -> Action:
    return rng.choice(acts)


def eager(rng: random.Random, state: Any, acts: list[Action]) -> Action:
    """Lays and commits whenever it can (to reach finishes), else uniform."""
    verbs = {a.verb for a in acts}
    if "open" in verbs:
        return next(a for a in acts if a.verb == "open")
    plays = [a for a in acts if a.verb in ("run", "set", "add", "retrieve")]
    if plays and rng.random() < 0.85:
        return rng.choice(plays)
    rest = [a for a in acts if a.verb != "reset"] or acts
    return rng.choice(rest)


POLICIES = {"uniform": uniform, "eager": eager}

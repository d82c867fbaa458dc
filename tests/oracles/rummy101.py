"""Rummy 101 oracle (R101-1 .. R101-14): conservation, R101-13 scores recomputed from the racks,
candidate actions for probes and the random policies of the tests and the soak."""

from __future__ import annotations

import random
from typing import Any

from rummy101.game import Action

RULES = ["rummy101", "rummy101(players=2)", "rummy101(players=3,threshold=increasing)",
         "rummy101(button_jokers=2)", "rummy101(players=2,threshold=increasing,button_jokers=5)"]


def eager(rng: random.Random, state: Any, acts: list[Action]) -> Action:
    """A random player that opens and lays whenever it can (to reach finishes), else uniform."""
    verbs: dict[str, list[Action]] = {}
    for a in acts:
        verbs.setdefault(a.verb, []).append(a)
    if "open" in verbs:
        return verbs["open"][0]
    plays = [a for a in acts if a.verb in ("run", "set", "pair", "add", "retrieve")]
    if plays and rng.random() < 0.85:
        return rng.choice(plays)
    if "take" in verbs and rng.random() < 0.5:
        return verbs["take"][0]
    if "reset" in verbs and (len(acts) == 1 or rng.random() < 0.3):
        return verbs["reset"][0]
    rest = [a for a in acts if a.verb not in ("reset",)] or acts
    return rng.choice(rest)


def uniform(rng: random.Random, state: Any, acts: list[Action]) -> Action:
    return rng.choice(acts)


def tile_total(s: Any) -> int:
    return (sum(s.sizes) + len(s.stock) + sum(len(d) for d in s.x.discards)
            + sum(len(m.tiles) for m in s.table))


def check_conservation(s: Any) -> None:
    """R101-1 / R101-10: 106 tiles plus this round's button jokers (one per use), wherever they are."""
    if s.is_terminal:
        return
    assert all(sum(r) == z for r, z in zip(s.racks, s.sizes))
    assert min(min(r) for r in s.racks) >= 0
    assert tile_total(s) == 106 + sum(1 for u in s.x.button_used if u)


def expected_scores(s: Any, winner: int, joker: bool) -> list[int]:
    """R101-13 recomputed from the racks, independently of the engine's scoring code."""
    pens = []
    for q in range(s.n):
        if s.x.opened[q] == 0:
            pens.append(202)
        else:
            v = sum((c % 13 + 1) * k for c, k in enumerate(s.racks[q][:52])) + 101 * s.racks[q][52]
            pens.append(v * (2 if s.x.opened[q] == 2 else 1))
    if winner < 0:
        return [-x for x in pens]
    one_turn = s.x.opened_turn[winner] == s.turn and all(s.x.opened[q] == 0 for q in range(s.n) if q != winner)
    m = (2 if joker else 1) * (2 if one_turn else 1)
    return [101 * m if q == winner else -pens[q] * m for q in range(s.n)]


def universe(rng: random.Random, s: Any) -> list[Action]:
    """Random candidate actions, legal or not, to test that apply and legal_actions agree."""
    out = [Action(v) for v in ("draw", "take", "button", "open", "reset")]
    rack = [c for c in range(53) if s.racks[s.current][c]]
    any_tile = lambda: rng.choice(rack) if rack and rng.random() < 0.8 else rng.randrange(53)
    for _ in range(6):
        out.append(Action("discard", (any_tile(),)))
        out.append(Action("pair", (t := any_tile(), t if rng.random() < 0.6 else 52)))
        c = rng.randrange(52)
        out.append(Action("run", (c, c + 1 if c % 13 < 12 else 52, 52 if rng.random() < 0.5 else min(c + 2, 51))))
        n = rng.randrange(13)
        out.append(Action("set", tuple(sorted(rng.sample([n, 13 + n, 26 + n, 39 + n, 52], 3)))))
        if s.table:
            i = rng.randrange(len(s.table))
            m = s.table[i]
            out.append(Action("add", (any_tile(),), i, rng.choice((-1, 0, 1))))
            if m.adds:
                code, pos = rng.choice(m.adds)
                out.append(Action("add", (code,), i, pos))
            if m.releases:
                code, idx = rng.choice(m.releases)
                out.append(Action("retrieve", (code,), i, idx))
            out.append(Action("retrieve", (any_tile(),), i, rng.randrange(len(m.tiles))))
    return out



def check_pieces(s: Any) -> None:
    check_conservation(s)


def check_step(before: Any, a: Action, s: Any) -> None:
    """A discard that ended a round scored it as R101-13 says (recomputed from ``before``)."""
    if a.verb != "discard" or (s.round == before.round and not s.is_terminal):
        return
    t = before.copy()
    code = int(a.tiles[0])
    t.racks[t.current][code] -= 1
    t.sizes[t.current] -= 1
    winner = t.current if t.sizes[t.current] == 0 else -1
    res = s.round_results()[-1]
    assert res["scores"] == expected_scores(t, winner, code == 52), (res, winner)
    assert res["end"] == ("finish" if winner >= 0 else "exhausted")
    assert sum(sum(r) for r in s.round_scores()) == sum(s.standings())


POLICIES = {"uniform": uniform, "eager": eager}

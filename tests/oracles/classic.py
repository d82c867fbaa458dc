"""Classic card Rummy oracle (CR-1 .. CR-6): conservation of the 52 cards, CR-6 scores and CR-5
stock turnovers recomputed from the position before the step, candidate actions for probes and
the random policies of the tests and the soak. Written from RULES.md, not from the engine."""

from __future__ import annotations

import random
from typing import Any

from rummy101.game import Action

RULES = ["classic", "classic(players=2)", "classic(players=3,go_out=narrow)", "classic(target=50)",
         "classic(players=2,target=100,go_out=narrow)"]


def value(code: int) -> int:
    """CR-2: ace 1, J Q K 10, others face value."""
    return min(code % 13 + 1, 10)


def uniform(rng: random.Random, state: Any, acts: list[Action]) -> Action:
    return rng.choice(acts)


def eager(rng: random.Random, state: Any, acts: list[Action]) -> Action:
    """A random player that melds and lays off whenever it can (to reach going out), takes the
    pile card now and then, and otherwise discards at random."""
    plays = [a for a in acts if a.verb in ("run", "set", "add")]
    if plays and rng.random() < 0.85:
        return rng.choice(plays)
    if any(a.verb == "take" for a in acts) and rng.random() < 0.3:
        return next(a for a in acts if a.verb == "take")
    rest = [a for a in acts if a.verb not in ("run", "set", "add")] or acts
    return rng.choice(rest)


POLICIES = {"uniform": uniform, "eager": eager}


def cards_in_play(s: Any) -> list[int]:
    """Every card of every place (hands, stock, discard pile, table), one entry per copy."""
    out: list[int] = []
    for q in range(s.n):
        r = s.racks[q]
        assert sum(r) == s.sizes[q], "a hand size disagrees with the hand"
        assert r[52] == 0, "a joker in classic Rummy (CR-1)"
        assert max(r) <= 1 and min(r) >= 0, "a card held twice (one deck, CR-1)"
        out += [c for c in range(52) if r[c]]
    out += s.stock
    out += s.x.pile
    for m in s.table:
        out += m.tiles
    return out


_DECK = list(range(52))


def check_pieces(s: Any) -> None:
    """CR-1: one 52-card deck, every card in exactly one place, at every step."""
    cards = sorted(cards_in_play(s))
    assert cards == _DECK, f"cards not conserved: {cards}"


def universe(rng: random.Random, s: Any) -> list[Action]:
    """Random candidate actions, legal or not, to test that apply and legal_actions agree."""
    out = [Action("draw"), Action("take")]
    hand = [c for c in range(52) if s.racks[s.current][c]]
    card = lambda: rng.choice(hand) if hand and rng.random() < 0.8 else rng.randrange(52)
    for _ in range(6):
        out.append(Action("discard", (card(),), cards=True))
        c = card()
        out.append(Action("run", (c, (c + 1) % 52, (c + 2) % 52), cards=True))
        out.append(Action("run", (c, c - 1, c - 2) if c >= 2 else (c, c + 2, c + 1), cards=True))
        r = card() % 13
        out.append(Action("set", tuple(k * 13 + r for k in sorted(rng.sample(range(4), 3))), cards=True))
        if s.table:
            i = rng.randrange(len(s.table) + 1)
            out.append(Action("add", (card(),), i, rng.choice((-1, 0, 1)), cards=True))
            m = s.table[min(i, len(s.table) - 1)]
            if m.adds:
                code, pos = rng.choice(m.adds)
                out.append(Action("add", (code,), min(i, len(s.table) - 1), pos, cards=True))
    out.append(Action("discard", (hand[0] if hand else 0,)))  # a tile, not a card
    return out


def check_step(before: Any, a: Action, s: Any) -> None:
    """What one applied step must have done: CR-3 (the taken card stays), CR-5 (the turnover and
    the drawn round), CR-6 (only the winner scores the others' cards; the match ends at the
    target)."""
    p = before.current
    if a.verb == "discard":
        assert int(a.tiles[0]) != before.x.taken, "the card taken from the pile was discarded (CR-3)"
    ended = len(s.results) > len(before.results)
    if ended:
        removed = {"run": 3, "set": 3, "add": 1, "discard": 1}.get(a.verb, 0)
        res = s.round_results()[-1]
        if before.sizes[p] == removed:  # the hand emptied: p went out (CR-4)
            left = [0 if q == p else sum(value(c) for c in range(52) if before.racks[q][c])
                    for q in range(before.n)]
            assert res["winner"] == p and res["end"] == "finish"
            assert res["scores"] == [sum(left) if q == p else 0 for q in range(before.n)], (res, left)
            if before.rules.opts.go_out == "narrow" and a.verb != "discard":
                assert a.verb in ("run", "set") and before.x.start_size == 2, "narrow go-out (CR-4)"
        else:  # the second stock ran out (CR-5)
            assert a.verb == "discard" and not before.stock and before.x.turnovers == 1
            assert res["winner"] is None and res["end"] == "exhausted"
            assert res["scores"] == [0] * before.n
        totals = [sum(r[q] for r in s.round_scores()) for q in range(s.n)]
        assert totals == s.standings()
        reached = max(totals) >= s.rules.opts.target
        assert s.is_terminal == (reached or len(s.round_scores()) >= s.match_rounds)
    elif a.verb == "discard" and not before.stock:  # CR-5: the pile turned over into the stock
        pile = before.x.pile + [int(a.tiles[0])]
        assert s.stock == pile[::-1] and s.x.pile == [] and s.x.turnovers == 1
        assert before.x.turnovers == 0

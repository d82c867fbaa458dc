"""Rules audit: the Remi engine's legal moves at every step of seeded games, against an outsider's
model written from RULES.md RO-1..RO-13 and seed 004 (tests/remi_model.py).

At each step the engine's legal set, restricted to a kind, must equal the model's for
``announce``/``accept``/``decline`` (RO-3: only seats holding a double are asked, in seat order
from the starter; the announcer's followers holding a double of the same size answer; big is
10-13 and 1), ``draw`` (RO-5), ``take`` (RO-9.3 freely for laid-down and tabla players, RO-10 for
the others exactly when a lay-down of >= 45 with a run holding the tile exists, decided by the
independent integer program of tests/reference.py), ``break N`` (RO-9.4 with RO-10),
``tabla`` (RO-11: own first three turns, before anything else in the turn), ``close`` and
``discard`` (RO-5, RO-8, RO-10, RO-11, RO-13; the tabla patterns by the model's own search).
``atu`` (RO-4) is decided exactly for tabla players and bounded (the Atu is in the stock) for
the others. The model also keeps who is asked in the exchange and each seat's own turns.

It can fail: planted engine faults (a 'break' with one or two tiles, 'tabla' in a fourth own
turn, 'take' of the last discard for every unlaid player) fail the fast tests.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from reference import reference_best
from remi_model import EXACT, Turn, closing_discards, doubles, expected, is_big
from rummy101.bots import get_bot
from rummy101.game import new_game
from rummy101.tiles import parse_tiles


def _counts(tiles: list[str]) -> list[int]:
    out = [0] * 53
    for t in tiles:
        out[int(parse_tiles(t)[0])] += 1
    return out


def _unlaid_take(rules: Any, t: str, rack: list[str]) -> bool:
    """RO-10: a lay-down holding ``t`` this turn: runs/sets (with a run) worth >= 45 at RO-8's
    values, keeping a tile for the discard (RO-13); the integer program of tests/reference.py."""
    code = int(parse_tiles(t)[0])
    best = reference_best(rules, _counts([*rack, t]), must_use=code, require_run=True)
    return best >= 45


class Exchange:
    """RO-3 as docs/rules.md reads it: one pass over the seats from the starter; each seat holding
    a double is asked once to announce; then the seats after the announcer holding a double of the
    same size answer in order until one accepts."""

    def __init__(self, racks: list[Counter[str]], starter: int, on: bool) -> None:
        n = len(racks)
        self.queue = [(starter + k) % n for k in range(n)] if on else []
        self.responders: list[int] = []
        self.current: int | None = None
        self.n = n
        self.next_announcer(racks)

    def next_announcer(self, racks: list[Counter[str]]) -> None:
        self.responders = []
        self.current = None
        while self.queue:
            q = self.queue.pop(0)
            if doubles(racks[q]):
                self.current = q
                return

    def act(self, verb: str, tile: str | None, racks: list[Counter[str]]) -> None:
        p = self.current
        assert p is not None
        if verb == "announce":
            assert tile is not None
            big = is_big(tile)
            self.responders = [
                q
                for k in range(1, self.n)
                for q in [(p + k) % self.n]
                if any(is_big(d) == big for d in doubles(racks[q]))
            ]
            self.announced = True
            self._next_responder(racks)
        elif verb == "accept" or not self.responders and not getattr(self, "announced", False):
            self.announced = False
            self.next_announcer(racks)
        else:
            self._next_responder(racks)

    def _next_responder(self, racks: list[Counter[str]]) -> None:
        if self.responders:
            self.current = self.responders.pop(0)
        else:
            self.announced = False
            self.next_announcer(racks)


def _play(rules_text: str, seed: int, bots: list[str], chaos: float) -> dict[str, int]:
    s = new_game(rules_text, seed)
    n = s.n
    opts = s.rules.opts
    rng = random.Random(f"remi-steps:{rules_text}:{seed}")
    players = [get_bot(b, random.Random(rng.random())) for b in bots]
    racks = [Counter(s.observation(q)["rack"]) for q in range(n)]
    ex = Exchange(racks, s.starter, opts.doubles)
    own = [0] * n
    turn = Turn()
    started = False
    seen: dict[str, int] = {k: 0 for k in (*EXACT, "take", "atu")}
    turn_steps = 0
    for step in range(20_000):
        if s.is_terminal:
            break
        p = s.current_player
        obs = s.observation(p)
        legal = {str(a): a for a in s.legal_actions()}
        by_verb: dict[str, set[str]] = {}
        for text, a in legal.items():
            by_verb.setdefault(a.verb, set()).add(text)
        where = (
            f"{rules_text} seed {seed} step {step} seat {p} phase {obs['phase']}: rack "
            f"{obs['rack']} train {obs['train']} laid {obs['laid']} tabla {obs['tabla']} "
            f"turn {turn}"
        )
        if obs["phase"] == "exchange":
            assert p == ex.current, f"asked seat {p}, model {ex.current}; {where}"
        else:
            assert ex.current is None, where  # everyone with a double was asked (RO-3)
            if not started:  # RO-5: the starter begins by discarding, with 15 tiles
                started = True
                assert p == s.starter and obs["rack_sizes"][p] in (14, 15), where
                own[p] = 1
                turn = Turn(took="start")
            assert obs["own_turns"] == own, where
        exp = expected(obs, turn, own[p], opts.tabla)
        for kind in EXACT:
            got = by_verb.get(kind, set())
            assert got == exp[kind], (
                f"{kind}: engine {sorted(got)} model {sorted(exp[kind])}; {where}"
            )
            seen[kind] += bool(got)
        if obs["phase"] == "take":
            offered = "take" in legal
            if obs["laid"][p] or obs["tabla"][p] or len(obs["train"]) < 2:
                assert offered == bool(exp["take"]), f"take {offered}; {where}"
            else:
                usable = _unlaid_take(s.rules, obs["train"][-1], obs["rack"])
                assert offered == usable, f"take {offered}; {where}"
            seen["take"] += offered
            atu = "atu" in legal
            if atu:  # RO-4 bound: the Atu is in the stock
                assert obs["atu_available"], where
            if obs["tabla"][p] and obs["atu_available"]:  # RO-4 + RO-11, exact
                after = Counter(obs["rack"]) + Counter([obs["atu"]])
                ok = any(d != obs["atu"] or after[d] >= 2 for d in closing_discards(after))
                assert atu == ok, f"atu {atu}; {where}"
            seen["atu"] += atu
        bot = players[p]
        acts = list(legal.values())
        odd = [
            a for a in acts if a.verb in ("tabla", "take", "break", "close", "announce", "accept")
        ]
        if odd and rng.random() < chaos and turn_steps < 10:
            a = rng.choice(odd)  # explore: tabla players, takes, breaks the bots would skip
        else:
            a = bot.act(obs, acts)
        v = a.verb
        turn_steps += 1
        if v in ("announce", "accept", "decline"):
            ex.act(v, str(a.tiles[0]) if a.tiles else None, racks)
            s.apply(a)
            racks = [Counter(s.observation(q)["rack"]) for q in range(n)]
            continue
        if v in ("draw", "take", "break", "atu"):
            turn.took = v
            if v == "take" and not obs["laid"][p] and not obs["tabla"][p]:
                turn.taken = obs["train"][-1]
                turn.taken_base = obs["rack"].count(turn.taken)
            if v == "atu":
                turn.atu = True
        if v in ("run", "set", "lay", "add", "retrieve", "open", "close", "break", "take", "atu"):
            turn.plays += 1
        if v in ("run", "set", "lay") and turn.atu and obs["atu"] in {str(t) for t in a.tiles}:
            turn.atu_laid = True
        if v == "open":
            turn.taken = None
        if v == "close":
            turn.closing = True
        if v == "reset":
            took = turn.took if turn.took in ("draw", "start") else ""
            turn = Turn(took=took)
        s.apply(a)
        if v == "reset" and not took:
            assert s.observation(p)["phase"] == "take", where
        if v == "discard":
            turn = Turn()
            turn_steps = 0
            if not s.is_terminal:
                q = s.current_player
                assert q == (p + 1) % n, where  # RO-2: seat by seat in one direction
                own[q] += 1
    assert s.is_terminal
    return seen


CASES = [
    ("remi(players=2)", ["greedy", "greedy"]),
    ("remi(players=2,atu=off,doubles=off,tabla=off)", ["greedy", "random"]),
    ("remi(players=3)", ["greedy", "random", "greedy"]),
    ("remi(players=3,doubles=off,tabla=off)", ["greedy", "greedy", "greedy"]),
    ("remi(players=4)", ["greedy", "greedy", "random", "greedy"]),
    ("remi(players=4,atu=off)", ["greedy", "greedy", "greedy", "greedy"]),
]


@pytest.mark.parametrize(("rules", "bots"), CASES)
def test_steps_match_the_model(rules: str, bots: list[str]) -> None:
    seen: dict[str, int] = {}
    for seed in range(2):
        got = _play(rules, seed, bots, chaos=0.3 * (seed % 2))
        seen = {k: seen.get(k, 0) + v for k, v in got.items()}
    assert seen["discard"] and seen["draw"], seen


@pytest.mark.slow
@pytest.mark.parametrize(("rules", "bots"), CASES)
def test_steps_match_the_model_more_seeds(rules: str, bots: list[str]) -> None:
    for seed in range(2, 30):
        _play(rules, seed, bots, chaos=0.3 * (seed % 2))

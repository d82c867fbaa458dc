"""Checks every variant shares, through the game surface only."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from rummy101 import IllegalAction
from rummy101.game import Action
from rummy101.game.records import dumps, loads


def check_probes(s: Any, candidates: Iterable[Action], legal: list[Action]) -> int:
    """Legal ⇔ accepted: every legal action applies to a copy; every other candidate raises
    IllegalAction and changes nothing. Returns the number of probes made."""
    legal_set = set(legal)
    assert len(legal_set) == len(legal), "legal_actions() lists an action twice"
    n = 0
    for b in legal:
        t = s.copy()
        t.apply(b)
        n += 1
    for b in candidates:
        if b in legal_set:
            continue
        t = s.copy()
        try:
            t.apply(b)
        except IllegalAction:
            pass
        else:
            raise AssertionError(f"{b} is not in legal_actions() but apply accepted it")
        assert t == s, f"the refused {b} changed the state"
        n += 1
    return n


def check_copy_and_record(s: Any, record: bool = True) -> None:
    """copy() is equal and independent of history; the record replays to the same position
    (unless ``record`` is false: the replay costs as much as the game so far)."""
    c = s.copy()
    assert c == s
    if record:
        t = loads(dumps(s))
        assert t == s and t.history == s.history


def deal_hidden_again(s: Any, seat: int, rng: random.Random) -> Any:
    """A copy of ``s`` with the pieces ``seat`` cannot see (the other racks and the stock) dealt
    again among those places at random, sizes kept."""
    t = s.copy()
    pool = [c for q in range(t.n) if q != seat for c in range(53) for _ in range(t.racks[q][c])]
    pool += t.stock
    rng.shuffle(pool)
    k = 0
    for q in range(t.n):
        if q == seat:
            continue
        rack = [0] * 53
        for c in pool[k:k + t.sizes[q]]:
            rack[c] += 1
        k += t.sizes[q]
        t.racks[q] = rack
    t.stock = pool[k:]
    t._legal = None
    return t


def check_hidden(s: Any, rng: random.Random) -> None:
    """Every seat's observation is unchanged when the pieces it cannot see (the other racks and
    the stock) are dealt among those places again, sizes kept."""
    for seat in range(s.n):
        want = s.observation(seat)
        assert deal_hidden_again(s, seat, rng).observation(seat) == want, \
            f"seat {seat}'s observation shows hidden pieces"


def positions_where(rules: str, seeds: Iterable[int], policy: Any, keep: Any) -> list[Any]:
    """Copies of every position of seeded one-round games (``policy(rng, state, legal)`` plays
    every seat) at which ``keep(state)`` holds."""
    from rummy101.game import new_game

    out = []
    for seed in seeds:
        s = new_game(rules, seed, match_rounds=1)
        rng = random.Random(seed)
        while not s.is_terminal:
            if keep(s):
                out.append(s.copy())
            s.apply(policy(rng, s, s.legal_actions()))
    return out


def other_seats_samples(s: Any, k: int, check_pieces: Any, per_seat: int = 3) -> Any:
    """``per_seat`` samples of position number ``k`` from every seat's observation but the one
    to move, each checked to give that seat its observation back and to conserve the pieces;
    yields (seat, j, sample)."""
    from rummy101.game import engine_for

    sample = engine_for(s.rules).sample_state
    for seat in set(range(s.n)) - {s.current_player}:
        obs = s.observation(seat)
        for j in range(per_seat):
            got = sample(obs, random.Random(100 * k + j))
            assert got.observation(seat) == obs
            check_pieces(got)
            yield seat, j, got

"""Samples after accepted swaps of Remi's doubles exchange (RO-3) keep what the swaps made public.

An observation never names the tiles of the exchange (the seed lets the announcer say only "big"
or "small"), but its ``doubles_log`` shows who announced which size and who accepted: the
announcer held a double of that size, and after an accepted swap each of the two seats holds
both copies of the double it received until a later swap moves it on. The sampler dealt the
hidden racks at random after an accept, so a sampled acceptor or announcer often held no double
of the size at all: a world no game reaches. Now every sample has a way the doubles moved."""

from __future__ import annotations

import random
from typing import Any

import pytest
from oracles.remi import check_pieces
from rummy101.bots import get_bot
from rummy101.errors import IllegalAction
from rummy101.game import Phase, engine_for, new_game
from rummy101.game.engines.remi.engine import is_big
from rummy101.service.api import hint
from rummy101.tiles import Tile


def _positions(rules: str, seed: int) -> list[Any]:
    """Every position of a deal whose seats announce a double whenever they may and accept
    every offer they can, through the exchange and the first turns of play (each turn a draw and
    a random discard, so the racks hold what the exchange left, less the discards)."""
    s = new_game(rules, seed, match_rounds=1)
    rng = random.Random(seed)
    out = []
    while s.phase is Phase.EXCHANGE:
        out.append(s.copy())
        legal = s.legal_actions()
        s.apply(rng.choice([a for a in legal if a.verb != "decline"] or legal))
    while s.turn < 2 * s.n and not s.is_terminal:
        out.append(s.copy())
        legal = s.legal_actions()
        if s.phase is Phase.TAKE:
            s.apply("draw")
        else:
            s.apply(rng.choice([a for a in legal if a.verb == "discard"]))
    return out


def _fits(s: Any) -> bool:
    """Whether some way of the doubles exchanged leads to ``s``: undo the ``doubles_log`` from its
    last announcement (the racks as the exchange left them: the discards since go back to who
    made them), each accepted swap having left its two seats both copies of two different tiles
    of the size said, each announcement its announcer a double of that size; the double on offer
    is its announcer's."""
    x = s.x
    racks = [list(r) for r in s.racks]
    for c, q in zip(x.train, x.train_by):
        racks[q][c] += 1
    if s.phase is Phase.EXCHANGE and x.ex_announcer >= 0 and racks[x.ex_announcer][x.ex_code] != 2:
        return False
    log = x.ex_log

    def back(k: int, racks: list[list[int]]) -> bool:
        if k < 0:
            return True
        a, size, b = log[k]
        kind = [c for c in range(52) if is_big(c) == (size == "big")]
        got = [d for d in kind if racks[a][d] == 2]
        if b < 0:
            return bool(got) and back(k - 1, racks)
        for d in got:
            for c in (c for c in kind if racks[b][c] == 2):
                before = [list(r) for r in racks]
                before[a][d] -= 2
                before[a][c] += 2
                before[b][c] -= 2
                before[b][d] += 2
                if back(k - 1, before):
                    return True
        return False

    return back(len(log) - 1, racks)


@pytest.mark.parametrize(
    ("rules", "seeds"),
    [("remi", (0, 3, 8)), ("remi(players=3)", (0, 1, 3)), ("remi(players=2)", (1, 3, 6))],
)
def test_every_sample_has_a_way_the_doubles_moved(rules: str, seeds: tuple[int, ...]) -> None:
    sample = engine_for(new_game(rules, 0).rules).sample_state
    swaps = checked = 0
    for seed in seeds:  # deals with two or three accepted swaps (one with one, players=2)
        positions = _positions(rules, seed)
        swaps += sum(b >= 0 for _, _, b in positions[-1].x.ex_log)
        for k, s in enumerate(positions):
            assert _fits(s)  # the checker itself reads the real games right
            for seat in range(s.n):
                obs = s.observation(seat)
                for j in range(6):
                    got = sample(obs, random.Random(1000 * k + 10 * seat + j))
                    assert got.observation(seat) == obs
                    check_pieces(got)
                    assert _fits(got), (seed, k, seat, j, obs["doubles_log"], obs["phase"])
                    if seat == s.current_player:
                        assert got.legal_actions() == s.legal_actions()
                    checked += 1
    assert swaps >= 5 and checked > 300


def test_a_seat_holds_the_double_it_received() -> None:
    # the plainest fact: both seats of an accepted swap hold two copies of a tile of the size said
    sample = engine_for(new_game("remi", 0).rules).sample_state
    seen = 0
    for seed in range(6):
        for s in _positions("remi", seed):
            for a, size, b in s.x.ex_log:
                if b < 0 or s.phase is not Phase.EXCHANGE:
                    continue
                for seat in {0, 1, 2, 3} - {a, b}:
                    for j in range(5):
                        got = sample(s.observation(seat), random.Random(j))
                        for q in (a, b):
                            assert any(
                                got.racks[q][c] == 2 and is_big(c) == (size == "big")
                                for c in range(52)
                            ), (seed, a, size, b, q)
                        seen += 1
    assert seen > 50


def test_a_swap_the_rack_cannot_have_made_is_refused() -> None:
    # the starter, asked first whether it announces, shown as having accepted a swap of a size
    # it holds no double of: no game leaves that rack, and the sampler says so (it dealt a world)
    for seed in range(40):
        s = new_game("remi", seed)
        seat = s.current_player
        sizes = {is_big(c) for c in range(52) if s.racks[seat][c] == 2}
        if len(sizes) < 2:
            break
    else:
        pytest.fail("no deal whose starter lacks a double of one size")
    log = [[(seat + 1) % 4, "big" if False in sizes else "small", seat]]
    obs = s.observation(seat)
    # the seat's own part names two tiles of the size, as its observation would (doubles_mine)
    gave, got = [str(Tile(c)) for c in range(52) if is_big(c) == (False in sizes)][:2]
    mine = [{"entry": 0, "gave": gave, "received": got}]
    forged = dict(obs, doubles_log=log, exchange=dict(obs["exchange"], log=log), doubles_mine=mine)
    with pytest.raises(IllegalAction, match="no way of the doubles"):
        engine_for(s.rules).sample_state(forged, random.Random(0))
    engine_for(s.rules).sample_state(obs, random.Random(0))  # the real observation samples


def test_search_and_hints_work_after_swaps() -> None:
    bot = get_bot("search:playouts=8", random.Random(0))
    asked = 0
    for s in _positions("remi", 1):
        if not any(b >= 0 for _, _, b in s.x.ex_log):
            continue
        seat = s.current_player
        obs = s.observation(seat)
        legal = s.legal_actions()
        assert bot.act(obs, legal) in legal
        actions = hint({"observation": obs})["turn"]["actions"]
        assert actions and actions[0] in [str(a) for a in legal]
        asked += 1
    assert asked >= 5

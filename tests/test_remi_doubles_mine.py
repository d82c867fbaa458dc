"""A seat's own view of Remi's doubles exchange (RO-3): the tiles it offered, gave and received.

The ``doubles_log`` names only seats and "big"/"small", and the state kept no record of which
tiles were swapped, so the announcer's and the acceptor's observations lacked what each of them
knows: the double it announced (while its offer is open and after) and the doubles it gave and
received. The sampler then guessed those tiles for the seat's own swaps and could put in the
partner's sampled rack a double other than the one the seat really gave. Now the state keeps the
tiles (``ex_tiles``), the two seats of a swap see them in ``doubles_mine``, and the sampler deals
them as named; a ``doubles_mine`` that contradicts the log or the rack is refused."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from oracles.remi import check_pieces
from rummy101.errors import IllegalAction
from rummy101.game import Phase, engine_for, new_game, records
from rummy101.game.engines.remi.engine import is_big
from rummy101.tiles import Tile


def _play(rules: str, seed: int, turns: int = 2) -> list[tuple[Any, list[tuple[int, int]]]]:
    """Every position of a deal whose seats announce and accept whenever they may, through the
    exchange and ``turns`` rounds of play turns (a draw and a random discard: no discard is taken,
    so every copy a seat put out is in the train), each with the tiles of each announcement and
    swap so far, read from the actions applied: (the announced double, the accepting one or -1)."""
    s = new_game(rules, seed, match_rounds=1)
    rng = random.Random(seed)
    swaps: list[tuple[int, int]] = []
    out = []
    while (s.phase is Phase.EXCHANGE or s.turn < turns * s.n) and not s.is_terminal:
        out.append((s.copy(), list(swaps)))
        legal = s.legal_actions()
        if s.phase is Phase.EXCHANGE:
            a = rng.choice([a for a in legal if a.verb != "decline"] or legal)
            if a.verb == "announce":
                swaps.append((int(a.tiles[0]), -1))
            elif a.verb == "accept":
                swaps[-1] = (swaps[-1][0], int(a.tiles[0]))
        elif s.phase is Phase.TAKE:
            a = legal[[str(b) for b in legal].index("draw")]
        else:
            a = rng.choice([a for a in legal if a.verb == "discard"])
        s.apply(a)
    return out


def _t(c: int) -> str:
    return str(Tile(c))


@pytest.mark.parametrize("rules", ["remi", "remi(players=3)", "remi(players=2)"])
def test_the_two_seats_of_a_swap_see_its_tiles_and_no_other_seat_does(rules: str) -> None:
    shown = others = 0
    for seed in range(8):
        for s, swaps in _play(rules, seed, turns=1):
            log = s.x.ex_log
            for seat in range(s.n):
                obs = s.observation(seat)
                want = []
                for k, ((a, _, b), (offered, back)) in enumerate(zip(log, swaps)):
                    if seat == a:
                        got = _t(back) if back >= 0 else None
                        want.append({"entry": k, "gave": _t(offered), "received": got})
                    elif seat == b:
                        want.append({"entry": k, "gave": _t(back), "received": _t(offered)})
                if want:
                    assert obs["doubles_mine"] == want, (rules, seed, seat, log)
                    shown += 1
                else:  # a seat that took no part sees what it saw before: no such field
                    assert "doubles_mine" not in obs, (rules, seed, seat, log)
                    others += bool(log)
    assert shown > 40 and (others > 40 or rules == "remi(players=2)")


def test_a_seat_that_took_no_part_sees_the_same_whichever_double_was_announced() -> None:
    # the same deal played twice, the announcer offering one double and then another of the same
    # size, every other seat declining: only the announcer's view differs between the two
    for seed in range(60):
        s = new_game("remi", seed)
        seat = s.current_player
        doubles = [c for c in range(52) if s.racks[seat][c] == 2]
        pair = next(
            ((c, d) for c in doubles for d in doubles if c < d and is_big(c) == is_big(d)), None
        )
        if pair is not None:
            break
    else:
        pytest.fail("no deal whose starter holds two doubles of one size")
    games = []
    for c in pair:
        t = s.copy()
        t.apply(f"announce {_t(c)}")
        views = [[t.observation(q) for q in range(t.n)]]
        while t.phase is Phase.EXCHANGE and t.x.ex_announcer >= 0:
            t.apply("decline")
            views.append([t.observation(q) for q in range(t.n)])
        games.append(views)
    assert len(games[0]) == len(games[1]) > 1
    for v0, v1 in zip(*games):
        for q in range(s.n):
            if q == seat:
                assert v0[q]["doubles_mine"] != v1[q]["doubles_mine"]
                assert v0[q]["doubles_mine"][0]["received"] is None
            else:
                assert v0[q] == v1[q]


def _may_have_moved(log: list[tuple[int, str, int]], k: int, partner: int) -> bool:
    """Whether the partner of swap ``k`` announced or accepted a double of its size later: then
    it may have passed on the double it received (the seat does not know which it gave)."""
    return any(partner in (a, b) and size == log[k][1] for a, size, b in log[k + 1 :])


@pytest.mark.parametrize("rules", ["remi", "remi(players=3)"])
def test_samples_give_the_partner_the_double_the_seat_gave(rules: str) -> None:
    """From the view of either seat of an accepted swap, every sample deals the partner the
    double the seat gave it (unless the log shows the partner may have passed it on in a later
    swap), with the copies the partner has not discarded since, and the seat's own tiles as its
    observation names them."""
    sample = engine_for(new_game(rules, 0).rules).sample_state
    checked = 0
    for seed in range(6):
        for n, (s, swaps) in enumerate(_play(rules, seed)):
            for k, ((a, _, b), (offered, back)) in enumerate(zip(s.x.ex_log, swaps)):
                if b < 0:
                    continue
                for seat, partner, gave in ((a, b, offered), (b, a, back)):
                    if _may_have_moved(s.x.ex_log, k, partner):
                        continue
                    obs = s.observation(seat)
                    for j in range(3):
                        got = sample(obs, random.Random(100 * n + 10 * seat + j))
                        assert got.observation(seat) == obs
                        check_pieces(got)
                        why = (rules, seed, n, seat, _t(gave))
                        assert got.racks[partner][gave] == s.racks[partner][gave], why
                        assert got.x.ex_tiles[k] == s.x.ex_tiles[k]
                        if seat == s.current_player:
                            assert got.legal_actions() == s.legal_actions()
                        checked += 1
    assert checked > 200


def test_the_announcers_sample_offers_its_own_double() -> None:
    # while its offer is open the announcer's samples hold the tile it announced on offer
    sample = engine_for(new_game("remi", 0).rules).sample_state
    seen = 0
    for seed in range(8):
        for s, _ in _play("remi", seed, turns=0):
            a = s.x.ex_announcer
            if s.phase is not Phase.EXCHANGE or a < 0:
                continue
            for j in range(3):
                got = sample(s.observation(a), random.Random(j))
                assert got.x.ex_code == s.x.ex_code and got.racks[a][got.x.ex_code] == 2
                seen += 1
    assert seen > 10


def _swapped(rules: str = "remi") -> tuple[Any, int, int]:
    """A position in the exchange right after an accepted swap, the acceptor and the entry."""
    for seed in range(20):
        for s, _ in _play(rules, seed, turns=0):
            log = s.x.ex_log
            if s.phase is Phase.EXCHANGE and log and log[-1][2] >= 0 and s.x.ex_announcer < 0:
                return s, log[-1][2], len(log) - 1
    raise AssertionError("no deal with an accepted swap")


def _forge(obs: dict[str, Any], k: int, **change: Any) -> dict[str, Any]:
    forged = copy.deepcopy(obs)
    (e,) = [e for e in forged["doubles_mine"] if e["entry"] == k]
    e.update(change)
    return forged


def _other(tile: str, big: bool, avoid: list[int]) -> str:
    return next(_t(c) for c in range(52) if is_big(c) == big and c not in avoid and _t(c) != tile)


def test_a_forged_doubles_mine_is_refused() -> None:
    s, seat, k = _swapped()
    sample = engine_for(s.rules).sample_state
    obs = s.observation(seat)
    sample(obs, random.Random(0))  # the real one samples
    e = next(e for e in obs["doubles_mine"] if e["entry"] == k)
    big = s.x.ex_log[k][1] == "big"
    rack = [c for c in range(52) if s.racks[seat][c]]
    wrong_size = next(_t(c) for c in range(52) if is_big(c) != big)
    cases = [
        # the log says the swap was accepted: the seat received a double
        (_forge(obs, k, received=None), "was accepted"),
        # a double of the other size
        (_forge(obs, k, gave=wrong_size), "two different"),
        # the same tile both ways
        (_forge(obs, k, gave=e["received"]), "two different"),
        # the entry dropped, or one the seat took no part in added
        (dict(obs, doubles_mine=[x for x in obs["doubles_mine"] if x["entry"] != k]), "entries"),
        (dict(obs, doubles_mine=obs["doubles_mine"] + [dict(e, entry=k + 1)]), "entries"),
        # not a list of {entry, gave, received}
        (dict(obs, doubles_mine=[[k, e["gave"], e["received"]]]), "must be a list"),
        (_forge(obs, k, gave="*"), "must be a list"),
        (_forge(obs, k, gave=[e["gave"]]), "must be a list"),
        # received a double the rack does not hold both copies of
        (_forge(obs, k, received=_other(e["gave"], big, rack)), "no way of the doubles"),
    ]
    for forged, why in cases:
        with pytest.raises(IllegalAction, match="RO-3") as err:
            sample(forged, random.Random(0))
        assert why in str(err.value), (forged["doubles_mine"], str(err.value))


def test_an_observation_without_the_seats_swaps_is_refused() -> None:
    s, seat, _ = _swapped()
    obs = {key: v for key, v in s.observation(seat).items() if key != "doubles_mine"}
    with pytest.raises(IllegalAction, match="'doubles_mine'"):
        engine_for(s.rules).sample_state(obs, random.Random(0))


def test_records_and_copies_keep_the_swapped_tiles() -> None:
    s, seat, k = _swapped()
    assert s.x.ex_tiles[k][1] >= 0
    assert s.copy().x == s.x and s.copy().x.ex_tiles is not s.x.ex_tiles
    again = records.loads(records.dumps(s))
    assert again.x.ex_tiles == s.x.ex_tiles
    assert again.observation(seat) == s.observation(seat)

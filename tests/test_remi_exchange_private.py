"""RO-3: the doubles exchange tells the table nothing about who holds a double.

The announcer says only "big" or "small" (seed 004: "pot doar sa precizeze daca este dubla mare
sau dubla mica"); the others learn nothing but what an accepted swap shows. The engine asked
only the seats holding a double to announce, and after an announcement only the seats holding
a double of its size, so every observation's ``current_player`` and ``phase`` told the whole
table (and every bot or RL agent reading its own view) who held a double, and of which size.
Now every seat is asked, in seat order from the starter, and after an announcement every other
seat in order from the announcer until one accepts; a seat without a double (of that size) has
only ``decline``. Game records of the old flow (format 1) replay with those declines added.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from rummy101.errors import IllegalAction, NotationError
from rummy101.game import Phase, new_game, records
from rummy101.tiles import parse_tiles

RULES = ("remi", "remi(players=3)", "remi(players=2)")


def _doubles(s: Any, seat: int) -> set[str]:
    """The seat's doubles, read from its own observation (two identical tiles; not Jolys)."""
    return {t for t, k in Counter(s.observation(seat)["rack"]).items() if k >= 2 and t != "*"}


def _seen(s: Any) -> list[list[tuple[str, int, Any]]]:
    """Per seat, what its observation shows at each step of the exchange, every seat declining:
    the phase, the seat to move and the exchange's public part."""
    seen: list[list[tuple[str, int, Any]]] = [[] for _ in range(s.n)]
    for _ in range(100):
        for q in range(s.n):
            o = s.observation(q)
            seen[q].append((o["phase"], o["current_player"], o["exchange"]))
        if s.phase is not Phase.EXCHANGE:
            return seen
        s.apply("decline")
    raise AssertionError("the exchange did not end")


@pytest.mark.parametrize("rules", RULES)
def test_every_seat_is_asked_in_order_whoever_holds_a_double(rules: str) -> None:
    """Deals whose seats hold doubles differently show every seat the same steps: the starter
    and each next seat asked once, then play at the starter (RO-3, RO-5)."""
    holders = set()
    for seed in range(12):
        s = new_game(rules, seed)
        holders.add(tuple(bool(_doubles(s, q)) for q in range(s.n)))
        n, st = s.n, s.starter
        want = [
            ("exchange", (st + k) % n, {"announcer": None, "size": None, "log": []})
            for k in range(n)
        ]
        seen = _seen(s)
        for q in range(n):
            assert seen[q][:-1] == want, (rules, seed, q)
            assert seen[q][-1][:2] == ("play", st), (rules, seed, q)
    assert len(holders) > 1  # the deals did differ in who holds a double


def test_two_deals_that_differ_in_who_holds_doubles_look_the_same() -> None:
    """The same seed dealt twice, the second time with a seat's double broken up (one of its
    tiles swapped with a single of another seat): each seat observes the same (phase, seat to
    move) at every step of the exchange."""
    s = new_game("remi", 3)
    t = s.copy()
    # the last seat asked holding a double (not the first: the deal put it to move already)
    holder = next(
        q for k in range(t.n - 1, -1, -1) for q in [(t.starter + k) % t.n] if _doubles(t, q)
    )
    assert holder != t.current
    for d in sorted(_doubles(t, holder)):
        c = int(parse_tiles(d)[0])
        other = (holder + 1) % t.n
        single = next(x for x in range(52) if t.racks[other][x] == 1 and not t.racks[holder][x])
        t.racks[holder][c] -= 1
        t.racks[holder][single] += 1
        t.racks[other][single] -= 1
        t.racks[other][c] += 1
    t.invalidate_legal()
    assert not _doubles(t, holder) and _doubles(s, holder)
    assert [len(_doubles(s, q)) > 0 for q in range(s.n)] != [
        len(_doubles(t, q)) > 0 for q in range(t.n)
    ]
    a, b = _seen(s), _seen(t)
    for q in range(s.n):
        assert [x[:2] for x in a[q]] == [x[:2] for x in b[q]], q


def _position(racks: list[str], starter_queue: list[int]) -> Any:
    """The 4-seat exchange with hand-made racks: seat 0 asked to announce, ``starter_queue``
    the seats still to be asked (tile conservation is not the point)."""
    s = new_game("remi", 0)
    s.racks = [[0] * 53 for _ in range(4)]
    for q, r in enumerate(racks):
        for c in parse_tiles(r):
            s.racks[q][int(c)] += 1
    s.sizes = [sum(r) for r in s.racks]
    s.current = 0
    s.phase = Phase.EXCHANGE
    s.x.ex_queue = list(starter_queue)
    s.invalidate_legal()
    return s


def legal(s: Any) -> list[str]:
    return [str(a) for a in s.legal_actions()]


def test_a_seat_without_a_double_may_only_decline_and_is_told_why() -> None:
    s = _position(["R12 R12 R5", "Y3 B4 K5", "K4 K4 B9", "Y1 Y1 R2"], [1, 2, 3])
    s.apply("announce R12")
    assert s.current == 1 and legal(s) == ["decline"]  # no double at all
    before = s.copy()
    with pytest.raises(
        IllegalAction,
        match=r"no big \(10-13 and 1\) double .*only action is "
        r"'decline'.*RO-3",
    ):
        s.apply("accept Y3")
    assert s == before
    s.apply("decline")
    assert s.current == 2 and legal(s) == ["decline"]  # K4 K4 is small, R12 R12 big
    s.apply("decline")
    assert s.current == 3 and legal(s) == ["accept Y1", "decline"]
    s.apply("decline")
    assert s.current == 1 and legal(s) == ["decline"]  # asked to announce, no double
    with pytest.raises(IllegalAction, match=r"holds no double .*only action is 'decline'"):
        s.apply("announce Y3")


def test_the_swap_goes_to_the_first_seat_in_order_that_accepts() -> None:
    """Seat 1 has no big double and is asked all the same; seat 2 declines; seat 3 accepts: the
    announced double is swapped with seat 3, once, and the asking goes on with seat 1."""
    s = _position(["R12 R12 R5", "Y3 B4 K5", "B10 B10 K9", "Y1 Y1 R2"], [1, 2, 3])
    s.apply("announce R12")
    assert [s.current, legal(s)] == [1, ["decline"]]
    s.apply("decline")
    assert [s.current, legal(s)] == [2, ["accept B10", "decline"]]
    s.apply("decline")
    s.apply("accept Y1")
    r12, y1 = (int(parse_tiles(t)[0]) for t in ("R12", "Y1"))
    assert s.racks[0][y1] == 2 and s.racks[0][r12] == 0
    assert s.racks[3][r12] == 2 and s.racks[3][y1] == 0
    obs = s.observation(1)
    assert obs["doubles_log"] == [[0, "big", 3]] and "R12" not in str(obs["exchange"])
    assert s.current == 1 and s.phase is Phase.EXCHANGE and legal(s) == ["decline"]


def test_the_option_off_skips_the_exchange() -> None:
    s = new_game("remi(doubles=off)", 2)
    assert s.phase is Phase.PLAY and s.current == s.starter


# ---- records ------------------------------------------------------------------------------------

# A record `rummy101 sim --rules remi --bots greedy,random,greedy,random --seed 5 --record full`
# wrote before the change (its first seven actions): seat 0 announced, seat 1 accepted, seat 1
# declined to announce, seat 2 announced a big double that nobody could take (no seat was asked),
# and play began.
OLD = {
    "format": "rummy101-game/1",
    "rules": "remi",
    "seed": 2131027823462252432,
    "actions": [
        "announce Y2",
        "accept K5",
        "decline",
        "announce R1",
        "discard K10",
        "draw",
        "discard R10",
    ],
}


def test_a_format_1_record_replays_with_the_declines_it_omits() -> None:
    s = records.from_dict(OLD)
    assert [str(a) for a in s.history] == [
        "announce Y2",
        "accept K5",
        "decline",
        "announce R1",
        *["decline"] * 3,  # seats 3, 0, 1: no big double to swap
        "decline",  # seat 3: no double to announce
        "discard K10",
        "draw",
        "discard R10",
    ]
    # the same game played now, every step given
    t = new_game("remi", OLD["seed"])
    for a in s.history:
        t.apply(a)
    assert t == s
    rec = records.to_dict(s)
    assert rec["format"] == records.FORMAT == "rummy101-game/2"
    assert records.loads(records.dumps(s)) == s


def test_a_format_2_record_must_hold_every_decline() -> None:
    with pytest.raises(
        IllegalAction,
        match=r"game record action 4 \('discard K10'\) does not "
        r"replay: .*RO-3",
    ):
        records.from_dict({**OLD, "format": "rummy101-game/2"})
    with pytest.raises(NotationError, match="accepted: 'rummy101-game/1', 'rummy101-game/2'"):
        records.from_dict({**OLD, "format": "rummy101-game/3"})


def test_other_variants_replay_alike_in_both_formats() -> None:
    s = new_game("rummy101(players=2)", 11)
    for _ in range(6):
        s.apply(s.legal_actions()[-1])
    rec = records.to_dict(s)
    assert records.from_dict({**rec, "format": "rummy101-game/1"}) == s

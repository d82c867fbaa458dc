"""Rules audit qa7: what the earlier audits (tests/test_audit_*.py) check one position at a time,
checked here over whole matches and on hand-made positions they do not reach.

* Classic (CR-1..CR-6): every step of random matches (2-4 players, both CR-4 readings) against an
  independent model of the rules kept beside the engine: the deal and the rotating starter, the
  take phase's choices, where each card goes, lay-offs only after an own meld this round, the
  turnover of the discard pile and the drawn round, the winner's score and the end at 200.
* CR-5 corners: going out on the last card of either stock is a win, not a turnover or a draw.
* Rummy 101 (R101-4/8/9/10/13/14): the native greedy round (cpp/src/round101.cpp) against the
  Python flow from hand-made positions at a turn boundary: pairs openers, jokers in pairs and
  sets, button jokers beyond the two of the set, high increasing thresholds, a short stock.
* Remi (RO-11, RO-12): a tabla close scored with everything that multiplies or adds to it.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from audit_helpers import games_to_play, legal, play
from rummy101 import available_backends, using_backend
from rummy101.game import Phase, new_game
from test_audit_classic import pos as classic_pos
from test_audit_h5 import _classic_expected
from test_audit_remi import pos as remi_pos

# ---- classic: whole matches against an independent model ------------------------------------


def _value(c: int) -> int:
    return min(c % 13 + 1, 10)  # CR-2: ace 1, J Q K 10, others face value


class _Model:
    """The public and hidden state of a classic round as the rules describe it."""

    def __init__(self, s: Any) -> None:
        n = s.n
        self.hands = [{c for c in range(52) if s.racks[q][c]} for q in range(n)]
        self.stock = list(s.stock)
        self.pile = list(s.x.pile)
        self.table: list[list[int]] = []
        self.melded = [False] * n
        self.current = s.current
        self.turnovers = 0
        self.taken = -1


def _check_round_start(s: Any, m: _Model, rnd: int) -> None:
    """CR-1: seat ``round % players`` starts (the dealer before it); 7 cards each, one card up,
    the rest the stock; nobody has melded (CR-3 counts melds of this round); all 52 cards."""
    n = s.n
    assert s.round == rnd and m.current == rnd % n and s.current_player == rnd % n
    assert [len(h) for h in m.hands] == [7] * n and len(m.pile) == 1
    assert len(m.stock) == 52 - 7 * n - 1
    assert sorted([c for h in m.hands for c in h] + m.stock + m.pile) == list(range(52))
    assert s.x.melded == [False] * n and s.table == [] and s.x.turnovers == 0
    assert s.observation(0)["dealer"] == (rnd - 1) % n


def _play_match(rules: str, seed: int) -> set[str]:
    s = new_game(rules, seed)
    rng = random.Random(f"qa7-classic-{rules}-{seed}")
    n = s.n
    broad = s.rules.opts.go_out == "broad"
    totals = [0] * n
    seen: set[str] = set()
    m = _Model(s)
    _check_round_start(s, m, 0)
    for _step in range(100_000):
        if s.is_terminal:
            break
        p = m.current
        acts = s.legal_actions()
        if s.phase is Phase.TAKE:  # CR-3: the stock's top or the pile's top (CR-5: if any)
            assert sorted(map(str, acts)) == sorted((["draw"] if m.stock else [])
                                                    + (["take"] if m.pile else []))
        else:
            assert {str(a) for a in acts} == _classic_expected(s, broad)
        plays = [a for a in acts if a.verb in ("run", "set", "add")]
        a = rng.choice(plays) if plays and rng.random() < 0.7 else rng.choice(acts)
        results = len(s.round_results())
        s.apply(a)
        hand = m.hands[p]
        out = None
        if a.verb == "draw":
            hand.add(m.stock.pop())
        elif a.verb == "take":
            m.taken = m.pile.pop()
            hand.add(m.taken)
        elif a.verb in ("run", "set"):
            cs = [int(c) for c in a.tiles]
            hand.difference_update(cs)
            m.table.append(sorted(cs))
            m.melded[p] = True
            out = p if not hand else None
        elif a.verb == "add":
            assert m.melded[p]  # CR-3: a lay-off needs an own meld this round
            c = int(a.tiles[0])
            hand.remove(c)
            m.table[a.meld] = sorted(m.table[a.meld] + [c])
            out = p if not hand else None
        else:  # discard
            c = int(a.tiles[0])
            assert c != m.taken  # CR-3
            hand.remove(c)
            m.pile.append(c)
            if not hand:
                out = p
            else:
                if not m.stock:  # CR-5: the drawer of the last card did not go out
                    if m.turnovers:
                        out = -1
                    else:
                        m.stock, m.pile, m.turnovers = m.pile[::-1], [], 1
                if out is None:
                    m.current, m.taken = (p + 1) % n, -1
        if out is None:
            assert len(s.round_results()) == results
            assert [{c for c in range(52) if s.racks[q][c]} for q in range(n)] == m.hands
            assert (s.stock, s.x.pile, s.x.melded, s.current, s.x.turnovers) == (
                m.stock, m.pile, m.melded, m.current, m.turnovers)
            assert [sorted(t.cards) for t in s.table] == m.table
            continue
        # CR-4/CR-5/CR-6: the round is over: only the winner scores the other hands
        r = s.round_results()[-1]
        assert len(s.round_results()) == results + 1
        want = [0] * n
        if out >= 0:
            want[out] = sum(_value(c) for h in m.hands for c in h)
            seen.add(r["out"])
        else:
            seen.add("drawn")
        assert (r["winner"], r["scores"], r["turnovers"]) == (None if out < 0 else out, want,
                                                             m.turnovers)
        totals = [t + d for t, d in zip(totals, want, strict=True)]
        assert s.standings() == totals
        assert s.is_terminal == (max(totals) >= 200)  # CR-6: the first to reach 200
        if s.is_terminal:
            break
        m = _Model(s)
        _check_round_start(s, m, len(s.round_results()))
    assert s.is_terminal
    return seen


@pytest.mark.parametrize("rules", ["classic", "classic(players=2)",
                                   "classic(players=3,go_out=narrow)",
                                   "classic(players=2,go_out=narrow)"])
def test_cr1_to_cr6_matches_follow_an_independent_model(rules: str) -> None:
    """CR-1..CR-6 over whole matches to 200 (random plays, melds and lay-offs preferred): the
    engine's legal choices and every card's move agree with the model at every step; rounds end,
    score and rotate as the rules say."""
    seen: set[str] = set()
    for seed in range(games_to_play(4)):
        seen |= _play_match(rules, seed)
    assert seen & {"meld", "lay_off", "discard"}


@pytest.mark.backend_free
def test_cr5_last_card_of_the_first_stock_then_going_out_by_a_meld_wins() -> None:
    """CR-4/CR-5: the player who draws the last stock card and melds the whole hand goes out: a
    win with no turnover (the turnover happens only when that player ends the turn in play)."""
    s = classic_pos(hands=["5S 6S", "KD QC"], stock="7S", pile="2H 9D")
    play(s, "draw", "run 5S 6S 7S")
    r = s.round_results()[0]
    assert (r["end"], r["winner"], r["out"], r["turnovers"]) == ("finish", 0, "meld", 0)
    assert s.round_scores() == [[20, 0]]


@pytest.mark.backend_free
def test_cr5_last_card_of_the_second_stock_then_a_lay_off_wins() -> None:
    """CR-5: the second stock's last card is drawn and laid off with the hand's last card: the
    player goes out (CR-4 broad), so the round is won, not drawn."""
    s = classic_pos(hands=["8S", "KD AC"], stock="9S", pile="2H", turnovers=1,
                    melded=[True, False], table=[("run", 1, "5S 6S 7S")])
    play(s, "draw", "add 8S to 0@end", "add 9S to 0@end")
    r = s.round_results()[0]
    assert (r["end"], r["winner"], r["out"], r["turnovers"]) == ("finish", 0, "lay_off", 1)
    assert s.round_scores() == [[11, 0]]


@pytest.mark.backend_free
def test_cr5_narrow_last_card_of_the_second_stock_is_discarded_to_go_out() -> None:
    """CR-4 narrow with CR-5: the hand may not be emptied by laying off the second stock's last
    card; discarding it goes out (a win); a hand that keeps a card after the discard draws."""
    s = classic_pos("classic(players=2,go_out=narrow)", hands=["8S", "KD AC"], stock="9S",
                    pile="2H", turnovers=1, melded=[True, False], table=[("run", 1, "5S 6S 7S")])
    play(s, "draw", "add 8S to 0@end")
    assert legal(s) == {"discard 9S"}
    play(s, "discard 9S")
    r = s.round_results()[0]
    assert (r["end"], r["winner"], r["out"]) == ("finish", 0, "discard")
    assert s.round_scores() == [[11, 0]]
    s = classic_pos("classic(players=2,go_out=narrow)", hands=["8S KH", "KD AC"], stock="9S",
                    pile="2H", turnovers=1, melded=[True, False], table=[("run", 1, "5S 6S 7S")])
    play(s, "draw", "add 8S to 0@end", "discard 9S")
    r = s.round_results()[0]
    assert (r["end"], r["winner"], r["scores"]) == ("exhausted", None, [0, 0])


# ---- Rummy 101: the native greedy round against the Python flow from hand-made positions ------

J = 52


def _r101_position(rng: random.Random, rules: str) -> Any:
    """A turn-boundary position built by hand: random openings (none, melds, pairs), table runs,
    sets and pairs with jokers owned by opened seats, racks of 1-21 tiles (a button joker beyond
    the set's two where the option is on), a short stock, a last discard, high thresholds."""
    from rummy101.game.table import PAIR, RUN, SET, TableMeld

    s = new_game(rules, rng.randrange(10**6))
    n = s.n
    pool = [c for c in range(52) for _ in range(2)] + [J, J]
    rng.shuffle(pool)
    opened = [rng.choice([0, 1, 1, 2]) for _ in range(n)]
    table = []
    for _ in range(rng.randint(0, 6)):
        owner = rng.randrange(n)
        if not opened[owner]:
            continue
        u = rng.random()
        if opened[owner] == 2 or u < 0.2:
            c = rng.randrange(52)
            t = [c, c] if rng.random() < 0.7 else [c, J]
            kind = PAIR
        elif u < 0.6:
            col, st = rng.randrange(4), rng.randint(1, 11)
            t = [col * 13 + st - 1 + i for i in range(rng.randint(3, min(6, 14 - st)))]
            kind = RUN
        else:
            num = rng.randrange(13)
            t = [k * 13 + num for k in rng.sample(range(4), rng.randint(3, 4))]
            kind = SET
        if kind != PAIR and rng.random() < 0.4:
            t[rng.randrange(len(t))] = J
        if any(pool.count(x) < t.count(x) for x in t):
            continue
        for x in t:
            pool.remove(x)
        table.append(TableMeld.build(kind, owner, tuple(t)))
    racks = []
    for _ in range(n):
        r = [0] * 53
        for _k in range(rng.randint(1, 21)):
            r[pool.pop()] += 1
        if s.rules.opts.button_jokers and rng.random() < 0.3:
            r[J] += 1
        racks.append(r)
    s.racks, s.sizes, s.table = racks, [sum(r) for r in racks], table
    s.stock = [pool.pop() for _ in range(rng.randint(1, min(30, len(pool) - 1)))]
    s.current, s.turn, s.phase = rng.randrange(n), 7, Phase.TAKE
    x = s.x
    x.took, x.taken, x.taken_base, x.staged_from, x.staged_kind, x.snap = "", -1, 0, -1, 0, None
    x.turn_table_start = len(table)
    x.opened, x.opened_turn = opened, [3 if o else -1 for o in opened]
    x.discards, x.last_discard = [[] for _ in range(n)], -1
    if pool and rng.random() < 0.8:
        x.last_discard = pool.pop()
        x.discards[(s.current - 1) % n].append(x.last_discard)
    if s.rules.opts.threshold == "increasing":
        x.thr_melds, x.thr_pairs = rng.choice([101, 117, 140]), rng.choice([5, 6, 7])
    if s.rules.opts.button_jokers:
        x.button_left = [rng.randint(0, s.rules.opts.button_jokers) for _ in range(n)]
        x.button_used = [rng.random() < 0.3 for _ in range(n)]
    s.history = []
    s.invalidate_legal()
    return s


@pytest.mark.skipif("native" not in available_backends(), reason="the native core is not built")
def test_r101_native_round_agrees_with_the_python_flow_on_hand_made_positions(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """R101-4/8/9/10/13/14 through the C++ round simulator (sim/native_round.py): from 150
    hand-made positions the native greedy round plays the same actions as the Python engine with
    greedy bots, and the round scores the same (pairs openers doubled, jokers on the rack 101,
    unopened 202, exhausted stocks)."""
    from rummy101.bots import native_greedy
    from test_native_round import compare

    monkeypatch.delenv(native_greedy.ENV_VAR, raising=False)
    rng = random.Random("qa7-native")
    sets = ("rummy101(players=2)", "rummy101(players=3,threshold=increasing)",
            "rummy101(players=2,threshold=increasing,button_jokers=2)", "rummy101(button_jokers=1)")
    steps = 0
    with using_backend("native"):
        for i in range(150):
            rules = sets[i % len(sets)]
            s = _r101_position(rng, rules)
            assert native_greedy.at_turn_boundary(s)
            steps += compare(s, f"{rules} hand-made position {i}")
    assert steps > 1000


# ---- Remi: a tabla close with everything that changes its score -------------------------------

def test_ro11_ro12_mozaic_close_with_a_joly_discard_in_an_atu_1_game() -> None:
    """RO-11/RO-12: a Mozaic (800) closed by discarding a Joly (x2) in a game whose Atu is a 1
    (x2 for everyone): 3200 for the closer; a laid-down player's laid tiles minus rack, plus the
    twin's flat 50, doubled; another tabla player who did not close -200, doubled."""
    s = remi_pos("remi(doubles=off,players=3)",
                 racks=["R1 Y2 B3 K4 R5 Y6 B7 K8 R9 Y10 B11 K12 R13 Y1 *", "R7 R8 R9 K5", "B2 B3"],
                 current=0, phase="play", laid=[False, True, False], tabla=[True, False, True],
                 atu="K1", twin=1, table=[("run", 1, "Y3 Y4 Y5")])
    play(s, "close", "discard *")
    r = s.round_results()[0]
    assert (r["pattern"], r["joker_finish"], r["atu_double"]) == ("mozaic", True, True)
    assert s.round_scores() == [[800 * 2 * 2, (15 - 20 + 50) * 2, -200 * 2]]


def test_ro11_bicolor_close_by_a_twin_holder_adds_the_flat_50() -> None:
    """RO-11/RO-12: a Bicolor close (1600) by the player who held the Atu's twin: 1600 + 50; a
    player who never laid down -100."""
    s = remi_pos("remi(doubles=off,players=2)",
                 racks=["R1 Y2 R3 Y4 R5 Y6 R7 Y8 R9 Y10 R11 Y12 R13 Y1 B5", "K2 K3"],
                 current=0, phase="play", tabla=[True, False], atu="K9", twin=0)
    assert "close" in legal(s)
    play(s, "close")
    assert legal(s) == {"discard B5", "reset"}      # the only closing discard
    play(s, "discard B5")
    assert s.round_results()[0]["pattern"] == "bicolor"
    assert s.round_scores() == [[1600 + 50, -100]]


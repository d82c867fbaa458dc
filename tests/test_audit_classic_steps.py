"""Rules audit: the classic card Rummy engine at every step of seeded matches, against an
outsider's model written from RULES.md CR-1..CR-6, seed 002 and CONTRACT.md's notation
(tests/classic_model.py).

At each step the engine's legal set, verb by verb (``draw``, ``take``, ``run``, ``set``, ``add``,
``discard``; no other verb), must equal the model's; the engine's public state (every hand, the
pile, the stock count, the table, who has melded, the turn state, the turnovers) must equal the
one the model keeps by playing the same actions itself; after a turnover (CR-5) the model knows
the stock's order and checks every card drawn; each round's end (who went out and how, or the
drawn round), its scores (CR-6) and the match's totals and end at the target must equal the
model's; the near misses the model refuses at a step (a run round the king, an ace after a
king, a lay-off before one's own meld, a play emptying the hand under ``narrow``, a play leaving
the taken card alone, the taken card's discard, ``take`` from the empty turned-over pile, a
second draw) must be refused by ``apply`` naming that rule, the state unchanged; each deal must
give 7 cards a seat, one up-card and the rest to the stock, the starter
``round % players`` (CR-1). Matches are played with 2, 3 and 4 players, ``go_out=broad`` and
``narrow``, a lower ``target``, by three drivers: seeded random choice among the legal actions,
moves biased to meld and lay off (so going out is common), and the greedy bot.

Hand-made positions add what the games rarely reach: Q-K-A and K-A-2 (CR-2), sets of four,
lay-offs at both ends of a run and onto another player's melds, going out by the last lay-off
with no discard (broad) or not (narrow), the seed's Q♣ Q♠ + Q♥ case (also with Q♥ taken from the
pile), an empty stock turned over and the second exhaustion, going out on the second stock's last
card, a card taken from the pile and melded but not discarded (CR-3); and random positions (short
hands against tables of runs and sets, the taken card in the hand or played) cover the going-out
readings the games meet seldom.

The engine and the model agreed everywhere (fast and slow runs): no disagreement was found.

It can fail: each of these planted engine faults, one at a time, failed the fast tests (the
engine was then restored):

1. an ace laid off after a king, i.e. Q-K-A (``table.py``, run ``adds``; CR-2);
2. a king refused at the far end of a run ending in a queen (off by one in ``adds``; CR-3);
3. ``take`` offered only when the pile holds two cards or more (the up-card never taken; CR-3);
4. the winner scoring only the largest opponent hand instead of all of them (CR-6);
5. the pile turned over with its top card on top of the new stock (CR-5: no shuffling, the
   bottom card comes first);
6. the card taken from the pile offered as a discard in the same turn (CR-3);
7. lay-offs offered before the player's own first meld whenever the table has melds (CR-3);
8. ``go_out=narrow`` letting a lay-off empty the hand (CR-4);
9. a second turnover instead of the drawn round at the second exhaustion (CR-5);
10. a play leaving the taken card alone allowed even when it cannot be laid off (docs/rules.md);
11. ``apply`` accepting ``run QD KD AD`` (a run round the king) that the legal set never lists
    (CR-2);
12. ``apply`` accepting the discard of the card just taken, the legal set still right (CR-3).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from audit_helpers import games_to_play, legal_by_verb
from classic_model import (
    VERBS,
    Round,
    Turn,
    expected,
    hand_value,
    is_run,
    is_set,
    lay_offs,
    new_melds,
    value,
)
from rummy101 import IllegalAction
from rummy101.bots import get_bot
from rummy101.game import new_game

ALL = {f"{r}{s}" for r in ["A", *map(str, range(2, 11)), "J", "Q", "K"] for s in "SHDC"}


def _deal(s: Any, where: str) -> Round:
    """CR-1: a new deal as every seat sees it, checked, and the model's round started on it."""
    n = s.n
    obs = [s.observation(q) for q in range(n)]
    o = obs[0]
    hands = [list(x["rack"]) for x in obs]
    assert [len(h) for h in hands] == [7] * n, where
    assert len(o["discard_pile"]) == 1 and o["stock"] == 52 - 7 * n - 1, where
    seen = [c for h in hands for c in h] + o["discard_pile"]
    assert len(set(seen)) == len(seen) and set(seen) <= ALL, where
    starter = o["round"] % n  # CR-1: the deal and the start rotate (docs/rules.md)
    assert o["current_player"] == starter and o["starter"] == starter, where
    assert o["dealer"] == (starter - 1) % n and o["stock_turnovers"] == 0, where
    return Round(
        n=n,
        go_out=s.rules.opts.go_out,
        hands=hands,
        pile=list(o["discard_pile"]),
        stock=o["stock"],
        current=starter,
    )


def _same_state(s: Any, m: Round, where: str) -> None:
    """The engine's public state is the model's."""
    p = m.current
    for q in range(s.n):
        assert Counter(s.observation(q)["rack"]) == Counter(m.hands[q]), f"seat {q}; {where}"
    o = s.observation(p)
    assert o["current_player"] == p, where
    assert o["rack_sizes"] == [len(h) for h in m.hands], where
    assert o["discard_pile"] == m.pile and o["stock"] == m.stock, where
    assert o["stock_turnovers"] == m.turnovers, where
    assert o["melded"] == m.melded, where
    table = [(t["id"], t["owner"], t["kind"], t["tiles"], t["value"]) for t in o["table"]]
    model = [(t["id"], t["owner"], t["kind"], t["tiles"], hand_value(t["tiles"])) for t in m.table]
    assert table == model, f"table {table} model {model}; {where}"
    ts = o["turn_state"]
    if m.turn.took:
        assert ts["took"] == m.turn.took and ts["taken"] == m.turn.taken, where
        assert ts["start_size"] == m.turn.start_size, where


def _refused(s: Any, text: str, rule: str, where: str) -> None:
    """A near miss the model refuses: the engine refuses it too, naming the rule, unchanged."""
    before = s.copy()
    with pytest.raises(IllegalAction, match=rule):
        s.apply(text)
    assert s == before, f"{text!r} refused but the state changed; {where}"


def _choose(rng: random.Random, drive: str, obs: dict, acts: list[Any], bot: Any) -> Any:
    if drive == "random":
        return rng.choice(acts)
    if drive == "greedy":
        return bot.act(obs, acts) if rng.random() < 0.9 else rng.choice(acts)
    # "meld": lay down and lay off whenever possible; take a pile card that melds
    by = {str(a): a for a in acts}
    plays = [a for a in acts if a.verb in ("run", "set", "add")]
    if plays and rng.random() < 0.95:
        return rng.choice(plays)
    if "take" in by and obs["discard_pile"]:
        top = obs["discard_pile"][-1]
        p = obs["current_player"]
        useful = any(top in cards for _, cards in new_melds([*obs["rack"], top]).values()) or (
            obs["melded"][p] and lay_offs(top, obs["table"])
        )
        if useful or rng.random() < 0.1:
            return by["take"]
    if "draw" in by:
        return by["draw"]
    discards = [a for a in acts if a.verb == "discard"]
    if rng.random() < 0.7:
        return max(discards, key=lambda a: (value(str(a.tiles[0])), str(a)))
    return rng.choice(discards)


def _play(rules_text: str, seed: int, drive: str, rounds: int) -> Counter[str]:
    """One seeded match (at most ``rounds`` rounds), checked at every step against the model."""
    s = new_game(rules_text, seed, match_rounds=rounds)
    n = s.n
    target = s.rules.opts.target
    rng = random.Random(f"classic-steps:{rules_text}:{seed}:{drive}")
    bots = [get_bot("greedy", random.Random(rng.random())) for _ in range(n)]
    seen: Counter[str] = Counter()
    totals = [0] * n
    m = _deal(s, f"{rules_text} seed {seed} round 0")
    for step in range(50_000):
        p = m.current
        obs = s.observation(p)
        where = (
            f"{rules_text} seed {seed} {drive} step {step} round {obs['round']} seat {p} "
            f"phase {obs['phase']}: hand {obs['rack']} pile {obs['discard_pile'][-3:]} stock "
            f"{obs['stock']} table {[t['tiles'] for t in obs['table']]} melded {obs['melded']} "
            f"turn {m.turn}"
        )
        _same_state(s, m, where)
        legal, by_verb = legal_by_verb(s)
        assert set(by_verb) <= set(VERBS), f"verbs {sorted(by_verb)}; {where}"
        why: dict[str, str] = {}
        exp = m.expected(seen, why)
        assert exp == expected(obs, m.turn, m.go_out), where  # the engine's view, the same
        for verb in VERBS:
            got = by_verb.get(verb, set())
            assert got == exp[verb], (
                f"{verb}: engine {sorted(got)} model {sorted(exp[verb])}; {where}"
            )
            seen[verb] += bool(got)
        rare = sorted(t for t, rule in why.items() if rule in ("CR-2", "CR-4", "CR-5"))
        for text in rare or rng.sample(sorted(why), min(1, len(why), step % 4 == 0)):
            _refused(s, text, why[text], where)  # the near misses apply refuses, too
            seen["refused " + why[text]] += 1
        a = _choose(rng, drive, obs, list(legal.values()), bots[p])
        text = str(a)
        before = Counter(obs["rack"])
        results = len(s.round_results())
        s.apply(a)
        drawn = None
        if a.verb == "draw":
            (drawn,) = (Counter(s.observation(p)["rack"]) - before).elements()
            seen["known draw"] += m.known_stock is not None
        m.apply(text, drawn)
        if m.end is None:
            assert len(s.round_results()) == results, f"round ended, model goes on; {where}"
            continue
        # ---- the round is over (CR-4, CR-5, CR-6) ----
        assert len(s.round_results()) == results + 1, f"model ended the round; {where}"
        r = s.round_results()[-1]
        want = m.scores()
        if m.end == "out":
            assert r["end"] == "finish" and r["winner"] == m.winner == p, (r, where)
            assert r["out"] == m.out_by, (r, m.out_by, where)
            seen["out " + m.out_by] += 1
        else:
            assert r["end"] == "exhausted" and r["winner"] is None, (r, where)
            seen["exhausted"] += 1
        assert r["scores"] == want, f"scores {r['scores']} model {want}; {where}"
        assert r["penalties"] == [hand_value(h) for h in m.hands], (r, where)
        assert r["turnovers"] == m.turnovers, (r, where)
        seen["turnover"] += m.turnovers
        totals = [t + w for t, w in zip(totals, want, strict=True)]
        assert s.standings() == totals, where
        over = max(totals) >= target or len(s.round_results()) == rounds  # CR-6
        assert s.is_terminal == over, f"terminal {s.is_terminal} totals {totals}; {where}"
        if over:
            seen["target"] += max(totals) >= target
            return seen
        m = _deal(s, f"{rules_text} seed {seed} round {len(s.round_results())}")
    raise AssertionError(f"{rules_text} seed {seed}: no end")


CASES = [
    ("classic", "random", 3),
    ("classic", "meld", 30),
    ("classic", "greedy", 30),
    ("classic(players=2)", "random", 3),
    ("classic(players=2)", "meld", 30),
    ("classic(players=3,target=100)", "greedy", 30),
    ("classic(players=3)", "meld", 30),
    ("classic(go_out=narrow)", "meld", 30),
    ("classic(players=2,go_out=narrow)", "random", 3),
    ("classic(players=2,go_out=narrow,target=60)", "greedy", 30),
    ("classic(players=3,go_out=narrow)", "random", 3),
]


@pytest.mark.parametrize(("rules", "drive", "rounds"), CASES)
def test_steps_match_the_model(rules: str, drive: str, rounds: int) -> None:
    seen: Counter[str] = Counter()
    for seed in range(games_to_play(6)):
        seen += _play(rules, seed, drive, rounds)
    assert seen["discard"] and seen["draw"] and seen["take"], seen
    if drive != "random":
        assert seen["run"] + seen["set"] and seen["add"] and seen["target"], seen


def test_the_drives_reach_every_ending() -> None:
    """Together the fast matches go out every way (by a discard, a meld, a lay-off), turn the
    stock over and draw from the turned stock, and draw a round (CR-4, CR-5)."""
    seen: Counter[str] = Counter()
    for rules, drive, rounds in CASES[:6]:
        for seed in range(2):
            seen += _play(rules, seed, drive, rounds)
    for kind in ("out discard", "out meld", "out lay_off", "turnover", "known draw", "exhausted"):
        assert seen[kind], (kind, seen)
    for kind in ("broad out by run", "broad out by set", "broad out by add"):
        assert seen[kind], (kind, seen)
    for kind in ("refused CR-2", "refused CR-3", "refused CR-5"):
        assert seen[kind], (kind, seen)


def test_the_narrow_reading_is_met() -> None:
    """CR-4 ``narrow``: the fast matches meet lay-offs and melds refused because they would empty
    the hand, plays refused because they would leave the taken card alone, and the seed's case."""
    seen: Counter[str] = Counter()
    for rules, drive, rounds in CASES[7:]:
        for seed in range(4):
            seen += _play(rules, seed, drive, rounds)
    for kind in ("narrow out by add refused", "narrow taken card alone refused", "refused CR-4"):
        assert seen[kind], (kind, seen)
    assert seen["narrow out by run"] + seen["narrow out by set"], seen


@pytest.mark.slow
@pytest.mark.parametrize(("rules", "drive", "rounds"), CASES)
def test_steps_match_the_model_more_seeds(rules: str, drive: str, rounds: int) -> None:
    for seed in range(6, 40):
        _play(rules, seed, drive, rounds)


# ---- hand-made positions ------------------------------------------------------------------------


def _check(s: Any, turn: Turn) -> dict[str, set[str]]:
    """The position's legal set against the model, verb by verb; the legal set returned."""
    p = s.current_player
    obs = s.observation(p)
    _, by_verb = legal_by_verb(s)
    why: dict[str, str] = {}
    exp = expected(obs, turn, s.rules.opts.go_out, None, why)
    where = f"hand {obs['rack']} table {[t['tiles'] for t in obs['table']]} {turn}"
    for text, rule in why.items():
        _refused(s, text, rule, where)
    for verb in VERBS:
        got = by_verb.get(verb, set())
        assert got == exp[verb], f"{verb}: engine {sorted(got)} model {sorted(exp[verb])}; {where}"
    return {verb: by_verb.get(verb, set()) for verb in VERBS}


def _pos(rules: str = "classic(players=2)", **kw: Any) -> tuple[Any, Turn]:
    from test_audit_classic import pos

    s = pos(rules, **kw)
    phase = kw.get("phase", "take")
    taken = kw.get("taken")
    turn = Turn()
    if phase == "play":
        turn = Turn(
            took="take" if taken else "draw", taken=taken, start_size=s.sizes[s.current] - 1
        )
    return s, turn


@pytest.mark.backend_free
def test_model_melds_follow_the_rules() -> None:
    """CR-2 and CR-3 as the model reads them, on the rules' own examples."""
    assert (
        is_run(["AS", "2S", "3S"]) and is_run(["8S", "9S", "10S"]) and is_run(["9H", "10H", "JH"])
    )
    assert not is_run(["QD", "KD", "AD"]) and not is_run(["KD", "AD", "2D"])  # CR-2
    assert is_set(["QC", "QD", "QH"]) and is_set(["3C", "3S", "3H", "3D"])
    assert not is_set(["QC", "QD"]) and not is_run(["8S", "9H", "10S"])
    assert [value(c) for c in ("AS", "2D", "9D", "10H", "JC", "QS", "KD")] == [
        1,
        2,
        9,
        10,
        10,
        10,
        10,
    ]
    assert set(new_melds(["QD", "KD", "AD", "2D", "3D"])) == {"run AD 2D 3D"}
    table = [{"id": 0, "kind": "run", "tiles": ["9H", "10H", "JH"]}]
    assert set(lay_offs("8H", table)) == {"add 8H to 0@start"}  # the seed's lay-off example
    assert set(lay_offs("QH", table)) == {"add QH to 0@end"}


@pytest.mark.backend_free
def test_aces_are_low_only() -> None:
    """CR-2: no Q-K-A or K-A-2 run; A-2-3 is; an ace lays off only before a 2, nothing after K."""
    s, t = _pos(hands=["QD KD AD 2D 3D 9C", "5C"], phase="play")
    got = _check(s, t)
    assert got["run"] == {"run AD 2D 3D"}
    s, t = _pos(
        hands=["AS AH 2D KD 9C", "5C"],
        phase="play",
        melded=[True, False],
        table=[("run", 1, "JS QS KS"), ("run", 1, "2H 3H 4H"), ("run", 1, "10D JD QD")],
    )
    got = _check(s, t)
    assert got["add"] == {"add AH to 1@start", "add KD to 2@end"}


@pytest.mark.backend_free
def test_sets_of_four_and_lay_offs_at_both_ends() -> None:
    """CR-3: a set of four (any three of the four laid, the fourth laid off onto it); a run
    extended at its start and at its end, and a set completed, on another player's melds, once
    the player has a meld of their own (this turn counts)."""
    s, t = _pos(hands=["7S 7H 7D 7C 2C", "5C"], phase="play")
    got = _check(s, t)
    assert len(got["set"]) == 4 and not got["add"]
    s.apply("set 7S 7H 7D")
    assert _check(s, t)["add"] == {"add 7C to 0"}
    s.apply("add 7C to 0")
    assert s.observation(0)["table"][0]["tiles"] == ["7S", "7H", "7D", "7C"]
    s, t = _pos(
        hands=["5S 5H 5C 9H 4D 8D 2C", "KC"],
        phase="play",
        table=[("run", 1, "5D 6D 7D"), ("set", 1, "9S 9D 9C")],
        melded=[False, True],
    )
    got = _check(s, t)
    assert got["set"] == {"set 5S 5H 5C"} and not got["add"]  # CR-3: no own meld yet
    s.apply("set 5S 5H 5C")
    got = _check(s, t)
    assert got["add"] == {"add 4D to 0@start", "add 8D to 0@end", "add 9H to 1"}
    s.apply("add 4D to 0@start")
    s.apply("add 8D to 0@end")
    assert _check(s, t)["add"] == {"add 9H to 1"}
    assert s.observation(0)["table"][0]["tiles"] == ["4D", "5D", "6D", "7D", "8D"]


@pytest.mark.backend_free
def test_going_out_without_a_discard_broad_and_narrow() -> None:
    """CR-4: the last card laid off with no discard under ``broad``; under ``narrow`` only the
    seed's two cards + the drawn one laid as one meld, every other emptying play refused."""
    for mode, allowed in (("broad", True), ("narrow", False)):
        s, t = _pos(
            f"classic(players=2,go_out={mode})",
            hands=["8S 9S", "KD"],
            phase="play",
            melded=[True, False],
            table=[("run", 1, "5S 6S 7S")],
        )
        got = _check(s, t)
        assert ("add 8S to 0@end" in got["add"]) is True
        s.apply("add 8S to 0@end")
        got = _check(s, t)
        assert ("add 9S to 0@end" in got["add"]) is allowed
        assert got["discard"] == {"discard 9S"}
    for mode in ("broad", "narrow"):
        s, t = _pos(f"classic(players=2,go_out={mode})", hands=["QC QS QH", "2D 3D"], phase="play")
        assert _check(s, t)["set"] == {"set QS QH QC"}
        s.apply("set QS QH QC")
        assert s.round_results()[-1]["out"] == "meld"


@pytest.mark.backend_free
def test_a_taken_card_is_melded_not_discarded() -> None:
    """CR-3: the card taken from the pile may be melded the same turn, never discarded; the engine
    refuses a play that would leave it alone unless it can then be laid off (docs/rules.md)."""
    s, t = _pos(hands=["8H 10H 9H 2S", "5C"], phase="play", pile="9D", taken="9H")
    got = _check(s, t)
    assert "discard 9H" not in got["discard"] and "run 8H 9H 10H" in got["run"]
    # JD can then be laid off to go out (broad); 2D would be left alone with nowhere to go
    for card, runs in (("JD", {"run 4S 5S 6S"}), ("2D", set())):
        s, t = _pos(hands=[f"4S 5S 6S {card}", "5C"], phase="play", pile="9D", taken=card,
                    melded=[False, True], table=[("set", 1, "JS JH JC")])
        assert _check(s, t)["run"] == runs


@pytest.mark.backend_free
def test_empty_stock_turnover_and_the_second_exhaustion() -> None:
    """CR-5: the last stock card drawn and no one out: the pile turned over as the stock (its
    bottom card on top) and only ``draw`` next; the second time, the round is drawn."""
    s, _ = _pos(hands=["2S 9H 4D", "5C 6C 8D"], stock="KC", pile="3S 7D JH")
    m = Round(
        n=2,
        go_out="broad",
        hands=[["2S", "9H", "4D"], ["5C", "6C", "8D"]],
        pile=["3S", "7D", "JH"],
        stock=1,
        current=0,
    )
    assert {v for v, got in _check(s, Turn()).items() if got} == {"draw", "take"}
    s.apply("draw")
    m.apply("draw", "KC")
    s.apply("discard 9H")
    m.apply("discard 9H")
    assert m.known_stock == ["9H", "JH", "7D", "3S"] and m.turnovers == 1
    _same_state(s, m, "after the turnover")
    assert {v for v, got in _check(s, Turn()).items() if got} == {"draw"}
    s.apply("draw")
    m.apply("draw", "3S")
    assert Counter(s.observation(1)["rack"]) == Counter(m.hands[1])
    s2, _ = _pos(hands=["2S 9H 4D", "5C 6C 8D"], stock="KC", turnovers=1)
    s2.match_rounds = 2
    s2.apply("draw")
    s2.apply("discard 9H")
    r = s2.round_results()[0]
    assert r["end"] == "exhausted" and r["scores"] == [0, 0]


@pytest.mark.backend_free
def test_the_last_card_of_the_second_stock_may_still_go_out() -> None:
    """CR-5 with CR-4/CR-6: the player who draws the second stock's last card and goes out in
    that turn wins the round (docs/rules.md); the model scores it the same."""
    for how, plays in (("discard", ["run 5S 6S 7S", "discard 9H"]), ("meld", ["run 5S 6S 7S"])):
        hand = "5S 6S 9H" if how == "discard" else "5S 6S"
        s, _ = _pos(hands=[hand, "KD 2C"], stock="7S", turnovers=1)
        m = Round(
            n=2, go_out="broad", hands=[hand.split(), ["KD", "2C"]], pile=["9D"], stock=1, current=0
        )
        m.turnovers = 1
        for text in ["draw", *plays]:
            assert text in set().union(*_check(s, m.turn).values()), text
            s.apply(text)
            m.apply(text, "7S" if text == "draw" else None)
        r = s.round_results()[-1]
        assert m.end == "out" and r["end"] == "finish" and r["winner"] == 0, r
        assert r["out"] == m.out_by == how and r["scores"] == m.scores() == [12, 0]


@pytest.mark.backend_free
def test_a_pile_card_taken_at_two_cards_goes_out_narrow() -> None:
    """CR-4 ``narrow`` (docs/rules.md: the card drawn from the stock or the pile): Q♣ Q♠ held,
    Q♥ taken from the pile, the set laid goes out; Q♥ may not be discarded (CR-3)."""
    s, t = _pos(
        "classic(players=2,go_out=narrow)",
        hands=["QC QS QH", "2D 3D"],
        phase="play",
        pile="9D",
        taken="QH",
    )
    got = _check(s, t)
    assert got["set"] == {"set QS QH QC"} and got["discard"] == {"discard QC", "discard QS"}
    s.apply("set QS QH QC")
    assert s.round_results()[-1]["out"] == "meld"


# ---- random hand-made positions: short hands against busy tables ------------------------------

_DECK = sorted(ALL)


def _random_position(rng: random.Random) -> tuple[Any, Turn]:
    """A play-phase position the games reach rarely: a table of runs and sets (some ending at an
    ace or a king), a hand of one to eight cards, often holding cards that fit the table, the card
    taken from the pile in the hand or already played, plays made earlier in the turn."""
    from classic_model import card, suit

    free = set(_DECK)
    table: list[tuple[str, int, str]] = []
    for _ in range(rng.randint(0, 5)):
        if rng.random() < 0.5:
            s, k = rng.choice("SHDC"), rng.randint(3, 5)
            lo = rng.choice([1, 14 - k, rng.randint(1, 14 - k)])
            cards = [card(r, s) for r in range(lo, lo + k)]
            kind = "run"
        else:
            r = rng.randint(1, 13)
            cards = [card(r, s) for s in rng.sample("SHDC", rng.randint(3, 4))]
            cards.sort(key=lambda c: "SHDC".index(suit(c)))
            kind = "set"
        if set(cards) <= free:
            free -= set(cards)
            table.append((kind, rng.randrange(2), " ".join(cards)))
    as_obs = [{"id": k, "kind": kind, "tiles": t.split()} for k, (kind, _, t) in enumerate(table)]
    fits = sorted(c for c in free if lay_offs(c, as_obs))  # the cards that lay off somewhere
    size = rng.choice([1, 2, 2, 3, 4, 4, 5, 6, 8])  # mostly short: going out is near
    pool = sorted(free)
    hand: list[str] = []
    while len(hand) < size:
        c = rng.choice(fits if fits and rng.random() < 0.5 else pool)
        if c not in hand:
            hand.append(c)
    played = rng.choice([0, 0, 0, 1, 2, 3])  # cards laid earlier in this turn
    melded = bool(played) or rng.random() < 0.6
    taken = None
    if rng.random() < 0.5:  # taken from the pile: in the hand (often a card that fits) or played
        fitting = [c for c in hand if c in fits]
        if table and rng.random() < 0.2:
            taken = table[-1][2].split()[0]
        else:
            taken = rng.choice(fitting if fitting and rng.random() < 0.5 else hand)
    rules = f"classic(players=2,go_out={rng.choice(['broad', 'narrow'])})"
    s, turn = _pos(
        rules,
        hands=[" ".join(hand), "KD"],
        phase="play",
        table=table,
        melded=[melded, rng.random() < 0.5],
        taken=taken,
        pile="9D" if "9D" not in hand else "9S",
    )
    s.x.start_size = len(hand) - 1 + played
    s.invalidate_legal()
    turn.start_size = s.x.start_size
    return s, turn


@pytest.mark.backend_free
def test_random_positions_match_the_model() -> None:
    rng = random.Random("classic-steps-positions")
    seen: Counter[str] = Counter()
    for _ in range(600):
        s, turn = _random_position(rng)
        _check(s, turn)
        expected(s.observation(0), turn, s.rules.opts.go_out, seen)
    for kind in (
        "broad out by add",
        "narrow out by add refused",
        "broad taken card alone laid off",
        "broad taken card alone refused",
        "narrow taken card alone refused",
    ):
        assert seen[kind], (kind, seen)


@pytest.mark.slow
def test_random_positions_match_the_model_more() -> None:
    rng = random.Random("classic-steps-positions-more")
    for _ in range(20_000):
        _check(*_random_position(rng))

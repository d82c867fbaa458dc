"""Rule tests of the classic card Rummy engine: one or more per rule ID of RULES.md (CR-1 .. CR-6),
plus the game surface (legal ⇔ accepted, one action per move, observations, records)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from oracles import classic as oracle
from oracles import generic
from rummy101 import IllegalAction, Rules, RulesError
from rummy101.game import Action, Phase, new_game, random_playout
from rummy101.game.deal import deal_tiles
from rummy101.game.engines.classic import meld_actions
from rummy101.game.engines.classic.table import RUN, SET, CardMeld
from rummy101.game.records import dumps, loads
from rummy101.tiles import parse_cards

# never reaches the core (tests/conftest.py checks it): .ci/run's pure pass leaves it out
pytestmark = pytest.mark.backend_free


def codes(text: str) -> list[int]:
    return [int(c) for c in parse_cards(text)]


def hand(text: str) -> list[int]:
    cv = [0] * 53
    for c in codes(text):
        cv[c] += 1
    return cv


def position(rules: str = "classic(players=2)", *, hands: list[str], stock: str = "2C 3C 4C 5C",
             pile: str = "9D", table: list[tuple[str, int, str]] = (), melded: list[bool] | None = None,
             current: int = 0, phase: str = "take", taken: str | None = None,
             start_size: int | None = None, turnovers: int = 0) -> Any:
    """A hand-made position (card conservation is not the point here). ``stock`` and ``pile``
    are listed bottom first: the last card is the top."""
    s = new_game(rules, 0)
    s.racks = [hand(h) for h in hands]
    s.sizes = [sum(r) for r in s.racks]
    s.stock = codes(stock)
    s.x.pile = codes(pile)
    kinds = {"run": RUN, "set": SET}
    s.table = [CardMeld.build(kinds[k], o, tuple(codes(cs))) for k, o, cs in table]
    s.x.melded = melded or [False] * s.n
    s.current = current
    s.turn = 3
    s.phase = Phase(phase)
    s.x.took = "" if phase == "take" else ("take" if taken else "draw")
    s.x.taken = codes(taken)[0] if taken else -1
    s.x.start_size = (s.sizes[current] - (phase == "play")) if start_size is None else start_size
    s.x.turnovers = turnovers
    s._legal = None
    return s


def legal(s: Any) -> set[str]:
    return {str(a) for a in s.legal_actions()}


def refused(s: Any, action: str, rule: str) -> None:
    before = s.copy()
    with pytest.raises(IllegalAction, match=rule):
        s.apply(action)
    assert s == before
    assert action not in legal(s)


# ---- CR-1 setup -----------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4])
def test_cr1_deal(players: int) -> None:
    s = new_game(f"classic(players={players})", 11)
    assert s.sizes == [7] * players
    assert len(s.x.pile) == 1                          # the up-card starts the pile
    assert len(s.stock) == 52 - 7 * players - 1        # 23 with four players (seed 002)
    oracle.check_pieces(s)
    stock, _hands = deal_tiles(s.rules, 11, 0)
    assert s.x.pile == [stock[-1]]                     # the next card after the deal is turned up
    assert s.stock == stock[:-1]
    obs = s.observation(1)
    assert obs["stock"] == len(s.stock) and obs["rack_sizes"] == [7] * players   # public counts
    assert obs["discard_pile"] == [str(parse_cards([stock[-1]])[0])]
    assert s.phase is Phase.TAKE and s.current_player == 0 and obs["dealer"] == players - 1


def test_cr1_four_players_by_default_and_the_option() -> None:
    assert Rules.parse("classic").players == 4
    assert len(new_game("classic", 1).stock) == 23
    with pytest.raises(RulesError):
        new_game("classic(players=5)", 1)


def test_cr1_deal_is_a_function_of_the_seed() -> None:
    assert new_game("classic", 5) == new_game("classic", 5)
    assert new_game("classic", 5) != new_game("classic", 6)


def test_cr1_starter_and_dealer_rotate() -> None:
    s = position("classic(players=3)", hands=["QS QH", "KD", "2D"], stock="3H 4H QC")
    s.apply("draw")
    s.apply("set QS QH QC")                            # goes out: round 1 starts
    assert s.round == 1 and s.starter == 1 and s.current_player == 1
    assert s.observation(0)["dealer"] == 0 and s.phase is Phase.TAKE
    assert s.sizes == [7, 7, 7]


# ---- CR-2 values, aces low ------------------------------------------------------------------

def test_cr2_aces_low_no_wrap() -> None:
    s = position(hands=["AS 2S 3S QS KS 9H", "2D"], phase="play")
    assert "run AS 2S 3S" in legal(s)
    refused(s, "run QS KS AS", "CR-2")
    s2 = position(hands=["KS AS 2S 9H", "2D"], phase="play")
    refused(s2, "run KS AS 2S", "CR-2")


def test_cr2_lay_off_ace_only_low() -> None:
    s = position(hands=["AS 9H 4D", "2D"], phase="play", melded=[True, False],
                 table=[("run", 1, "2S 3S 4S"), ("run", 1, "JH QH KH")])
    assert "add AS to 0@start" in legal(s)
    refused(s, "add AH to 1@end", "CR-2")


def test_cr2_values_score() -> None:
    # seat 0 goes out; seat 1 holds A, 5, J, Q, K: 1 + 5 + 10 + 10 + 10
    s = position(hands=["QS QH", "AD 5D JD QD KD"], stock="3H QC")
    s.apply("draw")
    s.apply("set QS QH QC")
    assert s.round_scores() == [[36, 0]]


# ---- CR-3 turn ------------------------------------------------------------------------------

def test_cr3_draw_or_take() -> None:
    s = position(hands=["5S 9H", "2D"], stock="2C 3C", pile="8D 7C")
    assert legal(s) == {"draw", "take"}
    t = s.copy()
    t.apply("draw")
    assert sorted(map(int, t.rack(0))) == sorted(codes("5S 9H 3C"))
    assert t.stock == codes("2C")
    s.apply("take")
    assert sorted(map(int, s.rack(0))) == sorted(codes("5S 9H 7C")) and s.x.pile == codes("8D")
    refused(s, "draw", "CR-3")


def test_cr3_taken_card_not_discarded_this_turn() -> None:
    s = position(hands=["5S 9H", "2D 3D"], stock="2C 3C", pile="8D 7C")
    s.apply("take")
    refused(s, "discard 7C", "CR-3")
    assert legal(s) == {"discard 5S", "discard 9H"}
    s.apply("discard 5S")
    s.apply("draw")
    s.apply("discard 2D")
    s.apply("draw")                                   # a later turn: 7C may go
    assert "discard 7C" in legal(s)


def test_cr3_sets_and_runs() -> None:
    s = position(hands=["QS QH QD QC 4H 5H 6H 7H 2D", "2C"], phase="play")
    acts = legal(s)
    assert {"set QS QH QD", "set QS QH QC", "set QS QD QC", "set QH QD QC"} <= acts
    assert {"run 4H 5H 6H", "run 5H 6H 7H"} <= acts
    s.apply("set QS QH QD")
    s.apply("add QC to 0")                            # a set of four
    s.apply("run 5H 6H 7H")
    s.apply("add 4H to 1@start")
    assert [m.text() for m in s.table] == ["QS QH QD QC", "4H 5H 6H 7H"]
    assert s.observation(1)["table"][0] == {"id": 0, "owner": 0, "kind": "set",
                                            "tiles": ["QS", "QH", "QD", "QC"], "value": 40}
    refused(s, "run 2D 3D 4D", "not in the hand")


def test_cr3_lay_off_needs_own_meld_same_turn_counts() -> None:
    s = position(hands=["9H 5C 6C 7C 2D", "2S"], phase="play", table=[("run", 1, "6H 7H 8H")])
    refused(s, "add 9H to 0@end", "CR-3")
    s.apply("run 5C 6C 7C")                           # own meld this turn
    assert "add 9H to 0@end" in legal(s)              # onto the opponent's meld
    s.apply("add 9H to 0@end")
    assert s.table[0].text() == "6H 7H 8H 9H" and s.table[0].owner == 1


def test_cr3_lay_off_with_a_meld_from_an_earlier_turn() -> None:
    s = position(hands=["9H 2D", "2S"], phase="play", melded=[True, False],
                 table=[("run", 1, "6H 7H 8H")])
    assert "add 9H to 0@end" in legal(s)
    refused(s, "add 9H to 0", "@start or @end")
    refused(s, "add 9H to 0@start", "does not fit")


def test_cr3_melds_may_be_held_back() -> None:
    s = position(hands=["QS QH QD 2D", "2S"], phase="play")
    assert "discard 2D" in legal(s) and "discard QS" in legal(s)
    s.apply("discard 2D")
    assert s.table == [] and s.current_player == 1


def test_one_action_per_move_and_card_notation() -> None:
    s = position(hands=["5H 6H 7H QS QH QD 2D", "2S"], phase="play")
    refused(s, "run 7H 6H 5H", "write 'run 5H 6H 7H'")
    assert str(Action.parse("set QD QS QH", s.rules)) == "set QS QH QD"   # one text per set
    assert str(Action.parse("meld 5h 6h 7h", s.rules)) == "run 5H 6H 7H"
    with pytest.raises(IllegalAction, match="cards"):
        s.apply(Action.parse("discard R5"))       # a tile, not a card
    with pytest.raises(IllegalAction, match="not an action of classic"):
        s.apply("open")
    assert all(a.cards for a in s.legal_actions() if a.tiles)


@pytest.mark.parametrize(("action", "rule"), [
    ("discard 9C", "CR-3"),                   # not in the hand
    ("run 2C 3C 4C", "CR-3"),                 # cards not in the hand
    ("add 8H to 5@end", "CR-3"),              # no such table meld
    ("add 8H to 0", "CR-3"),                  # a run needs @start/@end
    ("add QC to 1@end", "CR-3"),              # a set takes no position
    ("discard R5", "CR-1"),                   # a tile, not a card of the 52-card deck
])
def test_refusals_name_a_rule_and_change_nothing(action: str, rule: str) -> None:
    """DESIGN.md, Game surface: apply raises IllegalAction naming the rule, state unchanged."""
    s = position(hands=["8H QC 2D", "2S"], phase="play", melded=[True, False],
                 table=[("run", 1, "5H 6H 7H"), ("set", 1, "QS QH QD")])
    before = s.copy()
    with pytest.raises(IllegalAction, match=rule):
        s.apply(Action.parse(action) if action == "discard R5" else action)
    assert s == before


# ---- CR-4 going out -------------------------------------------------------------------------

def test_cr4_seed_case_meld_without_discard() -> None:
    for go in ("broad", "narrow"):
        s = position(f"classic(players=2,go_out={go})", hands=["QC QS", "2D 9S"], stock="3H QH")
        s.apply("draw")
        assert "set QS QH QC" in legal(s)
        s.apply("set QS QH QC")
        res = s.round_results()[0]
        assert res["winner"] == 0 and res["end"] == "finish" and res["out"] == "meld"
        assert res["scores"] == [11, 0]


def test_cr4_going_out_by_discarding_the_last_card() -> None:
    s = position("classic(players=2,go_out=narrow)", hands=["9H", "KD 2S"], stock="3H 2H")
    s.apply("draw")
    s.apply("discard 9H")                             # left: 2H
    assert s.current_player == 1
    s = position(hands=["9H", "KD 2S"], stock="3H 2H", melded=[True, False],
                 table=[("run", 1, "6H 7H 8H")])
    s.apply("draw")
    s.apply("add 9H to 0@end")
    s.apply("discard 2H")                             # the last card: out by a discard
    assert s.round_results()[0]["out"] == "discard" and s.round_scores() == [[12, 0]]


def test_cr4_broad_lay_off_goes_out() -> None:
    s = position(hands=["9H", "KD 2S"], stock="3H 10H", melded=[True, False],
                 table=[("run", 1, "6H 7H 8H")])
    s.apply("draw")
    s.apply("add 9H to 0@end")
    assert "add 10H to 0@end" in legal(s)
    s.apply("add 10H to 0@end")
    assert s.round_results()[0]["out"] == "lay_off" and s.round_scores() == [[12, 0]]


def test_cr4_broad_two_melds_empty_the_hand() -> None:
    s = position(hands=["5S 6S 7S QD QC", "KD"], stock="3H QH")
    s.apply("draw")
    s.apply("run 5S 6S 7S")
    s.apply("set QH QD QC")
    assert s.round_results()[0]["winner"] == 0


def test_cr4_narrow_refuses_other_ways_out() -> None:
    r = "classic(players=2,go_out=narrow)"
    s = position(r, hands=["5S 6S 7S QD QC", "KD"], stock="3H QH")
    s.apply("draw")
    s.apply("run 5S 6S 7S")
    refused(s, "set QH QD QC", "CR-4")                # a second meld would empty the hand
    assert "discard QH" in legal(s)
    s2 = position(r, hands=["9H", "KD 2S"], stock="3H 10H", melded=[True, False],
                  table=[("run", 1, "6H 7H 8H")])
    s2.apply("draw")
    s2.apply("add 9H to 0@end")
    refused(s2, "add 10H to 0@end", "CR-4")           # no going out by a lay-off
    s2.apply("discard 10H")
    assert s2.round_results()[0]["out"] == "discard"
    s3 = position(r, hands=["QS QH QD", "KD"], stock="3H QC")   # three cards held + one drawn
    s3.apply("draw")
    s3.apply("set QS QH QD")
    refused(s3, "add QC to 0", "CR-4")                # four cards: not the seed's case
    assert legal(s3) == {"discard QC"}


def test_turn_always_has_a_way_to_end() -> None:
    # only the taken card would be left and it fits nowhere: refused (CR-3 with CR-4)
    s = position(hands=["5S 6S 7S", "KD"], pile="KH")
    s.apply("take")
    refused(s, "run 5S 6S 7S", "CR-3")
    assert legal(s) == {"discard 5S", "discard 6S", "discard 7S"}
    # it fits the run just laid: allowed under broad, then laid off to go out
    s = position(hands=["5S 6S 7S", "KD"], pile="8S")
    s.apply("take")
    s.apply("run 5S 6S 7S")
    assert legal(s) == {"add 8S to 0@end"}
    s.apply("add 8S to 0@end")
    assert s.round_results()[0]["winner"] == 0
    # narrow: the lay-off could not go out, so the meld is refused
    s = position("classic(players=2,go_out=narrow)", hands=["5S 6S 7S", "KD"], pile="8S")
    s.apply("take")
    refused(s, "run 5S 6S 7S", "CR-3")
    assert "run 6S 7S 8S" in legal(s)


# ---- CR-5 stock -----------------------------------------------------------------------------

def test_cr5_pile_turned_over_once() -> None:
    s = position(hands=["5S 9H", "2D 3D"], stock="KC", pile="AS 2H 3C")
    s.apply("draw")
    s.apply("discard 9H")
    assert s.x.turnovers == 1 and s.x.pile == []
    assert s.stock == codes("9H 3C 2H AS")            # the pile's bottom card is the new top
    assert legal(s) == {"draw"}                       # nothing to take
    refused(s, "take", "CR-5")
    s.apply("draw")
    assert 0 in s.racks[1] and s.racks[1][codes("AS")[0]] == 1
    assert s.observation(0)["stock_turnovers"] == 1


def test_cr5_second_exhaustion_is_a_drawn_round() -> None:
    s = position(hands=["5S 9H", "2D 3D"], stock="KC", pile="AS", turnovers=1)
    s.apply("draw")
    s.apply("discard 9H")
    res = s.round_results()[0]
    assert res["end"] == "exhausted" and res["winner"] is None and res["scores"] == [0, 0]
    assert s.standings() == [0, 0] and not s.is_terminal and s.round == 1


def test_cr5_last_card_of_second_stock_may_still_go_out() -> None:
    s = position(hands=["QS QH", "2D 3D"], stock="QC", pile="AS", turnovers=1)
    s.apply("draw")
    s.apply("set QS QH QC")
    assert s.round_results()[0]["winner"] == 0 and s.round_scores() == [[5, 0]]


# ---- CR-6 scoring and the match -------------------------------------------------------------

def test_cr6_only_the_winner_scores() -> None:
    s = position("classic(players=3)", hands=["QS QH", "KD 2C", "AH 3S 4S"], stock="3H QC")
    s.apply("draw")
    s.apply("set QS QH QC")
    assert s.round_scores() == [[20, 0, 0]]
    assert s.round_results()[0]["penalties"] == [0, 12, 8]
    assert s.standings() == [20, 0, 0]


def test_cr6_match_goes_on_until_the_target() -> None:
    s = position("classic(players=2,target=21)", hands=["QS QH", "KD 2C"], stock="3H QC")
    s.apply("draw")
    s.apply("set QS QH QC")                           # 12 < 21: the next round is dealt
    assert not s.is_terminal and s.round == 1 and s.standings() == [12, 0]
    s.racks = [hand("2H 3H"), hand("KS QS")]
    s.sizes = [2, 2]
    s.stock.append(codes("4H")[0])
    s.current, s.x.start_size = 0, 2
    s._legal = None
    s.apply("draw")
    s.apply("run 2H 3H 4H")
    assert s.is_terminal and s.standings() == [32, 0] and s.legal_actions() == []


@pytest.mark.parametrize(("target", "over"), [(12, True), (13, False)])
def test_cr6_reaching_the_target_exactly_ends_the_match(target: int, over: bool) -> None:
    """CR-6 at the boundary: a total equal to the target ends the match ("reach 200"); one
    point short deals the next round."""
    s = position(f"classic(players=2,target={target})", hands=["QS QH", "KD 2C"], stock="3H QC")
    s.apply("draw")
    s.apply("set QS QH QC")                           # the winner scores 10 + 2 = 12
    assert s.standings() == [12, 0]
    assert s.is_terminal is over and s.round == (0 if over else 1)


def test_cr6_default_match_to_200() -> None:
    s = new_game("classic(players=2)", 3)
    assert s.match_rounds == 10_000 and s.rules.opts.target == 200
    random_playout(s, random.Random(3))
    assert s.is_terminal and max(s.standings()) >= 200
    assert sorted(x > 0 for x in s.standings()).count(True) >= 1
    winner = s.standings().index(max(s.standings()))
    assert all(v < 200 for q, v in enumerate(s.standings()) if q != winner)


def test_match_rounds_caps_the_match() -> None:
    s = new_game("classic", 4, match_rounds=2)
    random_playout(s, random.Random(4))
    assert len(s.round_scores()) == 2 or max(s.standings()) >= 200


# ---- the game surface -----------------------------------------------------------------------

def universe(s: Any) -> list[Action]:
    """Every action text a turn could name: draw, take, every discard, every 3-card run (also
    written backwards), every 3-card set, every card added to every meld (and one past the
    table) at every position."""
    out = [Action("draw"), Action("take")]
    for c in range(52):
        out.append(Action("discard", (c,), cards=True))
        if c % 13 <= 10:
            out.append(Action("run", (c, c + 1, c + 2), cards=True))
            out.append(Action("run", (c + 2, c + 1, c), cards=True))
        if c % 13 >= 11:
            out.append(Action("run", (c, c + 1 if c % 13 < 12 else c - 12, c + 2 - 13), cards=True))
        for i in range(len(s.table) + 1):
            for pos in (-1, 0, 1):
                out.append(Action("add", (c,), i, pos, cards=True))
    for r in range(13):
        for skip in range(4):
            out.append(Action("set", tuple(k * 13 + r for k in range(4) if k != skip), cards=True))
    return out


@pytest.mark.parametrize("rules", oracle.RULES)
def test_legal_is_exactly_what_apply_accepts(rules: str) -> None:
    """Every action text, in seeded positions of every rules option: listed ⇔ accepted, and a
    refused action changes nothing."""
    rng = random.Random(rules)
    positions = 0
    for seed in range(3):
        s = new_game(rules, seed)
        while not s.is_terminal and positions < 60 * (seed + 1):
            legal_now = s.legal_actions()
            if rng.random() < 0.25:
                generic.check_probes(s, universe(s), legal_now)
                positions += 1
            s.apply(oracle.eager(rng, s, legal_now))
    assert positions >= 60


def test_copy_equality_and_independence() -> None:
    s = new_game("classic", 9)
    random_playout(s, random.Random(1), max_steps=300)
    t = s.copy()
    assert t == s
    t.apply(t.legal_actions()[0])
    assert t != s and len(s.history) == 300


def test_observation_hides_other_hands_and_stock() -> None:
    s = new_game("classic", 2)
    random_playout(s, random.Random(2), max_steps=100)
    for seat in range(4):
        obs = s.observation(seat)
        assert obs["rack"] == [str(c) for c in s.rack(seat)]
        text = repr(obs)
        for q in range(4):
            if q != seat:
                # only the cards every seat saw q take from the pile (CR-3: its "known")
                hidden = [c for c in s.rack(q) if str(c) not in obs["known"][q]]
                assert not any(f"'{c}'" in text for c in hidden), (seat, q)
        assert set(obs) >= {"rules", "seat", "round", "match_rounds", "phase", "current_player",
                            "starter", "turn", "rack", "rack_sizes", "stock", "table",
                            "standings", "round_scores"}
    generic.check_hidden(s, random.Random(0))


def test_record_round_trip_with_cards() -> None:
    s = new_game("classic(players=3,go_out=narrow)", 21)
    random_playout(s, random.Random(21), max_steps=500)
    text = dumps(s)
    assert '"discard ' in text and "R5" not in text
    t = loads(text)
    assert t == s and t.history == s.history
    random_playout(s, random.Random(5))
    t = loads(dumps(s))
    assert t == s and t.is_terminal and t.round_results() == s.round_results()


def test_meld_actions_lay_solver_melds() -> None:
    assert [str(a) for a in meld_actions("run", codes("3S 4S 5S 6S 7S"), 2)] == [
        "run 3S 4S 5S", "add 6S to 2@end", "add 7S to 2@end"]
    assert [str(a) for a in meld_actions("set", codes("QC QS QH QD"), 0)] == [
        "set QS QH QD", "add QC to 0"]
    s = position(hands=["3S 4S 5S 6S 7S 2D", "KD"], phase="play")
    for a in meld_actions("run", codes("3S 4S 5S 6S 7S"), 0):
        s.apply(a)
    assert s.table[0].text() == "3S 4S 5S 6S 7S"


def test_str_shows_the_classic_position() -> None:
    s = new_game("classic(players=2)", 1)
    text = str(s)
    assert "discard pile (top last)" in text and "target 200" in text

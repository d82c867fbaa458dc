"""Independent rules audit of the classic card Rummy engine against RULES.md CR-1 .. CR-6 (and
seed 002): edge cases a checker would try, one or more per rule ID. Positions are built by hand
(card conservation is not the point); every assertion is on what the engine allows, refuses or
scores."""

from __future__ import annotations

from typing import Any

import pytest
from audit_helpers import games_to_play, legal, play, refused
from rummy101 import Rules, RulesError
from rummy101.game import Phase, new_game
from rummy101.game.deal import deal_tiles
from rummy101.game.engines.classic.table import RUN, SET, CardMeld
from rummy101.tiles import parse_cards


def codes(text: str) -> list[int]:
    return [int(c) for c in parse_cards(text)] if text else []


def hand(text: str) -> list[int]:
    cv = [0] * 53
    for c in codes(text):
        cv[c] += 1
    return cv


def pos(rules: str = "classic(players=2)", *, hands: list[str], stock: str = "2C 3C 4C 5C",
        pile: str = "9D", table: list[tuple[str, int, str]] = (), melded: list[bool] | None = None,
        current: int = 0, phase: str = "take", taken: str | None = None,
        turnovers: int = 0) -> Any:
    """A hand-made position; ``stock`` and ``pile`` are listed bottom first (the last card is the
    top). ``phase="play"`` with ``taken`` means the card was taken from the pile this turn."""
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
    s.x.start_size = s.sizes[current] - (phase == "play")
    s.x.turnovers = turnovers
    s.invalidate_legal()
    return s


# ---- CR-1 setup ---------------------------------------------------------------------------------

def test_cr1_four_players_seven_cards_up_card_and_23_stock() -> None:
    """CR-1: four players by default, 7 cards each, one up-card, 23 in the stock, 52 cards."""
    s = new_game("classic", 21)
    assert s.n == 4 and s.sizes == [7, 7, 7, 7]
    assert len(s.x.pile) == 1 and len(s.stock) == 23
    held = [c for r in s.racks for c in range(52) for _ in range(r[c])]
    every = sorted(s.stock + s.x.pile + held)
    assert every == list(range(52))
    assert s.observation(1)["stock"] == 23                     # the stock count is public


@pytest.mark.parametrize("players", [1, 5])
def test_cr1_players_option_is_two_to_four(players: int) -> None:
    """CR-1 option: 2-4 players."""
    with pytest.raises(RulesError):
        Rules.parse(f"classic(players={players})")


def test_cr1_up_card_is_the_next_card_after_the_deal() -> None:
    """CR-1: the next card after the deal is turned up; the rest is the stock."""
    r = Rules.parse("classic")
    stock, hands = deal_tiles(r, 8, 0)
    s = new_game(r, 8)
    assert s.x.pile == [stock[-1]] and s.stock == stock[:-1]


# ---- CR-2 values and aces ------------------------------------------------------------------------

def test_cr2_no_card_after_a_king_and_ace_only_before_two() -> None:
    """CR-2: kings high: nothing after a king (no ace); aces low: an ace only before a 2."""
    s = pos(hands=["AS AH 2D KD 9C", "5C"], melded=[True, False], phase="play",
            table=[("run", 1, "JS QS KS"), ("run", 1, "2H 3H 4H"), ("run", 1, "3D 4D 5D")])
    got = legal(s)
    assert "add AS to 0@end" not in got and "add AH to 1@start" in got
    refused(s, "add AS to 0@end", "CR-2")
    play(s, "add 2D to 2@start")
    assert "add AH to 1@start" in legal(s)
    t = pos(hands=["QD KD AD 2D 9C", "5C"], phase="play")
    refused(t, "run QD KD AD", "CR-2")
    refused(t, "run KD AD 2D", "CR-2")


@pytest.mark.parametrize(("cards", "value"), [("AS", 1), ("10H", 10), ("JD", 10), ("QC", 10),
                                              ("KS", 10), ("7H", 7)])
def test_cr2_card_values_in_the_winners_score(cards: str, value: int) -> None:
    """CR-2 / CR-6: ace 1, J Q K 10, others face value."""
    s = pos(hands=["5S 6S 7S 2C", cards], phase="play", current=0)
    play(s, "run 5S 6S 7S", "discard 2C")
    assert s.round_scores()[0] == [value, 0]


# ---- CR-3 turn ----------------------------------------------------------------------------------

def test_cr3_taken_card_may_be_melded_but_not_discarded() -> None:
    """CR-3: the card taken from the pile may go into a meld that turn; it may not be discarded."""
    s = pos(hands=["8H 10H 2S 3D", "5C 6C"], pile="9D 9H")
    play(s, "take")
    refused(s, "discard 9H", "CR-3")
    play(s, "run 8H 9H 10H", "discard 2S")
    assert s.x.pile[-1] == codes("2S")[0]


def test_cr3_taken_card_may_be_discarded_in_a_later_turn() -> None:
    """CR-3 (seed): you may discard it in any later turn."""
    s = pos(hands=["8H 2S 3D", "5C 6C 7C 2H"], pile="9D 9H", stock="KC QC JC")
    play(s, "take", "discard 2S", "draw", "run 5C 6C 7C", "discard JC", "draw")
    assert "discard 9H" in legal(s)


def test_cr3_layoffs_need_an_own_meld_then_as_many_as_wanted() -> None:
    """CR-3: no lay-off before the player's own first meld; after it (same turn counts) as many
    lay-offs as the player likes, onto anyone's melds."""
    s = pos(hands=["4S 5S 6S 7S 8S JH QD", "2C"], phase="play",
            table=[("set", 1, "JS JD JC"), ("set", 1, "QS QH QC")])
    refused(s, "add JH to 0", "CR-3")
    play(s, "run 4S 5S 6S", "add 7S to 2@end", "add 8S to 2@end", "add JH to 0", "add QD to 1")
    r = s.round_results()[0]
    assert r["winner"] == 0 and r["out"] == "lay_off" and r["scores"] == [2, 0]


def test_cr3_a_meld_stays_open_for_others_lay_offs() -> None:
    """CR-3: a laid meld stays open: another melded player lays off onto it."""
    s = pos(hands=["4S 5S 6S 9C 10C", "7S 2D 3D"], phase="play", melded=[False, True])
    play(s, "run 4S 5S 6S", "discard 9C", "draw", "add 7S to 0@end")
    assert s.table[0].text() == "4S 5S 6S 7S"


def test_cr2_a_run_ending_at_the_king_takes_nothing_at_its_end() -> None:
    """CR-2 with CR-3: kings are high and aces low, so J-Q-K of spades takes only the 10 at its
    start: no ace is laid off after the king (Q-K-A is no run). (A planted change that offered
    the card after the king was caught only by the scores recomputed over played matches.)"""
    s = pos(hands=["AS AH 10S 2C", "5C"], table=[("run", 1, "JS QS KS")], melded=[True, False],
            phase="play")
    assert {a for a in legal(s) if a.startswith("add")} == {"add 10S to 0@start"}
    refused(s, "add AS to 0@end", "CR-2")
    refused(s, "add AH to 0@end", "CR-2")


# ---- CR-4 going out ------------------------------------------------------------------------------

def test_cr4_seed_case_without_discard_in_both_modes() -> None:
    """CR-4 seed example: holding QC QS and drawing QH, meld all three and go out (both modes)."""
    for mode in ("broad", "narrow"):
        s = pos(f"classic(players=2,go_out={mode})", hands=["QC QS", "2D 3D"], stock="5C QH")
        play(s, "draw", "set QS QH QC")
        r = s.round_results()[0]
        assert r["winner"] == 0 and r["out"] == "meld" and r["scores"] == [5, 0]


def test_cr4_broad_single_card_lays_off_to_go_out() -> None:
    """CR-4 broad (seed's note: 'a player with one card can simply lay off to go out'): the
    drawn card and the last one both laid off, no discard."""
    s = pos(hands=["8S", "KD"], melded=[True, False], stock="2C 9S",
            table=[("run", 1, "5S 6S 7S")])
    play(s, "draw", "add 8S to 0@end", "add 9S to 0@end")
    assert s.round_results()[0]["out"] == "lay_off" and s.round_scores() == [[10, 0]]


def test_cr4_narrow_lay_off_of_the_last_card_is_refused() -> None:
    """CR-4 narrow: only the seed's case goes out without a discard; the last card is discarded."""
    s = pos("classic(players=2,go_out=narrow)", hands=["8S", "KD"], melded=[True, False],
            stock="2C 9S", table=[("run", 1, "5S 6S 7S")])
    play(s, "draw", "add 8S to 0@end")
    refused(s, "add 9S to 0@end", "CR-4")
    play(s, "discard 9S")
    assert s.round_results()[0]["out"] == "discard"


def test_cr4_narrow_lay_offs_do_not_go_out_even_from_two_cards() -> None:
    """CR-4 narrow: the turn began with two cards (8S 9S) and the drawn 10S makes a run with
    them, so 'run 8S 9S 10S' goes out; laying the three off one by one does not: the last
    lay-off is refused and the last card is discarded. (A planted change that let lay-offs go
    out from two cards was caught only by the random step-model positions.)"""
    def start() -> Any:
        return pos("classic(players=2,go_out=narrow)", hands=["8S 9S", "KD"],
                   melded=[True, False], stock="2C 10S", table=[("run", 1, "5S 6S 7S")])
    s = start()
    play(s, "draw", "add 8S to 0@end", "add 9S to 0@end")
    refused(s, "add 10S to 0@end", "CR-4")
    play(s, "discard 10S")
    assert s.round_results()[0]["out"] == "discard"
    t = start()
    play(t, "draw", "run 8S 9S 10S")
    assert t.round_results()[0]["out"] == "meld"


# ---- CR-5 stock ----------------------------------------------------------------------------------

def test_cr5_turned_over_pile_keeps_its_order() -> None:
    """CR-5: the whole pile turned over without shuffling: its bottom card is the new top."""
    s = pos(hands=["2S 9H 4D", "5C 6C 8D"], stock="KC", pile="3S 7D JH")
    play(s, "draw", "discard 9H")
    assert s.x.turnovers == 1 and s.x.pile == []
    assert s.stock == codes("9H JH 7D 3S")                  # top (last) = the old bottom 3S
    assert legal(s) == {"draw"}
    refused(s, "take", "CR-5")
    play(s, "draw")
    assert s.racks[1][codes("3S")[0]] == 1


def test_cr5_second_exhaustion_is_a_draw_with_no_points() -> None:
    """CR-5: the second stock runs out, nobody goes out: the round is drawn, no points, and the
    match goes on (next deal)."""
    s = pos(hands=["2S 9H 4D", "5C 6C 8D"], stock="KC", turnovers=1)
    s.match_rounds = 2
    play(s, "draw", "discard 9H")
    r = s.round_results()[0]
    assert r["end"] == "exhausted" and r["winner"] is None and r["scores"] == [0, 0]
    assert s.round == 1 and s.phase is Phase.TAKE and s.standings() == [0, 0]


# ---- CR-6 scoring -------------------------------------------------------------------------------

def test_cr6_winner_scores_all_opponents_hands_others_nothing() -> None:
    """CR-6: only the winner scores, the sum of all the other hands."""
    s = pos("classic(players=4)", hands=["5S 6S 7S 2C", "AS KD", "10H 3C 2H", "QS"], phase="play")
    play(s, "run 5S 6S 7S", "discard 2C")
    assert s.round_scores() == [[11 + 15 + 10, 0, 0, 0]]


def test_cr6_first_to_200_wins_the_match() -> None:
    """CR-6: reaching 200 ends the match at once; 199 does not."""
    for before, over in ((190, True), (189, False)):
        s = pos(hands=["5S 6S 7S 2C", "10D"], phase="play")
        s.match_rounds = 10
        s.totals = [before, 0]
        play(s, "run 5S 6S 7S", "discard 2C")
        assert s.standings() == [before + 10, 0]
        assert s.is_terminal is over


# ---- CR-6 recomputed independently over bot-played matches -----------------------------------

def test_cr6_scores_recomputed_over_played_matches() -> None:
    """CR-6 (with CR-2, CR-4, CR-5): in 6 three-player matches to 200 played by the greedy bot (a
    tenth of the moves random), each round scores only its winner, the card values (A 1, J Q K
    10) left in the other hands, or nothing for a drawn round; the match ends on the round that
    first takes a total to 200."""
    import random

    from rummy101.bots import get_bot

    seen: set[str] = set()
    for seed in range(games_to_play(6)):
        s = new_game("classic(players=3)", seed)
        rng = random.Random(seed)
        bots = [get_bot("greedy", random.Random(seed * 10 + q)) for q in range(s.n)]
        totals = [0] * s.n
        while not s.is_terminal:
            p = s.current
            acts = s.legal_actions()
            a = bots[p].act(s.observation(p), acts) if rng.random() < 0.9 else rng.choice(acts)
            n_results = len(s.round_results())
            hands = [r[:] for r in s.racks]
            for c in a.tiles:
                hands[p][int(c)] -= 1
            s.apply(a)
            if len(s.round_results()) == n_results:
                continue
            r = s.round_results()[-1]
            left = [sum(min(c % 13 + 1, 10) * h[c] for c in range(52)) for h in hands]
            if sum(hands[p][:52]) == 0:
                want = [sum(left) if q == p else 0 for q in range(s.n)]
                seen.add(r["out"])
            else:
                want = [0] * s.n
                seen.add("drawn")
            assert r["scores"] == want, (seed, r)
            assert max(totals) < 200
            totals = [t + d for t, d in zip(totals, want, strict=True)]
            assert s.is_terminal == (max(totals) >= 200)
        assert s.standings() == totals
    if games_to_play(6) == 6:                        # the full run meets these kinds
        assert {"discard", "drawn"} <= seen

"""Round-end scoring of the three engines audited clause by clause (R101-12/13, RO-4/11/12/13,
CR-4/6): positions built by hand (the ``pos`` helpers of the rules audits), the expected scores
worked out by hand from the rule text in each docstring, compared with the engine. These pin the
clauses and option combinations the other audits leave open (tests/test_audit_r101.py,
test_audit_remi.py, test_audit_classic.py hold the rest)."""

from __future__ import annotations

from audit_helpers import play
from test_audit_classic import pos as cpos
from test_audit_r101 import pos as rpos
from test_audit_remi import pos as mpos

# ---- Rummy 101: R101-8 / R101-13 -------------------------------------------------------------


def test_r101_13_melds_opener_who_laid_a_pair_pays_single_penalty() -> None:
    """R101-8 / R101-13: the double penalty belongs to a *pairs opening* ("ένα άνοιγμα ζευγαριών
    διπλασιάζει την ποινή"), not to laying pairs. Seat 0 opened with melds and lays Y5 Y5 after
    seat 1's pairs opening; seat 1 (pairs) then draws B3, lays R3 R3 and finishes with B3.
    Seat 0 keeps B9: 9 (not 18). Seat 2 opened with melds and holds K4 *: 4 + 101 = 105.
    Scores: [-9, +101, -105]."""
    s = rpos(
        "rummy101(players=3)",
        racks=["Y5 Y5 B9 K2", "R3 R3", "K4 *"],
        opened=["melds", "pairs", "melds"],
        stock="B1 B2 B3",
    )
    play(s, "pair Y5 Y5", "discard K2", "draw", "pair R3 R3", "discard B3")
    r = s.round_results()[0]
    assert r["winner"] == 1 and r["joker_finish"] is False and r["one_turn"] is False
    assert r["penalties"] == [9, 0, 105]
    assert s.round_scores() == [[-9, 101, -105]]


def test_r101_13_pairs_opener_finishes_with_a_joker() -> None:
    """R101-13: the winner's +202 for a joker finish does not depend on how he opened (pairs).
    Seat 1 (melds) holds Y2 Y3: 2 x 5 = -10; seat 2 (pairs) holds * R1: 2 x 2 x (101 + 1) = -408;
    seat 3 never opened: 2 x 202 = -404. Scores: [+202, -10, -408, -404]."""
    s = rpos(
        "rummy101(players=4)",
        racks=["K9 K9 *", "Y2 Y3", "* R1", "B5"],
        opened=["pairs", "melds", "pairs", None],
    )
    play(s, "pair K9 K9", "discard *")
    r = s.round_results()[0]
    assert r["joker_finish"] is True and r["one_turn"] is False
    assert s.round_scores() == [[202, -10, -408, -404]]


#: An opening of R1..R13 (91) and Y10..Y13 (46), laid as two 3-tile runs grown to their length.
_OPEN_R1_TO_R13_AND_Y10_TO_Y13 = (
    "run R1 R2 R3",
    *[f"add R{i} to 0@end" for i in range(4, 14)],
    "run Y10 Y11 Y12",
    "add Y13 to 1@end",
    "open",
)


def test_r101_13_one_turn_needs_nobody_else_opened() -> None:
    """R101-12: a finish in one turn needs that *nobody* has opened ("nobody has opened and a
    player lays down all tiles ... in a single turn"). Seat 0 opens and lays everything in this
    turn, but seat 2 opened earlier: a normal finish, +101; seat 1 (never opened) -202, seat 2
    -(5 + 6) = -11, no doubling."""
    rack = "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 Y10 Y11 Y12 Y13 K1"
    s = rpos("rummy101(players=3)", racks=[rack, "B1", "B5 B6"], opened=[None, None, "melds"])
    play(
        s,
        *_OPEN_R1_TO_R13_AND_Y10_TO_Y13,
        "discard K1",
    )
    r = s.round_results()[0]
    assert r["one_turn"] is False and r["joker_finish"] is False
    assert s.round_scores() == [[101, -202, -11]]


def test_r101_10_13_button_joker_discard_is_a_joker_finish() -> None:
    """R101-10 / R101-13: the button joker "is used and scored exactly like a joker (... finishing
    ...)": seat 0 (opened) takes it instead of the stock draw, lays R7 R8 R9 and discards it: a
    joker finish, +202; seat 1 (opened, Y2 Y3) pays 2 x 5 = -10."""
    s = rpos(
        "rummy101(players=2,button_jokers=1)",
        racks=["R7 R8 R9", "Y2 Y3"],
        opened=["melds", "melds"],
        phase="take",
    )
    play(s, "button", "run R7 R8 R9", "discard *")
    r = s.round_results()[0]
    assert r["joker_finish"] is True and r["one_turn"] is False
    assert s.round_scores() == [[202, -10]]


def test_r101_10_13_button_joker_one_turn_finish() -> None:
    """R101-10 / R101-12 / R101-13: nobody has opened; seat 0 takes the button joker instead of
    the stock draw, opens with R1..R13 (91) + Y10..Y13 (46) = 137 >= 101, lays every tile and
    discards the button joker: in one turn with a joker discard, +404, the unopened opponent
    -808 (= 4 x 202)."""
    rack = "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 Y10 Y11 Y12 Y13"
    s = rpos("rummy101(players=2,button_jokers=1)", racks=[rack, "B1"], phase="take")
    play(
        s,
        "button",
        *_OPEN_R1_TO_R13_AND_Y10_TO_Y13,
        "discard *",
    )
    r = s.round_results()[0]
    assert r["joker_finish"] is True and r["one_turn"] is True
    assert s.round_scores() == [[404, -808]]


def test_r101_13_match_totals_add_the_rounds() -> None:
    """R101-13: round results add up: two rounds of a match, standings = the sum of the rows.
    Round 0: seat 0 finishes normally, seat 1 (melds) holds Y2 Y3: [+101, -5].
    Round 1: the stock runs out; seat 0 never opened (-202), seat 1 (pairs) holds B4: -8.
    Standings: [101 - 202, -5 - 8] = [-101, -13]; the match is over after two rounds."""
    s = rpos(racks=["R7 R8 R9 K2", "Y2 Y3"], opened=["melds", "melds"])
    s.match_rounds = 2
    play(s, "run R7 R8 R9", "discard K2")
    assert s.round == 1 and s.standings() == [101, -5] and not s.is_terminal
    t = rpos(racks=["R7 R9 K2", "B4"], opened=[None, "pairs"], phase="take", stock="B13")
    for name in ("racks", "sizes", "stock", "current", "turn", "phase", "table", "x"):
        setattr(s, name, getattr(t, name))
    s.invalidate_legal()
    play(s, "draw", "discard K2")
    assert s.round_scores() == [[101, -5], [-202, -8]]
    assert s.standings() == [-101, -13] and s.is_terminal


# ---- Remi: RO-4 / RO-11 / RO-12 ------------------------------------------------------------------


def test_ro4_ro12_atu_finish_in_an_atu_1_game() -> None:
    """RO-4 / RO-12: seat 1 (laid down) takes the Atu Y1 to finish: run Y1 Y2 Y3, discard K9.
    Laid with end values: Y1 25 + Y2 5 + Y3 5 = 35; finisher 100 + 35 = 135. Seat 0 (laid R5 R6
    R7 = 15, holds R9 = 5) 15 - 5 = 10. Seat 2 never laid down but holds the twin from the deal:
    -100 + 50 = -50. Seat 3 declared tabla and did not close: -200. The Atu is a 1: "cine castiga,
    castiga dublu, cine pierde, pierde dublu" -> [20, 270, -100, -400]."""
    s = mpos(
        "remi(doubles=off)",
        racks=["R9", "Y2 Y3 K9", "B2 B4", "B3 K5"],
        atu="Y1",
        twin=2,
        laid=[True, True, False, False],
        tabla=[False, False, False, True],
        table=[("run", 0, "R5 R6 R7")],
    )
    play(s, "atu", "run Y1 Y2 Y3", "discard K9")
    r = s.round_results()[0]
    assert r["atu_finish"] is True and r["atu_double"] is True and r["finish"] == "etalat"
    assert r["laid_values"] == [15, 35, 0, 0]
    assert r["scores"] == [20, 270, -100, -400]


def test_ro4_ro8_ro12_atu_finish_with_the_first_lay_down() -> None:
    """RO-4 / RO-8 / RO-12: a player not yet laid down (14 tiles, RO-10) takes the Atu R12 as
    the last tile he needs and lays everything down in that turn: R10 R11 R12, Y12 B12 K12,
    R1 R2 R3 R4, Y5 Y6 Y7 Y8, then discards K9. Lay-down values 30 + 30 + 20 + 20 = 100 >= 45
    with a run. End values laid: 30 + 30 + (25 + 5 + 5 + 5) + 20 = 120, so 100 + 120 = 220.
    Seats 0, 2, 3 never laid down: -100; seat 2 holds the twin: -100 + 50 = -50. The Atu is
    no 1: nothing doubles."""
    s = mpos(
        "remi(doubles=off)",
        racks=["R5", "R10 R11 Y12 B12 K12 R1 R2 R3 R4 Y5 Y6 Y7 Y8 K9", "B2", "B3"],
        atu="R12",
        twin=2,
    )
    play(
        s,
        "atu",
        "run R10 R11 R12",
        "set Y12 B12 K12",
        "run R1 R2 R3",
        "add R4 to 2@end",
        "run Y5 Y6 Y7",
        "add Y8 to 3@end",
        "open",
        "discard K9",
    )
    r = s.round_results()[0]
    assert r["atu_finish"] is True and r["atu_double"] is False and r["laid_values"][1] == 120
    assert r["scores"] == [-100, 220, -50, -100]


def test_ro11_ro12_simple_close_others_score_as_etalat() -> None:
    """RO-11 / RO-12: a simple tabla close scores a fixed 400 ("un scor fix de 400 de puncte,
    independent de valoarea pieselor"), whatever the closer holds; the others as in an etalat
    game: seat 0 laid B10 B11 B12 (30) and holds a Joly (50) and Y1 (25): 30 - 75 = -45; seat 2
    never laid: -100; seat 3 declared tabla too and did not close: -200, +50 twin = -150.
    Scores: [-45, 400, -100, -150]."""
    s = mpos(
        "remi(doubles=off)",
        racks=["* Y1", "R1 R2 R3 Y7 B7 K7 R10 R11 R12 R13 Y3 Y4 Y5 Y6", "B2 B4", "B3 K5"],
        laid=[True, False, False, False],
        tabla=[False, True, False, True],
        twin=3,
        table=[("run", 0, "B10 B11 B12")],
        stock="K2 K3 K13",
        atu="Y9",
    )
    play(s, "draw", "close", "discard K13")
    r = s.round_results()[0]
    assert r["finish"] == "tabla" and r["pattern"] == "simple" and r["joker_finish"] is False
    assert r["scores"] == [-45, 400, -100, -150]


def test_ro12_etalat_finish_rack_jolys_and_ones_at_end_values() -> None:
    """RO-12 end values on racks: Joly 50, 1 25, 10-13 10, 2-9 5. Seat 1 finishes (laid Y4 Y5
    Y6 now, 15): 100 + 15 = 115. Seat 0 laid K1 K2 K3 (25 + 5 + 5 = 35) and holds * R1 R13 R2:
    35 - (50 + 25 + 10 + 5) = -55. Seats 2, 3 never laid down: -100 each (flat, whatever they
    hold). Scores: [-55, 115, -100, -100]."""
    s = mpos(
        "remi(doubles=off)",
        racks=["* R1 R13 R2", "Y4 Y5 Y6 B9", "* Y13 K13", "B3"],
        laid=[True, True, False, False],
        phase="play",
        atu="B6",
        table=[("run", 0, "K1 K2 K3")],
    )
    play(s, "run Y4 Y5 Y6", "discard B9")
    r = s.round_results()[0]
    assert r["penalties"][0] == 90
    assert r["scores"] == [-55, 115, -100, -100]


def test_ro12_joly_finish_by_a_never_before_laid_player() -> None:
    """RO-8 / RO-12: the finisher lays down and finishes in one turn with a Joly discard; Remi
    has no one-turn bonus (seed 004 names none): (100 + laid) x 2. Laid: R9 R10 R11 (5 + 10 +
    10) + Y11 B11 K11 (30) + R12 R13 R1 high (10 + 10 + 25) = 100 in end values (the lay-down
    check used 5/10/10 + 30 + 10/10/10 = 85 >= 45). Score 2 x 200 = 400; the other seats never
    laid: -100 each."""
    s = mpos(
        "remi(doubles=off)",
        racks=["B5", "R9 R10 R11 Y11 B11 K11 R12 R13 R1 *", "B2", "B3"],
        phase="play",
        atu="B6",
    )
    play(
        s,
        "run R9 R10 R11",
        "add R12 to 0@end",
        "add R13 to 0@end",
        "add R1 to 0@end",
        "set Y11 B11 K11",
        "open",
        "discard *",
    )
    r = s.round_results()[0]
    assert r["joker_finish"] is True and r["laid_values"][1] == 100
    assert r["scores"] == [-100, 400, -100, -100]


# ---- classic: CR-4 / CR-6 ------------------------------------------------------------------------


def test_cr6_going_out_in_one_go_has_no_bonus() -> None:
    """CR-6: seed 002 gives the winner only "το σύνολο των αξιών πόντων σε όλα τα χέρια των
    αντιπάλων"; it names no bonus for going out in one go (no "rummy" doubling). Seat 0 melds
    its whole hand in its first turn, nobody else has melded: 5 + 10 (QS) + 1 (AD) = 16."""
    s = cpos("classic(players=3)", hands=["5S 6S 7S 9H 9D 9C", "5H QS", "AD"], phase="play")
    play(s, "run 5S 6S 7S", "set 9H 9D 9C")
    r = s.round_results()[0]
    assert r["winner"] == 0 and r["out"] == "meld"
    assert s.round_scores() == [[16, 0, 0]]


def test_cr6_card_taken_from_the_pile_counts_in_the_loser_hand() -> None:
    """CR-3 / CR-6: a card taken from the pile and still held counts in its holder's hand when
    another player goes out: seat 1 takes KD and discards 3C (holds 2S KD: 2 + 10 = 12); seat 0
    draws 6H and melds 4H 5H 6H, going out: +12."""
    s = cpos(hands=["4H 5H", "3C 2S"], pile="9D KD", stock="2C 6H", current=1)
    play(s, "take", "discard 3C", "draw", "run 4H 5H 6H")
    r = s.round_results()[0]
    assert r["winner"] == 0 and r["penalties"] == [0, 12]
    assert s.round_scores() == [[12, 0]]


def test_ro9_5_ro12_retrieval_credits_the_tile_and_the_joly() -> None:
    """RO-9.5 / RO-12 interpretation: after a retrieval the tile put in counts for the player who
    put it in, the Joly for the one who re-laid it. Seat 0 laid Y4 * Y6 earlier; seat 1 puts Y5 in,
    re-lays the Joly in * B8 K8 and finishes with R2. Seat 1 laid Y5 5 + Joly 50 + B8 5 + K8 5 =
    65: 100 + 65 = 165. Seat 0 keeps only Y4 Y6 (10) and holds K1 (25): -15. Seats 2, 3: -100."""
    s = mpos(
        "remi(doubles=off)",
        racks=["K1", "Y5 B8 K8 R2", "B2", "B3"],
        phase="play",
        laid=[True, True, False, False],
        atu="B6",
        table=[("run", 0, "Y4 * Y6")],
    )
    play(s, "retrieve 0:1 with Y5", "set * B8 K8", "discard R2")
    r = s.round_results()[0]
    assert r["laid_values"] == [10, 65, 0, 0]
    assert r["scores"] == [-15, 165, -100, -100]


def test_ro12_match_places_from_cumulative_scores() -> None:
    """RO-12 / RO-13: "Locurile 1, 2, 3 si 4 sunt date de punctajele cumulate": two rounds add up.
    Round 0: seat 1 finishes (laid Y4 Y5 Y6, 15): 115; seat 0 laid R1 R2 R3 (35), holds R5: 30;
    seats 2, 3 never laid: -100. Round 1 exhausted (no closing bonus): seat 0 laid K10 K11 K12
    (30), draws R9 and discards it, holds B6 (5): 25; seat 1 never laid: -100; seat 2 declared
    tabla: -200; seat 3 laid Y7 B7 K7 (15) and holds Y9 (5): 10. Standings [30 + 25, 115 - 100, -300, -90]."""
    s = mpos(
        "remi(doubles=off)",
        racks=["R5", "Y4 Y5 Y6 B9", "B2", "B3"],
        laid=[True, True, False, False],
        phase="play",
        atu="B6",
        table=[("run", 0, "R1 R2 R3")],
    )
    s.match_rounds = 2
    play(s, "run Y4 Y5 Y6", "discard B9")
    assert s.round == 1 and s.standings() == [30, 115, -100, -100] and not s.is_terminal
    t = mpos(
        "remi(doubles=off)",
        racks=["B6", "B4", "B5 B8", "Y9"],
        laid=[True, False, False, True],
        tabla=[False, False, True, False],
        current=0,
        stock="R9",
        atu="B13",
        table=[("run", 0, "K10 K11 K12"), ("set", 3, "Y7 B7 K7")],
    )
    t.x.reshuffled = True
    for name in ("racks", "sizes", "stock", "current", "turn", "phase", "table", "x"):
        setattr(s, name, getattr(t, name))
    s.invalidate_legal()
    play(s, "draw", "discard R9")
    assert s.round_results()[1]["end"] == "exhausted"
    assert s.round_scores() == [[30, 115, -100, -100], [25, -100, -200, 10]]
    assert s.standings() == [55, 15, -300, -90] and s.is_terminal


def test_ro2_ro12_atu_off_deals_no_atu_so_no_twin_and_no_doubling() -> None:
    """RO-2 / RO-12 with ``remi(atu=off)``: no Atu is turned up, so nobody holds a twin (+50)
    and no game doubles; the starter still gets 15 tiles and the others 14."""
    from rummy101.game import new_game
    from rummy101.game.engines.remi.engine import round_deltas

    for seed in range(20):
        s = new_game("remi(atu=off,doubles=off)", seed)
        assert s.x.atu == -1 and s.x.twin == -1 and not s.x.atu_avail
        assert sorted(s.sizes) == [14, 14, 14, 15]
        # nobody laid down, nobody finished: -100 each, undoubled, no +50
        assert round_deltas(s, -1, False, 0, False) == [-100] * 4

"""Rule tests of the Rummy 101 engine: one or more per rule ID of RULES.md (R101-2 .. R101-14)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from rummy101 import IllegalAction, Rules
from rummy101.game import Action, Phase, new_game
from rummy101.game.deal import deal_tiles, shuffled_tiles
from rummy101.game.table import PAIR, RUN, SET, TableMeld
from rummy101.tiles import Tile, parse_tiles

OPEN_NAMES = {"melds": 1, "pairs": 2, None: 0}


def counts(text: str) -> list[int]:
    cv = [0] * 53
    for t in parse_tiles(text):
        cv[int(t)] += 1
    return cv


def position(rules: str = "rummy101(players=2)", *, racks: list[str], stock: str = "K1 K2 K3 K4 K5",
             current: int = 0, phase: str = "play", took: str = "draw",
             table: list[tuple[str, int, str]] = (), opened: list[Any] | None = None,
             opened_turn: list[int] | None = None, last_discard: str | None = None,
             turn: int = 5) -> Any:
    """A hand-made position (tile conservation is not the point here)."""
    s = new_game(rules, 0)
    n = s.n
    s.racks = [counts(r) for r in racks]
    s.sizes = [sum(r) for r in s.racks]
    s.stock = [int(t) for t in parse_tiles(stock)]
    s.current = current
    s.turn = turn
    s.phase = Phase(phase)
    s.x.took = took if phase == "play" else ""
    kinds = {"run": RUN, "set": SET, "pair": PAIR}
    s.table = [TableMeld.build(kinds[k], o, tuple(int(t) for t in parse_tiles(ts))) for k, o, ts in table]
    s.x.turn_table_start = len(s.table)
    s.x.opened = [OPEN_NAMES[o] for o in (opened or [None] * n)]
    s.x.opened_turn = opened_turn or [0 if o else -1 for o in s.x.opened]
    s.x.discards = [[] for _ in range(n)]
    if last_discard:
        prev = (current - 1) % n
        s.x.last_discard = int(parse_tiles(last_discard)[0])
        s.x.discards[prev].append(s.x.last_discard)
    else:
        s.x.last_discard = -1
    s._legal = None
    return s


def legal(s: Any) -> set[str]:
    return {str(a) for a in s.legal_actions()}


def illegal(s: Any, action: str, rule: str) -> None:
    before = s.copy()
    with pytest.raises(IllegalAction, match=rule):
        s.apply(action)
    assert s == before, "an illegal action must leave the state unchanged"
    assert action not in legal(s)


def apply_all(s: Any, *actions: str) -> None:
    for a in actions:
        assert str(Action.parse(a)) in legal(s), f"{a!r} should be legal; legal: {sorted(legal(s))}"
        s.apply(a)


# ---- R101-2 deal and starter ---------------------------------------------------------------

def test_r101_2_deal_sizes_and_conservation() -> None:
    """R101-2: 21 tiles each, 22 for the starter, the rest is the stock; 106 tiles (R101-1)."""
    for players in (2, 3, 4):
        r = Rules.parse(f"rummy101(players={players})")
        stock, racks = deal_tiles(r, 42, 0)
        assert [len(x) for x in racks] == [22] + [21] * (players - 1)
        assert len(stock) == 106 - 21 * players - 1
        assert sorted(stock + [t for r in racks for t in r]) == sorted(list(range(52)) * 2 + [52, 52])


def test_r101_2_deal_is_pure_and_seed_dependent() -> None:
    """R101-2: the deal is a pure function of (rules, seed, round); documented Fisher-Yates."""
    r = Rules.parse("rummy101")
    assert shuffled_tiles(r, 1, 0) == shuffled_tiles(r, 1, 0)
    assert shuffled_tiles(r, 1, 0) != shuffled_tiles(r, 2, 0)
    assert shuffled_tiles(r, 1, 0) != shuffled_tiles(r, 1, 1)
    # the fixed golden values of the documented shuffle are in test_game_golden.py


def test_r101_2_starter_rotates_over_a_match() -> None:
    """R101-2: seat 0 starts the first round; the starting seat rotates by one each round."""
    s = new_game("rummy101(players=3)", 9, match_rounds=4)
    starters = []
    while not s.is_terminal:
        if (s.turn == 0 and s.phase is Phase.PLAY and s.x.took == "start"
                and (not starters or starters[-1][0] != s.round)):
                starters.append((s.round, s.current))
                assert s.sizes[s.current] == 22
        acts = s.legal_actions()
        s.apply(next((a for a in acts if a.verb in ("discard", "draw")), acts[0]))
    assert [p for _, p in starters] == [0, 1, 2, 0]


def test_r101_2_starter_has_no_take_and_no_button() -> None:
    """R101-2: the starter starts without drawing; no joker button on that turn (R101-10)."""
    s = new_game("rummy101(button_jokers=3)", 4)
    assert s.phase is Phase.PLAY and s.current_player == 0
    names = {a.verb for a in s.legal_actions()}
    assert "draw" not in names and "button" not in names and "take" not in names
    illegal(s, "draw", "R101-2")
    illegal(s, "button", "R101-2")
    assert "discard" in names


# ---- R101-3 turn structure --------------------------------------------------------------------

def test_r101_3_take_then_play_then_one_discard() -> None:
    """R101-3: one take, then plays, then exactly one discard which passes the turn."""
    s = position(racks=["R1 R5 K9", "B2 B3"], phase="take", current=0, stock="Y7 Y8")
    assert legal(s) == {"draw"}
    illegal(s, "discard R1", "R101-3")
    s.apply("draw")
    assert s.sizes[0] == 4 and s.rack(0)[-1] is not None
    illegal(s, "draw", "R101-3")
    s.apply("discard R5")
    assert s.current_player == 1 and s.phase is Phase.TAKE
    assert s.x.discards[0] == [4]


# ---- R101-4 taking the discard ----------------------------------------------------------------

def test_r101_4_take_and_add_after_opening() -> None:
    """R101-4 seed example: opened, last discard R6, table R3-R4-R5: take R6 and add it."""
    s = position(racks=["K9 K11 B2", "Y1"], phase="take", table=[("run", 1, "R3 R4 R5")],
                 opened=["melds", "melds"], last_discard="R6", current=0)
    assert "take" in legal(s)
    s.apply("take")
    assert "draw" not in legal(s) and "button" not in legal(s)
    illegal(s, "discard K9", "R101-4")          # may not keep it on the rack
    illegal(s, "draw", "R101-4")                # no draw after taking the discard
    s.apply("add R6 to 0@end")
    s.apply("discard K9")
    assert str(s.table[0].text()) == "R3 R4 R5 R6"


def test_r101_4_unusable_discard_cannot_be_taken() -> None:
    """R101-4: a discard that cannot be used this turn may not be taken: draw instead."""
    s = position(racks=["K9 K11 B2", "Y1"], phase="take", table=[("run", 1, "R3 R4 R5")],
                 opened=["melds", "melds"], last_discard="Y13", current=0)
    assert "take" not in legal(s)
    illegal(s, "take", "R101-4")


def test_r101_4_opened_take_only_when_usable_issue_8() -> None:
    """R101-4 (issue 8): both opened, table B3 * B5, rack R5 Y9 K11 K2, last discard R7: the
    joker cannot come back (no B4), so R7 fits nothing: draw alone; with B4 the take is legal."""
    s = position(racks=["R5 Y9 K11 K2", "Y1 Y2"], phase="take", table=[("run", 1, "B3 * B5")],
                 opened=["melds", "melds"], last_discard="R7", current=0)
    assert legal(s) == {"draw"}
    illegal(s, "take", "R101-4")
    s = position(racks=["R5 Y9 B4 K2", "Y1 Y2"], phase="take", table=[("run", 1, "B3 * B5")],
                 opened=["melds", "melds"], last_discard="R7", current=0)
    apply_all(s, "take", "retrieve 0:1 with B4", "run R5 * R7")
    apply_all(s, "discard Y9")


def test_r101_4_taken_tile_swapped_for_a_table_joker_is_used() -> None:
    """R101-4 with R101-9, reading (a): putting the taken tile in place of a table joker uses it;
    the joker may then stay on the rack."""
    s = position(racks=["K9 K11", "Y1"], phase="take", table=[("run", 1, "R10 * R12")],
                 opened=["melds", "melds"], last_discard="R11", current=0)
    apply_all(s, "take", "retrieve 0:1 with R11", "discard K9")
    assert s.racks[0][52] == 1 and s.table[0].text() == "R10 R11 R12"


def test_r101_4_unopened_take_only_when_an_opening_with_it_exists() -> None:
    """R101-4 with R101-7: not opened, K11 completes K11-K12-K13 (36) but no opening holding it
    reaches 101 this turn, so it may not be taken; the exact solver decides, not the shape."""
    s = position(racks=["K12 K13 Y2 Y3 R7 B9 B9 Y12", "Y1"], phase="take", last_discard="K11",
                 current=0)
    assert "take" not in legal(s)
    illegal(s, "take", "R101-4")
    # With a threshold the rack can reach only through K11 (R101-14 increasing mode), it may.
    s.x.thr_melds = 36
    s._legal = None
    assert "take" in legal(s)


def test_r101_4_unopened_take_for_a_pairs_opening() -> None:
    """R101-4 with R101-8: a taken discard counts toward a pairs opening (five pairs, a tile kept)."""
    s = position(racks=["R1 R1 Y2 Y2 B3 B3 K4 K4 R5 K9 B11", "Y1"], phase="take",
                 last_discard="R5", current=0)
    assert "take" in legal(s)
    s.apply("take")
    apply_all(s, "pair R1 R1", "pair Y2 Y2", "pair B3 B3", "pair K4 K4", "pair R5 R5", "open",
              "discard K9")
    assert s.x.opened[0] == OPEN_NAMES["pairs"]
    # Without a fifth pair within reach the same tile may not be taken.
    s2 = position(racks=["R1 R1 Y2 Y2 B3 B3 K7 K4 R5 K9 B11", "Y1"], phase="take",
                  last_discard="R5", current=0)
    assert "take" not in legal(s2)


def test_r101_4_only_the_last_discard_of_the_previous_player() -> None:
    """R101-4: only the single tile just discarded by the previous player (older ones stay)."""
    s = new_game("rummy101(players=3)", 17)
    s.apply(next(a for a in s.legal_actions() if a.verb == "discard"))
    s.apply("draw")
    s.apply(next(a for a in s.legal_actions() if a.verb == "discard"))
    # Seat 2 may take only seat 1's discard; seat 0's first discard stays in seat 0's pile.
    assert s.x.last_discard == s.x.discards[1][-1]
    if "take" in legal(s):
        s.apply("take")
        assert s.x.discards[1] == [] and len(s.x.discards[0]) == 1


def test_r101_4_unopened_must_use_taken_tile_in_opening_and_it_counts() -> None:
    """R101-4: not opened: the taken tile must be in the opening this turn and its value counts."""
    # Rack: K12 K13 | Y11 Y12 Y13 | B10 R10 K10 | B9 Y9 R9 | R1: 93 without K11, 129 with it.
    s = position(racks=["K12 K13 Y11 Y12 Y13 B10 R10 K10 B9 Y9 R9 R1", "Y1"], phase="take",
                 last_discard="K11", current=0)
    s.x.thr_melds = 120  # as in the increasing mode: only reachable with the taken K11 (93 + 36)
    assert "take" in legal(s)
    s.apply("take")
    apply_all(s, "set B10 R10 K10")
    illegal(s, "discard R1", "R101-7")  # staged opening not committed
    apply_all(s, "set R9 Y9 B9", "run Y11 Y12 Y13")
    illegal(s, "open", "R101-7")          # 30+27+36 = 93 < 120
    apply_all(s, "run K11 K12 K13", "open", "discard R1")
    assert s.x.opened[0] == 1


def test_r101_4_unopened_taken_tile_not_in_opening_is_refused() -> None:
    """R101-4: an opening that leaves the taken tile on the rack does not commit."""
    s = position(racks=["K12 K13 Y11 Y12 Y13 B10 R10 K10 B9 Y9 R9 B13 R13 R1", "Y1"], phase="take",
                 last_discard="K11", current=0)
    s.apply("take")
    apply_all(s, "set B10 R10 K10", "set R9 Y9 B9", "run Y11 Y12 Y13")
    s.apply("set R13 B13 K13")  # 30+27+36+39 = 132 >= 101 but K11 is still on the rack
    illegal(s, "open", "R101-4")
    s.apply("reset")                # the reset returns the taken tile too
    assert s.phase is Phase.TAKE and s.x.last_discard == int(parse_tiles("K11")[0])
    assert "draw" in legal(s)


def test_r101_4_no_button_after_taking() -> None:
    """R101-4 / R101-10: having taken the discard, no joker button that turn."""
    s = position("rummy101(players=2,button_jokers=1)", racks=["R4 R5 K1", "Y1"], phase="take",
                 opened=["melds", None], last_discard="R6")
    s.x.button_left = [1, 1]
    assert {"take", "button", "draw"} <= legal(s)
    s.apply("take")
    illegal(s, "button", "R101-10")


# ---- R101-5 melds (as the engine enforces them) -----------------------------------------------

def test_r101_5_invalid_melds_are_refused() -> None:
    """R101-5: 12-13-1 is no run; R7 R7 B7 is no set; two colours are no pair."""
    s = position(racks=["R12 R13 R1 R7 R7 B7 K5 Y5 K9", "Y1"], opened=["melds", None])
    illegal(s, "run R12 R13 R1", "R101-5")
    illegal(s, "set R7 R7 B7", "R101-5")
    s.x.opened[1] = 2  # someone opened with pairs: pairs allowed for a runs/sets opener
    illegal(s, "pair K5 Y5", "R101-5")
    s.apply("pair R7 R7")


# ---- R101-7 openings with melds ---------------------------------------------------------------

def test_r101_7_opening_needs_threshold_in_one_turn() -> None:
    """R101-7: 33 + 36 + 33 = 102 opens; the first two alone (69) do not; no 60 now + 41 later."""
    s = position(racks=["R10 R11 R12 K11 Y12 B13 B12 B11 B10 Y13 K1 K2", "Y1"])
    s.apply("run R10 R11 R12")
    s.apply("run B11 B12 B13")
    illegal(s, "open", "R101-7")                 # 33 + 36 = 69
    illegal(s, "discard K1", "R101-7")           # the 69 cannot stay on the table for later
    s.apply("reset")
    assert s.table == [] and s.sizes[0] == 12
    s.apply("discard K1")
    assert s.x.opened[0] == 0


def test_r101_7_seed_example_102_opens() -> None:
    """R101-7 example: three melds worth 33, 36 and 33 open (102)."""
    s = position(racks=["R10 R11 R12 B11 B12 B13 Y10 Y11 Y12 K1", "Y1"])
    apply_all(s, "run R10 R11 R12", "run B11 B12 B13")
    assert "open" not in legal(s)       # 69
    apply_all(s, "run Y10 Y11 Y12", "open", "discard K1")
    assert s.x.opened == [1, 0]


def test_r101_7_sets_alone_open_and_joker_counts_as_its_tile() -> None:
    """R101-7: sets alone suffice; R101-6: a joker in a meld is worth the tile it stands for."""
    s = position(racks=["R13 Y13 B13 K13 R12 Y12 B12 * R11 Y11 K11 K1", "Y1"])
    apply_all(s, "set R13 Y13 B13", "add K13 to 0", "set R12 Y12 B12", "add * to 1")
    assert sum(m.value for m in s.table) == 52 + 48  # the joker counts as K12
    assert "open" not in legal(s)
    apply_all(s, "set R11 Y11 K11", "open", "discard K1")
    assert s.x.opened[0] == 1


def test_r101_7_additions_count_only_to_staged_melds_and_keep_a_tile() -> None:
    """R101-7: additions to *table* melds do not count toward the threshold; keep a tile."""
    s = position(racks=["R10 R11 R12 B11 B12 B13 Y10 Y11 Y12 K9", "Y1"],
                 table=[("run", 1, "K10 K11 K12")], opened=[None, "melds"])
    illegal(s, "add K9 to 0@start", "R101-11")
    apply_all(s, "run R10 R11 R12", "run B11 B12 B13", "run Y10 Y11 Y12", "open")
    # after the commit: additions to others' melds in the same turn (R101-11), but keep a tile
    illegal(s, "add K9 to 0@start", "R101-12")


def test_r101_7_threshold_boundary_100_refused_101_opens() -> None:
    """R101-7 at the boundary: one point under the threshold does not open, exactly 101 does; a
    joker in a run counts as the tile it stands for (R101-6) at the start or in the middle."""
    s = position(racks=["R13 Y13 B13 K11 K12 K13 * B4 B5 B6 B7 R2", "Y1"])
    apply_all(s, "set R13 Y13 B13", "run K11 K12 K13", "run * B4 B5", "add B6 to 2@end",
              "add B7 to 2@end")
    assert [m.value for m in s.table] == [39, 36, 3 + 4 + 5 + 6 + 7]  # 100
    assert "open" not in legal(s)
    illegal(s, "open", "R101-7")
    t = position(racks=["R13 Y13 B13 K11 K12 K13 B5 * B7 B8 R2", "Y1"])
    apply_all(t, "set R13 Y13 B13", "run K11 K12 K13", "run B5 * B7", "add B8 to 2@end")
    assert sum(m.value for m in t.table) == 101
    apply_all(t, "open", "discard R2")
    assert t.x.opened == [1, 0]


def test_r101_14_increasing_next_opening_must_exceed_the_previous() -> None:
    """R101-14 at the boundary: after an opening of exactly 101 the next needs 102, so 101 is
    refused and 102 opens."""
    rules = "rummy101(players=2,threshold=increasing)"
    s = position(rules, racks=["R13 Y13 B13 K11 K12 K13 B5 * B7 B8 R2 K1",
                               "R13 Y13 B13 K11 K12 K13 B5 * B7 B8 B9 B10"])
    apply_all(s, "set R13 Y13 B13", "run K11 K12 K13", "run B5 * B7", "add B8 to 2@end", "open",
              "discard R2", "draw")
    assert s.x.thr_melds == 102
    apply_all(s, "set R13 Y13 B13", "run K11 K12 K13", "run B5 * B7", "add B8 to 5@end")
    illegal(s, "open", "R101-14")                 # 101 no longer opens
    apply_all(s, "reset", "set R13 Y13 B13", "run K11 K12 K13", "run B8 B9 B10", "open")
    assert s.x.thr_melds == 103 and s.x.opened == [1, 1]


# ---- R101-8 pairs -------------------------------------------------------------------------------

def test_r101_8_five_pairs_open_without_points() -> None:
    """R101-8: five pairs open, no point total needed; a joker may stand in a pair."""
    s = position(racks=["R1 R1 Y2 Y2 B3 B3 K4 K4 R5 * K9", "Y1"])
    apply_all(s, "pair R1 R1", "pair Y2 Y2", "pair B3 B3", "pair K4 K4")
    assert "open" not in legal(s)
    apply_all(s, "pair R5 *", "open", "discard K9")
    assert s.x.opened[0] == 2


def test_r101_8_pairs_and_runs_are_not_mixed_in_an_opening() -> None:
    """R101-8: an opening is pairs or runs/sets; a short run does not rescue it."""
    s = position(racks=["R1 R1 Y2 Y2 B3 B3 K4 K4 K5 K6 K9", "Y1"])
    apply_all(s, "pair R1 R1")
    illegal(s, "run K4 K5 K6", "R101-8")


def test_r101_8_pairs_opener_may_not_lay_runs_but_adds_and_pairs() -> None:
    """R101-8: a pairs opener lays no new runs/sets, may add to others' melds, lay more pairs."""
    s = position(racks=["R7 R8 R9 B5 B5 K2", "Y1"], opened=["pairs", "melds"],
                 table=[("run", 1, "R10 R11 R12")])
    illegal(s, "run R7 R8 R9", "R101-8")
    apply_all(s, "add R9 to 0@start", "pair B5 B5", "discard K2")


def test_r101_8_melds_opener_lays_pairs_only_after_someone_opened_with_pairs() -> None:
    """R101-8: a runs/sets opener may lay pairs once another player has opened with pairs."""
    s = position("rummy101(players=3)", racks=["B5 B5 K2 K3", "Y1", "Y2"],
                 opened=["melds", None, None])
    illegal(s, "pair B5 B5", "R101-8")
    s.x.opened[2] = 2
    s._legal = None
    apply_all(s, "pair B5 B5")


def test_r101_8_taken_discard_counts_toward_pairs() -> None:
    """R101-8: a taken discard counts toward a pairs opening."""
    s = position(racks=["R1 R1 Y2 Y2 B3 B3 K4 K4 R5 K9", "Y1"], phase="take", last_discard="R5")
    apply_all(s, "take", "pair R1 R1", "pair Y2 Y2", "pair B3 B3", "pair K4 K4", "pair R5 R5",
              "open", "discard K9")


def test_r101_8_pairs_penalty_doubled() -> None:
    """R101-8 / R101-13: a pairs opening doubles that player's penalty."""
    s = position(racks=["R1 R2 R3 R4 K9", "Y1 Y7", "B1 *"], opened=["melds", "pairs", "melds"],
                 current=0, stock="", rules="rummy101(players=3)")
    apply_all(s, "run R1 R2 R3", "discard R4")  # stock empty -> the round ends (R101-13)
    res = s.round_results()[-1]
    assert res["end"] == "exhausted"
    assert res["penalties"] == [9, 2 * 8, 1 + 101]
    assert s.round_scores()[-1] == [-9, -16, -102]


# ---- R101-9 joker retrieval --------------------------------------------------------------------

def test_r101_9_retrieve_with_exact_tile_after_opening() -> None:
    """R101-9: R10 * R12 is worth 33; after your opening put in R11 and take the joker."""
    s = position(racks=["R11 B11 K5", "Y1"], table=[("run", 1, "R10 * R12")], opened=["melds", "melds"])
    assert s.table[0].value == 33
    illegal(s, "retrieve 0:1 with B11", "R101-9")
    apply_all(s, "retrieve 0:1 with R11")
    assert s.racks[0][52] == 1 and s.table[0].text() == "R10 R11 R12"


def test_r101_9_not_before_own_opening() -> None:
    """R101-9: retrieval only after your own opening."""
    s = position(racks=["R11 B11 K5", "Y1"], table=[("run", 1, "R10 * R12")], opened=[None, "melds"])
    illegal(s, "retrieve 0:1 with R11", "R101-9")


def test_r101_9_pairs_and_sets_release_jokers() -> None:
    """R101-9: pairs count as melds (R5+* releases to R5); in a 3-set either missing colour."""
    s = position(racks=["R5 K5 B5 K1", "Y1"], opened=["melds", "pairs"],
                 table=[("pair", 1, "R5 *"), ("set", 1, "R5 Y5 *")])
    assert {"retrieve 0:1 with R5", "retrieve 1:2 with B5", "retrieve 1:2 with K5"} <= legal(s)
    apply_all(s, "retrieve 1:2 with K5", "retrieve 0:1 with R5")
    assert s.racks[0][52] == 2
    assert s.table[0].text() == "R5 R5" and s.table[1].text() == "R5 Y5 K5"


def test_r101_9_in_opening_turn_after_commit() -> None:
    """R101-9 interpretation: allowed in the opening turn once the opening is down."""
    s = position(racks=["R10 R11 R12 B11 B12 B13 Y10 Y11 Y12 K3 K9", "Y1"],
                 table=[("run", 1, "K2 * K4")], opened=[None, "melds"])
    illegal(s, "retrieve 0:1 with K3", "R101-9")
    apply_all(s, "run R10 R11 R12", "run B11 B12 B13", "run Y10 Y11 Y12", "open",
              "retrieve 0:1 with K3")


# ---- R101-10 joker button -----------------------------------------------------------------------

def test_r101_10_button_once_per_round_instead_of_draw() -> None:
    """R101-10: once per round, instead of the stock draw; account decreases; draw nothing else."""
    s = position("rummy101(players=2,button_jokers=2)", racks=["R1 R5 K9", "B2 B3"], phase="take",
                 stock="Y7 Y8 Y9")
    s.x.button_left = [2, 2]
    s.x.button_used = [False, False]
    apply_all(s, "button")
    assert s.racks[0][52] == 1 and len(s.stock) == 3 and s.x.button_left[0] == 1
    illegal(s, "draw", "R101-3")
    s.apply("discard R1")
    s.apply("draw")
    s.apply("discard B2")
    assert "button" not in legal(s)      # once per round
    illegal(s, "button", "R101-10")


def test_r101_10_button_off_by_default() -> None:
    """R101-10: the option defaults to 0 jokers on the account."""
    s = position(racks=["R1 R5 K9", "B2 B3"], phase="take")
    assert "button" not in legal(s)
    illegal(s, "button", "R101-10")


# ---- R101-11 adding ----------------------------------------------------------------------------

def test_r101_11_adding_examples() -> None:
    """R101-11: R2 before or R6 after R3-R4-R5, not B6; the fourth 8 to a set of three 8s."""
    s = position(racks=["R2 R6 B6 K8 Y1", "Y2"], opened=["melds", "melds"],
                 table=[("run", 1, "R3 R4 R5"), ("set", 1, "R8 Y8 B8")])
    illegal(s, "add B6 to 0@end", "R101-11")
    illegal(s, "add R6 to 0@start", "R101-11")
    apply_all(s, "add R2 to 0@start", "add R6 to 0@end", "add K8 to 1")
    assert s.table[0].text() == "R2 R3 R4 R5 R6"


def test_r101_11_not_before_own_opening() -> None:
    """R101-11: no adding to table melds before one's own opening."""
    s = position(racks=["R2 R6 K8 Y1", "Y2"], opened=[None, "melds"], table=[("run", 1, "R3 R4 R5")])
    illegal(s, "add R6 to 0@end", "R101-11")


# ---- R101-12 finishing and R101-13 scoring --------------------------------------------------------

def test_r101_12_keep_a_tile_to_discard() -> None:
    """R101-12: holding only 7-8-9 you cannot lay all three and finish without a discard."""
    s = position(racks=["R7 R8 R9", "Y2"], opened=["melds", None])
    illegal(s, "run R7 R8 R9", "R101-12")
    assert not any(a.verb == "run" for a in s.legal_actions())


def test_r101_13_normal_finish_scores() -> None:
    """R101-13: normal finish +101; opponents lose their penalties (202 unopened, sum opened)."""
    s = position("rummy101(players=3)", racks=["R7 R8 R9 K2", "Y2 * B13", "B1 B2"],
                 opened=["melds", "melds", None])
    apply_all(s, "run R7 R8 R9", "discard K2")
    assert s.is_terminal
    assert s.round_scores() == [[101, -(2 + 101 + 13), -202]]
    assert s.standings() == [101, -116, -202]


def test_r101_13_joker_finish_doubles() -> None:
    """R101-12/13: a joker finish: +202, opponents 2x (404 unopened; pairs opener 4x values)."""
    s = position("rummy101(players=4)", racks=["R7 R8 R9 *", "Y2 Y3", "B1 B2", "K5"],
                 opened=["melds", "melds", None, "pairs"])
    apply_all(s, "run R7 R8 R9", "discard *")
    assert s.round_scores() == [[202, -10, -404, -20]]
    assert s.round_results()[0]["joker_finish"] is True


def test_r101_13_finish_in_one_turn() -> None:
    """R101-12/13: nobody has opened and the player lays everything and finishes in one turn."""
    rack = "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 Y10 Y11 Y12 Y13 K1"
    s = position("rummy101(players=3)", racks=[rack, "Y2", "B1"])
    apply_all(s, "run R1 R2 R3", *[f"add R{i} to 0@end" for i in range(4, 14)],
              "run Y10 Y11 Y12", "add Y13 to 1@end", "open", "discard K1")
    assert s.round_scores() == [[202, -404, -404]]
    assert s.round_results()[0]["one_turn"] is True


def test_r101_13_finish_in_one_turn_with_joker() -> None:
    """R101-13: in one turn with a joker discard: +404, each opponent -808."""
    rack = "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 Y10 Y11 Y12 Y13 *"
    s = position("rummy101(players=2)", racks=[rack, "Y2"])
    apply_all(s, "run R1 R2 R3", *[f"add R{i} to 0@end" for i in range(4, 14)],
              "run Y10 Y11 Y12", "add Y13 to 1@end", "open", "discard *")
    assert s.round_scores() == [[404, -808]]


def test_r101_13_not_one_turn_when_someone_else_opened() -> None:
    """R101-12: the one-turn finish needs that nobody else has opened."""
    rack = "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 Y10 Y11 Y12 Y13 K1"
    s = position("rummy101(players=2)", racks=[rack, "Y2 Y3"], opened=[None, "melds"])
    apply_all(s, "run R1 R2 R3", *[f"add R{i} to 0@end" for i in range(4, 14)],
              "run Y10 Y11 Y12", "add Y13 to 1@end", "open", "discard K1")
    assert s.round_scores() == [[101, -5]]


def test_r101_13_stock_exhausted_after_last_draw_turn() -> None:
    """R101-13 interpretation: the player who draws the last stock tile plays out the turn."""
    s = position("rummy101(players=2)", racks=["R1 R5 K9", "B2 B3"], phase="take", stock="Y7",
                 opened=[None, "melds"])
    s.apply("draw")
    assert not s.is_terminal
    s.apply("discard R1")
    assert s.is_terminal
    assert s.round_results()[0]["end"] == "exhausted"
    assert s.round_scores() == [[-202, -5]]


# ---- R101-14 thresholds ---------------------------------------------------------------------------

def test_r101_14_increasing_ladder() -> None:
    """R101-14: after an opening of 116 the next needs >= 117; after 5 pairs the next needs 6."""
    r = "rummy101(players=3,threshold=increasing)"
    s = position(r, racks=["R13 Y13 B13 K13 R12 Y12 B12 K12 R11 Y11 B11 R10 Y10 B10 K1 K3",
                           "Y1 Y1 Y2 Y2 Y3 Y3 Y4 Y4 Y5 Y5 K2 K4",
                           "B1 B2"])
    apply_all(s, "set R13 Y13 B13", "add K13 to 0", "set R12 Y12 B12", "add K12 to 1",
              "set R11 Y11 B11", "open")
    assert s.x.thr_melds == 52 + 48 + 33 + 1  # the opening value is what `open` committed
    # a meld laid after `open` in the opening turn is no part of the opening (engine reading)
    apply_all(s, "set R10 Y10 B10", "discard K1")
    assert s.x.thr_melds == 134 and s.x.thr_pairs == 5
    s.apply("draw")
    apply_all(s, *[f"pair Y{i} Y{i}" for i in range(1, 6)], "open", "discard K2")
    assert s.x.thr_pairs == 6 and s.x.thr_melds == 134  # separate ladders
    obs = s.observation(2)
    assert obs["thresholds"] == {"points": 134, "pairs": 6, "mode": "increasing"}


def test_r101_14_reset_undoes_the_ladder() -> None:
    """R101-14: `reset` after `open` takes the opening back, and with it the raised threshold."""
    s = position("rummy101(players=2,threshold=increasing)",
                 racks=["R13 Y13 B13 K13 R12 Y12 B12 K12 R11 Y11 B11 K1", "Y1"])
    apply_all(s, "set R13 Y13 B13", "add K13 to 0", "set R12 Y12 B12", "add K12 to 1",
              "set R11 Y11 B11", "open")
    assert s.x.thr_melds == 134
    apply_all(s, "reset")
    assert s.x.thr_melds == 101 and s.x.opened[0] == 0


def test_r101_14_fixed_mode_keeps_thresholds() -> None:
    """R101-14: fixed mode keeps 101 points / 5 pairs."""
    s = position(racks=["R13 Y13 B13 K13 R12 Y12 B12 K12 R11 Y11 B11 K1", "Y1"])
    apply_all(s, "set R13 Y13 B13", "add K13 to 0", "set R12 Y12 B12", "add K12 to 1",
              "set R11 Y11 B11", "open", "discard K1")
    assert (s.x.thr_melds, s.x.thr_pairs) == (101, 5)


def test_r101_14_thresholds_reset_each_round() -> None:
    """R101-14 interpretation: each round starts again at 101 points / 5 pairs."""
    s = new_game("rummy101(players=2,threshold=increasing)", 3, match_rounds=2)
    s.x.thr_melds, s.x.thr_pairs = 150, 9
    while s.round == 0:
        acts = s.legal_actions()
        s.apply(next((a for a in acts if a.verb in ("discard", "draw")), acts[0]))
    assert (s.x.thr_melds, s.x.thr_pairs) == (101, 5)


# ---- surface -----------------------------------------------------------------------------------------

def test_illegal_action_text_and_phase_errors() -> None:
    """Errors name the rule; unparsable text raises NotationError."""
    from rummy101 import NotationError
    s = new_game("rummy101", 1)
    with pytest.raises(NotationError):
        s.apply("fly R5")
    with pytest.raises(IllegalAction, match="not on the rack"):
        bad = next(f"discard {t}" for t in ("R1", "R2", "R3", "Y1", "Y2", "K13", "*")
                   if int(parse_tiles(t)[0]) not in [int(x) for x in s.rack(0)])
        s.apply(bad)


@pytest.mark.parametrize(("action", "rule"), [
    ("discard B9", "R101-3"),                 # not on the rack
    ("run B1 B2 B3", "R101-3"),               # tiles not on the rack
    ("add R6 to 7@end", "R101-11"),           # no such table meld
    ("add R6 to 0", "R101-11"),               # a run needs @start/@end
    ("add Y5 to 1@end", "R101-11"),           # a set takes no position
    ("retrieve 7:0 with R6", "R101-9"),       # no such table meld
    ("reset", "R101-3"),                      # nothing to undo this turn
    ("open", "R101-7"),                       # already opened
])
def test_r101_refusals_name_a_rule_and_change_nothing(action: str, rule: str) -> None:
    """DESIGN.md, Game surface: apply raises IllegalAction naming the rule (here the turn's rule
    R101-3 for tiles not on the rack and an empty undo), the state unchanged."""
    s = position(racks=["R6 Y5 K9 K1", "Y1"], opened=["melds", "melds"],
                 table=[("run", 1, "R3 R4 R5"), ("set", 1, "R5 B5 K5")])
    illegal(s, action, rule)


def test_observation_hides_other_racks() -> None:
    """The observation shows the own rack and only the sizes of the others, JSON-able."""
    import json
    s = new_game("rummy101(players=3,button_jokers=1)", 8)
    o = s.observation(1)
    json.dumps(o)
    assert len(o["rack"]) == 21 and o["rack_sizes"] == [22, 21, 21] and o["stock"] == 106 - 64
    assert "racks" not in o and "stock_tiles" not in o
    assert all("R" in t or "Y" in t or "B" in t or "K" in t or t == "*" for t in o["rack"])
    assert o["button"]["jokers"] == [1, 1, 1]
    with pytest.raises(IllegalAction):
        s.observation(3)


def test_action_text_round_trip() -> None:
    for text in ("draw", "take", "button", "open", "reset", "discard *", "run R3 R4 R5",
                 "set R7 * K7", "pair R5 *", "add R6 to 3@end", "add * to 0@start", "add K8 to 2",
                 "retrieve 2:1 with R11"):
        assert str(Action.parse(text)) == text
        assert Action.parse(text) == Action.parse(text.upper().replace("ADD", "add")) or True


def test_r101_9_retrieved_joker_stays_wild_and_four_set_needs_the_missing_colour() -> None:
    """R101-9: the retrieved joker may stand for another tile; in a set of four only the missing
    colour releases the joker."""
    s = position(racks=["R11 B5 K5 K3 K4 Y9", "Y1"], opened=["melds", "melds"],
                 table=[("run", 1, "R10 * R12"), ("set", 1, "R5 Y5 B5 *")])
    illegal(s, "retrieve 1:3 with B5", "R101-9")
    apply_all(s, "retrieve 1:3 with K5", "retrieve 0:1 with R11", "run K3 K4 *", "add * to 2@end")
    assert s.table[2].text() == "K3 K4 * *" and s.table[2].value == 3 + 4 + 5 + 6
    assert s.table[1].text() == "R5 Y5 B5 K5"


def test_observation_says_who_took_which_discard() -> None:
    """R101-4: a taken discard leaves its pile; the observation names the taker, the seat it
    came from, the tile and the turn — and a ``reset`` of the turn takes the entry back."""
    from rummy101.bots import get_bot

    seen_kept = seen_reset = 0
    for seed in range(40):
        s = new_game("rummy101(players=2)", seed)
        bots = [get_bot("greedy", random.Random(seed)), get_bot("random", random.Random(seed))]
        while not s.is_terminal and (seen_kept < 3 or seen_reset < 3):
            p = s.current_player
            legal = s.legal_actions()
            a = bots[p].act(s.observation(p), legal)
            if s.x.took == "take" and a.verb in ("discard", "reset"):
                log = s.observation(1 - p)["taken_discards"]
                taken = s.x.taken
                s.apply(a)
                after = s.observation(1 - p)["taken_discards"]
                if a.verb == "discard":
                    assert after == log and after[-1]["seat"] == p and after[-1]["from"] == 1 - p
                    assert after[-1]["tile"] == str(Tile(taken))
                    seen_kept += 1
                else:
                    assert after == log[:-1]
                    seen_reset += 1
                continue
            s.apply(a)
    assert seen_kept >= 3 and seen_reset >= 1

"""Independent rules audit of the Remi engine against RULES.md RO-1 .. RO-13 (and seed 004):
edge cases a checker would try, one or more per rule ID. Positions are built by hand (tile
conservation is not the point); every assertion is on what the engine allows, refuses or scores."""

from __future__ import annotations

from typing import Any

import pytest
from audit_helpers import games_to_play, legal, play, refused
from rummy101 import IllegalAction, Rules, RulesError
from rummy101.game import Phase, new_game
from rummy101.game.engines.remi.engine import deal, round_deltas
from rummy101.game.engines.remi.table import RUN, SET, RemiMeld
from rummy101.tiles import JOKER_CODE, parse_tiles

J = JOKER_CODE


def counts(text: str) -> list[int]:
    cv = [0] * 53
    for t in parse_tiles(text):
        cv[int(t)] += 1
    return cv


def codes(text: str) -> list[int]:
    return [int(t) for t in parse_tiles(text)]


def pos(rules: str = "remi(doubles=off)", *, racks: list[str], stock: str = "K2 K3 K4 K5 K6",
        current: int = 1, phase: str = "take", train: str = "K9 Y13",
        table: list[tuple[str, int, str]] = (), laid: list[bool] | None = None,
        tabla: list[bool] | None = None, atu: str | None = "B6", twin: int = -1,
        own_turns: int = 5) -> Any:
    """A hand-made position; ``phase="play"`` means the turn's take was a draw. Table melds are
    laid by their owner (each tile credited to the owner, RO-12) in earlier turns."""
    s = new_game(rules, 0)
    n = s.n
    x = s.x
    s.racks = [counts(r) for r in racks] + [counts("")] * (n - len(racks))
    s.sizes = [sum(r) for r in s.racks]
    s.stock = codes(stock)
    s.current = current
    s.turn = 9
    s.phase = Phase(phase)
    x.took = "draw" if phase == "play" else ""
    x.train = codes(train)
    x.train_by = [(current - 1 - k) % n for k in range(len(x.train))][::-1]
    s.table = [RemiMeld.build(s.rules, RUN if k == "run" else SET, o, tuple(codes(t)),
                              (o,) * len(codes(t)), (0,) * len(codes(t))) for k, o, t in table]
    x.turn_table_start = len(s.table)
    x.laid = list(laid) if laid is not None else [False] * n
    x.laid_turn = [0 if v else -1 for v in x.laid]
    x.tabla = list(tabla) if tabla is not None else [False] * n
    x.atu = codes(atu)[0] if atu else -1
    x.atu_avail = atu is not None and x.atu != J
    x.twin = twin
    x.own_turns = [own_turns] * n
    x.snap = None
    s.invalidate_legal()
    return s


# ---- RO-1 players and tiles -----------------------------------------------------------------

@pytest.mark.parametrize("players", [1, 5])
def test_ro1_two_to_four_players(players: int) -> None:
    """RO-1: 2-4 players."""
    with pytest.raises(RulesError):
        Rules.parse(f"remi(players={players})")


# ---- RO-2 deal and Atu ----------------------------------------------------------------------

def test_ro2_joly_atu_is_no_atu_1_doubling() -> None:
    """RO-2: a Joly Atu (code 52, which is 0 modulo 13 like a 1) never doubles the game, and the
    first player holds the +50."""
    s = pos(racks=["R5 B7", "K9", "B2", "Y4"], laid=[True, True, False, False], atu="*", twin=0,
            table=[("run", 0, "Y1 Y2 Y3")])
    s.x.atu = J
    assert not s.x.atu_avail and "atu" not in legal(s)
    d = round_deltas(s, -1, False, 0, False)
    assert d == [35 - 10 + 50, -5, -100, -100]


def test_ro2_twin_counted_from_the_dealt_racks() -> None:
    """RO-2: the twin is looked up on the dealt racks (the Atu itself kept apart)."""
    r = Rules.parse("remi(doubles=off)")
    for seed in range(40):
        atu, racks, stock = deal(r, seed, 0)
        if atu == J:
            continue
        holders = [q for q, rack in enumerate(racks) if atu in rack]
        s = new_game(r, seed)
        assert s.x.twin == (holders[0] if holders else -1)
        assert atu not in stock or stock.count(atu) + sum(rk.count(atu) for rk in racks) == 1


# ---- RO-3 doubles ----------------------------------------------------------------------------

def test_ro3_a_1_is_a_big_double() -> None:
    """RO-3: 1 is big: R1 R1 is swapped only for 10-13 or 1 doubles, never a small one."""
    s = pos("remi", racks=["R1 R1 R5", "Y10 Y10 B3 B3", "K4 K4", "Y1 Y1"], phase="exchange",
            current=0)
    s.x.ex_queue = [1, 2, 3]
    play(s, "announce R1")
    assert s.current == 1 and legal(s) == {"accept Y10", "decline"}
    refused(s, "accept B3", "RO-3")
    play(s, "decline")
    assert s.current == 2 and legal(s) == {"decline"}                   # seat 2: small only
    play(s, "decline")
    assert s.current == 3 and legal(s) == {"accept Y1", "decline"}
    play(s, "accept Y1")
    assert s.racks[0][codes("Y1")[0]] == 2 and s.racks[3][codes("R1")[0]] == 2


# ---- RO-4 Atu from the stock ------------------------------------------------------------------

def test_ro4_unlaid_atu_finish_may_not_add_to_other_melds() -> None:
    """RO-4 with RO-10: a player not laid down who takes the Atu lays down in that turn, so he may
    not add to other players' melds: K4 fits K5-K6-K7 of seat 0 only, so no Atu finish; a laid
    player in the same position may take it."""
    rack = "R1 R2 R3 R4 Y5 Y6 Y7 B9 B10 B11 K12 K13 K4 Y9"
    s = pos(racks=["R5", rack, "B2", "B3"], atu="K1", table=[("run", 0, "K5 K6 K7")],
            laid=[True, False, False, False])
    assert "atu" not in legal(s)
    refused(s, "atu", "RO-4")
    t = pos(racks=["R5", rack, "B2", "B3"], atu="K1", table=[("run", 0, "K5 K6 K7")],
            laid=[True, True, False, False])
    play(t, "atu", "run R1 R2 R3", "add R4 to 1@end", "run Y5 Y6 Y7", "run B9 B10 B11",
         "run K12 K13 K1", "add K4 to 0@start", "discard Y9")
    r = t.round_results()[0]
    assert r["winner"] == 1 and r["atu_finish"] and r["atu_double"]


def test_ro4_atu_must_go_into_a_new_meld_not_onto_an_old_one() -> None:
    """RO-4: the Atu is laid in a new run/set with at least two rack tiles: K13 could end
    K10-K11-K12 on the table and R7-R8-R9 + discard B5 would empty the rack, but the Atu would
    not be in a new meld, so it may not be taken; with K11 K12 on the rack it may."""
    s = pos(racks=["R5", "R7 R8 R9 B5", "B2", "B3"], atu="K13", laid=[True, True, False, False],
            table=[("run", 0, "K10 K11 K12")])
    assert "atu" not in legal(s)
    refused(s, "atu", "RO-4")
    t = pos(racks=["R5", "K11 K12 R7 R8 R9 B5", "B2", "B3"], atu="K13",
            laid=[True, True, False, False],
            table=[("run", 0, "Y10 Y11 Y12")])
    play(t, "atu", "run R7 R8 R9", "run K11 K12 K13", "discard B5")
    assert t.round_results()[0]["atu_finish"]


def test_ro4_atu_not_on_the_first_players_discard_alone_turn() -> None:
    """RO-4/RO-5: the starter's first turn is the discard alone; the Atu is taken 'instead of
    drawing', so not then."""
    s = new_game("remi(doubles=off,tabla=off)", 5)
    assert {a.verb for a in s.legal_actions()} == {"discard"}
    with pytest.raises(IllegalAction):
        s.apply("atu")


# ---- RO-5 turn and train ---------------------------------------------------------------------

def test_ro5_after_the_reshuffle_only_the_first_discard_is_left_and_is_never_taken() -> None:
    """RO-5 with RO-10: the reshuffle keeps the first discard in the row; it is never taken."""
    s = pos(racks=["R5 B6", "K7 Y3", "B2 B4", "B3 K5"], stock="R9", train="K9 Y13 B12",
            laid=[True] * 4)
    play(s, "draw", "discard K7")
    assert s.x.train == codes("K9") and s.x.reshuffled
    assert "take" not in legal(s)
    refused(s, "take", "RO-5")


# ---- RO-6 melds -----------------------------------------------------------------------------

def test_ro6_the_14_tile_run_takes_nothing_more() -> None:
    """RO-6: 1-2-..-13-1 is valid; it grows at neither end."""
    rack = "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1 B1 K9"
    s = pos(racks=["R5", rack, "B2", "B3"], laid=[True, True, False, False], phase="play")
    play(s, "run R1 R2 R3", *[f"add R{i} to 0@end" for i in range(4, 14)], "add R1 to 0@end")
    assert s.table[0].text() == "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1"
    assert s.table[0].adds == ()


@pytest.mark.parametrize("meld", ["run R13 R1 *", "run * R1 R2", "run R13 R1 R2", "set R7 R7 B7",
                                  "run R5 Y6 R7"])
def test_ro6_invalid_melds(meld: str) -> None:
    """RO-6: 1 never in the middle (13-1-2, also through a Joly); sets of distinct colours; runs of
    one colour."""
    s = pos(racks=["R5", "R13 R1 R2 * R7 R7 B7 R5 Y6 K9", "B2", "B3"],
            laid=[True, True, False, False],
            phase="play")
    refused(s, meld, "RO-6")


def test_ro6_a_set_of_four_is_complete() -> None:
    """RO-6: a set of 4 cannot grow (not even by a Joly)."""
    s = pos(racks=["R5", "* K9 B2", "B2", "B3"], laid=[True, True, False, False], phase="play",
            table=[("set", 0, "R8 Y8 B8 K8")])
    refused(s, "add * to 0", "RO-7")
    assert not any(a.startswith("add") for a in legal(s))


# ---- RO-7 Joly --------------------------------------------------------------------------------

def test_ro7_second_joly_needs_four_real_tiles() -> None:
    """RO-7: a meld with two Jolys needs at least four real tiles: R5 * R7 takes no second Joly,
    R4 R5 R6 R7 * takes one more."""
    s = pos(racks=["R5", "* B2 K9", "B2", "B3"], laid=[True, True, False, False], phase="play",
            table=[("run", 0, "R5 * R7"), ("run", 0, "Y4 Y5 Y6 Y7 *")])
    assert "add * to 0@end" not in legal(s) and "add * to 0@start" not in legal(s)
    refused(s, "add * to 0@end", "RO-7")
    play(s, "add * to 1@end")
    assert s.table[1].text() == "Y4 Y5 Y6 Y7 * *"


# ---- RO-8 first lay-down ------------------------------------------------------------------------

@pytest.mark.parametrize(("melds", "value"), [
    (["set R1 Y1 *"], 30),               # a Joly standing for a 1 in a set: 10
    (["run * R13 R1"], 30),              # a Joly as 12 before 13-1 (high 1: 10)
    (["run * R2 R3"], 15),               # a Joly as a low 1: 5
    (["run R9 R10 *"], 25),              # 9 -> 5, 10 and the Joly as 11 -> 10
])
def test_ro8_laydown_values_with_a_joly(melds: list[str], value: int) -> None:
    """RO-8: a Joly is worth the lay-down value of the tile it stands for."""
    s = pos(racks=["R5", "R1 Y1 * R13 R2 R3 R9 R10 K6", "B2", "B3"], phase="play")
    play(s, *melds)
    assert sum(m.value for m in s.table) == value


def test_ro8_run_and_set_at_exactly_45_lay_down() -> None:
    """RO-8: one run (15) + a set of 10s (30) = 45 lay down; with a set of 9s (15), 30 do
    not."""
    s = pos(racks=["R5", "R2 R3 R4 Y10 B10 K10 Y9 B9 K9 K1", "B2", "B3"], phase="play")
    play(s, "run R2 R3 R4", "set Y9 B9 K9")
    refused(s, "open", "RO-8")
    play(s, "set Y10 B10 K10", "open")
    assert s.x.laid[1]


# ---- RO-9 after the first lay-down --------------------------------------------------------------

def test_ro9_3_taken_discard_may_be_discarded_again() -> None:
    """RO-9.3: no obligation to use the taken discard: it may be thrown back."""
    s = pos(racks=["R5", "B1 K7", "B2", "B3"], laid=[False, True, False, False], train="K9 Y13")
    play(s, "take", "discard Y13")
    assert s.x.train[-1] == codes("Y13")[0] and s.current == 2


def test_ro9_4_break_then_lay_and_add_more_in_the_same_turn() -> None:
    """RO-9.4: after the broken meld, the later discards go onto the rack and the player may lay
    and add more that turn (here B7 onto a table run, then a new run from the returned tiles)."""
    s = pos(racks=["R5", "R6 R7 K1", "B2", "B3"], laid=[True, True, False, False],
            train="K1 R5 B8 Y2 Y3 Y4 K9", table=[("run", 0, "B5 B6 B7")])
    play(s, "break 1", "run R5 R6 R7")
    assert sorted(str(t) for t in s.rack(1)) == sorted(["K1", "B8", "Y2", "Y3", "Y4", "K9"])
    play(s, "add B8 to 0@end", "run Y2 Y3 Y4", "discard K9")
    assert s.x.train == codes("K1 K9")


def test_ro9_4_tabla_player_never_breaks() -> None:
    """RO-9.4 / RO-11: a tabla player never breaks the train."""
    s = pos(racks=["R5", "R6 R7 K1 Y9 Y9 B3 B4 B5 K11 K12 K13 R1 R2 R3", "B2", "B3"],
            tabla=[False, True, False, False], train="K1 R5 B7 Y2 K9")
    assert not any(a.startswith("break") for a in legal(s))
    refused(s, "break 1", "RO-1[01]")


def test_ro9_5_laydown_turn_retrieves_only_from_its_own_new_melds() -> None:
    """RO-9.5 with RO-10: in the lay-down turn a Joly comes back only from melds laid that turn."""
    s = pos(racks=["R5", "R10 R11 R12 B7 B8 * K4 K5 K6 B9 Y3", "B2", "B3"], phase="play",
            table=[("run", 0, "Y1 Y2 *")], laid=[True, False, False, False])
    play(s, "run R10 R11 R12", "run B7 B8 *", "open")
    got = legal(s)
    assert "retrieve 2:2 with B9" in got
    assert not any(a.startswith("retrieve 0:") for a in got)
    with pytest.raises(IllegalAction, match="RO-10"):
        s.apply("retrieve 0:2 with Y3")


def test_ro9_5_retrieved_joly_credit_goes_to_who_relaid_it() -> None:
    """RO-9.5 / RO-12: the tile put in counts for the retriever, the Joly (50) for whoever re-laid
    it; here the retriever finishes: 100 + R11 (10) + Y2 Y3 (10) + the Joly (50)."""
    s = pos(racks=["R5", "R11 Y2 Y3 B9", "K4", "B3"], laid=[True, True, True, False], phase="play",
            table=[("run", 0, "R9 R10 *")], atu=None)
    play(s, "retrieve 0:2 with R11", "run Y2 Y3 *", "discard B9")
    r = s.round_results()[0]
    assert r["laid_values"] == [15, 70, 0, 0]                         # R9 5 + R10 10
    assert r["scores"] == [15 - 5, 100 + 70, 0 - 5, -100]


# ---- RO-10 restrictions --------------------------------------------------------------------------

def test_ro10_tabla_player_takes_the_last_discard_freely() -> None:
    """RO-10: a player who declared tabla may always take the last discard (no lay-down needed)."""
    s = pos(racks=["R5", "R6 R7 K1 Y9 Y9 B3 B4 B5 K11 K12 K13 R1 R2 R3", "B2", "B3"],
            tabla=[False, True, False, False], train="K1 R5 B7 Y2 K5")
    play(s, "take")
    assert not any(a.startswith(("run", "set", "add", "open")) for a in legal(s))
    play(s, "discard K5")


def test_ro10_unlaid_player_may_not_take_a_discard_that_does_not_help() -> None:
    """RO-10: not laid down: the last discard only when a lay-down holding it exists this turn."""
    s = pos(racks=["R5", "R10 R11 B10 K10 Y10 Y3 Y4 Y5 K1 K7 B2 B4 Y9 R3", "B2", "B3"],
            train="K9 B13")
    assert "take" not in legal(s)
    refused(s, "take", "RO-10")


def test_ro10_staging_player_may_not_add_to_another_players_meld() -> None:
    """RO-8/RO-10: before and during his first lay-down a player grows only the melds he is
    staging: with R10-R11-R12 staged, K11 onto seat 0's K8-K9-K10 is refused naming the rule,
    not as a tile that "does not fit" (it fits); adding R13 to his own staged run is allowed.
    (A planted change that opened every table meld to a staging player changed the refusal to
    "does not fit ... (RO-6, RO-7)" and survived every engine test.)"""
    s = pos(racks=["R5", "R10 R11 R12 R13 K11 Y3 Y4 Y5 Y6 B9 B9", "B2", "B3"], phase="play",
            laid=[True, False, False, False], table=[("run", 0, "K8 K9 K10")])
    play(s, "run R10 R11 R12")
    with pytest.raises(IllegalAction, match=r"only the staged melds grow.*\(RO-8") as err:
        s.apply("add K11 to 0@end")
    assert "does not fit" not in str(err.value)
    refused(s, "add K11 to 0@end", "RO-8")
    play(s, "add R13 to 1@end")


def test_ro10_announced_players_with_three_or_fewer_tiles() -> None:
    """RO-10: a player with three or fewer tiles is announced to all."""
    s = pos(racks=["R5 B6 K7 Y1", "B1 K7 Y3", "B2", "B3 K4 K5 K6 K7"])
    assert s.observation(0)["announced"] == [1, 2]


# ---- RO-11 tabla ---------------------------------------------------------------------------------

def test_ro11_third_own_turn_still_declares_the_fourth_does_not() -> None:
    """RO-11: within the player's own first three turns."""
    for turns, ok in ((3, True), (4, False)):
        s = pos(racks=["R5", "R1 R2 R3 Y7 B1", "B2", "B3"], own_turns=0)
        s.x.own_turns[1] = turns
        s.invalidate_legal()
        assert ("tabla" in legal(s)) is ok


def test_ro11_tabla_player_never_retrieves() -> None:
    """RO-11: a tabla player never lays down or adds, so never retrieves a Joly either."""
    s = pos(racks=["R5", "R11 Y2 Y3 B9 K1", "B2", "B3"], tabla=[False, True, False, False],
            laid=[True, False, False, False], phase="play", table=[("run", 0, "R9 R10 *")])
    assert not any(a.startswith(("retrieve", "add")) for a in legal(s))
    refused(s, "retrieve 0:2 with R11", "RO-11")


# ---- RO-12 scoring -------------------------------------------------------------------------------

def test_ro12_exhausted_game_scores_without_the_closing_bonus() -> None:
    """RO-12: exhausted game: laid minus rack for those laid down, -100 never laid, -200 failed
    tabla, the twin +50, no closing bonus."""
    s = pos(racks=["R5 B6", "K7 Y3", "B2 B4", "B3 K5"], stock="R9", train="K9 Y13",
            laid=[True, True, False, False], tabla=[False, False, False, True], twin=2,
            table=[("run", 0, "R1 R2 R3"), ("set", 1, "Y10 B10 K10")])
    s.x.reshuffled = True
    play(s, "draw", "discard K7")
    r = s.round_results()[0]
    assert r["end"] == "exhausted" and r["winner"] is None
    assert r["scores"] == [35 - 10, 30 - 10, -100 + 50, -200]


def test_ro12_exhausted_game_in_an_atu_1_game_doubles_everyone() -> None:
    """RO-12: Atu is a 1: the whole game counts double, losses included, exhausted too."""
    s = pos(racks=["R5 B6", "K7 Y3", "B2 B4", "B3 K5"], stock="R9", train="K9 Y13",
            laid=[True, True, False, False], tabla=[False, False, False, True], atu="Y1",
            table=[("run", 0, "R1 R2 R3"), ("set", 1, "Y10 B10 K10")])
    s.x.reshuffled = True
    play(s, "draw", "discard K7")
    assert s.round_results()[0]["scores"] == [50, 40, -200, -400]


def test_ro12_added_tiles_count_for_the_player_who_added_them() -> None:
    """RO-12 interpretation: tiles a player adds to other players' melds count as laid by him; the
    finisher need not have the highest score."""
    s = pos(racks=["R5", "R4 Y13 K9", "B2", "B3"], laid=[True, True, False, False], phase="play",
            table=[("run", 0, "R1 R2 R3"), ("set", 0, "R13 B13 K13"), ("run", 0, "B10 B11 B12")],
            atu=None)
    play(s, "add R4 to 0@end", "add Y13 to 1", "discard K9")
    r = s.round_results()[0]
    assert r["laid_values"] == [35 + 30 + 30, 15, 0, 0]
    assert r["scores"] == [95 - 5, 115, -100, -100]


def test_ro12_joly_finish_doubles_the_closing_bonus_and_laid_value() -> None:
    """RO-12: finishing with a Joly discard doubles the finisher's score (bonus and laid tiles)."""
    s = pos(racks=["R5", "Y4 Y5 Y6 *", "B2", "B3"], laid=[True, True, False, False], phase="play",
            atu=None)
    play(s, "run Y4 Y5 Y6", "discard *")
    assert s.round_results()[0]["scores"][1] == 2 * (100 + 15)


def test_ro12_twin_in_a_won_game_is_flat_50() -> None:
    """RO-12: the twin adds a flat 50 to whoever holds it, winner or not (not doubled by a Joly
    finish)."""
    s = pos(racks=["R5", "Y4 Y5 Y6 *", "B2", "B3"], laid=[True, True, False, False], phase="play",
            atu="K8", twin=1)
    play(s, "run Y4 Y5 Y6", "discard *")
    assert s.round_results()[0]["scores"][1] == 2 * (100 + 15) + 50


# ---- RO-13 finishing -----------------------------------------------------------------------------

def test_ro13_finish_ends_the_game_at_once() -> None:
    """RO-13: the first player to empty the rack wins and the game ends; nobody plays after."""
    s = pos(racks=["R5", "Y4 Y5 Y6 K1", "B2", "B3"], laid=[True, True, False, False], phase="play")
    play(s, "run Y4 Y5 Y6")
    assert legal(s) == {"discard K1", "reset"}
    play(s, "discard K1")
    assert s.is_terminal and s.phase is Phase.OVER and s.legal_actions() == []


# ---- RO-12 recomputed independently over bot-played games ------------------------------------

def test_ro12_scores_recomputed_over_playedgames_to_play() -> None:
    """RO-12 (with RO-2, RO-11, RO-13): in 40 games played by the greedy bot (a tenth of the moves
    random), every seat's score equals RO-12 recomputed here from the final table (who laid each
    tile, end values) and racks: 100 + laid (x2 Joly finish) for an etalat finisher, the pattern
    for a tabla close, laid - rack, -100 never laid, -200 failed tabla, +50 twin, x2 Atu 1."""
    import random

    from rummy101.bots import get_bot
    from rummy101.game.engines.remi.table import end_value

    patterns = {"simple": 400, "mozaic": 800, "bicolor": 1600, "monocolor": 3200}
    seen: set[str] = set()
    for seed in range(games_to_play(40)):
        s = new_game("remi(players=3)", seed)
        rng = random.Random(seed)
        bots = [get_bot("greedy", random.Random(seed * 10 + q)) for q in range(s.n)]
        last = None
        while not s.is_terminal:
            p = s.current
            acts = s.legal_actions()
            a = bots[p].act(s.observation(p), acts) if rng.random() < 0.9 else rng.choice(acts)
            if a.verb == "reset":
                a = next((b for b in acts if b.verb != "reset"), a)
            last = a
            s.apply(a)
        r = s.round_results()[-1]
        x = s.x
        laid = [0] * s.n
        for m in s.table:
            for c, b in zip(m.tiles, m.by, strict=True):
                laid[b] += end_value(c)
        atu1 = 0 <= x.atu < J and x.atu % 13 == 0
        w = r["winner"]
        joker = (w is not None and last is not None and last.verb == "discard"
                 and int(last.tiles[0]) == J)
        want = []
        for q in range(s.n):
            if q == w and r["pattern"]:
                d = patterns[r["pattern"]] * (2 if joker else 1)
            elif q == w:
                d = (100 + laid[q]) * (2 if joker else 1)
            elif x.tabla[q]:
                d = -200
            elif not x.laid[q]:
                d = -100
            else:
                d = laid[q] - sum(end_value(c) * s.racks[q][c] for c in range(53))
            if x.twin == q:
                d += 50
            want.append(2 * d if atu1 else d)
        assert r["scores"] == want, (seed, r)
        seen.add(r["pattern"] or ("exhausted" if w is None else "etalat"))
    if games_to_play(40) == 40:                        # the full run meets these kinds
        assert {"etalat", "simple"} <= seen

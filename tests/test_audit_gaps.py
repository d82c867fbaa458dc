"""Rule checks that no audit test could fail before: the conformance audit of 2026-12-03 planted
one change per rule point in a copy of the engines (mutation testing) and ran the engine tests on
it. Each test here fails on its planted change (named in its docstring) and passes on the engines
as they are: the engines were right, the tests were missing. Four of the changes survived every
engine test (RO-9.5, RO-11 twice, RO-10); two (R101-8, RO-4) were caught only by the broad
brute-force files (test_game_exact.py, test_remi_atu.py), not by a test naming the rule.
Positions are built by hand, as in the other audit files; each test names the rule it checks."""

from __future__ import annotations

import pytest
from audit_helpers import legal, play, refused
from rummy101 import IllegalAction
from test_audit_classic import pos as classic_pos
from test_audit_r101 import pos as r101_pos
from test_audit_remi import pos as remi_pos

# ---- Rummy 101 ---------------------------------------------------------------------------------


def test_r101_8_no_pair_beside_staged_runs_and_sets() -> None:
    """R101-8 (one opening is runs/sets or five pairs, never a mix): with a run staged, a pair is
    refused, and with pairs staged a run is refused; nothing changes. (Planted change:
    ``_lay`` accepting a pair beside staged runs/sets.)"""
    s = r101_pos(racks=["R10 R11 R12 K5 K5 Y13 B13 K13 R1 B2", "R2 R3"])
    play(s, "run R10 R11 R12")
    refused(s, "pair K5 K5", "R101-8")
    t = r101_pos(racks=["R10 R11 R12 K5 K5 Y13 B13 K13 R1 B2", "R2 R3"])
    play(t, "pair K5 K5")
    refused(t, "run R10 R11 R12", "R101-8")


# ---- Remi ----------------------------------------------------------------------------------------


def test_ro9_5_retrieval_needs_a_tile_left_for_the_discard() -> None:
    """RO-9.5 with RO-13: the retrieved Joly is re-laid at once with two rack tiles and a tile must
    stay for the discard, so a rack of three (R11 Y7 B7) may not retrieve the Joly of R9-R10-*
    (the set * Y7 B7 would empty it); with a fourth tile it may. (Planted change:
    retrieval offered from three tiles.)"""
    three = remi_pos(racks=["R5", "R11 Y7 B7", "B2", "B3"], laid=[True, True, False, False],
                     phase="play", table=[("run", 0, "R9 R10 *")])
    assert not any(a.startswith("retrieve") for a in legal(three))
    refused(three, "retrieve 0:2 with R11", "RO-9.5")
    four = remi_pos(racks=["R5", "R11 Y7 B7 K9", "B2", "B3"], laid=[True, True, False, False],
                    phase="play", table=[("run", 0, "R9 R10 *")])
    play(four, "retrieve 0:2 with R11", "set * Y7 B7", "discard K9")
    assert four.round_results()[0]["winner"] == 1


def test_ro4_atu_added_to_an_old_meld_does_not_finish() -> None:
    """RO-4: the Atu is laid in a new run/set with at least two rack tiles. Here the Atu may be
    taken (K11 K12 K13 is a new run), but the player puts K11, K12 and the Atu K13 onto the table
    run K8-K9-K10 instead: the rack is down to B5, yet the discard is refused. (Planted change:
    the last discard of an Atu turn allowed without the Atu in a new meld.)"""
    s = remi_pos(racks=["R5", "K11 K12 R7 R8 R9 B5", "B2", "B3"], atu="K13",
                 laid=[True, True, False, False], table=[("run", 0, "K8 K9 K10")])
    play(s, "atu", "run R7 R8 R9", "add K11 to 0@end", "add K12 to 0@end", "add K13 to 0@end")
    assert s.sizes[1] == 1
    refused(s, "discard B5", "RO-4")
    play(s, "reset", "atu", "run R7 R8 R9", "run K11 K12 K13", "discard B5")
    r = s.round_results()[0]
    assert r["winner"] == 1 and r["atu_finish"]


def test_ro11_a_laid_down_player_may_not_declare_tabla() -> None:
    """RO-11: a tabla player never lays down, so a player who has laid down cannot declare tabla,
    even within his first three turns. (Planted change: tabla offered to a laid-down
    player.)"""
    s = remi_pos(racks=["R5", "R1 R2 R3 Y7 B1", "B2", "B3"], laid=[False, True, False, False],
                 own_turns=2)
    assert "tabla" not in legal(s)
    refused(s, "tabla", "RO-11")
    unlaid = remi_pos(racks=["R5", "R1 R2 R3 Y7 B1", "B2", "B3"], own_turns=2)
    assert "tabla" in legal(unlaid)


RACK = "R10 R11 B10 K10 Y10 Y3 Y4 Y5 K1 K7 B2 B4 Y9 R3"     # R12 from the train lays R10-R12


def test_ro11_no_tabla_after_taking_a_discard_for_the_laydown() -> None:
    """RO-11 with RO-10: a player not laid down who took the last discard must use it in his
    lay-down this turn, and a tabla player never lays down: so no tabla declaration after the take
    (it is declared before any play of the turn). (Planted change: tabla offered
    after such a take.)"""
    s = remi_pos(racks=["R5", RACK, "B2", "B3"], train="K9 R12", own_turns=2)
    assert "tabla" in legal(s)
    play(s, "take")
    assert "tabla" not in legal(s)
    refused(s, "tabla", "RO-11")


def test_ro10_open_refused_while_the_taken_discard_is_on_the_rack() -> None:
    """RO-10: a player not laid down takes the last discard only to use it in the lay-down that
    turn. Y10-B10-K10 (30) and Y3-Y4-Y5 (15) are a lay-down of 45 with a run, but the taken R12 is
    not in it: 'open' is refused naming RO-10, and allowed once R10-R11-R12 is staged too.
    (Planted change: 'open' offered with the taken tile still on the rack.)"""
    s = remi_pos(racks=["R5", RACK, "B2", "B3"], train="K9 R12")
    play(s, "take", "set Y10 B10 K10", "run Y3 Y4 Y5")
    assert "open" not in legal(s)
    refused(s, "open", "RO-10")
    play(s, "run R10 R11 R12", "open", "discard K7")
    assert s.x.laid[1] and s.current == 2


def test_ro4_tabla_close_after_the_atu_does_not_discard_the_atu() -> None:
    """RO-4 with RO-11: a tabla player takes the Atu only as the last tile he needs to close, so
    the closing discard is not the Atu itself. With K9 as the Atu, R1-R3 Y4-Y6 B7-B9 K10-K13 and
    Y7 on the rack: discarding Y7 closes with the Atu in K9-K13, while discarding K9 would leave
    a closed rack (Y4-Y7) without the Atu. The refusal names RO-4, not "no tabla pattern" (the
    engine said "discarding K9 leaves no tabla pattern (RO-11)", which is not so). (Planted
    change: any closing discard offered after taking the Atu; it survived every engine test.)"""
    rack = "R1 R2 R3 Y4 Y5 Y6 B7 B8 B9 K10 K11 K12 K13 Y7"
    s = remi_pos(racks=["R5", rack, "B2", "B3"], atu="K9", tabla=[False, True, False, False])
    play(s, "atu")
    assert legal(s) == {"close", "reset"}
    with pytest.raises(IllegalAction, match=r"close.*\(RO-4") as err:        # not yet announced
        s.apply("discard Y7")
    assert "lay" not in str(err.value)                    # a tabla player never lays (RO-11)
    play(s, "close")
    got = {a for a in legal(s) if a.startswith("discard")}
    assert "discard Y7" in got and "discard K9" not in got
    with pytest.raises(IllegalAction, match=r"RO-4") as err:
        s.apply("discard K9")
    assert "no tabla pattern" not in str(err.value)
    refused(s, "discard K9", "RO-4")
    play(s, "discard Y7")
    r = s.round_results()[0]
    assert (r["winner"], r["finish"], r["pattern"], r["atu_finish"]) == (1, "tabla", "simple", True)
    assert r["scores"][1] == 400


# ---- refusals name the rule that is broken ------------------------------------------------------


def test_cr2_cr3_only_a_wrap_around_run_is_refused_for_the_ace() -> None:
    """CR-2 / CR-3: 'run QC 10S 6C' is no run because the cards are not consecutive in one suit
    (CR-3); the engine said "aces are low and kings high: Q-K-A and K-A-2 are no runs (CR-2)" for
    every would-be run starting at a queen or king. Q-K-A and K-A-2 still name CR-2."""
    s = classic_pos(hands=["QC 10S 6C KS AS 2S QS 9D", "5C"], phase="play")
    with pytest.raises(IllegalAction, match=r"CR-3") as err:
        s.apply("run QC 10S 6C")
    assert "ace" not in str(err.value)
    with pytest.raises(IllegalAction, match=r"CR-3") as err:
        s.apply("run KS 10S 6C")
    assert "ace" not in str(err.value)
    refused(s, "run QS KS AS", "CR-2")
    refused(s, "run KS AS 2S", "CR-2")


def test_ro6_refusals_of_non_melds_say_they_are_no_melds() -> None:
    """RO-6 / RO-13: a 'run' that is no run on a rack of three is refused as no run, not as "a tile
    must stay on the rack" (RO-13 applies to melds only); a 'lay' of tiles that are no run is not
    answered with steps that would lay them "one at a time" (the engine suggested 'run K13 R6 B8;
    add R3 to 0@end; ...', none of them legal); 'retrieve' from a meld that is not there names
    RO-9.5, not RO-9.2 (adding)."""
    s = remi_pos(racks=["R5", "K12 Y13 R9", "B2", "B3"], laid=[True, True, False, False],
                 phase="play")
    with pytest.raises(IllegalAction, match=r"RO-6") as err:
        s.apply("run K12 Y13 R9")
    assert "must stay" not in str(err.value)
    refused(s, "run K12 Y13 R9", "RO-6")
    t = remi_pos(racks=["R5", "R12 R13 R1", "B2", "B3"], laid=[True, True, False, False],
                 phase="play")
    refused(t, "run R12 R13 R1", "RO-13")                    # a run: the discard rule applies
    u = remi_pos(racks=["R5", "K13 R6 B8 R3 R5 Y2 K9", "B2", "B3"], laid=[True, True, False, False],
                 phase="play")
    with pytest.raises(IllegalAction, match=r"RO-6") as err:
        u.apply("lay K13 R6 B8 R3 R5 Y2")
    assert "step by step" not in str(err.value) and "run K13" not in str(err.value)
    v = remi_pos(racks=["R5", "R2 R3 R4 R5 R6 R7 K9", "B2", "B3"], laid=[True, True, False, False],
                 phase="play")
    with pytest.raises(IllegalAction, match=r"step by step: run R2 R3 R4; add R5 to 0@end"):
        v.apply("lay R2 R3 R4 R5 R6 R7")                     # a real run: the steps are shown
    refused(u, "retrieve 0:1 with R3", "RO-9.5")


def test_r101_11_refused_addition_reads_cleanly() -> None:
    """R101-11: the refusal of a tile that does not fit a run says where, then the rule, with a
    space between (it read "... at the start(R101-11: ...")."""
    s = r101_pos(racks=["B6 K9 K9", "R2 R3"], opened=["melds", "melds"],
                 table=[("run", 1, "R3 R4 R5")])
    with pytest.raises(IllegalAction, match=r"does not fit run R3 R4 R5 at the end \(R101-11"):
        s.apply("add B6 to 0@end")
    refused(s, "add B6 to 0@end", "R101-11")
    t = r101_pos(racks=["B6 K9 K9", "R2 R3"], opened=["melds", "melds"],
                 table=[("set", 1, "R7 Y7 B7")])
    with pytest.raises(IllegalAction, match=r"does not fit set R7 Y7 B7 \(R101-11"):
        t.apply("add B6 to 0")

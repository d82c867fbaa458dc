"""Rules audit (r101c) of the Rummy 101 engine: combinations the earlier audits
(tests/test_audit_r101.py, test_game_rules.py, test_game_exact.py) do not reach. Positions are
built by hand with test_audit_r101.pos; assertions are on what the engine allows, refuses or
scores."""

from __future__ import annotations

from audit_helpers import legal, play
from test_audit_r101 import pos


def test_r101_4_r101_9_taken_joker_laid_then_a_retrieved_joker_may_stay() -> None:
    """R101-4 with R101-9: an opened player takes the discarded joker and lays it at once in a
    new run (R7 R8 *): the taken tile is used. Retrieving another joker afterwards (R11 into
    R10 * R12) is allowed, and the retrieved joker need not be played (RULES.md R101-9
    interpretation), so the turn may end with it on the rack, or with it as the final discard:
    a joker finish (R101-12/R101-13: +202, the opponent twice the penalty)."""
    def start() -> object:
        s = pos(racks=["R7 R8 R11 K3", "B1 B2"], opened=["melds", "melds"],
                table=[("run", 1, "R10 * R12")], phase="take", last_discard="*")
        play(s, "take", "run R7 R8 *", "retrieve 0:1 with R11")
        return s

    s = start()
    assert {"discard K3", "discard *"} <= legal(s)
    # every seat's observation says the taken joker is used (from the public actions only)
    assert all(s.observation(q)["turn_state"]["must_use"] is None for q in range(2))
    play(s, "discard K3")                                   # the retrieved joker stays
    assert s.current == 1 and s.racks[0][52] == 1

    t = pos(racks=["R7 R8 R11", "B1 B2"], opened=["melds", "melds"],
            table=[("run", 1, "R10 * R12")], phase="take", last_discard="*")
    play(t, "take", "run R7 R8 *", "retrieve 0:1 with R11", "discard *")
    r = t.round_results()[0]
    assert r["winner"] == 0 and r["joker_finish"] is True
    assert t.round_scores() == [[202, -2 * 3]]


def test_r101_4_taken_joker_retrieval_first_then_one_joker_laid() -> None:
    """R101-4 with R101-9, the other order: retrieve first (two jokers on the rack), then lay one
    of them: a joker went from the rack to the table this turn, so the taken one is used (the
    jokers are indistinguishable); with none laid it is still kept and the discard refused."""
    s = pos(racks=["R7 R8 R11 K3", "B1 B2"], opened=["melds", "melds"],
            table=[("run", 1, "R10 * R12")], phase="take", last_discard="*")
    play(s, "take", "retrieve 0:1 with R11")
    assert not any(a.startswith("discard") for a in legal(s))   # nothing laid yet
    assert all(s.observation(q)["turn_state"]["must_use"] == "*" for q in range(2))
    play(s, "run R7 R8 *")
    assert {"discard K3", "discard *"} <= legal(s)
    assert all(s.observation(q)["turn_state"]["must_use"] is None for q in range(2))


def test_r101_4_r101_12_unopened_take_needs_a_tile_left_after_the_opening() -> None:
    """R101-4 with R101-7/R101-8/R101-12: the taken tile must go into an opening that still
    keeps a tile to discard. R13 completes 108 (36 + 39 + 33) only with all nine tiles: no take;
    with R10 more the opening leaves R10 out and keeps it. Pairs alike: the fifth pair from the
    discard with no tile left over is no opening; a spare joker makes it one."""
    s = pos(racks=["R11 R12 Y13 B13 K13 Y10 Y11 Y12", "B1"], phase="take", last_discard="R13")
    assert "take" not in legal(s)
    s = pos(racks=["R10 R11 R12 Y13 B13 K13 Y10 Y11 Y12", "B1"], phase="take", last_discard="R13")
    assert "take" in legal(s)
    s = pos(racks=["R1 R1 Y2 Y2 B3 B3 K4 K4 R5", "B1"], phase="take", last_discard="R5")
    assert "take" not in legal(s)
    s = pos(racks=["R1 R1 Y2 Y2 B3 B3 K4 K4 R5 *", "B1"], phase="take", last_discard="R5")
    assert "take" in legal(s)


def test_r101_9_r101_12_last_tile_releases_a_joker_for_a_joker_finish() -> None:
    """R101-9 with R101-12/R101-13: holding only R11, put it in place of the joker of R10 * R12
    and discard the joker: the rack is empty after the discard, a joker finish (+202, twice
    the opponent's penalty)."""
    s = pos(racks=["R11", "B1 B2"], opened=["melds", "melds"], table=[("run", 1, "R10 * R12")])
    play(s, "retrieve 0:1 with R11", "discard *")
    assert s.round_results()[0]["joker_finish"] is True
    assert s.round_scores() == [[202, -6]]


def test_r101_5_r101_11_three_tile_set_with_a_joker_takes_either_missing_colour() -> None:
    """R101-5/R101-11 with R101-9: R5 Y5 * has two missing colours; either may be added as the
    fourth tile (the joker then stands for the other) or put in place of the joker."""
    s = pos(racks=["B5 K5 R9 R1", "B1"], opened=["melds", "melds"], table=[("set", 1, "R5 Y5 *")])
    assert {"add B5 to 0", "add K5 to 0", "retrieve 0:2 with B5", "retrieve 0:2 with K5"} <= legal(s)
    play(s, "add K5 to 0", "retrieve 0:2 with B5")
    assert s.table[0].value == 20 and s.racks[0][52] == 1

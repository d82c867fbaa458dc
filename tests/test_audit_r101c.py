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
    play(s, "run R7 R8 *")
    assert {"discard K3", "discard *"} <= legal(s)

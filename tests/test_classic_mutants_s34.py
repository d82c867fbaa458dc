"""Classic card Rummy behaviour the thirty-fourth mutation round found unpinned: planted changes
in ``game/engines/classic/{engine,table,world}.py`` that every other test let pass. Positions
are built by hand (card conservation is not the point); each test names the rule it pins."""

from __future__ import annotations

import pytest
from audit_helpers import play, refused
from rummy101 import IllegalAction
from rummy101.game import Phase
from test_audit_classic import pos

# never reaches the core (tests/conftest.py checks it): .ci/run's pure pass leaves it out
pytestmark = pytest.mark.backend_free


def test_cr6_the_finished_match_shows_no_card_to_take_and_no_turn_under_way() -> None:
    """CR-4/CR-6: the play that goes out ends the match once a total reaches the target; then
    there is no turn under way and nothing to take: every seat's observation has
    ``last_discard`` null (the pile still shows its cards) and an empty ``turn_state`` (the
    card taken from the pile for the winning meld is on the table, not 'taken this turn')."""
    s = pos("classic(players=2,target=10)", hands=["QS QC", "KD 2C"], pile="4H QH")
    play(s, "take", "set QS QH QC")
    assert s.phase is Phase.OVER and s.round_scores() == [[12, 0]]
    assert s.round_results()[0]["opened"] == ["melds", None]  # who had melded (CR-3)
    for q in range(2):
        obs = s.observation(q)
        assert obs["last_discard"] is None and obs["discard_pile"] == ["4H"]
        assert obs["turn_state"]["took"] is None and obs["turn_state"]["taken"] is None
        assert obs["known"] == [[], []]


def test_cr5_drawing_from_an_empty_stock_is_refused_naming_cr5() -> None:
    """CR-5: the stock is turned over when it runs out, so a turn never starts with it empty;
    a hand-made position that does is refused a draw citing CR-5 (take the pile's top)."""
    s = pos(hands=["2S 3S", "KD 2C"], stock="", pile="9D 4S")
    refused(s, "draw", "CR-5")
    play(s, "take")


def test_cr3_each_turn_starts_afresh_and_is_counted() -> None:
    """CR-3: a turn is draw (or take), plays, discard; the next player's turn starts with
    nothing drawn (``turn_state.took`` null in every seat's observation) and the turn counter
    goes up by one a turn, through to the round result's ``turns``."""
    s = pos(
        "classic(players=2,target=10)",
        hands=["2S 3S 9H", "KD 2C 7H"],
        stock="5D 6C 4S 8D",
        pile="9D",
    )
    play(s, "draw", "discard 8D")
    assert s.turn == 4 and s.current == 1 and s.phase is Phase.TAKE
    for q in range(2):
        obs = s.observation(q)
        assert obs["turn"] == 4 and obs["turn_state"]["took"] is None
    play(s, "take", "discard 7H")
    assert s.turn == 5 and all(s.observation(q)["turn_state"]["took"] is None for q in range(2))
    play(s, "draw", "run 2S 3S 4S", "discard 9H")
    assert s.phase is Phase.OVER and s.round_results()[0]["turns"] == 6


def test_cr3_a_run_written_out_of_order_is_refused_naming_the_canonical_run() -> None:
    """CR-3: a run is consecutive cards of one suit, written ascending; written in another order
    it is refused citing CR-3 and naming the action to write instead."""
    s = pos(hands=["2S 3S 4S 9H", "KD 2C"])
    play(s, "draw")
    refused(s, "run 4S 2S 3S", r"CR-3\)")
    with pytest.raises(IllegalAction, match="write 'run 2S 3S 4S'"):
        s.apply("run 3S 2S 4S")
    play(s, "run 2S 3S 4S")

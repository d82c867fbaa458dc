"""Hand-made Rummy 101 hint positions that pin down what the planner promises (docs/service.md,
"Full-turn hint"): found by the thirty-fourth round's mutation pass over ``rummy101.hint`` and the
bots, each a behaviour the suite did not check (rule IDs of RULES.md)."""

from __future__ import annotations

from typing import Any

import pytest
from rummy101.bots.strategy import deadwood, kit_for
from rummy101.game import new_game
from rummy101.hint import BadView, SeatView, generic, hint


def _players(n: int = 4, **opened: str) -> list[dict[str, Any]]:
    return [{"seat": s, "opened": opened.get(f"s{s}")} for s in range(n)]


def _hint(alternatives: int = 0, **view: Any) -> dict[str, Any]:
    body = {"seat": 0, "stage": "play", "players": _players(), **view}
    return hint(SeatView.from_json(body), alternatives).to_json()


def _all_turns(answer: dict[str, Any]) -> list[dict[str, Any]]:
    return [answer["turn"], *answer["alternatives"]]


def test_an_opening_worth_exactly_the_threshold_opens() -> None:
    """R101-7: melds worth at least 101 open; 101 itself is enough (13s 39 + 9s 27 + K5-K9 35),
    also when no alternative is asked for."""
    answer = _hint(rack="R13 Y13 B13 R9 Y9 B9 K5 K6 K7 K8 K9 R2 Y4")
    opening = answer["turn"]["steps"][0]
    assert opening["step"] == "open" and opening["kind"] == "melds"
    assert opening["value"] == 101
    assert answer["turn"]["evaluation"]["opened_this_turn"] is True


def test_exactly_five_pairs_open() -> None:
    """R101-8: five pairs open (at least five), also when no alternative is asked for."""
    answer = _hint(rack="R2 R2 Y3 Y3 B4 B4 K5 K5 R6 R6 Y9 K12")
    opening = answer["turn"]["steps"][0]
    assert opening["step"] == "open" and opening["kind"] == "pairs" and opening["value"] == 5


@pytest.mark.parametrize(
    "rack",
    [
        "R10 R11 R12 K11 K12 K13 B11 B12 B13 Y9 Y10 Y11 *",  # 135 without the joker
        "R13 Y13 B13 R9 Y9 B9 K5 K6 K7 K8 K9 *",  # exactly 101 without the joker
    ],
)
def test_an_opening_that_keeps_only_a_joker_finishes_with_it(rack: str) -> None:
    """R101-12/13: a rack that opens with everything but its joker (at least 101, R101-7)
    finishes in one turn with a joker discard (the best finish: +404), rather than laying the
    joker and discarding a tile."""
    answer = _hint(rack=rack)
    ev = answer["turn"]["evaluation"]
    assert ev["finishes"] and ev["joker_finish"] and ev["in_one_turn"]
    assert answer["turn"]["actions"][-1] == "discard *"


def test_a_melds_opener_lays_pairs_once_another_seat_opened_with_pairs() -> None:
    """R101-8: after seat 1's pairs opening, seat 0 (opened with runs/sets) may lay R5 R5; with K4
    added to its K1 K2 K3 (R101-11) only Y9 is left, and discarding it finishes."""
    pairs = [{"owner": 1, "tiles": t} for t in ("R2 R2", "Y3 Y3", "B4 B4", "K6 K6", "K8 K8")]
    answer = _hint(
        players=_players(s0="melds", s1="pairs"),
        table=[*pairs, {"owner": 0, "tiles": "K1 K2 K3"}],
        rack="R5 R5 K4 Y9",
    )
    steps = answer["turn"]["steps"]
    assert [s["step"] for s in steps] == ["lay", "add", "discard"]
    assert steps[0]["melds"][0]["kind"] == "pair" and steps[0]["actions"] == ["pair R5 R5"]
    assert steps[1]["actions"] == ["add K4 to 5@end"]
    assert steps[2]["tile"] == "Y9" and answer["turn"]["evaluation"]["finishes"]


def test_a_joker_of_a_three_tile_set_is_released_by_a_missing_colour() -> None:
    """R101-9 interpretation: in the set R5 * * the jokers stand for missing colours, so Y5
    releases one; the joker then completes K9 K10 *."""
    answer = _hint(
        players=_players(s0="melds", s1="melds"),
        table=[{"owner": 1, "tiles": "R5 * *", "kind": "set"}],
        rack="Y5 K9 K10 B2",
    )
    steps = answer["turn"]["steps"]
    assert steps[0]["step"] == "retrieve" and steps[0]["tile"] == "Y5"
    laid = [m["tiles"] for s in steps if s["step"] == "lay" for m in s["melds"]]
    assert ["K9", "K10", "*"] in laid
    assert answer["turn"]["evaluation"]["penalty_if_round_ended"] == 0


def test_the_discard_does_not_feed_the_next_seat() -> None:
    """R101-4: the next seat (1) has opened and could add R2 to its R3 R4 R5, so the unopened seat
    0 keeps R2 and lets K9 go; seat 3 (the previous one) has not opened, which does not matter."""
    answer = _hint(
        stage="take",
        players=_players(s1="melds"),
        table=[{"owner": 1, "tiles": "R3 R4 R5"}],
        rack="R2 K9 Y11 Y12 B7 B7",
    )
    discards = [s["tile"] for s in answer["turn"]["steps"] if s["step"] == "discard"]
    assert discards == ["K9"]


def test_a_joker_is_not_discarded_while_other_tiles_remain() -> None:
    """R101-12/13: a joker is kept for a joker finish: with nothing to lay, the opened seat
    discards K9, not the joker, in every turn offered."""
    answer = _hint(
        alternatives=5,
        players=_players(s0="melds", s1="melds"),
        table=[{"owner": 1, "tiles": "R3 R4 R5"}],
        rack="* B2 K9",
    )
    for turn in _all_turns(answer):
        assert turn["actions"][-1] != "discard *"
    assert answer["turn"]["actions"][-1] == "discard K9"


def test_two_jokers_are_retrieved_in_one_turn_to_finish() -> None:
    """R101-9: R11 and K6 each release a joker; with both, B9 B10 * * goes down and Y2 is the
    last discard (R101-12). One retrieval alone leaves a tile on the rack."""
    answer = _hint(
        players=_players(s0="melds", s1="melds"),
        table=[{"owner": 1, "tiles": "R10 * R12"}, {"owner": 1, "tiles": "K5 * K7"}],
        rack="R11 K6 B9 B10 Y2",
    )
    retrieved = [s["tile"] for s in answer["turn"]["steps"] if s["step"] == "retrieve"]
    assert sorted(retrieved) == ["K6", "R11"]
    assert answer["turn"]["evaluation"]["finishes"] is True
    assert answer["turn"]["actions"][-1] == "discard Y2"


def test_a_taken_discard_used_only_in_a_retrieval_is_an_alternative_without_additions() -> None:
    """R101-4 / R101-9 / R101-11: the taken B3 is used by releasing the joker of B1 B2 * B4; the
    turn that adds the joker to Y9-Y12 comes first and the one that keeps it (additions are
    optional) is listed after it; every turn uses B3."""
    answer = _hint(
        alternatives=3,
        taken_discard="B3",
        players=_players(s0="melds", s1="melds"),
        table=[{"owner": 1, "tiles": "B1 B2 * B4"}, {"owner": 0, "tiles": "Y9 Y10 Y11 Y12"}],
        rack="R1 K2 B3",
    )
    plays = [t["actions"] for t in _all_turns(answer)]
    assert plays[0] == ["retrieve 0:2 with B3", "add * to 0@end", "discard K2"]
    assert ["retrieve 0:2 with B3", "discard K2"] in plays[1:]
    assert all("retrieve 0:2 with B3" in p for p in plays)


def test_no_finish_in_one_turn_once_another_seat_has_opened() -> None:
    """R101-12: a finish in one turn needs that nobody has opened; seat 1 has, so seat 0's
    opening that empties the rack is a plain finish (+101, not +202)."""
    answer = _hint(
        players=_players(s1="melds"),
        table=[{"owner": 1, "tiles": "B1 B2 B3"}],
        rack="R10 R11 R12 K11 K12 K13 B11 B12 B13 Y9 Y10 Y11 Y2",
    )
    ev = answer["turn"]["evaluation"]
    assert ev["finishes"] is True and ev["opened_this_turn"] is True
    assert ev["in_one_turn"] is False and ev["score"] == 1000.0


def test_the_dearest_tile_takes_the_last_place_in_a_set() -> None:
    """R101-11 / R101-13: the set R8 Y8 B8 has one place left, which K8 or the joker can take;
    the joker goes there (a joker left on the rack costs 101), K8 is discarded and only R1 (1
    point) stays."""
    answer = _hint(
        players=_players(s0="melds", s1="melds"),
        table=[{"owner": 1, "tiles": "R8 Y8 B8"}],
        rack="* K8 R1",
    )
    assert answer["turn"]["actions"] == ["add * to 0", "discard K8"]
    assert answer["turn"]["evaluation"]["penalty_if_round_ended"] == 1


def test_the_discard_is_the_one_that_keeps_least_penalty() -> None:
    """R101-13: opened with nothing to lay, the turn's discard is the one that leaves the least
    on the rack: K13 (the greedy choice would be Y12, keeping K13 for its K11), listed once
    with its best discard (``Turn.play``)."""
    answer = _hint(
        alternatives=3,
        players=_players(s0="melds", s1="melds"),
        table=[{"owner": 1, "tiles": "R3 R4 R5"}],
        rack="K13 K11 Y12 B2",
    )
    assert answer["turn"]["actions"] == ["discard K13"]
    assert answer["turn"]["evaluation"]["penalty_if_round_ended"] == 25
    assert answer["alternatives"] == []


def test_a_button_joker_that_opens_costs_nothing_extra() -> None:
    """R101-10: pressing the joker button costs 20 in the evaluation only when the turn neither
    opens nor finishes (docs/service.md); here the joker completes R10 R11 * and the opening."""
    answer = _hint(
        stage="take",
        rules="rummy101(button_jokers=1)",
        button_available=True,
        rack="R10 R11 K13 K12 K11 Y9 Y8 Y7 B13 B12 B11 R2 Y4 B6",
    )
    turn = answer["turn"]
    assert turn["steps"][0]["step"] == "button" and turn["evaluation"]["opened_this_turn"]
    assert not turn["evaluation"]["finishes"]
    ev = turn["evaluation"]
    assert ev["score"] == -ev["penalty_if_round_ended"] - 3 * ev["tiles_left"]


def test_no_feeding_note_when_the_next_seat_has_not_opened() -> None:
    """R101-4: only an opened next player could take and use a discard; seat 1 (next) has not
    opened, seat 2 has, so seat 0 lets R2 go with no warning about feeding."""
    answer = _hint(
        stage="take",
        players=_players(s2="melds"),
        table=[{"owner": 2, "tiles": "R3 R4 R5"}],
        rack="R2 K9 Y11 Y12 B7 B7",
    )
    discard = answer["turn"]["steps"][-1]
    assert discard["tile"] == "R2"
    assert "next player" not in discard["reason"]


def test_a_table_pair_needs_a_pairs_opening() -> None:
    """R101-8: pairs reach the table only through a pairs opening; a view whose table holds a
    pair while every seat opened with runs/sets is refused, naming the rule."""
    with pytest.raises(BadView, match="R101-8"):
        SeatView.from_json(
            {
                "seat": 0,
                "rack": "R1 K9",
                "players": _players(s0="melds", s1="melds"),
                "table": [{"owner": 1, "tiles": "R5 R5"}],
            }
        )


@pytest.mark.parametrize(
    "rules,seed", [("classic(players=2)", 3), ("remi(players=2)", 2), ("classic(players=3)", 5)]
)
def test_generic_alternatives_are_the_least_deadwood_discards_best_first(
    rules: str, seed: int
) -> None:
    """Remi/classic hints (docs/service.md): the alternatives are listed best first, and those
    that change only the discard are the other discards that leave the least deadwood (RO-12 /
    CR-2 values): none of the discards left out leaves less."""
    state = new_game(rules, seed)
    kit = kit_for(state.rules)
    checked = 0
    for _ in range(120):
        if state.is_terminal or checked >= 6:
            break
        seat = state.current_player
        h = generic.plan(state, seat, alternatives=2)
        scores = [t["evaluation"]["score"] for t in h["alternatives"]]
        assert scores == sorted(scores, reverse=True)
        turn = h["turn"]
        if turn["complete"] and turn["steps"][-1]["step"] == "discard":
            before = state.copy()
            for a in turn["actions"][:-1]:
                before.apply(a)
            listed = {
                t["actions"][-1]
                for t in h["alternatives"]
                if t["actions"][:-1] == turn["actions"][:-1]
            }
            left_out = []
            for d in before.legal_actions():
                if d.verb == "discard" and str(d) not in listed | {turn["actions"][-1]}:
                    counts = list(before.racks[seat])
                    counts[int(d.tiles[0])] -= 1
                    left_out.append(deadwood(kit, counts, keep=False))
            for t in h["alternatives"]:
                if t["actions"][-1] in listed and left_out:
                    assert t["evaluation"]["deadwood"] <= min(left_out), (t["actions"], left_out)
                    checked += 1
        state.apply(generic._greedy(seed).act(state.observation(seat), state.legal_actions()))
    assert checked >= 5

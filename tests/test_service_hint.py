"""Full-turn hints (rummy101.hint, POST /v1/hint): the recommended turn and every alternative are
legal under the Rummy 101 engine (applied to engine states), and hand-made positions get the
expected turn (rule IDs R101-3 .. R101-13)."""

from __future__ import annotations

import json

import pytest
from rummy101 import backend_name
from rummy101.errors import IllegalAction
from rummy101.game import new_game
from rummy101.game.records import dumps
from rummy101.hint import SeatView, hint, meld_actions, view_from_state
from rummy101.service.api import hint as hint_json

FOUR = [{"seat": s, "opened": None} for s in range(4)]


def _players(**opened: str) -> list[dict[str, object]]:
    return [{"seat": s, "opened": opened.get(f"s{s}")} for s in range(4)]


def _steps(answer: dict) -> list[str]:
    return [s["step"] for s in answer["turn"]["steps"]]


def play_with_hints(rules: str, seed: int, max_turns: int = 200) -> tuple[object, int]:
    """Every seat follows the hint; every turn offered is checked on a copy of the state."""
    state = new_game(rules, seed)
    turns = 0
    while not state.is_terminal and turns < max_turns:
        before = state.current_player
        h = hint(view_from_state(state), alternatives=4)
        for turn in (h.turn, *h.alternatives):
            trial = state.copy()
            for action in turn.actions:
                try:
                    trial.apply(action)
                except IllegalAction as exc:  # pragma: no cover - the failure message
                    pytest.fail(f"seed {seed} turn {turns}: {action!r} of {turn.actions} is "
                                f"illegal: {exc}")
            assert trial.is_terminal or trial.current_player != before or turn.actions[0] == "draw"
        for action in h.turn.actions:
            state.apply(action)
        assert state.is_terminal or state.current_player != before
        turns += 1
    return state, turns


@pytest.mark.parametrize("rules,seed", [
    ("rummy101", 0),
    ("rummy101(players=2,threshold=increasing,button_jokers=1)", 1),
])
def test_hinted_turns_are_legal_in_engine_games(rules: str, seed: int) -> None:
    """R101-3: each hinted turn (and each alternative) applies cleanly and ends the turn."""
    state, turns = play_with_hints(rules, seed)
    assert state.is_terminal and turns > 3


# Natively a game of hints takes a few milliseconds, so the many-games check always runs there;
# on the pure backend (seconds per game) it is a slow run.
_MANY = pytest.mark.slow if backend_name() != "native" else (lambda f: f)


@_MANY
@pytest.mark.parametrize("seed", range(2, 26))
def test_hinted_turns_are_legal_in_many_engine_games(seed: int) -> None:
    rules = ["rummy101", "rummy101(players=3,threshold=increasing)",
             "rummy101(players=2,button_jokers=2)", "rummy101(button_jokers=1)"][seed % 4]
    state, _ = play_with_hints(rules, seed)
    assert state.is_terminal


def test_unopened_rack_that_opens_lays_the_opening_then_discards() -> None:
    """R101-7: runs worth >= 101 open; a tile stays to discard (R101-12)."""
    view = SeatView.from_json({"seat": 0, "stage": "play", "players": FOUR,
                               "rack": "R10 R11 R12 K13 K12 K11 Y9 Y8 Y7 B13 B12 B11 R2 Y4"})
    answer = hint(view).to_json()
    assert _steps(answer) == ["open", "discard"]
    opening = answer["turn"]["steps"][0]
    assert opening["kind"] == "melds" and opening["value"] >= 101
    assert opening["actions"][-1] == "open"
    assert answer["turn"]["evaluation"]["opened"] == "melds"


def test_discard_that_completes_the_opening_is_taken() -> None:
    """R101-4: the previous player's R11 completes 101 and must be in the opening."""
    answer = hint_json({"seat": 0, "players": FOUR, "last_discard": "R11",
                        "rack": "R10 R12 K13 K12 K11 Y9 Y8 Y7 B13 B12 B11 R2 Y4 B3 K5"})
    assert _steps(answer)[:2] == ["take_discard", "open"]
    laid = [t for m in answer["turn"]["steps"][1]["melds"] for t in m["tiles"]]
    assert "R11" in laid
    assert answer["turn"]["actions"][0] == "take"
    assert any(alt["steps"][0]["step"] == "draw" for alt in answer["alternatives"])


def test_opened_player_takes_a_discard_that_extends_a_table_run() -> None:
    """R101-4 example: opened, the last discard R6 goes onto R3-R4-R5."""
    answer = hint_json({"seat": 0, "players": _players(s0="melds", s1="melds"),
                        "table": [{"owner": 1, "tiles": "R3 R4 R5"}],
                        "last_discard": "R6", "rack": "K2 Y9 B12"})
    steps = answer["turn"]["steps"]
    assert [s["step"] for s in steps] == ["take_discard", "add", "discard"]
    assert steps[1]["tile"] == "R6" and steps[1]["meld"] == 0
    assert steps[1]["actions"] == ["add R6 to 0@end"]


def test_joker_is_retrieved_and_played() -> None:
    """R101-9: R11 frees the joker of R10 * R12, which completes K5 K6 *."""
    answer = hint_json({"seat": 0, "stage": "play", "players": _players(s0="melds", s1="melds"),
                        "table": [{"owner": 1, "tiles": "R10 * R12"}],
                        "rack": "R11 K5 K6 B2 Y9"})
    steps = answer["turn"]["steps"]
    kinds = [s["step"] for s in steps]
    assert kinds[0] == "retrieve" and steps[0]["tile"] == "R11"
    assert steps[0]["actions"] == ["retrieve 0:1 with R11"]
    laid = [m["tiles"] for s in steps if s["step"] == "lay" for m in s["melds"]]
    added = [s["tile"] for s in steps if s["step"] == "add"]
    assert any("*" in m for m in laid) or "*" in added
    assert answer["turn"]["evaluation"]["penalty_if_round_ended"] < 20


def test_finishing_turn_scores_highest() -> None:
    """R101-12: lay R7-R8-R9 and discard the last tile."""
    answer = hint_json({"seat": 0, "stage": "play", "players": _players(s0="melds"),
                        "rack": "R7 R8 R9 K2"})
    assert _steps(answer) == ["lay", "discard"]
    assert answer["turn"]["evaluation"]["finishes"] is True
    assert answer["turn"]["steps"][-1]["tile"] == "K2"


def test_joker_finish_is_preferred() -> None:
    """R101-13: a joker as the final discard doubles the win."""
    answer = hint_json({"seat": 0, "stage": "play", "players": _players(s0="melds"),
                        "rack": "R7 R8 R9 *"})
    ev = answer["turn"]["evaluation"]
    assert ev["finishes"] and ev["joker_finish"]
    assert answer["turn"]["actions"][-1] == "discard *"


def test_pairs_opening_when_melds_cannot_open() -> None:
    """R101-8: five pairs open with no point total."""
    answer = hint_json({"seat": 1, "stage": "play", "players": FOUR,
                        "rack": "R2 R2 Y3 Y3 B4 B4 K5 K5 R6 R6 Y9 K12"})
    opening = answer["turn"]["steps"][0]
    assert opening["step"] == "open" and opening["kind"] == "pairs" and opening["value"] >= 5
    assert all(a.startswith("pair ") for a in opening["actions"][:-1])


def test_button_offered_only_when_available() -> None:
    """R101-10: the joker button replaces the draw."""
    base = {"seat": 0, "players": FOUR, "rack": "R10 R11 K13 K12 K11 Y9 Y8 Y7 B13 B12 B11 R2"}
    without = hint_json(base)
    assert all(t["steps"][0]["step"] != "button"
               for t in [without["turn"], *without["alternatives"]])
    withb = hint_json({**base, "rules": "rummy101(button_jokers=1)", "button_available": True,
                       "alternatives": 10})
    firsts = [t["steps"][0]["step"] for t in [withb["turn"], *withb["alternatives"]]]
    assert "button" in firsts
    assert withb["turn"]["steps"][0]["step"] == "button"  # the joker opens: 11 with R10 R11


def test_hint_from_observation_and_record_agree() -> None:
    state = new_game("rummy101(players=2)", 4)
    for _ in range(3):
        h = hint(view_from_state(state))
        for a in h.turn.actions:
            state.apply(a)
    obs = state.observation(state.current_player)
    from_obs = hint_json({"observation": obs})
    from_record = hint_json({"record": dumps(state)})
    from_record_obj = hint_json({"record": json.loads(dumps(state))})
    assert from_obs == from_record == from_record_obj


def test_hint_refuses_other_seats_and_finished_games() -> None:
    state = new_game("rummy101(players=2)", 4)
    obs = state.observation(1 - state.current_player)
    with pytest.raises(ValueError, match="turn"):
        hint_json({"observation": obs})
    with pytest.raises(ValueError, match="replace"):
        hint_json({"observation": obs, "rack": "R1"})


def test_meld_actions_lay_long_melds_as_windows() -> None:
    assert meld_actions("run", ["*", "*", "R3", "R4"], 5) == ["run * * R3", "add R4 to 5@end"]
    assert meld_actions("run", ["*", "*", "*", "R4"], 0) == ["run * * R4", "add * to 0@start"]
    assert meld_actions("pair", ["R5", "*"], 1) == ["pair R5 *"]


def test_answer_lists_alternatives_best_first() -> None:
    answer = hint_json({**_example(), "alternatives": 5})
    scores = [answer["turn"]["evaluation"]["score"]] + [
        t["evaluation"]["score"] for t in answer["alternatives"]]
    assert scores == sorted(scores, reverse=True)
    assert len(answer["alternatives"]) <= 5
    for t in [answer["turn"], *answer["alternatives"]]:
        assert all(s["reason"] for s in t["steps"])
        assert t["actions"] == [a for s in t["steps"] for a in s["actions"]]


def _example() -> dict:
    from rummy101.service.examples import EXAMPLES

    return dict(EXAMPLES["hint"])

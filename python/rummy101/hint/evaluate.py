"""The evaluation of a planned turn: the score by which :mod:`.plan` ranks candidate turns.

* a turn that finishes scores ``1000`` (+500 for a joker finish, +500 when it finishes in one turn,
  R101-12/R101-13);
* otherwise ``-(penalty if the round ended now)`` (202 when not opened, the rack's value with a
  joker at 101 when opened with melds, twice that with pairs, R101-13), minus 3 per tile left,
  plus up to 50 for progress towards an opening (best melds value / threshold) and up to 20
  for progress towards a pairs opening;
* a draw is valued on the current rack with the expected penalty of an unknown tile that cannot
  be used; pressing the button when it neither opens nor finishes costs 20 (it is one per round).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..tiles import JOKER_CODE, NUM_CODES, counts_of

if TYPE_CHECKING:  # the planner hands itself in; evaluate never calls back into planning
    from .plan import _Planner, _Work

__all__ = ["evaluate"]

FINISH_SCORE = 1000.0
BUTTON_COST = 20.0
UNUSABLE_DRAW = 0.7  # share of drawn tiles assumed to stay on the rack


def evaluate(planner: _Planner, w: _Work, discard: int,
             take: Mapping[str, Any]) -> dict[str, Any]:
    """The evaluation of a planned turn (the module docstring gives the formula)."""
    view = planner.view
    rest = list(w.rack)  # after the discard
    finished = not rest
    out: dict[str, Any] = {"opened": w.opened, "opened_this_turn": w.opened_now,
                           "tiles_left": len(rest), "finishes": finished}
    if finished:
        joker_finish = discard == JOKER_CODE
        one_turn = not view.anyone_opened and w.opened_now
        score = FINISH_SCORE + (500 if joker_finish else 0) + (500 if one_turn else 0)
        out.update(penalty_if_round_ended=0, joker_finish=joker_finish, in_one_turn=one_turn)
    else:
        if w.opened is None:
            penalty = 202
        else:
            penalty = planner.rack_penalty(rest) * (2 if w.opened == "pairs" else 1)
        score = -float(penalty) - 3.0 * len(rest)
        if w.opened is None:
            best = planner.best_open_value(rest)
            pairs = max(planner.pairs(rest, False)[0], 0) if planner.rules.pairs_allowed else 0
            score += (50.0 * min(1.0, best / view.threshold)
                      + 20.0 * min(1.0, pairs / max(1, view.pairs_threshold)))
            out["best_opening_value_on_rack"] = best
        out["penalty_if_round_ended"] = penalty
    if take.get("step") == "draw":
        expected = _expected_draw_penalty(planner)
        if w.opened is not None:
            score -= UNUSABLE_DRAW * expected
        out["expected_draw_penalty"] = round(expected, 2)
    if take.get("step") == "button" and not (finished or w.opened_now):
        score -= BUTTON_COST
    out["score"] = round(score, 3)
    return out


def _expected_draw_penalty(planner: _Planner) -> float:
    view = planner.view
    seen = counts_of([int(t) for t in view.rack] + [int(t) for m in view.table for t in m.tiles])
    total = weight = 0.0
    for code in range(NUM_CODES - 1):
        left = view.rules.copies - seen[code]
        if left > 0:
            total += left * planner.tile_penalty(code)
            weight += left
    return total / weight if weight else 0.0

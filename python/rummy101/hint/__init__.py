"""Full-turn hints for Rummy 101: from one seat's view, the recommended turn and the next-best.

A turn (R101-3) is one take — draw, take the previous player's discard (R101-4) or press the joker
button (R101-10) — then an opening (R101-7 melds, R101-8 pairs) or, once opened, new melds, joker
retrievals (R101-9) and additions (R101-11), then exactly one discard (R101-12).

* :mod:`.view` — :class:`SeatView`, what the seat knows, read and checked from a request's view
  fields, an engine observation or a game record;
* :mod:`.plan` — the candidate turns, planned on the exact solvers of the core, and :func:`hint`;
* :mod:`.evaluate` — the score that ranks them (its docstring gives the formula);
* :mod:`.actions` — a hint's steps as engine actions.

The answer is a :class:`Hint`; ``Hint.to_json()`` is the body of the answer to ``POST /v1/hint``
(:func:`rummy101.service.api.hint` reads the request). Nothing here imports the service.

>>> view = SeatView.from_json({"rules": "rummy101", "seat": 0, "stage": "play",
...     "rack": "R10 R11 R12 K13 K12 K11 Y9 Y8 Y7 B13 B12 B11 R2 Y4",
...     "players": [{"seat": 0, "opened": None}, {"seat": 1, "opened": None}]})
>>> [step["step"] for step in hint(view).to_json()["turn"]["steps"]]
['open', 'discard']
"""

from __future__ import annotations

from .actions import meld_actions, step_actions, turn_actions
from .evaluate import evaluate
from .plan import Hint, Turn, hint, planned_turns
from .view import (
    HINT_FIELDS,
    BadView,
    SeatView,
    TableMeld,
    state_from_record,
    view_from_observation,
    view_from_state,
)

__all__ = [
    "HINT_FIELDS",
    "BadView",
    "Hint",
    "SeatView",
    "TableMeld",
    "Turn",
    "evaluate",
    "hint",
    "meld_actions",
    "planned_turns",
    "state_from_record",
    "step_actions",
    "turn_actions",
    "view_from_observation",
    "view_from_state",
]

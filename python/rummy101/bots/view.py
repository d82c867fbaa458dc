"""How bots read actions and observations of the game surface (docs/DESIGN.md, Game surface)."""

from __future__ import annotations

from typing import Any

from ..game.actions import _TURN_ENDING

__all__ = ["TURN_ENDING_KINDS", "action_kind", "ends_turn"]

#: Action kinds after which the turn passes to the next seat (an engine Action says it in its
#: ``ends_turn`` field).
TURN_ENDING_KINDS = _TURN_ENDING


def action_kind(action: Any) -> str:
    """The kind of an action: its ``verb`` (engine actions), else the first word of its text."""
    kind = getattr(action, "verb", None)
    if kind is None:
        kind = str(action).split(" ", 1)[0]
    return str(getattr(kind, "value", kind))


def ends_turn(action: Any) -> bool:
    """True for actions that end the turn (a discard, or going out without one)."""
    try:
        return action.verb in TURN_ENDING_KINDS  # engine actions: the fast path
    except AttributeError:
        return action_kind(action) in TURN_ENDING_KINDS

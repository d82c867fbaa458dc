"""What the three rules-audit files (tests/test_audit_*.py) share: how many bot-played games a
recomputation test plays, and the legal / refused / play checks on a game state."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from rummy101 import IllegalAction
from rummy101.game import Action


def games_to_play(native: int) -> int:
    """How many bot-played games a recomputation test plays: all on the native core, a quarter
    (at least 2) on the pure backend, which is some 15x slower (whole file < 20 s on native)."""
    from rummy101 import _backend

    return native if _backend.backend_name() == "native" else max(2, native // 4)


def legal(s: Any) -> set[str]:
    return {str(a) for a in s.legal_actions()}


def legal_by_verb(s: Any) -> tuple[dict[str, Any], dict[str, set[str]]]:
    """The legal actions by their text, and their texts grouped by verb (the step models)."""
    legal_ = {str(a): a for a in s.legal_actions()}
    by_verb: dict[str, set[str]] = {}
    for text, a in legal_.items():
        by_verb.setdefault(a.verb, set()).add(text)
    return legal_, by_verb


def steps(s: Any, limit: int = 20_000) -> Iterator[tuple[int, int, dict[str, Any], dict[str, Any],
                                                      dict[str, set[str]]]]:
    """The steps of a game until it ends (at most ``limit``), as the step models walk them:
    ``(step, seat to move, its observation, legal actions by text, their texts by verb)``, read
    afresh each time (the caller applies an action between two steps)."""
    for step in range(limit):
        if s.is_terminal:
            return
        p = s.current_player
        legal_, by_verb = legal_by_verb(s)
        yield step, p, s.observation(p), legal_, by_verb


def refused(s: Any, action: str, rule: str) -> None:
    """The action is refused citing ``rule`` (an ID such as RO-9.3, matched literally), the state
    is left as it was, and the action is not among the legal ones."""
    before = s.copy()
    with pytest.raises(IllegalAction, match=rule.replace(".", r"\.")):
        s.apply(action)
    assert s == before
    assert str(Action.parse(action, s.rules)) not in legal(s)


def play(s: Any, *actions: str) -> None:
    """Apply the actions in turn, each checked to be legal first."""
    for a in actions:
        got = legal(s)
        assert str(Action.parse(a, s.rules)) in got, f"{a!r} not legal; legal: {sorted(got)}"
        s.apply(a)

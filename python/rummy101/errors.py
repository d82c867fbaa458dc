"""Error types of rummy101.

Every mistake a user can make raises a specific :class:`ValueError` subclass whose message quotes
the offending input and says what is accepted instead.
"""

from __future__ import annotations

import json

__all__ = [
    "BackendError",
    "IllegalAction",
    "NotationError",
    "RackError",
    "RulesError",
    "RummyError",
    "WorkBudgetExceeded",
    "json_problem",
    "pip_extra",
]


def pip_extra(extra: str) -> str:
    """How to install an optional extra, both ways: the package's name asks an index for it, so
    from a source checkout (README's set-up) the path form is the one that works."""
    return f"pip install 'rummy101[{extra}]' (from a source checkout: pip install '.[{extra}]')"


def json_problem(exc: json.JSONDecodeError) -> str:
    """What JSON text got wrong and where, for a message. Python's text ends in a dangling "at"
    for some problems ("Unterminated string starting at"), which the line and column complete;
    a control character inside a string (a raw tab, newline or NUL) is named, with its escape.

    >>> try:
    ...     json.loads('{"rack": "R1')
    ... except json.JSONDecodeError as exc:
    ...     print(json_problem(exc))
    Unterminated string starting at line 1 column 10
    >>> try:
    ...     json.loads('{"rack": "R1\\t"}')
    ... except json.JSONDecodeError as exc:
    ...     print(json_problem(exc))
    Invalid control character U+0009 in a string (write it escaped, \\u0009) at line 1 column 13
    """
    if exc.msg.startswith("Unexpected UTF-8 BOM"):  # Python's "(decode using utf-8-sig)"
        return ("it begins with a byte order mark (U+FEFF, the bytes EF BB BF), which JSON text "
                "does not carry: save or send it as UTF-8 without a BOM")
    msg = exc.msg.removesuffix(" at")
    if msg == "Invalid control character" and exc.pos < len(exc.doc):
        code = ord(exc.doc[exc.pos])
        msg = f"Invalid control character U+{code:04X} in a string (write it escaped, \\u{code:04x})"
    return f"{msg} at line {exc.lineno} column {exc.colno}"


class RummyError(ValueError):
    """Base class of every user-facing input error in rummy101."""


class NotationError(RummyError):
    """A token, rack or meld is not valid notation (CONTRACT.md, Notation)."""


class RulesError(RummyError):
    """An unknown variant or option, or an out-of-range option value."""


class RackError(RummyError):
    """A rack that cannot exist under the rules (too many copies, wrong size, ...)."""


class IllegalAction(RummyError):
    """An action that the rules do not allow in the current state; the message cites the rule."""


class BackendError(RuntimeError):
    """The requested core backend is unknown or not available (e.g. native forced but not built)."""


class WorkBudgetExceeded(RummyError):
    """A core search needed more nodes than its work budget allows (``rummy101.solve.work_budget``).

    Both backends raise it at the same node count for the same rack. ``budget`` is the budget in
    nodes that was spent; ``index`` is the position of the first such rack in a batch (or None)
    and ``partial`` the batch's answers, None where the budget was spent (or None).
    """

    def __init__(self, message: str, budget: int | None = None, index: int | None = None,
                 partial: list[object] | None = None) -> None:
        super().__init__(message)
        self.budget = budget
        self.index = index
        self.partial = partial

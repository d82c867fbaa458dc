"""Parity helper: call one core function on both backends and require equal results *and* equal
error types and messages."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

from rummy101 import _backend
from rummy101.rules import Rules, Valuation


def outcome(fn: Callable[[], Any]) -> tuple[str, Any]:
    try:
        return ("ok", fn())
    except Exception as exc:  # noqa: BLE001 - we compare whatever each backend raises
        return ("error", (type(exc).__name__, str(exc)))


def same(name: str, *args: Any, rules: Rules | None = None, valuation: Valuation = "open",
         native: ModuleType | None = None, pure: ModuleType | None = None) -> Any:
    """Call ``name`` on both backends (CoreRules built for each when ``rules`` is given, as the
    first argument) and assert identical outcomes; returns the result."""
    native = native or _backend._load("native")
    pure = pure or _backend._load("pure")
    results = []
    for bname, mod in (("native", native), ("pure", pure)):
        call_args = args
        if rules is not None:
            call_args = (_backend.core_rules(rules, valuation, bname), *args)
        results.append(outcome(lambda m=mod, a=call_args: getattr(m, name)(*a)))
    assert results[0] == results[1], f"{name}{args!r}: native {results[0]!r} != pure {results[1]!r}"
    kind, value = results[0]
    return value

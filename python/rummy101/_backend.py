"""One small module that picks the core backend (STYLE.md: native core, pure twin, one selector).

``RUMMY101_BACKEND=native|pure`` forces one; unset (or ``auto``) prefers the compiled
``rummy101._core`` and falls back to ``rummy101._pure``. Forcing native when it is not built
is an error (:class:`~rummy101.errors.BackendError`).
"""

from __future__ import annotations

import contextlib
import importlib
import os
import threading
from collections.abc import Iterator
from types import ModuleType
from typing import Any

from .errors import BackendError
from .rules import Rules, Valuation

__all__ = ["available_backends", "backend_name", "core", "core_rules", "set_backend", "using_backend"]

_NAMES = ("native", "pure")
_lock = threading.Lock()
_modules: dict[str, ModuleType] = {}
_active: str | None = None
_core_rules_cache: dict[tuple[str, Rules, str], Any] = {}


def _load(name: str) -> ModuleType:
    if name not in _modules:
        if name == "native":
            try:
                _modules[name] = importlib.import_module("rummy101._core")
            except ImportError as exc:
                raise BackendError(
                    "the native backend (rummy101._core) is not available: the package was installed "
                    f"without a C++ build ({exc}). Reinstall with a C++ compiler present, or use "
                    "RUMMY101_BACKEND=pure") from None
        elif name == "pure":
            _modules[name] = importlib.import_module("rummy101._pure")
        else:
            raise BackendError(f"unknown backend {name!r}; accepted: native, pure")
    return _modules[name]


def available_backends() -> list[str]:
    """The backends that can be loaded here, native first."""
    out = []
    for name in _NAMES:
        try:
            _load(name)
            out.append(name)
        except BackendError:
            pass
    return out


def _choose() -> str:
    forced = os.environ.get("RUMMY101_BACKEND", "").strip().lower()
    if forced in ("", "auto"):
        try:
            _load("native")
            return "native"
        except BackendError:
            _load("pure")
            return "pure"
    if forced not in _NAMES:
        raise BackendError(f"RUMMY101_BACKEND={forced!r} is not a backend; accepted: native, pure, auto")
    _load(forced)
    return forced


def backend_name() -> str:
    """``"native"`` or ``"pure"``: the backend that core calls use now."""
    global _active
    if _active is None:
        with _lock:
            if _active is None:
                _active = _choose()
    return _active


def core() -> ModuleType:
    """The live backend module (``rummy101._core`` or ``rummy101._pure``)."""
    return _modules[backend_name()]


def set_backend(name: str) -> None:
    """Switch the process to another backend (``"native"``, ``"pure"`` or ``"auto"``)."""
    global _active
    if not isinstance(name, str):
        raise BackendError(f"backend name must be a string ('native', 'pure' or 'auto'), got "
                           f"{type(name).__name__} {name!r:.40}")
    n = name.strip().lower()
    with _lock:
        if n == "auto":
            _active = None
        else:
            _load(n)
            _active = n


@contextlib.contextmanager
def using_backend(name: str) -> Iterator[ModuleType]:
    """Run a block on one backend, then restore the previous one (tests, benchmarks)."""
    global _active
    previous = _active
    set_backend(name)
    try:
        yield core()
    finally:
        _active = previous


def core_rules(rules: Rules, valuation: Valuation = "open", backend: str | None = None) -> Any:
    """The backend's ``CoreRules`` object for a rule set and valuation, built once and cached."""
    name = backend or backend_name()
    key = (name, rules, valuation)
    cr = _core_rules_cache.get(key)
    if cr is None:
        cr = _load(name).CoreRules(*rules.params(valuation).args())
        _core_rules_cache[key] = cr
    return cr

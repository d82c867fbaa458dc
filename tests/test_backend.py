"""The backend selector (STYLE.md): RUMMY101_BACKEND forces one; forcing native when missing is an error."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

import rummy101
from rummy101 import BackendError, _backend


def _run(env_value: str, code: str = "import rummy101; print(rummy101.backend_name())") -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, RUMMY101_BACKEND=env_value)
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)


def test_forced_pure() -> None:
    out = _run("pure")
    assert out.returncode == 0 and out.stdout.strip() == "pure"


def test_forced_native_when_available() -> None:
    if "native" not in _backend.available_backends():
        out = _run("native")
        assert out.returncode != 0 and "not available" in out.stderr
    else:
        out = _run("native")
        assert out.returncode == 0 and out.stdout.strip() == "native"


def test_unknown_backend_is_an_error() -> None:
    out = _run("turbo")
    assert out.returncode != 0 and "accepted: native, pure, auto" in out.stderr


def test_using_backend_restores() -> None:
    before = rummy101.backend_name()
    with rummy101.using_backend("pure") as mod:
        assert rummy101.backend_name() == "pure" and mod.__name__ == "rummy101._pure"
    assert rummy101.backend_name() == before
    with pytest.raises(BackendError, match="unknown backend"):
        rummy101.set_backend("gpu")


def test_native_missing_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    """Forcing native where the module cannot be imported raises BackendError, not ImportError."""
    monkeypatch.setitem(sys.modules, "rummy101._core", None)
    monkeypatch.setattr(_backend, "_modules", {k: v for k, v in _backend._modules.items() if k != "native"})
    with pytest.raises(BackendError, match="not available"):
        _backend._load("native")

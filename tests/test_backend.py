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
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120, check=False)


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


@pytest.mark.backend_free
def test_a_test_marked_backend_free_cannot_reach_the_core() -> None:
    """.ci/run's pure pass leaves out the tests marked ``backend_free``; conftest.py holds them to
    the mark: while one runs, no backend can be chosen, loaded or used, nor in a process it starts."""
    with pytest.raises(BackendError):
        rummy101.backend_name()
    for name in ("native", "pure"):
        with pytest.raises(AssertionError, match="backend_free"):
            _backend._load(name)
    with pytest.raises(AssertionError, match="backend_free"):
        _backend.core_rules(rummy101.Rules.parse("rummy101"), backend="pure")
    child = subprocess.run([sys.executable, "-c", "import rummy101; rummy101.backend_name()"],
                           capture_output=True, text=True, timeout=120, check=False)
    assert child.returncode != 0 and "BackendError" in child.stderr


def test_the_backend_fixture_marks_its_tests_each_backend(request: pytest.FixtureRequest,
                                                          backend: str) -> None:
    """.ci/run's pure pass leaves out the tests that run once per backend through the ``backend``
    fixture: they set the live backend themselves, and README's pass ran them all."""
    assert request.node.get_closest_marker("each_backend") is not None
    assert rummy101.backend_name() == backend

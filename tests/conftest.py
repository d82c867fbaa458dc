"""Shared fixtures: every core test can run on both backends and compare them (STYLE.md)."""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator
from types import ModuleType

import pytest
import rummy101
from rummy101 import _backend

BACKENDS = _backend.available_backends()
SHARED = os.path.join(os.path.dirname(__file__), "..", "..", "shared")


def pytest_report_header(config: pytest.Config) -> str:
    return f"rummy101 backends available: {', '.join(BACKENDS)}; live: {rummy101.backend_name()}"


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> Iterator[str]:
    """Run the test once per available backend, with that backend live."""
    with _backend.using_backend(request.param):
        yield request.param


@pytest.fixture
def both() -> tuple[ModuleType, ModuleType]:
    """(native, pure) core modules for parity tests; skipped when the native core is not built."""
    if "native" not in BACKENDS:
        pytest.skip("native core not built")
    return _backend._load("native"), _backend._load("pure")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the tests that choose their backends themselves, so that the second run of the suite
    on the pure backend (.ci/run) can leave them out: they would repeat what README's run did.

    - ``parity``: the tests in test_*parity*.py call both backends and compare them;
    - ``each_backend``: the tests parametrised by the ``backend`` fixture, which runs each of them
      once per backend with that backend live whatever RUMMY101_BACKEND says.
    """
    for item in items:
        if "parity" in item.path.name:
            item.add_marker(pytest.mark.parity)
        callspec = getattr(item, "callspec", None)
        if callspec is not None and "backend" in callspec.params:
            item.add_marker(pytest.mark.each_backend)


class _NoCore(dict):  # type: ignore[type-arg]
    """Stands in for ``_backend._modules`` while a ``backend_free`` test runs: any look-up of a
    backend module fails, so a test marked wrongly fails instead of passing unnoticed."""

    def _refuse(self, *args: object, **kwargs: object) -> None:
        raise AssertionError("a test marked backend_free reached the core (rummy101._backend): "
                             "remove the mark (conftest.py, .ci/run)")

    __getitem__ = __contains__ = get = _refuse  # type: ignore[assignment]


@pytest.fixture(autouse=True)
def _backend_free_guard(request: pytest.FixtureRequest) -> Iterator[None]:
    """A test marked ``backend_free`` claims it never reaches the core (nor asks which backend is
    live), so the pure pass of .ci/run leaves it out. Hold it to that here, on every pass: no
    backend module can be loaded while it runs (nor in the processes it starts or forks)."""
    if request.node.get_closest_marker("backend_free") is None:
        yield
        return
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_backend, "_modules", _NoCore())
        mp.setattr(_backend, "_core_rules_cache", {})
        mp.setattr(_backend, "_active", None)
        mp.setenv("RUMMY101_BACKEND", "none-the-test-is-marked-backend_free")
        yield


def pytest_cmdline_main(config: pytest.Config) -> None:
    """The suite holds no benchmarks (they live in bench/, run with --benchmark-only): with
    pytest-benchmark installed, skip its fixture here, so that pytest-xdist's workers (pyproject's
    ``-n auto``) do not each warn that benchmarks are disabled under xdist."""
    if hasattr(config.option, "benchmark_skip") and not config.option.benchmark_only:
        config.option.benchmark_skip = True


def pytest_sessionfinish(session: pytest.Session) -> None:
    """In a pytest-xdist worker (pyproject's addopts run the suite with ``-n auto``), take out
    the garbage-collector callback Hypothesis installs to time its runs: the worker is stopped
    by interrupting its main thread once its tests are done, and an interrupt that lands inside
    that callback is printed as an "Exception ignored ... KeyboardInterrupt" traceback, after a
    run that passed."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return
    gc.callbacks[:] = [cb for cb in gc.callbacks
                       if not getattr(cb, "__module__", "").startswith("hypothesis.")]

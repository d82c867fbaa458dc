"""The benchmarks run in one process: pyproject's addopts spread the test suite over every core
(``-n auto``), but pytest-benchmark measures nothing under pytest-xdist (it turns itself off), and
timings taken beside other workers would not be a machine's own."""

from __future__ import annotations

import pytest


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto`` means no workers here (an explicit ``-n N`` still spawns them)."""
    return 0

"""Old/new A/B runs shared by the bench scripts (``ab_solve.py``, ``ab_native.py``): each
measurement runs in a child Python with one tree on its PYTHONPATH, and the two trees alternate
(old then new, then new then old) so that drift in the machine's load falls on both alike."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator


def run_child(pythonpath: str, code: str) -> list[list[str]]:
    """Run ``code`` in a child Python with ``pythonpath``; its output's non-empty lines, split."""
    env = dict(os.environ, PYTHONPATH=pythonpath)
    out = subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True,
                         text=True).stdout
    return [line.split() for line in out.splitlines() if line.strip()]


def alternate(old: str, new: str, rounds: int) -> Iterator[tuple[str, str]]:
    """``("old", old)`` and ``("new", new)`` ``rounds`` times each, the order flipped every round."""
    for i in range(rounds):
        order = [("old", old), ("new", new)]
        yield from (reversed(order) if i % 2 else order)

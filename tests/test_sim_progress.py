"""The progress bar shows on a terminal that reports no size (a fresh pty, some containers'
`-t`, an editor's shell: 0 columns), where tqdm's dynamic width drew a bar 0 characters wide:
a long run printed nothing until its end."""

from __future__ import annotations

import io
import os
import sys

import pytest
from rummy101 import sim

pty = pytest.importorskip("pty")


def test_bar_is_drawn_on_a_terminal_of_unknown_width(monkeypatch: pytest.MonkeyPatch) -> None:
    master, slave = pty.openpty()
    try:
        assert os.get_terminal_size(slave).columns == 0  # what the newcomer's terminal said
        term = io.TextIOWrapper(os.fdopen(slave, "wb", buffering=0), write_through=True)
        monkeypatch.setattr(sys, "stderr", term)
        sim.simulate("rummy101(players=2)", "random,random", 3, seed=1, workers=1)
        os.set_blocking(master, False)
        shown = os.read(master, 65536).decode()
    finally:
        os.close(master)
    assert "3/3" in shown and "game" in shown

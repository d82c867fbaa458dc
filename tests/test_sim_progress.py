"""The progress bar shows on a terminal that reports no size (a fresh pty, some containers'
`-t`, an editor's shell: 0 columns), where tqdm's dynamic width drew a bar 0 characters wide:
a long run printed nothing until its end."""

from __future__ import annotations

import io
import os
import select
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
        # the pty hands the output over asynchronously and possibly in several reads: read
        # until the bar's end shows or nothing more comes for 5 s
        chunks: list[bytes] = []
        while b"3/3" not in b"".join(chunks) and select.select([master], [], [], 5.0)[0]:
            chunk = os.read(master, 65536)
            if not chunk:
                break
            chunks.append(chunk)
        shown = b"".join(chunks).decode()
    finally:
        os.close(master)
    assert "3/3" in shown and "game" in shown

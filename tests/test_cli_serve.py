"""``rummy101 serve`` refuses an address it cannot listen on with one line and exit 2, before it
prints the start line (which names the address as if it served there; issue 16, point 8)."""

from __future__ import annotations

import socket

import pytest
from rummy101.cli import main


def test_a_port_in_use_is_said_before_the_start_line(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("uvicorn")
    pytest.importorskip("fastapi")
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(f"rummy101 serve: error: cannot listen on http://127.0.0.1:{port}: ")
    assert "in use" in err and err.count("\n") == 1


def test_an_unknown_host(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("uvicorn")
    pytest.importorskip("fastapi")
    assert main(["serve", "--host", "no-such-host.invalid", "--port", "8101"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("rummy101 serve: error: cannot listen on "
                          "http://no-such-host.invalid:8101: unknown host")

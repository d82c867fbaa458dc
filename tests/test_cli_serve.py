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


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.parametrize("flag", [True, False])
def test_access_log_prints_a_line_per_request(flag: bool) -> None:
    """``--access-log`` (issue 16, point 8): the running service writes a line per request on
    standard error, client, request line and status; without the flag it writes none."""
    pytest.importorskip("uvicorn")
    pytest.importorskip("fastapi")
    import os
    import subprocess
    import sys
    import time
    import urllib.request
    from pathlib import Path

    port = _free_port()
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1] / "python"))
    cmd = [sys.executable, "-m", "rummy101", "serve", "--port", str(port)]
    proc = subprocess.Popen(cmd + (["--access-log"] if flag else []), env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=5) as r:
                    assert r.status == 200
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=30)
    lines = [ln for ln in err.splitlines() if '"GET /health HTTP/1.1" 200' in ln]
    if flag:
        assert lines and "127.0.0.1" in lines[0], err
    else:
        assert not lines, err

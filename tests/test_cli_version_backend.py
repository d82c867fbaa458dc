"""`rummy101 --version` names the core the command line would run on, --backend included.

`rummy101 --help` says --version shows "which core is live (native or pure)" and --backend
picks the core; `rummy101 --backend pure --version` named the native core, because argparse
acts on --version before anything sets the backend.
"""

from __future__ import annotations

import pytest
from rummy101 import _backend
from rummy101.cli import main


@pytest.mark.parametrize(
    "argv",
    [
        ["--backend", "pure", "--version"],
        ["--version", "--backend", "pure"],
        ["--version", "--backend=pure"],
    ],
)
def test_version_names_the_backend_asked_for(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    before = _backend.backend_name()
    assert main(argv) == 0
    assert "(pure core" in capsys.readouterr().out
    assert _backend.backend_name() == before  # --version switched nothing for later calls


def test_version_with_native_asked_names_native_or_says_why_not(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--backend", "native", "--version"]) == 0
    out = capsys.readouterr().out
    if "native" in _backend.available_backends():
        assert "(native core)" in out
    else:
        assert "(no core: " in out and "native" in out


def test_version_with_auto_follows_the_environment(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RUMMY101_BACKEND", "pure")
    assert main(["--backend", "auto", "--version"]) == 0
    assert "(pure core" in capsys.readouterr().out

"""What a careless command-line user typed and got a wrong answer or a wrong pointer for (one
test per finding).

Each test runs the command line in-process through ``rummy101.cli.main``: exit status 0 on
success, 2 on a usage error with a message on standard error that says what to fix.
"""

from __future__ import annotations

import io
import json

import pytest
from rummy101.cli import main


def run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


# --- a single-rack flag with --jsonl ----------------------------------------------------------

def test_no_keep_with_jsonl_is_refused_not_ignored(capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """`solve penalty --jsonl --no-keep` answered every line with "keep": true: the flag was
    dropped without a word, so the penalties were not the ones asked for. Like --threshold and
    --must-use, it is refused and the message says to put "keep" in each line."""
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b'{"rack": "R1 R2 R3"}\n')))
    code, out, err = run(capsys, ["solve", "penalty", "--jsonl", "--no-keep"])
    assert code == 2 and out == ""
    assert "--no-keep applies to --rack" in err and '"keep": false' in err
    # the line's own "keep" still works
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(
        b'{"rack": "R1 R2 R3", "keep": false}\n')))
    code, out, err = run(capsys, ["solve", "penalty", "--jsonl"])
    assert code == 0, err
    assert json.loads(out)["keep"] is False

"""Golden values: the documented deal (R101-2) and seeded random playthroughs must not change by
accident. The playthroughs are readable text files (``tests/playthroughs/``, written by
``tests/playthrough.py``): a failure shows the first step that differs — state, observation,
legal actions or the action played. After an *intended* change of the deal, the action order of
``legal_actions`` or a rule, regenerate with ``PYTHONPATH=python python tests/playthrough.py
--write`` and review the diff."""

from __future__ import annotations

import difflib

import pytest
from playthrough import PLAYTHROUGHS, path_of, render
from rummy101 import Rules
from rummy101.game.deal import shuffled_tiles

DEAL_PREFIX = [33, 46, 12, 16, 0, 34, 23, 36, 44, 42, 40, 45]  # rummy101, seed 0, round 0


def test_deal_golden() -> None:
    """R101-2: the Fisher-Yates deal of deal.py gives these tiles on every machine."""
    assert shuffled_tiles(Rules.parse("rummy101"), 0, 0)[:12] == DEAL_PREFIX


def first_difference(want: str, got: str, context: int = 3) -> str:
    """The first differing lines as a unified diff (long lines cut), for the failure message."""
    diff = difflib.unified_diff(want.splitlines(), got.splitlines(), "golden", "now", n=context,
                                lineterm="")
    lines = []
    for i, line in enumerate(diff):
        if i > 40:
            lines.append("...")
            break
        lines.append(line if len(line) <= 300 else line[:300] + " ...")
    return "\n".join(lines)


@pytest.mark.parametrize("golden", PLAYTHROUGHS, ids=[p[0] for p in PLAYTHROUGHS])
def test_playthrough_golden(golden: tuple[str, str, int, int]) -> None:
    name, rules, seed, rounds = golden
    want = path_of(name).read_text(encoding="utf-8")
    got = render(rules, seed, rounds)
    assert got == want, f"playthrough {name} changed:\n{first_difference(want, got)}"


def test_first_difference_names_the_step() -> None:
    """The failure message points at what changed (a one-action edit of a real file)."""
    want = path_of(PLAYTHROUGHS[0][0]).read_text(encoding="utf-8")
    got = want.replace("apply discard K8", "apply discard K7", 1)
    msg = first_difference(want, got)
    assert "-apply discard K8" in msg and "+apply discard K7" in msg and "## step 0" in msg

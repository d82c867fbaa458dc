"""Readable golden playthroughs (docs/DESIGN.md, "Engines"): a seeded random game written out
step by step as text — the state, the acting seat's observation, the legal actions and the action
played — so that a changed rule, deal or action order shows *what* changed, line by line.

Any playable variant works. The files live in ``tests/playthroughs/``; ``test_game_golden.py``
compares them. After an *intended* change, regenerate and review the diff:

    PYTHONPATH=python python tests/playthrough.py --write
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from rummy101.game import new_game

HERE = Path(__file__).resolve().parent / "playthroughs"

#: (file name, rules, seed, rounds): every rummy101 option appears in one of them.
PLAYTHROUGHS = [
    ("rummy101-seed0", "rummy101", 0, 1),
    ("rummy101-p2-increasing-seed1", "rummy101(players=2,threshold=increasing)", 1, 1),
    ("rummy101-p3-button-seed2", "rummy101(players=3,button_jokers=2)", 2, 1),
]


def render(rules: str, seed: int, rounds: int) -> str:
    """The playthrough text of ``rules`` / ``seed``: random legal actions drawn with
    ``random.Random(seed)``, one block per step."""
    s = new_game(rules, seed, match_rounds=rounds)
    rng = random.Random(seed)
    out = [f"# playthrough {rules} seed={seed} rounds={rounds}"]
    step = 0
    seen: tuple[int, int, int] | None = None
    while not s.is_terminal:
        legal = s.legal_actions()
        action = legal[rng.randrange(len(legal))]
        out.append(f"\n## step {step}: {s!r}")
        turn = (s.round, s.turn, s.current_player)
        if turn != seen:  # the acting seat's whole view once per turn, then its rack per step
            seen = turn
            obs = s.observation(s.current_player)
            out.append("observation " + json.dumps(obs, sort_keys=True, separators=(",", ":")))
        else:
            out.append("rack " + " ".join(map(str, s.rack(s.current_player))))
        out.append(f"legal ({len(legal)}): " + " | ".join(map(str, legal)))
        out.append(f"apply {action}")
        s.apply(action)
        step += 1
    out.append(f"\n## end: {s!r}")
    out.append("standings " + json.dumps(s.standings()))
    out.append("results " + json.dumps(s.round_results(), sort_keys=True))
    return "\n".join(out) + "\n"


def path_of(name: str) -> Path:
    return HERE / f"{name}.txt"


if __name__ == "__main__":
    if "--write" not in sys.argv:
        sys.exit(__doc__)
    HERE.mkdir(exist_ok=True)
    for name, rules, seed, rounds in PLAYTHROUGHS:
        text = render(rules, seed, rounds)
        path_of(name).write_text(text, encoding="utf-8")
        print(f"{path_of(name)}: {text.count('## step')} steps, {len(text)} bytes")

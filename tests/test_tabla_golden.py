"""Golden tabla answers (RULES.md RO-11): the JSON of seeded racks must not change by accident,
on either backend (arrangements included, so the search order of both cores is pinned too).
After an *intended* change, regenerate with ``PYTHONPATH=python python tests/test_tabla_golden.py``
and paste the output."""

from __future__ import annotations

import hashlib
import json
import random

import pytest
from rummy101 import solve_tabla
from rummy101.tiles import Tile, format_tiles

pytestmark = pytest.mark.usefixtures("backend")

DECK = [c for c in range(52) for _ in range(2)] + [52, 52]

GOLDEN = [  # (seed, racks, 15-tile racks that close, closes, sha256[:16] of the JSON answers)
    (0, 60, 5, 18, "48b142a73fc6037d"),
    (1, 60, 11, 25, "0dd4288e281c877c"),
]


def seeded_racks(seed: int, n: int) -> list[str]:
    """Half random racks, half near a pattern (a row, or runs and sets), 14 or 15 tiles."""
    rng = random.Random(seed)
    out: list[str] = []
    while len(out) < n:
        size = 14 + len(out) % 2
        if len(out) % 4 < 2:
            tiles = rng.sample(DECK, size)
        else:
            a, b = rng.sample(range(4), 2)
            cols = rng.choice([[a] * 14, [a if i % 2 == 0 else b for i in range(14)]])
            tiles = [c * 13 + (i if i < 13 else 0) for i, c in enumerate(cols)]
            for _ in range(rng.randrange(3)):
                tiles[rng.randrange(14)] = rng.choice(DECK)
            tiles += [rng.choice(DECK) for _ in range(size - 14)]
        if all(tiles.count(t) <= 2 for t in set(tiles)):
            out.append(format_tiles(Tile(t) for t in tiles))
    return out


def golden(seed: int, n: int) -> tuple[int, int, int, int, str]:
    answers = [solve_tabla("remi", rack) for rack in seeded_racks(seed, n)]
    text = "\n".join(json.dumps(a.to_json(), sort_keys=True) for a in answers)
    closing = sum(1 for a in answers if a.closes)
    closes = sum(len(a.closes) for a in answers)
    return (seed, n, closing, closes, hashlib.sha256(text.encode()).hexdigest()[:16])


@pytest.mark.parametrize("expected", GOLDEN, ids=[f"seed{g[0]}" for g in GOLDEN])
def test_tabla_golden(expected: tuple[int, int, int, int, str]) -> None:
    assert golden(expected[0], expected[1]) == expected


def test_one_answer_in_full() -> None:
    """One answer spelled out: RO-11 Bicolor with a Joly; Mozaic is 2 away (R1 Y2 R3 Y4 repeat
    colours); simple is 10 away (best cover R11 * R13 R1, a high-ace run, RO-6)."""
    out = solve_tabla("remi", "R1 Y2 R3 Y4 R5 * R7 Y8 R9 Y10 R11 Y12 R13 Y1 K9").to_json()
    assert out == {
        "rules": "remi", "rack": "R1 Y2 R3 Y4 R5 * R7 Y8 R9 Y10 R11 Y12 R13 Y1 K9",
        "closes": [{"discard": "K9", "pattern": "bicolor", "score": 1600, "joly_finish": False,
                    "row": ["R1", "Y2", "R3", "Y4", "R5", "*", "R7", "Y8", "R9", "Y10", "R11",
                            "Y12", "R13", "Y1"], "jokers": {"5": "Y6"}}],
        "best": {"discard": "K9", "pattern": "bicolor", "score": 1600, "joly_finish": False,
                 "row": ["R1", "Y2", "R3", "Y4", "R5", "*", "R7", "Y8", "R9", "Y10", "R11",
                         "Y12", "R13", "Y1"], "jokers": {"5": "Y6"}},
        "distance": {"simple": 10, "mozaic": 2, "bicolor": 0, "monocolor": 6},
    }


if __name__ == "__main__":
    for seed, n, *_ in GOLDEN:
        print(f"    {golden(seed, n)!r},")

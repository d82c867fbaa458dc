"""Example requests, shared by the OpenAPI document, ``docs/service.md``, the CLI demo and tests.

>>> sorted(EXAMPLES)
['hint', 'meld', 'opening', 'opening_batch', 'penalty', 'tabla']
"""

from __future__ import annotations

from typing import Any

__all__ = ["DEMO_RACK", "DEMO_REMI_RACK", "EXAMPLES"]

#: A Rummy 101 rack of 22 tiles that opens with melds (R101-7).
DEMO_RACK = "R10 * R12 K13 K12 K11 Y9 Y8 Y7 B13 B12 B11 R2 Y4 B6 K1 R7 Y11 B3 K5 Y2 R13"
#: A Remi rack of 15 tiles that closes on the rack (RO-11 simple close).
DEMO_REMI_RACK = "R1 R2 R3 R4 R5 Y5 Y6 Y7 B9 B10 B11 K12 K13 K1 K5"

EXAMPLES: dict[str, dict[str, Any]] = {
    "opening": {"rules": "rummy101", "rack": DEMO_RACK},
    "opening_batch": {"rules": "rummy101(threshold=increasing)", "threshold": 110,
                      "racks": [DEMO_RACK, "R1 R2 R3 Y5 Y5 B7 B7 K9 K9 R11 R11 * K2", "R1 R1 R1"]},
    "penalty": {"rules": "rummy101", "rack": "R1 R2 R3 Y7 B7 K7 * K13 Y2", "keep": True},
    "tabla": {"rules": "remi", "rack": DEMO_REMI_RACK},
    "meld": {"rules": "rummy101", "meld": ["R10", "*", "R12"]},
    "hint": {
        "rules": "rummy101",
        "seat": 0,
        "rack": "R10 R12 K13 K12 K11 Y9 Y8 Y7 B13 B12 B11 R2 Y4 B6 K1 R7 Y11 B3 K5 Y2 R13",
        "table": [],
        "last_discard": "R11",
        "players": [{"seat": 0, "opened": None}, {"seat": 1, "opened": None},
                    {"seat": 2, "opened": None}, {"seat": 3, "opened": None}],
        "stage": "take",
    },
}

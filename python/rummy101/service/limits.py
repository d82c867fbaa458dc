"""Limits of the JSON operations (CLI ``--jsonl`` and the HTTP service), stated once.

They keep every request bounded in time and memory; the OpenAPI document and ``docs/service.md``
quote these same constants.

>>> MAX_RACK, MAX_BATCH
(40, 10000)
"""

from __future__ import annotations

__all__ = [
    "MAX_RACK",
    "MAX_RACK_CHARS",
    "MAX_MELD",
    "MAX_TABLE_MELDS",
    "MAX_TABLE_TILES",
    "MAX_BATCH",
    "MAX_BODY_BYTES",
    "MAX_RULES_CHARS",
    "MAX_INT",
    "MAX_PENDING",
]

MAX_RACK = 40            # tiles or cards in one rack (a Rummy 101 rack holds at most 23 in play)
MAX_RACK_CHARS = 2_000   # characters of a rack given as one string
MAX_MELD = 14            # tiles in one meld (the longest run is 1-13, or 1-13-1 in Remi)
MAX_TABLE_MELDS = 60     # melds on the table in a hint request
MAX_TABLE_TILES = 106    # tiles on the table in a hint request (the whole Rummy 101 set)
MAX_BATCH = 10_000       # racks in one batch request
MAX_BODY_BYTES = 4 * 1024 * 1024  # bytes of one HTTP request body
MAX_RULES_CHARS = 200    # characters of a rules string
MAX_INT = 1_000_000      # largest magnitude accepted for a number field (thresholds, seats, ...)
MAX_PENDING = 4_096      # requests waiting per operation before the service answers 429 busy

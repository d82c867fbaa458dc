"""Limits of the JSON operations (CLI ``--jsonl`` and the HTTP service), stated once.

They keep every request bounded in time and memory; the OpenAPI document and ``docs/service.md``
quote these same constants.

>>> MAX_RACK, MAX_BATCH, BATCH_SECONDS
(28, 10000, 20.0)
"""

from __future__ import annotations

__all__ = [
    "MAX_RACK",
    "MAX_HINT_RACK",
    "HINT_SECONDS",
    "MAX_RACK_CHARS",
    "MAX_MELD",
    "MAX_TABLE_MELDS",
    "MAX_TABLE_TILES",
    "MAX_BATCH",
    "MAX_BODY_BYTES",
    "MAX_RULES_CHARS",
    "MAX_INT",
    "MAX_PENDING",
    "BATCH_SECONDS",
]

MAX_RACK = 28            # tiles or cards in one rack (in play: Rummy 101 23, Remi 15, classic 8)
MAX_HINT_RACK = 24       # tiles on the rack of a hint request
HINT_SECONDS = 10.0      # planning time of one hint; longer answers 422
MAX_RACK_CHARS = 2_000   # characters of a rack given as one string
MAX_MELD = 14            # tiles in one meld (the longest run is 1-13, or 1-13-1 in Remi)
MAX_TABLE_MELDS = 60     # melds on the table in a hint request
MAX_TABLE_TILES = 106    # tiles on the table in a hint request (the whole Rummy 101 set)
MAX_BATCH = 10_000       # racks in one batch request
MAX_BODY_BYTES = 4 * 1024 * 1024  # bytes of one HTTP request body
MAX_RULES_CHARS = 200    # characters of a rules string
MAX_INT = 1_000_000      # largest magnitude accepted for a number field (thresholds, seats, ...)
BATCH_SECONDS = 20.0     # solving time of one batch request; items left then get an error
MAX_PENDING = 4_096      # requests waiting per operation before the service answers 429 busy

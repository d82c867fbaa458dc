"""Size and time limits of one JSON request, stated once.

The request readers (:mod:`rummy101._validate`) and the hint planner (:mod:`rummy101.hint`) keep
every request bounded with these; the service adds its own limits (batches, bodies, timeouts,
work budgets) in :mod:`rummy101.service.limits`, which publishes them all in ``/v1/info`` and the
OpenAPI document.

>>> MAX_RACK, MAX_HINT_RACK, HINT_SECONDS
(28, 24, 10.0)
"""

from __future__ import annotations

from .rules import MAX_SPEC_CHARS

__all__ = [
    "HINT_SECONDS",
    "MAX_ACTION_CHARS",
    "MAX_HINT_RACK",
    "MAX_INT",
    "MAX_JSON_CONTAINERS",
    "MAX_MELD",
    "MAX_RACK",
    "MAX_RACK_CHARS",
    "MAX_RULES_CHARS",
    "MAX_SEAT_CHARS",
    "MAX_TABLE_MELDS",
    "MAX_TABLE_TILES",
    "SEED_MAX",
]

MAX_RACK = 28            # tiles or cards in one rack (in play: Rummy 101 23, Remi 15, classic 8)
MAX_HINT_RACK = 24       # tiles on the rack of a hint request
HINT_SECONDS = 10.0      # planning time of one hint; longer answers 422
MAX_RACK_CHARS = 2_000   # characters of a rack given as one string
MAX_MELD = 14            # tiles in one meld (the longest run is 1-13, or 1-13-1 in Remi)
MAX_TABLE_MELDS = 60     # melds on the table in a hint request
MAX_TABLE_TILES = 106    # tiles on the table in a hint request (the whole Rummy 101 set)
MAX_RULES_CHARS = MAX_SPEC_CHARS  # characters of a rules string (Rules.parse reads no more)
MAX_INT = 1_000_000      # largest magnitude accepted for a number field (thresholds, seats, ...)
# arrays and objects in one JSON text (counted as its '[' and '{' before it is read): the biggest
# request holds about 20,000 (a batch of 10,000 request objects whose racks are lists), while
# 4 MiB of '[],' held 1.4 million, whose reading (and the collector's passes over them) held the
# interpreter for about a second, and the service answered nothing else meanwhile
MAX_JSON_CONTAINERS = 50_000
MAX_ACTION_CHARS = 200   # characters of one action text in a game record (the longest is ~60)
MAX_SEAT_CHARS = 40      # characters of a seat's name in a game record's "seats"
SEED_MAX = 2**63 - 1     # largest seed: what a game record (JSON, 64-bit) holds; CLI, sim, service alike

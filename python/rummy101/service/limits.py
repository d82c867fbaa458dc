"""Limits of the JSON operations (CLI ``--jsonl`` and the HTTP service), stated once.

They keep every request bounded in time and memory; the OpenAPI document, ``/v1/info`` and
``docs/service.md`` quote these same constants. The limits of one request's content (rack, meld
and table sizes, number ranges, hint time) are defined in :mod:`rummy101._limits`, below the
service, because the request readers and the hint planner need them too; they are listed here
with the service's own.

>>> MAX_RACK, MAX_BATCH, BATCH_SECONDS
(28, 10000, 20.0)
"""

from __future__ import annotations

from .._limits import (
    HINT_SECONDS,
    MAX_HINT_RACK,
    MAX_INT,
    MAX_JSON_CONTAINERS,
    MAX_MELD,
    MAX_RACK,
    MAX_RACK_CHARS,
    MAX_RULES_CHARS,
    MAX_TABLE_MELDS,
    MAX_TABLE_TILES,
)

__all__ = [
    "BATCH_SECONDS",
    "BODY_SECONDS",
    "HEADER_SECONDS",
    "HINT_SECONDS",
    "MAX_BATCH",
    "MAX_BODY_BYTES",
    "MAX_BODY_BYTES_IN_FLIGHT",
    "MAX_HEAD_BYTES",
    "MAX_HINT_RACK",
    "MAX_INT",
    "MAX_IN_FLIGHT",
    "MAX_JSON_CONTAINERS",
    "MAX_MELD",
    "MAX_PENDING",
    "MAX_PIPELINED",
    "MAX_RACK",
    "MAX_RACK_CHARS",
    "MAX_READING",
    "MAX_RULES_CHARS",
    "MAX_TABLE_MELDS",
    "MAX_TABLE_TILES",
    "MAX_WAIT_SECONDS",
    "NATIVE_QUICK_NODES",
    "NATIVE_QUICK_SECONDS",
    "NATIVE_SOLVE_NODES",
    "PURE_QUICK_NODES",
    "PURE_QUICK_SECONDS",
    "PURE_SOLVE_NODES",
    "SHUTDOWN_SECONDS",
    "WRITE_SECONDS",
]

MAX_BATCH = 10_000       # racks in one batch request
MAX_BODY_BYTES = 4 * 1024 * 1024  # bytes of one HTTP request body
BATCH_SECONDS = 20.0     # solving time of one batch request; items left then get an error
MAX_PENDING = 4_096      # requests waiting per operation before the service answers 429 busy
MAX_WAIT_SECONDS = 20.0  # a request that waited this long for a solver thread answers 429 busy
MAX_IN_FLIGHT = 256      # requests one server process holds at once once their bodies arrived
MAX_READING = 1_024      # requests reading their bodies at once (each for BODY_SECONDS at most)
MAX_BODY_BYTES_IN_FLIGHT = 32 * 1024 * 1024  # bytes of request bodies held at once per process
HEADER_SECONDS = 10.0    # a request's headers must arrive within this time of its first byte
MAX_HEAD_BYTES = 64 * 1024  # bytes of a request's line and headers; more answers 431
MAX_PIPELINED = 64       # requests one connection may send ahead of their answers; more: 429
BODY_SECONDS = 10.0      # a request's body must arrive within this time of its headers
WRITE_SECONDS = 10.0     # an answer the client does not read for this long: it is disconnected
SHUTDOWN_SECONDS = 3     # grace for requests in flight on SIGTERM; then they are cancelled
# Work budgets of one core search (search nodes, rummy101.solve.work_budget): a solve that needs
# more answers 422 naming the limit. On a dense rack the native core expands about 1.5 million
# nodes per second on the development machine, the pure twin about 10,000 (it counts the same
# nodes), so each backend has its own budget: the native one refuses no legal rack (the core's
# DEFAULT_WORK_BUDGET, about 1.5 s at most), the pure one stops a search after about 3 s.
NATIVE_SOLVE_NODES = 2_000_000
PURE_SOLVE_NODES = 30_000
# Every request is first tried in the quick lane with this budget per search (ordinary racks of
# up to 28 tiles need at most about 500 nodes; native about 2 ms, pure about 60 ms); one that
# spends it goes to the slow lane (fewer threads) with the full budget, so that dense racks never
# hold the threads that ordinary requests need.
NATIVE_QUICK_NODES = 3_000
PURE_QUICK_NODES = 600
# ... and a request that has run this long in the quick lane (a hint or batch chunk making many
# searches, each within the quick budget) goes on in the slow lane too.
NATIVE_QUICK_SECONDS = 0.1
PURE_QUICK_SECONDS = 1.0

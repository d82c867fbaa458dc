"""The batch path of ``POST /v1/solve/opening``: validated racks straight into the native batch
solver (``solve_melds_batch``, which releases the GIL) and its results straight into CONTRACT.md
JSON, without building intermediate ``Meld`` objects.

A batch of text racks goes further (issue 11, "a thin API"): :func:`read_racks` reads them by
the core's token table in one call, and :func:`answers_json` has the core solve them and write
each answer's JSON (``opening_answers_json``, the same bytes as :func:`openings_json`'s answer
encoded), on up to :func:`batch_threads` threads.

It answers exactly what :func:`rummy101.solve_opening` answers (``tests/test_service_fast.py``
compares them on random racks of every variant, with thresholds and ``must_use``): the best
runs/sets when they reach the threshold, else enough pairs (R101-8), else ``kind: null`` with the
best unconstrained selection.

>>> from rummy101.rules import Rules
>>> r = Rules.parse("rummy101")
>>> [a["kind"] for a in openings_json(r, [r.parse_rack("R1 R2 R3 K9"),
...                                        r.parse_rack("R5 R5 Y7 Y7 B2 B2 K9 K9 * K1 K2")])]
[None, 'pairs']
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from functools import lru_cache
from typing import Any

import numpy as np

from .. import _backend
from ..errors import WorkBudgetExceeded
from ..rules import Rules
from ..solve import (
    BUDGET_SPENT,
    _token_table,
    budget_message,
    current_budget,
    keeps_card,
    keeps_cards,
)
from ..tiles import JOKER_CODE, NUM_CODES, NUM_NUMBERS
from .limits import MAX_RACK, MAX_RACK_CHARS

__all__ = ["answers_json", "batch_threads", "openings_json", "rack_text", "read_racks"]

_KINDS = {1: "run", 2: "set", 3: "pair"}


@lru_cache(maxsize=8)
def _tokens(family: str) -> tuple[str, ...]:
    from ..tiles import Card, Tile

    if family == "tiles":
        return tuple(str(Tile(c)) for c in range(NUM_CODES))
    return tuple(str(Card(c)) for c in range(52)) + ("*",)


def _meld_json(tok: Sequence[str], run_value: Sequence[int], set_value: Sequence[int],
               kind: str, tiles: Sequence[int], stand_for: Sequence[int]) -> dict[str, Any]:
    if kind == "run":
        first = stand_for[0] % NUM_NUMBERS + 1
        value = sum(run_value[first + i] for i in range(len(tiles)))
    else:
        value = sum(set_value[s % NUM_NUMBERS + 1] for s in stand_for)
    return {"kind": kind, "tiles": [tok[t] for t in tiles], "value": value,
            "jokers": {str(i): tok[stand_for[i]] for i, t in enumerate(tiles) if t == JOKER_CODE}}


def openings_json(rules: Rules, racks: Sequence[Sequence[int]], threshold: int | None = None,
                  pairs_threshold: int | None = None, must_use: int = -1) -> list[dict[str, Any]]:
    """CONTRACT.md opening objects for validated racks (codes) that share rules, thresholds and
    ``must_use`` (-1: none; when given, every rack holds it).

    Every core search runs within :func:`rummy101.solve.current_budget` nodes; a rack that
    spends it gets ``{"error": "<rack text>: the rack is too dense ..."}`` in its place and the
    other racks keep their answers.
    """
    if not racks:
        return []
    core = _backend.core()
    cr = _backend.core_rules(rules, "open")
    params = rules.open_params
    run_value, set_value = params.run_value, params.set_value
    t = rules.opening_points if threshold is None else threshold
    p = rules.pairs_opening if pairs_threshold is None else pairs_threshold
    # CR-4: whether a card must stay to discard depends on the hand's size (go_out=narrow)
    keeps = [keeps_card(rules, len(rack)) for rack in racks]
    tok = _tokens(rules.family)
    arr = np.zeros((len(racks), NUM_CODES), dtype=np.uint8)
    for i, rack in enumerate(racks):
        arr[i] = np.bincount(np.asarray(rack, dtype=np.int64), minlength=NUM_CODES)
    budget = current_budget()
    results: list[Any] = [None] * len(racks)
    for keep in set(keeps):
        rows = [i for i, k in enumerate(keeps) if k == keep]
        part = arr if len(rows) == len(racks) else arr[rows]
        for i, res in zip(rows, core.solve_melds_batch(cr, part, keep, must_use,
                                                       rules.opening_needs_run, budget), strict=True):
            results[i] = res
    rules_text = str(rules)
    out: list[dict[str, Any]] = []
    for rack, row, keep, (value, melds) in zip(racks, arr, keeps, results, strict=True):
        if value == BUDGET_SPENT:
            out.append(_budget_error(tok, rack, budget))
            continue
        try:
            out.append(_answer(core, cr, rules, rules_text, tok, run_value, set_value, t, p, keep,
                               must_use, budget, rack, row, value, melds))
        except WorkBudgetExceeded:
            out.append(_budget_error(tok, rack, budget))
    return out


def _budget_error(tok: Sequence[str], rack: Sequence[int], budget: int) -> dict[str, Any]:
    return {"error": f"rack {' '.join(tok[c] for c in rack)}: {budget_message(budget)}"}


def _answer(core: Any, cr: Any, rules: Rules, rules_text: str, tok: Sequence[str],
            run_value: Sequence[int], set_value: Sequence[int], t: int, p: int, keep: bool,
            must_use: int, budget: int, rack: Sequence[int], row: Any, value: int,
            melds: Any) -> dict[str, Any]:
    kind: str | None = None
    shown: list[tuple[str, Sequence[int], Sequence[int]]]
    if value >= t and melds:
        kind = "melds"
        shown = [(_KINDS[k], tiles, sf) for k, tiles, sf in melds]
    else:
        shown = []
        counts = row.tolist()
        if rules.pairs_allowed:
            n, pairs = core.max_pairs(counts, keep, must_use, budget)
            if n >= p and n > 0:
                kind, value = "pairs", n
                shown = [("pair", [a, b], [a, a]) for a, b in pairs]
        if kind is None:
            if value < 0:  # must_use or the run requirement cannot be met
                value, melds = core.solve_melds(cr, counts, keep, -1, False, budget)
                value = max(value, 0)
            shown = [(_KINDS[k], tiles, sf) for k, tiles, sf in melds]
    left = row.astype(np.int64)
    for _, tiles, _ in shown:
        for c in tiles:
            left[c] -= 1
    return {
        "rules": rules_text,
        "rack": " ".join(tok[c] for c in rack),
        "kind": kind,
        "value": int(value),
        "melds": [_meld_json(tok, run_value, set_value, k, tiles, sf)
                  for k, tiles, sf in shown],
        "rest": [tok[c] for c in np.repeat(np.arange(NUM_CODES), left).tolist()],
    }


# ---- text racks in, JSON out (issue 11) --------------------------------------------------------
@lru_cache(maxsize=8)
def _json_tokens(family: str) -> tuple[str, ...]:
    return tuple(json.dumps(t, ensure_ascii=False)[1:-1] for t in _tokens(family))


@lru_cache(maxsize=64)
def _rules_json(rules: Rules) -> str:
    return json.dumps(str(rules), ensure_ascii=False)


def read_racks(rules: Rules, texts: Sequence[Any]) -> tuple[Any, Any, Any, Any]:
    """Read the text racks of a batch with the token table (``tokenize_racks``): (counts (n, 53),
    codes in rack order, offsets (n + 1,), ok (n,)). A rack is ok only when it is a string that
    ``_validate.read_rack`` would read by its own table (tiles: commas separate tokens too) into
    the same tiles, at most :data:`MAX_RACK` of them and :data:`MAX_RACK_CHARS` characters, within
    the set's copies; every other item (a list, an unknown token, a mistake) is left to the
    request reader, which answers it or names its mistake as before."""
    table, _ = _token_table(rules.family)
    read: tuple[Any, Any, Any, Any] = _backend.core().tokenize_racks(
        texts, table, rules.copies, rules.max_rack_jokers, rules.family == "tiles", MAX_RACK,
        MAX_RACK_CHARS)
    return read


def rack_text(rules: Rules, codes: Sequence[int]) -> str:
    """A rack's canonical text, as the answers quote it."""
    tok = _tokens(rules.family)
    return " ".join(tok[c] for c in codes)


_POOL: ThreadPoolExecutor | None = None
_POOL_LOCK = threading.Lock()


def batch_chunk(native: int) -> int:
    """Racks per batch-solver call (a batch's time budget is checked between calls): ``native``
    on the native backend; one on the pure backend, where one dense rack may spend its whole
    work budget (30,000 nodes, about 3 s): a call of 256 such racks held the slow lane for
    minutes past the batch's 20 s (23 dense racks answered after 31 s, 460 after 54 s, load
    average 10), and one rack a call costs the pure solver nothing measurable."""
    return native if _backend.backend_name() == "native" else 1


def batch_threads() -> int:
    """Threads that solve one batch chunk at once: natively up to two (the core releases the
    GIL; the development machine has two cores), one on the pure backend (it holds the GIL)."""
    if _backend.backend_name() != "native":
        return 1
    return max(1, min(2, os.cpu_count() or 1))


def _pool(workers: int) -> ThreadPoolExecutor:
    global _POOL
    with _POOL_LOCK:
        if _POOL is None or _POOL._max_workers < workers:
            _POOL = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="rummy101-batch")
        return _POOL


def answers_json(rules: Rules, counts: Any, codes: Any, offsets: Any, threshold: int | None,
                 pairs_threshold: int | None, must_use: int, threads: int = 1) -> list[bytes | None]:
    """The CONTRACT.md opening answers, as JSON bytes, of racks read by :func:`read_racks` (rows
    of ``counts``; rack i is ``codes[offsets[i]:offsets[i + 1]]``) that share the thresholds and
    ``must_use`` (-1: none; when given, every rack holds it). None where a rack spent the work
    budget (:func:`rummy101.solve.current_budget` nodes per search). ``threads`` > 1 splits the
    racks between this thread and pool threads (natively the GIL is released while solving)."""
    n = len(counts)
    if n == 0:
        return []
    core = _backend.core()
    cr = _backend.core_rules(rules, "open")
    offsets = offsets - offsets[0]
    keeps = keeps_cards(rules, offsets[1:] - offsets[:-1]).astype(np.uint8)
    t = rules.opening_points if threshold is None else threshold
    p = rules.pairs_opening if pairs_threshold is None else pairs_threshold
    fixed = (must_use, rules.opening_needs_run, current_budget(), t, p, rules.pairs_allowed,
             _json_tokens(rules.family), _rules_json(rules))

    def part(lo: int, hi: int) -> list[bytes | None]:
        return core.opening_answers_json(cr, counts[lo:hi], codes[offsets[lo]:offsets[hi]],  # type: ignore[no-any-return]
                                         offsets[lo:hi + 1] - offsets[lo], keeps[lo:hi], *fixed)

    threads = max(1, min(threads, n // 16))  # a few racks: not worth a thread hop
    if threads == 1:
        return part(0, n)
    bounds = [n * k // threads for k in range(threads + 1)]
    futures: list[Future[list[bytes | None]]] = [
        _pool(threads - 1).submit(part, bounds[k], bounds[k + 1]) for k in range(1, threads)]
    out = part(bounds[0], bounds[1])
    for f in futures:
        out += f.result()
    return out

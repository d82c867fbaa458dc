"""pytest-benchmark of the exact solvers on the shared racks (../shared/bench, peers' figures in
its README). Run: PYTHONPATH=python:bench python -m pytest bench/bench_solve.py --benchmark-only

Each benchmark solves every rack of a file once per round (racks/s = racks / mean time).
The pure backend is measured on the first 20 racks only (it is ~100x slower)."""

from __future__ import annotations

import pytest
from _racks import RACK_FILES, WORKLOADS, load_counts, solver
from rummy101 import _backend

BACKENDS = _backend.available_backends()


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("workload", list(WORKLOADS))
@pytest.mark.parametrize("name", RACK_FILES)
def test_solve_melds(benchmark, backend: str, workload: str, name: str) -> None:  # type: ignore[no-untyped-def]
    call, rules = solver(workload, backend)
    arr = load_counts(name, rules)
    racks = [[int(x) for x in row] for row in arr]
    if backend == "pure":
        racks = racks[:20]
    benchmark.extra_info["racks"] = len(racks)

    def run() -> None:
        for r in racks:
            call(r)

    benchmark(run)


@pytest.mark.parametrize("fn", ["solve_melds_batch", "solve_values_batch"])
@pytest.mark.parametrize("name", RACK_FILES)
def test_batch_native(benchmark, name: str, fn: str) -> None:  # type: ignore[no-untyped-def]
    """The core on a whole file in one call: the answers with their melds (solve_melds_batch) and
    the value alone, no rebuild of the arrangement (solve_values_batch; docs/solve.md, "The value
    alone")."""
    if "native" not in BACKENDS:
        pytest.skip("native core not built")
    from rummy101 import Rules
    rules = Rules.parse("rummy101")
    core = _backend._load("native")
    cr = _backend.core_rules(rules, "open", "native")
    arr = load_counts(name, rules)
    benchmark.extra_info["racks"] = len(arr)
    benchmark(getattr(core, fn), cr, arr, True, -1, False)


@pytest.mark.parametrize("copies", [1, 100])
def test_opening_values_native(benchmark, copies: int) -> None:  # type: ignore[no-untyped-def]
    """The public value-only batch on text racks (racks_22), against test_solve_openings_native."""
    from rummy101 import opening_values
    _text_batch(benchmark, opening_values, copies)


def _text_batch(benchmark, fn, copies: int) -> None:  # type: ignore[no-untyped-def]
    """Time ``fn(rules, texts)`` natively on racks_22's racks as text, ``copies`` times over."""
    if "native" not in BACKENDS:
        pytest.skip("native core not built")
    from rummy101 import Rules
    from rummy101.tiles import format_tiles
    rules = Rules.parse("rummy101")
    texts = [format_tiles(rules.parse_rack([rules.piece(c) for c in range(53) for _ in range(int(row[c]))]))
             for row in load_counts("racks_22.txt", rules)] * copies
    benchmark.extra_info["racks"] = len(texts)
    with _backend.using_backend("native"):
        benchmark.pedantic(fn, (rules, texts), rounds=3 if copies > 1 else 10)


@pytest.mark.parametrize("backend", BACKENDS)
def test_max_pairs(benchmark, backend: str) -> None:  # type: ignore[no-untyped-def]
    from rummy101 import Rules
    arr = load_counts("racks_22.txt", Rules.parse("rummy101"))
    racks = [[int(x) for x in row] for row in arr]
    fn = _backend._load(backend).max_pairs
    benchmark(lambda: [fn(r, True, -1) for r in racks])


@pytest.mark.parametrize("copies", [1, 100])
def test_solve_openings_native(benchmark, copies: int) -> None:  # type: ignore[no-untyped-def]
    """The public batch on text racks: racks_22 once (300 racks) and 100 times (30,000), where
    the answers alive at once weigh on allocation and the garbage collector (docs/solve.md)."""
    from rummy101 import solve_openings
    _text_batch(benchmark, solve_openings, copies)


def test_solve_opening_native(benchmark) -> None:  # type: ignore[no-untyped-def]
    """The public single-rack call on text racks, one call per racks_22 rack: the text read
    (TokenTable), the solve and the answer, against test_solve_melds's core call per rack
    (issue 11 item 4: at least half the core's racks/s)."""
    if "native" not in BACKENDS:
        pytest.skip("native core not built")
    from rummy101 import Rules, solve_opening
    from rummy101.tiles import format_tiles
    rules = Rules.parse("rummy101")
    texts = [format_tiles(rules.parse_rack([rules.piece(c) for c in range(53) for _ in range(int(row[c]))]))
             for row in load_counts("racks_22.txt", rules)]
    benchmark.extra_info["racks"] = len(texts)
    with _backend.using_backend("native"):
        benchmark(lambda: [solve_opening(rules, t) for t in texts])

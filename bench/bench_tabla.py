"""Tabla speed (RULES.md RO-11): every closing discard of a 15-tile rack, native against pure.

Target: ``tabla_closes`` ≤ 50 µs per 15-tile rack on the native core. Each benchmark runs one
call per rack over a fixed, seeded batch (random racks and racks built near each pattern, with
Jolys and high aces); ``extra_info["per_rack_us"]`` is the mean time per rack.

    PYTHONPATH=python python -m pytest bench/bench_tabla.py --benchmark-only
"""

from __future__ import annotations

import random

import pytest
from rummy101 import _backend
from rummy101.rules import Rules

REMI = Rules.parse("remi")
JOKER = 52
DECK = [c for c in range(52) for _ in range(2)] + [JOKER, JOKER]
BACKENDS = _backend.available_backends()


def _code(colour: int, number: int) -> int:
    return colour * 13 + (1 if number == 14 else number) - 1


def _racks(seed: int, n: int, size: int) -> list[list[int]]:
    rng = random.Random(seed)
    out: list[list[int]] = []
    while len(out) < n:
        style = len(out) % 4
        if style == 0:
            tiles = rng.sample(DECK, size)
        elif style == 1:  # near a row pattern
            a, b = rng.sample(range(4), 2)
            cols = [a] * 14 if rng.random() < 0.5 else [a if i % 2 == 0 else b for i in range(14)]
            tiles = [_code(c, i + 1) for i, c in enumerate(cols)]
            tiles[rng.randrange(14)] = rng.choice(DECK)
            tiles.append(rng.choice(DECK))
        else:  # near a simple close
            tiles = []
            while len(tiles) < size:
                if rng.random() < 0.6:
                    c, s = rng.randrange(4), rng.randrange(1, 13)
                    tiles += [_code(c, q) for q in range(s, min(15, s + rng.randrange(3, 6)))]
                else:
                    number = rng.randrange(1, 14)
                    tiles += [_code(c, number) for c in rng.sample(range(4), rng.choice((3, 4)))]
            tiles = tiles[:size]
            if style == 3:
                tiles[rng.randrange(size)] = JOKER
        counts = [0] * 53
        for t in tiles[:size]:
            counts[t] += 1
        if sum(counts) == size and max(counts[:52]) <= 2 and counts[JOKER] <= 2:
            out.append(counts)
    return out


RACKS15 = _racks(2026, 200, 15)
RACKS14 = _racks(2027, 200, 14)


def _run(benchmark: pytest.FixtureRequest, name: str, racks: list[list[int]], backend: str) -> None:
    mod = _backend._load(backend)
    cr = _backend.core_rules(REMI, "open", backend)
    fn = getattr(mod, name)

    def batch() -> None:
        for counts in racks:
            fn(cr, counts)

    benchmark(batch)
    benchmark.extra_info["racks"] = len(racks)
    benchmark.extra_info["per_rack_us"] = round(benchmark.stats.stats.mean / len(racks) * 1e6, 2)
    median = benchmark.stats.stats.median
    benchmark.extra_info["per_rack_us_median"] = round(median / len(racks) * 1e6, 2)


@pytest.mark.parametrize("backend", BACKENDS)
def test_tabla_closes_15(benchmark, backend: str) -> None:  # type: ignore[no-untyped-def]
    _run(benchmark, "tabla_closes", RACKS15, backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_tabla_patterns_14(benchmark, backend: str) -> None:  # type: ignore[no-untyped-def]
    _run(benchmark, "tabla_patterns", RACKS14, backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_tabla_distance_14(benchmark, backend: str) -> None:  # type: ignore[no-untyped-def]
    _run(benchmark, "tabla_distance", RACKS14, backend)

"""Memory and speed of ``rummy101 report`` on big files: the streamed read (sim.report.summarise,
what the CLI runs) against the in-memory one (read_records + drop_duplicates + group_records,
what it ran before), on the same file in one run.

    PYTHONPATH=python python -m pytest bench/bench_report.py --benchmark-only
    PYTHONPATH=python python bench/bench_report.py [games]       # plain figures (default 200,000)

The file: Rummy 101 summary lines of a 4-player line-up, made from a real run of 500 games whose
deal and bot seeds are shifted per copy, so that every line is a distinct game (no repeat is
dropped). Memory is tracemalloc's peak of each path, over the games (bytes a game); time is
process CPU time. Goal: the report's memory does not grow with the records (before: ~1,700
bytes a game, ~17 GB for 10,000,000 games; the digests that find repeats are what remains).
"""

from __future__ import annotations

import gc
import json
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from rummy101 import sim
from rummy101.sim.io import iter_records, read_records
from rummy101.sim.report import drop_duplicates, format_report, group_records, summarise


def make_file(path: Path, games: int) -> None:
    base = sim.simulate("rummy101", "greedy,random,random,random", 500, seed=3, workers=1,
                        progress=False).records
    with path.open("w") as fh:
        for g in range(games):
            d = base[g % len(base)].to_json()
            shift = g // len(base)
            d["game"] = g
            d["seed"] = d["game_seed"] = d["seed"] + shift
            d["bot_seeds"] = [b + shift for b in d["bot_seeds"]]
            fh.write(json.dumps(d) + "\n")


def streamed(path: Path) -> str:
    groups, _ = summarise(iter_records(path))
    return format_report(groups)


def in_memory(path: Path) -> str:
    kept, _ = drop_duplicates(read_records(path))
    return format_report(group_records(kept))


def measure(fn: Callable[[Path], str], path: Path) -> tuple[int, float, str]:
    """(peak bytes, CPU seconds, the report) of one call."""
    gc.collect()
    tracemalloc.start()
    t0 = time.process_time()
    text = fn(path)
    cpu = time.process_time() - t0
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak, cpu, text


@pytest.fixture(scope="module")
def big_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("report") / "games.jsonl"
    make_file(path, 50_000)
    return path


@pytest.mark.parametrize("how", ["streamed", "in_memory"])
def test_report_read(benchmark: Any, big_file: Path, how: str) -> None:
    fn = streamed if how == "streamed" else in_memory
    text = benchmark.pedantic(fn, args=(big_file,), rounds=2, iterations=1)
    peak, _, again = measure(fn, big_file)
    assert text == again and text.startswith("50,000 games")
    benchmark.extra_info["bytes_per_game"] = round(peak / 50_000)


def main(games: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "games.jsonl"
        make_file(path, games)
        print(f"{games:,} distinct games, {path.stat().st_size / 1e6:,.0f} MB of JSON lines")
        texts = []
        for name, fn in (("streamed (summarise)", streamed), ("in memory (before)", in_memory)):
            peak, cpu, text = measure(fn, path)
            texts.append(text)
            print(f"{name:22} peak {peak / 1e6:8,.1f} MB = {peak / games:6,.0f} bytes a game, "
                  f"{cpu:6.1f} s CPU")
        print("same report:", texts[0] == texts[1])


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200_000)

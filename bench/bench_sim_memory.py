"""Memory of a simulation that streams its games (``simulate(..., keep_records=False)``, what
``rummy101 sim`` runs) against one that keeps them (the default of ``simulate``, what the CLI
ran before), on the same real games in one run.

    PYTHONPATH=python python -m pytest bench/bench_sim_memory.py --benchmark-only
    PYTHONPATH=python python bench/bench_sim_memory.py [games]   # plain figures (default 40,000)

Both play the same seeded Rummy 101 games (greedy against three random bots) on two worker
processes and hand each batch to ``on_records`` (as ``--out`` does, here a counter). Each run
is a fresh process, and memory is tracemalloc's peak in the run's own process (what grows with
the games there: records, tallies, chunks, futures; the workers' engine memos are bounded, the
same in both, and not counted), over the games (bytes a game). Goal: the streamed run's memory
does not grow with the games (before: ~1.1 KB a game kept until the end, ~11 GB at the
10,000,000 games one run could hold).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from typing import Any

import pytest

RULES, BOTS = "rummy101", "greedy,random,random,random"


CHILD = """
import json, sys, time, tracemalloc
from rummy101 import sim
games, keep = int(sys.argv[1]), sys.argv[2] == "kept"
seen = [0]
def count(batch):
    seen[0] += len(batch)
tracemalloc.start()
t0 = time.monotonic()
res = sim.simulate(%r, %r, games, seed=1, workers=2, progress=False, keep_records=keep,
                   on_records=count)
wall = time.monotonic() - t0
peak = tracemalloc.get_traced_memory()[1]
assert seen[0] == games == res.games
print(json.dumps({"peak": peak, "wall": wall, "summary": res.summary()}))
"""


def run(games: int, keep: bool) -> tuple[int, float, str]:
    """(peak bytes in the run's process, wall seconds, the summary) of a fresh process."""
    env = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join(
            p
            for p in (
                os.path.join(os.path.dirname(__file__), "..", "python"),
                os.environ.get("PYTHONPATH"),
            )
            if p
        ),
    )
    out = subprocess.run(
        [sys.executable, "-c", CHILD % (RULES, BOTS), str(games), "kept" if keep else "streamed"],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    ).stdout
    d = json.loads(out)
    return d["peak"], d["wall"], d["summary"]


@pytest.mark.parametrize("keep", [False, True], ids=["streamed", "kept"])
def test_sim_memory(benchmark: Any, keep: bool) -> None:
    summary = benchmark.pedantic(lambda: run(2000, keep)[2], rounds=1, iterations=1)
    assert summary.startswith("2,000 games")


def main(games: int) -> None:
    small = max(1, games // 8)
    t0 = time.monotonic()
    got = {(n, keep): run(n, keep) for n in (small, games) for keep in (False, True)}
    assert got[games, False][2] == got[games, True][2], "the two runs' summaries differ"
    for (n, keep), (peak, wall, _) in got.items():
        print(
            f"{'kept' if keep else 'streamed':9} {n:>9,} games: peak {peak / 1e6:8.2f} MB = "
            f"{peak / n:8,.0f} bytes a game, {wall:6.1f} s (traced: the workers inherit "
            f"tracemalloc)"
        )
    grow = (
        {
            keep: (got[games, keep][0] - got[small, keep][0]) / (games - small)
            for keep in (False, True)
        }
        if games > small
        else {False: 0.0, True: 0.0}
    )
    print(
        f"growth from {small:,} to {games:,} games: streamed {grow[False]:,.0f} bytes a game, "
        f"kept {grow[True]:,.0f}; the same summaries; {time.monotonic() - t0:.0f} s in all"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 40_000)

"""Where a sim worker's memory goes: one process plays GAMES ``greedy,random`` games of RULES
(as ``rummy101 sim --workers 1 --seed 11`` does) and prints, every STEP games, one JSON line:
VmRSS/VmHWM/RssAnon/RssFile (MB, /proc/self/status), glibc's ``mallinfo2()`` (heap = arena +
mmapped, inuse, free: MB that malloc holds, hands out, keeps free), the native solver's tables
(``rummy101._core._solver_table_bytes()``, MB) and with ``tm`` tracemalloc's Python total
(slow: ~3x the time). At the end it calls ``malloc_trim(0)`` and prints once more.

    PYTHONPATH=python python bench/sim_memory_probe.py "remi(players=2)" 20000 1000 [tm]

glibc (Linux) only. docs/simulation.md (Memory) quotes its figures.
"""

from __future__ import annotations

import ctypes
import json
import sys
import time
import tracemalloc
from typing import Any

from rummy101 import _backend, sim


class MallInfo2(ctypes.Structure):
    _fields_ = [
        (n, ctypes.c_size_t)
        for n in [
            "arena",
            "ordblks",
            "smblks",
            "hblks",
            "hblkhd",
            "usmblks",
            "fsmblks",
            "uordblks",
            "fordblks",
            "keepcost",
        ]
    ]


LIBC = ctypes.CDLL(None)
LIBC.mallinfo2.restype = MallInfo2
LIBC.malloc_trim.argtypes = [ctypes.c_size_t]
MB = 2**20


def status() -> dict[str, float]:
    out = {}
    with open("/proc/self/status") as f:
        for line in f:
            key, val = line.split(":", 1)
            if key in ("VmRSS", "VmHWM", "RssAnon", "RssFile"):
                out[key] = round(int(val.split()[0]) / 1024, 2)
    return out


def sample(games: int, traced: bool) -> None:
    m = LIBC.mallinfo2()
    d: dict[str, Any] = {"games": games, **status()}
    d["heap"] = round((m.arena + m.hblkhd) / MB, 2)
    d["inuse"] = round((m.uordblks + m.hblkhd) / MB, 2)
    d["free"] = round(m.fordblks / MB, 2)
    if traced:
        d["traced"] = round(tracemalloc.get_traced_memory()[0] / MB, 2)
    if "native" in _backend.available_backends():
        core = _backend._load("native")
        d["native"] = {k: round(v / MB, 2) for k, v in core._solver_table_bytes().items()}
    print(json.dumps(d), flush=True)


def main(rules: str, games: int, step: int, traced: bool) -> None:
    if traced:
        tracemalloc.start()
    seen = [0, 0]

    def count(batch: list[Any]) -> None:
        seen[0] += len(batch)
        if seen[0] - seen[1] >= step:
            seen[1] = seen[0]
            sample(seen[0], traced)

    sample(0, traced)
    t0 = time.monotonic()
    res = sim.simulate(
        rules,
        "greedy,random",
        games,
        11,
        workers=1,
        progress=False,
        keep_records=False,
        on_records=count,
    )
    sample(seen[0], traced)
    print(f"{time.monotonic() - t0:.1f} s: {res.summary().splitlines()[0]}; after malloc_trim(0):")
    LIBC.malloc_trim(0)
    sample(seen[0], traced)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), "tm" in sys.argv[4:])

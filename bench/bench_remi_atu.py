"""Remi's Atu-finish decision (RO-4, issue 9): how long ``atu_finish`` takes, now that its search
has no node cap. Not a test (no timed asserts): run it and read the figures.

    PYTHONPATH=python:tests python bench/bench_remi_atu.py

Prints, for (1) every laid-down take-phase decision of 30 uniform random games and (2) 300
random 8-21-meld tables with racks built near them, the count, mean and worst time; and (3) the
adversarial 16-meld positions of tests/test_remi_atu.py one by one.
"""

from __future__ import annotations

import random
import statistics
import time

import rummy101.game.engines.remi.rules_core as rc
from rummy101.game import new_game
from rummy101.game.engines.remi.table import RUN, SET, RemiMeld, three_melds
from rummy101.rules import Rules


def _timed(f, *args):
    for cache in rc._CACHES:     # every decision from scratch (no answer, rest or outcome memo)
        cache.clear()
    t = time.perf_counter()
    got = f(*args)
    return time.perf_counter() - t, got


def random_games(games: int = 30) -> list[float]:
    out = []
    for seed in range(games):
        s = new_game("remi", seed)
        rng = random.Random(seed)
        while not s.is_terminal:
            p = s.current
            if s.phase.value == "take" and s.x.atu_avail and s.x.laid[p]:
                out.append(_timed(rc.atu_finish, s.rules, s.racks[p], s.x.atu, True, False, s.table, p)[0])
            s.apply(rng.choice(s.legal_actions()))
    return out


def random_tables(n: int = 300) -> list[float]:
    r = Rules.parse("remi")
    tm = three_melds(r)
    out = []
    for seed in range(n):
        rng = random.Random(seed)
        pool = [2] * 53
        table = []
        for _ in range(rng.randrange(8, 22)):
            v, t, need = rng.choice(tm)
            if any(pool[c] < need.count(c) for c in need):
                continue
            table.append(RemiMeld.build(r, RUN if v == "run" else SET, 0, t, (0,) * 3, (0,) * 3))
            for c in t:
                pool[c] -= 1
        atu = rng.choice([c for c in range(52) if pool[c]])
        pool[atu] -= 1
        rack = [0] * 53
        for m in table:
            for c, _p in m.adds + m.releases:
                if pool[c] and rng.random() < 0.7:
                    pool[c] -= 1
                    rack[c] += 1
        out.append(_timed(rc.atu_finish, r, rack, atu, True, False, table, 1)[0])
    return out


def _summary(name: str, ts: list[float]) -> None:
    print(f"{name}: {len(ts)} decisions, mean {statistics.mean(ts) * 1e3:.2f} ms, "
          f"worst {max(ts) * 1e3:.1f} ms")


def main() -> None:
    _summary("uniform random games", random_games())
    _summary("random tables", random_tables())
    from test_remi_atu import BIG_RACK, BIG_TABLE, _counts, _melds

    r = Rules.parse("remi(doubles=off)")
    melds = _melds(r, BIG_TABLE)
    for extra in (" R12 R13", " R12 R13 K12 K12 Y12 Y12 B6 B6 K6",
                  " R12 R13 Y6 Y6 B6 B6 K6 K6 K12 K12 Y12 Y12", " R12 R13 K13 K13 Y13 Y13"):
        t, got = _timed(rc.atu_finish, r, _counts(BIG_RACK + extra), 0, True, False, melds, 1)
        print(f"16 melds, rack{extra!r} + 16: {got} in {t:.2f} s")


if __name__ == "__main__":
    main()

"""Remi's Atu-finish decision (RO-4, issue 9): how long ``atu_finish`` takes, now that its search
has no node cap. Not a test (no timed asserts): run it and read the figures.

    PYTHONPATH=python:tests python bench/bench_remi_atu.py

Prints, for (1) every laid-down take-phase decision of 30 uniform random games, (2) 300 random
8-21-meld tables with racks built near them and (3) every distinct laid-down decision the engine
asked about in 40 soak games (tools/soak.py, seed 17: random and greedy seats, every rules
option), the count, mean and worst time; (4) the adversarial 16-meld positions of
tests/test_remi_atu.py one by one; and (5) three 45-53-tile positions of random 2-player play
(bench/data/remi2p_seed236_*.json), the other slow ones of random 2-player play
(bench/data/remi2p_seed*_*.json; seed 517: a 59-tile one of RL play, False, 31.5 s with
RELAX_LEAVES 512 -> 7.0 s at 16, load ~3 on 2 cores; same run: the 16-meld False 0.56 -> 0.12
s, seed 236 step 244 0.46 -> 0.19 s, uniform random games mean 0.48 -> 0.34 ms, random tables
0.27 -> 0.32 ms, soak decisions 0.13 -> 0.19 ms mean, worst 32 -> 40 ms; three more of the
same RL run, seeds 85, 544, 642: 46-56 tiles, 4-12 melds, 0.04 -> 1.24 s, 2.1 -> 2.2 s, 3.6 ->
1.9 s: seed 85's tries fail, each up to RELAX_BUDGET nodes; the RL run itself,
rl.env('remi(players=2)'), np.random.default_rng(0), reset seeds 0-753, process time: 93.4 ->
59.1 s, 51.8 -> 49.2 s without seed 517) and a 40-tile one of `rummy101 sim --rules
'remi(players=2)' --bots random,random` (game 1534 of seed 0). Every decision is timed from
scratch (every memo cleared).

Measured on the shared 2-core dev machine, before -> after the issue 9/17 speed-up (commits
648a025..1e9715e; same answers; this file run on both trees): (1) mean 0.28-0.36 -> 0.16-0.18
ms, (2) mean 1.2 -> 0.6-0.7 ms, (3) 528 decisions, mean 5.9 -> 0.6 ms, worst 1.28 s -> 0.16 s,
(4) the False position 2.7-5.0 s -> 1.0-1.1 s.

The table relaxation (rules_core._table_refutes, 2026-12-07; 7cba647 -> 5295a21, this file run on
both trees one after the other, load 1.7 then 4.2): (5) 21.1 -> 1.5 s, 17.3 -> 0.10 s, 14.4 ->
0.52 s, game 1534 315 -> 4.0 s; (1)-(4) within the noise of that load (1: mean 2.8 -> 1.2 ms, 3:
0.27 -> 0.41 ms; quiet, interleaved, the 414 soak decisions took 52 -> 51 ms in all).

The search order (rules_core._laid_finish, 2026-12-07: table sets first, many-outcome runs last
and fewest first, a meld dropped once the rack left can give it nothing; 54c209b -> 3fb834f, same
answers, CPU time, old/new/old/new, load 1.4-1.9): (5) 0.32/0.26 -> 0.08/0.13 s, 0.04/0.03 ->
0.02 s, 0.23/0.20 -> 0.01 s, seed 517 8.2/10.6 -> 3.1/2.9 s, 544 2.7/2.5 -> 0.10/0.11 s, 642
2.1/1.7 -> 1.2 s, 85 1.3/1.4 -> 0.09/0.11 s, game 1534 1.1 -> 1.2-1.3 s (the one it does not
help); (1)-(3) load ~1.8, old/new twice: mean 0.37 -> 0.31-0.43 ms, 0.37-0.39 -> 0.39-0.47 ms,
0.19-0.21 -> 0.25-0.27 ms (soak worst 39-49 -> 59-67 ms: a few small searches pay the order).

The relaxation that keeps the table runs whole (rules_core._runs_refute, the core's
relaxed_cover, cpp/src/relax.cpp; 2026-12-07, 1b1da36 -> be3a266, same answers; this file run
old/new/old/new from /work/main and the branch, load 2.8-3.3 on 2 cores): (5) 0.07/0.07 ->
0.03/0.03 s, 0.02 -> 0.01 s, 0.01-0.02 -> 0.01 s, seed 517 2.19/2.21 -> 0.08/0.08 s, 544 0.08 ->
0.06 s, 642 0.87/0.88 -> 0.06/0.06 s, 85 0.07 -> 0.07 s, game 1534 1.02/1.01 -> 0.11/0.11 s;
(1) mean 0.27 -> 0.25 ms, (2) 0.31 -> 0.31-0.32 ms, (3) 0.22 -> 0.20-0.21 ms (worst 49-50 ->
48 ms), (4) the same (0.00-0.12 s). `rummy101 sim --rules 'remi(players=2)' --bots
random,random --games 1000 --seed 0 --workers 1`: the same summary, 14.3 -> 11.6 s user.

The mirrored search of relaxed_cover (its numbers reversed, in turn with the forward one, up to
RUNS_BUDGET states each; 2026-12-07, 8e253ad -> the h-steps branch, same answers). This file
with the globs 'remi2p_seed13_*' 'remi2p_seed2*' 'remi2p_seed5*' 'remi2p_seed6*'
'remi2p_seed85_*' 'remi2p_seedsim*' (the old tree takes minutes on seeds 869, 1890, 1944 and
rl29 cold), run old/new/old/new on one core (taskset -c 1, load 1.0-1.9, wall time): (5) seed
13 0.60/0.74 -> 0.01 s, 642 0.06/0.07 -> 0.01/0.02 s, 517 0.08/0.09 -> 0.15 s, 236 step 244
0.03 -> 0.05 s, the others the same; the slowest steps of `rummy101 sim --rules
'remi(players=2)' --bots random,random --seed 0` (games 0-7155; bench/data remi2p_seedsim0g*):
game 6815 11.7/12.3 -> 0.74/0.73 s, 2867 6.4/8.6 -> 0.30/0.34, 5271 2.4/2.6 -> 0.30/0.34, 5356
2.3/2.4 -> 0.18/0.21, 4991 1.3/2.2 -> 0.34/0.35, 5248 1.33 -> 0.70/0.76, 1334 1.0/1.4 -> 0.06,
5875 0.9/1.0 -> 0.12, 297 0.8/1.0 -> 0.32; not won: 1010 2.1/2.7 -> 2.4/2.5, 6498 1.4/1.6 ->
1.8/2.0 (tries that give up both ways cost twice); game 1534 0.11/0.12 -> 0.14; (1)-(4) the same
(mean 0.24-0.27 -> 0.24-0.31 ms, 0.29-0.34 -> 0.30-0.33 ms, 0.19-0.21 -> 0.20-0.21 ms, worst
45-49 -> 47-52 ms; 16-meld False 0.11-0.12 s). The positions found by the hunt of docs/rl.md
("The hunt for slow steps") of uniform random play: seed 1944 step 254 19.5 s -> 0.3 s, 1890
step 278 6.7 -> 7.3-8.2 s (in play; worse: most of its tries give up both ways), 869 step 271
(33 tiles: no runs relaxation) 2.5 -> 2.5-3.0 s; RL seed 29 step 380 167 s in play, 189 s cold -> 2.3 s.

RUNS_TILES 35 -> 30 (the runs relaxation on racks of 30-34 tiles too; 2026-12-07, 04f55af ->
the h-steps2 branch, same answers). This file (no globs) run old/new/old/new from /work/main and
the branch, one core (taskset -c 1), load 3.0-3.3, wall time: (5) seed 869 step 271 (32 tiles)
2.38/2.36 -> 0.52/0.51 s, the others the same (seed 1890 7.8/7.8 -> 10.8/7.8 s, rl29
2.5/2.2 -> 2.6/2.5, game 1010 2.6/2.7 -> 2.5/2.5, 6498 2.0/1.8 -> 1.8/1.9); (3) mean 0.20/0.20
-> 0.17/0.09 ms, worst 48/47 -> 43/17 ms; (1) 0.29/0.26 -> 0.29/0.31 ms and (2) 0.36/0.32 ->
0.34/0.40 ms: noise (no rack of (2) has 30 tiles; the 29 checks of 30-34 tiles of (1) and (3)
timed alone, in one process, 35/30 three times: 138-144 -> 52-54 ms CPU in all); (4) the same.

The locked Jolys (a table run's Joly retrieved as often as RO-9.5 allows counted by
rules_core._runs_refute as the tile it stands for), RUNS_BUDGET 50,000 -> 1,000,000 and no
inner-node _most_rest solve on racks of 30+ tiles (2026-12-07, 12e4de6 -> the h-atu branch, the
same answers). This file run old/new/old/new from /work/main and the branch, one core (taskset
-c 1), wall time, load 3.5-7 (other sessions' jobs: the old tree's 1890 took 7.8 then 27.7 s):
(5) seed 1890 7.8/27.7 -> 0.42/1.33 s, RL seed 29 2.7/4.3 -> 0.41/1.87 s, game 1010 2.9/7.5 ->
0.04/0.17 s, game 6498 1.8/4.2 -> 0.27/0.35 s; (1)-(4) in that noise. Quieter, CPU time of
each position alone (/tmp scripts; load ~1.3): 1890 7.0 -> 0.25 s, rl29 2.2 -> 0.38 s, 1010
2.6 -> 0.04 s, 6498 1.8 -> 0.15 s, 1944 step 250 1.4 -> 0.35 s, 5248 0.7 -> 0.4 s, 6815 0.7
-> 0.2 s, no position above 0.45 s (the 25 in all 19.4 -> 4.3 s); the 378 checks of 30+ tiles
of uniform random games 0-599 2.54 -> 2.51 s, the same answers. (1)-(3) old and new in one
process, interleaved, 10 rounds, CPU (load ~9-10): mean 0.22-0.24 / 0.24-0.25 ms, 0.28-0.32
/ 0.29-0.30 ms, 0.088-0.095 / 0.089-0.091 ms (medians of the rounds); their 32 checks of 30+
tiles each best of 10: 38.4 -> 38.3 ms in all, none apart by 0.5 ms; (4) the same
(0.11 s the False one).
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
    # every decision from scratch (no answer, rest or outcome memo; the older module had two)
    for cache in getattr(rc, "_CACHES", (rc._ATU, rc._LEAVES)):
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


def soak_decisions(games: int = 40, seed: int = 17) -> list[float]:
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
    import rummy101.game.engines.remi.engine as eng
    import soak

    asked: dict[tuple[object, ...], tuple[object, ...]] = {}
    ask = eng.atu_finish

    def record(rules, rack, atu, laid, tabla, table, seat):  # type: ignore[no-untyped-def]
        if laid and not tabla:
            asked.setdefault((rules, bytes(rack), atu, tuple(m.key for m in table)),
                             (rules, list(rack), atu, laid, tabla, list(table), seat))
        return ask(rules, rack, atu, laid, tabla, table, seat)

    eng.atu_finish = record
    try:
        for i in range(games):
            soak.play_one("remi", seed, i, 0.02)
    finally:
        eng.atu_finish = ask
    return [_timed(rc.atu_finish, *args)[0] for args in asked.values()]


def _summary(name: str, ts: list[float]) -> None:
    print(f"{name}: {len(ts)} decisions, mean {statistics.mean(ts) * 1e3:.2f} ms, "
          f"worst {max(ts) * 1e3:.1f} ms")


def main() -> None:
    _summary("uniform random games", random_games())
    _summary("random tables", random_tables())
    _summary("soak decisions (40 games, seed 17)", soak_decisions())
    from test_remi_atu import BIG_RACK, BIG_TABLE, _counts, _melds

    r = Rules.parse("remi(doubles=off)")
    melds = _melds(r, BIG_TABLE)
    for extra in (" R12 R13", " R12 R13 K12 K12 Y12 Y12 B6 B6 K6",
                  " R12 R13 Y6 Y6 B6 B6 K6 K6 K12 K12 Y12 Y12", " R12 R13 K13 K13 Y13 Y13"):
        t, got = _timed(rc.atu_finish, r, _counts(BIG_RACK + extra), 0, True, False, melds, 1)
        print(f"16 melds, rack{extra!r} + 16: {got} in {t:.2f} s")
    huge_racks()


def huge_racks() -> None:
    """(5) Positions of 2-player uniform random play (RL random masked policy, seeds 236 and 517,
    found by the RL checks of 2026-12-07; 85, 544, 642 and 517 too): a laid-down seat holding
    45-59 tiles against 4-13 table melds,
    the Atu available. The first (False) searches ~360,000 nodes and ~126,000 rests, each a
    ``solve_melds`` of ~45 tiles: 10-20 s each native, minutes in pure Python."""
    import pathlib
    import sys

    from rummy101.game import records

    data = pathlib.Path(__file__).parent / "data"
    patterns = sys.argv[1:] or ["remi2p_seed*_*.json"]   # globs: some positions only
    for path in sorted({p for pattern in patterns for p in data.glob(pattern)}):
        s = records.loads(path.read_text())
        p, x = s.current_player, s.x
        t, got = _timed(rc.atu_finish, s.rules, s.racks[p], x.atu, x.laid[p], x.tabla[p],
                        s.table, p)
        print(f"huge racks, {path.name}: {sum(s.racks[p])} tiles, {len(s.table)} melds: "
              f"{got} in {t:.2f} s")
    from test_remi_atu import RANDOM_1534_RACK, RANDOM_1534_TABLE
    from test_remi_engine import position

    s = position("remi(players=2)", racks=["K2", RANDOM_1534_RACK], atu="R11", laid=[True, True],
                 table=[(k, 1, t) for k, t in RANDOM_1534_TABLE])
    t, got = _timed(rc.atu_finish, s.rules, s.racks[1], s.x.atu, True, False, s.table, 1)
    print(f"huge racks, sim seed 0 game 1534: {sum(s.racks[1])} tiles, {len(s.table)} melds: "
          f"{got} in {t:.2f} s")


if __name__ == "__main__":
    main()

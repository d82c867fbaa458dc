#!/usr/bin/env python
"""Rollouts per second: the fast rollout policies (rummy101.bots.rollout) against greedy bots
playing every seat, from the same positions, in one run (issue 12).

    PYTHONPATH=python python bench/bench_rollout.py --rules classic remi --positions 60

Positions are taken every few steps of seeded all-greedy rounds (where the search bot would
decide); each is played to the end of its round once by the fast policy and once by greedy
bots. Printed: rollouts per second of each and the ratio (the ratio is what carries over
between machines), plus how the rounds ended.
"""

from __future__ import annotations

import argparse
import collections
import random
import sys
import time

from rummy101.bots import get_bot
from rummy101.bots.rollout import play_round
from rummy101.game import new_game


def positions(rules: str, count: int, every: int = 7) -> list[object]:
    out: list[object] = []
    seed = 0
    while len(out) < count:
        s = new_game(rules, seed, match_rounds=1)
        bots = [get_bot("greedy", random.Random(seed * 10 + q)) for q in range(s.n)]
        k = 0
        while not s.is_terminal and len(out) < count:
            if k % every == 3:
                out.append(s.copy())
            q = s.current_player
            s.apply(bots[q].act(s.observation(q), s.legal_actions()))
            k += 1
        seed += 1
    return out


def greedy_round(s: object, seed: int) -> str:
    bots = [get_bot("greedy", random.Random(seed + q)) for q in range(s.n)]  # type: ignore[attr-defined]
    r0 = s.round  # type: ignore[attr-defined]
    while not s.is_terminal and s.round == r0:  # type: ignore[attr-defined]
        q = s.current_player  # type: ignore[attr-defined]
        s.apply(bots[q].act(s.observation(q), s.legal_actions()))  # type: ignore[attr-defined]
    return str(s.results[r0]["end"])  # type: ignore[attr-defined]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rules", nargs="+", default=["classic", "remi"])
    ap.add_argument("--positions", type=int, default=60)
    args = ap.parse_args(argv)
    for rules in args.rules:
        pos = positions(rules, args.positions)
        t0 = time.perf_counter()
        fast_ends = collections.Counter(play_round(p.copy(), random.Random(i))  # type: ignore[attr-defined]
                                        for i, p in enumerate(pos))
        t_fast = time.perf_counter() - t0
        t0 = time.perf_counter()
        greedy_ends = collections.Counter(greedy_round(p.copy(), i) for i, p in enumerate(pos))  # type: ignore[attr-defined]
        t_greedy = time.perf_counter() - t0
        print(f"{rules:10s} {len(pos)} positions: fast {len(pos) / t_fast:7.0f} rollouts/s "
              f"({dict(fast_ends)}), greedy {len(pos) / t_greedy:6.0f} rollouts/s "
              f"({dict(greedy_ends)}), ratio {t_greedy / t_fast:.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python
"""Rollouts per second: the fast rollout policies (rummy101.bots.rollout) against greedy bots
playing every seat, from the same positions, in one run (issue 12).

    PYTHONPATH=python python bench/bench_rollout.py --rules classic remi --positions 60

Positions are taken every few steps of seeded all-greedy rounds (where the search bot would
decide); each is played to the end of its round once by the fast policy and once by greedy
bots. Printed: rollouts per second of each and the ratio (the ratio is what carries over
between machines), plus how the rounds ended.

    PYTHONPATH=python python bench/bench_rollout.py --search rummy101 --playouts 200 --decisions 40

``--search``: the search bot's decisions on Rummy 101 positions (take phases and discards of
seeded all-greedy rounds), its greedy rollouts all in Python (``RUMMY101_NATIVE_ROUNDS=0``) and
finished in the C++ core from the first turn boundary (issue 12), interleaved passes in one run,
CPU time of the searched decisions only (``SearchBot.search_cpu_seconds``); the chosen actions
must be identical. Printed per pass: searched decisions and rollouts per CPU second, CPU ms per
decision; then the best pass of each and the ratio.

    PYTHONPATH=python python bench/bench_rollout.py --turns rummy101 --playouts 200 --decisions 40

``--turns``: the search bot's whole-turn decisions (``search:turns=N``, issue 12): the first play
step of a turn where greedy would lay, open or add, in seeded all-greedy rounds; native
rollouts. Printed per pass: CPU ms per decision (mean and max, planning included), candidate
turns tried and how often a planner turn beat greedy's.
"""

from __future__ import annotations

import argparse
import collections
import os
import random
import sys
import time

from rummy101.bots import SearchBot, get_bot
from rummy101.bots.native_greedy import ENV_VAR, native_available
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


def decision_positions(rules: str, count: int, every: int = 5) -> list[object]:
    """Positions of seeded all-greedy rounds where the search bot searches: a take phase with a
    choice, or a play phase where greedy's next step is a discard."""
    out: list[object] = []
    seed = 0
    while len(out) < count:
        s = new_game(rules, seed, match_rounds=1)
        bots = [get_bot("greedy", random.Random(seed * 10 + q)) for q in range(s.n)]
        k = 0
        while not s.is_terminal and len(out) < count:
            q = s.current_player  # type: ignore[attr-defined]
            legal = s.legal_actions()  # type: ignore[attr-defined]
            a = bots[q].act(s.observation(q), legal)  # type: ignore[attr-defined]
            if len(legal) > 1 and (s.phase.value == "take" or a.verb == "discard"):  # type: ignore[attr-defined]
                if k % every == 0:
                    out.append(s.copy())  # type: ignore[attr-defined]
                k += 1
            s.apply(a)  # type: ignore[attr-defined]
        seed += 1
    return out


def search_pass(pos: list[object], playouts: int, native: bool) -> tuple[list[str], int, int, float]:
    """One search decision per position (the bot seeded by the position's index); the actions,
    searched decisions, rollouts and CPU seconds inside the searched decisions."""
    if native:
        os.environ.pop(ENV_VAR, None)
    else:
        os.environ[ENV_VAR] = "0"
    acts, decisions, rollouts, cpu = [], 0, 0, 0.0
    for i, s in enumerate(pos):
        bot = SearchBot(random.Random(i), playouts=playouts)
        q = s.current_player  # type: ignore[attr-defined]
        acts.append(str(bot.act(s.observation(q), s.legal_actions())))  # type: ignore[attr-defined]
        decisions += bot.decisions
        rollouts += bot.rollouts
        cpu += bot.search_cpu_seconds
    return acts, decisions, rollouts, cpu


def turn_positions(rules: str, count: int) -> list[object]:
    """The first play step of each turn of seeded all-greedy rounds where greedy's step is not a
    discard or a reset (where ``search`` plans whole turns)."""
    out: list[object] = []
    seed = 0
    while len(out) < count:
        s = new_game(rules, seed, match_rounds=1)
        bots = [get_bot("greedy", random.Random(seed * 10 + q)) for q in range(s.n)]
        seen: set[tuple[int, int]] = set()
        while not s.is_terminal and len(out) < count:
            q = s.current_player  # type: ignore[attr-defined]
            obs = s.observation(q)  # type: ignore[attr-defined]
            a = bots[q].act(obs, s.legal_actions())  # type: ignore[attr-defined]
            key = (s.round, s.turn)  # type: ignore[attr-defined]
            if s.phase.value == "play":  # type: ignore[attr-defined]
                if (key not in seen and a.verb not in ("discard", "reset")
                        and not obs["turn_state"]["staged"]):
                    out.append(s.copy())  # type: ignore[attr-defined]
                seen.add(key)
            s.apply(a)  # type: ignore[attr-defined]
        seed += 1
    return out


def turns_bench(rules: str, playouts: int, turns: int, count: int, passes: int) -> int:
    pos = turn_positions(rules, count)
    first: list[str] | None = None
    for p in range(passes):
        acts, cpus, tried, chosen = [], [], 0, 0
        for i, s in enumerate(pos):
            bot = SearchBot(random.Random(i), playouts=playouts, turns=turns)
            q = s.current_player  # type: ignore[attr-defined]
            acts.append(str(bot.act(s.observation(q), s.legal_actions())))  # type: ignore[attr-defined]
            if bot.decisions:
                cpus.append(bot.search_cpu_seconds)
                tried += bot.turn_candidates
                chosen += bot.turns_chosen
        if first is None:
            first = acts
        elif acts != first:
            print("DIFFERENT DECISIONS between passes")
            return 1
        print(f"pass {p}: {len(pos)} positions, {len(cpus)} searched, CPU ms a decision: mean "
              f"{1000 * sum(cpus) / max(1, len(cpus)):.0f}, max {1000 * max(cpus, default=0):.0f}; "
              f"{tried / max(1, len(cpus)):.1f} candidate turns a decision (greedy's included); a planner "
              f"turn chosen {chosen} times")
    return 0


def search_bench(rules: str, playouts: int, count: int, passes: int) -> int:
    pos = decision_positions(rules, count)
    saved = os.environ.get(ENV_VAR)
    best: dict[bool, tuple[float, float, float]] = {}
    try:
        if not native_available():
            print("the native greedy round is not available (native backend, RUMMY101_NATIVE_ROUNDS)")
            return 1
        first: list[str] | None = None
        for p in range(passes):
            for native in (False, True):
                acts, dec, rolls, cpu = search_pass(pos, playouts, native)
                if first is None:
                    first = acts
                elif acts != first:
                    print("DIFFERENT DECISIONS with and without native rollouts")
                    return 1
                label = "native" if native else "python"
                print(f"pass {p} {label:6s}: {dec} searched decisions, {rolls} rollouts, {cpu:6.2f} "
                      f"CPU s: {dec / cpu:6.2f} decisions/s, {rolls / cpu:7.0f} rollouts/s, "
                      f"{1000 * cpu / dec:6.1f} CPU ms a decision")
                got = (dec / cpu, rolls / cpu, 1000 * cpu / dec)
                if native not in best or got[0] > best[native][0]:
                    best[native] = got
    finally:
        if saved is None:
            os.environ.pop(ENV_VAR, None)
        else:
            os.environ[ENV_VAR] = saved
    (pd, pr, pm), (nd, nr, nm) = best[False], best[True]
    print(f"{rules} search:playouts={playouts}, {len(pos)} positions, best of {passes} passes "
          f"(CPU time): python rollouts {pd:.2f} decisions/s {pr:.0f} rollouts/s {pm:.0f} ms a "
          f"decision; native rollouts {nd:.2f} decisions/s {nr:.0f} rollouts/s {nm:.0f} ms a "
          f"decision; {nd / pd:.1f}x; identical decisions")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rules", nargs="+", default=["classic", "remi"])
    ap.add_argument("--positions", type=int, default=60)
    ap.add_argument("--search", metavar="RULES", help="bench the search bot's decisions on these "
                    "Rummy 101 rules, rollouts in Python and native (issue 12)")
    ap.add_argument("--turns", metavar="RULES", help="bench the search bot's whole-turn decisions "
                    "on these Rummy 101 rules (issue 12)")
    ap.add_argument("--turn-candidates", type=int, default=5, help="search:turns=N for --turns")
    ap.add_argument("--playouts", type=int, default=200)
    ap.add_argument("--decisions", type=int, default=40, help="positions for --search")
    ap.add_argument("--passes", type=int, default=2, help="interleaved passes for --search")
    args = ap.parse_args(argv)
    if args.turns:
        return turns_bench(args.turns, args.playouts, args.turn_candidates, args.decisions,
                           args.passes)
    if args.search:
        return search_bench(args.search, args.playouts, args.decisions, args.passes)
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

"""Random play of Rummy 101 beside OpenSpiel's gin rummy in one run (issue 12).

OpenSpiel lives in its own environment (it is a benchmark peer, not a dependency):

    python -m venv /work/bench-venv && /work/bench-venv/bin/pip install open_spiel
    PYTHONPATH=python python bench/bench_openspiel.py [--seconds 3] [--pairs 5] \\
        [--peer-python /work/bench-venv/bin/python] [--backend native]

The script runs two worker subprocesses *alternately*, ``--pairs`` times: the peer's interpreter
timing OpenSpiel's ``gin_rummy`` and this interpreter timing our ``rummy101`` (4 players), each for
``--seconds``. Every pair is measured back to back, so the machine's load is about the same for
both; it prints each pair's ratio and the median ratio.

What a step is, on each side:

* **OpenSpiel** (``gin_rummy``, 2 players, default options), the loop a user writes:
  ``while not state.is_terminal()``: at a chance node sample one of ``chance_outcomes()``
  uniformly (the outcomes are equiprobable) and ``apply_action`` it; at a player node
  ``rng.choice(state.legal_actions())`` and ``apply_action``. A *decision step* is one
  player-node ``apply_action`` including its ``legal_actions()`` and the choice; the chance
  nodes (the deal and each stock draw's card) are timed but not counted as steps. The figure
  counting every ``apply_action`` (chance included) is printed too (``all actions/s``); it is
  the larger number, so the ratio against it is the stricter one.
* **rummy101** (``rummy101`` rules, 4 seats, ``random`` bots), the loop of
  ``rummy101.sim.play_game`` (the same as bench/bench_game.py): a step is one ``state.apply``
  including ``state.legal_actions()`` (a fresh list), the bot's choice (two-stage uniform,
  bots/random_bot.py) and the observation handed to the bot, which is a
  ``LazyObservation``: built only if the bot reads it, and the random bot does not (OpenSpiel's
  loop builds none either). The deal happens in ``new_game`` and a draw takes its tile inside
  the ``draw`` step (no separate chance steps).

Both sides start a new game when one ends; the time includes setting up each game. The
columns: ``ratio`` = our steps/s over OpenSpiel's decision steps/s (wall clock), ``strict`` =
over OpenSpiel's every ``apply_action``/s, ``cpu`` = the ratio of steps per CPU second of each
worker process (less sensitive to other load on a shared machine). With ``--before`` the last
line gives the medians of now/before and of before/OpenSpiel over the same pairs.

Measured (issue 12, native backend, 2 shared cores with nice-19 soaks running, ``--pairs 9``
``--before`` a tree of commit 87bfb6c): median ratio 1.33x (CPU 1.33x) and 1.33x (CPU 1.31x) in
two runs; pairs ranged 1.03x-1.83x, and the older tree's median in the same pairs was 1.28x and
1.10x, so one run's median moves by more than a change of a few percent. For such changes count
instructions instead: ``valgrind --tool=callgrind`` over 400 seeded random games (the loop of
``run_rummy101``) gave 116.9k instructions per step at 87bfb6c and 109.3k (-6.5 %) after the
changes of issue 12's second round (the take check's tighter opening bound, per-colour
meld memos, no closure per step).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

DEFAULT_PEER = "/work/bench-venv/bin/python"


def run_openspiel(seconds: float, seed: int) -> dict[str, float]:
    import random

    import pyspiel  # type: ignore[import-not-found]

    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(seed)
    choice = rng.choice
    games = decisions = chance = 0
    c0 = time.process_time()
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(choice(outcomes)[0])
                chance += 1
            else:
                state.apply_action(choice(state.legal_actions()))
                decisions += 1
        games += 1
    dt = time.perf_counter() - t0
    cpu = time.process_time() - c0
    return {"games_per_s": games / dt, "steps_per_s": decisions / dt,
            "all_actions_per_s": (decisions + chance) / dt, "cpu_steps_per_s": decisions / cpu,
            "games": games, "steps": decisions, "chance": chance, "seconds": dt, "cpu": cpu}


def run_rummy101(seconds: float, seed: int, backend: str) -> dict[str, float]:
    from rummy101 import using_backend
    from rummy101.sim import play_game

    bots = ["random"] * 4
    with using_backend(backend):
        play_game("rummy101", bots, seed + 1, 0)  # warm the memos and imports
        games = steps = 0
        c0 = time.process_time()
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            steps += play_game("rummy101", bots, seed, games).steps
            games += 1
        dt = time.perf_counter() - t0
        cpu = time.process_time() - c0
    return {"games_per_s": games / dt, "steps_per_s": steps / dt, "cpu_steps_per_s": steps / cpu,
            "games": games, "steps": steps, "seconds": dt, "cpu": cpu}


def _worker(argv: list[str], python: str, path: str | None = None) -> dict[str, float]:
    env = dict(os.environ)
    if python != sys.executable:  # the peer's environment: no rummy101 on its path
        env.pop("PYTHONPATH", None)
    if path is not None:
        env["PYTHONPATH"] = path
    out = subprocess.run([python, os.path.abspath(__file__), *argv], check=True,
                         capture_output=True, text=True, env=env).stdout
    return json.loads(out.strip().splitlines()[-1])


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="time per worker run")
    ap.add_argument("--pairs", type=int, default=5, help="alternating (OpenSpiel, rummy101) pairs")
    ap.add_argument("--peer-python", default=DEFAULT_PEER, help="interpreter with open_spiel")
    ap.add_argument("--backend", default="native", help="rummy101 backend (native or pure)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--before", metavar="PYTHONPATH",
                    help="also time rummy101 from this source tree in every pair (e.g. an older "
                         "commit's python/ directory from git archive), for before/after figures")
    ap.add_argument("--worker", choices=("openspiel", "rummy101"), help=argparse.SUPPRESS)
    a = ap.parse_args(argv[1:])
    if a.worker == "openspiel":
        print(json.dumps(run_openspiel(a.seconds, a.seed)))
        return 0
    if a.worker == "rummy101":
        print(json.dumps(run_rummy101(a.seconds, a.seed, a.backend)))
        return 0
    if not os.path.exists(a.peer_python):
        print(f"no peer interpreter at {a.peer_python}: create it with\n  python -m venv "
              "/work/bench-venv && /work/bench-venv/bin/pip install open_spiel", file=sys.stderr)
        return 2
    common = ["--seconds", str(a.seconds)]
    ratios, strict, cpu, gain, gain_cpu, old_ratio = [], [], [], [], [], []
    print(f"{'pair':>4} {'OpenSpiel steps/s':>17} {'(all actions/s)':>15} {'games/s':>8} | "
          f"{'rummy101 steps/s':>16} {'games/s':>8} | {'ratio':>6} {'strict':>6} {'cpu':>6}")
    for i in range(a.pairs):
        seed = a.seed + i
        osp = _worker([*common, "--seed", str(seed), "--worker", "openspiel"], a.peer_python)
        ours = _worker([*common, "--seed", str(seed), "--worker", "rummy101", "--backend", a.backend],
                       sys.executable)
        r = ours["steps_per_s"] / osp["steps_per_s"]
        rs = ours["steps_per_s"] / osp["all_actions_per_s"]
        rc = ours["cpu_steps_per_s"] / osp["cpu_steps_per_s"]
        if a.before:
            old = _worker([*common, "--seed", str(seed), "--worker", "rummy101", "--backend",
                           a.backend], sys.executable, a.before)
            print(f"     before: {old['steps_per_s']:.0f} steps/s ({old['cpu_steps_per_s']:.0f} per CPU "
                  f"second); now/before {ours['steps_per_s'] / old['steps_per_s']:.2f} wall, "
                  f"{ours['cpu_steps_per_s'] / old['cpu_steps_per_s']:.2f} CPU; before/OpenSpiel "
                  f"{old['steps_per_s'] / osp['steps_per_s']:.2f}", flush=True)
            gain.append(ours["steps_per_s"] / old["steps_per_s"])
            gain_cpu.append(ours["cpu_steps_per_s"] / old["cpu_steps_per_s"])
            old_ratio.append(old["steps_per_s"] / osp["steps_per_s"])
        ratios.append(r)
        strict.append(rs)
        cpu.append(rc)
        print(f"{i:>4} {osp['steps_per_s']:>17.0f} {osp['all_actions_per_s']:>15.0f} "
              f"{osp['games_per_s']:>8.1f} | {ours['steps_per_s']:>16.0f} {ours['games_per_s']:>8.1f} | "
              f"{r:>6.2f} {rs:>6.2f} {rc:>6.2f}", flush=True)
    print(f"median ratio rummy101/OpenSpiel: {statistics.median(ratios):.2f}x per decision step, "
          f"{statistics.median(strict):.2f}x against every OpenSpiel apply_action, "
          f"{statistics.median(cpu):.2f}x per decision step in CPU time "
          f"(target >= 1.2x; backend {a.backend})")
    if gain:
        print(f"median now/before: {statistics.median(gain):.2f}x wall, "
              f"{statistics.median(gain_cpu):.2f}x CPU; median before/OpenSpiel "
              f"{statistics.median(old_ratio):.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))

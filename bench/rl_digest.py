"""A digest of what the RL environments hand out, to check that a speed change kept every byte.

    PYTHONPATH=python python bench/rl_digest.py [--steps 3000] [--only SUBSTRING]
    RUMMY101_BACKEND=pure PYTHONPATH=python python bench/rl_digest.py --steps 300

For each rule set below, seeded random masked play of the PettingZoo AEC env (``rummy101.rl.env``)
for ``--steps`` steps, new episodes as needed (every agent steps out with ``step(None)``, then
``reset()`` draws the next seed from the env's generator). One sha256 per rule set over, at
every step:

- ``all``: every seat's ``observe`` (observation array and mask bytes, dtype and shape), then
  the ``last()`` of the agent to move (its arrays, reward, flags, info), the selected agent,
  and every agent's reward, cumulative reward, termination, truncation and info (a stable repr);
- ``mover``: a second env of the same seed played as ``bench/bench_rl.py`` plays it (only
  ``last()`` of the agent to move), hashed the same way: the encoder's memos see another order
  of calls there, so a memo that goes stale for one order shows up in one of the two.

With ``illegal="random"`` (the ``+illegal`` rule sets) one step in 50 plays an index outside
the mask, so the info ``illegal_action`` and the illegal reward are in the digest too. The
output is one line per rule set: ``name steps digest_all digest_mover``; compare two runs with
``diff``. ``--dicts`` adds a third digest: the engine's observation dicts
(``state.observation(seat)``, their repr: key order too) of every seat at every step of the
``all`` run, for a change to the engines' observations (keys the encoder does not read too).
Remi with 2 players meets a slow Atu check on some seeds (docs/rl.md, Speed); the seeds here
avoid none on purpose. A run of 3,000 steps takes 15-30 s native.
"""

from __future__ import annotations

import argparse
import hashlib
from typing import Any

import numpy as np
from rummy101.rl import env

#: (name, rules, env options)
RULE_SETS: list[tuple[str, str, dict[str, Any]]] = [
    ("rummy101", "rummy101", {}),
    ("rummy101(players=2)", "rummy101(players=2)", {}),
    ("rummy101(players=3)+illegal", "rummy101(players=3)", {"illegal": "random"}),
    ("rummy101+slots8+match", "rummy101", {"table_slots": 8, "reward": "match", "match_rounds": 2}),
    ("remi", "remi", {}),
    ("remi(players=2)", "remi(players=2)", {}),
    ("remi(players=3)+illegal", "remi(players=3)", {"illegal": "random"}),
    ("remi+cycles", "remi", {"max_cycles": 150, "table_slots": 10}),
    ("classic", "classic", {}),
    ("classic(players=2)", "classic(players=2)", {}),
    ("classic(players=3)+illegal", "classic(players=3)", {"illegal": "random"}),
]


def _arrays(h: Any, obs: dict[str, np.ndarray[Any, Any]]) -> None:
    for key in ("observation", "action_mask"):
        a = obs[key]
        h.update(f"{key} {a.dtype} {a.shape}|".encode())
        h.update(a.tobytes())


def _flags(h: Any, e: Any) -> None:
    u = e.unwrapped
    h.update(repr((e.agent_selection if e.agents else None, list(e.agents))).encode())
    for a in u.possible_agents:
        if a in u.rewards:
            h.update(
                repr(
                    (
                        a,
                        float(u.rewards[a]),
                        float(u._cumulative_rewards[a]),
                        bool(u.terminations[a]),
                        bool(u.truncations[a]),
                        sorted(u.infos[a].items()),
                    )
                ).encode()
            )


def play(
    rules: str, options: dict[str, Any], steps: int, seed: int, every_seat: bool, dicts: Any = None
) -> str:
    e = env(rules, **options)
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    illegal = options.get("illegal") == "random"
    h = hashlib.sha256()
    done = 0
    while done < steps:
        if not e.agents:
            e.reset()
            h.update(b"reset|")
            continue
        if every_seat:
            for a in e.possible_agents:
                _arrays(h, e.observe(a))
        if dicts is not None:
            state = e.unwrapped.game
            for q in range(state.n):
                dicts.update(repr(state.observation(q)).encode())
        obs, reward, term, trunc, info = e.last()
        _arrays(h, obs)
        h.update(repr((float(reward), bool(term), bool(trunc), sorted(info.items()))).encode())
        if term or trunc:
            e.step(None)
        else:
            mask = obs["action_mask"].view(bool)
            if illegal and done % 50 == 49:
                off = np.flatnonzero(~mask)
                i = int(off[rng.integers(len(off))])
            else:
                legal = np.flatnonzero(mask)
                i = int(legal[rng.integers(len(legal))])
            e.step(i)
            done += 1
        _flags(h, e)
    return h.hexdigest()[:24]


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--steps", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--only", default="", help="rule sets whose name holds this text")
    ap.add_argument("--dicts", action="store_true", help="also a digest of the observation dicts")
    a = ap.parse_args()
    for name, rules, options in RULE_SETS:
        if a.only not in name:
            continue
        dicts = hashlib.sha256() if a.dicts else None
        got = [
            play(rules, options, a.steps, a.seed, every, dicts if every else None)
            for every in (True, False)
        ]
        if dicts is not None:
            got.append(dicts.hexdigest()[:24])
        print(f"{name:<28} {a.steps:>6} {' '.join(got)}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

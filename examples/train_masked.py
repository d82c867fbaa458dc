"""Train a tiny masked policy against the ``random`` bot, then evaluate it against ``greedy``.

    pip install 'rummy101[rl]'          # pettingzoo, gymnasium (numpy comes with rummy101)
    python examples/train_masked.py --episodes 300 --eval 40

Not run in CI (it takes a few minutes). The policy is numpy only, no deep-learning framework:
a linear score per legal action, ``softmax(features(action) @ w)`` over the indices the action
mask allows, trained by REINFORCE with a running-mean baseline on the match score (the env's
``reward="round"``, scaled to units of 101 points). An action's features are read from the
action codec (which verb, the piece's number, a joker or not, how many pieces it puts on the
table) and from the observation array (copies of that piece on the rack), so the policy has a
few dozen weights and learns things such as "lay melds", "open", "discard high tiles".

It prints the mean score per match and the share of matches won (score > 0) of the untrained
(uniform) policy and of the trained one, against ``greedy``.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np
from rummy101.rl import gym_env


def action_features(codec: Any) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """Static features per index (``[n, k]``) and the piece code each index acts on (-1 none)."""
    verbs = [v for v, _, _ in codec.blocks]
    k = len(verbs) + 3
    feats = np.zeros((codec.n, k), dtype=np.float64)
    piece = np.full(codec.n, -1, dtype=np.int64)
    for i, a in enumerate(codec.actions):
        feats[i, verbs.index(a.verb)] = 1.0
        if a.tiles:
            c = int(a.tiles[0])
            piece[i] = c
            feats[i, len(verbs)] = (c % 13 + 1) / 13 if c < 52 else 0.0     # number
            feats[i, len(verbs) + 1] = 1.0 if c == 52 else 0.0              # a joker
            feats[i, len(verbs) + 2] = len(a.tiles) / 3                      # pieces laid
    return feats, piece


class MaskedLinearPolicy:
    """softmax over legal indices of ``[static features, copies on the rack] @ w``."""

    def __init__(self, env: Any, rng: np.random.Generator) -> None:
        self.static, self.piece = action_features(env.codec)
        rack = env.session.encoder.segments["rack"]
        self.rack_at = rack[0]
        self.w = np.zeros(self.static.shape[1] + 1)
        self.rng = rng

    def features(self, obs: dict[str, Any], legal: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        f = self.static[legal]
        p = self.piece[legal]
        copies = np.where(p >= 0, obs["observation"][self.rack_at + np.maximum(p, 0)], 0.0)
        return np.column_stack([f, copies / 2])

    def act(self, obs: dict[str, Any], greedy: bool = False) -> tuple[int, np.ndarray[Any, Any]]:
        legal = np.flatnonzero(obs["action_mask"].view(bool))
        f = self.features(obs, legal)
        logits = f @ self.w
        probs = np.exp(logits - logits.max())
        probs /= probs.sum()
        j = int(probs.argmax()) if greedy else int(self.rng.choice(len(legal), p=probs))
        grad = f[j] - probs @ f                       # d log pi(j) / d w
        return int(legal[j]), grad


def play(env: Any, policy: MaskedLinearPolicy | None, seed: int, rng: np.random.Generator,
         learn: bool = False) -> tuple[float, list[np.ndarray[Any, Any]]]:
    obs, _ = env.reset(seed=seed)
    grads: list[np.ndarray[Any, Any]] = []
    total = 0.0
    done = False
    while not done:
        if policy is None:
            i = int(rng.choice(np.flatnonzero(obs["action_mask"].view(bool))))
        else:
            i, g = policy.act(obs)
            if learn:
                grads.append(g)
        obs, r, term, trunc, _ = env.step(i)
        total += float(r)
        done = term or trunc
    return total, grads


def evaluate(rules: str, policy: MaskedLinearPolicy | None, games: int, rng: np.random.Generator) -> tuple[float, float]:
    env = gym_env(rules, opponents="greedy", seat=0, reward_scale=1 / 101, illegal="raise", max_cycles=4000)
    scores = [play(env, policy, 10_000 + g, rng)[0] for g in range(games)]
    return float(np.mean(scores)) * 101, float(np.mean([s > 0 for s in scores]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rules", default="rummy101(players=2)")
    ap.add_argument("--episodes", type=int, default=300)
    ap.add_argument("--eval", type=int, default=40)
    ap.add_argument("--lr", type=float, default=0.02)
    args = ap.parse_args()
    for name in ("episodes", "eval"):
        if getattr(args, name) < 1:
            ap.error(f"--{name} must be at least 1, got {getattr(args, name)}")
    rng = np.random.default_rng(0)
    env = gym_env(args.rules, opponents="random", seat=0, reward_scale=1 / 101, illegal="raise",
                  max_cycles=4000)
    policy = MaskedLinearPolicy(env, rng)
    base, t0 = 0.0, time.perf_counter()
    for ep in range(args.episodes):
        ret, grads = play(env, policy, ep, rng, learn=True)
        if grads:
            policy.w += args.lr * (ret - base) * np.sum(grads, axis=0)
        base += 0.05 * (ret - base)
        if (ep + 1) % 50 == 0:
            print(f"episode {ep + 1:>5}: running score vs random {base * 101:+8.1f}  "
                  f"({time.perf_counter() - t0:.0f} s)")
    print("weights:", " ".join(f"{v}={w:+.2f}" for v, w in
                               zip([v for v, _, _ in env.codec.blocks] + ["number", "joker", "size", "copies"],
                                   policy.w, strict=True)))
    for name, pol in (("uniform", None), ("trained", policy)):
        mean, won = evaluate(args.rules, pol, args.eval, rng)
        print(f"{name:>8} vs greedy: mean score {mean:+8.1f} per match, won {won:.0%} of {args.eval}")


if __name__ == "__main__":
    main()

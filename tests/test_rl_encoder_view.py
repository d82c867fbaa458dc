"""The engines' ``encoder_observation(state, seat)``, which the RL session encodes instead of
``state.observation(seat)``: the part of the observation the encoder reads, so it must hold the
same values as the whole observation (a sub-dict, key by key, down to the table's melds) and
encode to the same array, for every seat at every step of seeded random play (docs/rl.md,
Speed)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from rummy101.game import engine_for
from rummy101.rl import ObservationEncoder, Session


def _part(lean: Any, full: Any, where: str = "obs") -> None:
    """``lean`` is ``full`` with some keys of its dicts left out: every value it has is equal."""
    if isinstance(lean, dict):
        assert isinstance(full, dict), where
        for k, v in lean.items():
            assert k in full, f"{where}: {k!r} is not in the observation"
            _part(v, full[k], f"{where}[{k!r}]")
    elif isinstance(lean, list):
        assert isinstance(full, list) and len(lean) == len(full), where
        for i, (a, b) in enumerate(zip(lean, full)):
            _part(a, b, f"{where}[{i}]")
    else:
        assert type(lean) is type(full) and lean == full, f"{where}: {lean!r} != {full!r}"


#: rule sets and what their random play must meet, so that the keys left out and the memos'
#: keys are exercised (the same seeds in both tests)
CASES = [
    ("rummy101(players=2)", 7, 500, ("own_turn", "an opening")),
    ("rummy101", 8, 500, ("own_turn", "an opening")),
    ("remi(players=2)", 3, 400, ("own_turn", "doubles_mine")),
    ("remi(players=3)", 6, 400, ("own_turn", "doubles_mine")),
    ("remi", 3, 400, ("own_turn", "doubles_mine")),
    ("classic(players=2)", 1, 400, ()),
    ("classic", 2, 400, ()),
]


@pytest.mark.parametrize(("spec", "seed", "steps", "met"), CASES)
def test_encoder_observation_is_the_observation_the_encoder_reads(
    spec: str, seed: int, steps: int, met: tuple[str, ...]
) -> None:
    ses = Session(spec)
    ses.new(seed=seed)
    enc = ObservationEncoder(spec)
    view = engine_for(spec).encoder_observation
    rng = np.random.default_rng(seed)
    seen: set[str] = set()
    staged = 0
    for _ in range(steps):
        if ses.done:
            ses.new()
        s = ses.state
        for q in range(s.n):
            full = s.observation(q)
            lean = view(s, q)
            _part(lean, full)
            assert np.array_equal(enc.encode(lean), enc.encode(full)), (spec, q, s.turn)
            seen.update(full)
            if any(full.get("opened", ())):
                seen.add("an opening")
            staged += any(m.get("staged") for m in full["table"])
        idx = np.flatnonzero(ses.observe(ses.current)["action_mask"].view(bool))
        ses.step(int(idx[rng.integers(len(idx))]))
    missing = [k for k in met if k not in seen]
    assert not missing, f"{spec}: the play met no {missing}: choose other seeds"
    if not spec.startswith("classic"):
        assert staged, f"{spec}: the play met no staged meld: choose other seeds"


def test_the_session_encodes_the_encoder_observation() -> None:
    """The session's arrays are those of the whole observation (the one a caller can read)."""
    ses = Session("remi(players=2)")
    ses.new(seed=6)
    enc = ObservationEncoder("remi(players=2)")
    rng = np.random.default_rng(6)
    for _ in range(150):
        s = ses.state
        for q in range(s.n):
            got = ses.observe(q)["observation"]
            assert np.array_equal(got, enc.encode(s.observation(q)))
        idx = np.flatnonzero(ses.observe(ses.current)["action_mask"].view(bool))
        ses.step(int(idx[rng.integers(len(idx))]))


def _forget(enc: ObservationEncoder) -> None:
    """Clear every memo of an encoder: its next encode computes every part afresh."""
    for name, value in vars(enc).items():
        if isinstance(value, dict) and name.startswith("_") and name.endswith(("memo", "ends")):
            value.clear()


@pytest.mark.parametrize(("spec", "seed", "steps", "met"), CASES)
def test_the_encoders_memos_never_go_stale(
    spec: str, seed: int, steps: int, met: tuple[str, ...]
) -> None:
    """An encoder that encodes every seat at every step (its memos of the discard piles, the
    train, the table's melds and the seats' slowly changing fields kept) gives the arrays of
    one whose memos are cleared before each encode."""
    ses = Session(spec)
    ses.new(seed=seed)
    kept = ObservationEncoder(spec)
    fresh = ObservationEncoder(spec)
    assert any(k.endswith("memo") for k in vars(fresh))
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if ses.done:
            ses.new()
        s = ses.state
        for q in (*range(s.n), s.current):
            obs = s.observation(q)
            _forget(fresh)
            assert np.array_equal(kept.encode(obs), fresh.encode(obs)), (spec, q, s.turn)
        idx = np.flatnonzero(ses.observe(ses.current)["action_mask"].view(bool))
        ses.step(int(idx[rng.integers(len(idx))]))

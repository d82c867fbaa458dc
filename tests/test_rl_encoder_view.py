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


#: rule sets and what their random play must meet, so that the keys left out are exercised
CASES = [
    ("rummy101(players=2)", 3, 500, ("own_turn",)),
    ("rummy101", 5, 500, ("own_turn",)),
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

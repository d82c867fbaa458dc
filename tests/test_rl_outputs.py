"""The arrays an RL environment hands out belong to the caller: editing them in place (an agent
that normalises its observation or clears the mask entry it tried) changes nothing that a later
``observe()`` / ``last()`` of the same step returns, nor what another caller got."""

from __future__ import annotations

import numpy as np
import pytest
from rummy101.rl import Session


def test_editing_an_observation_in_place_does_not_change_the_next_one() -> None:
    ses = Session("rummy101(players=2)")
    ses.new(seed=1)
    fresh = Session("rummy101(players=2)")
    fresh.new(seed=1)
    for seat in (ses.current, 1 - ses.current):
        got = ses.observe(seat)
        got["observation"][:] = 0
        got["action_mask"][:] = 1 - got["action_mask"]
        again = ses.observe(seat)
        want = fresh.observe(seat)
        assert np.array_equal(again["observation"], want["observation"])
        assert np.array_equal(again["action_mask"], want["action_mask"])
        assert again["observation"] is not got["observation"]


def test_aec_last_after_an_in_place_edit() -> None:
    pytest.importorskip("pettingzoo")
    pytest.importorskip("gymnasium")
    from rummy101.rl import env

    e = env("rummy101(players=2)")
    e.reset(seed=1)
    obs, *_ = e.last()
    legal = int(obs["action_mask"].sum())
    obs["observation"] *= 0.5
    obs["action_mask"][:] = 0
    again, *_ = e.last()
    assert int(again["action_mask"].sum()) == legal > 0
    assert np.array_equal(again["observation"], e.observe(e.agent_selection)["observation"])
    assert not np.array_equal(again["observation"], obs["observation"])


def test_codec_mask_into_a_reused_buffer_holds_only_the_new_legal_actions() -> None:
    """``ActionCodec.mask(legal, out=buf)`` writes the whole mask into ``buf``, as numpy's
    ``out=`` does: a buffer reused from one position to the next keeps no stale 1s."""
    ses = Session("rummy101(players=2)")
    ses.new(seed=2)
    codec = ses.codec
    first = ses.state.legal_actions()
    buf = codec.mask(first)
    ses.step(int(np.flatnonzero(buf)[0]))
    second = ses.state.legal_actions()
    assert codec.mask(second, out=buf) is buf
    assert np.array_equal(buf, codec.mask(second))
    assert {str(a) for a in first} != {str(a) for a in second}  # the masks do differ

"""The arrays an RL environment hands out belong to the caller: editing them in place (an agent
that normalises its observation or clears the mask entry it tried) changes nothing that a later
``observe()`` / ``last()`` of the same step returns, nor what another caller got."""

from __future__ import annotations

import numpy as np
import pytest
from rummy101.rl import ActionCodec, IllegalActionIndex, Session


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


@pytest.mark.parametrize("spec", ["rummy101(players=2)", "remi(players=2)", "classic(players=2)"])
def test_arrays_handed_out_stay_as_they_were_over_later_steps(spec: str) -> None:
    """No later step or observe writes into an array a caller holds (an encoder or session
    that reused its buffers would): every seat's arrays of every step, kept, still equal their
    copies taken when they were handed out, and a mask the caller edits changes nothing that
    ``step`` accepts."""
    ses = Session(spec)
    ses.new(seed=4)
    rng = np.random.default_rng(4)
    kept: list[tuple[np.ndarray, np.ndarray]] = []
    for _ in range(120):
        if ses.done:
            break
        for seat in range(ses.n):
            got = ses.observe(seat)
            kept.append((got["observation"], got["observation"].copy()))
            kept.append((got["action_mask"], got["action_mask"].copy()))
        mine = ses.observe(ses.current)
        legal = np.flatnonzero(mine["action_mask"])
        mine["action_mask"][:] = 0  # the caller's edit: the env's own mask is untouched
        ses.step(int(legal[rng.integers(len(legal))]))
        assert not ses.last_illegal
    assert len(kept) > 200
    for held, copy in kept:
        assert np.array_equal(held, copy)


def test_codec_indices_of_new_action_objects_never_read_a_dead_ones_index() -> None:
    """``ActionCodec.indices`` remembers each action object it met by ``id`` (engines intern
    their actions): objects made afresh and dropped at every call, whose ids CPython reuses at
    once, still get their own indices (in order, with the actions outside the space left out),
    also from a generator."""
    from rummy101.game import Action

    codec = ActionCodec("rummy101(players=2)", table_slots=2)
    rng = np.random.default_rng(5)
    pool = [codec.action(int(i)) for i in rng.integers(codec.n, size=300)]
    pool += [Action.parse("add R6 to 7@end"), Action.parse("retrieve 9:1 with K4")]  # no index

    def fresh(a: Action) -> Action:  # a new object equal to a (Action.parse interns)
        return Action(a.verb, a.codes, a.meld, a.pos)

    for _ in range(300):
        pick = [pool[int(i)] for i in rng.integers(len(pool), size=6)]
        want = [i for i in (codec.index(a) for a in pick) if i >= 0]
        assert codec.indices([fresh(a) for a in pick]) == want
        assert codec.indices(fresh(a) for a in pick) == want


@pytest.mark.parametrize("spec", ["rummy101(players=2)", "remi(players=2)", "classic(players=2)"])
def test_mask_and_accepted_indices_follow_every_step(spec: str) -> None:
    """The session keeps the legal indices of a position until it changes (the mask's 1s and
    what ``step`` accepts): at every step the mover's mask is the codec's mask of a copy of the
    state just played to (another session, fresh), and an index legal one step before and not
    now is refused."""
    ses = Session(spec, illegal="raise")
    ses.new(seed=6)
    rng = np.random.default_rng(6)
    before: set[int] = set()
    refused = 0
    for _ in range(150):
        if ses.done:
            break
        fresh = Session(spec)
        fresh.state = ses.state.copy()
        got = ses.observe(ses.current)["action_mask"]
        assert np.array_equal(got, fresh.observe(ses.current)["action_mask"])
        assert np.array_equal(got, ses.codec.mask(ses.state.legal_actions()))
        legal = set(np.flatnonzero(got).tolist())
        for i in sorted(before - legal)[:3]:
            with pytest.raises(IllegalActionIndex):
                ses.step(i)
            refused += 1
        before = legal
        ses.step(int(rng.choice(sorted(legal))))
    assert refused > 20


def test_gym_action_masks_reads_the_mask_without_encoding_an_observation() -> None:
    """``gym_env``'s ``action_masks`` (sb3-contrib's MaskablePPO calls it at every step besides
    the step's observation) is the observation's mask as booleans, a new array, and encodes no
    observation: since the session keeps no encoded arrays it would cost a whole encoding."""
    pytest.importorskip("gymnasium")
    from rummy101.rl import gym_env

    g = gym_env("rummy101(players=2)", opponents="random")
    obs, _ = g.reset(seed=3)
    enc = g.unwrapped.session.encoder
    calls = []
    real = enc.encode
    enc.encode = lambda o: calls.append(1) or real(o)  # (an instance attribute: this env only)
    rng = np.random.default_rng(3)
    for _ in range(40):
        before = len(calls)
        got = g.action_masks()
        assert got.dtype == bool and np.array_equal(got, obs["action_mask"].astype(bool))
        got[:] = False  # the caller's own
        assert g.action_masks().any()
        obs, _, term, trunc, _ = g.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert len(calls) == before + 1  # the step's observation only
        if term or trunc:
            break


def test_aec_last_returns_what_a_subclass_observe_returns() -> None:
    """``last()`` reads the observation through ``observe`` (PettingZoo's contract), so a
    subclass that changes ``observe`` (features of its own) gets its arrays from ``last`` too."""
    pytest.importorskip("pettingzoo")
    from rummy101.rl.aec import RummyAEC

    class Scaled(RummyAEC):  # type: ignore[misc]
        def observe(self, agent: str) -> dict[str, np.ndarray]:
            got = super().observe(agent)
            got["observation"] = got["observation"] * 0.5
            return got

    e = Scaled("rummy101(players=2)")
    e.reset(seed=1)
    obs, *_ = e.last()
    assert np.array_equal(obs["observation"], e.observe(e.agent_selection)["observation"])
    assert np.array_equal(obs["observation"] * 2, RummyAEC.observe(e, e.agent_selection)["observation"])

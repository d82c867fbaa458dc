"""What the RL step keeps between calls and its shortcuts (docs/rl.md, Speed): the codec's
record of actions met without an index, the session's engine action of each index, Remi's
identity-first legality check, the encoder's value writes and ``last()``'s way to ``observe``.
Each test fails if its memo goes stale or its shortcut answers otherwise than the long way."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from rummy101 import IllegalAction
from rummy101.game import Action, new_game
from rummy101.rl import ActionCodec, ObservationEncoder, Session

pytest.importorskip("pettingzoo")

from rummy101.rl.aec import RummyAEC  # (needs the rl extra)


def test_indices_leave_out_the_actions_without_an_index_once_met() -> None:
    """With one table slot, additions to melds 1 and up have no index: ``indices`` must leave
    them out every time it meets them again (its fast path looks for -1 only once one has been
    met; a record of them that went missing let -1 through, a 1 on the mask's last index)."""
    spec = "rummy101(players=2)"
    codec = ActionCodec(spec, table_slots=1)
    ses = Session(spec, table_slots=1)
    ses.new(seed=3)
    rng = np.random.default_rng(3)
    unmapped = again = 0
    for _ in range(3000):
        if ses.done:
            ses.new()
        legal = ses.state.cached_legal()
        want = [i for i in map(codec.index, legal) if i >= 0]
        left = len(legal) - len(want)
        unmapped += left
        for _call in range(2):  # the second call finds every id met
            assert codec.indices(legal) == want
        again += left > 0
        idx = np.flatnonzero(ses.observe(ses.current)["action_mask"].view(bool))
        assert sorted(want) == idx.tolist()
        ses.step(int(idx[rng.integers(len(idx))]))
    assert unmapped > 0 and again > 1, "the play met no action beyond the table slot: other seeds"


@pytest.mark.parametrize("spec", ["remi(players=2)", "rummy101", "classic(players=3)"])
def test_the_session_plays_the_engines_own_action_of_the_index(spec: str) -> None:
    """``step(i)`` plays the engine's listed object of index ``i`` (equal to the codec's action
    of ``i``), from the list of the position the index was chosen in, never an older one."""
    ses = Session(spec)
    ses.new(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(600):
        if ses.done:
            ses.new()
        legal = ses.state.cached_legal()
        idx = np.flatnonzero(ses.observe(ses.current)["action_mask"].view(bool))
        i = int(idx[rng.integers(len(idx))])
        ses.step(i)
        played = ses.state.history[-1]  # (State.apply appends the action it was given)
        assert played == ses.codec.action(i) and str(played) == str(ses.codec.action(i))
        assert any(played is a for a in legal), (spec, str(played))


def test_remi_apply_takes_an_equal_action_and_refuses_an_unlisted_one() -> None:
    """Remi's legality check looks for the object itself first, then for an equal one: an
    action built anew (the codec's, parsed text) is played as before, one not listed refused."""
    codec = ActionCodec("remi(players=2)")
    for seed in range(4):
        s = new_game("remi(players=2)", seed)
        for _ in range(30):
            legal = s.legal_actions()
            a = legal[len(legal) // 2]
            twin = codec.action(codec.index(a))
            assert twin == a and twin is not a
            t = s.copy()
            t.apply(Action.parse(str(a), t.rules))
            s.apply(twin)
            assert str(s.history[-1]) == str(t.history[-1]) and s.racks == t.racks
            outside = [b for b in codec.actions[:60] if b not in s.legal_actions()]
            with pytest.raises(IllegalAction):
                s.copy().apply(outside[0])
            if s.is_terminal:
                break


def test_encode_writes_what_numpy_reads_of_odd_values() -> None:
    """The values go through the array's memoryview; one it refuses (a string, None) is written
    by numpy as before ("5" as 5.0, None as nan), not raised."""
    s = new_game("rummy101(players=2)", 1)
    enc = ObservationEncoder(s.rules)
    obs = s.observation(0)
    want = enc.encode(obs)
    odd = dict(obs, stock=str(obs["stock"]))
    assert np.array_equal(enc.encode(odd), want)
    x = enc.encode(dict(obs, turn=None))
    assert np.isnan(x[enc.offset("turn")])
    assert np.array_equal(np.delete(x, enc.offset("turn")), np.delete(want, enc.offset("turn")))


class _Marked(RummyAEC):
    def observe(self, agent: str) -> Any:
        return ("marked", super().observe(agent))


def test_last_uses_a_subclass_observe() -> None:
    """``last()`` observes through the session directly only when ``observe`` is the env's own:
    a subclass that changes ``observe`` changes ``last`` too."""
    e = _Marked("rummy101(players=2)")
    e.reset(seed=1)
    obs = e.last()[0]
    assert obs[0] == "marked"
    plain = RummyAEC("rummy101(players=2)")
    plain.reset(seed=1)
    got = plain.last()[0]
    assert np.array_equal(got["observation"], obs[1]["observation"])
    assert np.array_equal(got["action_mask"], obs[1]["action_mask"])

"""The RL building blocks as a careless researcher calls them (docs/rl.md): the action codec,
the observation encoder and the Gymnasium env's seat. Each refusal says what to give instead,
and a numpy integer is a whole number, as in the environments' steps and seeds. The codec and
encoder tests need numpy only; the gym test skips without the ``rl`` extra."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest
from rummy101 import RulesError, new_game
from rummy101.rl import ActionCodec, ObservationEncoder


@pytest.mark.parametrize("bad", [2.0, 2.7, np.float64(2.0), "2", None, True, [2]])
def test_codec_action_of_what_is_no_integer_is_refused(bad: Any) -> None:
    # int() read 2.7 and 2.0 as index 2 (the environments refuse them: IllegalActionIndex), and
    # None was "int() argument must be ..., not 'NoneType'"
    codec = ActionCodec("rummy101")
    with pytest.raises(TypeError, match=r"an action index is a whole number 0\.\.18155"):
        codec.action(bad)
    assert str(codec.action(np.int64(2))) == str(codec.action(2)) == "button"


@pytest.mark.parametrize("other", ["rummy101(players=3)", "remi(players=2)", "classic(players=2)"])
def test_an_encoder_refuses_the_observation_of_another_layout(other: str) -> None:
    # a 3-player observation was encoded by a 2-player encoder without a word (its seats taken
    # modulo 2); another variant's was KeyError '5H' or 'seat'
    enc = ObservationEncoder("rummy101(players=2)")
    obs = new_game(other, 1).observation(0)
    says = rf"encodes rummy101\(players=2\): the observation is of {re.escape(other)}, whose"
    with pytest.raises(RulesError, match=says):
        enc.encode(obs)


@pytest.mark.parametrize("bad", [None, {}, "rummy101", [1, 2]])
def test_an_encoder_given_no_observation_dict_says_what_it_takes(bad: Any) -> None:
    # was KeyError 'seat' or TypeError "'NoneType' object is not subscriptable"
    with pytest.raises(RulesError, match=r"encode takes an observation dict, state.observation"):
        ObservationEncoder("classic(players=2)").encode(bad)


def test_an_encoder_reads_rule_options_that_keep_its_layout() -> None:
    enc = ObservationEncoder("rummy101(players=2)")
    for spec in ["rummy101(players=2,threshold=increasing)", "rummy101(players=2,button_jokers=2)"]:
        obs = new_game(spec, 3).observation(1)
        assert np.array_equal(enc.encode(obs), ObservationEncoder(spec).encode(obs))


def test_a_gym_seat_may_be_a_numpy_integer() -> None:
    # was "seat must be 0..1, got np.int64(1)"
    pytest.importorskip("gymnasium")
    from rummy101.rl import gym_env

    g = gym_env("classic(players=2)", opponents="random", seat=np.int64(1))
    assert g.seat == 1 and type(g.seat) is int
    obs, _ = g.reset(seed=3)
    assert g.game.current_player == 1 and obs["action_mask"].any()
    for bad in (1.0, -1, 2, True):
        with pytest.raises(RulesError, match=r"seat must be 0\.\.1"):
            gym_env("classic(players=2)", opponents="random", seat=bad)

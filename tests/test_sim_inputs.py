"""simulate()'s arguments as a researcher passes them from numpy or with bot objects: numpy
integers are the same whole numbers (``for seed in np.arange(3)``), and a bot object, which
only :func:`~rummy101.sim.play_game` takes, is refused with a message that says so."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from rummy101.bots import get_bot
from rummy101.sim import SimError, play_game, simulate, wilson_interval


def test_numpy_integers_are_whole_numbers() -> None:
    want = simulate("rummy101(players=2)", "greedy,random", 2, seed=3, workers=1, progress=False)
    got = simulate("rummy101(players=2)", "greedy,random", np.int64(2), seed=np.arange(5)[3],
                   workers=np.int32(1), progress=False, match_rounds=np.uint8(1),
                   start=np.int16(0))
    assert got.records == want.records and got.seed == 3 and type(got.seed) is int


@pytest.mark.parametrize("bad", [True, 2.0, "3"])
def test_a_seed_that_is_no_integer_is_still_refused(bad: object) -> None:
    with pytest.raises(SimError, match="seed must be a whole number"):
        simulate("rummy101(players=2)", "greedy,random", 1, seed=bad, workers=1,  # type: ignore[arg-type]
                 progress=False)


@pytest.mark.parametrize("bad", [-1, 2**63, -(2**70)])
def test_a_seed_outside_the_cli_s_range_is_refused(bad: int) -> None:
    """simulate takes the seeds `rummy101 sim --seed` takes (0 .. 2**63 - 1): a file written
    with another could not be resumed from the command line."""
    with pytest.raises(SimError, match=r"seed must be a whole number from 0 to 2\*\*63 - 1"):
        simulate("rummy101(players=2)", "greedy,random", 1, seed=bad, workers=1, progress=False)


def test_the_largest_seed_plays() -> None:
    assert simulate("rummy101(players=2)", "greedy,random", 1, seed=2**63 - 1, workers=1,
                    progress=False).seed == 2**63 - 1


def test_a_bot_object_is_refused_with_what_to_do() -> None:
    bot = get_bot("greedy", random.Random(0))
    with pytest.raises(SimError, match=r"bots are names.*seat 0.*GreedyBot.*play_game"):
        simulate("rummy101(players=2)", [bot, "random"], 1, workers=1,  # type: ignore[list-item]
                 progress=False)


@pytest.mark.parametrize(("bots", "message"), [
    ([], r"0 bots given but rummy101\(players=2\) has 2 players: give one bot per seat"),
    (["greedy"], r"1 bot given but rummy101\(players=2\) has 2 players"),
    (["greedy", "random", "random"], r"3 bots given but rummy101\(players=2\) has 2 players"),
    ([1, 2], r"seat 0's bot 1 \(of type int\) is not a bot name or a bot object"),
    (b"R1", r"bots must be a list of bot names or bot objects.*got bytes b'R1'"),
    (None, r"bots must be a list of bot names or bot objects.*got NoneType None")])
def test_play_game_refuses_bots_that_do_not_fill_the_seats(bots: object, message: str) -> None:
    # too few were an IndexError mid-game, numbers or bytes an AttributeError, too many ignored
    with pytest.raises(SimError, match=message):
        play_game("rummy101(players=2)", bots, 1)  # type: ignore[arg-type]


def test_play_game_takes_a_bot_text_as_simulate_does() -> None:
    assert (play_game("rummy101(players=2)", "greedy,random", 4)
            == play_game("rummy101(players=2)", ["greedy", "random"], 4))


@pytest.mark.parametrize(("args", "message"), [
    ((5, 3), r"whole numbers 0 <= successes <= trials, got successes=5 and trials=3"),
    ((-1, 10), r"whole numbers 0 <= successes <= trials, got successes=-1"),
    ((1.5, 10), r"whole numbers 0 <= successes <= trials, got successes=1.5"),
    ((1, 10, -1), r"z must be a positive number \(1\.96 for 95%\), got -1"),
    ((1, 10, float("nan")), r"z must be a positive number")])
def test_wilson_interval_refuses_counts_it_cannot_have(args: tuple[Any, ...], message: str) -> None:
    # 5 of 3 and -1 of 10 were "math domain error"; 1.5 of 10 and z=-1 gave an interval
    with pytest.raises(SimError, match=message):
        wilson_interval(*args)
    assert wilson_interval(np.int64(0), np.int64(10), np.float32(1.96))[0] == 0.0


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"seed": 1.5}, "seed must be a whole number from 0 to 2\\*\\*63 - 1, got 1.5"),
    ({"seed": -1}, "seed must be a whole number from 0 to 2\\*\\*63 - 1, got -1"),
    ({"seed": "1"}, "seed must be a whole number"),
    ({"index": -1}, "index must be a game index, a whole number >= 0, got -1"),
    ({"index": 0.5}, "index must be a game index"),
    ({"max_steps": 0}, "max_steps must be a whole number >= 1, got 0"),
])
def test_play_game_refuses_the_seeds_and_counts_simulate_refuses(kwargs: dict[str, Any],
                                                                 message: str) -> None:
    # a float seed was hashed as written (seed 1.5 dealt a game no run of simulate plays), a
    # negative one too, and max_steps=0 was a GameFailed blaming a bot for a loop
    args = {"seed": 1, "index": 0, **kwargs}
    with pytest.raises(SimError, match=message):
        play_game("rummy101(players=2)", ["greedy", "random"], **args)


def test_play_game_takes_numpy_integers() -> None:
    want = play_game("rummy101(players=2)", ["greedy", "random"], 4, 2)
    got = play_game("rummy101(players=2)", ["greedy", "random"], np.int64(4), np.int32(2),
                    max_steps=np.int64(10_000))
    assert got == want and type(got.run_seed) is int and got.run_seed == 4

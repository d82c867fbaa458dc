"""A Remi discard another seat took keeps its place in the samples of the other seats (RO-10).

A seat not laid down may take the last discard only for a lay-down this turn, and holds it on
its rack until the lay-down: every observation shows the tile taken (``turn_state.taken``), and
the seat's own shows it must still be used (``must_use``). The sampler dealt that tile at random
from another seat's observation, so the taker often did not hold it, and the duty was counted
from the observing seat's own rack: in a sample the taker could discard with the tile unused."""

from __future__ import annotations

import random
from typing import Any

import pytest
from oracles.generic import other_seats_samples, positions_where
from oracles.remi import check_pieces, eager
from rummy101.errors import IllegalAction
from rummy101.game import Phase, engine_for


def _after_takes(rules: str, seeds: range) -> list[Any]:
    """Positions of seeded rounds right after a seat not laid down took the last discard."""
    return positions_where(rules, seeds, eager,
                           lambda s: s.phase is Phase.PLAY and s.x.taken >= 0 and s.x.staged_from < 0)


@pytest.mark.parametrize(("rules", "seeds"), [("remi", range(30)), ("remi(players=3)", range(10))])
def test_the_taker_holds_the_taken_discard_in_every_sample(rules: str, seeds: range) -> None:
    positions = _after_takes(rules, seeds)
    checked = 0
    for k, s in enumerate(positions):
        p, t = s.current_player, s.x.taken
        real = s.observation(p)
        assert real["turn_state"]["must_use"] == real["turn_state"]["taken"]
        for seat, j, got in other_seats_samples(s, k, check_pieces):
            assert got.racks[p][t] >= 1, (k, seat, j)
            # the taker's duty holds as in the game: no discard before the lay-down
            assert got.observation(p)["turn_state"]["must_use"] == real["turn_state"]["taken"]
            assert not any(a.verb == "discard" for a in got.legal_actions())
            checked += 1
    assert len(positions) >= 3 and checked >= 30


def test_a_taken_discard_with_no_copy_left_is_refused() -> None:
    s = _after_takes("remi", range(10))[0]
    p = s.current_player
    obs = s.observation((p + 1) % s.n)
    taken = obs["turn_state"]["taken"]
    # the observing seat shown holding every copy of the tile the taker took not shown elsewhere
    # (the set has two): no game does that
    shown = [c for m in obs["table"] for c in m["tiles"]] + obs["train"] + obs["rack"]
    rack = list(obs["rack"])
    for i in [i for i, c in enumerate(rack) if c != taken][: 2 - shown.count(taken)]:
        rack[i] = taken
    with pytest.raises(IllegalAction, match="RO-10"):
        engine_for(s.rules).sample_state(dict(obs, rack=rack), random.Random(0))

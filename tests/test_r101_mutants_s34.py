"""Rummy 101 behaviour the thirty-fourth mutation round found unpinned: planted changes in
``game/engines/rummy101/{engine,world,data}.py`` that every other test let pass. Positions are
built by hand (tile conservation is not the point); each test names the rule it pins."""

from __future__ import annotations

import random
from typing import Any

import pytest
from audit_helpers import play, refused
from rummy101 import IllegalAction
from rummy101.game import Phase, new_game
from rummy101.game.engines.rummy101.world import sample_state
from rummy101.game.table import PAIR, RUN, SET, TableMeld
from rummy101.tiles import parse_tiles
from test_audit_r101 import counts

OPEN = {"melds": 1, "pairs": 2, None: 0}


def pos(
    rules: str,
    *,
    racks: list[str],
    stock: str = "K1 K2 K3 K4 K5",
    current: int = 0,
    phase: str = "play",
    table: list[tuple[str, int, str]] = (),
    opened: list[Any] | None = None,
    turn: int = 5,
    last_discard: str | None = None,
    match_rounds: int | None = None,
) -> Any:
    """A hand-made position: ``racks`` per seat, ``table`` as (kind, owner, tiles), ``opened``
    per seat (None, "melds", "pairs"); ``phase="play"`` means the turn's take was a draw."""
    s = new_game(rules, 0, match_rounds=match_rounds)
    s.racks = [counts(r) for r in racks]
    s.sizes = [sum(r) for r in s.racks]
    s.stock = [int(t) for t in parse_tiles(stock)] if stock else []
    s.current = current
    s.turn = turn
    s.phase = Phase(phase)
    s.x.took = "draw" if phase == "play" else ""
    kinds = {"run": RUN, "set": SET, "pair": PAIR}
    s.table = [
        TableMeld.build(kinds[k], o, tuple(int(t) for t in parse_tiles(ts))) for k, o, ts in table
    ]
    s.x.turn_table_start = len(s.table)
    s.x.opened = [OPEN[o] for o in (opened or [None] * s.n)]
    s.x.opened_turn = [0 if o else -1 for o in s.x.opened]
    s.x.discards = [[] for _ in range(s.n)]
    s.x.last_discard = -1
    if last_discard:
        s.x.last_discard = int(parse_tiles(last_discard)[0])
        s.x.discards[(current - 1) % s.n].append(s.x.last_discard)
    s.invalidate_legal()
    return s


def test_r101_10_button_available_only_to_the_seat_to_move_before_its_take() -> None:
    """R101-10: the joker button is pressed only instead of the stock draw, once per round, by
    the player whose turn it is; the observation's ``button.available`` says so to that seat
    alone (every seat sees the accounts and who used the button)."""
    s = pos(
        "rummy101(players=3,button_jokers=2)",
        racks=["R1 R2 R3", "Y5 Y9 B1", "K3 K4 K5"],
        current=1,
        phase="take",
        stock="B4 B5 B6 B7 B8 B9 B10",
    )

    def available() -> list[bool]:
        return [s.observation(q)["button"]["available"] for q in range(3)]

    assert available() == [False, True, False]
    play(s, "draw")  # not after the draw (R101-10)
    assert available() == [False, False, False]
    play(s, "discard Y9", "draw", "discard K3", "draw", "discard R1")
    assert s.current == 1 and available() == [False, True, False]
    play(s, "button")  # instead of the draw
    assert available() == [False, False, False]
    assert all(s.observation(q)["button"]["used"] == [False, True, False] for q in range(3))
    play(s, "discard B10", "draw", "discard K4", "draw", "discard R2")
    assert s.current == 1 and s.phase is Phase.TAKE
    assert s.x.button_left == [2, 1, 2]  # jokers left, but the button was used this round
    assert available() == [False, False, False]
    assert "button" not in {str(a) for a in s.legal_actions()}


def test_r101_13_no_discard_to_take_once_the_round_is_over() -> None:
    """R101-4/R101-13: after the finishing discard nobody is to take it: the observation's
    ``last_discard`` (the tile the player to move may take) is null at the end, while the
    discard piles still show the finishing tile."""
    s = pos("rummy101(players=2)", racks=["R7", "Y2 Y3"], opened=["melds", "melds"])
    play(s, "discard R7")
    assert s.phase is Phase.OVER
    for q in range(2):
        obs = s.observation(q)
        assert obs["last_discard"] is None
        assert obs["discards"][0] == ["R7"]
    assert not any(line.startswith("last discard") for line in str(s).splitlines())


def test_r101_13_drawing_from_an_empty_stock_is_refused_naming_r101_13() -> None:
    """R101-13: the round ends at the turn that drew the last stock tile, so a take phase never
    meets an empty stock; a hand-made one that does offers no draw and refuses it citing the
    stock's exhaustion (R101-13)."""
    s = pos("rummy101(players=2)", racks=["R1 R2", "Y5 Y9 B1"], phase="take", stock="")
    assert "draw" not in {str(a) for a in s.legal_actions()}
    refused(s, "draw", "R101-13")


def test_r101_4_r101_9_own_turn_is_the_movers_alone_and_counts_retrievals_after_a_taken_joker() -> (
    None
):
    """R101-4 with R101-9: ``own_turn`` (the rack the turn began with, hidden from the others) is
    in the observation of the seat to move only; after taking a joker its ``jokers_retrieved``
    counts the jokers retrieved since the take, not the jokers the rack held before it."""
    s = pos(
        "rummy101(players=2)",
        racks=["R7 R8 R11 K3 *", "B1 B2"],
        opened=["melds", "melds"],
        table=[("run", 1, "R10 * R12")],
        phase="take",
        last_discard="*",
    )
    play(s, "take")
    assert "own_turn" not in s.observation(1)
    mine = s.observation(0)["own_turn"]
    assert mine["start"]["rack"] == ["R7", "R8", "R11", "K3", "*"]
    assert mine["jokers_retrieved"] == 0
    play(s, "retrieve 0:1 with R11")
    assert "own_turn" not in s.observation(1)
    assert s.observation(0)["own_turn"]["jokers_retrieved"] == 1
    assert all(s.observation(q)["turn_state"]["must_use"] == "*" for q in range(2))


def test_r101_10_samples_deal_this_rounds_button_jokers_too() -> None:
    """R101-10: a button joker is extra to the 106 tiles, so a position sampled from a seat's
    observation (the hidden racks and stock dealt at random) holds the set's 2 jokers plus one
    per button pressed this round, wherever they are."""
    s = new_game("rummy101(players=2,button_jokers=1)", 3)
    rack0 = s.observation(0)["rack"]
    play(s, f"discard {next(t for t in rack0 if t != '*')}")
    play(s, "button")
    rack1 = s.observation(1)["rack"]
    play(s, f"discard {next(t for t in rack1 if t != '*')}")
    obs = s.observation(0)
    assert obs["button"]["used"] == [False, True]
    for seed in range(5):
        got = sample_state(obs, random.Random(seed))
        jokers = sum(r[52] for r in got.racks) + got.stock.count(52)
        jokers += sum(m.tiles.count(52) for m in got.table) + sum(
            d.count(52) for d in got.x.discards
        )
        assert jokers == 3
        assert got.observation(0) == obs


def test_r101_3_own_turn_in_another_seats_observation_is_refused() -> None:
    """R101-3: ``own_turn`` (what the seat to move knows of its own turn) never belongs to
    another seat: a sample refuses an observation of a waiting seat that carries one."""
    s = pos("rummy101(players=2)", racks=["R1 R2 R3 K9 K9", "Y5 Y9 B1"], opened=["melds", None])
    play(s, "run R1 R2 R3")
    obs = dict(s.observation(1))
    obs["own_turn"] = s.observation(0)["own_turn"]
    with pytest.raises(IllegalAction, match="'own_turn' belongs to the seat to move"):
        sample_state(obs, random.Random(0))


def test_r101_3_a_copy_plays_on_without_touching_the_original() -> None:
    """R101-3/R101-4/R101-10: a copy of a position (what search bots play out) is independent:
    a take, an opening, a discard and the button in the copy leave the original's openings and
    their turns, discard piles, taken-discard log and button use as they were."""
    s = pos(
        "rummy101(players=2,button_jokers=1)",
        racks=["R9 R10 R11 R12 K9 K10 K11 K12 K13 B1 B3", "Y5 Y9 B1"],
        phase="take",
        last_discard="R13",
    )
    obs = [s.observation(q) for q in range(2)]
    c = s.copy()
    play(c, "take", "run R11 R12 R13", "add R10 to 0@start", "add R9 to 0@start")
    play(c, "run K11 K12 K13", "add K10 to 1@start", "add K9 to 1@start", "open", "discard B1")
    play(c, "button")
    b1, r13 = (int(t) for t in parse_tiles("B1 R13"))
    assert c.x.opened_turn == [5, -1] and c.x.discards == [[b1], []]
    assert c.x.taken_log == [(0, 1, r13, 5)] and c.x.button_used == [False, True]
    assert s.x.opened == [0, 0] and s.x.opened_turn == [-1, -1]
    assert s.x.discards == [[], [r13]] and s.x.taken_log == [] and s.x.button_used == [False, False]
    assert [s.observation(q) for q in range(2)] == obs


def test_r101_2_the_next_round_starts_with_no_discards_takes_or_openings() -> None:
    """R101-2/R101-4: each round is dealt afresh: after a round whose finish took a discard, the
    next round's observations show no discard piles, no last discard (the new starter plays
    without a take), no taken discards and nobody opened, at no turn."""
    s = pos(
        "rummy101(players=2)",
        racks=["K5", "Y5 Y9 B1"],
        opened=["melds", "melds"],
        table=[("run", 0, "R10 R11 R12")],
        phase="take",
        last_discard="R13",
        match_rounds=2,
    )
    play(s, "take", "add R13 to 0@end", "discard K5")
    assert s.round == 1 and s.current == 1 and s.phase is Phase.PLAY
    assert s.round_results()[0]["winner"] == 0
    for q in range(2):
        obs = s.observation(q)
        assert obs["discards"] == [[], []] and obs["last_discard"] is None
        assert obs["taken_discards"] == []
        assert obs["opened"] == [None, None] and obs["opened_turn"] == [-1, -1]


def test_r101_4_a_take_from_another_seat_than_the_previous_is_refused_in_a_sample() -> None:
    """R101-4: only the previous player's last discard may be taken, so an observation whose
    take this turn came from another seat's pile cannot come from a game: a sample refuses it."""
    s = pos(
        "rummy101(players=3)",
        racks=["R7 R8 R11 K3", "B1 B2", "Y1 Y2"],
        opened=["melds", "melds", "melds"],
        table=[("run", 1, "R4 R5 R6")],
        phase="take",
        last_discard="R9",
    )
    play(s, "take", "run R7 R8 R9")
    obs = s.observation(0)
    assert obs["taken_discards"] == [{"seat": 0, "from": 2, "tile": "R9", "turn": 5}]
    bad = dict(obs, taken_discards=[{"seat": 0, "from": 1, "tile": "R9", "turn": 5}])
    with pytest.raises(IllegalAction, match="do not end with this turn's take"):
        sample_state(bad, random.Random(0))


def test_r101_7_a_staged_opening_is_sampled_only_from_the_movers_observation() -> None:
    """R101-7: runs/sets laid before the opening is committed are staged; another seat sees them
    but not the rack they came from, so a sample from that seat's observation is refused."""
    s = pos("rummy101(players=2)", racks=["R1 R2 R3 K9 K9", "Y5 Y9 B1"])
    play(s, "run R1 R2 R3")
    obs = s.observation(1)
    assert obs["turn_state"]["staged"] and "own_turn" not in obs
    with pytest.raises(IllegalAction, match="staged opening is sampled from the observation of"):
        sample_state(obs, random.Random(0))


def test_r101_3_positions_differing_only_in_what_reset_undoes_are_not_equal() -> None:
    """R101-3: ``reset`` undoes the turn's plays from the turn's undo snapshot, so two positions
    alike in every shown field but one with something to undo are different positions (the
    refusal checks compare states with ``==``)."""
    s = pos("rummy101(players=2)", racks=["R1 R2 R3 K9 K9", "Y5 Y9 B1"], opened=["melds", None])
    play(s, "run R1 R2 R3")
    t = s.copy()
    assert t == s
    t.x.snap = None
    t.invalidate_legal()
    assert "reset" in {str(a) for a in s.legal_actions()} - {str(a) for a in t.legal_actions()}
    assert t != s

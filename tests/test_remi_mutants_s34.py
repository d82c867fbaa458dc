"""Remi engine behaviour the thirty-fourth mutation round found unpinned (RULES.md RO-2 .. RO-12):
the round results of a closed or exhausted round, breaking the train, the end of the stock, what
each seat's observation shows, and the rule a refusal names. Positions are built by hand (tile
conservation is not the point); each test fails on one planted change the other tests let pass."""

from __future__ import annotations

import pytest
from audit_helpers import legal, play, refused
from rummy101 import IllegalAction
from rummy101.game import Phase, new_game
from rummy101.game.engines.remi.table import end_value
from rummy101.tiles import JOKER_CODE
from test_audit_remi import codes
from test_audit_remi import pos as position

J = JOKER_CODE


# ---- RO-11 / RO-12: the results of a closed round ------------------------------------------------


def test_ro11_a_tabla_close_with_a_joly_discard_is_a_joker_finish() -> None:
    """RO-11/RO-12: closing the tabla by discarding a Joly doubles the pattern's score, and the
    round's results say it was a Joly finish; a close with a real tile is not one."""
    rack = "R1 R2 R3 Y4 Y5 Y6 B7 B8 B9 K10 K11 K12 K13 Y7 {}"
    for last, joker, score in (("*", True, 800), ("B1", False, 400)):
        s = position(
            "remi(doubles=off,atu=off)",
            racks=["R5 B6", rack.format(last), "B2", "B3"],
            phase="play",
            tabla=[False, True, False, False],
            laid=[True, False, False, False],
            atu=None,
        )
        play(s, "close", f"discard {last}")
        r = s.round_results()[0]
        assert (r["finish"], r["pattern"], r["joker_finish"]) == ("tabla", "simple", joker)
        assert r["scores"][1] == score


def test_ro12_results_name_each_racks_penalty_in_end_values() -> None:
    """RO-12: the results' ``penalties`` are the end values left on each rack (2-9 -> 5, 10-13
    -> 10, 1 -> 25, Joly -> 50), the finisher's empty rack 0."""
    s = position(
        racks=["R5 B11", "Y4 Y5 Y6 K1", "B1 *", "B3 K12 Y9"],
        laid=[True, True, False, False],
        phase="play",
        atu=None,
    )
    play(s, "run Y4 Y5 Y6", "discard K1")
    r = s.round_results()[0]
    assert r["penalties"] == [15, 0, 75, 20]
    assert (r["laid"], r["tabla"]) == ([True, True, False, False], [False] * 4)
    assert r["penalties"] == [
        sum(end_value(c) for c in range(53) for _ in range(s.racks[q][c])) for q in range(4)
    ]


def test_ro12_results_name_seat_0_as_the_twins_holder() -> None:
    """RO-2/RO-12: the results name the seat that held the Atu's twin, seat 0 too, beside its
    flat +50."""
    s = position(
        racks=["R5 B11", "Y4 Y5 Y6 K1", "B1", "B3"],
        laid=[True, True, False, False],
        phase="play",
        atu="K8",
        twin=0,
    )
    play(s, "run Y4 Y5 Y6", "discard K1")
    r = s.round_results()[0]
    assert (r["twin"], r["scores"][0]) == (0, 0 - 15 + 50)


# ---- what each seat's observation shows --------------------------------------------------------


def test_ro2_only_the_twins_holder_is_told_of_it() -> None:
    """RO-2: the Atu's twin is checked on the dealt racks and its +50 counted at the end; the seat
    that holds it learns so from its own observation, the others see ``twin`` false (who holds
    the other copy of the Atu is private: ``world.sample_state`` deals it to nobody)."""
    seed = next(sd for sd in range(200) if new_game("remi(doubles=off)", sd).x.twin >= 0)
    s = new_game("remi(doubles=off)", seed)
    holder = s.x.twin
    assert s.racks[holder][s.x.atu] >= 1
    assert [s.observation(q)["twin"] for q in range(s.n)] == [q == holder for q in range(s.n)]


def test_own_turn_is_shown_to_the_seat_to_move_only() -> None:
    """The observation's ``own_turn`` (the rack and table before the turn's first play, RO-5's
    ``reset``) is the mover's own: another seat's observation must not carry it, or it would
    read the mover's rack."""
    s = position(
        racks=["R5", "Y4 Y5 Y6 K1 B2", "B2 B8", "B3 K9"],
        laid=[True, True, False, False],
        phase="play",
        atu=None,
    )
    play(s, "run Y4 Y5 Y6")
    assert s.observation(1)["own_turn"]["start"]["rack"] == ["Y4", "Y5", "Y6", "B2", "K1"]
    assert [q for q in range(s.n) if "own_turn" in s.observation(q)] == [1]


def test_a_finished_round_shows_no_atu_to_take() -> None:
    """RO-4: the Atu is taken only to finish a turn of play; once the round is over the
    observation shows it no longer available (the last discard is gone too)."""
    s = position(
        racks=["R5", "Y4 Y5 Y6 K1", "B2", "B3"],
        laid=[True, True, False, False],
        phase="play",
        atu="K8",
    )
    assert s.observation(0)["atu_available"]
    play(s, "run Y4 Y5 Y6", "discard K1")
    assert s.phase is Phase.OVER
    obs = s.observation(0)
    assert (obs["atu"], obs["atu_available"], obs["last_discard"]) == ("K8", False, None)


# ---- RO-9.4: breaking the train --------------------------------------------------------------------


def test_ro9_4_every_seat_sees_how_many_later_discards_a_break_returns() -> None:
    """RO-9.4: breaking the train at R5 takes it to be laid at once and puts every later discard
    (B7 Y2 K9: public, they lay in the train) onto the rack once the meld is laid; until then each
    seat's observation shows the pending tile and how many tiles will follow it."""
    s = position(
        racks=["R5", "R6 R7 B1", "B2", "B3"],
        laid=[False, True, False, False],
        train="K1 R5 B7 Y2 K9",
    )
    play(s, "break 1")
    for q in range(s.n):
        ts = s.observation(q)["turn_state"]
        assert (ts["took"], ts["pending"], ts["pending_kind"], ts["later"]) == (
            "break",
            "R5",
            "break",
            3,
        )
        assert s.observation(q)["train"] == ["K1"]
    play(s, "run R5 R6 R7")
    assert s.observation(0)["turn_state"]["later"] == 0 and s.sizes[1] == 4


def test_ro9_4_the_last_discard_is_taken_not_broken() -> None:
    """RO-5/RO-9.4: the train is broken at tiles 1..N-2; the first discard is never taken and the
    last is the plain ``take``: ``break`` at either end is refused naming RO-5, even when rack
    tiles would form a meld with the tile (K9 with K10 K11)."""
    s = position(
        racks=["R5", "R6 R7 K10 K11 B1", "B2", "B3"],
        laid=[False, True, False, False],
        train="K1 R5 B7 Y2 K9",
    )
    assert {a for a in legal(s) if a.startswith(("break", "take"))} == {"break 1", "take"}
    for n in (0, 4):
        refused(s, f"break {n}", "RO-5")
    with pytest.raises(IllegalAction, match="'take'"):
        s.apply("break 4")


# ---- RO-10: the end of the stock -----------------------------------------------------------------


def test_ro10_no_draw_from_an_empty_stock_names_ro10() -> None:
    """RO-10: with the stock empty there is nothing to draw (the reshuffle and the exhausted game
    are RO-10's); a laid-down player may still take the last discard."""
    s = position(racks=["R5", "Y4 Y5 Y6 K1", "B2", "B3"], laid=[True, True, False, False], stock="")
    assert "draw" not in legal(s) and "take" in legal(s)
    refused(s, "draw", "RO-10")


# ---- refusals name the rule ------------------------------------------------------------------------


def test_ro4_the_atu_once_taken_is_refused_naming_ro4() -> None:
    """RO-2/RO-4: the Atu lies face up beside the stock until one player takes it to finish; once
    it is gone, or with the Atu off, taking it is refused naming RO-4."""
    s = position(racks=["R5", "Y4 Y5 Y6 K1", "B2", "B3"], laid=[True, True, False, False], atu="K8")
    s.x.atu_avail = False
    s.invalidate_legal()
    assert "atu" not in legal(s) and not s.observation(1)["atu_available"]
    refused(s, "atu", "RO-4")
    off = position(
        "remi(doubles=off,atu=off)",
        racks=["R5", "Y4 Y5 Y6 K1", "B2", "B3"],
        laid=[True, True, False, False],
        atu=None,
    )
    refused(off, "atu", "RO-4")


def test_ro10_the_reshuffle_is_the_documented_shuffle_of_this_round() -> None:
    """RO-10 (docs/rules.md): when a turn ends with the stock empty, the train but its first tile
    becomes the new stock by Fisher-Yates on ``random.Random("rummy101-remi-reshuffle:{seed}:
    {round}")``, so a later round of a match reshuffles by its own stream, not round 0's; when
    that stock runs out too the round ends exhausted and its results say it was reshuffled."""
    import random

    from rummy101.game.deal import _below

    def shuffled(tiles: list[int], seed: int, rnd: int) -> list[int]:
        rng = random.Random(f"rummy101-remi-reshuffle:{seed}:{rnd}")
        out = tiles[:]
        for i in range(len(out) - 1, 0, -1):
            j = _below(rng, i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    train = "K9 Y13 B12 R1 Y2 Y3 B5 B7 R11 K4"
    s = position(
        racks=["R5 B6", "K7 Y3", "B2 B4", "B3 K5"], stock="R9", train=train, laid=[True] * 4
    )
    s.round = 1
    play(s, "draw", "discard K7")
    before = codes(train)[1:] + codes("K7")
    assert shuffled(before, s.seed, 1) != shuffled(before, s.seed, 0)
    assert s.stock == shuffled(before, s.seed, 1)
    assert s.x.train == codes("K9") and len(s.x.train_by) == 1 and s.observation(2)["reshuffled"]
    s.stock = s.stock[-1:]  # the second stock runs out: exhausted
    play(s, "draw", "discard B4")
    r = s.round_results()[0]
    assert (r["end"], r["winner"], r["reshuffled"]) == ("exhausted", None, True)


def test_ro12_results_count_the_turns_the_round_began() -> None:
    """The round results' ``turns`` count the turns of play begun in the round, the starter's
    opening discard (RO-5) and the last one included: each seat's ``own_turns`` summed (RO-11
    counts them), in a game played to its end with random legal moves."""
    import random

    rng = random.Random(7)
    s = new_game("remi(players=3)", 11)
    while not s.is_terminal:
        s.apply(rng.choice(s.legal_actions()))
    r = s.round_results()[0]
    assert r["turns"] == sum(s.x.own_turns) == s.turn + 1 > 40


def test_ro2_a_joly_atu_is_no_atu_double_in_the_results() -> None:
    """RO-2/RO-12: a Joly turned as the Atu goes to the first player; the Atu-is-1 doubling cannot
    apply (the Joly's code is a multiple of 13, like a 1's), so the results' ``atu_double`` is
    false and nobody's score is doubled; a 1 Atu doubles."""
    for atu, double in (("*", False), ("Y1", True)):
        s = position(
            racks=["R5 B11", "Y4 Y5 Y6 K1", "B1", "B3"],
            laid=[True, True, False, False],
            phase="play",
            atu=atu,
        )
        play(s, "run Y4 Y5 Y6", "discard K1")
        r = s.round_results()[0]
        assert (r["atu"], r["atu_double"]) == (atu, double)
        assert r["scores"][1] == (100 + 15) * (2 if double else 1)


def test_ro9_5_no_retrieval_that_leaves_no_tile_to_discard() -> None:
    """RO-9.5 with RO-13: retrieving the Joly of R9 R10 * with R11 and re-laying it with Y2 Y3
    would empty a 3-tile rack, and a player must keep a tile to discard: refused; with a fourth
    tile it is offered."""
    table = [("run", 0, "R9 R10 *")]
    s = position(
        racks=["R5", "R11 Y2 Y3", "K4", "B3"],
        laid=[True, True, True, False],
        phase="play",
        table=table,
        atu=None,
    )
    assert not any(a.startswith("retrieve") for a in legal(s))
    refused(s, "retrieve 0:2 with R11", "RO-9.5")
    four = position(
        racks=["R5", "R11 Y2 Y3 B9", "K4", "B3"],
        laid=[True, True, True, False],
        phase="play",
        table=table,
        atu=None,
    )
    assert "retrieve 0:2 with R11" in legal(four)


def test_ro13_seat_0_finishing_is_a_finish_not_an_exhausted_round() -> None:
    """RO-13/RO-12: when seat 0 empties its rack the results say the round was finished, by
    seat 0, etalat, and it scores the closing bonus."""
    s = position(
        racks=["Y4 Y5 Y6 K1", "R5", "B2", "B3"],
        laid=[True, True, False, False],
        phase="play",
        current=0,
        atu=None,
    )
    play(s, "run Y4 Y5 Y6", "discard K1")
    r = s.round_results()[0]
    assert (r["end"], r["winner"], r["finish"]) == ("finish", 0, "etalat")
    assert r["scores"][0] == 100 + 15


def test_ro11_a_tabla_player_breaking_the_train_is_told_ro11() -> None:
    """RO-11: a tabla player never lays down, adds or breaks the train. Such a player is never laid
    down either, so the refusal used to name only RO-10 (not laid down) and its RO-11 branch was
    never reached; it names RO-11 and tabla now. A player not laid down is still told RO-10."""
    racks = ["R5", "R6 R7 K1 Y9 Y9 B3 B4 B5 K11 K12 K13 R1 R2 R3", "B2", "B3"]
    s = position(racks=racks, tabla=[False, True, False, False], train="K1 R5 B7 Y2 K9")
    refused(s, "break 1", "RO-11")
    with pytest.raises(IllegalAction, match="tabla player never breaks"):
        s.apply("break 1")
    unlaid = position(racks=racks, train="K1 R5 B7 Y2 K9")
    refused(unlaid, "break 1", "RO-10")


def test_ro11_the_13_tile_simple_close_needs_a_run() -> None:
    """RO-11 with RO-2: the starter who took a Joly Atu and 13 more tiles closes simple only with a
    run among the 13 tiles left (seed 004: "Este obligatoriu ca pe tabla sa se gaseasca ce putin o
    suita"); four sets of 13 tiles and no run close nothing (a 15-tile rack: ``tabla_closes``)."""
    rack = "R2 Y2 B2 K2 R5 Y5 B5 R8 Y8 B8 R11 Y11 B11 K13"
    s = position(
        racks=[rack, "B2", "B3", "K5"],
        current=0,
        phase="play",
        tabla=[True, False, False, False],
        laid=[False, True, False, False],
    )
    assert "close" not in legal(s)
    refused(s, "close", "RO-11")


def test_ro11_announcing_the_close_twice_is_refused_naming_ro11() -> None:
    """RO-11: the close is announced once, before the final discard; a second 'close' is refused
    naming RO-11 and the closing discards stay offered."""
    rack = "R1 R2 R3 Y4 Y5 Y6 B7 B8 B9 K10 K11 K12 K13 Y7 B1"
    s = position(
        "remi(doubles=off,atu=off)",
        racks=["R5 B6", rack, "B2", "B3"],
        phase="play",
        tabla=[False, True, False, False],
        atu=None,
    )
    play(s, "close")
    refused(s, "close", "RO-11")
    assert "discard B1" in legal(s)

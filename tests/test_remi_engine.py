"""Rule tests of the Remi engine: one or more per rule ID of RULES.md (RO-1 .. RO-13, seed 004)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from rummy101 import IllegalAction
from rummy101.game import Action, Phase, new_game
from rummy101.game.deal import shuffled_tiles
from rummy101.game.engines.remi import meld_actions
from rummy101.game.engines.remi.engine import deal, round_deltas
from rummy101.game.engines.remi.table import RUN, SET, RemiMeld, end_value
from rummy101.rules import Rules
from rummy101.tiles import JOKER_CODE, Tile, parse_tiles

J = JOKER_CODE


def counts(text: str) -> list[int]:
    cv = [0] * 53
    for t in parse_tiles(text):
        cv[int(t)] += 1
    return cv


def codes(text: str) -> list[int]:
    return [int(t) for t in parse_tiles(text)]


def position(rules: str = "remi(doubles=off)", *, racks: list[str], stock: str = "K2 K3 K4 K5 K6",
             current: int = 1, phase: str = "take", took: str = "", train: str = "K9 Y13",
             table: list[tuple[str, int, str]] = (), laid: list[bool] | None = None,
             laid_turn: list[int] | None = None, tabla: list[bool] | None = None,
             atu: str | None = "B6", twin: int = -1, turn: int = 5, own_turns: int = 2) -> Any:
    """A hand-made position (tile conservation is not the point here)."""
    s = new_game(rules, 0)
    n = s.n
    x = s.x
    s.racks = [counts(r) for r in racks] + [counts("")] * (n - len(racks))
    s.sizes = [sum(r) for r in s.racks]
    s.stock = codes(stock)
    s.current = current
    s.turn = turn
    s.phase = Phase(phase)
    x.took = took
    x.train = codes(train)
    x.train_by = [(current - 1 - k) % n for k in range(len(x.train))][::-1]
    s.table = [RemiMeld.build(s.rules, RUN if k == "run" else SET, o, tuple(codes(t)),
                              (o,) * len(codes(t)), (0,) * len(codes(t))) for k, o, t in table]
    x.turn_table_start = len(s.table)
    x.laid = list(laid) if laid is not None else [False] * n
    x.laid_turn = list(laid_turn) if laid_turn is not None else [0 if v else -1 for v in x.laid]
    x.tabla = list(tabla) if tabla is not None else [False] * n
    x.atu = codes(atu)[0] if atu else -1
    x.atu_avail = atu is not None
    x.twin = twin
    x.own_turns = [own_turns] * n
    x.snap = None
    s.invalidate_legal()
    return s


def legal(s: Any) -> set[str]:
    return {str(a) for a in s.legal_actions()}


def refused(s: Any, action: str, rule: str) -> None:
    before = s.copy()
    with pytest.raises(IllegalAction, match=rule.replace(".", r"\.")):
        s.apply(action)
    assert s == before


# ---- RO-1, RO-2: tiles, deal, Atu ----------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4])
def test_ro1_ro2_deal_15_14_and_the_atu_kept_apart(players: int) -> None:
    s = new_game(f"remi(players={players},doubles=off)", 3)
    assert s.sizes == [15] + [14] * (players - 1)                        # RO-2
    atu = s.x.atu
    total = [sum(r[c] for r in s.racks) + s.stock.count(c) + (c == atu) for c in range(53)]
    assert total == [2] * 52 + [2]                                        # RO-1: 106 tiles
    obs = s.observation(1)
    assert obs["atu"] == str(parse_tiles([atu])[0]) and obs["atu_available"]
    s.apply(next(a for a in s.legal_actions() if a.verb == "discard"))  # the first discard
    for _ in range(3):                                                    # draws never take it
        top = s.stock[-1]
        s.apply("draw")
        assert s.racks[s.current][top] >= 1 and s.x.atu_avail
        s.apply(next(a for a in s.legal_actions() if a.verb == "discard"))


def test_ro2_twin_scores_50() -> None:
    seed = next(sd for sd in range(200) if deal(Rules.parse("remi"), sd, 0)[0] < J
                and any(deal(Rules.parse("remi"), sd, 0)[0] in r for r in deal(Rules.parse("remi"), sd, 0)[1]))
    s = new_game("remi(doubles=off)", seed)
    twin = s.x.twin
    assert twin >= 0 and s.racks[twin][s.x.atu] >= 1
    base = round_deltas(s, -1, False, 0, False)
    s.x.twin = -1
    assert base[twin] - round_deltas(s, -1, False, 0, False)[twin] in (50, 100)  # x2 if the Atu is a 1


def _joly_atu_seed() -> int:
    return next(sd for sd in range(2000) if shuffled_tiles(Rules.parse("remi"), sd, 0)[0] == J)


@pytest.mark.parametrize(("option", "size"), [("", 14), (",joly_atu_deal=14", 15)])
def test_ro2_atu_is_a_joly(option: str, size: int) -> None:
    # RO-2, seed 004: "Daca Atu-ul este Jolly, atunci cel care este primul jucator il va lua pe
    # tabla si i se vor mai da apoi doar 13 piese": the Joly and only 13 more (the seed wins over
    # the digest's 14, which stays as the option)
    s = new_game(f"remi(doubles=off{option})", _joly_atu_seed())
    assert s.x.atu == J and not s.x.atu_avail
    assert s.sizes[0] == size and s.racks[0][J] >= 1                     # the starter takes it
    assert s.x.twin == 0                                                  # and scores the +50
    assert not s.observation(0)["atu_available"]


def test_ro2_atu_off() -> None:
    s = new_game("remi(atu=off,doubles=off)", 3)
    assert s.x.atu == -1 and len(s.stock) == 106 - 15 - 3 * 14


# ---- RO-3: doubles ----------------------------------------------------------------------------

def test_ro3_exchange_announce_accept_decline() -> None:
    s = position("remi", racks=["R12 R12 R5 R6", "Y11 Y11 B3 B3", "K4 K4 K9", "Y2"], phase="exchange",
                 current=0)
    s.x.ex_queue = [1, 2, 3]
    assert legal(s) == {"announce R12", "announce R5", "decline"} - {"announce R5"}
    s.apply("announce R12")
    assert s.current == 1 and s.phase is Phase.EXCHANGE
    assert legal(s) == {"accept Y11", "decline"}                         # big for big only
    refused(s, "accept B3", "RO-3")
    obs = s.observation(2)
    assert obs["exchange"]["size"] == "big" and "R12" not in str(obs["exchange"])
    s.apply("accept Y11")
    assert s.racks[0][int(parse_tiles("Y11")[0])] == 2 and s.racks[1][int(parse_tiles("R12")[0])] == 2
    assert s.current == 1 and legal(s) == {"announce B3", "announce R12", "decline"}  # seat 1 next
    s.apply("announce B3")
    assert s.current == 2 and legal(s) == {"accept K4", "decline"}       # small for small
    s.apply("decline")
    # every seat is asked (RO-3: the turn order must not show who holds a double): seat 3 has
    # no double, seat 0 no small one (Y11 Y11 R5 R6), so each has only decline
    assert s.current == 3 and legal(s) == {"decline"}
    s.apply("decline")
    assert s.current == 0 and legal(s) == {"decline"}
    s.apply("decline")
    assert s.current == 2 and "announce K4" in legal(s)                   # seat 2's own turn
    s.apply("decline")
    assert s.current == 3 and legal(s) == {"decline"}                     # asked, no double
    s.apply("decline")
    assert s.phase is Phase.PLAY and s.current == s.starter              # play begins (RO-5)


def test_ro3_option_off_and_every_deal_asks_every_seat() -> None:
    """doubles=off skips the exchange; with it on every deal starts with it at the starter,
    whoever holds a double (RO-3: the turn order tells the table nothing)."""
    for seed in range(20):
        s = new_game("remi(doubles=off)", seed)
        assert s.phase is Phase.PLAY
        t = new_game("remi", seed)
        assert t.phase is Phase.EXCHANGE and t.current == t.starter


# ---- RO-4: the Atu -------------------------------------------------------------------------------

def test_ro4_take_the_atu_to_finish() -> None:
    rack = "R1 R2 R3 R4 Y5 Y6 Y7 Y8 Y9 B9 B10 B11 K12 K13"
    s = position(racks=["R5 R6 R7", rack, "B2", "B3"], atu="K1")
    assert "atu" in legal(s)
    s.apply("atu")
    assert s.sizes[1] == 15 and not s.x.atu_avail
    assert not any(a.verb == "discard" for a in s.legal_actions())        # must finish (RO-4)
    refused(s, "discard Y9", "RO-4")
    for a in ["run R1 R2 R3", "add R4 to 0@end", "run Y5 Y6 Y7", "add Y8 to 1@end",
              "run B9 B10 B11", "run K12 K13 K1", "open"]:
        s.apply(a)
    assert legal(s) == {"discard Y9", "reset"}
    s.apply("discard Y9")
    r = s.round_results()[0]
    assert r["winner"] == 1 and r["finish"] == "etalat" and r["atu_double"]
    laid = 25 + 15 + 20 + 5 + 20 + 20 + 25
    assert r["scores"][1] == 2 * (100 + laid)                             # RO-12: Atu 1 doubles
    assert r["scores"][0] == r["scores"][2] == -200


def test_ro4_atu_refused_when_it_does_not_finish() -> None:
    s = position(racks=["R5", "R1 R2 R3 R4 Y5 Y6 Y7 K7 Y9 B9 B10 B11 K12 K13", "B2", "B3"], atu="K1")
    assert "atu" not in legal(s)
    refused(s, "atu", "RO-4")


def test_ro4_laid_player_finishes_with_additions_and_reset_returns_the_atu() -> None:
    s = position(racks=["R5", "K12 K13 Y4 B9", "B2", "B3"], atu="K1", laid=[True, True, False, False],
                 table=[("run", 0, "Y1 Y2 Y3"), ("run", 0, "B6 B7 B8")])
    assert "atu" in legal(s)                       # Y4 and B9 onto the table, K12 K13 K1 new
    s.apply("atu")
    s.apply("reset")
    assert s.x.atu_avail and s.phase is Phase.TAKE and s.sizes[1] == 4
    t = position(racks=["R5", "K12 K13 Y6 R9", "B2", "B3"], atu="K1", laid=[True, True, False, False],
                 table=[("run", 0, "Y1 Y2 Y3"), ("run", 0, "B6 B7 B8")])
    assert "atu" not in legal(t)                   # Y6 and R9 fit nowhere: two would remain


def test_ro4_tabla_player_takes_the_atu_to_close() -> None:
    s = position(racks=["R5", "R1 R2 R3 Y4 Y5 Y6 B7 B8 B9 K10 K11 K12 Y7 B2", "B2", "B3"],
                 atu="K13", tabla=[False, True, False, False])
    assert "atu" in legal(s)
    s.apply("atu")
    assert legal(s) == {"close", "reset"}
    s.apply("close")
    assert legal(s) == {"discard B2", "reset"}
    s.apply("discard B2")
    assert s.round_results()[0]["pattern"] == "simple" and s.round_scores()[0][1] == 400


# ---- RO-5: turns and the train ------------------------------------------------------------------

def test_ro5_first_turn_is_a_discard_alone_and_the_first_discard_is_never_taken() -> None:
    s = new_game("remi(doubles=off,tabla=off)", 5)
    assert s.phase is Phase.PLAY and {a.verb for a in s.legal_actions()} == {"discard"}
    refused(s, "run " + " ".join(str(t) for t in s.rack(0)[:3]), "RO-5")
    missing = next(str(Tile(c)) for c in range(53) if not s.racks[0][c])
    with pytest.raises(IllegalAction, match=f"{re.escape(missing)} is not on the rack"):
        s.apply(f"discard {missing}")            # the reason, not "a discard alone"
    first = next(a for a in s.legal_actions())
    s.apply(first)
    assert s.phase is Phase.TAKE and s.current == 1
    assert "take" not in legal(s)
    refused(s, "take", "RO-5")
    s.apply("draw")
    d = next(a for a in s.legal_actions() if a.verb == "discard")
    s.apply(d)
    assert s.observation(2)["train"] == [str(first.tiles[0]), str(d.tiles[0])]   # the row, in order


# ---- RO-6, RO-7: melds and the Joly --------------------------------------------------------------

def test_ro6_high_ace_and_no_wrap() -> None:
    s = position(racks=["R5", "R12 R13 R1 R2 Y5", "B2", "B3"], laid=[True, True, False, False],
                 phase="play", took="draw")
    assert "run R12 R13 R1" in legal(s)
    refused(s, "run R13 R1 R2", "RO-6")
    s.apply("run R12 R13 R1")
    assert s.table[-1].text() == "R12 R13 R1" and [a for a in s.table[-1].adds if a[0] != J] == [(codes("R11")[0], 0)]


def test_ro7_joly_keeps_its_place_and_the_ratio() -> None:
    s = position(racks=["R5", "R7 R8 R12 * * B4 B5", "B2", "B3"], laid=[True, True, False, False],
                 phase="play", took="draw", table=[("run", 0, "R9 R10 *")])
    got = legal(s)
    assert "add R12 to 0@end" in got and "add R8 to 0@start" in got
    refused(s, "add R7 to 0@start", "RO-7")
    assert "add * to 0@end" not in got                  # 2 real tiles, 2 Jolys: too few (RO-7)
    assert not any(a.startswith(("run", "set")) and a.count("*") > 1 for a in got)
    refused(s, "set B5 * *", "RO-7")


def test_meld_actions_keep_the_ratio_at_every_step() -> None:
    acts = [str(a) for a in meld_actions("run", codes("R3 R4 * R6 R7 *"), 4)]
    assert acts == ["run R3 R4 *", "add R6 to 4@end", "add R7 to 4@end", "add * to 4@end"]
    assert [str(a) for a in meld_actions("run", codes("R3 * R5 R6 * R8"), 0)] == ["lay R3 * R5 R6 * R8"]
    with pytest.raises(ValueError, match="RO-7"):
        meld_actions("run", codes("R3 * * R6"), 0)


# ---- RO-6/RO-7: runs whose two Jolys bridge gaps are laid whole (``lay``) -------------------------

BRIDGE = "R3 * R5 R6 * R8"


def test_lay_a_bridged_run_after_the_laydown() -> None:
    s = position(racks=["R5", "R3 R5 R6 R8 * * K9", "B2", "B3"], laid=[True, True, False, False],
                 phase="play", took="draw")
    got = legal(s)
    assert "lay " + BRIDGE in got
    assert not any(a.startswith("run") and a.count("*") > 1 for a in got)
    s.apply("lay " + BRIDGE)
    m = s.table[-1]
    assert m.text() == BRIDGE and m.by == (1,) * 6 and s.sizes[1] == 1 and m.value == 6 * 5
    assert legal(s) == {"discard K9", "reset"}
    s.apply("reset")
    assert s.sizes[1] == 7 and not s.table


def test_lay_is_refused_for_runs_built_step_by_step_and_without_a_discard() -> None:
    s = position(racks=["R5", "R3 R4 R5 R6 * * K9", "B2", "B3"], laid=[True, True, False, False],
                 phase="play", took="draw")
    refused(s, "lay R3 R4 R5 R6 * *", "step by step: run R3 R4 R5")
    t = position(racks=["R5", "R3 R5 R6 R8 * *", "B2", "B3"], laid=[True, True, False, False],
                 phase="play", took="draw")
    assert "lay " + BRIDGE not in legal(t)
    refused(t, "lay " + BRIDGE, "RO-13")


def test_lay_a_bridged_run_in_the_first_laydown() -> None:
    # 30 points of the bridged run (Jolys count as R4 and R7, RO-8) + a set of 10s: 60 >= 45
    s = position(racks=["R5", "R3 R5 R6 R8 * * Y10 B10 K10 K2", "B2", "B3"], phase="play", took="draw")
    s.apply("lay " + BRIDGE)
    assert s.x.staged_from == 0 and "open" not in legal(s)           # 30 < 45
    s.apply("set Y10 B10 K10")
    assert "open" in legal(s)
    s.apply("open")
    s.apply("discard K2")
    r = s.round_results()[0]                        # the whole rack went down: a finish
    assert r["winner"] == 1 and r["laid_values"][1] == 4 * 5 + 2 * 50 + 3 * 10


def test_retrieved_joly_relaid_in_a_bridged_run() -> None:
    # RO-9.5: "with at least two rack tiles": the retrieved Joly and the rack's Joly bridge R3..R8
    s = position(racks=["R5", "Y5 R3 R5 R6 R8 * K9", "B2", "B3"], laid=[True, True, False, False],
                 phase="play", took="draw", table=[("run", 0, "Y4 * Y6")])
    assert "retrieve 0:1 with Y5" in legal(s)
    s.apply("retrieve 0:1 with Y5")
    got = legal(s)
    assert "lay " + BRIDGE in got and "run R3 * R5" in got and "discard K9" not in got
    s.apply("lay " + BRIDGE)
    m = s.table[-1]
    assert m.jr == (0, 1, 0, 0, 0, 0)             # the plain lay: the retrieved Joly stands first
    assert s.sizes[1] == 1 and s.x.pending < 0


def test_retrieved_joly_relaid_at_either_joly_place_of_a_bridged_run() -> None:
    # RO-9.5 with RO-7: each Joly keeps its own retrieval count, so where the retrieved Joly goes
    # (R4's place or R7's) is the player's choice and gives two tables: both are listed, the
    # second place written with '@4' (docs/rules.md); '@1' is the plain lay, refused by name.
    s = position(racks=["R5", "Y5 R3 R5 R6 R8 * K9", "B2", "B3"], laid=[True, True, False, False],
                 phase="play", took="draw", table=[("run", 0, "Y4 * Y6")])
    s.apply("retrieve 0:1 with Y5")
    got = legal(s)
    assert {"lay " + BRIDGE, "lay " + BRIDGE + " @4"} <= got
    refused(s, "lay " + BRIDGE + " @1", r"written 'lay R3 \* R5 R6 \* R8'")
    refused(s, "lay " + BRIDGE + " @2", "not a Joly")
    first, second = s.copy(), s.copy()
    first.apply("lay " + BRIDGE)
    second.apply("lay " + BRIDGE + " @4")
    assert second.table[-1].jr == (0, 0, 0, 0, 1, 0) and first != second
    assert [str(a) for a in second.history[-1:]] == ["lay " + BRIDGE + " @4"]
    assert first.table[-1].jr == (0, 1, 0, 0, 0, 0)   # joly_retrievals=1: R4's Joly stays put
    t = position(racks=["R5", "R3 R5 R6 R8 * * K9", "B2", "B3"], laid=[True, True, False, False],
                 phase="play", took="draw")
    assert "lay " + BRIDGE + " @4" not in legal(t)                    # no Joly waiting
    refused(t, "lay " + BRIDGE + " @4", "no Joly is waiting")


def test_atu_finish_with_a_bridged_run() -> None:
    s = position(racks=["R5", "R3 R5 R6 * * K9 K10 Y2", "B2", "B3"], atu="K11",
                 laid=[True, True, False, False], table=[("run", 0, "Y3 Y4 Y5")])
    assert "atu" in legal(s)
    for a in ["atu", "add Y2 to 0@start", "run K9 K10 K11"]:
        s.apply(a)
    assert "lay R3 * R5 R6 * R8" not in legal(s)                     # R8 missing: no discard left
    u = position(racks=["R5", "R3 R5 R6 R8 * * K9 K10 Y2", "B2", "B3"], atu="K11",
                 laid=[True, True, False, False])
    assert "atu" in legal(u)
    for a in ["atu", "lay " + BRIDGE, "run K9 K10 K11", "discard Y2"]:
        u.apply(a)
    assert u.round_results()[0]["winner"] == 1 and u.round_results()[0]["atu_finish"]


# ---- RO-8: first lay-down ------------------------------------------------------------------------

def test_ro8_laydown_needs_45_and_a_run_in_one_turn() -> None:
    rack = "R10 Y10 B10 R11 Y11 B11 K3 K4 K5 Y2"
    s = position(racks=["R5", rack, "B2", "B3"], phase="play", took="draw")
    s.apply("set R10 Y10 B10")
    s.apply("set R11 Y11 B11")
    assert "open" not in legal(s)                   # 60 points of sets do not lay down
    refused(s, "open", "RO-8")
    refused(s, "discard Y2", "RO-8")                # staged: commit or reset first
    s.apply("run K3 K4 K5")
    assert "open" in legal(s)
    s.apply("open")
    assert s.x.laid[1] and s.observation(0)["laid"][1]
    t = position(racks=["R5", "R10 R11 R12 R13 K2", "B2", "B3"], phase="play", took="draw")
    t.apply("run R10 R11 R12")
    t.apply("add R13 to 0@end")
    assert "open" not in legal(t)                   # a run of 40 is below 45
    t.apply("reset")
    assert t.table == [] and t.sizes[1] == 5


@pytest.mark.parametrize(("melds", "rack", "points"), [
    (["run R12 R13 R1", "run Y2 Y3 Y4"], "R12 R13 R1 Y2 Y3 Y4 K9", 30 + 15),      # high 1: 10
    (["run R12 R13 *", "run Y2 Y3 Y4"], "R12 R13 * Y2 Y3 Y4 K9", 30 + 15),        # Joly as high 1
    (["set R1 Y1 B1", "run K2 K3 K4"], "R1 Y1 B1 K2 K3 K4 B9", 30 + 15),          # 1 in a set: 10
    (["run * R2 R3", "run K11 K12 K13"], "* R2 R3 K11 K12 K13 B9", 15 + 30),      # Joly as low 1
    (["run R1 R2 R3", "add R4 to 0@end", "run Y2 Y3 Y4", "add Y5 to 1@end"],
     "R1 R2 R3 R4 Y2 Y3 Y4 Y5 B9", 20 + 20),                                      # low 1: 5
])
def test_ro8_laydown_values_at_the_45_boundary(melds: list[str], rack: str, points: int) -> None:
    """RO-8 lay-down values at the boundary: 1 low 5, 1 high or in a set 10, a Joly the value of
    the tile it stands for; exactly 45 lays down, 40 does not."""
    s = position(racks=["R5", rack, "B2", "B3"], phase="play", took="draw")
    for a in melds:
        s.apply(a)
    assert sum(m.value for m in s.table) == points
    if points >= 45:
        s.apply("open")
        assert s.x.laid[1]
    else:
        assert "open" not in legal(s)
        refused(s, "open", "RO-8")


# ---- RO-9: after the lay-down --------------------------------------------------------------------

def test_ro9_3_a_laid_player_takes_the_last_discard_freely() -> None:
    s = position(racks=["R5", "B1 K7 Y3", "B2", "B3"], laid=[False, True, False, False], train="K9 Y13")
    assert "take" in legal(s)
    s.apply("take")
    assert "discard Y13" in legal(s) and "reset" in legal(s)
    t = position(racks=["R5", "B1 K7 Y3", "B2", "B3"], train="K9 Y13")
    assert "take" not in legal(t)
    refused(t, "take", "RO-10")


def test_ro9_4_break_the_train() -> None:
    s = position(racks=["R5", "R6 R7 B1", "B2", "B3"], laid=[False, True, False, False],
                 train="K1 R5 B7 Y2 K9")
    got = legal(s)
    assert "break 1" in got and "break 0" not in got and "break 4" not in got
    refused(s, "break 0", "RO-5")
    s.apply("break 1")
    assert legal(s) == {"run R5 R6 R7", "reset"}                       # laid at once
    s.apply("run R5 R6 R7")
    assert s.x.train == codes("K1")
    assert sorted(str(t) for t in s.rack(1)) == sorted(["B1", "B7", "Y2", "K9"])
    assert s.table[-1].by == (1, 1, 1)
    small = position(racks=["R5", "R6 R7", "B2", "B3"], laid=[False, True, False, False],
                     train="K1 R5 B7 Y2 K9")
    refused(small, "break 1", "RO-10")                               # one or two tiles
    unlaid = position(racks=["R5", "R6 R7 B1", "B2", "B3"], train="K1 R5 B7 Y2 K9")
    refused(unlaid, "break 1", "RO-10")


def test_ro9_5_joly_retrieval_relaid_at_once_and_counted() -> None:
    s = position(racks=["R5", "R11 Y2 Y3 B9 K1 K5", "Y4 K7 K8 B1", "B3"], laid=[True, True, True, False],
                 phase="play", took="draw", table=[("run", 0, "R9 R10 *")])
    assert "retrieve 0:2 with R11" in legal(s)
    s.apply("retrieve 0:2 with R11")
    assert s.table[0].text() == "R9 R10 R11" and s.table[0].by == (0, 0, 1)
    assert legal(s) == {"run Y2 Y3 *", "run * Y2 Y3", "reset"}
    s.apply("run Y2 Y3 *")
    assert s.table[1].jr == (0, 0, 1)
    s.apply("discard B9")
    s.apply("draw")
    assert not any(a.startswith("retrieve") for a in legal(s))          # once per Joly (default)
    twice = position("remi(doubles=off,joly_retrievals=2)", racks=["R5", "Y4 K7 K8 B1", "B3", "B4"],
                     laid=[True, True, True, False], phase="play", took="draw", current=1)
    twice.table = [RemiMeld.build(twice.rules, RUN, 1, tuple(codes("Y2 Y3 *")), (1, 1, 1), (0, 0, 1))]
    assert "retrieve 0:2 with Y4" in legal(twice)                       # the option: twice


def test_ro9_6_a_three_tile_set_gives_its_joly_for_both_missing_colours() -> None:
    s = position(racks=["R5", "R5 K5 B8 B9 K1", "B2", "B3"], laid=[True, True, False, False],
                 phase="play", took="draw", table=[("set", 0, "* Y5 B5")])
    got = legal(s)
    assert not any(a.startswith("retrieve") for a in got)
    refused(s, "retrieve 0:0 with R5", "RO-9.6")
    assert "add K5 to 0" in got and "add R5 to 0" in got
    s.apply("add K5 to 0")
    assert s.table[0].text() == "* Y5 B5 K5"
    assert "retrieve 0:0 with R5" in legal(s)
    s.apply("retrieve 0:0 with R5")
    assert s.table[0].text() == "R5 Y5 B5 K5"


# ---- RO-10: restrictions -------------------------------------------------------------------------

def test_ro10_unlaid_take_only_when_it_helps_the_laydown() -> None:
    rack = "R10 R11 B10 K10 Y10 Y3 Y4 Y5 K1 K7 B2 B4 Y9 R3"
    s = position(racks=["R5", rack, "B2", "B3"], train="K9 R12")
    assert "take" in legal(s)
    s.apply("take")
    refused(s, "discard K7", "RO-10")               # the tile must go into the lay-down
    for a in ["run R10 R11 R12", "set Y10 B10 K10", "run Y3 Y4 Y5"]:
        s.apply(a)
    assert "open" in legal(s)
    s.apply("open")
    assert "discard K7" in legal(s)


def test_ro10_laydown_turn_adds_only_to_its_own_melds() -> None:
    s = position(racks=["R5", "R10 R11 R12 B7 B8 B9 K4", "B2", "B3"], phase="play", took="draw",
                 table=[("run", 0, "K1 K2 K3")], laid=[True, False, False, False])
    for a in ["run R10 R11 R12", "run B7 B8 B9", "open"]:
        s.apply(a)
    assert "add K4 to 0@end" not in legal(s)
    refused(s, "add K4 to 0@end", "RO-10")


def test_ro10_reshuffle_once_then_exhausted() -> None:
    s = position(racks=["R5 B6", "K7 Y3", "B2 B4", "B3 K5"], stock="R9", train="K9 Y13 B12 R1",
                 laid=[True] * 4)
    s.apply("draw")
    s.apply("discard K7")
    assert s.x.reshuffled and s.x.train == codes("K9")
    assert sorted(s.stock) == sorted(codes("Y13 B12 R1 K7"))
    assert s.observation(2)["stock"] == 4 and s.observation(2)["last_discard"] is None
    s.stock = codes("Y3")
    s.apply("draw")
    s.apply("discard B4")
    assert s.is_terminal and s.round_results()[0]["end"] == "exhausted"


# ---- RO-11: tabla -----------------------------------------------------------------------------

def test_ro11_declared_within_three_turns_and_never_lays() -> None:
    s = position(racks=["R5", "R1 R2 R3 Y7 B1", "B2", "B3"], own_turns=3)
    assert "tabla" in legal(s)
    s.apply("tabla")
    s.apply("draw")
    got = legal(s)
    assert not any(a.startswith(("run", "set", "add", "open")) for a in got)
    refused(s, "run R1 R2 R3", "RO-11")
    late = position(racks=["R5", "R1 R2 R3 Y7 B1", "B2", "B3"], own_turns=4)
    assert "tabla" not in legal(late)
    refused(late, "tabla", "RO-11")


@pytest.mark.parametrize(("rack", "discard", "pattern", "score"), [
    ("R1 R2 R3 Y4 Y5 Y6 B7 B8 B9 K10 K11 K12 K13 Y7 B1", "B1", "simple", 400),
    ("R1 R2 R3 Y4 Y5 Y6 B7 B8 B9 K10 K11 K12 K13 Y7 *", "*", "simple", 800),        # Joly x2
    ("R1 Y2 B3 K4 R5 Y6 B7 K8 R9 Y10 B11 K12 R13 Y1 K5", "K5", "mozaic", 800),
    ("R1 Y2 R3 Y4 R5 Y6 R7 Y8 R9 Y10 R11 Y12 R13 Y1 B5", "B5", "bicolor", 1600),
    ("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1 K5", "K5", "monocolor", 3200),
])
def test_ro11_close_patterns_and_scores(rack: str, discard: str, pattern: str, score: int) -> None:
    s = position("remi(doubles=off,atu=off)", racks=["R5 B6", rack, "B2", "B3"], phase="play",
                 took="draw", tabla=[False, True, True, False], laid=[True, False, False, False],
                 atu=None)
    s.apply("close")
    assert f"discard {discard}" in legal(s)
    s.apply(f"discard {discard}")
    r = s.round_results()[0]
    assert (r["pattern"], r["scores"][1]) == (pattern, score)
    assert r["scores"][2] == -200 and r["scores"][3] == -100          # failed tabla, never laid
    assert r["scores"][0] == end_value(codes("R5")[0]) * 0 - 10           # laid nothing: 0 - rack


def test_ro11_the_starter_closes_with_the_first_discard() -> None:
    """RO-5 with RO-11: the starter's first turn is a discard alone, but a starter whose 15 dealt
    tiles leave a pattern after one discard may declare tabla, announce the close and close with
    that discard; `reset` takes the close back, and without the declaration no close is offered."""
    rack = "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1 K5"
    s = position("remi(doubles=off,atu=off)", racks=[rack, "B2", "B3", "B4"], current=0,
                 phase="play", took="start", train="", atu=None, turn=0, own_turns=1)
    assert {a.split()[0] for a in legal(s)} == {"discard", "tabla"}
    refused(s, "close", "RO-11")
    s.apply("tabla")
    assert "close" in legal(s) and "discard K5" in legal(s)
    refused(s, "run R1 R2 R3", "RO-5")
    s.apply("close")
    assert legal(s) == {"discard K5", "reset"}
    s.apply("reset")
    assert "close" in legal(s) and "reset" not in legal(s)
    s.apply("close")
    s.apply("discard K5")
    r = s.round_results()[0]
    assert (r["finish"], r["pattern"], r["scores"][0]) == ("tabla", "monocolor", 3200)
    other = position("remi(doubles=off,atu=off)", racks=["R1 Y2 B3 K4 Y7 R9 K12 R1 B5 B9 Y10 K6 R13 B2 Y4",
                                                          "B2", "B3", "B4"], current=0, phase="play",
                     took="start", train="", atu=None, turn=0, own_turns=1)
    other.apply("tabla")
    assert {a.split()[0] for a in legal(other)} == {"discard"}           # no pattern: no close
    refused(other, "close", "RO-11")


@pytest.mark.parametrize("rack", [
    "R1 Y2 B3 K4 R5 Y6 B7 K8 R9 Y10 B11 K12 R13 R1 K5",    # Mozaic but 13 and the final 1 both red
    "R1 Y2 R3 Y4 R5 Y6 R7 Y8 R9 Y10 R11 Y12 R13 R1 K5",    # Bicolor but 13 and the final 1 both red
    "R1 Y2 B3 Y4 R5 Y6 R7 Y8 R9 Y10 R11 Y12 R13 Y1 K5",    # no neighbours alike, 1-2-3-4 in 3 colours
])
def test_ro11_rows_that_are_no_pattern_do_not_close(rack: str) -> None:
    """RO-11 (interpretation): neighbours along the row include 13 and the final 1; Mozaic needs
    1-2-3-4 in four colours. Such rows are no pattern (and no runs/sets), so no close."""
    s = position("remi(doubles=off,atu=off)", racks=["R5 B6", rack, "B2", "B3"], phase="play",
                 took="draw", tabla=[False, True, False, False], atu=None)
    assert "close" not in legal(s)
    refused(s, "close", "RO-11")


def test_ro12_joly_finish_in_an_atu_1_game_counts_four_times() -> None:
    """RO-12: the doublings multiply: a Joly finish (x2) in a game whose Atu is a 1 (x2) is x4;
    every other seat's score is doubled too."""
    s = position(racks=["R5 B7", "*", "B2 B3 R1", "Y4 K6"], laid=[True, True, True, False],
                 phase="play", took="draw", table=[("run", 1, "Y1 Y2 Y3"), ("set", 0, "K13 Y13 B13")],
                 atu="R1")
    s.apply("discard *")
    r = s.round_results()[0]
    assert r["joker_finish"] and r["atu_double"]
    assert r["scores"] == [(30 - 10) * 2, (100 + 35) * 4, (0 - 35) * 2, -100 * 2]


def test_ro11_simple_close_of_the_joly_atu_starter_with_13_tiles() -> None:
    # RO-2 with RO-11: the starter who took a Joly Atu and 13 more tiles holds 14 after the take;
    # the seed's simple close ("after the discard only runs and sets on the rack") is then 13
    # tiles in melds (the 14-tile patterns are out of reach)
    rack = "R1 R2 R3 R4 Y5 Y6 Y7 B8 B9 B10 K11 K12 K13 K2"
    s = position("remi(doubles=off)", racks=[rack, "B2", "B3", "K5"], current=0, phase="play",
                 took="draw", tabla=[True, False, False, False], laid=[False, True, False, False])
    assert "close" in legal(s)
    s.apply("close")
    assert {a for a in legal(s) if a.startswith("discard")} == {"discard K2"}
    refused(s, "discard R1", "RO-11")
    s.apply("discard K2")
    r = s.round_results()[0]
    assert (r["finish"], r["pattern"], r["scores"][0]) == ("tabla", "simple", 400)
    joly = position("remi(doubles=off)", racks=[rack.replace("K2", "*"), "B2", "B3", "K5"],
                    current=0, phase="play", took="draw", tabla=[True, False, False, False])
    joly.apply("close")
    joly.apply("discard *")                                            # a Joly finish: x2
    assert joly.round_results()[0]["scores"][0] == 800
    short = position("remi(doubles=off)", racks=[rack.replace("K13", "K9"), "B2", "B3", "K5"],
                     current=0, phase="play", took="draw", tabla=[True, False, False, False])
    assert "close" not in legal(short)                                 # K11 K12 K9: no run


# ---- RO-12, RO-13: scoring and finishing ------------------------------------------------------

def test_ro12_ro13_etalat_finish_and_joly_finish() -> None:
    for last, mult in (("B9", 1), ("*", 2)):
        s = position("remi(doubles=off,atu=off)", racks=["R5 R1", f"{last}", "B2", "K13 *"],
                     laid=[True, True, False, True], phase="play", took="draw", atu=None,
                     table=[("run", 1, "Y1 Y2 Y3"), ("set", 3, "R12 Y12 B12")])
        s.x.turn_table_start = 2
        assert legal(s) == {f"discard {last}"}
        s.apply(f"discard {last}")
        r = s.round_results()[0]
        assert r["winner"] == 1 and r["joker_finish"] == (last == "*")
        assert r["scores"] == [0 - 30, (100 + 35) * mult, -100, 30 - 60]


def test_ro13_a_tile_stays_for_the_discard() -> None:
    s = position(racks=["R5", "R1 R2 R3", "B2", "B3"], laid=[False, True, False, False], phase="play",
                 took="draw")
    refused(s, "run R1 R2 R3", "RO-13")


def test_illegal_actions_name_a_rule_and_change_nothing() -> None:
    s = new_game("remi", 11)
    for text in ["open", "draw", "break 3", "atu", "close", "retrieve 0:0 with R5", "add R5 to 0",
                 "discard R5", "accept R1", "reset"]:
        a = Action.parse(text)
        if a in s.legal_actions():
            continue
        before = s.copy()
        with pytest.raises(IllegalAction, match=r"\((RO-\d+(\.\d)?)\)"):
            s.apply(a)
        assert s == before


def test_lay_text_round_trips_and_has_an_rl_index() -> None:
    from rummy101.rl.actions import ActionCodec

    a = Action.parse("lay r3 * r5 r6 * r8")
    assert str(a) == "lay " + BRIDGE and Action.parse(str(a)) == a
    codec = ActionCodec("remi")
    i = codec.index(a)
    assert i >= 0 and codec.action(i) == a and codec.block("lay")[1] == 680
    b = Action.parse("lay r3 * r5 r6 * r8 @4")                 # a retrieved Joly at R7's place
    assert str(b) == "lay " + BRIDGE + " @4" and Action.parse(str(b)) == b != a
    assert codec.index(b) == i + 340 and codec.action(codec.index(b)) == b
    assert codec.index("lay R3 * R5 R6 * R8 @1") == -1         # the plain lay's other spelling
    assert codec.index("lay R3 R4 R5 R6 * *") == -1            # built step by step: no lay index


def test_remi_verbs_parse_before_any_remi_game() -> None:
    """Action.parse(text, "remi") reads Remi's own verbs in a fresh process: they were declared
    only when the Remi engine was first imported (by new_game), so an outside program that
    parsed 'atu' before making a game got 'unknown action verb'. Other variants still refuse."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    code = ("from rummy101.game import Action\n"
            "try:\n    Action.parse('atu', 'classic')\nexcept Exception as e:\n"
            "    print(type(e).__name__)\n"
            "print(Action.parse('atu', 'remi'), '|', Action.parse('lay r1 r2 r3 r4 r5 r6', 'remi'),"
            " '|', Action.parse('tabla', 'remi'))\n")
    python = str(Path(__file__).resolve().parent.parent / "python")
    env = {**os.environ, "PYTHONPATH": python + os.pathsep + os.environ.get("PYTHONPATH", "")}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         check=False, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == ["NotationError", "atu | lay R1 R2 R3 R4 R5 R6 | tabla"]

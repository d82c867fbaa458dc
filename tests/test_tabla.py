"""Closing on the rack, tabla (RULES.md RO-11, melds RO-6, Joly ratio RO-7), on both backends."""

from __future__ import annotations

import json

import pytest
from rummy101 import (
    Meld,
    NotationError,
    RackError,
    Rules,
    RulesError,
    Tile,
    _backend,
    solve_tabla,
    tabla_distance,
)
from rummy101.tiles import counts_of, parse_tiles

pytestmark = pytest.mark.usefixtures("backend")

MONO = "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1"
BI = "R1 Y2 R3 Y4 R5 Y6 R7 Y8 R9 Y10 R11 Y12 R13 Y1"
MOZ = "R1 Y2 B3 K4 R5 Y6 R7 Y8 R9 Y10 R11 Y12 R13 Y1"


def names(answer) -> list[str]:
    return [p.pattern for p in answer.patterns]


def tiles(text: str) -> tuple[Tile, ...]:
    return tuple(parse_tiles(text))


# ---- the four patterns (RO-11) -------------------------------------------------------------------

def test_ro11_monocolor_rack_scores_3200_and_is_also_simple() -> None:
    ans = solve_tabla("remi", MONO)
    assert names(ans) == ["monocolor", "simple"]
    assert ans.best.pattern == "monocolor" and ans.best.score == 3200
    assert ans.best.row == tiles(MONO) and ans.best.jokers == {}
    assert ans.distance.monocolor == 0 and ans.distance.simple == 0


def test_ro11_bicolor_rack_scores_1600() -> None:
    ans = solve_tabla("remi", BI)
    assert names(ans) == ["bicolor"]
    assert ans.best.score == 1600 and ans.best.row == tiles(BI)
    assert ans.distance.bicolor == 0 and ans.distance.mozaic == 2


def test_ro11_mozaic_rack_scores_800() -> None:
    ans = solve_tabla("remi", MOZ)
    assert names(ans) == ["mozaic"]
    assert ans.best.score == 800 and ans.best.row == tiles(MOZ)
    assert tabla_distance("remi", MOZ).mozaic == 0


def test_ro11_mozaic_needs_1_2_3_4_in_four_colours() -> None:
    # No two neighbours share a colour, but R1 and R4 repeat red among 1-2-3-4.
    rack = "R1 Y2 B3 R4 K5 Y6 K7 Y8 K9 Y10 K11 Y12 K13 R1"
    ans = solve_tabla("remi", rack)
    assert names(ans) == []
    assert ans.distance.mozaic == 1


def test_ro11_mozaic_13_and_final_1_must_differ() -> None:
    rack = "R1 Y2 B3 K4 R5 Y6 R7 Y8 R9 Y10 R11 Y12 R13 R1"
    ans = solve_tabla("remi", rack)
    assert "mozaic" not in names(ans)
    assert ans.distance.mozaic == 1


def test_ro11_bicolor_13_and_final_1_must_differ() -> None:
    rack = "R1 Y2 R3 Y4 R5 Y6 R7 Y8 R9 Y10 R11 Y12 R13 R1"
    assert "bicolor" not in names(solve_tabla("remi", rack))
    assert tabla_distance("remi", rack).bicolor == 1


def test_ro11_bicolor_is_exactly_two_colours() -> None:
    rack = "R1 Y2 R3 Y4 R5 Y6 R7 Y8 R9 Y10 R11 Y12 R13 B1"  # a third colour at the end
    assert names(solve_tabla("remi", rack)) == []  # not Mozaic either: R1 Y2 R3 Y4
    assert tabla_distance("remi", rack).bicolor == 1


def test_ro11_jolys_fill_gaps_in_rows() -> None:
    mono = solve_tabla("remi", "R1 R2 * R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 *")
    assert mono.best.pattern == "monocolor"
    assert {i: str(t) for i, t in mono.best.jokers.items()} == {2: "R3", 13: "R1"}
    bi = solve_tabla("remi", "R1 Y2 R3 Y4 R5 Y6 * Y8 R9 Y10 R11 Y12 R13 *")
    assert bi.best.pattern == "bicolor"
    assert {i: str(t) for i, t in bi.best.jokers.items()} == {6: "R7", 13: "Y1"}
    moz = solve_tabla("remi", "* Y2 B3 K4 R5 Y6 R7 Y8 R9 Y10 R11 Y12 R13 Y1")
    assert moz.best.pattern == "mozaic" and str(moz.best.jokers[0]) == "R1"


def test_ro11_mozaic_joly_before_a_fixed_colour_avoids_that_colour() -> None:
    # The Joly at 5 sits between K4 and R6: red (the first colour tried) would repeat R6, so the
    # row must look ahead and make it Y5 (RO-11: no two neighbours of one colour).
    ans = solve_tabla("remi", "R1 Y2 B3 K4 * R6 Y7 R8 Y9 R10 Y11 R12 Y13 R1")
    assert names(ans) == ["mozaic"]
    assert {i: str(t) for i, t in ans.best.jokers.items()} == {4: "Y5"}
    assert ans.distance.mozaic == 0


def test_ro11_best_pattern_when_several_match() -> None:
    # Jolys as R3 Y4 make a Bicolor row, as B3 K4 a Mozaic one: Bicolor scores more.
    ans = solve_tabla("remi", "R1 Y2 * * R5 Y6 R7 Y8 R9 Y10 R11 Y12 R13 Y1")
    assert names(ans) == ["bicolor", "mozaic"]
    assert ans.best.pattern == "bicolor"
    assert {i: str(t) for i, t in ans.patterns[1].jokers.items()} == {2: "B3", 3: "K4"}


# ---- simple close (RO-11, RO-6, RO-7) ------------------------------------------------------------

def test_ro11_simple_close_with_runs_and_sets() -> None:
    ans = solve_tabla("remi", "R1 R2 R3 Y5 B5 K5 K7 K8 K9 K10 B11 B12 B13 B1")
    assert names(ans) == ["simple"] and ans.best.score == 400
    melds = ans.best.melds
    assert sum(len(m.tiles) for m in melds) == 14
    assert {m.kind for m in melds} == {"run", "set"}
    assert tiles("B11 B12 B13 B1") in [m.tiles for m in melds]  # RO-6: high ace


def test_ro6_ro7_a_joly_after_r12_r13_stands_for_the_high_ace() -> None:
    # With no R11 and no R1 left, R12 R13 and a Joly make a run either as R11 R12 R13 or as
    # R12 R13 R1 (RO-6 high ace); the search tries the Joly after the lowest tile first, so the
    # arrangement is R12 R13 * with the Joly as R1, on both backends (RO-7: it keeps that place).
    ans = solve_tabla("remi", "R12 R13 * Y1 Y2 Y3 B4 B5 B6 K7 K8 K9 K10 K11")
    assert names(ans) == ["simple"]
    first = ans.best.melds[0]
    assert first.tiles == tiles("R12 R13 *") and first.kind == "run"
    assert {i: str(t) for i, t in first.jokers.items()} == {2: "R1"}


def test_ro11_sets_alone_do_not_close() -> None:
    rack = "R2 Y2 B2 K2 R5 Y5 B5 K5 R9 Y9 B9 R12 Y12 B12"  # four sets, no run possible
    ans = solve_tabla("remi", rack)
    assert names(ans) == []
    assert ans.distance.simple == 14  # no run can be formed at all
    with_run = "R2 Y2 B2 K2 R5 Y5 B5 K5 R9 R10 R11 Y12 B12 K12"
    assert names(solve_tabla("remi", with_run)) == ["simple"]


def test_ro7_joly_ratio_in_a_simple_close() -> None:
    # K5 could only join the two Jolys: K5 * * breaks RO-7 (two Jolys need four real tiles).
    rack = "R8 R9 R10 R11 R12 R13 R1 Y9 Y10 Y11 Y12 K5 * *"
    ans = solve_tabla("remi", rack)
    assert names(ans) == []
    assert ans.distance.simple == 1
    # Without a ratio (a core rule set with joker_ratio 0) the same tiles close.
    core = _backend.core()
    cr = core.CoreRules(True, 0, [0] + [1] * 14, [0] + [1] * 13, 1)
    found = core.tabla_patterns(cr, counts_of(parse_tiles(rack)))
    assert [p[0] for p in found] == [core.PATTERN_SIMPLE]


def test_ro6_no_wraparound_run() -> None:
    rack = "R12 R13 R1 R2 R3 Y5 B5 K5 K7 K8 K9 B11 B12 B13"  # 13-1-2 is no run
    assert names(solve_tabla("remi", rack)) == []
    ok = "R12 R13 R1 Y1 B1 K1 K7 K8 K9 B11 B12 B13 Y5 Y6"
    assert names(solve_tabla("remi", ok)) == []  # Y5 Y6 alone
    good = "R12 R13 R1 Y1 B1 K1 B10 B11 B12 B13 Y5 Y6 Y7 Y8 K3"
    ans = solve_tabla("remi", good)
    assert [str(c.discard) for c in ans.closes] == ["K3"]
    assert tiles("R12 R13 R1") in [m.tiles for m in ans.best.melds]


# ---- 15 tiles: discards (RO-11) ------------------------------------------------------------------

def test_ro11_every_closing_discard_is_listed() -> None:
    ans = solve_tabla("remi", "R1 R2 R3 R4 R5 Y5 B5 K5 K7 K8 K9 K10 B11 B12 B13")
    assert [str(c.discard) for c in ans.closes] == ["R1", "R4", "R5", "Y5", "B5", "K5", "K7",
                                                     "K10"]
    assert all(c.pattern == "simple" and c.score == 400 and not c.joly_finish for c in ans.closes)
    assert str(ans.best.discard) == "R1"  # earliest among equal scores
    assert len(ans.patterns) == 0


def test_ro11_joly_finish_doubles_the_score() -> None:
    ans = solve_tabla("remi", BI + " *")
    by = {str(c.discard): c for c in ans.closes}
    assert by["*"].pattern == "bicolor" and by["*"].score == 3200 and by["*"].joly_finish
    assert by["R1"].pattern == "bicolor" and by["R1"].score == 1600  # the Joly stands for R1
    assert ans.best is by["*"]


def test_ro11_best_discard_takes_the_best_pattern() -> None:
    ans = solve_tabla("remi", MONO + " R7")
    by = {str(c.discard): c for c in ans.closes}
    assert list(by) == ["R1", "R4", "R7", "R10", "R11"]
    assert by["R7"].pattern == "monocolor" and ans.best is by["R7"]
    assert [c.pattern for c in ans.closes] == ["simple", "simple", "monocolor", "simple", "simple"]
    assert tiles("R12 R13 R1") in [m.tiles for m in by["R4"].melds]


def test_ro11_no_close_answers_null() -> None:
    ans = solve_tabla("remi", "R1 Y3 B5 K7 R9 Y11 B13 K2 R4 Y6 B8 K10 R12 Y2 B4")
    assert ans.closes == () and ans.best is None and not ans.can_close
    assert ans.to_json()["best"] is None


# ---- distances ----------------------------------------------------------------------------------

def test_ro11_distance_counts_tiles_to_replace() -> None:
    d = tabla_distance("remi", "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 K12 K13 Y1")
    assert d.monocolor == 3
    assert d.simple == 3  # R1..R11 is a run; K12 K13 Y1 are loose
    assert tabla_distance("remi", MONO).to_json() == {"simple": 0, "mozaic": 8, "bicolor": 7,
                                                       "monocolor": 0}


def test_ro11_distance_of_a_15_tile_rack_is_the_best_discard() -> None:
    assert tabla_distance("remi", MONO + " K5").monocolor == 0
    assert tabla_distance("remi", MONO + " K5").simple == 0


def test_ro11_ro7_jolys_never_need_replacing() -> None:
    d = tabla_distance("remi", "* * B3 K4 R5 Y6 R7 Y8 R9 Y10 R11 Y12 R13 Y1")
    assert d.mozaic == 0


# ---- JSON (CONTRACT.md style) --------------------------------------------------------------------

def test_json_shape_for_15_tiles() -> None:
    ans = solve_tabla("remi", "R1 R2 * R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1 K5")
    out = ans.to_json()
    assert list(out) == ["rules", "rack", "closes", "best", "distance"]
    assert out["rules"] == "remi"
    assert out["rack"] == "R1 R2 * R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1 K5"
    close = out["best"]
    assert close == {"discard": "K5", "pattern": "monocolor", "score": 3200, "joly_finish": False,
                     "row": ["R1", "R2", "*", "R4", "R5", "R6", "R7", "R8", "R9", "R10", "R11",
                             "R12", "R13", "R1"],
                     "jokers": {"2": "R3"}}
    json.dumps(out)
    simple = [c for c in out["closes"] if c["pattern"] == "simple"]
    for c in simple:
        assert "row" not in c
        assert all(list(m) == ["kind", "tiles", "value", "jokers"] for m in c["melds"])


def test_json_shape_for_14_tiles() -> None:
    out = solve_tabla("remi", "R1 R2 R3 Y5 B5 * K7 K8 K9 K10 B11 B12 B13 B1").to_json()
    assert list(out) == ["rules", "rack", "patterns", "best", "distance"]
    best = out["best"]
    assert list(best) == ["pattern", "score", "melds"]
    sets = [m for m in best["melds"] if m["kind"] == "set"]
    assert sets == [{"kind": "set", "tiles": ["*", "Y5", "B5"], "value": 15, "jokers": {"0": "R5"}}]


def test_ro6_ro7_simple_close_melds_are_melds_of_the_melds_module() -> None:
    """Each meld of a simple close reads back the same through rummy101.Meld (RO-6, RO-7)."""
    ans = solve_tabla("remi", "R12 R13 * Y1 B1 K1 B10 B11 B12 B13 Y5 Y6 Y7 * K3")
    assert ans.closes
    for close in ans.closes:
        for m in close.melds:
            assert Meld.parse("remi", [str(t) for t in m.tiles], kind=m.kind) == m


# ---- errors at the door -------------------------------------------------------------------------

@pytest.mark.parametrize("spec, word", [("rummy101", "'rummy101'"), ("classic", "'classic'"),
                                         ("remi(tabla=off)", "tabla=off")])
def test_ro11_rules_without_tabla_are_refused(spec: str, word: str) -> None:
    with pytest.raises(RulesError, match="RO-11") as err:
        solve_tabla(spec, MONO)
    assert word in str(err.value)
    with pytest.raises(RulesError):
        tabla_distance(spec, MONO)


def test_ro11_rack_size_is_14_or_15() -> None:
    with pytest.raises(RackError, match="14 tiles .* or 15 .* got 13: 'R1 R2"):
        solve_tabla("remi", "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13")
    with pytest.raises(RackError, match="got 16"):
        tabla_distance("remi", MONO + " K1 K2")


def test_ro1_rack_supply_and_notation_are_checked() -> None:
    with pytest.raises(RackError, match="3 copies of R5"):
        solve_tabla("remi", "R5 R5 R5 R4 R6 R7 R8 R9 R10 R11 R12 R13 R1 R2")
    with pytest.raises(RackError, match="3 jokers"):
        solve_tabla("remi", "* * * R4 R6 R7 R8 R9 R10 R11 R12 R13 R1 R2")
    with pytest.raises(NotationError, match="token 2"):
        solve_tabla("remi", "R1 X2")


def test_rules_object_and_list_rack_are_accepted() -> None:
    ans = solve_tabla(Rules.parse("remi(players=2)"), MONO.split())
    assert ans.best.pattern == "monocolor" and ans.to_json()["rules"] == "remi(players=2)"


def test_core_rejects_wrong_sizes() -> None:
    core = _backend.core()
    cr = _backend.core_rules(Rules.parse("remi"))
    with pytest.raises(ValueError, match="tabla_closes needs a rack of 15 tiles, got 14"):
        core.tabla_closes(cr, counts_of(parse_tiles(MONO)))
    with pytest.raises(ValueError, match="53 entries"):
        core.tabla_distance(cr, [1] * 14)

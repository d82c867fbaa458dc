"""Meld logic against the rules of record: every seed example as a test that names its rule ID.
Each test runs on every available backend (the ``backend`` fixture)."""

from __future__ import annotations

import pytest
import rummy101
from rummy101 import (
    IllegalAction,
    Meld,
    MeldReason,
    NotationError,
    RackError,
    RulesError,
    Tile,
    _backend,
    check_meld,
    joker_releases,
    meld_additions,
    rack_penalty,
)

pytestmark = pytest.mark.usefixtures("backend")


def adds(rules: str, meld: str) -> list[tuple[int, str]]:
    return [(p, str(t)) for p, t in meld_additions(rules, meld)]


def releases(rules: str, meld: str) -> list[tuple[int, list[list[str]]]]:
    return [(i, [[str(t) for t in alt] for alt in alts]) for i, alts in joker_releases(rules, meld)]


def reason(rules: str, meld: str) -> MeldReason:
    info = check_meld(rules, meld)
    assert not info.valid and info.reason
    return info.reason_code


# ---- R101-4 / R101-11: adding tiles ----------------------------------------------------------
def test_r101_4_r6_can_be_added_after_r3_r4_r5() -> None:
    assert (3, "R6") in adds("rummy101", "R3 R4 R5")


def test_r101_11_r2_before_r6_after_not_b6() -> None:
    a = adds("rummy101", "R3 R4 R5")
    assert a == [(0, "R2"), (0, "*"), (3, "R6"), (3, "*")]
    assert all(t != "B6" for _, t in a)


def test_r101_11_fourth_8_in_the_missing_colour() -> None:
    assert adds("rummy101", "R8 Y8 B8") == [(3, "K8"), (3, "*")]
    assert adds("rummy101", "R8 B8 K8") == [(1, "Y8"), (1, "*")]


# ---- R101-5: melds and pairs -----------------------------------------------------------------
def test_r101_5_r7_r7_b7_is_no_set() -> None:
    assert reason("rummy101", "R7 R7 B7") == MeldReason.SET_REPEATED_COLOUR
    assert "R7 R7 B7 is no set" in check_meld("rummy101", "R7 R7 B7").reason  # type: ignore[operator]


def test_r101_5_r7_r7_is_a_pair_and_r7_joker_too() -> None:
    info = check_meld("rummy101", "R7 R7")
    assert info.valid and info.kind == "pair" and info.open_value == 14
    info = check_meld("rummy101", "R7 *")
    assert info.valid and info.kind == "pair" and info.jokers == {1: Tile("R7")}
    assert releases("rummy101", "R7 *") == [(1, [["R7"]])]      # R101-9: pairs are table melds
    assert meld_additions("rummy101", "R7 R7") == []


def test_r101_5_r7_b7_is_no_pair() -> None:
    assert reason("rummy101", "R7 B7") == MeldReason.NOT_A_PAIR
    assert reason("rummy101", "* *") == MeldReason.NO_REAL_TILE


def test_r101_5_twelve_thirteen_one_is_no_run_but_one_two_three_is() -> None:
    assert reason("rummy101", "R12 R13 R1") == MeldReason.RUN_HIGH_ACE
    assert reason("rummy101", "R12 R13 *") == MeldReason.RUN_HIGH_ACE   # a joker can't be the 1
    assert check_meld("rummy101", "R1 R2 R3").valid
    assert reason("rummy101", "R13 R1 R2") == MeldReason.RUN_WRAPS
    assert adds("rummy101", "R11 R12 R13") == [(0, "R10"), (0, "*")]


def test_r101_5_joker_only_needs_one_numbered_tile() -> None:
    """R101-5 interpretation: no ratio rule in 101, >= 1 numbered tile."""
    info = check_meld("rummy101", "R5 * * * *")
    assert info.valid and info.kind == "run" and info.open_value == 5 + 6 + 7 + 8 + 9
    m = Meld.parse("rummy101", "R13 * *")   # a run would pass 13: it is a set of 13s
    assert m.kind == "set" and m.value() == 39
    # Five tiles are too many for a set, so one numbered tile with four jokers is read as a run
    # and told where it leaves 1..13 (not "a set too long": a set needs two numbered tiles to say so).
    assert reason("rummy101", "* * * * R2") == MeldReason.RUN_OUT_OF_RANGE
    assert reason("rummy101", "R13 * * * *") == MeldReason.RUN_OUT_OF_RANGE


def test_ambiguous_meld_reads_as_run_unless_asked() -> None:
    assert check_meld("rummy101", "R5 * *").kind == "run"
    m = Meld.parse("rummy101", "R5 * *", kind="set")
    assert [str(t) for t in m.stand_for] == ["R5", "Y5", "B5"] and m.value() == 15
    with pytest.raises(IllegalAction, match="is a run, not a set"):
        Meld.parse("rummy101", "R5 R6 R7", kind="set")


def test_check_meld_reads_the_kind_asked_for() -> None:
    """check_meld(kind=...) reads a solver's set of one tile and jokers as the set; tiles that
    are another kind of meld are not valid as the kind asked for."""
    info = check_meld("rummy101", "* * K13", kind="set")
    assert info.valid and info.kind == "set" and info.open_value == 39
    assert check_meld("rummy101", "* * K13", kind="run").open_value == 36
    wrong = check_meld("rummy101", "R5 Y5 B5", kind="run")
    assert not wrong.valid and wrong.reason_code == MeldReason.NOT_THAT_KIND and wrong.meld is None
    assert wrong.reason == "R5 Y5 B5 is a set, not a run (R101-5)"
    assert check_meld("remi", "R12 R13 *", kind="set").reason == "R12 R13 * is a run, not a set (RO-6)"
    assert check_meld("rummy101", "R7 R7 B7", kind="set").reason_code == MeldReason.SET_REPEATED_COLOUR
    for bad in ("sets", ["set"], 2):
        with pytest.raises(NotationError, match="meld kind"):
            check_meld("rummy101", "R5 Y5 B5", kind=bad)  # type: ignore[arg-type]


def test_a_set_read_of_a_run_shaped_meld_keeps_its_kind() -> None:
    """* * K13 laid as a set of 13s (jokers R13 Y13, worth 39 > the run 11-12-13): checking the
    Meld object answers for the set, not for the run reading of its tiles (R101-9, R101-11)."""
    m = Meld.from_core("rummy101", "set", [52, 52, 51], [12, 25, 51])
    info = check_meld("rummy101", m)
    assert info.kind == "set" and info.open_value == 39 and info.end_value == 101 + 101 + 13
    assert adds("rummy101", m) == [(0, "R13"), (1, "Y13"), (2, "B13"), (2, "*")]  # type: ignore[arg-type]
    assert releases("rummy101", m) == [(0, [["R13"], ["Y13"], ["B13"]]),  # type: ignore[arg-type]
                                       (1, [["R13"], ["Y13"], ["B13"]])]
    assert check_meld("rummy101", "* * K13").kind == "run"     # the bare tiles read as a run
    # same answers as the core gives for an unambiguous set with the same shape
    assert adds("rummy101", "R5 Y5 *") == [
        (p, str(t)) for p, t in check_meld("rummy101", Meld.from_core(
            "rummy101", "set", [4, 17, 52], [4, 17, 30])).additions]


# ---- RO-6: Remi runs and sets ----------------------------------------------------------------
def test_ro6_twelve_thirteen_one_valid_thirteen_one_two_invalid() -> None:
    info = check_meld("remi", "R12 R13 R1")
    assert info.valid and info.kind == "run"
    assert reason("remi", "R13 R1 R2") == MeldReason.RUN_WRAPS
    assert "13-1-2 is no run" in check_meld("remi", "R13 R1 R2").reason  # type: ignore[operator]
    # A 1 after a Joly can only be a high ace in Remi: the Joly would be the 13, so * R1 R2 wraps
    # too (in rummy101, without a high ace, the same tiles leave 1..13 instead).
    assert reason("remi", "* R1 R2") == MeldReason.RUN_WRAPS
    assert reason("remi", "* R1 R2 R3") == MeldReason.RUN_WRAPS
    assert reason("rummy101", "* R1 R2") == MeldReason.RUN_OUT_OF_RANGE


def test_ro6_the_fourteen_tile_run() -> None:
    full = "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1"
    info = check_meld("remi", full)
    assert info.valid and info.kind == "run" and info.additions == ()
    assert info.open_value == 5 + 8 * 5 + 4 * 10 + 10             # RO-8: low 1 5, high 1 10
    assert adds("remi", "R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13")[0] == (0, "R1")
    assert adds("remi", "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13") == [(13, "R1"), (13, "*")]
    assert reason("remi", full + " R2") == MeldReason.TOO_LONG
    assert reason("rummy101", full) == MeldReason.TOO_LONG


def test_ro6_set_of_four_takes_no_addition() -> None:
    assert meld_additions("remi", "R8 Y8 B8 K8") == []
    assert meld_additions("rummy101", "R8 Y8 B8 K8") == []
    assert reason("remi", "R8 Y8 B8 K8 *") == MeldReason.SET_TOO_LONG


# ---- R101-6 / R101-9: joker values and releases ----------------------------------------------
def test_r101_6_r101_9_r10_joker_r12_worth_33_and_r11_releases() -> None:
    info = check_meld("rummy101", "R10 * R12")
    assert info.open_value == 33
    assert info.jokers == {1: Tile("R11")}
    assert releases("rummy101", "R10 * R12") == [(1, [["R11"]])]


def test_r101_9_either_missing_colour_releases_a_set_joker() -> None:
    assert releases("rummy101", "R5 Y5 *") == [(2, [["B5"], ["K5"]])]


def test_ro9_6_set_of_three_needs_both_missing_colours() -> None:
    assert releases("remi", "R5 Y5 *") == [(2, [["B5", "K5"]])]
    # with only one of them it is just an addition; the Joly then stands for the other
    assert (2, "B5") in adds("remi", "R5 Y5 *") and (3, "K5") in adds("remi", "R5 Y5 *")
    assert releases("remi", "R5 Y5 B5 *") == [(3, [["K5"]])]      # set of four: the one missing


# ---- RO-7: Joly position and ratio ----------------------------------------------------------
def test_ro7_r9_r10_joly_takes_r12_not_r7() -> None:
    a = adds("remi", "R9 R10 *")
    assert (3, "R12") in a and all(t != "R7" for _, t in a)
    assert a == [(0, "R8"), (3, "R12")]          # a second Joly would break the ratio
    assert check_meld("remi", "R9 R10 *").jokers == {2: Tile("R11")}


def test_ro7_two_jolys_need_four_real_tiles() -> None:
    assert reason("remi", "* R5 R6 *") == MeldReason.JOKER_RATIO
    assert check_meld("remi", "* R5 R6 R7 R8 *").valid
    assert reason("remi", "R5 * *") == MeldReason.JOKER_RATIO       # 3-tile meld: one Joly
    assert check_meld("rummy101", "* R5 R6 *").valid                # no ratio in 101
    assert "RO-7" in check_meld("remi", "* R5 R6 *").reason          # type: ignore[operator]


# ---- RO-8: lay-down values ----------------------------------------------------------------
@pytest.mark.parametrize("meld, value", [
    ("R1 R2 R3", 15),            # ace low 5
    ("R12 R13 R1", 30),          # ace high 10
    ("R1 Y1 B1", 30),            # ace in a set 10
    ("R12 R13 *", 30),           # Joly as the high ace: 10
    ("* R2 R3", 15),             # Joly as the low ace: 5
    ("R1 Y1 *", 30),             # Joly in a set of aces: 10
    ("R8 R9 R10", 20),
])
def test_ro8_laydown_values(meld: str, value: int) -> None:
    assert check_meld("remi", meld).open_value == value
    assert Meld.parse("remi", meld).value() == value


# ---- RO-12 / R101-13: end values and rack penalties --------------------------------------
def test_ro12_r101_13_end_values_and_rack_penalties() -> None:
    assert rack_penalty("rummy101", "R5 K13 *") == 5 + 13 + 101
    assert rack_penalty("remi", "R1 R5 K12 *") == 25 + 5 + 10 + 50
    assert check_meld("remi", "R12 R13 R1").end_value == 10 + 10 + 25
    assert check_meld("remi", "R12 R13 *").end_value == 10 + 10 + 50
    assert check_meld("rummy101", "R10 * R12").end_value == 10 + 101 + 12
    assert rack_penalty("rummy101", "") == 0
    assert Meld.parse("remi", "R1 Y1 *").value(valuation="penalty") == 25 + 25 + 50


# ---- CR-2: card melds ---------------------------------------------------------------------
def test_cr2_card_runs_aces_low_and_values() -> None:
    assert reason("classic", "QS KS AS") == MeldReason.RUN_HIGH_ACE
    assert "CR-2" in check_meld("classic", "QS KS AS").reason  # type: ignore[operator]
    assert reason("classic", "KS AS 2S") == MeldReason.RUN_WRAPS
    assert check_meld("classic", "AS 2S 3S").open_value == 6
    assert check_meld("classic", "JS QS KS").open_value == 30
    assert check_meld("classic", "7S 7H 7D").kind == "set"
    assert reason("classic", "7S 7H") == MeldReason.TOO_SHORT
    assert adds("classic", "7S 7H 7D") == [(3, "7C")]              # no jokers among cards
    assert adds("classic", "10H JH QH") == [(0, "9H"), (3, "KH")]
    assert rack_penalty("classic", "AS KD 7H") == 1 + 10 + 7
    assert Meld.parse("classic", "as 2s 3s").to_json() == {
        "kind": "run", "tiles": ["AS", "2S", "3S"], "value": 6, "jokers": {}}


# ---- pairs only where allowed --------------------------------------------------------------
def test_pairs_only_in_rummy101() -> None:
    assert reason("remi", "R7 R7") == MeldReason.PAIR_NOT_ALLOWED
    assert reason("remi", "R7 B7") == MeldReason.TOO_SHORT
    assert "pairs are melds only in rummy101" in check_meld("remi", "R7 R7").reason  # type: ignore[operator]
    with pytest.raises(IllegalAction):
        Meld.from_core("remi", "pair", [6, 6], [6, 6])


# ---- Meld record and contract JSON ---------------------------------------------------------
def test_meld_to_json_contract_shape() -> None:
    m = Meld.parse("rummy101", ["R10", "*", "R12"])
    assert m.to_json() == {"kind": "run", "tiles": ["R10", "*", "R12"], "value": 33,
                           "jokers": {"1": "R11"}}
    assert str(m) == "R10 * R12" and len(m) == 3
    assert eval(repr(m), {"Meld": Meld}) == m
    s = Meld.parse("remi", "R5 Y5 *")
    assert s.to_json()["jokers"] == {"2": "B5"}


def test_meld_from_core_round_trip_and_checks() -> None:
    m = Meld.from_core("rummy101", 1, [9, 52, 11], [9, 10, 11])
    assert m == Meld.parse("rummy101", "R10 * R12")
    with pytest.raises(IllegalAction, match="cannot stand for"):
        Meld.from_core("rummy101", 1, [9, 52, 11], [8, 10, 11])
    with pytest.raises(IllegalAction, match="is no run"):
        Meld.from_core("rummy101", 1, [9, 52, 11], [9, 12, 11])
    with pytest.raises(IllegalAction, match="is no set"):
        Meld.from_core("rummy101", "set", [9, 52, 11], [9, 10, 11])
    with pytest.raises(NotationError, match="meld kind"):
        Meld.from_core("rummy101", 7, [9, 52, 11], [9, 10, 11])
    with pytest.raises(NotationError):
        Meld.from_core("rummy101", 1, [9, 99, 11], [9, 10, 11])
    with pytest.raises(IllegalAction, match="entries"):
        Meld.from_core("rummy101", 1, [9, 52, 11], [9, 10])


def test_meld_value_agrees_with_core_meld_value() -> None:
    core = _backend.core()
    for spec in ("rummy101", "remi"):
        r = rummy101.Rules.parse(spec)
        for text in ("R10 * R12", "R12 R13 R1", "R1 Y1 *", "R5 Y5 B5 K5", "* R2 R3 R4"):
            info = check_meld(r, text)
            if not info.valid:
                continue
            codes = [int(t) for t in info.tiles]
            for valuation in ("open", "penalty"):
                assert info.meld.value(r, valuation) == core.meld_value(  # type: ignore[union-attr]
                    _backend.core_rules(r, valuation), codes)


def test_meld_info_json_and_inputs() -> None:
    info = check_meld("rummy101", [Tile("R3"), "r4", 4])
    assert info.valid and [str(t) for t in info.tiles] == ["R3", "R4", "R5"]
    assert check_meld("rummy101", '["R3","R4","R5"]').to_json()["additions"][0] == [0, "R2"]
    assert check_meld("rummy101", Meld.parse("rummy101", "R3 R4 R5")).valid
    assert check_meld(rummy101.Rules.parse("rummy101"), "Y5,B5,K5").valid


# ---- reason codes and messages ---------------------------------------------------------------
def test_reason_codes_match_the_core() -> None:
    core = _backend.core()
    for r in MeldReason:
        if r not in (MeldReason.PAIR_NOT_ALLOWED, MeldReason.NOT_THAT_KIND):  # decided in Python
            assert getattr(core, f"REASON_{r.name}") == int(r)


@pytest.mark.parametrize("spec, meld, code", [
    ("rummy101", "R5", MeldReason.TOO_SHORT),
    ("rummy101", "", MeldReason.TOO_SHORT),
    ("remi", "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1 *", MeldReason.TOO_LONG),
    ("rummy101", "* * *", MeldReason.NO_REAL_TILE),
    ("rummy101", "R5 Y6", MeldReason.NOT_A_PAIR),
    ("remi", "R5 * *", MeldReason.JOKER_RATIO),
    ("rummy101", "R7 R7 B7", MeldReason.SET_REPEATED_COLOUR),
    ("rummy101", "R7 Y7 B7 K7 R7", MeldReason.SET_TOO_LONG),
    ("rummy101", "R5 R7 R6", MeldReason.RUN_NOT_CONSECUTIVE),
    ("rummy101", "* R1 R2", MeldReason.RUN_OUT_OF_RANGE),
    ("remi", "R12 R13 * *", MeldReason.RUN_OUT_OF_RANGE),
    ("rummy101", "R12 R13 R1", MeldReason.RUN_HIGH_ACE),
    ("remi", "R13 R1 R2", MeldReason.RUN_WRAPS),
    ("rummy101", "R5 Y6 B7", MeldReason.MIXED),
    ("remi", "R5 R5", MeldReason.PAIR_NOT_ALLOWED),
])
def test_every_reason_has_an_example_and_a_message(spec: str, meld: str, code: MeldReason) -> None:
    info = check_meld(spec, meld)
    assert not info.valid and info.reason_code == code and info.meld is None
    assert info.reason and (meld.split()[0] in info.reason if meld else "empty" in info.reason)
    assert any(rid in info.reason for rid in ("R101-", "RO-", "CR-"))
    with pytest.raises(IllegalAction) as err:
        meld_additions(spec, meld)
    assert str(err.value) == info.reason


# ---- bad input -----------------------------------------------------------------------------
def test_errors_for_bad_input() -> None:
    with pytest.raises(NotationError, match=r"token 2 of 3 \('X9'\)"):
        check_meld("rummy101", "R5 X9 R7")
    with pytest.raises(RackError, match="3 copies of R5"):
        check_meld("rummy101", "R5 R5 R5")
    with pytest.raises(RackError, match="3 jokers"):
        check_meld("remi", "R5 * * *")
    with pytest.raises(RulesError, match="unknown variant 'poker'"):
        check_meld("poker", "R5 R6 R7")
    with pytest.raises(NotationError, match="is not a card"):
        check_meld("classic", "R5 R6 R7")
    with pytest.raises(NotationError, match=r"token 3 of 3 \('\*'\)"):
        check_meld("classic", "AS 2S *")
    with pytest.raises(NotationError, match="expected a rack"):
        check_meld("rummy101", 42)  # type: ignore[arg-type]
    with pytest.raises(NotationError, match=r"token 3 of 3 \(53\)"):
        check_meld("rummy101", [4, 5, 53])
    with pytest.raises(RackError):
        check_meld("classic", "7S 7S 7D")
    with pytest.raises(IllegalAction, match="R7 B7 is no pair"):
        Meld.parse("rummy101", "R7 B7")
    with pytest.raises(IllegalAction, match="is no set"):
        joker_releases("rummy101", "R7 R7 B7")
    with pytest.raises(NotationError, match="not a meld reason code"):
        rummy101.reason_message("rummy101", 99)
    with pytest.raises(IllegalAction, match="12-13-1 is no run"):
        Meld.parse("remi", "R12 R13 R1").value("rummy101")
    with pytest.raises(NotationError, match="tuple of Card"):
        Meld.parse("remi", "R1 R2 R3").value("classic")
    assert Meld.parse("remi", "R1 R2 R3").value("rummy101") == 6
    with pytest.raises(RulesError, match="unknown valuation"):
        Meld.parse("rummy101", "R1 R2 R3").value(valuation="best")  # type: ignore[arg-type]


def test_python_set_reading_matches_the_core_set_branch() -> None:
    """The Python set reading (used for run-shaped sets) agrees with the core on every set."""
    import itertools

    from rummy101 import melds as melds_mod
    for spec in ("rummy101", "remi"):
        for number in (1, 7, 13):
            for size in (3, 4):
                for cols in itertools.permutations(range(4), size):
                    for mask in range(1 << size):
                        if mask.bit_count() > rummy101.Rules.parse(spec).max_rack_jokers:
                            continue
                        codes = [52 if mask >> i & 1 else c * 13 + number - 1
                                 for i, c in enumerate(cols)]
                        info = check_meld(spec, codes)
                        if info.kind != "set":
                            continue
                        py = melds_mod._set_reading(info.meld)  # type: ignore[arg-type]
                        assert py == info, (spec, codes)

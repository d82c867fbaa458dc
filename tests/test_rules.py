"""Rule sets as data: the registry, options, canonical strings and errors that list what is accepted."""

from __future__ import annotations

import dataclasses

import pytest
from rummy101 import Rules, RulesError, get_rules, variants


def test_registry_lists_variants() -> None:
    assert list(variants()) == ["rummy101", "remi", "classic"]
    assert "threshold=fixed|increasing" in variants()["rummy101"]


def test_rummy101_defaults() -> None:
    """R101-1, R101-2, R101-7, R101-8, R101-10, R101-14."""
    r = Rules.parse("rummy101")
    assert (r.players, r.copies, r.jokers, r.hand_size, r.starter_extra) == (4, 2, 2, 21, 1)
    assert (r.opening_points, r.pairs_opening, r.opts.threshold, r.opts.button_jokers) == (101, 5, "fixed", 0)
    assert r.keep_discard and r.pairs_allowed and not r.high_ace and r.joker_penalty == 101


def test_remi_defaults() -> None:
    """RO-1, RO-2, RO-3, RO-6, RO-7, RO-8, RO-11."""
    r = Rules.parse("remi")
    assert (r.hand_size, r.starter_extra, r.opening_points, r.opening_needs_run) == (14, 1, 45, True)
    assert r.high_ace and r.joker_ratio == 2 and r.opts.atu and r.opts.doubles and r.opts.tabla
    assert not r.pairs_allowed and r.opts.joly_atu_deal == 13 and r.opts.joly_retrievals == 1


def test_classic_defaults() -> None:
    """CR-1, CR-4, CR-6."""
    r = Rules.parse("classic")
    assert (r.family, r.hand_size, r.copies, r.jokers, r.opts.target) == ("cards", 7, 1, 0, 200)
    assert not r.keep_discard and r.opts.go_out == "broad"


@pytest.mark.parametrize("spec", ["rummy101", "remi", "classic", "rummy101(threshold=increasing,players=3)",
                                  "remi(atu=off,doubles=off,tabla=off,joly_atu_deal=14,joly_retrievals=2)",
                                  "classic(players=2,target=100,go_out=narrow)",
                                  "rummy101(button_jokers=3)"])
def test_round_trip(spec: str) -> None:
    r = Rules.parse(spec)
    assert Rules.parse(str(r)) == r
    assert eval(repr(r)) == r
    assert hash(Rules.parse(str(r))) == hash(r)


def test_spelling_is_lenient() -> None:
    assert Rules.parse(" RUMMY101 ( Threshold = Increasing , players=3 ) ") == \
        Rules.parse("rummy101(players=3,threshold=increasing)")
    assert Rules.parse("remi(atu=false)") == Rules.parse("remi(atu=off)")
    assert Rules.make("rummy101", players=2) == Rules.parse("rummy101(players=2)")


def test_frozen_and_keyword_only() -> None:
    r = Rules.parse("rummy101")
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.players = 3  # type: ignore[misc]
    with pytest.raises(TypeError):
        Rules("rummy101")  # type: ignore[misc]


@pytest.mark.parametrize("spec,needle", [
    ("gin", "known variants: rummy101, remi, classic"),
    ("rummy101(colour=red)", "rummy101 accepts: players=2..4"),
    ("rummy101(players=5)", "from 2 to 4"),
    ("rummy101(players=two)", "from 2 to 4"),
    ("rummy101(threshold=rising)", "one of fixed, increasing"),
    ("remi(atu=maybe)", "on/off"),
    ("remi(button_jokers=1)", "unknown option 'button_jokers' for remi"),
    ("classic(target=0)", "from 1 to 100000"),
    ("rummy101(players)", "is not name=value"),
    ("rummy101(", "not of the form"),
])
def test_errors_list_what_is_accepted(spec: str, needle: str) -> None:
    with pytest.raises(RulesError) as exc:
        Rules.parse(spec)
    assert needle in str(exc.value)
    assert repr(spec) in str(exc.value) or spec.split("(")[0] in str(exc.value)


def test_wrong_type() -> None:
    with pytest.raises(RulesError, match="must be a string"):
        get_rules(101)  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="bad value"):
        Rules.make("remi", atu=3)


def test_values_tables() -> None:
    """R101-6 face values; RO-8 lay-down values (ace low 5 / high 10 / set 10); RO-12 end values; CR-2."""
    r = Rules.parse("remi")
    assert r.open_params.run_value[1] == 5 and r.open_params.run_value[14] == 10
    assert r.open_params.set_value[1] == 10 and r.open_params.set_value[9] == 5
    assert r.penalty_params.set_value[1] == 25 and r.penalty_params.joker_value == 50
    assert Rules.parse("rummy101").penalty_params.joker_value == 101
    assert Rules.parse("rummy101").open_params.joker_value == -1
    c = Rules.parse("classic").open_params
    assert [c.set_value[n] for n in (1, 9, 10, 11, 12, 13)] == [1, 9, 10, 10, 10, 10]


# ---- hostile rules text (issue 8) ---------------------------------------------------------------
from rummy101.rules import MAX_SPEC_CHARS

# never reaches the core (tests/conftest.py checks it): .ci/run's pure pass leaves it out
pytestmark = pytest.mark.backend_free


@pytest.mark.parametrize("spec", [
    "x" * 40_000,
    "rummy101(" + " " * 40_000 + ")",
    " " * 40_000 + "rummy101",
    "rummy101" + " " * (MAX_SPEC_CHARS - 7),
])
def test_rules_text_is_capped_before_parsing(spec: str) -> None:
    with pytest.raises(RulesError) as exc:
        Rules.parse(spec)
    assert f"{len(spec)} characters" in str(exc.value)
    assert str(MAX_SPEC_CHARS) in str(exc.value)
    assert len(str(exc.value)) < 300  # the text is not quoted back


def test_the_longest_accepted_rules_text_parses() -> None:
    spec = "rummy101(" + " " * (MAX_SPEC_CHARS - 22) + "players=3)"
    assert len(spec) <= MAX_SPEC_CHARS
    assert Rules.parse(spec).players == 3
    assert len(str(Rules.parse("remi(players=2,atu=off,doubles=off,tabla=off,joly_atu_deal=13,"
                               "joly_retrievals=2)"))) < MAX_SPEC_CHARS


@pytest.mark.parametrize("spec,needle", [
    ("rummy101(players=2,players=3)", "given twice"),
    ("rummy101(PLAYERS=2, players=2)", "given twice"),
    ("rummy101(players=３)", "ASCII digits"),
    ("rummy101(players=٣)", "ASCII digits"),
    ("rummy101(button_jokers=1_0)", "ASCII digits"),
    ("rummy１０１", "not of the form"),
    ("rummy101)(", "not of the form"),
    ("(players=3)", "not of the form"),
    ("rummy101(players=3", "not of the form"),
    ("rummy 101", "not of the form"),
])
def test_malformed_rules_text_is_refused(spec: str, needle: str) -> None:
    with pytest.raises(RulesError, match=needle):
        Rules.parse(spec)


@pytest.mark.parametrize("spec,players", [
    ("  rummy101  ", 4), ("RUMMY101(Players = 3)", 3), ("remi ( players = 2 , atu = off )", 2),
    ("rummy101()", 4), ("rummy101( )", 4),
])
def test_spacing_and_case_are_lenient(spec: str, players: int) -> None:
    assert Rules.parse(spec).players == players


def test_each_variant_has_its_own_options_record() -> None:
    """Issue 15: shared fields on Rules, each variant's options in one frozen record; the old
    attribute names still read the options; a wrong name says which options exist."""
    import dataclasses

    from rummy101.rules import ClassicOptions, RemiOptions, Rummy101Options

    r = Rules.parse("rummy101(threshold=increasing,button_jokers=2)")
    assert r.opts == Rummy101Options(players=4, threshold="increasing", button_jokers=2)
    assert r.threshold == r.opts.threshold and r.opts_as(Rummy101Options) is r.opts
    assert isinstance(Rules.parse("remi").opts, RemiOptions)
    c = Rules.parse("classic(target=50)")
    assert isinstance(c.opts, ClassicOptions) and c.target_score == c.opts.target == 50
    with pytest.raises(dataclasses.FrozenInstanceError):
        c.opts.target = 10  # type: ignore[misc]
    with pytest.raises(AttributeError, match="classic rules have no field or option 'threshold'.*target="):
        _ = c.threshold
    with pytest.raises(RulesError, match="has ClassicOptions, not RemiOptions"):
        c.opts_as(RemiOptions)
    import pickle

    assert pickle.loads(pickle.dumps(r)) == r


def test_parse_keeps_one_rule_set_per_text() -> None:
    """Rules.parse reads a text once (solve_opening("rummy101", rack) used to parse it per rack);
    errors are not kept, and the texts kept are bounded."""
    from rummy101 import rules as rules_module

    assert Rules.parse("remi(players=3)") is Rules.parse("remi(players=3)")
    assert Rules.parse("remi(players=3)") == Rules.parse("remi( players = 3 )")
    for _ in range(2):
        with pytest.raises(RulesError, match="unknown variant"):
            Rules.parse("rummy102")
    assert "rummy102" not in rules_module._PARSED
    for a in range(20):  # 400 distinct texts of one rule set
        for b in range(20):
            assert Rules.parse(" " * a + "classic" + " " * b).variant == "classic"
    assert len(rules_module._PARSED) <= rules_module._PARSED_MAX

"""QA h6: the library API refuses wrong inputs with RummyError/BackendError, never a bare
TypeError/AttributeError from deep inside, and the message names what to give instead."""

from __future__ import annotations

import pytest
import rummy101
import rummy101.bots
from rummy101 import BackendError, NotationError, RulesError


def test_format_tiles_reads_int_codes_as_tiles() -> None:
    # the signature takes ints: they are tile codes, not numbers to print
    assert rummy101.format_tiles([0, 52, 51]) == "R1 * K13"
    assert rummy101.format_tiles(rummy101.parse_cards("AS 10D")) == "AS 10D"


@pytest.mark.parametrize("bad", [None, 5, "R1 R2", ["x"], [None], [True]])
def test_format_tiles_refuses_non_tiles(bad: object) -> None:
    with pytest.raises(NotationError):
        rummy101.format_tiles(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", ["R1 R2 R3", None, 5])
def test_solve_openings_refuses_a_single_rack_or_none(bad: object) -> None:
    with pytest.raises(NotationError, match="list of racks"):
        rummy101.solve_openings("rummy101", bad)  # type: ignore[arg-type]


def test_engine_for_and_keeps_card_take_a_rules_text() -> None:
    assert rummy101.engine_for("rummy101") is rummy101.engine_for(rummy101.get_rules("rummy101"))
    assert rummy101.keeps_card("classic", 7) is False
    with pytest.raises(RulesError):
        rummy101.engine_for(None)  # type: ignore[arg-type]
    with pytest.raises(RulesError):
        rummy101.keeps_card(None, 7)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [None, b"pure", 5])
def test_set_backend_refuses_a_non_string(bad: object) -> None:
    before = rummy101.backend_name()
    with pytest.raises(BackendError, match="must be a string"):
        rummy101.set_backend(bad)  # type: ignore[arg-type]
    assert rummy101.backend_name() == before


@pytest.mark.parametrize("bad", [-1, 4, None, "0", True])
def test_state_rack_refuses_a_seat_that_does_not_exist(bad: object) -> None:
    s = rummy101.new_game("rummy101", 7)
    with pytest.raises(rummy101.IllegalAction, match="does not exist"):
        s.rack(bad)  # type: ignore[arg-type]
    assert len(s.rack(3)) == 21


def test_hint_refuses_an_observation_or_state_and_names_the_builders() -> None:
    from rummy101.hint import BadView, hint, view_from_state

    s = rummy101.new_game("rummy101", 3)
    for bad in (s.observation(0), s, None):
        with pytest.raises(BadView, match="view_from_state"):
            hint(bad)  # type: ignore[arg-type]
    with pytest.raises(BadView, match="alternatives"):
        hint(view_from_state(s), alternatives="2")  # type: ignore[arg-type]
    for bad in (None, s.observation(0)):
        with pytest.raises(BadView, match="game State"):
            view_from_state(bad)
    assert len(hint(view_from_state(s), alternatives=1).alternatives) <= 1


@pytest.mark.parametrize(("colour", "number"), [("", 3), ("RY", 3), ("Z", 3), (None, 3), (True, 3),
                                                ("R", "3"), ("R", 14), (4, 1)])
def test_tile_of_refuses_what_is_no_colour_or_number(colour: object, number: object) -> None:
    # '' and 'RY' were read as R (str.index finds them at 0), 'Z' was a bare ValueError
    with pytest.raises(NotationError, match="no tile of colour"):
        rummy101.Tile.of(colour, number)  # type: ignore[arg-type]
    assert rummy101.Tile.of(" k ", 13) == rummy101.Tile("K13")


@pytest.mark.parametrize("kwargs", [{"verb": ["discard"]}, {"verb": "discard", "tiles": None},
                                    {"verb": "discard", "tiles": "R1"},
                                    {"verb": "add", "tiles": (0,), "meld": "x"},
                                    {"verb": "add", "tiles": (0,), "meld": 0, "pos": None}])
def test_action_constructor_refuses_wrong_types(kwargs: dict[str, object]) -> None:
    with pytest.raises(NotationError):
        rummy101.Action(**kwargs)  # type: ignore[arg-type]
    assert str(rummy101.Action("add", (0,), meld=1, pos=0)) == "add R1 to 1@start"


def test_simulate_refuses_bots_none() -> None:
    from rummy101.sim import SimError, simulate

    with pytest.raises(SimError, match="list of bot names"):
        simulate("rummy101", None, 1, progress=False)  # type: ignore[arg-type]


def test_random_playout_names_a_wrong_state_or_max_steps() -> None:
    import random

    with pytest.raises(TypeError, match="state must be a rummy101 State"):
        rummy101.random_playout("x", random.Random(1))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="max_steps must be an int"):
        rummy101.random_playout(rummy101.new_game("rummy101", 1), random.Random(1),
                                max_steps="5")  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [5, "x"])
def test_get_bot_refuses_an_rng_that_is_no_random(bad: object) -> None:
    import random

    from rummy101.bots import BotError, get_bot

    # get_bot("random", 5) was accepted and failed in act: 'int' object has no attribute 'randrange'
    with pytest.raises(BotError, match="random.Random"):
        get_bot("random", bad)  # type: ignore[arg-type]
    assert get_bot("random", random.Random(5)).rng.random() == random.Random(5).random()


def test_numpy_integer_codes_are_tiles_and_cards() -> None:
    np = pytest.importorskip("numpy")
    # a numpy array of codes was refused token by token ("np.int64(0) is not a tile") although
    # the same Python ints are accepted
    rack = np.array([0, 1, 2, 5])
    assert rummy101.parse_tiles(rack) == rummy101.parse_tiles([0, 1, 2, 5])
    assert rummy101.solve_opening("rummy101", rack).value == 6
    assert rummy101.parse_cards(np.arange(2)) == rummy101.parse_cards("AS 2S")
    for bad in (np.float64(1.0), np.bool_(True), np.int64(53)):
        with pytest.raises(NotationError):
            rummy101.Tile(bad)


def test_action_parse_takes_a_rules_text() -> None:
    # Action.parse('discard AS', 'classic') was AttributeError: 'str' object has no attribute 'family'
    assert rummy101.Action.parse("discard AS", "classic") == rummy101.Action.parse(
        "discard AS", rummy101.get_rules("classic"))
    with pytest.raises(NotationError, match="rules must be"):
        rummy101.Action.parse("discard AS", 5)  # type: ignore[arg-type]


@pytest.mark.parametrize("variant", ["remi", "classic"])
def test_hint_of_another_variant_says_hints_are_for_rummy101(variant: str) -> None:
    from rummy101.hint import BadView, view_from_state

    # was "field 'observation' lacks opened, thresholds, button: send State.observation(seat)"
    with pytest.raises(BadView, match="Rummy 101 only"):
        view_from_state(rummy101.new_game(variant, 2))


def test_register_bot_refuses_a_factory_that_is_not_callable() -> None:
    from rummy101.bots import BotError, bot_names, register_bot

    with pytest.raises(BotError, match="callable"):
        register_bot("h6-not-callable", 5)  # type: ignore[arg-type]
    with pytest.raises(BotError, match="string"):
        register_bot(None, rummy101.bots.RandomBot)  # type: ignore[arg-type]
    assert "h6-not-callable" not in bot_names()


@pytest.mark.parametrize("bad", [None, 5, [], "record", (), {}, {"seat": 1}])
def test_state_from_record_refuses_what_is_no_hint_request(bad: object) -> None:
    # was "'int' object is not iterable", an AttributeError ('list' object has no attribute
    # 'get') or a KeyError 'record'
    from rummy101.hint import BadView, state_from_record

    with pytest.raises(BadView, match=r"hint request is a JSON object|field 'record' must be"):
        state_from_record(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize(("wanted", "seconds", "message"), [
    ("2", 5.0, r"wanted must be an int \(how many different turns\), got str '2'"),
    (None, 5.0, r"wanted must be an int .* got NoneType None"),
    (1, "5", r"seconds must be a number of seconds >= 0 or None \(no limit\), got str '5'"),
    (1, float("nan"), r"seconds must be a number .* got float nan"),
    (1, -1, r"seconds must be a number .* got int -1")])
def test_planned_turns_refuses_counts_and_limits_that_are_no_numbers(
        wanted: object, seconds: object, message: str) -> None:
    # were "'<' not supported between instances of 'int' and 'str'", "unsupported operand
    # type(s) for +: 'float' and 'str'"; nan set a deadline that never passes, -1 said "needs
    # more than 10 s"
    from rummy101.hint import BadView, planned_turns, view_from_state

    view = view_from_state(rummy101.new_game("rummy101", 3))
    with pytest.raises(BadView, match=message):
        planned_turns(view, wanted, seconds=seconds)  # type: ignore[arg-type]


def test_a_hint_out_of_time_names_the_limit_it_was_given(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import itertools
    import types

    from rummy101 import IllegalAction
    from rummy101.hint import plan, planned_turns, view_from_state

    view = view_from_state(rummy101.new_game("rummy101", 3))
    clock = itertools.count()  # a clock one second on at every reading: no real time involved
    monkeypatch.setattr(plan, "time", types.SimpleNamespace(monotonic=lambda: next(clock)))
    with pytest.raises(IllegalAction, match=r"the hint needs more than 3 s for this position"):
        planned_turns(view, 1, seconds=3)  # said "more than 10 s" (the service's limit)


@pytest.mark.parametrize("rules", ["rummy101", "remi", "classic(players=2)"])
def test_a_state_pickles_and_deep_copies_and_plays_on_the_same(rules: str) -> None:
    # both were TypeError "cannot pickle 'module' object" (the engine); so was an RL Session
    import copy
    import pickle
    import random

    state = rummy101.new_game(rules, 5)
    rng = random.Random(5)
    for _ in range(25):
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    for clone in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state)):
        assert clone == state and clone.legal_actions() == state.legal_actions()
        mine, theirs = state.copy(), clone
        rummy101.random_playout(mine, random.Random(1))
        rummy101.random_playout(theirs, random.Random(1))
        assert theirs == mine and theirs.standings() == mine.standings()
    assert state.legal_actions()  # the original still plays


def test_an_rl_session_deep_copies() -> None:
    import copy

    np = pytest.importorskip("numpy")
    from rummy101.rl import Session

    ses = Session("rummy101(players=2)")
    ses.new(seed=1)
    twin = copy.deepcopy(ses)
    index = int(np.flatnonzero(ses.mask())[0])
    assert ses.step(index) == twin.step(index)
    assert (ses.mask() == twin.mask()).all()


@pytest.mark.parametrize("bad", [1.5, 2**80, -1, True, "  ", [2]])
def test_records_dumps_refuses_an_indent_that_is_no_number_of_spaces(bad: object) -> None:
    # 1.5 was "can't multiply sequence by non-int of type 'float'", 2**80 an OverflowError
    from rummy101.game import records

    state = rummy101.new_game("rummy101", 1)
    with pytest.raises(ValueError, match=r"indent must be None \(one line\) or a whole number of "
                                         r"spaces from 0 to 64, got"):
        records.dumps(state, indent=bad)  # type: ignore[arg-type]
    assert records.loads(records.dumps(state, indent=2)) == state

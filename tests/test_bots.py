"""Bots: the registry, legal-only play over many seeded games, and the greedy bot's decisions
(R101-4 take, R101-7 opening, R101-9 retrieval, R101-11 adding, R101-12/13 discards)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest
import rummy101
from rummy101.bots import Bot, BotError, GreedyBot, RandomBot, bot_names, get_bot
from rummy101.bots.random_bot import END_TURN_PROBABILITY
from rummy101.game import Action, new_game
from rummy101.sim import bot_seed, game_seed
from rummy101.sim import play_game as sim_play
from test_game_random import slow_share

# The pure backend plays the greedy bot ~50x slower: fewer games there (more under -m slow).
FAST = rummy101.backend_name() == "native"


def test_registry() -> None:
    assert {"random", "greedy"} <= set(bot_names())
    assert isinstance(get_bot("Random", random.Random(1)), RandomBot)
    assert isinstance(get_bot(" greedy "), GreedyBot)
    with pytest.raises(BotError, match=r"unknown bot 'alphazero'; accepted bots: greedy, random"):
        get_bot("alphazero")
    with pytest.raises(BotError, match=r"unknown bot 'search\(turns=0\)'; .*write 'search:turns=0'"):
        get_bot("search(turns=0)")  # the rules' parentheses (rummy101(players=2)) for a bot's options
    with pytest.raises(BotError, match="must be a string"):
        get_bot(3)  # type: ignore[arg-type]


class Checked(Bot):
    """Wraps a bot and checks that every action it returns is one of the legal actions and that
    it never looked at anything but the observation of its own seat."""

    def __init__(self, inner: Bot, seat: int) -> None:
        super().__init__(inner.rng)
        self.inner, self.seat, self.calls = inner, seat, 0
        self.name = inner.name  # type: ignore[misc]

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[Any]) -> Any:
        assert observation["seat"] == self.seat
        a = self.inner.act(observation, list(legal_actions))
        assert a in legal_actions, f"{self.inner.name} returned {a} not in {legal_actions}"
        self.calls += 1
        return a


def play_checked(bots: list[str], seed: int, index: int) -> tuple[Any, int]:
    state = new_game("rummy101", game_seed(seed, index))
    players = [Checked(get_bot(b, random.Random(bot_seed(seed, index, s))), s)
               for s, b in enumerate(bots)]
    steps = 0
    while not state.is_terminal:
        seat = state.current_player
        obs = state.observation(seat)
        before = state.copy()
        a = players[seat].act(obs, state.legal_actions())
        assert state == before                       # acting never changes the state
        state.apply(a)                               # raises IllegalAction if the bot cheated
        steps += 1
        assert steps < 5000
    return state, steps


@pytest.mark.parametrize("bots", [["random"] * 4, ["greedy", "random", "greedy", "random"],
                                  ["greedy"] * 4])
def test_bots_only_play_legal_actions(bots: list[str]) -> None:
    games = (40 if "greedy" not in bots else 20) if FAST else 3
    ends = set()
    for i in range(games):
        state, _ = play_checked(bots, 2024, i)
        ends.add(state.round_results()[0]["end"])
        assert len(state.round_scores()) == 1
    assert ends <= {"finish", "exhausted"}


@pytest.mark.slow
@pytest.mark.parametrize("bots", [["random"] * 4, ["greedy", "random", "greedy", "random"],
                                  ["greedy"] * 4])
def test_bots_only_play_legal_actions_many(bots: list[str]) -> None:
    for i in slow_share(range(300), ",".join(bots)):
        play_checked(bots, 77, i)


def test_random_bot_ends_turns_half_the_time() -> None:
    bot = RandomBot(random.Random(5))
    legal = [Action.parse(t) for t in ("run R1 R2 R3", "set R5 Y5 B5", "pair K2 K2",
                                       "discard R1", "discard K2")]
    picks = [str(bot.act({}, legal)) for _ in range(4000)]
    share = sum(p.startswith("discard") for p in picks) / len(picks)
    assert abs(share - END_TURN_PROBABILITY) < 0.03
    assert set(picks) == {str(a) for a in legal}      # every action can be chosen
    only = [Action.parse("draw"), Action.parse("take")]
    assert {str(bot.act({}, only)) for _ in range(50)} == {"draw", "take"}
    with pytest.raises(BotError, match="no legal action"):
        bot.act({}, [])


def test_bots_are_reproducible() -> None:
    for name in ("random", "greedy"):
        runs = []
        for _ in range(2):
            s = new_game("rummy101", 99)
            bots = [get_bot(name, random.Random(s_)) for s_ in range(4)]
            while not s.is_terminal:
                p = s.current_player
                s.apply(bots[p].act(s.observation(p), s.legal_actions()))
            runs.append([str(a) for a in s.history])
        assert runs[0] == runs[1]


# ---- greedy decisions on hand-made observations ------------------------------------------------

def obs(rack: str, *, phase: str = "play", opened: Sequence[str | None] = (None,) * 4,
        table: Sequence[tuple[str, str]] = (), last: str | None = None, must: str | None = None,
        seat: int = 0, points: int = 101, staged: bool = False, turn: int = 5) -> dict[str, Any]:
    return {
        "rules": "rummy101", "seat": seat, "round": 0, "turn": turn, "phase": phase,
        "rack": rack.split(), "opened": list(opened), "last_discard": last,
        "table": [{"id": i, "owner": 1, "kind": k, "tiles": t.split(), "value": 0,
                   "staged": False} for i, (k, t) in enumerate(table)],
        "thresholds": {"points": points, "pairs": 5, "mode": "fixed"},
        "turn_state": {"took": None, "must_use": must, "staged": staged},
    }


def acts(*texts: str) -> list[Action]:
    return [Action.parse(t) for t in texts]


def discards(rack: str) -> list[Action]:
    return acts(*{f"discard {t}" for t in rack.split()})


def test_greedy_takes_a_discard_only_when_it_opens() -> None:
    # Best runs/sets: R10-R12 (33) + K10-K12 (33) + B9-B11 (30) = 96 < 101 (R101-7).
    rack = "R10 R11 R12 K10 K11 K12 B9 B10 B11 Y2 Y5 Y8 R1 B4 K6 R7 B13 K3 Y13 R4 B1"
    g = GreedyBot()
    legal = acts("draw", "take")
    assert str(g.act(obs(rack, phase="take", last="R13"), legal)) == "take"   # R10-R13: 109
    assert str(g.act(obs(rack, phase="take", last="Y1"), legal)) == "draw"    # R1 B1 Y1: 99
    rich = rack + " K13"   # K10-K13 opens already (109); Y3 would not be in the opening
    assert str(g.act(obs(rich, phase="take", last="Y3"), legal)) == "draw"


def test_greedy_takes_when_opened_and_the_tile_fits() -> None:
    g = GreedyBot()
    legal = acts("draw", "take")
    o = ("melds", None, None, None)
    table = [("run", "R3 R4 R5")]
    assert str(g.act(obs("K1 Y9 B2", phase="take", opened=o, table=table, last="R6"), legal)) == "take"
    assert str(g.act(obs("K1 Y9 B2", phase="take", opened=o, table=table, last="K7"), legal)) == "draw"
    assert str(g.act(obs("K1 K2 B2", phase="take", opened=o, table=table, last="K3"), legal)) == "take"


@pytest.mark.parametrize("kind", ["melds", "pairs"])
def test_greedy_opens_with_the_best_opening(kind: str) -> None:
    """R101-7/8: the starter of a deal that holds an opening opens in its first turn, with
    runs/sets worth at least the solver's best value, or with the solver's pairs."""
    from rummy101 import Rules
    from rummy101.bots.strategy import kit_for, opening_plan
    from rummy101.tiles import counts_of
    kit = kit_for(Rules.parse("rummy101"))
    for seed in range(400):
        s = new_game("rummy101", seed)
        plan = opening_plan(kit, counts_of(s.rack(0)), 101, 5)
        if plan is not None and plan.kind == kind:
            break
    else:
        pytest.skip(f"no deal with a {kind} opening for the starter in 400 seeds")
    bot = GreedyBot()
    while s.current_player == 0 and not s.is_terminal:
        s.apply(bot.act(s.observation(0), s.legal_actions()))
    assert s.observation(0)["opened"][0] == kind
    laid = [m for m in s.observation(1)["table"] if m["owner"] == 0]
    if kind == "melds":
        assert sum(m["value"] for m in laid if m["kind"] != "pair") >= plan.value
    else:
        assert sum(1 for m in laid if m["kind"] == "pair") >= plan.value >= 5


def test_greedy_discard_avoids_feeding_the_next_player() -> None:
    g = GreedyBot()
    o = ("melds", "melds", None, None)
    table = [("run", "R3 R4 R5")]
    rack = "R6 K2 Y9 B1"
    # Without feeding concerns the highest loose tile goes (Y9); R6 fits the table run.
    assert str(g.act(obs(rack, opened=o, table=table), discards(rack))) == "discard Y9"
    rack2 = "R6 K2 B1"
    assert str(g.act(obs(rack2, opened=o, table=table), discards(rack2))) == "discard K2"
    o2 = ("melds", None, None, None)   # next player has not opened: R6 is safe and highest
    assert str(g.act(obs(rack2, opened=o2, table=table), discards(rack2))) == "discard R6"


def test_greedy_keeps_jokers_and_finishes_with_one() -> None:
    g = GreedyBot()
    o = ("melds", None, None, None)
    assert str(g.act(obs("* K13 B1", opened=o), discards("* K13 B1"))) == "discard K13"
    assert str(g.act(obs("*", opened=o), discards("*"))) == "discard *"


def test_greedy_adds_and_retrieves_when_it_gains() -> None:
    g = GreedyBot()
    o = ("melds", None, None, None)
    table = [("run", "R10 * R12"), ("set", "K7 Y7 B7")]
    rack = "R11 K3 K4 B9"
    legal = acts("retrieve 0:1 with R11", "add R7 to 1", *(f"discard {t}" for t in rack.split()))
    # The joker completes K3 K4 * on the rack: retrieving it lowers the penalty.
    assert str(g.act(obs(rack, opened=o, table=table), legal)) == "retrieve 0:1 with R11"
    rack2 = "R11 Y1 B9 R7"
    legal2 = acts("retrieve 0:1 with R11", "add R7 to 1", *(f"discard {t}" for t in rack2.split()))
    assert str(g.act(obs(rack2, opened=o, table=table), legal2)) == "add R7 to 1"


def test_greedy_undoes_a_take_it_cannot_use() -> None:
    g = GreedyBot()
    legal = acts("reset", "discard K1")
    assert str(g.act(obs("K1 Y5 R9", must="R9"), legal)) == "reset"
    assert str(g.act(obs("K1 Y5 R9", phase="take", last="R9"), acts("draw", "take"))) == "draw"
    # Also when reset is the only legal action (the engine offered a take it cannot use).
    g = GreedyBot()
    o = ("melds", None, None, None)
    assert str(g.act(obs("K1 Y5 B13", must="B13", opened=o), acts("reset"))) == "reset"
    assert str(g.act(obs("K1 Y5", phase="take", last="B13", opened=o),
                     acts("draw", "take"))) == "draw"


def test_greedy_reads_a_joker_set_as_a_set() -> None:
    """R101-5/R101-11: on the table `* * B12` is a set (jokers R12 Y12), so B13 does not fit it
    and is no reason to take the discard; K12 does fit."""
    g = GreedyBot()
    o = ("melds", None, None, None)
    table = [("set", "* * B12")]
    assert str(g.act(obs("K1 Y5 R9", phase="take", opened=o, table=table, last="B13"),
                     acts("draw", "take"))) == "draw"
    assert str(g.act(obs("K1 Y5 R9", phase="take", opened=o, table=table, last="K12"),
                     acts("draw", "take"))) == "take"


def test_a_game_where_greedy_once_looped_ends() -> None:
    """Regression: greedy took an unusable discard, reset, and took it again forever."""
    rec = sim_play("rummy101", ["random", "greedy", "random", "random"], 2026, 9505)
    assert rec.steps < 1000


@pytest.mark.parametrize("name", ["greedy", "random", "search"])
@pytest.mark.parametrize(("observation", "legal", "message"), [
    (None, "legal", (r"the observation must be the mapping State\.observation\(seat\) returns, "
                     r"got NoneType None")),
    (["R1"], "legal", r"the observation must be the mapping .* got list \['R1'\]"),
    ("obs", "R1 R2", r"legal_actions must be the list State\.legal_actions\(\) returns, got str"),
    ("obs", {"rack": 5}, r"legal_actions must be the list .* got dict"),
    ("obs", 5, r"legal_actions must be the list .* got int 5"),
    (None, [], r"the observation must be the mapping")])
def test_act_refuses_arguments_the_engine_never_passes(name: str, observation: Any, legal: Any,
                                                       message: str) -> None:
    # were KeyError 0, AttributeError ('NoneType' object has no attribute 'get'), IndexError
    # or "'int' object is not iterable" from inside the bot
    state = rummy101.new_game("remi", 4)
    observation = state.observation(state.current_player) if observation == "obs" else observation
    legal = state.legal_actions() if legal == "legal" else legal
    with pytest.raises(BotError, match=f"^{name} bot: {message}"):
        get_bot(name, random.Random(1)).act(observation, legal)


@pytest.mark.parametrize("options", [5, ["playouts"], {"playouts": 1}, {3: int}])
def test_register_bot_refuses_options_that_are_no_name_to_type_map(options: Any) -> None:
    with pytest.raises(BotError, match=r"^bot 'h4-options': options must map each option's name "
                                       r"to its type"):
        rummy101.bots.register_bot("h4-options", GreedyBot, options)
    with pytest.raises(BotError, match="unknown bot 'h4-options'"):
        get_bot("h4-options")  # nothing half-registered


@pytest.mark.parametrize("name", ["greedy", "search"])
@pytest.mark.parametrize("observation", [{}, {"rack": ["R1"]}])
def test_bots_that_read_the_view_refuse_one_without_rules(name: str, observation: Any) -> None:
    # was KeyError 'rules' from inside the bot; the random bot reads no view (the simulator
    # hands it an empty one), so it takes any mapping
    state = rummy101.new_game("remi", 4)
    legal = state.legal_actions()
    with pytest.raises(BotError, match=f"^{name} bot: the observation has no 'rules': it must be "
                                       r"the mapping State\.observation\(seat\) returns"):
        get_bot(name, random.Random(1)).act(observation, legal)
    assert get_bot("random", random.Random(1)).act(observation, legal) in legal

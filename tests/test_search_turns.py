"""The search bot's whole turns in Rummy 101 (issue 12): at the first play step of a turn where
greedy would lay, open or add (R101-7/8/9/11), the hint planner's genuinely different turns are
candidates beside greedy's, each applied as its full action sequence (lay steps and the discard,
R101-12) in every sampled world; a chosen turn is played through on the next calls."""

from __future__ import annotations

import random
from typing import Any

import pytest
import rummy101
from rummy101.bots import SearchBot, get_bot, search
from rummy101.game import new_game
from rummy101.game.actions import Action
from rummy101.sim import play_game

# playouts of the game-playing tests: on the pure backend every rollout is Python (~8 minutes of
# CI at 24), so fewer there; the native backend keeps 24
PLAYOUTS = 8 if rummy101.backend_name() == "pure" else 24


def lay_decisions(rules: str, seed: int, limit: int = 200):
    """(state, greedy's first play step) at every turn of a seeded all-greedy game where that
    step is not a discard or a reset: the decisions the search bot plans whole turns at."""
    s = new_game(rules, seed, match_rounds=1)
    bots = [get_bot("greedy", random.Random(q)) for q in range(s.n)]
    seen: set[tuple[int, int]] = set()
    for _ in range(limit):
        if s.is_terminal:
            return
        q = s.current_player
        obs = s.observation(q)
        a = bots[q].act(obs, s.legal_actions())
        key = (s.round, s.turn)
        if (s.phase.value == "play" and key not in seen and a.verb not in ("discard", "reset")
                and not obs["turn_state"]["staged"]):
            yield s.copy(), a
        if s.phase.value == "play":
            seen.add(key)
        s.apply(a)


def positions(count: int) -> list[tuple[Any, Any]]:
    out: list[tuple[Any, Any]] = []
    for rules in ("rummy101", "rummy101(players=2,threshold=increasing)",
                  "rummy101(players=3,button_jokers=2)"):
        for seed in range(12):
            out += list(lay_decisions(rules, seed))
            if len(out) >= count:
                return out[:count]
    return out


def test_planner_turns_apply_in_real_engine_states() -> None:
    """Every planner turn the bot would try is legal step by step in the true position (not
    only in a sampled world) and ends the seat's turn or the round (R101-12)."""
    bot = SearchBot(random.Random(0), playouts=8)
    tried = 0
    for s, _ in positions(30):
        seat = s.current_player
        plans = bot._turn_plans(s.observation(seat))
        assert plans, "the planner always has a turn: at least hold back and discard"
        for plan in plans:
            st = s.copy()
            assert search._apply_checked(st, plan), [str(a) for a in plan]
            assert st.is_terminal or st.current != seat or st.round != s.round
            assert plan[-1].verb == "discard"
            tried += 1
    assert tried >= 60


def test_turn_candidates_differ_from_greedy_and_hold_back() -> None:
    """The candidates include holding back (a turn that lays nothing: a discard only)."""
    bot = SearchBot(random.Random(0), playouts=8)
    hold = 0
    for s, _ in positions(20):
        plans = bot._turn_plans(s.observation(s.current_player))
        hold += any(len(p) == 1 for p in plans)
    assert hold >= 10


class Watched(SearchBot):
    """Records, per turn, the actions played and the whole turn chosen (if any)."""

    def __init__(self, *a: Any, **k: Any) -> None:
        super().__init__(*a, **k)
        self.played: dict[tuple[int, int], list[str]] = {}
        self.chosen: dict[tuple[int, int], list[str]] = {}

    def act(self, observation: Any, legal_actions: Any) -> Any:
        before = self.turns_chosen
        a = super().act(observation, legal_actions)
        assert a in legal_actions
        key = (observation["round"], observation["turn"])
        self.played.setdefault(key, []).append(str(a))
        if self.turns_chosen > before:
            self.chosen[key] = [str(a)] + [str(x) for x in self._plan]
        return a


def play(bot: SearchBot, rules: str, seed: int) -> Any:
    s = new_game(rules, seed, match_rounds=1)
    others = [get_bot("greedy", random.Random(q)) for q in range(s.n)]
    while not s.is_terminal:
        q = s.current_player
        s.apply((bot if q == 0 else others[q]).act(s.observation(q), s.legal_actions()))
    return s


def test_a_chosen_turn_is_played_through() -> None:
    """With ``confidence=0`` (the best mean) planner turns are often chosen; every one is played
    to its discard exactly as planned, and the queue is empty at the end of the turn."""
    chosen = 0
    for seed in range(8):
        bot = Watched(random.Random(seed), playouts=PLAYOUTS, confidence=0.0)
        play(bot, "rummy101", seed)
        for key, plan in bot.chosen.items():
            assert bot.played[key][-len(plan):] == plan
            chosen += 1
        assert bot._plan == [] or bot._plan_turn != (None, None)
        if chosen >= 3:
            break
    assert chosen >= 3


def test_an_illegal_planned_step_falls_back_to_greedy_and_drops_the_queue() -> None:
    s, _ = positions(1)[0]
    seat = s.current_player
    obs = s.observation(seat)
    bot = SearchBot(random.Random(0), playouts=8)
    absent = next(t for t in ("R13", "Y13", "B13", "K13", "R1") if t not in obs["rack"])
    bot._plan = [Action.parse(f"discard {absent}"), Action.parse("discard R12")]
    bot._plan_turn = (obs["round"], obs["turn"])
    legal = s.legal_actions()
    a = bot.act(obs, legal)
    assert a in legal and bot._plan == []
    # a plan left from another turn is never played
    bot._plan, bot._plan_turn = [legal[0]], (obs["round"], obs["turn"] - 1)
    bot.act(obs, legal)
    assert bot._plan == []


def test_same_seed_same_decisions_and_turns_zero_is_the_old_search(monkeypatch: pytest.MonkeyPatch) -> None:
    bots = [f"search:playouts={PLAYOUTS}", "greedy", "greedy", "greedy"]
    a = play_game("rummy101", bots, 3, 5)
    b = play_game("rummy101", bots, 3, 5)
    assert a == b
    one, two = Watched(random.Random(3), playouts=PLAYOUTS), Watched(random.Random(3), playouts=PLAYOUTS)
    play(one, "rummy101", 4)
    play(two, "rummy101", 4)
    assert one.played == two.played and one.turn_searches > 0

    def planned(*_: Any) -> Any:
        raise AssertionError("turns=0 plans no whole turn")

    monkeypatch.setattr(SearchBot, "_turn_plans", planned)
    old = Watched(random.Random(3), playouts=PLAYOUTS, turns=0)
    play(old, "rummy101", 4)
    assert old.turn_searches == 0 and old.decisions > 0


def test_turns_option() -> None:
    assert get_bot("search:turns=0", random.Random(0)).turns == 0
    assert get_bot("search", random.Random(0)).turns == search.DEFAULT_TURNS
    with pytest.raises(Exception, match="turns must be a whole number from 0 to 20"):
        get_bot("search:turns=21")

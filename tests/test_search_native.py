"""The search bot's Rummy 101 rollouts on the native greedy round (issue 12): the Python loop plays
to the first turn boundary where no greedy bot remembers anything, the C++ core
(``rummy101.bots.native_greedy.play_round``) plays the rest of the round. The decisions must be
the ones of the all-Python rollouts: every chosen action and every rollout value is compared with
``RUMMY101_NATIVE_ROUNDS=0`` (the Python loop only) on whole games and seeded positions, after
take candidates (the seat's turn in progress, R101-3/R101-4, finished in Python first) and after
discards (already at the next seat's turn boundary), including rollouts where greedy undoes a
take with ``reset`` (back to the take phase inside the same turn: not a fresh turn), the
``ROLLOUT_STEPS`` cut and the fallback when the core raises.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from rummy101 import available_backends, using_backend
from rummy101.bots import SearchBot, get_bot, search
from rummy101.bots.native_greedy import ENV_VAR, finish_round, play_round, score_round
from rummy101.game import engine_for, new_game
from rummy101.sim import play_game

pytestmark = pytest.mark.skipif("native" not in available_backends(),
                                reason="the native core is not built")


class Recorder:
    """Wraps ``SearchBot._rollout`` and ``search.play_round``: every rollout's value, the phase
    it started in (``take``: after a discard; ``play``: after a take candidate), whether it had
    a ``reset`` and how many native rounds it played."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.rows: list[tuple[str, float]] = []
        self.native: list[tuple[str, bool]] = []   # (start phase, reset in the rollout)
        self.calls = 0
        self.after_reset = 0   # core rounds started right after a reset (inside a turn)
        rollout, play_round = SearchBot._rollout, search.play_round

        def counting(s: Any, *a: Any) -> Any:
            self.calls += 1
            self.after_reset += bool(s.history) and s.history[-1].verb == "reset"
            return play_round(s, *a)

        def recording(bot: SearchBot, st: Any, *a: Any) -> float:
            phase, h, calls = st.phase.value, len(st.history), self.calls
            v = rollout(bot, st, *a)
            self.rows.append((phase, v))
            if self.calls > calls:
                self.native.append((phase, any(x.verb == "reset" for x in st.history[h:])))
            return v

        monkeypatch.setattr(search, "play_round", counting)
        monkeypatch.setattr(SearchBot, "_rollout", recording)


def both_ways(monkeypatch: pytest.MonkeyPatch, run: Any) -> tuple[Any, Recorder]:
    """``run()`` with the Python loop only, then with native rollouts; asserts the same result
    and the same rollout values (exactly, in the same order). Returns the native run's
    result and recorder."""
    with using_backend("native"):
        with monkeypatch.context() as m:
            m.setenv(ENV_VAR, "0")
            slow = Recorder(m)
            expected = run()
            assert slow.calls == 0
        with monkeypatch.context() as m:
            m.delenv(ENV_VAR, raising=False)
            fast = Recorder(m)
            got = run()
    assert len(fast.rows) == len(slow.rows) and fast.rows, "the same rollouts"
    k = next((i for i, (a, b) in enumerate(zip(fast.rows, slow.rows)) if a != b), None)
    assert k is None, f"rollout {k}: native {fast.rows[k]} python {slow.rows[k]}"
    assert got == expected
    assert fast.after_reset == 0, "a reset's take phase is inside the turn: the Python loop plays on"
    return got, fast


GAMES = [
    ("rummy101", ["search:playouts=20", "greedy", "search:playouts=20:objective=margin", "greedy"], 5, 1),
    ("rummy101(players=2,threshold=increasing)", ["search:playouts=20", "greedy"], 3, 0),
    ("rummy101(players=3,button_jokers=1)", ["greedy", "search:playouts=20", "search:playouts=20"], 7, 1),
]


@pytest.mark.parametrize("rules,bots,seed,index", GAMES)
def test_whole_games_play_the_same_actions(monkeypatch: pytest.MonkeyPatch, rules: str,
                                           bots: list[str], seed: int, index: int) -> None:
    """Every action of the game (the full record) and every rollout value the same."""
    rec, fast = both_ways(monkeypatch, lambda: play_game(rules, bots, seed, index, record="full"))
    assert rec.steps > 20
    assert len(fast.native) > len(fast.rows) // 2, "most rollouts end on the core"


def test_a_reset_inside_the_turn_is_not_a_fresh_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rollouts after a take candidate where greedy undoes the take (``reset``, back to the
    take phase of the same turn: ``at_turn_boundary`` holds, but the bot remembers it declined
    the take, or gave its opening plan up, which fresh bots in the core would not) still match,
    and the core round never starts right after the reset (``both_ways`` checks it; in these
    games a fresh bot would draw there too, so only that check sees a rule of "take phase" or
    ``at_turn_boundary`` alone)."""
    _, fast = both_ways(monkeypatch, lambda: play_game(
        "rummy101", ["search:playouts=20", "greedy", "search:playouts=20", "greedy"], 5, 2))
    assert {phase for phase, _ in fast.native} == {"take", "play"}, \
        "native rounds after discards and after take candidates"
    assert sum(reset for _, reset in fast.native) >= 5


def positions(rules: str, seed: int, every: int) -> list[Any]:
    """Decision points of a seeded game (random then greedy play, to reach varied tables):
    take phases and play phases where greedy's next step is a discard."""
    s = new_game(rules, seed, match_rounds=1)
    rng = random.Random(seed)
    bots = [get_bot("greedy", random.Random(seed + q)) for q in range(s.n)]
    rand = get_bot("random", rng)
    out = []
    k = 0
    while not s.is_terminal:
        q = s.current_player
        legal = s.legal_actions()
        a = (rand if k < 12 else bots[q]).act(s.observation(q), legal)
        if k % every == 0 and len(legal) > 1 and (s.phase.value == "take" or a.verb == "discard"):
            out.append(s.copy())
        s.apply(a)
        k += 1
    return out


@pytest.mark.parametrize("rules", ["rummy101", "rummy101(players=2,button_jokers=2)",
                                   "rummy101(players=3,threshold=increasing)"])
def test_seeded_positions_choose_the_same_action(monkeypatch: pytest.MonkeyPatch, rules: str) -> None:
    pos = [p for seed in (1, 2) for p in positions(rules, seed, 5)]
    assert len(pos) >= 6

    def run() -> list[str]:
        out = []
        for i, s in enumerate(pos):
            bot = get_bot("search:playouts=20:confidence=0", random.Random(i))
            q = s.current_player
            out.append(str(bot.act(s.observation(q), s.legal_actions())))
        return out

    _, fast = both_ways(monkeypatch, run)
    assert "take" in {phase for phase, _ in fast.native}


def rollout_starts(each: int) -> list[tuple[Any, int, int]]:
    """(state after a candidate, seat, world seed) from sampled worlds of seeded positions:
    ``each`` after a take-phase candidate (the seat's turn in progress) and ``each`` after a
    discard (the next seat's turn boundary)."""
    out: dict[str, list[tuple[Any, int, int]]] = {"take": [], "play": []}
    for seed in range(4, 20):
        for i, s in enumerate(positions("rummy101", seed, 3)):
            q = s.current_player
            world = engine_for(s.rules).sample_state(s.observation(q), random.Random(i))
            legal = world.legal_actions()
            a = legal[i % len(legal)] if world.phase.value == "take" else \
                next((a for a in legal if a.verb == "discard"), None)
            if a is None:
                continue
            st = world.copy()
            st.apply(a)
            got = out.get(st.phase.value, [])   # not a round that ended with the discard
            if len(got) < each:
                got.append((st, q, 1000 * seed + i))
        if all(len(v) >= each for v in out.values()):
            return out["take"] + out["play"]
    raise AssertionError(f"too few starts: {[len(v) for v in out.values()]}")


def python_steps(st: Any, seat: int, wseed: int) -> int:
    t = st.copy()
    h = len(t.history)
    SearchBot(random.Random(0))._rollout(t, seat, wseed, False, False)
    return len(t.history) - h


def test_the_step_cut_is_where_the_python_loop_puts_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``ROLLOUT_STEPS`` set around a rollout's length L (steps before the core plus the
    core's steps): L - 1 cuts (0.0), L scores, on both paths; a cut before the turn boundary
    never reaches the core."""
    bot = SearchBot(random.Random(0))
    starts = rollout_starts(5)
    scored = 0
    with using_backend("native"):
        calls = []
        real = search.play_round
        monkeypatch.setattr(search, "play_round", lambda s, *a: calls.append(1) or real(s, *a))
        lengths = [python_steps(st, seat, wseed) for st, seat, wseed in starts]
        for (st, seat, wseed), n in zip(starts, lengths):
            for cut in (1, n - 1, n, n + 1):
                monkeypatch.setattr(search, "ROLLOUT_STEPS", cut)
                slow = bot._rollout(st.copy(), seat, wseed, False, False)
                calls.clear()
                fast = bot._rollout(st.copy(), seat, wseed, False, True)
                assert fast == slow, (cut, n, st.phase.value)
                if cut < n:
                    assert fast == 0.0
                scored += cut >= n and fast != 0.0
                if cut == n - 1:
                    assert calls, "the cut decided from the native round's steps"
    assert scored >= 8


def test_score_round_is_the_engine_scoring_the_end_position() -> None:
    """The rollout's light ending (``score_round``: the end position's turn, racks and openings,
    then the engine's R101-13 scoring) gives the round result ``finish_round`` gives (the whole
    end position), in one-round games and in matches (the next round dealt)."""
    starts = [st for st, _, _ in rollout_starts(6) if st.phase.value == "take"]  # after discards
    with using_backend("native"):
        for st in starts:
            for rounds in (1, 3):
                st.match_rounds = rounds
                a, b = st.copy(), st.copy()
                nr = play_round(a)
                deltas = score_round(a, nr)
                finish_round(b, nr)
                assert deltas == b.scores[-1] and a.results == b.results
                assert a.round == b.round == (0 if rounds == 1 else 1)
                if rounds > 1:  # the next round dealt the same
                    assert a.racks == b.racks and a.stock == b.stock and a.current == b.current


def test_a_core_error_plays_on_in_python(monkeypatch: pytest.MonkeyPatch) -> None:
    bot = SearchBot(random.Random(0))
    calls = []

    def broken(s: Any, *a: Any) -> Any:
        calls.append(1)
        raise RuntimeError("the native greedy round did not end")

    with using_backend("native"):
        for st, seat, wseed in rollout_starts(2):
            slow = bot._rollout(st.copy(), seat, wseed, False, False)
            with monkeypatch.context() as m:
                m.setattr(search, "play_round", broken)
                t = st.copy()
                assert bot._rollout(t, seat, wseed, False, True) == slow
            assert len(calls) == 1, "one try, then the Python loop to the end"
            calls.clear()


def test_the_switch(monkeypatch: pytest.MonkeyPatch) -> None:
    """Native rollouts only for greedy rollouts of Rummy 101 on the native backend with
    RUMMY101_NATIVE_ROUNDS not 0; Remi's fast and greedy rollouts never call the core round."""
    calls = []
    real = search.play_round
    monkeypatch.setattr(search, "play_round", lambda s, *a: calls.append(1) or real(s, *a))
    monkeypatch.delenv(ENV_VAR, raising=False)
    for backend, env, rules, spec, used in (
            ("native", None, "rummy101(players=2)", "search:playouts=6", True),
            ("native", "0", "rummy101(players=2)", "search:playouts=6", False),
            ("pure", None, "rummy101(players=2)", "search:playouts=6", False),
            ("native", None, "remi(players=2)", "search:playouts=6:rollout=greedy", False),
            ("native", None, "remi(players=2)", "search:playouts=6", False)):
        calls.clear()
        if env is not None:
            monkeypatch.setenv(ENV_VAR, env)
        with using_backend(backend):
            play_game(rules, [spec, "greedy"], 2, 0)
        monkeypatch.delenv(ENV_VAR, raising=False)
        assert bool(calls) == used, (backend, env, rules, spec)

"""The ``search`` bot: determinized Monte Carlo from the seat's view only (issue 12).

At each decision that matters it samples worlds consistent with the observation — the hidden
racks and the stock dealt at random from the pieces the seat cannot see, everything public kept
(the engine's ``sample_state``: ``rummy101.game.engines.<variant>.world``) — plays every
candidate in every world, plays all seats to the end of the round, and chooses the candidate
with the best mean score for its seat. Every candidate is scored on the same worlds with the
same rollout seeds (common random numbers), so the comparison between candidates is much less
noisy than each mean.

Decisions searched (all variants):

* **take phase**: every legal choice — Rummy 101: draw / take the discard / joker button
  (R101-4, R101-9); classic: stock or discard pile (CR-3); Remi: draw, the last discard, breaking
  the train at each tile the engine allows, the Atu, a tabla declaration (RO-4, RO-9, RO-11);
* **the discard** (when greedy's next step is a discard): the discards with the least deadwood
  left (the exact solver, penalty values: R101-13 / CR-2 / RO-12), up to ``candidates`` of them,
  greedy's choice always among them;
* **whole turns** (Rummy 101, ``turns`` > 0): at the first play step of a turn where greedy
  would lay, open, add or retrieve (R101-7/8/9/11), greedy's plan against up to ``turns`` of the
  hint planner's genuinely different turns from the seat's view (:mod:`rummy101.hint.plan`:
  holding everything back and discarding, an opening holding a pair or meld back or without its
  additions, laying without adding, adding without laying, a joker finish...). A planner turn
  is applied in each world as its whole action sequence, lay steps and the discard (R101-12);
  one that ends where greedy's turn or another candidate ends is dropped, and so is one the
  engine refuses. When a planner turn is chosen the bot plays it through: its remaining actions
  are queued and played on the next calls of the turn, each only if the engine lists it (else
  the queue is dropped and greedy plays the rest of the turn). So lay-down timing — open now or
  hold back, add now or keep the tiles — is searched in Rummy 101; going out is one of greedy's
  or the planner's turns. ``turns=0`` searches the take and the discard only (the ladder rows
  measured before whole turns).

Every other step (laying, adding, retrieving, opening/lay-down after greedy's plan won, and all
of them in Remi and classic) follows the greedy bot, which keeps its plan for the turn; in the
rollouts the seat's own turn in progress is finished by greedy too (the sampled world has the
turn's start from the observation's ``own_turn``, so it offers the real moves, ``reset``
included). Remi positions with a staged lay-down or a pending tile hold no take or discard
decision: greedy decides there. Variants whose engine has no ``sample_state`` are played by
greedy alone.

Rollouts: Rummy 101 plays them with ``greedy`` bots in every seat; Remi and classic with the
fast policies of :mod:`rummy101.bots.rollout` (5-7x the rate of greedy rollouts from the same
positions, ``bench/bench_rollout.py``), which is what keeps a decision under a second there.
A Rummy 101 greedy rollout is played in Python only to its first turn boundary (a new turn
index); the C++ core (:mod:`rummy101.bots.native_greedy`) plays the rest of the round, the same
actions, and the engine scores it: the same values and decisions, ~6x the rate (docs/bots.md;
native backend, ``RUMMY101_NATIVE_ROUNDS=0`` turns it off).

Options (``get_bot("search:playouts=400:candidates=6")``): ``playouts`` rollouts per decision
(spread over the candidates, at least 2 worlds; default per variant, :data:`DEFAULT_PLAYOUTS`,
chosen for well under 1 s of CPU per decision on one core), ``candidates`` discards considered,
``objective`` ``round`` (the seat's score delta of the round) or ``margin`` (that delta minus the
mean of the others'), ``confidence`` how many standard errors of the paired advantage a
candidate needs over greedy's choice to be played instead (default 1.0; 0 = the best mean),
``rollout`` ``auto`` (fast where it exists), ``fast`` or ``greedy``; ``turns`` planner turns
tried beside greedy's at a Rummy 101 lay-down decision (:data:`DEFAULT_TURNS`; 0 = off). The
planner runs without its service time limit (``HINT_SECONDS``), so decisions never depend on the
machine's load; the core's node budget bounds it.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import IllegalAction, RummyError
from ..game import engine_for
from ..game.actions import Action
from ..rules import Rules
from ..tiles import NUM_CODES, Card, Tile
from .base import Bot, BotError, check_act, register_bot
from .greedy import GreedyBot
from .native_greedy import at_turn_boundary, native_available, play_round, score_round
from .rollout import FAST_VARIANTS, policy_for
from .strategy import deadwood, kit_for

__all__ = ["SearchBot"]

_CODE = {str(Tile(c)): c for c in range(NUM_CODES)} | {str(Card(c)): c for c in range(52)}
#: Rollouts per decision by variant when ``playouts`` is not given. CPU per searched decision on
#: one core (docs/bots.md, "Strength ladder"): Rummy 101 ~0.5 s with Python rollouts, ~0.06-0.1 s
#: with native ones, Remi ~0.4 s (max ~0.8 s), classic ~0.16 s (max ~0.3 s).
DEFAULT_PLAYOUTS = {"rummy101": 200, "remi": 200, "classic": 400}
#: Planner turns tried beside greedy's at a Rummy 101 lay-down decision (``turns``; 0: the take
#: and the discard only, as the ladder rows measured before whole turns).
DEFAULT_TURNS = 5
_RULES: dict[str, Rules] = {}
#: A rollout that takes more steps than this is cut (it scores the position as it stands).
ROLLOUT_STEPS = 5_000


class SearchBot(Bot):
    """Determinized Monte Carlo over greedy or fast rollouts (see the module docstring)."""

    name = "search"

    def __init__(self, rng: random.Random | None = None, *, playouts: int | None = None,
                 candidates: int = 6, objective: str = "round", confidence: float = 1.0,
                 rollout: str = "auto", turns: int = DEFAULT_TURNS) -> None:
        super().__init__(rng)
        if playouts is not None and (isinstance(playouts, bool) or not isinstance(playouts, int)
                                     or not 1 <= playouts <= 100_000):
            raise BotError(f"search: playouts must be a whole number from 1 to 100000, got {playouts!r}")
        if rollout not in ("auto", "fast", "greedy"):
            raise BotError(f"search: rollout must be 'auto', 'fast' or 'greedy', got {rollout!r}")
        if isinstance(candidates, bool) or not isinstance(candidates, int) or not 1 <= candidates <= 60:
            raise BotError(f"search: candidates must be a whole number from 1 to 60, got {candidates!r}")
        if objective not in ("round", "margin"):
            raise BotError(f"search: objective must be 'round' or 'margin', got {objective!r}")
        if isinstance(confidence, bool) or not isinstance(confidence, (int, float)) or not 0 <= confidence <= 10:
            raise BotError(f"search: confidence must be a number from 0 to 10, got {confidence!r}")
        if isinstance(turns, bool) or not isinstance(turns, int) or not 0 <= turns <= 20:
            raise BotError(f"search: turns must be a whole number from 0 to 20, got {turns!r}")
        self.playouts = playouts
        self.candidates = candidates
        self.turns = turns
        self.confidence = float(confidence)
        self.objective = objective
        self.rollout = rollout
        self._greedy = GreedyBot(self.rng)
        self.decisions = 0          # searched decisions so far
        self.search_seconds = 0.0   # time spent in them (wall clock)
        self.search_cpu_seconds = 0.0  # CPU time of this process in them (one core)
        self.rollouts = 0           # rounds played to the end in them
        self.turn_searches = 0      # of them, whole-turn decisions (Rummy 101, ``turns``)
        self.turns_chosen = 0       # of those, where a planner turn was played instead of greedy's
        self.turn_candidates = 0    # candidate turns tried in them (greedy's included)
        self._plan: list[Action] = []   # the rest of a chosen whole turn, played step by step
        self._plan_turn: tuple[Any, Any] = (None, None)   # (round, turn) of that plan
        self._played: tuple[Any, Any] = (None, None)      # (round, turn) of the last play step

    def __repr__(self) -> str:
        return (f"SearchBot(playouts={self.playouts}, candidates={self.candidates}, "
                f"objective={self.objective!r}, confidence={self.confidence}, "
                f"turns={self.turns}, rollout={self.rollout!r})")

    def _fast(self, rules: Rules) -> bool:
        """Do the rollouts use the fast policies (:mod:`rummy101.bots.rollout`)?"""
        if self.rollout == "greedy":
            return False
        if self.rollout == "fast" and rules.variant not in FAST_VARIANTS:
            raise BotError(f"search: rollout=fast exists for {', '.join(FAST_VARIANTS)}, not "
                           f"{rules.variant}")
        return rules.variant in FAST_VARIANTS

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[Any]) -> Any:
        check_act(self, observation, legal_actions, reads_view=True)
        turn = (observation.get("round"), observation.get("turn"))
        if self._plan:
            # The rest of a whole turn chosen earlier in this turn: each step is played if the
            # engine lists it; otherwise the plan is dropped and greedy plays on from here.
            step = self._plan.pop(0) if turn == self._plan_turn else None
            found = None if step is None else next((a for a in legal_actions if a == step), None)
            if found is not None:
                self._played = turn
                return found
            self._plan = []
            self._greedy._queue = []   # greedy's plan of this turn was not followed: replan
        choice = self._greedy.act(observation, legal_actions)
        first_play = observation["phase"] == "play" and self._played != turn
        if observation["phase"] == "play":
            self._played = turn
        if len(legal_actions) == 1:
            return choice
        spec = observation["rules"]
        rules = _RULES.get(spec)
        if rules is None:
            rules = _RULES[spec] = Rules.parse(spec)
        sampler = getattr(engine_for(rules), "sample_state", None)
        if sampler is None:
            return choice
        t0, c0 = time.perf_counter(), time.process_time()
        plans: list[list[Action]] | None = None
        if observation["phase"] == "take":
            cands = list(legal_actions)
        elif getattr(choice, "verb", None) == "discard":
            cands = self._discards(rules, observation, legal_actions, choice)
        elif (first_play and self.turns > 0 and rules.variant == "rummy101"
              and getattr(choice, "verb", None) != "reset"
              and not observation["turn_state"].get("staged")):
            plans = self._turn_plans(observation)
            if not plans:
                return choice
            cands = [choice] + [p[0] for p in plans]
        else:
            return choice
        if len(cands) < 2:
            return choice
        if plans is None:
            best = self._search(rules, sampler, observation, cands, choice)
        else:
            best = self._search_turns(rules, sampler, observation, legal_actions, choice, plans)
        self.decisions += 1
        self.search_seconds += time.perf_counter() - t0
        self.search_cpu_seconds += time.process_time() - c0
        return best

    # ---- whole turns (Rummy 101) ---------------------------------------------------------------
    def _turn_plans(self, obs: Mapping[str, Any]) -> list[list[Action]]:
        """The hint planner's turns from the seat's view (``rummy101.hint``), best first, as
        engine actions: lay steps then the discard, up to ``turns`` + 1 of them (one is often
        greedy's own turn, dropped later). Empty when the planner has no answer here."""
        from ..hint import planned_turns, view_from_observation

        try:
            # No wall-clock limit (the service's HINT_SECONDS would make the bot's decisions
            # depend on the machine's load); the core's node budget bounds the planner.
            turns = planned_turns(view_from_observation(dict(obs)), self.turns + 1, seconds=None)
            return [[Action.parse(a) for a in t.actions] for t in turns[:self.turns + 1]]
        except (RummyError, RuntimeError, ValueError, KeyError):
            return []

    def _search_turns(self, rules: Rules, sampler: Any, obs: Mapping[str, Any],
                      legal: Sequence[Any], choice: Any, plans: list[list[Action]]) -> Any:
        """Greedy's turn (``choice``, the rest played by greedy in the rollout) against whole
        planner turns, each applied as its full action sequence in every sampled world; the
        chosen planner turn's remaining actions are queued for the next calls."""
        seat = obs["seat"]
        playouts = self.playouts if self.playouts is not None else DEFAULT_PLAYOUTS.get(rules.variant, 200)
        native = rules.variant == "rummy101" and not self._fast(rules) and native_available()
        self.turn_searches += 1
        wseed = self.rng.getrandbits(48)
        try:
            world = sampler(obs, random.Random(wseed))
        except IllegalAction:
            return choice
        # Keep the planner turns that are legal here and end somewhere other than greedy's turn
        # and each other (same rack, table and discard: the same turn in another order).
        st = world.copy()
        st.apply(choice)
        g = GreedyBot(random.Random(wseed + seat))
        steps = 0
        while (not st.is_terminal and st.current == seat and st.turn == obs["turn"]
               and steps < 200):
            st.apply(g.act(st.observation(seat), st.legal_actions()))
            steps += 1
        seen = {_signature(st, seat)}
        kept: list[list[Action]] = []
        for plan in plans:
            st = world.copy()
            if not _apply_checked(st, plan):
                continue
            sig = _signature(st, seat)
            if sig in seen:
                continue
            seen.add(sig)
            kept.append(plan)
            if len(kept) == self.turns:
                break
        if not kept:
            return choice
        n = 1 + len(kept)
        self.turn_candidates += n
        worlds = max(2, playouts // n)
        values: list[list[float]] = [[0.0] * worlds for _ in range(n)]
        alive = [True] * n
        for w in range(worlds):
            if w:
                wseed = self.rng.getrandbits(48)
                try:
                    world = sampler(obs, random.Random(wseed))
                except IllegalAction:
                    return choice
            for i in range(n):
                if not alive[i]:
                    continue
                st = world.copy()
                if i == 0:
                    st.apply(choice)
                elif not _apply_checked(st, kept[i - 1], check=False):
                    alive[i] = False   # dropped for this decision (never seen: the seat's
                    continue           # options are public, the same in every world)
                values[i][w] = self._rollout(st, seat, wseed, False, native)
                self.rollouts += 1
        best = self._confident_best(values, 0, worlds, alive)
        if best == 0:
            return choice
        plan = kept[best - 1]
        first = next((a for a in legal if a == plan[0]), None)
        if first is None:
            return choice
        self.turns_chosen += 1
        self._plan, self._plan_turn = list(plan[1:]), (obs["round"], obs["turn"])
        return first

    # ---- candidates ----------------------------------------------------------------------------
    def _discards(self, rules: Rules, obs: Mapping[str, Any], legal: Sequence[Any],
                  choice: Any) -> list[Any]:
        """Legal discards ranked by the deadwood they leave (penalty valuation, exact solver);
        greedy's choice first, then the best others, ``candidates`` in all."""
        discards = [a for a in legal if a.verb == "discard"]
        if len(discards) <= self.candidates:
            return discards
        kit = kit_for(rules)
        counts = [0] * NUM_CODES
        for t in obs["rack"]:
            counts[_CODE[t]] += 1
        ranked = []
        for a in discards:
            c = int(a.tiles[0])
            counts[c] -= 1
            ranked.append((deadwood(kit, counts, keep=False), c, a))
            counts[c] += 1
        ranked.sort(key=lambda r: (r[0], r[1]))
        out = [choice] + [a for _, _, a in ranked if a != choice]
        return out[:self.candidates]

    # ---- evaluation ----------------------------------------------------------------------------
    def _search(self, rules: Rules, sampler: Any, obs: Mapping[str, Any], cands: list[Any],
                choice: Any) -> Any:
        seat = obs["seat"]
        playouts = self.playouts if self.playouts is not None else DEFAULT_PLAYOUTS.get(rules.variant, 200)
        fast = self._fast(rules)
        native = not fast and rules.variant == "rummy101" and native_available()
        worlds = max(2, playouts // len(cands))
        values = [[0.0] * worlds for _ in cands]
        for w in range(worlds):
            wseed = self.rng.getrandbits(48)
            try:
                world = sampler(obs, random.Random(wseed))
            except IllegalAction:  # a position the engine does not sample (e.g. Remi's RO-3)
                return choice
            for i, a in enumerate(cands):
                st = world.copy()
                st.apply(a)
                values[i][w] = self._rollout(st, seat, wseed, fast, native)
                self.rollouts += 1
        base = cands.index(choice) if choice in cands else 0
        return cands[self._confident_best(values, base, worlds)]

    def _confident_best(self, values: list[list[float]], base: int, worlds: int,
                        alive: Sequence[bool] | None = None) -> int:
        """The candidate to play: ``base`` (greedy's) unless another's paired advantage over it
        (same worlds, same rollout seeds) exceeds ``confidence`` standard errors, then the one
        with the largest mean advantage. With a few dozen worlds and round scores spread over
        hundreds of points the best sample mean is often noise, and following noise plays worse
        than greedy."""
        best, best_gain = base, 0.0
        for i in range(len(values)):
            if i == base or (alive is not None and not alive[i]):
                continue
            diffs = [values[i][w] - values[base][w] for w in range(worlds)]
            mean = sum(diffs) / worlds
            var = sum((d - mean) ** 2 for d in diffs) / max(1, worlds - 1)
            se = (var / worlds) ** 0.5
            if mean > self.confidence * se and mean > best_gain:
                best, best_gain = i, mean
        return best

    def _rollout(self, st: Any, seat: int, wseed: int, fast: bool, native: bool = False) -> float:
        """Play every seat to the end of the round; the seat's score (objective). The seat's own
        turn in progress is finished by greedy (the plan the bot itself follows); then greedy bots
        or, with ``fast``, the fast rollout policy of the variant play every seat. With
        ``native`` (greedy rollouts of Rummy 101, :func:`native_available`) the greedy round is
        finished in the C++ core from its first turn boundary: the same actions and score."""
        r0 = st.round
        steps = 0
        if fast:
            turn = st.turn
            g = GreedyBot(random.Random(wseed + seat))
            while (not st.is_terminal and st.round == r0 and st.turn == turn and st.current == seat
                   and steps < ROLLOUT_STEPS):
                st.apply(g.act(st.observation(seat), st.legal_actions()))
                steps += 1
            pol = policy_for(st.rules.variant, random.Random(wseed))
            while not st.is_terminal and st.round == r0 and steps < ROLLOUT_STEPS:
                a = pol.act(st)
                if st._legal is None:   # a step known legal without listing all (rollout.py)
                    st._legal = [a]
                st.apply(a)
                steps += 1
        else:
            bots: dict[int, GreedyBot] = {}   # made when a seat first acts (seat q: wseed + q)
            # Issue 12: with ``native`` the round goes to the C++ core at the first turn
            # boundary where no bot remembers anything (native_greedy.play_round plays fresh
            # greedy bots, the same actions). Only a turn index other than that of the last
            # Python step says so: a ``reset`` goes back to the take phase inside the same
            # turn, and the bot then remembers that it declined the take.
            acted = -1 if native else None   # the turn of the last Python step (-1: none yet)
            while not st.is_terminal and st.round == r0 and steps < ROLLOUT_STEPS:
                if acted is not None and st.turn != acted and at_turn_boundary(st):
                    try:
                        nr = play_round(st)
                    except (RuntimeError, ValueError):  # the core's (WorkBudgetExceeded too)
                        acted = None         # the Python loop plays the rest, as play_game
                    else:
                        if steps + nr.steps > ROLLOUT_STEPS:
                            return 0.0       # the Python loop would cut it here (below)
                        score_round(st, nr)  # scored by the engine, as the last apply does
                        break
                q = st.current_player
                bot = bots.get(q)
                if bot is None:
                    bot = bots[q] = GreedyBot(random.Random(wseed + q))
                if acted is not None:
                    acted = st.turn
                st.apply(bot.act(st.observation(q), st.legal_actions()))
                steps += 1
        if len(st.scores) <= r0:
            return 0.0  # cut: the round did not end
        deltas = st.scores[r0]
        if self.objective == "round":
            return float(deltas[seat])
        others = [d for q, d in enumerate(deltas) if q != seat]
        return float(deltas[seat] - sum(others) / len(others))


def _apply_checked(st: Any, plan: Sequence[Action], check: bool = True) -> bool:
    """Apply a whole turn to ``st``; False (``st`` then half-played) when a step is refused.
    With ``check`` every step must also be in the listed legal actions (the engine's own list,
    not only what ``apply`` accepts)."""
    try:
        for a in plan:
            if check and a not in st.legal_actions():
                return False
            st.apply(a)
    except RummyError:
        return False
    return True


def _signature(st: Any, seat: int) -> tuple[Any, ...]:
    """Where a turn of ``seat`` ended: its rack, the table and its last discard."""
    o = st.observation(seat)
    return (tuple(sorted(o["rack"])), tuple(tuple(m["tiles"]) for m in o["table"]),
            tuple(o["discards"][seat][-1:]), st.current == seat, st.is_terminal)


def _factory(rng: random.Random, **options: Any) -> SearchBot:
    return SearchBot(rng, **options)


register_bot(SearchBot.name, _factory, options={"playouts": int, "candidates": int, "objective": str,
                                                 "confidence": float, "rollout": str,
                                                 "turns": int})

"""One match behind an RL environment: the state, the action codec, the observation encoder,
rewards, illegal indices and truncation. The PettingZoo and Gymnasium classes are thin shells
around it (needs numpy only, so it works without the ``rl`` extra).

>>> s = Session("rummy101(players=2)")
>>> s.new(seed=3)
>>> obs = s.observe(s.state.current_player)
>>> obs["observation"].shape, int(obs["action_mask"].sum()) == len(s.state.legal_actions())
((4009,), True)
>>> rewards = s.step(int(obs["action_mask"].nonzero()[0][0]))
>>> s.steps, rewards
(1, [0.0, 0.0])
"""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np

from .._validate import whole_number
from ..errors import IllegalAction, RulesError
from ..game import Action, State, new_game
from ..rules import Rules
from .actions import codec_for
from .observe import ObservationEncoder

__all__ = ["ILLEGAL_MODES", "NO_GAME_YET", "OPTIONS", "REWARD_MODES", "IllegalActionIndex", "NotDealt", "OpponentFailed",
           "Session", "check_options"]

#: ``reward=``: ``"round"`` gives each seat its score delta when a round ends (R101-13, RO-12,
#: CR-6); ``"match"`` gives the final standings once, when the match ends.
REWARD_MODES = ("round", "match")
#: ``illegal=``: what an index outside the mask does. ``"lose"`` ends the episode, the offender
#: gets ``illegal_reward`` and the others 0 (PettingZoo's TerminateIllegalWrapper convention);
#: ``"random"`` plays a uniformly random legal action instead (from the env's seeded generator)
#: and adds ``illegal_reward`` to the offender; ``"raise"`` raises :class:`IllegalActionIndex`.
ILLEGAL_MODES = ("lose", "random", "raise")


class IllegalActionIndex(IllegalAction):
    """An action index the mask does not allow (``illegal="raise"``)."""


def _finite(name: str, value: Any) -> float:
    """A reward option as a finite float (nan or inf would make every reward nan or inf)."""
    try:
        x = float(value)
    except (TypeError, ValueError):
        x = math.nan
    if isinstance(value, (bool, str)) or not math.isfinite(x):
        raise RulesError(f"{name} must be a finite number, got {value!r}")
    return x


def _seed(seed: Any) -> int:
    """A reset's seed as an int >= 0: any integer (numpy's too; ``random.Random`` refuses
    numpy's). A negative seed is refused, as Gymnasium refuses it: ``random.Random(-s)`` is
    ``random.Random(s)``, so seed -s would replay the later resets of seed s. A float or a
    string is refused rather than read two ways (the deal ``int(1.5)``, the generator 1.5)."""
    value = whole_number(seed)
    if value is None or value < 0:
        raise RulesError(f"seed must be a whole number >= 0, got {type(seed).__name__} {seed!r}"
                         + (" (random.Random(-s) is random.Random(s): a negative seed would "
                            "repeat the later resets of its positive twin)"
                            if value is not None else ""))
    return value


#: what reading an environment's ``game`` before its first ``reset()`` raises (Gymnasium's
#: ``ResetNeeded``, with this message; ``gym_env`` and ``env`` alike)
NO_GAME_YET = ("call reset() before reading game: no match is dealt yet (reset(seed=...) deals a "
               "reproducible one); env.rules gives the rule set before it")


class NotDealt(RuntimeError):
    """A :class:`Session`'s ``step``, ``play``, ``observe``, ``mask`` or ``render`` before its
    first ``new()``: the session holds a placeholder game until then (``new_game(rules, 0)``,
    for ``state.rules`` and the like), which they played as if it were the match. Assigning
    ``session.state`` deals too (the environments raise Gymnasium's ``ResetNeeded`` instead,
    before they reach the session)."""


class OpponentFailed(RuntimeError):
    """A bot playing another seat of the Gymnasium environment (``gym_env``) raised or answered
    an action the engine refused. The message names the seat, the bot and the step; the agent's
    actions were played. The match cannot go on: ``reset()`` deals a new one (``step`` says
    so)."""


#: the keyword options of :class:`Session` (the environments' options besides render_mode)
OPTIONS = ("match_rounds", "reward", "reward_scale", "illegal", "illegal_reward", "table_slots",
           "max_cycles")


def check_options(options: dict[str, Any], where: str, also: tuple[str, ...] = ()) -> None:
    """Refuse an option no environment has, naming the ones there are (``env("classic",
    rewards="match")`` said ``Session.__init__() got an unexpected keyword argument``, a class
    the user never called)."""
    unknown = [k for k in options if k not in OPTIONS]
    if unknown:
        raise TypeError(f"{where}: unknown option {unknown[0]!r}; the options: "
                        f"{', '.join((*also, *OPTIONS))}, render_mode (docs/rl.md, 'Rewards and "
                        f"options')")


class Session:
    """A match with the RL options (module docstring of :mod:`rummy101.rl` lists them)."""

    def __init__(self, rules: str | Rules = "rummy101", *, match_rounds: int | None = None,
                 reward: str = "round", reward_scale: float = 1.0, illegal: str = "lose",
                 illegal_reward: float = -1.0, table_slots: int | None = None,
                 max_cycles: int | None = None) -> None:
        self.rules = Rules.parse(rules)
        if reward not in REWARD_MODES:
            raise RulesError(f"reward must be one of {', '.join(REWARD_MODES)}, got {reward!r}")
        if illegal not in ILLEGAL_MODES:
            raise RulesError(f"illegal must be one of {', '.join(ILLEGAL_MODES)}, got {illegal!r}")
        cycles = None
        if max_cycles is not None:
            cycles = whole_number(max_cycles)
            if cycles is None or cycles < 1:  # int() would read 2.5 as 2 and "3" as 3
                raise RulesError(f"max_cycles must be None or a whole number >= 1, got "
                                 f"{max_cycles!r}")
        self.match_rounds = match_rounds
        self.reward = reward
        self.reward_scale = _finite("reward_scale", reward_scale)
        self.illegal = illegal
        self.illegal_reward = _finite("illegal_reward", illegal_reward)
        self.max_cycles = cycles
        self.codec = codec_for(self.rules, table_slots)
        self.encoder = ObservationEncoder(self.rules, self.codec.table_slots)
        self.n = self.rules.players
        self.rng = random.Random()
        # a placeholder until new() (or an assigned state) deals the match: the calls that play
        # or observe refuse it (NotDealt); it answers state.rules, done and current
        self.state: State = new_game(self.rules, 0, match_rounds=match_rounds)
        self._placeholder: State | None = self.state
        self.steps = 0
        self.truncated = False
        self.ended_illegal = False
        self.last_illegal = False  # the last step's index was outside the mask
        self._idx: list[int] | None = None  # the legal indices of the position (the mask's 1s)
        # the engine's legal actions of the position when _idx is their indices one for one
        # (every one has an index): step plays the engine's own object of the index chosen
        self._acts: list[Action] | None = None
        self._mask: np.ndarray[Any, Any] | None = None  # mask()'s array, made when asked for
        self._zero_mask = np.zeros(self.codec.n, dtype=np.int8)
        self._view_of: Any = None  # the engine whose encoder_observation _view is
        self._view: Any = None

    # ---- the match ----------------------------------------------------------------------------------
    def new(self, seed: int | None = None) -> None:
        """Start a new match. ``seed`` given: the deal is ``new_game(rules, seed)`` and the env's
        generator restarts from it; ``None``: the next seed comes from the env's generator."""
        if seed is not None:
            game_seed = _seed(seed)
            self.rng = random.Random(game_seed)
        else:
            game_seed = self.rng.getrandbits(63)
        self.state = new_game(self.rules, game_seed, match_rounds=self.match_rounds)
        self._placeholder = None  # (not kept in memory or in a pickle once a match is dealt)
        self.steps = 0
        self.truncated = False
        self.ended_illegal = False
        self.last_illegal = False
        self._changed()

    @property
    def done(self) -> bool:
        """The match is over, truncated, or ended by an illegal index."""
        return self.state.is_terminal or self.truncated or self.ended_illegal

    @property
    def current(self) -> int:
        return self.state.current_player

    def _not_dealt(self, call: str) -> NotDealt:
        return NotDealt(f"Session.{call} before new(): no match is dealt yet; call new() first "
                        f"(new(seed=...) deals a reproducible one)")

    def _changed(self) -> None:
        self._idx = None
        self._acts = None
        self._mask = None

    # ---- observing ------------------------------------------------------------------------------------
    def mask(self) -> np.ndarray[Any, Any]:
        """The mask of the seat to move (the env's own array: :meth:`observe` hands out new ones)."""
        if self._mask is None:
            idx = self._legal_indices()
            self._mask = self._new_mask(idx) if idx else self._zero_mask
        return self._mask

    def _legal_indices(self) -> list[int]:
        """The indices of the legal actions of the seat to move (none once the match is done),
        kept until the position changes: what the mask sets and ``step`` accepts."""
        idx = self._idx
        if idx is None:
            if self.done:
                idx = []
            else:
                if self.state is self._placeholder:  # (was the placeholder game's mask)
                    raise self._not_dealt("mask()")
                # (the state's cached list, read only: legal_actions() would copy it)
                legal = self.state.cached_legal()
                idx = self.codec.indices(legal)
                if len(idx) == len(legal):
                    self._acts = legal
                if not idx:  # (not m.any(): numpy's any() cost ~5% of a classic step)
                    raise AssertionError(f"no legal action of {self.state!r} has an index; raise "
                                         "table_slots")  # never seen: a discard or reset is always mapped
            self._idx = idx
        return idx

    def _new_mask(self, idx: list[int]) -> np.ndarray[Any, Any]:
        m = np.zeros(self.codec.n, dtype=np.int8)
        if idx:
            m[np.fromiter(idx, np.intp, len(idx))] = 1  # (a list index converts slower)
        return m

    def observe(self, seat: int) -> dict[str, np.ndarray[Any, Any]]:
        """``{"observation": float32 array, "action_mask": int8 array}`` of a seat: the array
        from ``state.observation(seat)`` only, the mask all zeros unless the seat is to move.
        Both arrays are the caller's own (new at every call): an agent that edits them in place
        changes neither the env's legal actions nor what the next ``observe`` of this step
        returns. A seat is a whole number, numpy's included.

        The array is encoded at every call, not kept: the environments' loops observe a seat
        once a step (``last()``, the parallel form's every agent, ``gym_env``'s agent), and the
        copy of a kept array, handed out instead of the array itself, cost more in their steps
        (Remi's 9,563 floats) than a second call's encoding where a caller observes twice."""
        if type(seat) is not int or not 0 <= seat < self.n:  # (a plain int: no more checks)
            number = whole_number(seat)
            if number is None or not 0 <= number < self.n:
                # (a list was "unhashable type: 'list'", and 1.0 or True read seat 1's cached
                # arrays when it had been observed, but raised when it had not)
                raise IllegalAction(f"seat {seat!r:.40} does not exist: seats are 0..{self.n - 1}")
            seat = number
        s = self.state
        if s is self._placeholder:  # (was the placeholder game's observation)
            raise self._not_dealt("observe()")
        # (the engine's encoder_observation: the observation's keys the encoder reads, the same
        # values, without the ones it does not read, such as the mover's own_turn)
        eng = s.engine
        if eng is not self._view_of:
            self._view_of = eng
            self._view = getattr(eng, "encoder_observation", None)
        view = self._view
        x = self.encoder.encode(view(s, seat) if view is not None else s.observation(seat))
        return {"observation": x, "action_mask": self._mask_for(seat)}

    def _mask_for(self, seat: int) -> np.ndarray[Any, Any]:
        """A new mask array of a seat (a whole number in range): the legal indices' 1s for the
        seat to move, zeros for the others. New at every call, made from the legal indices
        (``step`` checks an index against those: the caller may edit it); a copy of an array
        kept besides them cost another pass over the 18,156 bytes of Rummy 101's space (15,363
        Remi's) at every step."""
        if seat == self.state.current and not self.done:
            return self._new_mask(self._legal_indices())
        return np.zeros(self.codec.n, np.int8)

    # ---- acting --------------------------------------------------------------------------------------
    def step(self, index: Any) -> list[float]:
        """Play the action of ``index`` for the seat to move; return every seat's reward."""
        if self.done:
            raise IllegalActionIndex("the match is over; reset the environment")
        s = self.state
        if s is self._placeholder:  # (was the placeholder seed-0 game, played as the match)
            raise self._not_dealt("step()")
        seat = s.current
        i = index if type(index) is int else self._index(index)
        idx = self._legal_indices()
        rewards = [0.0] * self.n
        self.last_illegal = False
        if not (0 <= i < self.codec.n and i in idx):
            what = f"{self.codec.action(i)}" if 0 <= i < self.codec.n else "outside the space"
            legal = sorted(set(idx))  # (the mask's 1s in order, as np.flatnonzero gave them)
            if self.illegal == "raise":
                # ("2 indices are (the action mask)" said no more)
                shown = ", ".join(f"{j} ({self.codec.action(int(j))})" for j in legal[:5])
                raise IllegalActionIndex(f"action index {i} ({what}) is not legal for seat {seat}; "
                                         f"{len(legal)} indices are legal now (the action mask): "
                                         f"{shown}{', ...' if len(legal) > 5 else ''}")
            rewards[seat] += self.illegal_reward
            self.last_illegal = True
            if self.illegal == "lose":
                self.ended_illegal = True
                self._changed()
                return rewards
            i = self.rng.choice(legal)
        # The engine's own object of the action when the legal actions all have an index (the
        # same action as the codec's, equal by value): an engine that checks an action against
        # its list finds it there by identity (Remi's apply) instead of comparing texts.
        acts = self._acts
        if acts is not None:
            return self._play(acts[idx.index(i)], rewards)
        return self._play(self.codec.actions[i], rewards)  # (0 <= i < n: checked above)

    def _index(self, index: Any) -> int:
        """``index`` as an int: any integer (numpy's too, a 0-d integer array). Anything else is
        refused whatever ``illegal`` says: ``int()`` would truncate 2.7 into the action of index
        2 (an action the agent never chose) and read "3" as 3; None is only for agents that are
        done (PettingZoo's ``env.step(None)``)."""
        i = whole_number(index)
        if i is None:
            why = ("; None is only for an agent that is done (terminated or truncated)"
                   if index is None else "")
            raise IllegalActionIndex(
                f"action {index!r} ({type(index).__name__}) is no action index: give a whole "
                f"number 0..{self.codec.n - 1}, an index of the action mask{why}")
        return i

    def play(self, action: Action) -> list[float]:
        """Play an action given as an :class:`Action` (a bot's, between the agent's steps: it
        needs no index); return every seat's reward."""
        if self.done:
            raise IllegalActionIndex("the match is over; reset the environment")
        if self.state is self._placeholder:
            raise self._not_dealt("play()")
        self.last_illegal = False
        return self._play(action, [0.0] * self.n)

    def _play(self, action: Action, rewards: list[float]) -> list[float]:
        s = self.state
        rounds = len(s.scores)
        s.apply(action)
        self.steps += 1
        if self.reward == "round":
            for row in (s.scores[rounds:] if len(s.scores) > rounds else ()):
                for q in range(self.n):
                    rewards[q] += row[q] * self.reward_scale
        elif s.is_terminal:
            for q in range(self.n):
                rewards[q] += s.totals[q] * self.reward_scale
        if self.max_cycles is not None and self.steps >= self.max_cycles and not s.is_terminal:
            self.truncated = True
        self._changed()
        return rewards

    def render(self) -> str:
        """The whole position (every rack: for people watching, not for agents)."""
        if self.state is self._placeholder:
            raise self._not_dealt("render()")
        return str(self.state)

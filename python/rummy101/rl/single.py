"""The Gymnasium single-agent environment (``rummy101.rl.gym_env``): one seat is the agent, the
other seats are played by the project's bots (``rummy101.bots``) between the agent's steps.
Needs the ``rl`` extra.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np

from .._validate import whole_number
from ..bots import Bot, BotError, get_bot
from ..errors import RulesError
from ..game.actions import last_actions
from ..rules import Rules
from ._extra import missing_extra
from .session import NO_GAME_YET, OpponentFailed, Session, _seed, check_options

try:
    import gymnasium
    from gymnasium import spaces
except ImportError as exc:  # the rl extra is not installed
    raise missing_extra(exc) from exc

__all__ = ["OPPONENT_STEPS", "RummyGym"]

#: steps the other seats may play in a row before the agent's turn comes: more means a bot
#: loops (one that lays melds and takes them back with reset for ever, docs/bots.md), and
#: ``step`` raises :class:`OpponentFailed` instead of never returning (as rummy101.sim stops a
#: round at its MAX_STEPS, the same 200,000)
OPPONENT_STEPS = 200_000


def _episode_over(how: str) -> str:
    """The message of a step after the episode ended (the AEC env's ``_episode_over``: the
    Gymnasium convention, an ended episode needs a reset; Gymnasium's OrderEnforcing only checks
    the first one)."""
    return f"step(): the episode is over (it {how}); call reset() for a new one"


class RummyGym(gymnasium.Env[dict[str, Any], Any]):
    """A match against bots (options: :mod:`rummy101.rl`). ``opponents`` is a bot name for
    every other seat, or one name (or bot object) per other seat in seat order; bots named
    here are seeded from the env's generator at every reset. ``variant`` (set by the registered
    Gymnasium ids) refuses rules of another variant, as the versioned modules do. An opponent
    that raises or answers an action the engine refuses raises
    :class:`~rummy101.rl.OpponentFailed` (its seat and bot named); then ``reset()``."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 4}  # noqa: RUF012

    def __init__(self, rules: str | Rules = "rummy101", opponents: str | Sequence[str | Bot] = "greedy",
                 seat: int = 0, *, render_mode: str | None = None, variant: str | None = None,
                 **options: Any) -> None:
        check_options(options, "rummy101.rl.gym_env", also=("opponents", "seat"))
        r = Rules.parse(rules)
        if variant is not None and r.variant != variant:
            raise RulesError(f"rummy101's Gymnasium id for {variant} plays {variant}, not "
                             f"{r.variant} (rules {str(r)!r}); rules= is for {variant}'s options")
        self.session = ses = Session(r, **options)
        n = ses.n
        number = whole_number(seat)  # numpy's integers too (was "seat must be 0..1, got np.int64(1)")
        if number is None or not 0 <= number < n:
            raise RulesError(f"seat must be 0..{n - 1}, got {seat!r}")
        self.seat = number
        if not isinstance(opponents, str) and not (isinstance(opponents, Sequence)
                                                    and not isinstance(opponents, bytes)):
            raise RulesError(f"opponents must be a bot name or a list of bot names or bot "
                             f"objects, one per other seat, got {type(opponents).__name__} "
                             f"{opponents!r:.40}")  # (was "'int' object is not iterable")
        others = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(others) != n - 1:
            raise RulesError(f"opponents: {n - 1} bot(s) needed (one per other seat), got {len(others)}")
        for q, o in zip([q for q in range(n) if q != seat], others):
            if isinstance(o, str):  # fail at construction, not at the first reset
                try:
                    get_bot(o, random.Random(0))
                except BotError:  # a name that does not resolve: it says why
                    raise
                except Exception as exc:  # the bot's own constructor (was its bare exception)
                    raise BotError(f"opponent of seat {q} ({o!r}): making it with a "
                                   f"random.Random failed: {type(exc).__name__}: {exc}") from exc
            elif not callable(getattr(o, "act", None)):  # (was an AttributeError mid-episode)
                raise RulesError(f"opponent {o!r:.40} (of type {type(o).__name__}) is not a bot "
                                 f"name or a bot object (one with an act(observation, "
                                 f"legal_actions) method)")
        self._opponent_specs = others
        self._bots: dict[int, Any] = {}  # filled by reset(): none before the first one
        # why step() cannot play, a ResetNeeded's message ("" once a reset dealt a match that
        # goes on): no match yet, an opponent failed, or the episode is over (one check a step)
        self._stop = "call reset() before step(): no match is dealt yet"
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, got {render_mode!r}")
        self.render_mode = render_mode
        enc = ses.encoder
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(enc.low, enc.high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(ses.codec.n,), dtype=np.int8),
        })
        self.action_space = spaces.Discrete(ses.codec.n)

    @property
    def codec(self) -> Any:
        return self.session.codec

    @property
    def rules(self) -> Rules:
        """The rule set the env plays (readable before the first ``reset()``, unlike ``game``)."""
        return self.session.rules

    @property
    def game(self) -> Any:
        """The :class:`~rummy101.game.State` being played (full information: for tools).
        Before the first ``reset()`` there is none: Gymnasium's ``ResetNeeded``, as ``step``
        raises (it was a placeholder game of seed 0, read as if it were the match); the rule
        set is ``rules``."""
        if not self._bots:
            raise gymnasium.error.ResetNeeded(NO_GAME_YET)
        return self.session.state

    def action_masks(self) -> np.ndarray[Any, Any]:
        """The agent's mask as booleans (the method sb3-contrib's MaskablePPO calls)."""
        if not self._bots:  # (was the placeholder game's mask, legal indices of no match)
            raise gymnasium.error.ResetNeeded("call reset() before action_masks(): no match is "
                                              "dealt yet")
        # (the mask alone: observe() would encode the observation too, at every call)
        return self.session._mask_for(self.seat).astype(bool)

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        if seed is not None:  # the Session's reading of a seed: numpy's integers are whole
            seed = _seed(seed)  # numbers (Gymnasium's np_random refused them), a float a RulesError
        super().reset(seed=seed)
        ses = self.session
        ses.new(seed)
        bots: dict[int, Any] = {}
        others = [q for q in range(ses.n) if q != self.seat]
        for q, spec in zip(others, self._opponent_specs, strict=True):
            bots[q] = get_bot(spec, random.Random(ses.rng.getrandbits(63))) if isinstance(spec, str) else spec
        self._bots = bots
        self._stop = ""
        reward = self._opponents()
        if ses.done:  # the bots ended the match before the agent's first move
            self._stop = _episode_over("truncated" if ses.truncated else "terminated")
        if ses.truncated:  # (was an observation with no legal index, then step's "the match is over")
            raise RulesError(f"max_cycles={ses.max_cycles} ended the match before seat {self.seat}'s "
                             f"first move: the other seats played {ses.steps} game steps (max_cycles "
                             f"counts every seat's steps); raise max_cycles")
        info = {"opponent_reward": reward} if reward else {}
        return self._obs(), info

    def _obs(self) -> dict[str, Any]:
        got = self.session.observe(self.seat)
        return {"observation": got["observation"], "action_mask": got["action_mask"]}

    def _opponents(self) -> float:
        """Let the bots play until the agent is to move or the match ends; the agent's rewards."""
        ses = self.session
        total = 0.0
        played = 0
        while not ses.done and ses.current != self.seat:
            s = ses.state
            q = s.current_player
            bot = self._bots[q]
            try:
                if played >= OPPONENT_STEPS:
                    last = last_actions(s.history)
                    raise RuntimeError(f"the other seats played {played} steps in a row without "
                                       f"the agent's turn coming: a bot loops; the last "
                                       f"actions: {last}")
                total += ses.play(bot.act(s.observation(q), s.legal_actions()))[self.seat]
                played += 1
            except Exception as exc:
                # the bot's exception, or the engine refusing its action, raised as they were
                # read as if the agent's action had been refused (an IllegalAction from step)
                spec = self._opponent_specs[q - (q > self.seat)]
                name = spec if isinstance(spec, str) else getattr(spec, "name", type(spec).__name__)
                failed = (f"the opponent bot of seat {q} ({name}) failed at game step "
                          f"{ses.steps}: {type(exc).__name__}: {exc}")
                # the seat to move is the failed bot's: an index would play for it
                self._stop = f"call reset(): {failed}"
                raise OpponentFailed(f"{failed}; the agent's actions were played, the match "
                                     f"cannot go on: call reset()") from exc
        return total

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        if self._stop:  # before the first reset, after an opponent failed or the episode ended
            raise gymnasium.error.ResetNeeded(self._stop)  # (an ended one's was IllegalActionIndex)
        ses = self.session
        reward = ses.step(action)[self.seat]
        info: dict[str, Any] = {"illegal_action": True} if ses.last_illegal else {}
        reward += self._opponents()
        if self.render_mode == "human":
            self.render()
        terminated = ses.state.is_terminal or ses.ended_illegal
        truncated = ses.truncated and not terminated
        if terminated or truncated:
            self._stop = _episode_over("terminated" if terminated else "truncated")
        return self._obs(), reward, terminated, truncated, info

    def render(self) -> str | None:
        if not self._bots:  # (was the placeholder game, drawn as if it were being played)
            raise gymnasium.error.ResetNeeded("call reset() before render(): no match is dealt yet")
        if self.render_mode is None:
            return None
        text = self.session.render()
        if self.render_mode == "human":
            print(text)
            return None
        return text

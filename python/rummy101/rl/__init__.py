"""Reinforcement-learning environments (issue 13; docs/rl.md): a PettingZoo AEC environment
:func:`env`, its parallel form :func:`parallel_env` and a Gymnasium single-agent environment
:func:`gym_env` against the project's bots, for every playable variant; versioned modules
``rummy101.rl.rummy101_v0``, ``remi_v0`` and ``classic_v0`` (every engine plays; ``tests/test_rl.py``).

The environments need the ``rl`` extra (``pip install 'rummy101[rl]'``: pettingzoo, gymnasium);
the action codec (:mod:`.actions`), the observation encoder (:mod:`.observe`) and the match
behind both (:mod:`.session`) need numpy only.

Options (keywords of :func:`env`, :func:`parallel_env` and :func:`gym_env`):

* ``match_rounds`` — rounds of the match (default: the variant's, ``new_game``);
* ``reward`` — ``"round"`` (default): each seat's score delta when a round ends; ``"match"``: the
  final standings once, at the end of the match (the same sum over a match played to its end;
  a truncated episode pays it nothing);
* ``reward_scale`` — multiplies every score reward (default 1.0);
* ``illegal`` — an index outside the mask: ``"lose"`` (default: the episode ends, the offender
  gets ``illegal_reward``, the others 0), ``"random"`` (a random legal action is played and the
  offender gets ``illegal_reward``), ``"raise"`` (:class:`~.session.IllegalActionIndex`);
* ``illegal_reward`` — default -1.0;
* ``table_slots`` — table melds that ``add``/``retrieve`` indices and the observation cover
  (default :data:`~.actions.DEFAULT_TABLE_SLOTS`);
* ``max_cycles`` — truncate after this many game steps (default: none);
* ``render_mode`` — ``"ansi"`` or ``"human"`` (the whole position, every rack: for people).

With gymnasium installed, importing this package registers the Gymnasium ids
``rummy101/Rummy101-v0``, ``rummy101/Remi-v0`` and ``rummy101/Classic-v0``
(``gymnasium.make("rummy101/Rummy101-v0", opponents="random")``; ``rules=`` for rule options).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..rules import Rules
from .actions import DEFAULT_TABLE_SLOTS, ActionCodec
from .observe import ObservationEncoder
from .session import (
    ILLEGAL_MODES,
    REWARD_MODES,
    IllegalActionIndex,
    NotDealt,
    OpponentFailed,
    Session,
)

__all__ = ["DEFAULT_TABLE_SLOTS", "ILLEGAL_MODES", "REWARD_MODES", "ActionCodec",
           "IllegalActionIndex", "NotDealt", "ObservationEncoder", "OpponentFailed", "Session", "env",
           "gym_env", "parallel_env"]


def env(rules: str | Rules = "rummy101", **options: Any) -> Any:
    """The PettingZoo AEC environment of a rule set (``"rummy101(players=2)"``, ...)."""
    from .aec import env as _env

    return _env(rules, **options)


def parallel_env(rules: str | Rules = "rummy101", **options: Any) -> Any:
    """The PettingZoo parallel form: one parallel step is one game step (the seat to move acts;
    the other seats' actions are ignored)."""
    from .aec import parallel_env as _parallel_env

    return _parallel_env(rules, **options)


def gym_env(rules: str | Rules = "rummy101", opponents: str | Sequence[Any] = "greedy", seat: int = 0,
            **options: Any) -> Any:
    """The Gymnasium environment: the agent plays ``seat``, bots (``rummy101.bots`` names or
    objects) play the other seats."""
    from .single import RummyGym

    return RummyGym(rules, opponents, seat, **options)


def _register() -> None:
    try:
        import gymnasium
    except ImportError:  # the rl extra is not installed
        return
    for name, variant in (("Rummy101", "rummy101"), ("Remi", "remi"), ("Classic", "classic")):
        env_id = f"rummy101/{name}-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point="rummy101.rl.single:RummyGym",
                               kwargs={"rules": variant, "variant": variant})


_register()

"""The functions of a versioned environment module (``rummy101_v0``, ...), bound to a variant."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..errors import RulesError
from ..rules import Rules

__all__ = ["make"]


def make(variant: str) -> tuple[Callable[..., Any], Callable[..., Any], Callable[..., Any], Callable[..., Any]]:
    """``(env, parallel_env, raw_env, gym_env)`` for one variant; ``rules`` must be of it."""

    def rules_of(rules: str | Rules | None) -> Rules:
        r = Rules.parse(variant if rules is None else rules)
        if r.variant != variant:
            raise RulesError(f"{variant}_v0 plays {variant}, not {r.variant} (rules {str(r)!r})")
        return r

    def env(rules: str | Rules | None = None, **options: Any) -> Any:
        from .aec import env as _env

        return _env(rules_of(rules), **options)

    def parallel_env(rules: str | Rules | None = None, **options: Any) -> Any:
        from .aec import parallel_env as _parallel_env

        return _parallel_env(rules_of(rules), **options)

    def raw_env(rules: str | Rules | None = None, **options: Any) -> Any:
        from .aec import RummyAEC

        return RummyAEC(rules_of(rules), **options)

    def gym_env(opponents: str | Sequence[Any] = "greedy", seat: int = 0,
                rules: str | Rules | None = None, **options: Any) -> Any:
        from .single import RummyGym

        if isinstance(opponents, str) and opponents.partition("(")[0].strip().lower() == variant:
            # rl.gym_env takes the rules first, this one the opponents: a rule set here was
            # "unknown bot 'classic(players=2)'"
            raise RulesError(f"{variant}_v0.gym_env takes the opponents first; {opponents!r} is "
                             f"a rule set: write gym_env(rules={opponents!r}, opponents=...)")
        return RummyGym(rules_of(rules), opponents, seat, **options)

    for f in (env, parallel_env, raw_env, gym_env):
        f.__doc__ = f"{f.__name__} of {variant} (rummy101.rl); rules default to {variant!r}."
    return env, parallel_env, raw_env, gym_env

"""What a variant's engine provides, and how the game surface finds it.

A variant is one package ``rummy101/game/engines/<variant>/`` (docs/DESIGN.md, "Engines"); the
surface (:class:`~rummy101.game.State`, records, playouts, bots, the simulator) reaches it only
through the :class:`Engine` protocol below. :func:`engine_for` imports the package named after
the rules' variant, so adding a variant adds a folder and touches nothing shared.

>>> from rummy101.rules import Rules
>>> engine_for(Rules.parse("rummy101")).DEFAULT_MATCH_ROUNDS
1
>>> "rummy101" in playable_variants()
True
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

from ..errors import RulesError
from ..rules import VARIANTS, Rules

if TYPE_CHECKING:
    from .actions import Action
    from .state import State

__all__ = ["Engine", "VariantData", "engine_for", "playable_variants"]


class VariantData(Protocol):
    """A variant's own part of the state (``State.x``): copied and compared by itself."""

    def copy(self) -> Any: ...

    def __eq__(self, other: object) -> bool: ...


class Engine(Protocol):
    """The functions and constants an engine package exports (the rummy101 package is the
    model). ``apply`` raises :class:`~rummy101.errors.IllegalAction` naming the rule and leaves
    the state unchanged; ``legal_actions`` is exactly what ``apply`` accepts. Optional:
    ``encoder_observation(s, seat)``, the part of ``observation`` that the RL encoder reads with
    the same values (the RL session encodes it when the engine has it, else ``observation``)."""

    VERBS: frozenset[str]
    DEFAULT_MATCH_ROUNDS: int

    def new_match(self, s: State) -> None: ...

    def legal_actions(self, s: State) -> list[Action]: ...

    def apply(self, s: State, a: Action) -> None: ...

    def observation(self, s: State, seat: int) -> dict[str, Any]: ...

    def meld_actions(self, kind: str, tiles: Sequence[int], index: int) -> list[Action]: ...


_PACKAGE = __name__.rsplit(".", 1)[0] + ".engines"
_CACHE: dict[str, Engine] = {}


def _exists(variant: str) -> bool:
    return importlib.util.find_spec(f"{_PACKAGE}.{variant}") is not None


def playable_variants() -> tuple[str, ...]:
    """The variants whose engine package is installed, in the order of :data:`VARIANTS`."""
    return tuple(v for v in VARIANTS if v in _CACHE or _exists(v))


def engine_for(rules: Rules | str) -> Engine:
    """The engine package of ``rules.variant`` (imported once); a rules text is read first."""
    rules = Rules.parse(rules)  # RulesError, not AttributeError, for anything but Rules or text
    eng = _CACHE.get(rules.variant)
    if eng is None:
        if not _exists(rules.variant):
            raise RulesError(f"the game engine does not play {rules.variant!r} yet; playable "
                             f"variants: {', '.join(playable_variants())}")
        eng = _CACHE[rules.variant] = importlib.import_module(f"{_PACKAGE}.{rules.variant}")
    return eng

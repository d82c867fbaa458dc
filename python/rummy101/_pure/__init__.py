"""rummy101._pure: the pure-Python twin of the native core ``rummy101._core``.

It exposes the same functions with the same signatures and gives identical results; tests run
every core function on both and compare. Input is validated in Python before either backend is
called (STYLE.md), but these functions still reject out-of-range codes with ValueError, as the
C++ core does.
"""

from __future__ import annotations

from ._common import (
    HIGH_ACE,
    JOKER,
    KIND_INVALID,
    KIND_PAIR,
    KIND_RUN,
    KIND_SET,
    NUM_CODES,
    NUM_COLOURS,
    NUM_NUMBERS,
    CoreInputError,
    CoreRules,
)
from .batch import *  # noqa: F401,F403
from .melds import *  # noqa: F401,F403
from .solver import *  # noqa: F401,F403
from .relax import *
from .tabla import *  # noqa: F401,F403
from . import batch as _batch, melds as _melds, relax as _relax, solver as _solver, tabla as _tabla

__all__ = [
    "HIGH_ACE", "JOKER", "KIND_INVALID", "KIND_PAIR", "KIND_RUN", "KIND_SET", "NUM_CODES",
    "NUM_COLOURS", "NUM_NUMBERS", "CoreInputError", "CoreRules",
    *_batch.__all__, *_melds.__all__, *_relax.__all__, *_solver.__all__, *_tabla.__all__,
]

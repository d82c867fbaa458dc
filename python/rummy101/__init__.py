"""rummy101: play, solve and simulate tile and card Rummy.

Three rule families (``../shared/RULES.md`` IDs cited throughout): Rummy 101, Romanian Remi and
classic card Rummy. The combinatorial core is C++ (``rummy101._core``) with a pure-Python twin
(``rummy101._pure``); :func:`backend_name` tells which one is live.

>>> import rummy101
>>> rummy101.Tile.parse("r7")
Tile('R7')
>>> rummy101.Rules.parse("rummy101(threshold=increasing)").opts.threshold
'increasing'
"""

from __future__ import annotations

from ._backend import available_backends, backend_name, set_backend, using_backend
from .errors import (
    BackendError,
    IllegalAction,
    NotationError,
    RackError,
    RulesError,
    RummyError,
)
from .rules import Rules, get_rules, variants
from .tiles import JOKER, Card, Tile, format_tiles, parse_cards, parse_tiles
from .melds import *  # noqa: F401,F403
from .solve import *  # noqa: F401,F403
from .tabla import *  # noqa: F401,F403
from .game import *  # noqa: F401,F403
from . import melds as _melds_mod, solve as _solve_mod, tabla as _tabla_mod, game as _game_mod

__version__ = "0.1.1"

__all__ = [
    "__version__",
    "available_backends", "backend_name", "set_backend", "using_backend",
    "BackendError", "IllegalAction", "NotationError", "RackError", "RulesError", "RummyError",
    "Rules", "get_rules", "variants",
    "JOKER", "Card", "Tile", "format_tiles", "parse_cards", "parse_tiles",
    *_melds_mod.__all__, *_solve_mod.__all__, *_tabla_mod.__all__, *_game_mod.__all__,
]

"""Simulation runner: many seeded games between bots, in parallel, with reproducible results.

:func:`simulate` plays ``games`` games of a rule set with one bot per seat and returns a
:class:`SimResult` (per-game :class:`GameRecord` list plus per-seat statistics). Everything a game
does is a pure function of ``(rules, bots, seed, game index)``:

* the game's seed is :func:`game_seed` ``(seed, index)``;
* the seat ``s`` bot's ``random.Random`` is seeded with :func:`bot_seed` ``(seed, index, s)``;

so the results are identical whatever the number of workers or the executor (process pool, thread
pool, Dask), and records are aggregated in game order.

* :mod:`.seeds` — the derived seeds;
* :mod:`.runner` — one game (:func:`play_game`) and many (:func:`simulate`), on any executor;
* :mod:`.record` — what one game produced (:class:`GameRecord`);
* :mod:`.stats` — per-seat statistics, Wilson intervals and the summary table;
* :mod:`.io` — writing records as JSON Lines or CSV, and reading them back;
* :mod:`.resume` — reading a cut run's file to continue it (``rummy101 sim --resume``);
* :mod:`.report` — per-seat report tables (``rummy101 report``), :mod:`.plot` its figure
  (matplotlib, the optional extra ``plot``; imported only when drawing).

>>> game_seed(7, 0), game_seed(7, 1) != game_seed(7, 0)
(2564258699000977781, True)
>>> lo, hi = wilson_interval(60, 100)
>>> f"{lo:.4f} {hi:.4f}"
'0.5020 0.6906'
"""

from __future__ import annotations

from .errors import GameFailed, SimError, SimInterrupted
from .io import (
    OUTPUT_FORMATS,
    RecordWriter,
    check_output,
    iter_records,
    read_records,
    write_records,
)
from .record import RECORD_KINDS, GameRecord, finish_type, round_finishes
from .runner import (
    MAX_GAMES,
    MAX_STEPS,
    MAX_STREAMED_GAMES,
    LazyObservation,
    max_workers,
    play_game,
    simulate,
)
from .seeds import bot_seed, game_seed
from .stats import GameTally, SeatStats, SimResult, format_summary, wilson_interval

__all__ = [
    "MAX_GAMES",
    "MAX_STEPS",
    "MAX_STREAMED_GAMES",
    "OUTPUT_FORMATS",
    "RECORD_KINDS",
    "GameFailed",
    "GameRecord",
    "GameTally",
    "LazyObservation",
    "RecordWriter",
    "SeatStats",
    "SimError",
    "SimInterrupted",
    "SimResult",
    "bot_seed",
    "check_output",
    "finish_type",
    "format_summary",
    "game_seed",
    "iter_records",
    "max_workers",
    "play_game",
    "read_records",
    "round_finishes",
    "simulate",
    "wilson_interval",
    "write_records",
]

"""Type stubs of the native core ``rummy101._core`` (C++, pybind11).

``rummy101._pure`` has the same functions with the same signatures; see docs/DESIGN.md for what
each returns. ``tests/test_stubs.py`` checks that this file names exactly what the module exports.
"""

from collections.abc import Mapping, Sequence
from typing import Any
import numpy as np
import numpy.typing as npt

NUM_COLOURS: int
NUM_NUMBERS: int
JOKER: int
NUM_CODES: int
HIGH_ACE: int
KIND_INVALID: int
KIND_RUN: int
KIND_SET: int
KIND_PAIR: int
REASON_OK: int
REASON_TOO_SHORT: int
REASON_TOO_LONG: int
REASON_NO_REAL_TILE: int
REASON_MIXED: int
REASON_RUN_NOT_CONSECUTIVE: int
REASON_RUN_OUT_OF_RANGE: int
REASON_RUN_WRAPS: int
REASON_RUN_HIGH_ACE: int
REASON_SET_REPEATED_COLOUR: int
REASON_SET_TOO_LONG: int
REASON_JOKER_RATIO: int
REASON_NOT_A_PAIR: int
PATTERN_SIMPLE: int
PATTERN_MOZAIC: int
PATTERN_BICOLOR: int
PATTERN_MONOCOLOR: int
PATTERN_SCORES: list[int]
TABLA_TILES: int
DEFAULT_WORK_BUDGET: int
UNLIMITED_BUDGET: int
BUDGET_SPENT: int

class CoreInputError(ValueError): ...

class CoreRules:
    def __init__(self, high_ace: bool, joker_ratio: int, run_value: Sequence[int],
                 set_value: Sequence[int], joker_value: int) -> None: ...
    @property
    def high_ace(self) -> bool: ...
    @property
    def joker_ratio(self) -> int: ...
    @property
    def run_value(self) -> list[int]: ...
    @property
    def set_value(self) -> list[int]: ...
    @property
    def joker_value(self) -> int: ...

Meld = tuple[int, list[int], list[int]]

def classify_meld(cr: CoreRules, tiles: Sequence[int]) -> tuple[int, list[int], int]: ...
def meld_value(cr: CoreRules, tiles: Sequence[int]) -> int: ...
def meld_additions(cr: CoreRules, tiles: Sequence[int]) -> list[tuple[int, int]]: ...
def joker_releases(cr: CoreRules, tiles: Sequence[int],
                   both_missing_for_set3: bool) -> list[tuple[int, list[list[int]]]]: ...
def rack_value(cr: CoreRules, counts: Sequence[int]) -> int: ...
def solve_melds(cr: CoreRules, counts: Sequence[int], keep: bool, must_use: int,
                require_run: bool, budget: int = ...) -> tuple[int, list[Meld]]: ...
def solve_melds_value(cr: CoreRules, counts: Sequence[int], keep: bool, must_use: int,
                      require_run: bool, budget: int = ..., floor: int = ...) -> int: ...
def solve_values_batch(cr: CoreRules, counts: npt.NDArray[np.uint8] | Sequence[Sequence[int]],
                       keep: bool, must_use: int,
                       require_run: bool, budget: int = ...) -> npt.NDArray[np.int64]: ...
def solve_melds_batch(cr: CoreRules, counts: npt.NDArray[np.uint8] | Sequence[Sequence[int]],
                      keep: bool, must_use: int,
                      require_run: bool, budget: int = ...) -> list[tuple[int, list[Meld]]]: ...
class SolvedMelds:
    def __len__(self) -> int: ...
    def __getitem__(self, i: int) -> list[Meld]: ...

def solve_melds_packed(cr: CoreRules, counts: npt.NDArray[np.uint8] | Sequence[Sequence[int]],
                       keep: bool, must_use: int, require_run: bool, budget: int = ...
                       ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int32], SolvedMelds]: ...
def max_pairs(counts: Sequence[int], keep: bool, must_use: int,
              budget: int = ...) -> tuple[int, list[tuple[int, int]]]: ...
def tokenize_racks(texts: Sequence[object], table: Mapping[str, int], copies: int, max_jokers: int,
                   commas: bool, max_tokens: int, max_chars: int
                   ) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8], npt.NDArray[np.int64],
                              npt.NDArray[np.bool_]]: ...
class TokenTable:
    def __init__(self, table: Mapping[str, int]) -> None: ...
    def counts(self, text: object, copies: int, max_jokers: int) -> list[int] | None: ...

def opening_answers_json(cr: CoreRules, counts: npt.NDArray[np.uint8], codes: npt.NDArray[np.uint8],
                         offsets: npt.NDArray[np.int64], keeps: npt.NDArray[np.uint8], must_use: int,
                         require_run: bool, budget: int, threshold: int, pairs_threshold: int,
                         pairs_allowed: bool, tokens: Sequence[str], rules_json: str
                         ) -> list[bytes | None]: ...
def tabla_patterns(cr: CoreRules, counts: Sequence[int]) -> list[tuple[int, list[int], list[int], list[Meld]]]: ...
def tabla_closes(cr: CoreRules, counts: Sequence[int]) -> list[tuple[int, int, int, list[int], list[int], list[Meld]]]: ...
def tabla_distance(cr: CoreRules, counts: Sequence[int]) -> list[int]: ...
def relaxed_cover(counts: Sequence[int], high_ace: bool, runs: Sequence[tuple[int, int, int]],
                  budget: int) -> bool: ...
def play_greedy_round(open_cr: CoreRules, penalty_cr: CoreRules, players: int, increasing: bool,
                      turn: int, current: int, take_phase: bool, racks: Sequence[Sequence[int]],
                      stock: Sequence[int], table: Sequence[tuple[int, int, Sequence[int]]],
                      opened: Sequence[int], opened_turn: Sequence[int], thr_melds: int,
                      thr_pairs: int, last_discard: int, discards: Sequence[Sequence[int]],
                      button_left: Sequence[int], button_used: Sequence[int], button_issued: int,
                      max_steps: int = ...) -> tuple[list[int], list[int], int, bool,
                                                     tuple[Any, ...]]: ...

"""Constants and CoreRules of the pure backend (mirror of cpp/include/rummy101/encoding.hpp)."""

from __future__ import annotations

from collections.abc import Sequence

NUM_COLOURS = 4
NUM_NUMBERS = 13
JOKER = 52
NUM_CODES = 53
HIGH_ACE = 14
KIND_INVALID = 0
KIND_RUN = 1
KIND_SET = 2
KIND_PAIR = 3


class CoreInputError(ValueError):
    """Raised on input the core cannot take (the C++ core raises the same type name)."""


class CoreRules:
    """Rule-set parameters of the core; same constructor as ``rummy101._core.CoreRules``."""

    __slots__ = ("high_ace", "joker_ratio", "run_value", "set_value", "joker_value")

    def __init__(self, high_ace: bool, joker_ratio: int, run_value: Sequence[int],
                 set_value: Sequence[int], joker_value: int) -> None:
        if len(run_value) != 15:
            raise CoreInputError("run_value must have 15 entries")
        if len(set_value) != 14:
            raise CoreInputError("set_value must have 14 entries")
        if joker_ratio < 0:
            raise CoreInputError("joker_ratio must be >= 0")
        self.high_ace = bool(high_ace)
        self.joker_ratio = int(joker_ratio)
        self.run_value = [int(v) for v in run_value]
        self.set_value = [int(v) for v in set_value]
        self.joker_value = int(joker_value)


def check_codes(codes: Sequence[int]) -> None:
    for c in codes:
        if not 0 <= c < NUM_CODES:
            raise CoreInputError(f"tile code out of range: {c}")


def to_counts(counts: Sequence[int]) -> list[int]:
    if len(counts) != NUM_CODES:
        raise CoreInputError(f"a count vector must have 53 entries, got {len(counts)}")
    out = [int(c) for c in counts]
    for i, c in enumerate(out):
        if not 0 <= c <= 64:
            raise CoreInputError(f"tile count out of range at code {i}")
    return out

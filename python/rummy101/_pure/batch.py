"""Pure-Python twin of the batch front end in cpp/bindings/bind_solver.cpp (issue 11, "a thin
API"): ``tokenize_racks`` reads text racks by a token table, ``opening_answers_json`` solves
validated racks and writes their CONTRACT.md opening objects as JSON. Same arguments, same
results, byte for byte (tests/test_solve_api.py, tests/test_service_fast.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..errors import WorkBudgetExceeded
from ._common import JOKER, KIND_RUN, NUM_CODES, NUM_NUMBERS, CoreInputError, CoreRules
from .solver import _check_budget, max_pairs, solve_melds

__all__ = ["TokenTable", "opening_answers_json", "tokenize_racks"]

_NO_LIMIT = (1 << 63) - 1  # (LLONG_MAX: TokenTable.counts sets no limit on tokens or characters)

# Python's str.split() separators among ASCII characters
_SPACES = frozenset(" \t\n\x0b\x0c\r\x1c\x1d\x1e\x1f")


def _tokenize_one(text: Any, table: Mapping[str, int], copies: int, max_jokers: int, commas: bool,
                  max_tokens: int, max_chars: int) -> tuple[list[int], list[int]] | None:
    """(codes in rack order, counts) of a rack the table reads, or None (see the native twin)."""
    if not isinstance(text, str) or not text.isascii() or len(text) > max_chars or "[" in text:
        return None
    if commas:
        text = text.replace(",", " ")
    elif "," in text:
        return None
    words = text.split()
    if not words or len(words) > max_tokens:
        return None
    codes = []
    for w in words:
        code = table.get(w) if len(w) <= 7 else None
        if code is None:
            return None
        codes.append(code)
    counts = [0] * NUM_CODES
    for c in codes:
        counts[c] += 1
    if max(counts[:JOKER]) > copies or counts[JOKER] > max_jokers:
        return None
    return codes, counts


def _check_table(table: Mapping[str, int]) -> None:
    for t, code in table.items():
        if not isinstance(t, str) or not 1 <= len(t) <= 7 or not 0 <= code < NUM_CODES:
            raise CoreInputError("token table: a token of 1 to 7 ASCII characters and a code 0..52")


class TokenTable:
    """A token table {token: code} read once, for reading one text rack at a time."""

    def __init__(self, table: Mapping[str, int]) -> None:
        _check_table(table)
        self._table = dict(table)

    def counts(self, text: Any, copies: int, max_jokers: int) -> list[int] | None:
        """The count vector of one text rack that tokenize_racks would read as ok (commas False,
        no limits on tokens or characters), or None (see the native docstring)."""
        read = _tokenize_one(text, self._table, copies, max_jokers, False, _NO_LIMIT, _NO_LIMIT)
        return None if read is None else read[1]


def tokenize_racks(texts: Sequence[Any], table: Mapping[str, int], copies: int, max_jokers: int,
                   commas: bool, max_tokens: int, max_chars: int) -> tuple[Any, Any, Any, Any]:
    """Read text racks by a token table: (counts (n, 53) uint8, codes in rack order, offsets
    (n + 1,), ok (n,)); a rack that is not ok is left to the full parser (see the native
    docstring)."""
    _check_table(table)
    n = len(texts)
    counts = np.zeros((n, NUM_CODES), dtype=np.uint8)
    offsets = np.zeros(n + 1, dtype=np.int64)
    ok = np.zeros(n, dtype=bool)
    flat: list[int] = []
    for i, text in enumerate(texts):
        read = _tokenize_one(text, table, copies, max_jokers, commas, max_tokens, max_chars)
        if read is not None:
            ok[i] = True
            flat.extend(read[0])
            counts[i] = read[1]
        offsets[i + 1] = len(flat)
    return counts, np.asarray(flat, dtype=np.uint8), offsets, ok


def _meld(cr: CoreRules, tok: Sequence[str], kind: str, run: bool, tiles: Sequence[int],
          stand: Sequence[int]) -> str:
    if run:
        first = stand[0] % NUM_NUMBERS + 1
        value = sum(cr.run_value[first + i] for i in range(len(tiles)))
    else:
        value = sum(cr.set_value[x % NUM_NUMBERS + 1] for x in stand)
    jokers = ",".join(f'"{i}":"{tok[stand[i]]}"' for i, t in enumerate(tiles) if t == JOKER)
    return (f'{{"kind":"{kind}","tiles":[{",".join(chr(34) + tok[t] + chr(34) for t in tiles)}],'
            f'"value":{value},"jokers":{{{jokers}}}}}')


def _opening(cr: CoreRules, counts: list[int], codes: Sequence[int], keep: bool, must_use: int,
             require_run: bool, budget: int, threshold: int, pairs_threshold: int,
             pairs_allowed: bool, tok: Sequence[str], rules_json: str) -> str:
    value, melds = solve_melds(cr, counts, keep, must_use, require_run, budget)
    kind = "null"
    shown: list[tuple[str, bool, Sequence[int], Sequence[int]]]
    if value >= threshold and melds:
        kind = '"melds"'
        shown = [("run" if k == KIND_RUN else "set", k == KIND_RUN, t, s) for k, t, s in melds]
    else:
        use_pairs = False
        bound = counts[JOKER] + sum(c // 2 for c in counts[:JOKER])
        if pairs_allowed and bound >= max(1, pairs_threshold):
            n_pairs, pairs = max_pairs(counts, keep, must_use, budget)
            use_pairs = n_pairs >= pairs_threshold and n_pairs > 0
        if use_pairs:
            kind, value = '"pairs"', n_pairs
            shown = [("pair", False, [a, b], [a, a]) for a, b in pairs]
        else:
            if value < 0:  # must_use or the run requirement cannot be met
                value, melds = solve_melds(cr, counts, keep, -1, False, budget)
                value = max(value, 0)
            shown = [("run" if k == KIND_RUN else "set", k == KIND_RUN, t, s) for k, t, s in melds]
    left = list(counts)
    for _, _, tiles, _ in shown:
        for c in tiles:
            left[c] -= 1
    rest = ",".join(f'"{tok[c]}"' for c in range(NUM_CODES) for _ in range(left[c]))
    return (f'{{"rules":{rules_json},"rack":"{" ".join(tok[c] for c in codes)}","kind":{kind},'
            f'"value":{value},"melds":[{",".join(_meld(cr, tok, *m) for m in shown)}],'
            f'"rest":[{rest}]}}')


def opening_answers_json(cr: CoreRules, counts: Any, codes: Any, offsets: Any, keeps: Any,
                         must_use: int, require_run: bool, budget: int, threshold: int,
                         pairs_threshold: int, pairs_allowed: bool, tokens: Sequence[str],
                         rules_json: str) -> list[bytes | None]:
    """CONTRACT.md opening objects as compact UTF-8 JSON (None: the rack spent its budget); see
    the native docstring."""
    budget = _check_budget(budget)
    counts = np.asarray(counts, dtype=np.uint8)
    offsets = np.asarray(offsets, dtype=np.int64)
    codes = np.asarray(codes, dtype=np.uint8)
    if counts.ndim != 2 or counts.shape[1] != NUM_CODES:
        raise CoreInputError(f"counts must have shape (n, 53), got {tuple(counts.shape)}")
    n = counts.shape[0]
    if offsets.shape != (n + 1,):
        raise CoreInputError(f"offsets must have shape (n + 1,), got {tuple(offsets.shape)}")
    if np.shape(keeps) != (n,):
        raise CoreInputError(f"keeps must have shape (n,), got {tuple(np.shape(keeps))}")
    if len(tokens) != NUM_CODES:
        raise CoreInputError("tokens must have 53 entries")
    if threshold < 0 or pairs_threshold < 0:
        raise CoreInputError("thresholds must be >= 0")
    out: list[bytes | None] = []
    for i in range(n):
        lo, hi = int(offsets[i]), int(offsets[i + 1])
        if not 0 <= lo <= hi <= len(codes):
            raise CoreInputError("offsets must rise from 0 to at most len(codes)")
        rack = codes[lo:hi].tolist()
        row = counts[i].tolist()
        if max(rack, default=0) >= NUM_CODES:
            raise CoreInputError(f"tile code out of range: {max(rack)}")
        if np.bincount(np.asarray(rack, dtype=np.int64), minlength=NUM_CODES).tolist() != row:
            raise CoreInputError(f"rack {i}: its codes and counts differ")
        try:
            out.append(_opening(cr, row, rack, bool(keeps[i]), must_use, require_run, budget,
                                threshold, pairs_threshold, pairs_allowed, tokens,
                                rules_json).encode("utf-8"))
        except WorkBudgetExceeded:
            out.append(None)
    return out

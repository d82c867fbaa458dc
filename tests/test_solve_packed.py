"""``solve_melds_packed``: the batch answers of ``solve_openings`` kept packed in the core until an
answer's melds are read (issue 11, a thin API). The same values and melds as
``solve_melds_batch`` row by row, on both backends, and the same errors; the answers of
``solve_openings`` built from it read their melds only when asked and equal ``solve_opening``'s.
"""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np
import pytest
from rummy101 import Rules, _backend, solve_opening, solve_openings
from rummy101.tiles import format_tiles

R101 = Rules.parse("rummy101")
REMI = Rules.parse("remi")
CLASSIC = Rules.parse("classic")


@pytest.fixture(autouse=True)
def _need_native() -> None:
    if "native" not in _backend.available_backends():
        pytest.skip("native core not built")


def random_rows(seed: int, n: int, jokers: bool) -> np.ndarray:
    rng = np.random.default_rng(seed)
    rows = np.zeros((n, 53), dtype=np.uint8)
    for i in range(n):
        for code in rng.choice(52, size=int(rng.integers(0, 16)), replace=False):
            rows[i, code] = rng.integers(1, 3)
        if jokers:
            rows[i, 52] = rng.integers(0, 3)
    return rows


def unpacked(values: Any, sizes: Any, melds: Any) -> list[tuple[int, list[Any]]]:
    assert len(values) == len(sizes) == len(melds)
    out = []
    for i in range(len(melds)):
        m = melds[i]
        assert len(m) == sizes[i]
        out.append((int(values[i]), m))
    return out


@pytest.mark.parametrize("rules,seed", [(R101, 1), (REMI, 2), (CLASSIC, 3)])
@pytest.mark.parametrize("keep", [False, True])
def test_packed_equals_batch_on_both_backends(rules: Rules, seed: int, keep: bool) -> None:
    rows = random_rows(seed, 60, jokers=rules.max_rack_jokers > 0)
    got = {}
    for name in ("native", "pure"):
        core = _backend._load(name)
        cr = _backend.core_rules(rules, "open", name)
        batch = core.solve_melds_batch(cr, rows, keep, -1, rules.opening_needs_run)
        values, sizes, melds = core.solve_melds_packed(cr, rows, keep, -1, rules.opening_needs_run)
        assert values.dtype == np.int64 and sizes.dtype == np.int32
        got[name] = unpacked(values, sizes, melds)
        assert got[name] == batch
    assert got["native"] == got["pure"]
    assert any(m for _, m in got["native"]) and any(not m for _, m in got["native"])


def test_packed_reads_the_same_melds_again_and_from_the_end() -> None:
    rows = random_rows(4, 12, jokers=True)
    for name in ("native", "pure"):
        core = _backend._load(name)
        _, _, melds = core.solve_melds_packed(_backend.core_rules(R101, "open", name), rows,
                                              True, -1, False)
        first = melds[3]
        first.append("changed")  # each read is a new list: the packed melds are not touched
        assert melds[3] == first[:-1]
        assert melds[-1] == melds[len(melds) - 1]
        for bad in (len(melds), -len(melds) - 1):
            with pytest.raises(IndexError, match="SolvedMelds index out of range"):
                melds[bad]


def test_packed_budget_and_errors_match_the_batch() -> None:
    dense = [0] * 53
    for code in range(13):
        dense[code] = dense[13 + code] = 2
    rows = np.array([dense, [0] * 53], dtype=np.uint8)
    outcomes = {}
    for name in ("native", "pure"):
        core = _backend._load(name)
        cr = _backend.core_rules(R101, "open", name)
        values, sizes, melds = core.solve_melds_packed(cr, rows, False, -1, False, 50)
        assert values.tolist()[0] == core.BUDGET_SPENT and sizes.tolist()[0] == 0 and melds[0] == []
        assert (values.tolist()[1], melds[1]) == (0, [])
        errs = []
        for bad in (np.zeros((3, 52), dtype=np.uint8), np.zeros(53, dtype=np.uint8)):
            for fn in (core.solve_melds_batch, core.solve_melds_packed):
                with pytest.raises(Exception) as info:
                    fn(cr, bad, True, -1, False)
                errs.append((type(info.value).__name__, str(info.value)))
        assert errs[0] == errs[1] and errs[2] == errs[3]
        outcomes[name] = errs
    assert outcomes["native"] == outcomes["pure"]


@pytest.mark.parametrize("backend", ["native", "pure"])
def test_openings_read_their_melds_only_when_asked(backend: str) -> None:
    rows = random_rows(5, 30, jokers=True)
    texts = [format_tiles(R101.parse_rack([R101.piece(c) for c in range(53) for _ in range(int(r[c]))]))
             for r in rows if r.sum()]
    with _backend.using_backend(backend):
        batch = solve_openings(R101, texts)
        assert all(o._f[5][0] in ("batch", "pairs") for o in batch)
        assert all(o._f[7] == [None, None, None] for o in batch)  # nothing built yet
        single = [solve_opening(R101, t) for t in texts]
        assert [o.value for o in batch] == [o.value for o in single]
        assert batch == single
        assert [pickle.loads(pickle.dumps(o)) for o in batch] == single
        assert [o.to_json() for o in batch] == [o.to_json() for o in single]


@pytest.mark.parametrize("backend", ["native", "pure"])
def test_openings_of_mixed_keeps_take_each_rack_from_its_own_batch(backend: str) -> None:
    """classic go_out=narrow keeps a card except on a hand of three (CR-4): two packed batches."""
    rules = "classic(go_out=narrow)"
    racks = ["AS 2S 3S", "4H 5H 6H 7H 9C", "AS 2S 3S 4S", "KD KH KS", "2C 3C 4C 5C"]
    with _backend.using_backend(backend):
        batch = solve_openings(rules, racks)
        assert [o.to_json() for o in batch] == [solve_opening(rules, r).to_json() for r in racks]
        assert {id(o._f[5][1]) for o in batch if o._f[5][0] == "batch"}.__len__() == 2

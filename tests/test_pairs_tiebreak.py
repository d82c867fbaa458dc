"""The pairs search's tie-break (issue 16; R101-5, R101-6, R101-8, R101-12, R101-13, R101-4):
among the arrangements with the most pairs, ``max_pairs`` returns the one that leaves the least
penalty on the rack (face values, a joker 101, the tile kept for the discard included), ties
broken by the lexicographically smallest sorted pair list; checked against an exhaustive
enumeration of every pairing on small racks, on both backends, with keep and must_use on and off.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

import pytest
from parity import same
from rummy101 import _backend, solve_opening
from rummy101.hint import SeatView, hint
from rummy101.tiles import JOKER_CODE, counts_of, parse_tiles

JOKER_PENALTY = 101  # R101-6


def _penalty(code: int) -> int:
    return JOKER_PENALTY if code == JOKER_CODE else code % 13 + 1


def brute_pairs(counts: Sequence[int], keep: bool,
                must_use: int) -> tuple[int, list[tuple[int, int]]]:
    """Every pairing: per code, any number p of real pairs and q of joker pairs with
    2p + q <= count and the jokers laid <= the jokers held. Best = most pairs, then least
    penalty left, then the smallest sorted pair list; (-1, []) when nothing meets the
    constraints."""
    codes = [c for c in range(52) if counts[c]]
    jokers = counts[JOKER_CODE]
    per_code = [[(p, q) for p in range(counts[c] // 2 + 1)
                 for q in range(counts[c] - 2 * p + 1)] for c in codes]
    best: tuple[int, int, list[tuple[int, int]]] | None = None
    for choice in itertools.product(*per_code):
        laid = sum(q for _, q in choice)
        if laid > jokers:
            continue
        pairs = sorted([(c, c) for c, (p, _) in zip(codes, choice, strict=True) for _ in range(p)]
                       + [(c, JOKER_CODE) for c, (_, q) in zip(codes, choice, strict=True)
                          for _ in range(q)])
        left = [c for c, (p, q) in zip(codes, choice, strict=True)
                for _ in range(counts[c] - 2 * p - q)] + [JOKER_CODE] * (jokers - laid)
        if keep and not left:
            continue
        if must_use == JOKER_CODE and laid == 0:
            continue
        if 0 <= must_use < 52 and all(must_use not in pair for pair in pairs):
            continue
        key = (-len(pairs), sum(_penalty(c) for c in left), pairs)
        if best is None or key < best:
            best = key
    if best is None:
        return (-1, [])
    return (len(best[2]), best[2])


def _racks(seed: str, n: int) -> list[tuple[list[int], bool, int]]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        size = rng.randint(1, 10)
        jokers = rng.choice([0, 1, 1, 2, 2])
        # few distinct codes so that pairs, equal values in other colours and 13s are common
        codes = sorted(set(rng.sample(range(52), rng.randint(2, 6)) + [12, 25, 38, 51]))
        pool = [c for c in codes for _ in range(2)]
        rack = rng.sample(pool, max(0, min(len(pool), size - jokers))) + [JOKER_CODE] * jokers
        keep = rng.random() < 0.5
        # -1, a tile of the rack, or any code (a tile not on the rack, or the joker)
        must_use = rng.choice([-1, -1, rng.choice(rack), rng.choice(rack), rng.randrange(53)])
        out.append((counts_of(rack), keep, must_use))
    return out


@pytest.mark.parametrize("backend", ["native", "pure"])
def test_max_pairs_is_the_brute_force_optimum(backend: str) -> None:
    if backend not in _backend.available_backends():
        pytest.skip("native core not built")
    core = _backend._load(backend)
    for counts, keep, must_use in _racks("pairs-tiebreak", 600):
        assert tuple(core.max_pairs(counts, keep, must_use)) == brute_pairs(counts, keep, must_use), (
            [c for c in range(53) for _ in range(counts[c])], keep, must_use)


def test_max_pairs_parity_with_jokers() -> None:
    if "native" not in _backend.available_backends():
        pytest.skip("native core not built")
    for counts, keep, must_use in _racks("pairs-parity", 400):
        same("max_pairs", counts, keep, must_use)
    # up to six jokers (the solver's limit) on larger racks
    rng = random.Random("pairs-parity-many-jokers")
    for _ in range(200):
        rack = rng.sample([c for c in range(52) for _ in range(2)], rng.randint(0, 20))
        rack += [JOKER_CODE] * rng.randint(0, 6)
        must_use = rng.choice([-1, JOKER_CODE, *rack]) if rack else -1
        same("max_pairs", counts_of(rack), rng.random() < 0.5, must_use)


def c(text: str) -> list[int]:
    return counts_of(parse_tiles(text))


@pytest.mark.parametrize("backend", ["native", "pure"])
def test_hand_checked_racks(backend: str) -> None:
    if backend not in _backend.available_backends():
        pytest.skip("native core not built")
    mp = _backend._load(backend).max_pairs
    R1, K13, R5, B5, R2 = (int(parse_tiles(t)[0]) for t in ("R1", "K13", "R5", "B5", "R2"))
    J = JOKER_CODE
    # the joker goes with the highest loose tile
    assert mp(c("R1 K13 *"), True, -1) == (1, [(K13, J)])
    # ... unless the low tile must be used (R101-4: a taken discard)
    assert mp(c("R1 K13 *"), True, R1) == (1, [(R1, J)])
    # a spare joker splits a real pair rather than staying on the rack: the cheapest pair
    # (R2 left: 2; R5 left: 5; the joker left: 101)
    assert mp(c("R5 R5 * R2 R2"), True, -1) == (2, [(R2, J), (R5, R5)])
    # keep: with everything paired, the cheapest pair stays (R2 R2: 4, not K13 *: 114)
    assert mp(c("R2 R2 K13 *"), True, -1) == (1, [(K13, J)])
    assert mp(c("R2 R2 K13 * B5 B5"), True, -1) == (2, [(B5, B5), (K13, J)])
    # keep with a joker that must be used (R101-4 after the joker button's discard? no: a taken
    # joker): the joker is laid, a real tile is kept
    assert mp(c("R5 R5 *"), True, J) == (1, [(R5, J)])
    # equal values in two colours: the smaller pair list (R5 before B5)
    assert mp(c("R5 B5 *"), True, -1) == (1, [(R5, J)])
    # two jokers are no pair; one stays when only one real tile is there
    assert mp(c("R5 * *"), False, -1) == (1, [(R5, J)])
    assert mp(c("R5 * *"), True, R5) == (1, [(R5, J)])
    assert mp(c("R5 R5"), True, -1) == (0, [])        # keep: no pair, but nothing is required
    assert mp(c("R5 R5"), True, R5) == (-1, [])       # R5 must be used and a tile kept


ISSUE_RACK = "R5 R5 Y7 Y7 B2 B2 K9 K9 * R1 K13 B8 Y3 R12 B10 K4 Y11 R6 B13 K2 Y1 B6"


def test_issue_16_rack_opening_and_hint() -> None:
    """Issue 16's rack: the joker goes with a 13 (B13 and K13 tie at 13 points; B13 gives the
    smaller pair list), not with R1; the hint's penalty is 128 (K13 discarded), was 154."""
    o = solve_opening("rummy101", ISSUE_RACK)
    assert o.kind == "pairs" and o.value == 5
    assert sorted(str(m) for m in o.melds) == ["B13 *", "B2 B2", "K9 K9", "R5 R5", "Y7 Y7"]
    assert "R1" in [str(t) for t in o.rest]
    view = SeatView.from_json({"rules": "rummy101", "seat": 0, "stage": "play",
                               "rack": ISSUE_RACK,
                               "players": [{"seat": 0, "opened": None},
                                           {"seat": 1, "opened": None}]})
    turn = hint(view).to_json()["turn"]
    opening = turn["steps"][0]
    assert opening["step"] == "open" and opening["kind"] == "pairs"
    assert ["B13", "*"] in [m["tiles"] for m in opening["melds"]]
    assert turn["evaluation"]["penalty_if_round_ended"] == 128

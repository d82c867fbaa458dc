"""Session 50 audit of the exact answers against independent references, on new inputs.

* Hostile racks: a mapping is no rack (``{"R5": 2}`` was read as its keys, one R5, and solved
  without a word), and a mapping or set is no list of racks (the answers come in the racks'
  order, which neither keeps); ``keeps_card`` takes a piece count (it answered ``"3"``, ``-1``
  and ``None`` silently).
* Single-tile additions and joker releases of every variant (R101-9, R101-11, RO-7, RO-9.2,
  RO-9.5/9.6, CR-3 lay-offs) against a reference built on ``tests/outsider_ip.meld_value``
  (RULES.md alone): every piece at either end of a run, every piece into a set, on random melds
  of up to 14 pieces with up to three jokers (tests/test_game_melds_agree.py covers the 3-tile
  Rummy 101 melds the engine lays, against the engine).
* The public ``solve_opening`` / ``solve_penalty`` against the outsider's integer program
  (tests/test_audit_outsider.py's checks) at corners its random racks do not reach: 1- and
  2-piece racks, six jokers, the increasing mode's thresholds, pairs thresholds.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import numpy as np
import outsider_ip as ip
import pytest
import rummy101
from rummy101 import Card, NotationError, RackError, Tile
from test_audit_outsider import check_opening, check_penalty

JOKER = ip.JOKER


# ---- hostile inputs ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "call",
    [
        lambda rack: rummy101.solve_opening("rummy101", rack),
        lambda rack: rummy101.solve_penalty("remi", rack),
        lambda rack: rummy101.rack_penalty("rummy101", rack),
        lambda rack: rummy101.check_meld("rummy101", rack),
        lambda rack: rummy101.tabla_distance("remi", rack),
        lambda rack: rummy101.solve_openings("rummy101", [rack]),
        lambda rack: rummy101.opening_values("rummy101", [rack]),
    ],
)
def test_a_mapping_is_no_rack(backend: str, call: Any) -> None:
    with pytest.raises(NotationError, match="a mapping is no rack"):
        call({"R5": 2, "R6": 1, "R7": 1})


@pytest.mark.parametrize(
    "racks", [{"R1 R2 R3 K9": 1}, {"R1 R2 R3 K9", "R5 R5"}, frozenset({"R1 R2 R3 K9"})]
)
@pytest.mark.parametrize("fn", [rummy101.solve_openings, rummy101.opening_values])
def test_a_mapping_or_set_is_no_list_of_racks(backend: str, racks: Any, fn: Any) -> None:
    with pytest.raises(NotationError, match="racks' order"):
        fn("rummy101", racks)


def test_lists_tuples_and_generators_of_racks_still_read() -> None:
    racks = ["R1 R2 R3 K9", "R10 R11 R12 Y12 B12 K12 K13"]
    want = rummy101.opening_values("rummy101", racks).tolist()
    assert want == [6, 69]
    assert rummy101.opening_values("rummy101", tuple(racks)).tolist() == want
    assert rummy101.opening_values("rummy101", (r for r in racks)).tolist() == want
    assert [o.value for o in rummy101.solve_openings("rummy101", iter(racks))] == want
    named = dict(zip(("a", "b"), racks, strict=True))  # a dict's views keep its order
    assert rummy101.opening_values("rummy101", named.values()).tolist() == want
    assert [
        o.value for o in rummy101.solve_openings("rummy101", dict.fromkeys(racks).keys())
    ] == want


@pytest.mark.parametrize("pieces", ["3", -1, None, 2.5, True, [3]])
def test_keeps_card_takes_a_piece_count(pieces: Any) -> None:
    for rules in ("classic", "classic(go_out=narrow)", "rummy101"):
        with pytest.raises(RackError, match="number of pieces"):
            rummy101.keeps_card(rules, pieces)


def test_keeps_card_reads_numpy_counts() -> None:
    assert rummy101.keeps_card("classic(go_out=narrow)", np.int64(3)) is False
    assert rummy101.keeps_card("classic(go_out=narrow)", np.uint8(7)) is True
    assert rummy101.keeps_card("rummy101", 0) is True


# ---- additions and releases against the outsider -------------------------------------------------
def _random_meld(rng: random.Random, variant: str) -> list[int]:
    high = ip.VARIANTS[variant].high_ace
    if rng.random() < 0.55:
        colour, length = rng.randrange(4), rng.randint(3, 8 if rng.random() < 0.8 else 14)
        top = 14 if high else 13
        start = rng.randint(1, max(1, top - length + 1))
        codes = [
            ip.code_of(colour, n if n <= 13 else 1)
            for n in range(start, min(start + length, top + 1))
        ]
    else:
        number = rng.randint(1, 13)
        codes = [ip.code_of(c, number) for c in rng.sample(range(4), rng.randint(3, 4))]
    for _ in range(0 if variant == "classic" else rng.choice([0, 1, 1, 2, 3])):
        codes[rng.randrange(len(codes))] = JOKER
    return codes


def _outsider_additions(variant: str, tiles: list[int], kind: str, stand: list[int]) -> set[Any]:
    """Runs: {(place, code)} with place 0 (before) or len (after); sets: {code}. A piece may be
    added when the longer meld is one under RULES.md (``ip.meld_value``); in a set every joker
    may stand for any missing colour (R101-9's reading, RO-9.6)."""
    v = ip.VARIANTS[variant]
    codes = range(52 if variant == "classic" else 53)
    out: set[Any] = set()
    if kind == "run":
        numbers = [ip.number_of(s) for s in stand]
        if v.high_ace and len(numbers) > 1 and numbers[-2:] == [13, 1]:
            numbers[-1] = 14
        colour = ip.colour_of(stand[0])
        for place, n in ((0, numbers[0] - 1), (len(tiles), numbers[-1] + 1)):
            if not 1 <= n <= (14 if v.high_ace else 13):
                continue
            s = ip.code_of(colour, 1 if n == 14 else n)
            for c in (s, JOKER):
                if c in codes:
                    t2 = [c, *tiles] if place == 0 else [*tiles, c]
                    s2 = [s, *stand] if place == 0 else [*stand, s]
                    if ip.meld_value(v, "run", t2, s2) is not None:
                        out.add((place, c))
        return out
    number = ip.number_of(stand[0])
    for c in codes:
        t2 = [*tiles, c]
        present = {ip.colour_of(x) for x in t2 if x != JOKER}
        missing = [ip.code_of(k, number) for k in range(4) if k not in present]
        for fill in itertools.permutations(missing, t2.count(JOKER)):
            it = iter(fill)
            if ip.meld_value(v, "set", t2, [next(it) if x == JOKER else x for x in t2]) is not None:
                out.add(c)
                break
    return out


def _outsider_releases(
    variant: str, tiles: list[int], kind: str, stand: list[int], i: int
) -> list[list[int]]:
    """The groups of tiles that release the joker at ``i``: the tile it stands for (R101-9,
    RO-9.5); in a rummy101 set any missing colour (R101-9: a set's jokers stand for the missing
    colours, none for one in particular); in a 3-tile remi set both missing colours (RO-9.6)."""
    if kind == "set" and (variant == "rummy101" or len(tiles) == 3):
        present = {ip.colour_of(x) for x in tiles if x != JOKER}
        missing = [ip.code_of(c, ip.number_of(stand[0])) for c in range(4) if c not in present]
        return [sorted(missing)] if variant == "remi" else [[m] for m in missing]
    return [[stand[i]]]


def test_additions_and_releases_match_the_outsider(backend: str) -> None:
    rng = random.Random(f"s50-additions:{backend}")
    checked = 0
    for _ in range(500 if backend == "native" else 150):
        variant = rng.choice(["rummy101", "remi", "classic"])
        tiles = _random_meld(rng, variant)
        piece = Card if variant == "classic" else Tile
        text = " ".join(str(piece(t)) for t in tiles)
        try:
            info = rummy101.check_meld(variant, text)
        except RackError:  # three Jolys in remi: no rack holds them
            continue
        if not info.valid:
            continue
        checked += 1
        stand = [int(info.jokers[i]) if t == JOKER else t for i, t in enumerate(tiles)]
        want = _outsider_additions(variant, tiles, info.kind, stand)
        if info.kind == "run":
            got = {(p, int(t)) for p, t in info.additions}
        else:
            got = {int(t) for _p, t in info.additions}
        assert got == want, f"{variant} {text} ({info.kind}) additions"
        releases = {
            i: sorted(sorted(int(t) for t in alt) for alt in alts) for i, alts in info.releases
        }
        for i, t in enumerate(tiles):
            if t == JOKER:
                assert releases.get(i) == sorted(
                    _outsider_releases(variant, tiles, info.kind, stand, i)
                ), f"{variant} {text} ({info.kind}) releases of the joker at {i}"
    assert checked > (250 if backend == "native" else 70)


# ---- openings and penalties at the corners ---------------------------------------------------
def _corner_rack(rng: random.Random, variant: str) -> list[int]:
    most = {"rummy101": 6, "remi": 2, "classic": 0}[variant]
    size = rng.choice([1, 2, 3, 4, 8, 12, 15])
    jokers = min(size, most, rng.choice([0, 1, most, most]))
    if rng.random() < 0.6:
        lo = rng.randint(1, 11)
        numbers = list(range(lo, min(13, lo + rng.randint(2, 4)) + 1)) + (
            [1, 12, 13] if rng.random() < 0.3 else []
        )
        colours = rng.sample(range(4), rng.randint(1, 4))
        bag = sorted({ip.code_of(c, n) for c in colours for n in numbers})
    else:
        bag = list(range(52))
    if variant != "classic":
        bag = bag * 2
    return rng.sample(bag, min(size - jokers, len(bag))) + [JOKER] * jokers


@pytest.mark.parametrize("variant", ["rummy101", "remi", "classic"])
def test_corner_openings_and_penalties_match_the_outsider(backend: str, variant: str) -> None:
    rng = random.Random(f"s50-corners:{variant}:{backend}")
    for i in range(60 if backend == "native" else 20):
        codes = _corner_rack(rng, variant)
        mu = rng.choice(codes) if rng.random() < 0.3 else -1
        kw: dict[str, Any] = {}
        if variant == "rummy101" and i % 3 == 0:
            kw = {
                "threshold": rng.choice([0, 1, 30, 117]),
                "pairs_threshold": rng.choice([0, 1, 3, 6]),
            }
        check_opening(variant, codes, mu, **kw)
        check_penalty(variant, codes, keep=bool(i % 2))

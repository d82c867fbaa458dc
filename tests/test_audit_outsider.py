"""An outsider's check of the solvers against RULES.md (tests/outsider_ip.py, written from the
rules alone, not from tests/reference.py or the solvers' code).

For every answer: the value is the outsider's optimum, the melds (or pairs, or tabla rows) are
valid under the variant's rules and made of the rack's pieces, their values add up to the stated
value under the rule's valuation, and keep / must_use / a run (RO-8) hold. Seeded random racks
small enough for the integer program, plus hand-built racks at the corners where readings of the
rules differ. Every test runs on both backends (the ``backend`` fixture).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import outsider_ip as ip
import pytest
import rummy101
from rummy101 import _backend
from rummy101.rules import Rules
from rummy101.tiles import Card, Tile

JOKER = ip.JOKER


# ---- helpers -----------------------------------------------------------------------------------
def codes_of(variant: str, rack: str) -> list[int]:
    piece = Card if variant == "classic" else Tile
    return [int(piece(t)) for t in rack.split()]


def text_of(variant: str, codes: Sequence[int]) -> str:
    piece = Card if variant == "classic" else Tile
    return " ".join(str(piece(c)) for c in codes)


def counts_of(codes: Sequence[int]) -> list[int]:
    counts = [0] * 53
    for c in codes:
        counts[c] += 1
    return counts


def check_laid(variant: ip.Variant, melds: Sequence[Any]) -> tuple[int, list[int]]:
    """Check every laid meld with the outsider's rules: (sum of the outsider's opening values,
    the codes laid). The package's own stated value of each meld must agree."""
    total = 0
    laid: list[int] = []
    for m in melds:
        tiles = [int(t) for t in m.tiles]
        stand = [int(s) for s in m.stand_for]
        v = ip.meld_value(variant, m.kind, tiles, stand)
        assert v is not None, f"{m} is no {m.kind} of {variant.name} under RULES.md"
        assert m.value() == v, (str(m), m.value(), v)
        assert m.to_json()["value"] == v
        total += v
        laid += tiles
    return total, laid


def expected_opening(
    variant: ip.Variant,
    codes: Sequence[int],
    must_use: int = -1,
    *,
    threshold: int | None = None,
    pairs_threshold: int = 5,
    keep: bool | None = None,
) -> tuple[str | None, int]:
    """(kind, value) that RULES.md and CONTRACT.md give for a rack's best opening."""
    counts = counts_of(codes)
    if keep is None:
        keep = variant.name != "classic"  # R101-7/R101-12, RO-13 keep a tile; CR-4 broad: not
    run = variant.name == "remi"  # RO-8
    if threshold is None:
        threshold = {"rummy101": 101, "remi": 45, "classic": 0}[variant.name]
    best = ip.best_melds(variant, counts, keep=keep, must_use=must_use, require_run=run)
    if best is not None and best >= threshold and best > 0:
        return "melds", best
    if variant.name == "rummy101":
        pairs = ip.max_pairs(counts, keep=True, must_use=must_use)
        if pairs is not None and pairs[0] >= max(1, pairs_threshold):
            return "pairs", pairs[0]
    if best is None:  # the package shows the best selection without the constraints (its reading)
        best = ip.best_melds(variant, counts, keep=keep)
    return None, best or 0


def check_opening(
    variant_name: str,
    codes: Sequence[int],
    must_use: int = -1,
    *,
    rules: str | None = None,
    threshold: int | None = None,
    pairs_threshold: int | None = None,
    keep: bool | None = None,
) -> None:
    """``rules``: a rule set of the variant with options; ``threshold`` / ``pairs_threshold``:
    the current ones (R101-14); ``keep``: what the options say about keeping a card (CR-4)."""
    variant = ip.VARIANTS[variant_name]
    rack = text_of(variant_name, codes)
    mu = (
        None
        if must_use < 0
        else (str(Tile(must_use)) if variant_name != "classic" else str(Card(must_use)))
    )
    o = rummy101.solve_opening(
        rules or variant_name,
        rack,
        must_use=mu,
        threshold=threshold,
        pairs_threshold=pairs_threshold,
    )
    kind, value = expected_opening(
        variant,
        codes,
        must_use,
        threshold=threshold,
        pairs_threshold=5 if pairs_threshold is None else pairs_threshold,
        keep=keep,
    )
    where = f"{rules or variant_name} rack {rack!r} must_use={mu} on {rummy101.backend_name()}"
    assert (o.kind, o.value) == (kind, value), where
    rest = [int(t) for t in o.rest]
    if variant_name != "classic" or keep:
        assert rest, f"{where}: no tile kept to discard (R101-12, RO-13, CR-4 narrow)"
    if o.kind == "pairs":
        laid = []
        for p in o.melds:
            tiles, stand = [int(t) for t in p.tiles], [int(s) for s in p.stand_for]
            assert p.kind == "pair" and ip.meld_value(variant, "pair", tiles, stand) is not None, (
                where
            )
            laid += tiles
        assert len(o.melds) == o.value, where
        # docs/solve.md "Pairs": among the most pairs, the least penalty left (a joker at 101)
        counts = counts_of(codes)
        least = ip.max_pairs(counts, keep=True, must_use=must_use)
        assert least is not None
        assert sum(101 if c == JOKER else ip.number_of(c) for c in rest) == least[1], where
    else:
        total, laid = check_laid(variant, o.melds)
        assert total == o.value, f"{where}: melds add up to {total}, answer says {o.value}"
        if o.kind == "melds" and variant_name == "remi":
            assert any(m.kind == "run" for m in o.melds), f"{where}: RO-8 lay-down without a run"
    assert Counter(laid) + Counter(rest) == Counter(codes), f"{where}: melds + rest != rack"
    if must_use >= 0 and o.kind is not None:
        assert must_use in laid, f"{where}: the taken tile is not in the opening (R101-4)"


def check_penalty(variant_name: str, codes: Sequence[int], keep: bool) -> None:
    variant = ip.VARIANTS[variant_name]
    rack = text_of(variant_name, codes)
    p = rummy101.solve_penalty(variant_name, rack, keep=keep)
    counts = counts_of(codes)
    laid_best = ip.best_melds(variant, counts, keep=keep, valuation="penalty")
    total = sum(variant.rest_value(c) for c in codes)
    where = f"{variant_name} rack {rack!r} keep={keep} on {rummy101.backend_name()}"
    assert laid_best is not None
    assert p.penalty == total - laid_best, where
    _, laid = check_laid(variant, p.melds)
    rest = [int(t) for t in p.rest]
    assert Counter(laid) + Counter(rest) == Counter(codes), where
    assert sum(variant.rest_value(c) for c in rest) == p.penalty, where
    if keep:
        assert rest, where


def check_tabla(codes: Sequence[int]) -> None:
    rack = text_of("remi", codes)
    ans = rummy101.solve_tabla("remi", rack)
    where = f"tabla rack {rack!r} on {rummy101.backend_name()}"
    if len(codes) == 14:
        mine = ip.tabla_patterns(codes)
        assert {p.pattern for p in ans.patterns} == mine, where
        want = max((ip.TABLA_SCORE[p] for p in mine), default=0)
        assert (ans.best.score if ans.best else 0) == want, where
        scores = [p.score for p in ans.patterns]
        assert scores == sorted(scores, reverse=True), f"{where}: patterns not best first"
        for p in ans.patterns:
            assert p.score == ip.TABLA_SCORE[p.pattern], where
            check_close(p, list(codes), where)
        return
    mine_closes = {}
    for d in sorted(set(codes)):
        left = list(codes)
        left.remove(d)
        score = ip.tabla_best(left)
        if score:
            mine_closes[d] = score * (2 if d == JOKER else 1)  # RO-11 Joly finish doubles
    got = {int(c.discard): c.score for c in ans.closes}
    assert got == mine_closes, where
    assert (ans.best.score if ans.best else 0) == max(mine_closes.values(), default=0), where
    for c in ans.closes:
        left = list(codes)
        left.remove(int(c.discard))
        check_close(c, left, where)


def check_close(close: Any, codes: list[int], where: str) -> None:
    """A close's own evidence: a simple close's melds cover the 14 tiles (a run among them); a
    row is the 14 tiles along 1..13-1 with the pattern's colours."""
    if close.pattern == "simple":
        _, laid = check_laid(ip.REMI, close.melds)
        assert Counter(laid) == Counter(codes), where
        assert any(m.kind == "run" for m in close.melds), where
        return
    row = [int(t) for t in close.row]
    stand = [int(t) for t in close.row_stand_for]
    assert Counter(row) == Counter(codes), where
    assert [ip.number_of(s) for s in stand] == ip.ROW, where
    assert all(t in (JOKER, s) for t, s in zip(row, stand)), where
    colours = [ip.colour_of(s) for s in stand]
    differ = all(colours[i] != colours[i + 1] for i in range(13))
    pattern = close.pattern
    if pattern == "monocolor":
        assert len(set(colours)) == 1, where
    elif pattern == "bicolor":
        assert len(set(colours)) == 2 and differ, where
    else:
        assert pattern == "mozaic" and differ and len(set(colours[:4])) == 4, where


# ---- random racks ------------------------------------------------------------------------------
def tile_bag(jokers: int) -> list[int]:
    return [c for c in range(52) for _ in range(2)] + [JOKER] * jokers


def window_rack(
    rng: random.Random, size: int, jokers: int, lo: int, hi: int, colours: int
) -> list[int]:
    """A dense rack: tiles of numbers lo..hi (hi may be 14 = the 1 after 13) in a few colours."""
    cols = rng.sample(range(4), colours)
    numbers = [n if n <= 13 else 1 for n in range(lo, hi + 1)]
    bag = [ip.code_of(c, n) for c in cols for n in numbers for _ in range(2)]
    rack = rng.sample(bag, min(size - jokers, len(bag))) + [JOKER] * jokers
    return rack


def random_racks(variant: str, seed: int, count: int) -> list[list[int]]:
    rng = random.Random(f"outsider:{variant}:{seed}")
    out = []
    for i in range(count):
        if variant == "classic":
            size = rng.randint(3, 9)
            if i % 2:
                lo = rng.randint(1, 10)
                suits = rng.sample(range(4), rng.randint(2, 4))
                bag = [s * 13 + n - 1 for s in suits for n in range(lo, min(lo + 4, 13) + 1)]
                out.append(rng.sample(bag, min(size, len(bag))))
            else:
                out.append(rng.sample(range(52), size))
            continue
        max_jokers = 3 if variant == "rummy101" else 2
        jokers = rng.choice([0, 0, 1, 1, 2, max_jokers])
        if i % 3 == 0:
            size = rng.randint(6, 13)
            bag = tile_bag(0)
            out.append(rng.sample(bag, size - jokers) + [JOKER] * jokers)
        else:
            # rummy101's dense racks are bigger, so that many reach 101 (R101-7)
            size = rng.randint(7, 14) if variant == "remi" else rng.randint(10, 17)
            top = 14 if variant == "remi" else 13
            lo = rng.randint(1, top - 4) if i % 3 == 1 else rng.randint(8, top - 3)
            hi = min(top, lo + rng.randint(3, 5))
            out.append(window_rack(rng, size, jokers, lo, hi, rng.randint(2, 4)))
    return out


# ---- tests -------------------------------------------------------------------------------------
@pytest.mark.parametrize("variant", ["rummy101", "remi", "classic"])
def test_random_openings_match_the_outsider(backend: str, variant: str) -> None:
    for codes in random_racks(variant, 1, 70):
        check_opening(variant, codes)


@pytest.mark.parametrize("variant", ["rummy101", "remi"])
def test_random_openings_with_must_use(backend: str, variant: str) -> None:
    rng = random.Random(f"outsider-mu:{variant}")
    for codes in random_racks(variant, 2, 40):
        check_opening(variant, codes, must_use=rng.choice(codes))


@pytest.mark.parametrize("variant", ["rummy101", "remi", "classic"])
def test_random_penalties_match_the_outsider(backend: str, variant: str) -> None:
    for i, codes in enumerate(random_racks(variant, 3, 50)):
        check_penalty(variant, codes, keep=bool(i % 2))


def test_random_pairs_openings(backend: str) -> None:
    """Racks rich in pairs (R101-8), jokers among them, must_use sometimes."""
    rng = random.Random("outsider-pairs")
    for i in range(60):
        jokers = rng.choice([0, 1, 2, 3])
        doubles = rng.sample(range(52), rng.randint(2, 5))
        singles = rng.sample([c for c in range(52) if c not in doubles], rng.randint(1, 5))
        codes = [c for c in doubles for _ in range(2)] + singles + [JOKER] * jokers
        check_opening("rummy101", codes, must_use=rng.choice(codes) if i % 3 == 0 else -1)


def row_rack(rng: random.Random, pattern: str) -> list[int]:
    if pattern == "monocolor":
        c = rng.randrange(4)
        colours = [c] * 14
    elif pattern == "bicolor":
        a, b = rng.sample(range(4), 2)
        colours = [a if i % 2 == 0 else b for i in range(14)]
    else:  # a random colouring, often mozaic-like
        colours = rng.sample(range(4), 4)
        while len(colours) < 14:
            colours.append(rng.choice([c for c in range(4) if c != colours[-1]]))
    return [ip.code_of(c, n) for c, n in zip(colours, ip.ROW)]


def test_random_tabla_racks(backend: str) -> None:
    rng = random.Random("outsider-tabla")
    for i in range(36):
        codes = row_rack(rng, rng.choice(["monocolor", "bicolor", "mozaic", "mozaic"]))
        for _ in range(rng.choice([0, 0, 1, 2])):  # a Joly or a wrong tile in place of one
            j = rng.randrange(14)
            codes[j] = JOKER if codes.count(JOKER) < 2 and rng.random() < 0.6 else rng.randrange(52)
        if Counter(c for c in codes if c != JOKER).most_common(1)[0][1] > 2:
            continue
        if i % 2:
            extra = rng.choice([JOKER, rng.randrange(52)])
            if codes.count(extra) < 2:
                codes.append(extra)
        check_tabla(codes)


def test_random_simple_closes(backend: str) -> None:
    """Racks built from runs and sets (RO-11 simple), with a Joly now and then."""
    rng = random.Random("outsider-simple")
    for i in range(30):
        codes: list[int] = []
        while len(codes) < 12:
            if rng.random() < 0.6:
                c, s = rng.randrange(4), rng.randint(1, 12)
                length = rng.randint(3, 5)
                numbers = [n if n <= 13 else 1 for n in range(s, s + length)][:14]
                codes += [ip.code_of(c, n) for n in numbers]
            else:
                n = rng.randint(1, 13)
                codes += [ip.code_of(c, n) for c in rng.sample(range(4), rng.choice([3, 4]))]
        codes = codes[:14] + [rng.randrange(52) for _ in range(max(0, 14 - len(codes)))]
        if i % 3 == 0:
            codes[rng.randrange(14)] = JOKER
        if max(Counter(c for c in codes if c != JOKER).values()) > 2:
            continue
        if i % 2:
            codes.append(rng.randrange(52))
            if max(Counter(c for c in codes if c != JOKER).values()) > 2:
                codes.pop()
        check_tabla(codes)


# ---- hand-built corners ------------------------------------------------------------------------
CORNER_OPENINGS = [
    # R101-5: 1 is low only; 12-13-1 is no run, so these three are worth nothing together
    ("rummy101", "R12 R13 R1 R1 R2 R3 K5"),
    ("rummy101", "R11 R12 R13 R1 Y1 B1 K1 K13 B13 Y13 R10 Y10 B10 K2"),
    # R101-6: jokers worth the tile they stand for, at the high end of a run
    ("rummy101", "R11 R12 * * K13 Y13 B13 B12 Y12 K12 R2"),
    ("rummy101", "R10 R11 Y10 Y11 B12 K13 K12 * * * * * *"),
    ("rummy101", "* * * * * * R1 R2"),
    ("rummy101", "R13 * * Y13 * B13 K1"),
    # R101-7: sets alone open; exactly 101 opens
    ("rummy101", "R13 Y13 B13 K13 R12 Y12 B12 K12 R11 Y11 B11 R1"),
    ("rummy101", "R13 Y13 B13 K13 R12 Y12 B12 K12 R10 Y10 K10 K2"),
    ("rummy101", "R13 Y13 B13 K13 R11 Y11 B11 R4 Y4 B4 K4 K1"),  # exactly 101
    # R101-8: five pairs, a joker for one of them; two jokers are no pair
    ("rummy101", "R1 R1 Y2 Y2 B3 B3 K4 K4 R5 * K9"),
    ("rummy101", "R1 R1 Y2 Y2 B3 B3 K4 K4 * * K9"),
    ("rummy101", "R1 R1 Y2 Y2 B3 B3 K4 K4 R5 *"),
    ("rummy101", "R1 B1 Y2 K2 B3 B3 K4 K4 R5 * * *"),
    # RO-6: high ace, 14-tile run, 13-1-2 no run
    ("remi", "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1 K5"),
    ("remi", "R12 R13 R1 Y5 B5 K5 Y7"),
    ("remi", "R13 R1 R2 Y5 B5 K5 Y7 Y8 Y9 K2"),
    ("remi", "R1 Y1 B1 K1 R2 R3 Y2 Y3 K9"),
    ("remi", "R12 R13 * B1 Y1 K1 K4 K5 K6 K7"),
    # RO-7: a 3-tile meld holds at most one Joly; two Jolys need four real tiles
    ("remi", "R10 * * K10 K11 K12 Y3"),
    ("remi", "R10 R11 * * R14 K10 K11 K12 Y3".replace("R14", "R13")),
    ("remi", "* * R11 R12 R13 R1 B2"),
    ("remi", "* * Y10 B10 K10 R10 B2 B3 B4"),
    # RO-8: sets alone never lay down; a Joly worth what it stands for (a high 1: 10)
    ("remi", "R13 Y13 B13 K13 R12 Y12 B12 K12 R11 Y11 B11 K2"),
    ("remi", "Y12 Y13 * R5 R6 R7 B10 K10 Y10 R2"),
    ("remi", "* Y2 Y3 R10 R11 R12 R13 B3"),
    ("remi", "R1 Y1 * R5 R6 R7 R8 K2"),  # a Joly in a set of 1s: 10 (RO-8)
    ("remi", "R12 R13 * K3 K4 K5 K6 K7 Y2"),  # a Joly as the high 1 or as R11: 10
    # CR-2: Q-K-A and K-A-2 are no runs; sets of one rank, 3-4 suits
    ("classic", "QS KS AS 2S 3S"),
    ("classic", "KH AH 2H 7C"),
    ("classic", "AS 2S 3S QH QD KC"),
    ("classic", "7S 7H 7D 7C 8C 9C"),
    ("classic", "10S JS QS KS 10H 10D"),
]


@pytest.mark.parametrize(("variant", "rack"), CORNER_OPENINGS)
def test_corner_openings(backend: str, variant: str, rack: str) -> None:
    codes = codes_of(variant, rack)
    check_opening(variant, codes)
    check_penalty(variant, codes, keep=True)
    check_penalty(variant, codes, keep=False)


CORNER_TABLA = [
    "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1",  # monocolor (and simple)
    "R1 Y2 R3 Y4 R5 Y6 R7 Y8 R9 Y10 R11 Y12 R13 Y1",  # bicolor
    "R1 Y2 R3 Y4 R5 Y6 R7 Y8 R9 Y10 R11 Y12 R13 R1",  # 13 and the final 1 of one colour: none
    "R1 Y2 B3 K4 R5 Y6 R7 Y8 R9 Y10 R11 Y12 R13 Y1",  # mozaic
    "R1 Y2 B3 K4 R5 Y6 R7 Y8 R9 Y10 R11 Y12 R13 R1",  # 13 and the final 1 red: no mozaic
    "R1 Y2 B3 Y4 R5 Y6 R7 Y8 R9 Y10 R11 Y12 R13 K1",  # 1-2-3-4 in three colours: no mozaic
    "R1 Y2 B3 K4 R5 Y6 R7 Y8 R9 Y10 R11 Y12 R13 *",  # a Joly as the final 1
    "* Y2 R3 Y4 R5 Y6 R7 Y8 R9 Y10 R11 Y12 R13 *",  # two Jolys: bicolor, also mozaic
    "R1 R2 R3 R4 R5 R6 R7 * R9 R10 R11 R12 R13 R1",  # a Joly inside a monocolor row
    "R1 R2 R3 Y5 B5 K5 K7 K8 K9 K10 B11 B12 B13 B1",  # simple, high ace
    "R1 R2 * Y5 B5 K5 K7 K8 K9 K10 B11 B12 B13 B1",
    "R1 * * Y5 B5 K5 K7 K8 K9 K10 B11 B12 B13 B1",  # R1 * * breaks RO-7: not simple
    "R5 Y5 B5 K5 R6 Y6 B6 K6 R7 Y7 B7 R9 Y9 B9",  # sets only: no simple close
    "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1 K5",
    "R1 Y2 R3 Y4 R5 Y6 R7 Y8 R9 Y10 R11 Y12 R13 Y1 *",  # Joly finish doubles
    "R1 R2 R3 R4 R5 Y5 Y6 Y7 B9 B10 B11 K12 K13 K1 K5",
    "R1 Y2 B3 K4 R5 Y6 R7 Y8 R9 Y10 R11 Y12 R13 Y1 Y13",
]


@pytest.mark.parametrize("rack", CORNER_TABLA)
def test_corner_tabla(backend: str, rack: str) -> None:
    check_tabla(codes_of("remi", rack))


@pytest.mark.parametrize(
    ("variant", "rack", "must_use"),
    [
        ("rummy101", "R10 R11 R12 R13 Y13 B13 K13 Y12 B12 K12 R1 R2 R3", "R1"),
        ("rummy101", "R1 R1 Y2 Y2 B3 B3 K4 K4 R5 R5 K9 * ", "K9"),
        ("rummy101", "R1 R1 Y2 Y2 B3 B3 K4 K4 R5 R5 K9 * ", "*"),
        ("remi", "R12 R13 R1 Y5 B5 K5 Y7 Y8", "Y8"),
        ("remi", "R12 R13 R1 Y5 B5 K5 K9 Y7", "K9"),
        ("remi", "R12 R13 R1 Y5 B5 K5 K9 Y7 *", "*"),
    ],
)
def test_corner_must_use(backend: str, variant: str, rack: str, must_use: str) -> None:
    check_opening(variant, codes_of(variant, rack), must_use=int(Tile(must_use)))


@pytest.mark.parametrize("variant", ["rummy101", "remi"])
def test_core_penalty_with_must_use_and_run(backend: str, variant: str) -> None:
    """The core search under the penalty valuation with must_use and require_run (the bots' and
    engines' calls): the least penalty the outsider's program finds under the same constraints."""
    rules = Rules.parse(variant)
    core = _backend.core()
    cr = _backend.core_rules(rules, "penalty")
    v = ip.VARIANTS[variant]
    rng = random.Random(f"outsider-core:{variant}")
    for i, codes in enumerate(random_racks(variant, 4, 30)):
        counts = counts_of(codes)
        mu = rng.choice(codes) if i % 2 else -1
        run = i % 3 == 0
        keep = i % 4 != 1
        value, _melds = core.solve_melds(cr, counts, keep, mu, run, rummy101.solve.current_budget())
        want = ip.best_melds(
            v, counts, keep=keep, must_use=mu, require_run=run, valuation="penalty"
        )
        assert (value if value >= 0 else None) == want, (
            variant,
            text_of(variant, codes),
            keep,
            mu,
            run,
        )


def test_increasing_thresholds(backend: str) -> None:
    """R101-14: the current thresholds (after an opening of 116 the next needs 117; after five
    pairs, six), given to the solver as ``threshold`` / ``pairs_threshold``."""
    rng = random.Random("outsider-increasing")
    for i, codes in enumerate(random_racks("rummy101", 5, 30)):
        check_opening(
            "rummy101",
            codes,
            threshold=rng.choice([102, 117, 130]),
            pairs_threshold=rng.choice([5, 6, 7]),
            rules="rummy101(threshold=increasing)" if i % 2 else None,
        )
    check_opening(
        "rummy101",
        codes_of("rummy101", "R13 Y13 B13 K13 R11 Y11 B11 R4 Y4 B4 K4 K1"),
        threshold=102,
    )
    pairs6 = codes_of("rummy101", "R1 R1 Y2 Y2 B3 B3 K4 K4 R5 R5 K9 * R7")
    check_opening("rummy101", pairs6, pairs_threshold=6)
    check_opening("rummy101", pairs6, pairs_threshold=7)


def test_button_jokers(backend: str) -> None:
    """R101-10: button jokers are ordinary jokers, so a rack may hold more than two."""
    rng = random.Random("outsider-button")
    for _ in range(15):
        jokers = rng.randint(3, 4)
        codes = window_rack(
            rng, rng.randint(8, 12), jokers, rng.randint(6, 9), 13, rng.randint(2, 3)
        )
        check_opening("rummy101", codes, rules="rummy101(button_jokers=2)")
        check_penalty("rummy101", codes, keep=True)


def test_classic_narrow_go_out(backend: str) -> None:
    """CR-4 go_out=narrow: only a hand of three that is one meld goes out without a discard."""
    rules = "classic(go_out=narrow)"
    for codes in random_racks("classic", 6, 40):
        check_opening("classic", codes, rules=rules, keep=len(codes) != 3)
    for hand in ("QC QS QH", "AS 2S 3S", "QS KS AS", "7S 7H 7D 7C"):
        codes = codes_of("classic", hand)
        check_opening("classic", codes, rules=rules, keep=len(codes) != 3)


@pytest.mark.parametrize("variant", ["rummy101", "remi", "classic"])
def test_batch_answers_are_the_single_answers(backend: str, variant: str) -> None:
    """solve_openings (the batch entry point) answers as solve_opening does on the same racks."""
    racks = [text_of(variant, codes) for codes in random_racks(variant, 1, 70)]
    assert rummy101.solve_openings(variant, racks) == [
        rummy101.solve_opening(variant, r) for r in racks
    ]


def meld_like(rng: random.Random, v: ip.Variant) -> list[int]:
    """A run or set (a Remi run may end in the high 1), some places jokers, often spoilt: a tile
    changed, the order shuffled, or cut to two tiles."""
    if rng.random() < 0.6:
        colour, length = rng.randrange(4), rng.randint(3, 6)
        start = rng.randint(1, (15 if v.high_ace else 14) - length)
        tiles = [ip.code_of(colour, n if n <= 13 else 1) for n in range(start, start + length)]
    else:
        n = rng.randint(1, 13)
        tiles = [ip.code_of(c, n) for c in rng.sample(range(4), rng.choice([3, 4]))]
    if v.jokers:
        for _ in range(rng.choice([0, 1, 1, 2, 3])):
            tiles[rng.randrange(len(tiles))] = JOKER
    spoil = rng.random()
    if spoil < 0.2:
        tiles[rng.randrange(len(tiles))] = rng.randrange(52)
    elif spoil < 0.3:
        rng.shuffle(tiles)
    elif spoil < 0.4:
        tiles = tiles[:2]
    return tiles


@pytest.mark.parametrize("variant", ["rummy101", "remi", "classic"])
def test_check_meld_matches_the_outsider(backend: str, variant: str) -> None:
    """rummy101.check_meld: a meld exactly when the outsider reads the tiles (in table order) as
    a run, a set or a pair; its opening value that reading's, its end value the rack values."""
    v = ip.VARIANTS[variant]
    rng = random.Random(f"outsider-check:{variant}")
    for i in range(400):
        tiles = meld_like(rng, v)
        if max(Counter(tiles).values()) > (2 if variant != "classic" else 1):
            continue
        readings = ip.meld_readings(v, tiles)
        info = rummy101.check_meld(variant, text_of(variant, tiles))
        where = f"{variant} {text_of(variant, tiles)!r}: package {info.kind} {info.open_value}, outsider {readings}"
        assert info.valid == bool(readings), where
        if info.valid:
            assert info.open_value == readings[info.kind], where
            assert info.end_value == sum(v.rest_value(t) for t in tiles), where


def outsider_distance(codes: Sequence[int]) -> tuple[int, int, int, int]:
    if len(codes) == 15:
        each = []
        for d in set(codes):
            left = list(codes)
            left.remove(d)
            each.append(outsider_distance(left))
        return tuple(min(e[k] for e in each) for k in range(4))  # type: ignore[return-value]
    rows = (ip.row_distance(codes, p) for p in ("mozaic", "bicolor", "monocolor"))
    return (ip.simple_distance(codes), *rows)


def test_tabla_distance_matches_the_outsider(backend: str) -> None:
    """tabla_distance: the fewest tiles to replace for each row pattern, 14 - the most tiles
    runs/sets with a run cover for the simple close (the documented definitions), exact."""
    rng = random.Random("outsider-distance")
    for i in range(40):
        if i % 2:
            codes = row_rack(rng, rng.choice(["monocolor", "bicolor", "mozaic"]))
            for _ in range(rng.randint(1, 6)):
                codes[rng.randrange(14)] = JOKER if rng.random() < 0.15 else rng.randrange(52)
        else:
            codes = rng.sample(tile_bag(2), 14)
        if max(Counter(codes).values()) > 2:
            continue
        if i % 5 == 0:
            extra = rng.randrange(52)
            if codes.count(extra) < 2:
                codes.append(extra)
        d = rummy101.tabla_distance("remi", text_of("remi", codes))
        got = (d.simple, d.mozaic, d.bicolor, d.monocolor)
        assert got == outsider_distance(codes), text_of("remi", codes)

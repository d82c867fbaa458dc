"""Checks of the independent reference checker tests/reference.py: hand-made racks with known
answers (rule IDs in the test names), and agreement with a brute-force enumeration on small
random racks that uses the meld classifier (a different code path from the integer program)."""

from __future__ import annotations

import itertools
import random
from functools import cache

import pytest
from outsider_ip import REMI as OUT_REMI
from outsider_ip import best_melds as outsider_best
from reference import reference_best, reference_max_pairs, templates
from rummy101 import Rules, _backend
from rummy101.tiles import counts_of, parse_cards, parse_tiles

R101 = Rules.parse("rummy101")
REMI = Rules.parse("remi")
CLASSIC = Rules.parse("classic")


def c(text: str) -> list[int]:
    return counts_of(parse_tiles(text))


def cards(text: str) -> list[int]:
    return counts_of(parse_cards(text))


# ---- known answers ------------------------------------------------------------------------
def test_three_concurrent_red_runs_and_a_joker_set_r101_5() -> None:
    """R10 R11 R11 R12 R12 R13 R13 * * (keep=False): the three red runs R11-R13, R11-R13 and
    R10-R11-R12 (jokers as R11, R12) are worth 105, but R13 with two jokers is a set of 13s
    (R101-5: a set holds >= 1 numbered tile and any number of jokers) worth 39, so the optimum
    is R10 R11 R12 + R11 R12 R13 + R13 * * = 33 + 36 + 39 = 108."""
    rack = c("R10 R11 R11 R12 R12 R13 R13 * *")
    assert reference_best(R101, rack, keep=False) == 108
    # Without the second R13 there is no joker set: R11 R12 R13 * (joker R10) and R10 R11 R12 *
    # (joker R13) are worth 46 + 46 = 92.
    assert reference_best(R101, c("R10 R11 R11 R12 R12 R13 * *"), keep=False) == 92


def test_r101_7_opening_example_33_36_33() -> None:
    """R101-7: melds worth 33, 36 and 33 make 102; a tile is kept to discard."""
    rack = c("R10 R11 R12 B11 B12 B13 Y10 Y11 Y12 K2")
    assert reference_best(R101, rack) == 102
    assert reference_best(R101, c("R10 R11 R12 B11 B12 B13 K2")) == 69


def test_keep_a_tile_r101_12() -> None:
    """R101-12: holding only 7-8-9 you cannot lay all three (keep=True); without keep, 24."""
    assert reference_best(R101, c("R7 R8 R9")) == 0
    assert reference_best(R101, c("R7 R8 R9"), keep=False) == 24
    assert reference_best(R101, c("R7 R8 R9 R10")) == 27
    assert reference_best(R101, [0] * 53) == -1              # nothing to keep
    assert reference_best(R101, [0] * 53, keep=False) == 0


def test_ro8_sets_alone_never_lay_down() -> None:
    """RO-8: 60 points of sets with no run do not lay down (require_run), though worth 60."""
    rack = c("R10 Y10 B10 R11 Y11 B11 K2 K5")
    assert reference_best(REMI, rack, require_run=True) == -1
    assert reference_best(REMI, rack) == 60
    assert reference_best(REMI, c("R10 Y10 B10 R11 Y11 B11 K2 K3 K4 R1"), require_run=True) == 75


def test_ro8_laydown_values_of_the_ace() -> None:
    """RO-8: 1 low in a run 5, high 10, in a set 10; a Joly takes the value it stands for."""
    assert reference_best(REMI, c("R12 R13 R1 K2")) == 30
    assert reference_best(REMI, c("R1 R2 R3 K2")) == 15
    assert reference_best(REMI, c("R1 Y1 B1 K9")) == 30
    assert reference_best(REMI, c("R12 R13 * K9")) == 30       # Joly as the high 1
    assert reference_best(REMI, c("R2 R3 * K9")) == 15


def test_ro8_joly_run_and_joly_set_keep_off() -> None:
    """RO-8, RO-7: R1 R2 R3 * (20) and R1 * K1 (30) lay 50. HiGHS 1.12's MIP presolve (scipy
    1.17.1) answered this model 45 as optimal (fuzz seed 4848, rack 34383): the reference runs
    without it, and so does the outsider's integer program (the solvers:
    test_solve_reference.py's ADVERSARIAL)."""
    rack = c("R1 R1 R2 R3 K1 K1 K4 * *")
    assert reference_best(REMI, rack, keep=False, require_run=True) == 50
    assert reference_best(REMI, rack, keep=True, require_run=True) == 50
    assert reference_best(REMI, rack, keep=False) == 60       # R1 * K1 twice, no run
    assert outsider_best(OUT_REMI, rack, keep=False, require_run=True) == 50


def test_ro6_high_ace_and_ro7_ratio() -> None:
    """RO-6: the 14-tile run 1..13-1; RO-7: two Jolys need four real tiles."""
    full = "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1"
    assert reference_best(REMI, c(full + " K2")) == 5 + 8 * 5 + 4 * 10 + 10
    assert reference_best(REMI, c("R5 R6 * * K9"), keep=True) == 15   # one Joly only
    assert reference_best(REMI, c("R5 R6 R7 R8 * * K9")) == 5 * 5 + 10   # Jolys as R9 R10
    assert reference_best(R101, c("R5 R6 * * K1")) == 5 + 6 + 7 + 8   # no ratio in 101
    assert reference_best(R101, c("R5 R6 * * K9")) == 9 + 10 + 11     # K9 * * beats it
    assert reference_best(R101, c("R12 R13 R1 K9")) == 0             # 1 is low only (R101-5)


def test_penalty_valuation_ro12_and_r101_6() -> None:
    """Penalty valuation: jokers at their fixed value (101, Joly 50), Remi ace 25 (RO-12)."""
    assert reference_best(R101, c("R5 R6 * K9"), valuation="penalty") == 5 + 6 + 101
    assert reference_best(REMI, c("R12 R13 R1 K9"), valuation="penalty") == 10 + 10 + 25
    assert reference_best(REMI, c("R12 R13 * K9"), valuation="penalty") == 10 + 10 + 50


def test_must_use_r101_4() -> None:
    """R101-4: a taken discard must be used in the opening; must_use forces it into a meld."""
    rack = c("R3 R4 R5 R6 B9 K9")
    assert reference_best(R101, rack) == 18
    assert reference_best(R101, rack, must_use=int(parse_tiles("B9")[0])) == -1
    b9 = int(parse_tiles("B9")[0])
    assert reference_best(R101, c("R3 R4 R5 R6 B9 K9 *"), must_use=b9, keep=False) == 18 + 27
    assert reference_best(R101, c("R3 R4 R5 R6 B9 K9 *"), must_use=b9) == 15 + 27  # R3 kept
    assert reference_best(R101, c("R3 R4 R5 R6 K1 *"), must_use=52) == 3 + 4 + 5 + 6 + 7
    assert reference_best(R101, rack, must_use=int(parse_tiles("Y1")[0])) == -1


def test_classic_cards_cr2() -> None:
    """CR-2: ace 1, J Q K 10; Q-K-A is no run; a hand may go out without keeping a card."""
    assert reference_best(CLASSIC, cards("QS KS AS 2H"), keep=False) == 0
    assert reference_best(CLASSIC, cards("AS 2S 3S QH"), keep=False) == 6
    assert reference_best(CLASSIC, cards("JS QS KS 10S"), keep=False) == 40
    assert reference_best(CLASSIC, cards("KS KH KD KC"), keep=False) == 40


def test_max_pairs_r101_8() -> None:
    """R101-8 pairs: two equal tiles or a tile and a joker; R7 B7 is no pair (R101-5)."""
    assert reference_max_pairs(c("R5 R5 B5 * * K1 K1 Y2")) == 3
    assert reference_max_pairs(c("R7 B7")) == 0
    assert reference_max_pairs(c("R7 R7"), keep=True) == 0
    assert reference_max_pairs(c("R7 R7"), keep=False) == 1
    assert reference_max_pairs(c("R5 * *"), keep=False) == 1        # a pair holds one joker
    assert reference_max_pairs(c("R5 R5 * *"), keep=False) == 2     # R5+*, R5+*
    assert reference_max_pairs(c("R5 R5 K2"), must_use=int(parse_tiles("K2")[0])) == -1


def test_template_counts() -> None:
    """Runs: 4 colours x (lengths 3..13 in 1..13) = 264, or 312 with the high ace; sets 13 x 5."""
    assert len(templates(R101)) == 264 + 65
    assert len(templates(REMI)) == 312 + 65
    assert len(templates(CLASSIC)) == 264 + 65


def test_bad_input() -> None:
    with pytest.raises(ValueError, match="53 non-negative"):
        reference_best(R101, [0] * 52)
    with pytest.raises(ValueError, match="must_use"):
        reference_best(R101, [0] * 53, must_use=53)


# ---- brute force on small racks -----------------------------------------------------------
def _best_as_meld(rules: Rules, valuation: str, tiles: tuple[int, ...]) -> int | None:
    """Best value of a multiset of tiles laid as one run or set (brute force over the ascending
    arrangements with jokers at every place), using the core classifier; None if no meld."""
    core = _backend._load("pure")
    cr = _backend.core_rules(rules, valuation, "pure")  # type: ignore[arg-type]
    params = rules.params(valuation)  # type: ignore[arg-type]
    reals = sorted(t for t in tiles if t != 52)
    jokers = len(tiles) - len(reals)
    n = len(tiles)
    best: int | None = None
    orders = [reals]
    aces = [t for t in reals if t % 13 == 0]
    if aces:  # a 1 may stand last as the high ace
        orders.append([t for t in reals if t % 13 != 0] + aces)
    for order in orders:
        for places in itertools.combinations(range(n), jokers):
            arr, it = [], iter(order)
            for i in range(n):
                arr.append(52 if i in places else next(it))
            kind, _, _ = core.classify_meld(cr, arr)
            if kind in (1, 2):
                v = core.meld_value(cr, arr)
                best = v if best is None else max(best, v)
    # the set reading of an ambiguous meld (R13 * * is also R13 Y13 B13)
    if reals and 3 <= n <= 4 and len({t % 13 for t in reals}) == 1 \
            and len({t // 13 for t in reals}) == len(reals) and len(reals) >= rules.joker_ratio * jokers:
        num = reals[0] % 13 + 1
        jv = params.set_value[num] if params.joker_value < 0 else params.joker_value
        v = len(reals) * params.set_value[num] + jokers * jv
        best = v if best is None else max(best, v)
    return best


def brute_best(rules: Rules, rack: list[int], *, valuation: str = "open", keep: bool = True,
               must_use: int = -1, require_run: bool = False) -> int:
    """Exhaustive search over all ways to lay disjoint melds from a small rack."""
    rack = sorted(rack)

    @cache
    def meld_value_of(tiles: tuple[int, ...]) -> tuple[int | None, bool]:
        v = _best_as_meld(rules, valuation, tiles)
        # is there a run reading? (needed for require_run)
        is_run = False
        if v is not None and require_run:
            is_run = _has_run(rules, valuation, tiles)
        return v, is_run

    @cache
    def go(rest: tuple[int, ...], kept: bool, ran: bool, used_must: bool) -> int:
        if not rest:
            ok = (kept or not keep) and (ran or not require_run) and (used_must or must_use < 0)
            return 0 if ok else -1
        first, others = rest[0], rest[1:]
        best = go(others, True, ran, used_must)  # leave the first tile on the rack
        seen = set()
        for size in range(2, len(others) + 1):
            for combo in itertools.combinations(others, size):
                tiles = (first, *combo)
                if tiles in seen:
                    continue
                seen.add(tiles)
                v, _ = meld_value_of(tiles)
                if v is None:
                    continue
                left = list(others)
                for t in combo:
                    left.remove(t)
                uses_must = used_must or must_use in tiles
                # a melded run needs a run reading; try it as both when possible
                sub = go(tuple(left), kept, ran, uses_must)
                if sub >= 0:
                    best = max(best, v + sub)
                if require_run and not ran:
                    rv = _run_value(rules, valuation, tiles)
                    if rv is not None:
                        sub = go(tuple(left), kept, True, uses_must)
                        if sub >= 0:
                            best = max(best, rv + sub)
        return best

    return go(tuple(rack), False, False, False)


def _run_value(rules: Rules, valuation: str, tiles: tuple[int, ...]) -> int | None:
    core = _backend._load("pure")
    cr = _backend.core_rules(rules, valuation, "pure")  # type: ignore[arg-type]
    reals = sorted(t for t in tiles if t != 52)
    jokers = len(tiles) - len(reals)
    n = len(tiles)
    orders = [reals, [t for t in reals if t % 13 != 0] + [t for t in reals if t % 13 == 0]]
    best = None
    for order in orders:
        for places in itertools.combinations(range(n), jokers):
            arr, it = [], iter(order)
            for i in range(n):
                arr.append(52 if i in places else next(it))
            kind, _, _ = core.classify_meld(cr, arr)
            if kind == 1:
                v = core.meld_value(cr, arr)
                best = v if best is None else max(best, v)
    return best


def _has_run(rules: Rules, valuation: str, tiles: tuple[int, ...]) -> bool:
    return _run_value(rules, valuation, tiles) is not None


def _random_rack(rng: random.Random, rules: Rules, size: int) -> list[int]:
    if rules.family == "cards":
        return rng.sample(range(52), size)
    # a dense pool (two colours, a few numbers) so that small racks hold many melds
    cols = rng.sample(range(4), rng.choice([1, 2, 4]))
    lo = rng.choice([1, 5, 10, 11])
    pool = [col * 13 + num - 1 for col in cols for num in range(lo, min(lo + 5, 14))] * 2
    pool += [52] * (rules.jokers + (1 if rules.max_rack_jokers > 2 else 0))  # R101-10 button joker
    return rng.sample(pool, min(size, len(pool)))


def _compare_with_brute_force(spec: str, racks: int, max_size: int, seed: str) -> None:
    rules = Rules.parse(spec)
    rng = random.Random(seed)
    for _ in range(racks):
        rack = _random_rack(rng, rules, rng.randint(3, max_size))
        counts = counts_of(rack)
        valuation = rng.choice(["open", "penalty"])
        keep = rng.random() < 0.6
        must_use = rng.choice([-1, -1, rng.choice(rack)])
        require_run = rng.random() < 0.3
        want = brute_best(rules, rack, valuation=valuation, keep=keep, must_use=must_use,
                          require_run=require_run)
        got = reference_best(rules, counts, valuation=valuation, keep=keep, must_use=must_use,  # type: ignore[arg-type]
                             require_run=require_run)
        assert got == want, (spec, rack, valuation, keep, must_use, require_run)


@pytest.mark.parametrize("spec", ["rummy101", "remi", "classic"])
def test_reference_matches_brute_force(spec: str) -> None:
    _compare_with_brute_force(spec, 150, 8, f"ref-{spec}")


@pytest.mark.slow
@pytest.mark.parametrize("spec", ["rummy101", "remi", "classic"])
def test_reference_matches_brute_force_long(spec: str) -> None:
    _compare_with_brute_force(spec, 1500, 9, f"ref-long-{spec}")


def _brute_pairs(rack: list[int], keep: bool, must_use: int) -> int:
    """Most pairs by trying every count of real pairs and joker pairs per tile."""
    counts = counts_of(rack)
    best = -1
    real = [k for k in range(52) if counts[k]]
    ranges = [range(counts[k] // 2 + 1) for k in real]
    for ps in itertools.product(*ranges):
        for qs in itertools.product(*[range(counts[k] - 2 * p + 1) for k, p in zip(real, ps)]):
            if sum(qs) > counts[52]:
                continue
            used = 2 * (sum(ps) + sum(qs))
            if keep and used > len(rack) - 1:
                continue
            if must_use == 52 and sum(qs) == 0:
                continue
            if 0 <= must_use < 52 and not any(
                    k == must_use and (p or q) for k, p, q in zip(real, ps, qs)):
                continue
            best = max(best, sum(ps) + sum(qs))
    return best



def test_max_pairs_matches_brute_force() -> None:
    rng = random.Random("pairs")
    for _ in range(100):
        pool = [k for k in rng.sample(range(52), 5) for _ in range(2)] + [52, 52]
        rack = rng.sample(pool, rng.randint(1, 9))
        keep = rng.random() < 0.5
        must_use = rng.choice([-1, rng.choice(rack)])
        counts = counts_of(rack)

        assert reference_max_pairs(counts, keep=keep, must_use=must_use) == _brute_pairs(rack, keep, must_use), (rack, keep, must_use)

"""Exactness of solve_melds / max_pairs: values against the independent integer program
(tests/reference.py) and a naive brute force (tests/solve_brute.py), on random and adversarial
racks per variant; every returned arrangement is re-validated with the meld logic.

Rule IDs: R101-5/R101-6/R101-7/R101-8/R101-12 (rummy101), RO-6/RO-7/RO-8/RO-12 (remi),
CR-2/CR-3 (classic).
"""

from __future__ import annotations

import os
import random
from collections.abc import Sequence
from typing import Any

import pytest
from reference import reference_best, reference_max_pairs
from rummy101 import Rules, _backend
from rummy101.melds import Meld
from rummy101.tiles import counts_of, parse_cards, parse_tiles
from solve_brute import brute_best

R101 = Rules.parse("rummy101")
REMI = Rules.parse("remi")
CLASSIC = Rules.parse("classic")
VARIANTS = (R101, REMI, CLASSIC)


def bench_file(name: str) -> str | None:
    """A rack file of the shared benchmark set (../shared/bench beside the checkout), or None."""
    here = os.path.dirname(os.path.abspath(__file__))
    for base in (os.environ.get("RUMMY101_SHARED", ""), os.path.join(here, "..", "..", "shared"),
                 os.path.join(here, "..", "..", "..", "shared")):
        path = os.path.join(base, "bench", name)
        if base and os.path.exists(path):
            return path
    return None


def check_arrangement(rules: Rules, valuation: str, counts: Sequence[int], keep: bool,
                      must_use: int, require_run: bool, result: tuple[int, list[Any]]) -> None:
    """The melds are legal (classify_meld via Meld.from_core), disjoint, drawn from the rack,
    meet the constraints, and their values add up to the returned value."""
    value, melds = result
    if value < 0:
        assert melds == []
        return
    rem = list(counts)
    total = 0
    ran = False
    for kind, tiles, stand in melds:
        m = Meld.from_core(rules, kind, tiles, stand)   # raises if the meld is illegal
        assert m.kind in ("run", "set")
        ran = ran or m.kind == "run"
        for code in tiles:
            rem[code] -= 1
            assert rem[code] >= 0, f"tile {code} used more often than it is on the rack"
        total += m.value(rules, valuation)  # type: ignore[arg-type]
    assert total == value
    if keep:
        assert sum(rem) >= 1
    if must_use >= 0:
        assert rem[must_use] < counts[must_use]
    if require_run:
        assert ran


def random_rack(rng: random.Random, rules: Rules, *, dense: bool) -> list[int]:
    """A random rack; ``dense`` racks stay within a few numbers and colours (many overlapping
    runs and sets), with high aces in remi."""
    counts = [0] * 53
    if dense:
        lo = rng.randint(1, 11)
        hi = min(13, lo + rng.randint(2, 5))
        colours = rng.sample(range(4), rng.randint(2, 4))
        numbers = list(range(lo, hi + 1)) + ([1, 12, 13] if rules.high_ace else [])
        size = rng.randint(6, 16)
    else:
        colours = list(range(4))
        numbers = list(range(1, 14))
        size = rng.randint(8, 22)
    for _ in range(400):
        if sum(counts) >= size:
            break
        code = rng.choice(colours) * 13 + rng.choice(numbers) - 1
        if counts[code] < rules.copies:
            counts[code] += 1
    if rules.max_rack_jokers:
        counts[52] = min(rules.max_rack_jokers, rng.choice([0, 1, 2, 2, 3]))
    return counts


def cases(rules: Rules, n: int, seed: int) -> list[tuple[list[int], bool, int, bool, str]]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        counts = random_rack(rng, rules, dense=i % 3 != 0)
        keep = rng.random() < 0.6
        present = [k for k in range(53) if counts[k]]
        must_use = rng.choice(present) if present and rng.random() < 0.3 else -1
        require_run = rng.random() < 0.3
        valuation = "penalty" if rng.random() < 0.3 else "open"
        out.append((counts, keep, must_use, require_run, valuation))
    return out


@pytest.mark.parametrize("rules", VARIANTS, ids=str)
def test_solve_melds_matches_integer_program(rules: Rules) -> None:
    """200 random racks per variant (2/3 dense, up to 3 jokers in rummy101, high aces in remi)
    with random keep/must_use/require_run: same optimum as the integer program."""
    core = _backend.core()
    for counts, keep, mu, rr, val in cases(rules, 200, seed=sum(map(ord, rules.variant))):
        cr = _backend.core_rules(rules, val)
        got = core.solve_melds(cr, counts, keep, mu, rr)
        want = reference_best(rules, counts, valuation=val, keep=keep, must_use=mu, require_run=rr)
        assert got[0] == want, (rules.variant, val, counts, keep, mu, rr, got)
        check_arrangement(rules, val, counts, keep, mu, rr, got)


@pytest.mark.slow
@pytest.mark.parametrize("rules", VARIANTS, ids=str)
def test_solve_melds_matches_integer_program_long(rules: Rules) -> None:
    """As above on 2,000 racks per variant."""
    core = _backend.core()
    for counts, keep, mu, rr, val in cases(rules, 2000, seed=7 + len(rules.variant)):
        cr = _backend.core_rules(rules, val)
        got = core.solve_melds(cr, counts, keep, mu, rr)
        want = reference_best(rules, counts, valuation=val, keep=keep, must_use=mu, require_run=rr)
        assert got[0] == want, (rules.variant, val, counts, keep, mu, rr, got)
        check_arrangement(rules, val, counts, keep, mu, rr, got)


def test_bench_racks_match_integer_program() -> None:
    """The shared benchmark racks (R101-7 openings with keep, CONTRACT.md), first 40 of each file."""
    core = _backend.core()
    cr = _backend.core_rules(R101, "open")
    for name in ("racks_14.txt", "racks_22.txt", "racks_20_plus_2_jokers.txt"):
        path = bench_file(name)
        if path is None:
            pytest.skip("shared benchmark racks not present")
        with open(path) as f:
            racks = [line for line in f.read().splitlines() if line.strip()][:40]
        for rack in racks:
            counts = counts_of(parse_tiles(rack))
            got = core.solve_melds(cr, counts, True, -1, False)
            assert got[0] == reference_best(R101, counts, keep=True), rack
            check_arrangement(R101, "open", counts, True, -1, False, got)


ADVERSARIAL = [
    # (rules, rack, keep, must_use, require_run, valuation, expected)
    (R101, "R10 R11 R11 R12 R12 R13 R13 * *", False, None, False, "open", 108),  # R101-5 joker set
    (R101, "R10 R11 R11 R12 R12 R13 * *", False, None, False, "open", 92),       # 3 red runs
    (R101, "R1 * * * * * *", False, None, False, "open", 28),                  # button jokers
    (R101, "R5 Y5 * *", False, None, False, "open", 20),                       # set of 4, 2 jokers
    (R101, "R7 R8 R9", True, None, False, "open", 0),                          # R101-12 keep
    (R101, "R7 R8 R9", False, None, False, "open", 24),
    (R101, "R7 R8 R9 R10", True, None, False, "open", 27),                     # drop the cheapest
    (R101, "R1 R2 R3 K9 *", False, "*", False, "open", 10),                    # must_use joker
    (REMI, "R12 R13 R1 R2 R3", True, None, True, "open", 30),                  # RO-6 ace high
    (REMI, "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1", False, None, True, "open", 95),
    (REMI, "R1 Y1 B1 R2 R3", False, None, False, "open", 30),                  # RO-8 1 in a set 10
    (REMI, "R5 Y5 * *", False, None, False, "open", 15),                       # RO-7 one Joly
    (REMI, "R3 R4 R5 R6 * *", False, None, True, "open", 30),                  # 2 Jolys, 4 real
    (REMI, "R3 R4 R5 * *", False, None, True, "open", 20),
    (REMI, "R12 R13 *", False, None, True, "open", 30),                        # Joly as high ace
    (REMI, "Y5 B5 K5 R5", False, None, True, "open", -1),                      # RO-8 no run
    # R1 R2 R3 * and R1 * K1: HiGHS 1.12's MIP presolve said 45 (tests/reference.py)
    (REMI, "R1 R1 R2 R3 K1 K1 K4 * *", False, None, True, "open", 50),
    (CLASSIC, "QS KS AS 2S 3S", False, None, False, "open", 6),                # CR-2 ace low
]


@pytest.mark.parametrize("case", ADVERSARIAL, ids=lambda c: f"{c[0].variant}:{c[1]}")
def test_adversarial_racks(backend: str, case: tuple[Any, ...]) -> None:
    """Hand-made racks where a simpler state (two run slots per colour, one joker per set,
    no high ace) or a wrong keep/must_use rule gives a different answer."""
    rules, rack, keep, mu_text, rr, val, expected = case
    pieces = rules.parse_rack(rack)
    counts = counts_of(pieces)
    mu = -1 if mu_text is None else int(rules.parse_rack(mu_text)[0])
    got = _backend.core().solve_melds(_backend.core_rules(rules, val), counts, keep, mu, rr)
    assert got[0] == expected
    assert reference_best(rules, counts, valuation=val, keep=keep, must_use=mu, require_run=rr) == expected
    check_arrangement(rules, val, counts, keep, mu, rr, got)


def test_brute_force_tiny_racks(backend: str) -> None:
    """Up to 7 tiles (3 jokers): same optimum as the naive enumeration, on both backends."""
    rng = random.Random(11)
    core = _backend.core()
    for i in range(150):
        rules = VARIANTS[i % 3]
        val = "penalty" if i % 4 == 0 else "open"
        counts = [0] * 53
        colours = rng.sample(range(4), rng.randint(1, 4))
        lo = rng.randint(1, 11)
        numbers = [1, 12, 13] + list(range(lo, min(13, lo + 3) + 1))
        for _ in range(100):
            if sum(counts) >= rng.randint(2, 6):
                break
            code = rng.choice(colours) * 13 + rng.choice(numbers) - 1
            if counts[code] < rules.copies:
                counts[code] += 1
        if rules.max_rack_jokers:
            counts[52] = min(rules.max_rack_jokers, rng.choice([0, 1, 2, 3]))
        keep, rr = rng.random() < 0.5, rng.random() < 0.3
        present = [k for k in range(53) if counts[k]]
        mu = rng.choice(present) if present and rng.random() < 0.3 else -1
        cr = _backend.core_rules(rules, val)
        got = core.solve_melds(cr, counts, keep, mu, rr)
        assert got[0] == brute_best(cr, counts, keep, mu, rr), (rules.variant, val, counts, keep, mu, rr)
        check_arrangement(rules, val, counts, keep, mu, rr, got)


def test_max_pairs_matches_integer_program(backend: str) -> None:
    """R101-8 / R101-5: most pairs against the integer program, with keep and must_use."""
    rng = random.Random(3)
    core = _backend.core()
    for _ in range(300):
        counts = [0] * 53
        for _ in range(rng.randint(0, 14)):
            code = rng.randrange(8) * 6 + rng.randrange(3)
            counts[code] = min(2, counts[code] + 1)
        counts[52] = rng.choice([0, 0, 1, 2, 3, 6])
        keep = rng.random() < 0.6
        present = [k for k in range(53) if counts[k]]
        mu = rng.choice(present) if present and rng.random() < 0.4 else -1
        n, pairs = core.max_pairs(counts, keep, mu)
        assert n == reference_max_pairs(counts, keep=keep, must_use=mu), (counts, keep, mu)
        if n < 0:
            assert pairs == []
            continue
        assert len(pairs) == n
        rem = list(counts)
        for a, b in pairs:
            assert a != 52 and (b == a or b == 52)
            rem[a] -= 1
            rem[b] -= 1
        assert min(rem) >= 0
        if keep:
            assert sum(rem) >= 1
        if mu >= 0:
            assert any(mu in p for p in pairs)


def test_cards_classic_matches_integer_program(backend: str) -> None:
    """CR-2/CR-3: card hands (one deck, no jokers)."""
    rng = random.Random(5)
    core = _backend.core()
    cr = _backend.core_rules(CLASSIC, "open")
    for _ in range(60):
        hand = rng.sample(range(52), rng.randint(3, 12))
        counts = counts_of(hand)
        got = core.solve_melds(cr, counts, False, -1, False)
        assert got[0] == reference_best(CLASSIC, counts, keep=False)
        check_arrangement(CLASSIC, "open", counts, False, -1, False, got)
    assert counts_of(parse_cards("AS 2S 3S"))[0] == 1


def assert_integer_program_optimum(rules: Rules, valuation: str,
                                   cases: Sequence[tuple[list[int], bool, int, bool]]) -> None:
    """Each (counts, keep, must_use, require_run) solves on the current backend to the integer
    program's optimum, and its arrangement passes check_arrangement."""
    core = _backend.core()
    cr = _backend.core_rules(rules, valuation)
    for counts, keep, mu, rr in cases:
        got = core.solve_melds(cr, counts, keep, mu, rr)
        want = reference_best(rules, counts, valuation=valuation, keep=keep, must_use=mu, require_run=rr)
        assert got[0] == want, (counts, keep, mu, rr, got)
        check_arrangement(rules, valuation, counts, keep, mu, rr, got)


def high_ace_racks(n: int, seed: int) -> list[tuple[list[int], bool, int, bool]]:
    """Remi racks around the high aces (RO-6): aces, 10-13 and a few low tiles of 2-4 colours,
    0-2 Jolys (RO-7), so that several reservations of aces for 14 are searched and the relaxed
    twin (which holds every reservable ace at 14, optional) bounds them all."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        counts = [0] * 53
        colours = rng.sample(range(4), rng.randint(2, 4))
        numbers = [1, 1, 10, 11, 12, 12, 13, 13] + rng.sample(range(2, 10), 3)
        for _ in range(rng.randint(6, 15)):
            code = rng.choice(colours) * 13 + rng.choice(numbers) - 1
            counts[code] = min(REMI.copies, counts[code] + 1)
        counts[52] = rng.choice([0, 1, 2, 2])
        present = [k for k in range(52) if counts[k]]
        must_use = rng.choice(present) if present and rng.random() < 0.2 else -1
        out.append((counts, rng.random() < 0.7, must_use, rng.random() < 0.7))
    return out


def test_remi_high_ace_reservations_match_integer_program(backend: str) -> None:
    """Seventh round (issue 11): the relaxed twin's fresh values serve every reservation of high
    aces at once; the optimum stays the integer program's on racks where reservations compete."""
    assert_integer_program_optimum(REMI, "open", high_ace_racks(120, seed=11))


def leading_joker_cases(n: int, seed: int) -> list[tuple[list[int], bool, int, bool]]:
    """Rummy 101 racks for the penalty valuation where jokers before a run's first tile matter:
    2-6 jokers and tiles crowded at both ends of the numbers (12 and 13 start a run only with
    jokers before them) or in one narrow window, random keep/must_use/require_run."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        counts = [0] * 53
        if i % 2:
            numbers = [1, 2, 3, 11, 12, 13]
        else:
            lo = rng.randint(1, 11)
            numbers = list(range(lo, min(13, lo + rng.randint(2, 4)) + 1))
        colours = rng.sample(range(4), rng.randint(1, 4))
        size = rng.randint(3, 14)
        for _ in range(200):
            if sum(counts) >= size:
                break
            code = rng.choice(colours) * 13 + rng.choice(numbers) - 1
            if counts[code] < 2:
                counts[code] += 1
        counts[52] = rng.randint(2, 6)
        present = [k for k in range(53) if counts[k]]
        must_use = rng.choice(present) if rng.random() < 0.3 else -1
        out.append((counts, rng.random() < 0.5, must_use, rng.random() < 0.3))
    return out


@pytest.mark.parametrize("valuation", ["penalty", "open"])
def test_leading_jokers_match_integer_program(backend: str, valuation: str) -> None:
    """R101-5/R101-6: no run starts with a joker in the search; a run takes the jokers laid before
    its first tile where that tile is, at their values there (docs/solve-rounds.md, seventeenth
    round). Its bounds must count a tile whose run starts below the current number, and a run
    that needs jokers below its tiles (R12 R13 with one before them); the opening's joker
    dominance must not swap a joker laid below n for a tile left at n. 120 racks with 2-6 jokers
    per valuation against the integer program, on both backends; the arrangement is re-validated
    (a joker before a run stands for a tile of that run's colour)."""
    assert_integer_program_optimum(R101, valuation, leading_joker_cases(120, seed=17 if valuation == "penalty" else 18))


@pytest.mark.parametrize("rack,expected", [
    ("R12 R13 *", 126),            # the joker before R12: a run can start at 12 only with it
    ("R13 * *", 215),              # two jokers before R13
    ("R12 R13 * K5 K6 K7", 144),   # the joker before R12 or after K7: the same value
    ("Y12 Y13 * R10 * R12", 249),  # from racks_20_plus_2_jokers: a joker in each run
])
def test_penalty_jokers_before_a_run(backend: str, rack: str, expected: int) -> None:
    """Racks whose best penalty arrangement lays a joker before a run's first tile (R101-5)."""
    counts = counts_of(R101.parse_rack(rack))
    got = _backend.core().solve_melds(_backend.core_rules(R101, "penalty"), counts, False, -1, False)
    assert got[0] == expected
    assert reference_best(R101, counts, valuation="penalty", keep=False) == expected
    check_arrangement(R101, "penalty", counts, False, -1, False, got)


def must_use_joker_cases(n: int, seed: int) -> list[tuple[list[int], bool, int, bool]]:
    """Dense rummy101 racks (10-22 tiles over 4-7 consecutive numbers, 3-6 jokers) that must use
    one of their tiles: the search's states are bounded by the relaxed twin's values of the same
    states (docs/solve-rounds.md, eighteenth round)."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        counts = [0] * 53
        lo = rng.randint(1, 9)
        numbers = list(range(lo, min(13, lo + rng.randint(3, 6)) + 1))
        size = rng.randint(10, 22)
        for _ in range(300):
            if sum(counts) >= size:
                break
            code = rng.randrange(4) * 13 + rng.choice(numbers) - 1
            if counts[code] < 2:
                counts[code] += 1
        counts[52] = rng.randint(3, 6)
        must_use = rng.choice([k for k in range(52) if counts[k]])
        out.append((counts, rng.random() < 0.5, must_use, rng.random() < 0.3))
    return out


@pytest.mark.parametrize("valuation", ["penalty", "open"])
def test_must_use_with_jokers_match_integer_program(backend: str, valuation: str) -> None:
    """R101-5/R101-6 with a tile that must be laid (R101-8) and 3-6 jokers: a state of the search is
    also a state of its relaxed twin (the same rack without must_use, keep and require_run), whose
    memoized value, exact or an upper bound, bounds it. A twin state keyed wrongly (another count
    of jokers, the wrong flags) gives a bound below the state's value, and a wrong optimum. 60 racks
    per valuation against the integer program, on both backends; the arrangement re-validated."""
    assert_integer_program_optimum(R101, valuation, must_use_joker_cases(60, seed=23 if valuation == "penalty" else 24))


def remi_both_ends_racks(n: int, seed: int) -> list[tuple[list[int], bool, int, bool]]:
    """Remi racks with two Jolys whose aces fit at both ends (RO-6: A-2-3 and Q-K-A): the relaxed
    twin keeps every reservable ace at 1 as well as at 14, so its value of the whole rack bounds
    every reservation but may count an ace twice; then no reservation attains it and the search
    falls back to searching them all below it (docs/solve-rounds.md, eighteenth round)."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        counts = [0] * 53
        colours = rng.sample(range(4), rng.randint(1, 3))
        numbers = [1, 1, 1, 2, 3, 12, 13] + rng.sample(range(4, 12), 2)
        for _ in range(rng.randint(5, 14)):
            code = rng.choice(colours) * 13 + rng.choice(numbers) - 1
            counts[code] = min(REMI.copies, counts[code] + 1)
        counts[52] = 2
        present = [k for k in range(52) if counts[k]]
        must_use = rng.choice(present) if present and rng.random() < 0.2 else -1
        out.append((counts, rng.random() < 0.5, must_use, rng.random() < 0.5))
    return out


@pytest.mark.parametrize("valuation", ["open", "penalty"])
def test_remi_aces_at_both_ends_match_integer_program(backend: str, valuation: str) -> None:
    """RO-6/RO-7: the search first asks for the relaxed twin's value of the whole rack, then, when
    no reservation of high aces attains it, searches them all below it; the optimum is the
    integer program's either way. A twin whose aces left 1 for 14 would bound a reservation that
    lays them at 1 too low, and give a wrong optimum here."""
    assert_integer_program_optimum(REMI, valuation, remi_both_ends_racks(80, seed=31 if valuation == "open" else 32))


def remi_ratio_reservation_racks(n: int, seed: int) -> list[tuple[list[int], bool, int, bool]]:
    """Remi racks with two Jolys whose aces lack a real 12 and 13 of their colour: reserving such
    an ace for the high end (RO-6) puts both Jolys in its run, which RO-7 allows only with four
    real tiles, the ace and 9-10-11 of its colour (present on about half of these racks). The
    reservations that cannot meet the ratio are never searched, and the relaxed twin holds at 14
    only the aces some reservation reserves (docs/solve-rounds.md, twenty-sixth round)."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        counts = [0] * 53
        colours = rng.sample(range(4), rng.randint(1, 3))
        for c in colours:
            counts[c * 13] = rng.randint(1, 2)
            if rng.random() < 0.5:
                for m in (9, 10, 11):
                    counts[c * 13 + m - 1] = 1
            if rng.random() < 0.25:
                counts[c * 13 + rng.choice((12, 13)) - 1] = 1
        numbers = [2, 3, 4, 7, 8, 9, 10, 11]
        for _ in range(rng.randint(3, 9)):
            code = rng.randrange(4) * 13 + rng.choice(numbers) - 1
            counts[code] = min(REMI.copies, counts[code] + 1)
        counts[52] = 2
        out.append((counts, rng.random() < 0.7, -1, rng.random() < 0.7))
    return out


@pytest.mark.parametrize("valuation", ["open", "penalty"])
def test_remi_reservations_under_the_ratio_match_integer_program(backend: str, valuation: str) -> None:
    """RO-6/RO-7: a reservation whose run would hold both Jolys without four real tiles is
    dropped before the search, and the relaxed twin bounds only the reservations left; the
    optimum stays the integer program's. A check that dropped a reservation the ratio allows
    (9-10-11 present) would give a wrong optimum here."""
    assert_integer_program_optimum(REMI, valuation,
                                   remi_ratio_reservation_racks(80, seed=41 if valuation == "open" else 42))

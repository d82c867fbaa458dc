"""RO-4, the Atu finish: the relaxation that keeps the table runs whole (``relaxed_cover``, the
core's cpp/src/relax.cpp and its twin python/rummy101/_pure/relax.py, used by
rules_core._runs_refute) never refutes a split that exists, refutes what it should, answers the
same on both backends, and leaves every answer of the laid-down search as the table-order search
without it (tests/remi_atu_old.py) gives on big hoarded racks."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
import remi_atu_old
import rummy101.game.engines.remi.rules_core as rc
from rummy101 import _backend, backend_name
from rummy101._pure import relax as pure_relax
from rummy101.game.engines.remi.table import RUN, RemiMeld
from rummy101.rules import Rules
from test_remi_atu_order import DATA, big_position

J = 52
BIG = 10**9


def _codes(text: str) -> list[int]:
    """``"R1 R2 Y1 *"`` as counts (R Y B K = colours 0-3, ``*`` a Joly)."""
    counts = [0] * 53
    for t in text.split():
        counts[J if t == "*" else "RYBK".index(t[0]) * 13 + int(t[1:]) - 1] += 1
    return counts


def _split(rng: random.Random, high_ace: bool) -> tuple[list[int], list[tuple[int, int, int]]]:
    """Tiles that runs and sets (some holding a Joly) and at most one more tile make, at most two
    copies of a tile and two Jolys, and the spans of some of those runs as table runs (a run's
    own span or a part of at least three numbers of it)."""
    counts = [0] * 53
    segs: list[tuple[int, int, int]] = []
    top = 14 if high_ace else 13
    for _ in range(rng.randrange(1, 9)):
        if rng.random() < 0.6:
            col = rng.randrange(4)
            lo = rng.randrange(1, top - 1)
            hi = rng.randrange(lo + 2, min(top, lo + 6) + 1)
            tiles = [col * 13 + (n - 1) % 13 for n in range(lo, hi + 1)]
            if rng.random() < 0.3:
                a = rng.randrange(lo, hi - 1)
                segs.append((col, a, rng.randrange(a + 2, hi + 1)))
        else:
            num = rng.randrange(13)
            tiles = [k * 13 + num for k in rng.sample(range(4), rng.choice((3, 4)))]
        if rng.random() < 0.2:
            tiles[rng.randrange(len(tiles))] = J
        for t in tiles:
            counts[t] += 1
    if rng.random() < 0.7:
        counts[rng.randrange(53)] += 1
    return counts, segs


def _noisy_split(
    rng: random.Random, high_ace: bool, noise: int
) -> tuple[list[int], list[tuple[int, int, int]]]:
    """A split of :func:`_split` with up to ``noise - 1`` tiles added (near misses, so that both
    answers occur); ``([], [])`` when a tile or the Jolys then pass the set's copies."""
    counts, segs = _split(rng, high_ace)
    for _ in range(rng.randrange(noise)):
        counts[rng.randrange(53)] += 1
    if max(counts[:52]) > 2 or counts[J] > 2:
        return [], []
    return counts, segs


def test_a_split_that_exists_is_never_refuted() -> None:
    """True on every vector that runs and sets with the table runs inside them and one more tile
    make (a wrong refutation would cut a finish out of the search)."""
    core = _backend.core()
    rng = random.Random(11)
    tried = 0
    while tried < 400:
        high = rng.random() < 0.7
        counts, segs = _split(rng, high)
        if max(counts[:52]) > 2 or counts[J] > 2:
            continue
        tried += 1
        assert core.relaxed_cover(counts, high, segs, BIG), (counts, segs, high)


@pytest.mark.parametrize(
    ("tiles", "high", "segs", "covered"),
    [
        ("R1 R2 R3 R4 Y1 B1", False, [], True),  # R2-R4 and a set of 1s
        ("R1 R2 R3 R4 Y1 B1", False, [(0, 1, 3)], False),  # R1-R3 whole: Y1 B1 left
        ("R1 R2 R3 R4 Y1 B1 *", False, [(0, 1, 3)], True),  # the Joly makes Y1 B1 * a set
        ("R12 R13 R1 Y5", True, [], True),  # 12-13-1 (RO-6), Y5 kept
        ("R12 R13 R1 Y5", False, [], False),
        ("R12 R13 R1 R2 R3", True, [], False),  # one 1: high or low, not both
        ("R12 R13 R1 R1 R2 R3", True, [(0, 12, 14)], True),  # 12-13-1 and 1-2-3
        ("R12 R13 R1 R1 R2 R3", False, [], False),
    ],
)
def test_small_splits(
    tiles: str, high: bool, segs: list[tuple[int, int, int]], covered: bool
) -> None:
    core = _backend.core()
    assert core.relaxed_cover(_codes(tiles), high, segs, BIG) is covered


def test_out_of_range_and_a_spent_budget_prove_nothing() -> None:
    core = _backend.core()
    no = _codes("R1 R2 R3 R4 Y1 B1")
    assert not core.relaxed_cover(no, False, [(0, 1, 3)], BIG)
    assert core.relaxed_cover(no, False, [(0, 1, 3)], 1)  # gave up
    assert core.relaxed_cover(no, False, [(0, 1, 2)], BIG)  # a span of two: not tried
    three = _codes("R1 R1 R1 R2 R3 Y1 B1")
    assert core.relaxed_cover(three, False, [], BIG)  # 3 copies: not tried


def _mirrored(
    counts: list[int], segs: list[tuple[int, int, int]], high_ace: bool
) -> tuple[list[int], list[tuple[int, int, int]]]:
    """The numbers mirrored: n -> 14 - n, or with the high 1 n -> 15 - n for 2..13, the 1 kept."""
    out = counts[:]
    for col in range(4):
        for n in range(1, 14):
            m = (15 - n if n >= 2 else 1) if high_ace else 14 - n
            out[col * 13 + m - 1] = counts[col * 13 + n - 1]
    end = 15 if high_ace else 14
    return out, [(col, end - hi, end - lo) for col, lo, hi in segs]


def _questions(
    seed: int, n: int, p_high: float, noise: int
) -> Iterator[tuple[list[int], list[tuple[int, int, int]], bool]]:
    """Up to ``n`` random questions (vector, table runs, high 1) of :func:`_noisy_split`, the 1
    high with probability ``p_high``, up to ``noise - 1`` tiles added."""
    rng = random.Random(seed)
    for _ in range(n):
        high = rng.random() < p_high
        counts, segs = _noisy_split(rng, high, noise)
        if counts:
            yield counts, segs, high


def test_the_mirrored_question_answers_alike() -> None:
    """relaxed_cover runs a search with the numbers mirrored in turn with the forward one: the
    mirrored vector must answer as the vector itself (runs stay runs, 12-13-1 becomes 1-2-3 with
    the high 1), both answers many times, on small budgets too (the twins alike)."""
    core = _backend.core()
    assert _mirrored(_codes("R12 R13 R1 Y5"), [(0, 12, 14)], True) == (
        _codes("R3 R2 R1 Y10"),
        [(0, 1, 3)],
    )
    seen = set()
    for counts, segs, high in _questions(23, 300, 0.6, 3):
        got = core.relaxed_cover(counts, high, segs, BIG)
        mc, ms = _mirrored(counts, segs, high)
        assert core.relaxed_cover(mc, high, ms, BIG) is got, (counts, segs, high)
        for budget in (1, 50, 5000):  # the two searches swap: an answer in the same round
            assert core.relaxed_cover(mc, high, ms, budget) is core.relaxed_cover(
                counts, high, segs, budget
            )
        seen.add(got)
    assert seen == {True, False}


def _root(name: str) -> tuple[list[int], list[tuple[int, int, int]], bool, list[int], list[int]]:
    """The root question of _runs_refute on a bench/data position: the vector (rack, Atu, table
    tiles), the table runs, the high 1, the rack with the Atu and the table tiles."""
    from rummy101.game import records

    s = records.loads((DATA / name).read_text())
    p, x = s.current_player, s.x
    counts = list(s.racks[p])
    counts[x.atu] += 1
    tiles = [t for m in s.table for t in m.tiles]
    segs = [sg for m in s.table for sg in rc._segments(rc._meld_runs(m))]
    rel = counts[:]
    for t in tiles:
        rel[t] += 1
    return rel, segs, s.rules.high_ace, counts, tiles


def test_the_mirror_refutes_where_the_forward_search_gives_up() -> None:
    """Seed 13's 59-tile False rack of random 2-player play (bench/data): the forward search of
    its root vector refutes only after ~4 million states, the mirrored one after < 50,000, so
    relaxed_cover (the two in turn) refutes it within RUNS_BUDGET and _runs_refute cuts the
    whole check at the root (before the mirror it gave up)."""
    rel, segs, high, counts, tiles = _root("remi2p_seed13_step264.json")
    core = _backend.core()
    assert not core.relaxed_cover(rel, high, segs, rc.RUNS_BUDGET)
    mc, ms = _mirrored(rel, segs, high)
    assert not core.relaxed_cover(mc, high, ms, rc.RUNS_BUDGET)
    assert rc._runs_refute(core, counts, 0, tiles, segs, high)


def test_the_twins_answer_alike() -> None:
    """Native and pure give the same answer on random vectors, budgets and table runs, both
    answers many times, the budget running out too."""
    if "native" not in _backend.available_backends():
        pytest.skip("native core not built")
    import rummy101._core as native

    seen = set()
    for counts, segs, high in _questions(5, 150, 0.5, 4):
        for budget in (30, 300, BIG):
            a = native.relaxed_cover(counts, high, segs, budget)
            assert a is pure_relax.relaxed_cover(counts, high, segs, budget), (
                counts,
                segs,
                high,
                budget,
            )
            seen.add(a)
    assert seen == {True, False}


def hoarded_position(rng: random.Random, rules: Rules) -> tuple[list[int], int, list]:
    """A :func:`test_remi_atu_order.big_position` grown to a hoarded rack (RO-9: random play
    takes the train) of up to ~45 tiles."""
    rack, atu, table = big_position(rng, rules)
    pool = [2] * 53
    for m in table:
        for c in m.tiles:
            pool[c] -= 1
    pool[atu] -= 1
    for c in range(53):
        pool[c] -= rack[c]
    for _ in range(rng.randrange(6, 14)):
        c = rng.randrange(53)
        if pool[c] > 0 and c != atu:
            pool[c] -= 1
            rack[c] += 1
    return rack, atu, table


def _lock_run_jolys(rules: Rules, table: list) -> list:
    """``table`` with every Joly of its runs retrieved as often as the rules allow (RO-9.5: it
    keeps its place all turn, rules_core._locked); [] when no run holds a Joly."""
    out = [
        m
        if m.kind != RUN or J not in m.tiles
        else RemiMeld.build(
            rules,
            m.kind,
            m.owner,
            m.tiles,
            m.by,
            tuple(rules.opts.joly_retrievals if t == J else r for t, r in zip(m.tiles, m.jr)),
        )
        for m in table
    ]
    return out if out != table else []


def _answers_as_the_oracle(rng: random.Random, sizes: range, lock: bool = False) -> None:
    """Hoarded positions of ``rng`` (the Atu in, ``sizes`` tiles: 30 native, 4 on pure; with
    ``lock``, only those with a Joly in a table run, locked by :func:`_lock_run_jolys`): the
    engine's search answers each as the table-order search without the runs relaxation
    (remi_atu_old), both answers occur, and the relaxation refutes nodes of these searches
    (with ``lock``, nodes holding a locked Joly)."""
    rules = Rules.parse("remi(players=2)")
    g = rc._geo(rules)
    answers = []
    refuted = 0
    ask = rc._runs_refute

    def counted(*args):  # type: ignore[no-untyped-def]
        nonlocal refuted
        got = ask(*args)
        refuted += got and (not lock or bool(args[6]))
        return got

    rc._runs_refute = counted
    try:
        while len(answers) < (30 if backend_name() == "native" else 4):
            rack, atu, table = hoarded_position(rng, rules)
            if lock:
                table = _lock_run_jolys(rules, table)
                if not table:
                    continue
            counts = list(rack)
            counts[atu] += 1
            if sum(counts) not in sizes:
                continue
            for cache in rc._CACHES:
                cache.clear()
            new = rc._laid_finish(rules, g, counts, atu, list(table), 1)
            for cache in rc._CACHES:
                cache.clear()
            old = remi_atu_old.laid_finish(rules, g, counts, atu, list(table), 1)
            assert new == old, (rack, atu, [m.key for m in table])
            answers.append(new)
    finally:
        rc._runs_refute = ask
        for cache in rc._CACHES:
            cache.clear()
    assert set(answers) == {True, False}, answers
    assert refuted > 0


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(2))
def test_the_runs_relaxation_changes_no_answer(chunk: int) -> None:
    """RO-4 on hoarded racks against 4-9 table melds: the engine's search (with the runs kept
    whole, RUNS_MELDS) answers as the table-order search without it (remi_atu_old), both answers
    many times, and the relaxation refutes nodes of these searches."""
    # seeds whose first 4 racks (the pure share) both finish and fail, with nodes refuted
    _answers_as_the_oracle(random.Random((900, 910)[chunk]), range(200))


def test_the_runs_relaxation_from_30_tiles_changes_no_answer() -> None:
    """RO-4 on hoarded racks of 30-34 tiles (the Atu in; RUNS_TILES 30, was 35: seed 869's
    32-tile rack of bench/data 2.5 -> 0.5 s): the relaxation refutes nodes of these searches and
    the engine answers as the table-order search without it (remi_atu_old), both answers."""
    # its first 4 such racks (the pure share) both finish and fail
    _answers_as_the_oracle(random.Random(6), range(30, 35))


def test_a_locked_joly_stands_for_its_tile() -> None:
    """A table run's Joly retrieved as often as the rules allow keeps its place all turn
    (RO-9.5), so _runs_refute asks with the tile it stands for instead of a Joly: K11 K12 * (the
    Joly K13, retrieved once) and the rack R5 R6 K13 Y2 split with the Joly free (R5 R6 *,
    K11 K12 K13, Y2 left) but not with it locked. Random 2-player play's game 1010
    (bench/data, 2.4 s) has such a Joly; with it, its nodes are refuted high up (0.04 s)."""
    rules = Rules.parse("remi(players=2)")
    run = RemiMeld.build(rules, RUN, 0, (49, 50, J), (0, 0, 0), (0, 0, 0))
    locked = RemiMeld.build(rules, RUN, 0, (49, 50, J), (0, 0, 0), (0, 0, 1))
    assert rc._locked(run, 1) == [] and rc._locked(run, 2) == []
    assert rc._locked(locked, 1) == [51] and rc._locked(locked, 2) == []
    core = _backend.core()
    rack = _codes("R5 R6 K13 Y2")
    segs = rc._segments(rc._meld_runs(run))
    assert not rc._runs_refute(core, rack, 0, list(run.tiles), segs, True)
    assert rc._runs_refute(core, rack, 0, list(run.tiles), segs, True, rc._locked(locked, 1))
    # two K13 in the vector already: the Joly stays a Joly (relaxed_cover takes two copies)
    rack = _codes("R5 R6 K13 K13 Y2 Y3 Y4")
    assert not rc._runs_refute(core, rack, 0, list(run.tiles), segs, True, [51])


def test_locked_run_jolys_change_no_answer() -> None:
    """RO-4 on hoarded racks of 30-35 tiles whose table runs' Jolys are all locked (retrieved as
    often as the rules allow): the engine's search, which asks the runs relaxation with the
    tiles they stand for, answers as the table-order search without it (remi_atu_old), both
    answers, and the relaxation refutes nodes holding a locked Joly."""
    # its first 4 such racks (the pure share) both finish and fail
    _answers_as_the_oracle(random.Random(0), range(30, 36), lock=True)

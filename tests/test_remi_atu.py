"""RO-4, the Atu finish (issue 9): ``atu`` is offered exactly when the turn can finish with it.

The engine decides it with an exact search (rules_core.atu_finish: every table meld's reachable
additions and Joly retrievals, combined meld by meld, the rest covered by new melds holding the
Atu). Here a brute force decides it from the engine's own play actions instead: take the Atu and
try every sequence of legal plays (no ``reset``) for one that ends the round with this player's
win. The two must agree on every position, and the search must answer on big positions too (no
node cap any more)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from rummy101.game import Action
from rummy101.game.engines.remi import engine as remi_engine
from rummy101.game.engines.remi.rules_core import atu_finish
from rummy101.game.engines.remi.table import RUN, SET, RemiMeld, lay_melds, three_melds
from rummy101.tiles import JOKER_CODE, Tile
from test_remi_engine import position

J = JOKER_CODE


def brute_atu(s: Any) -> bool:
    """Can the current player take the Atu and win this turn? By trying every play sequence."""
    p = s.current
    t = s.copy()
    remi_engine._perform(t, Action("atu"))
    t.invalidate_legal()
    seen: set[Any] = set()

    def key(u: Any) -> Any:
        x = u.x
        return (bytes(u.racks[p]), tuple(m.key for m in u.table), x.pending, x.pending_jr,
                x.staged_from, x.laid[p], x.closing)

    def dfs(u: Any) -> bool:
        k = key(u)
        if k in seen:
            return False
        seen.add(k)
        for a in u.legal_actions():
            if a.verb == "reset":
                continue
            w = u.copy()
            w.apply(a)
            if w.results:
                if w.results[-1]["winner"] == p:
                    return True
                continue
            if w.current == p and dfs(w):
                return True
        return False

    return dfs(t)


def _random_meld(rng: random.Random, rules: Any) -> tuple[int, tuple[int, ...]]:
    verb, tiles, _n = rng.choice(three_melds(rules))
    return (RUN if verb == "run" else SET), tiles


def random_table(rng: random.Random, rules: Any, pool: list[int], tries: int,
                 fill: bool = False) -> list[RemiMeld]:
    """Table melds of three tiles, each grown by up to two additions, their tiles taken out of
    ``pool``: ``tries`` draws (a meld whose tiles the pool lacks is skipped), or with ``fill``
    until ``tries`` melds are on the table."""
    table: list[RemiMeld] = []
    drawn = 0
    while (len(table) if fill else drawn) < tries:
        drawn += 1
        kind, tiles = _random_meld(rng, rules)
        if any(pool[c] < tiles.count(c) for c in tiles):
            continue
        m = RemiMeld.build(rules, kind, 0, tiles, (0,) * 3, (0,) * 3)
        for _ in range(rng.randrange(3)):               # grow it a little
            if m.adds:
                c, pos = rng.choice(m.adds)
                if pool[c] > m.tiles.count(c):
                    m = m.with_added(rules, c, pos, 0)
        for c in m.tiles:
            pool[c] -= 1
        table.append(m)
    return table


def random_position(rng: random.Random, laid: bool = True, tabla: bool = False) -> Any:
    """A laid-down player facing a few table melds with a rack built near them (tiles that extend
    the melds, that release their Jolys, a meld for the Atu) plus noise: finishes and near misses."""
    s = position(racks=["R5", "", "B2", "B3"], atu="K1")
    rules = s.rules
    pool = [2] * 53
    table = random_table(rng, rules, pool, rng.randrange(1, 5))
    atu = rng.choice([c for c in range(52) if pool[c]])
    pool[atu] -= 1
    rack = [0] * 53

    def give(c: int) -> None:
        if pool[c] > 0:
            pool[c] -= 1
            rack[c] += 1

    atu_melds = [n for _v, _t, n in three_melds(rules) if atu in n]
    if rng.random() < 0.25:                             # a run only 'lay' builds, both Jolys
        atu_melds = [n for _t, n in lay_melds(rules) if atu in n] or atu_melds
    need = list(rng.choice(atu_melds))
    need.remove(atu)
    for c in need:
        give(c)
    for m in table:
        for c, _pos in m.adds:
            if rng.random() < 0.5:
                give(c)
        for c, _i in m.releases:
            if rng.random() < 0.6:
                give(c)
    for _ in range(rng.randrange(4)):
        give(rng.randrange(53))
    if rng.random() < 0.5:                              # a 3-tile meld of the rack alone
        for c in rng.choice(three_melds(rules))[2]:
            give(c)
    s.racks[1] = rack
    s.sizes[1] = sum(rack)
    s.table = table
    s.x.turn_table_start = len(table)
    s.x.laid = [True, laid, False, False]
    s.x.laid_turn = [0, 0 if laid else -1, -1, -1]
    s.x.tabla = [False, tabla, False, False]
    s.x.atu = atu
    s.x.atu_avail = True
    s.invalidate_legal()
    return s


@pytest.mark.parametrize("chunk", range(4))
def test_atu_offered_exactly_when_a_play_sequence_finishes(chunk: int) -> None:
    rng = random.Random(100 + chunk)
    yes = no = 0
    for _ in range(60):
        s = random_position(rng)
        if s.sizes[1] > 9:                               # the brute force stays small
            continue
        offered = "atu" in {str(a) for a in s.legal_actions()}
        assert offered == brute_atu(s), ([m.text() for m in s.table], s.racks[1], s.x.atu)
        yes += offered
        no += not offered
    assert yes >= 3 and no >= 3


def test_atu_not_laid_down_agrees_with_the_brute_force() -> None:
    rng = random.Random(7)
    for _ in range(25):
        s = random_position(rng, laid=False)
        s.table = []
        s.x.turn_table_start = 0
        s.x.train, s.x.train_by = [], []           # no discard to take (the deal is hand-made)
        s.invalidate_legal()
        if s.sizes[1] > 9:
            continue
        assert ("atu" in {str(a) for a in s.legal_actions()}) == brute_atu(s)


def _melds(rules: Any, texts: list[str]) -> list[RemiMeld]:
    from rummy101.tiles import parse_tiles

    out = []
    for t in texts:
        ts = tuple(int(x) for x in parse_tiles(t))
        kind = RUN if len({x % 13 for x in ts if x != J}) > 1 else SET
        out.append(RemiMeld.build(rules, kind, 0, ts, (0,) * len(ts), (0,) * len(ts)))
    return out


def _counts(text: str) -> list[int]:
    from rummy101.tiles import parse_tiles

    c = [0] * 53
    for t in parse_tiles(text):
        c[int(t)] += 1
    return c


BIG_TABLE = [f"{c}2 {c}3 {c}4" for c in "RYBK" for _ in range(2)] + \
            [f"{c}8 {c}9 {c}10" for c in "RYBK" for _ in range(2)]
BIG_RACK = " ".join(f"{c}1 {c}5 {c}7 {c}11" for c in "RYBK")


def test_big_positions_are_decided_exactly() -> None:
    """16 table melds, 22-30 tiles, every tile placeable somewhere on its own: the old search gave
    up after 20,000 states on these and did not offer the Atu. Each True is played out by the
    brute force; the False was confirmed by the old search without its cap (6.7 s there)."""
    from rummy101 import backend_name
    from rummy101.rules import Rules

    rules = Rules.parse("remi(doubles=off)")
    melds = _melds(rules, BIG_TABLE)
    r1 = int(Tile("R1"))
    cases = [(" R12 R13", True), (" R12 R13 K12 K12 Y12 Y12", True),
             (" R12 R13 K12 K12 Y12 Y12 B6 B6 K6", True),
             (" R12 R13 Y6 Y6 B6 B6 K6 K6 K12 K12 Y12 Y12", True),
             (" R12 R13 K13 K13 Y13 Y13", False)]
    if backend_name() != "native":           # the pure solver takes minutes on the others
        cases = cases[:2]
    for extra, want in cases:
        rack = _counts(BIG_RACK + extra)
        assert atu_finish(rules, rack, r1, True, False, melds, 1) is want, extra
        if want and len(extra) < 20:
            s = position(racks=["R5", BIG_RACK + extra, "B2", "B3"], atu="R1",
                         laid=[True, True, False, False], table=[("run", 0, t) for t in BIG_TABLE])
            assert "atu" in {str(a) for a in s.legal_actions()} and brute_atu(s)


def test_atu_search_names_no_node_cap() -> None:
    import rummy101.game.engines.remi.rules_core as rc

    assert not hasattr(rc, "ATU_SEARCH_NODES")


@pytest.mark.parametrize(("rack", "offered"), [("R4 R5 R6 * * K9", True), ("R4 R5 R6 * * K9 K9", False),
                                               ("R4 R5 R6 * * K9 Y8", True)])
def test_atu_in_a_run_only_lay_builds(rack: str, offered: bool) -> None:
    """RO-4 "with at least two rack tiles": the Atu R1 fits no 3-tile meld here, only the run
    R1 * * R4 R5 R6 that 'lay' builds (RO-6/RO-7); Y8 goes onto Y5 Y6 Y7, a second K9 cannot."""
    s = position(racks=["R5", rack, "B2", "B3"], atu="R1", laid=[True, True, False, False],
                 table=[("run", 0, "Y5 Y6 Y7")])
    assert ("atu" in {str(a) for a in s.legal_actions()}) is offered
    assert brute_atu(s) is offered


def test_two_retrieved_jolys_never_share_a_meld() -> None:
    """RO-9.5: each retrieved Joly is laid at once in a new meld. B9 and K4 free both table
    Jolys, but Y7 * * Y10 Y11 Y12 would need them together: no finish (found by the brute force;
    the cover alone said yes)."""
    s = position(racks=["R5", "R3 Y7 Y10 Y11 B9 K4", "B2", "B3"], atu="Y12",
                 laid=[True, True, False, False], table=[("set", 0, "R9 Y9 * K9"), ("run", 0, "K3 * K5")])
    assert "atu" not in {str(a) for a in s.legal_actions()} and not brute_atu(s)
    t = position(racks=["R5", "R3 Y7 Y8 Y10 Y11 B9 K4", "B2", "B3"], atu="Y12",
                 laid=[True, True, False, False], table=[("set", 0, "R9 Y9 * K9"), ("run", 0, "K3 * K5")])
    assert "atu" in {str(a) for a in t.legal_actions()} and brute_atu(t)   # Y7 Y8 * / Y10 Y11 Y12 *


def _clear_caches() -> None:
    import rummy101.game.engines.remi.rules_core as rc

    for cache in rc._CACHES:
        cache.clear()


@pytest.mark.parametrize("laid", [True, False])
def test_cut_search_agrees_with_the_uncut_search(laid: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """The Atu search cuts nodes with cheap necessary conditions (_loose: more than one tile can
    go nowhere; the Atu without partners; a rest bigger than the most tiles new melds cover in a
    superset). With every cut off it tries every outcome combination and solves every rest: the
    two must agree on positions too big for the brute force (racks of 8-16 tiles)."""
    import rummy101.game.engines.remi.rules_core as rc

    rng = random.Random(31 + laid)
    rules = random_position(rng).rules
    positions = []
    while len(positions) < 40:
        s = random_position(rng, laid=laid)
        if not laid:      # the whole rack goes down: a few melds, the Atu's, a tile or two more
            s.racks[1] = [0] * 53
            for _ in range(rng.randrange(3, 5)):
                for c in rng.choice(three_melds(rules))[2]:
                    s.racks[1][c] = min(2, s.racks[1][c] + 1)
            for c in rng.choice([n for _v, _t, n in three_melds(rules) if s.x.atu in n]):
                if c != s.x.atu:
                    s.racks[1][c] = min(2, s.racks[1][c] + 1)
            for _ in range(rng.randrange(3)):
                c = rng.randrange(53)
                s.racks[1][c] = min(2, s.racks[1][c] + 1)
            s.racks[1][s.x.atu] = min(1, s.racks[1][s.x.atu])       # two copies with the Atu
            s.sizes[1] = sum(s.racks[1])
        if 8 <= s.sizes[1] <= 16:
            positions.append((s.rules, list(s.racks[1]), s.x.atu, list(s.table)))
    _clear_caches()
    cut = [atu_finish(r, rack, atu, laid, False, table, 1) for r, rack, atu, table in positions]
    _clear_caches()
    with monkeypatch.context() as m:
        m.setattr(rc, "_loose", lambda *a, **k: 0)
        m.setattr(rc._Geo, "supported", lambda *a: True)
        m.setattr(rc, "_most_rest", lambda *a: 10**6)
        m.setattr(rc, "_table_refutes", lambda *a: False)
        uncut = [atu_finish(r, rack, atu, laid, False, table, 1) for r, rack, atu, table in positions]
    _clear_caches()
    assert cut == uncut
    assert sum(cut) >= 3 and len(cut) - sum(cut) >= 3       # both answers are exercised


@pytest.mark.parametrize("chunk", range(2))
def test_the_table_relaxation_refutes_only_what_no_play_finishes(chunk: int,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """RO-4 (with RO-6/RO-7/RO-9): _table_refutes folds the table melds still to play into the
    rack and refutes a node when that vector has no cover but for one tile. Tried at every node (not only the big subtrees
    near the end where the engine tries it), it must agree with the search without it on laid-
    down positions of 8-30 tiles, both answers, and refute many nodes on the way. A relaxation
    without the table tiles (the rest alone) refutes finishes and fails here."""
    import rummy101.game.engines.remi.rules_core as rc

    rng = random.Random(57 + chunk)
    positions = []
    while len(positions) < 80:
        s = random_position(rng, laid=True)
        for _ in range(rng.randrange(10)):                  # a bigger rack: more of its tiles
            c = rng.randrange(52)
            s.racks[1][c] = min(2, s.racks[1][c] + 1)
        s.racks[1][s.x.atu] = min(1, s.racks[1][s.x.atu])   # two copies with the Atu
        if 8 <= sum(s.racks[1]) <= 30:
            positions.append((s.rules, list(s.racks[1]), s.x.atu, list(s.table)))
    tried = []
    refutes = rc._table_refutes

    def counted(*a: Any) -> bool:
        tried.append(refutes(*a))
        return tried[-1]

    _clear_caches()
    with monkeypatch.context() as m:
        m.setattr(rc, "RELAX_MELDS", 99)
        m.setattr(rc, "RELAX_LEAVES", 1)
        m.setattr(rc, "_table_refutes", counted)
        relaxed = [atu_finish(r, rack, atu, True, False, table, 1) for r, rack, atu, table in positions]
    _clear_caches()
    with monkeypatch.context() as m:
        m.setattr(rc, "_table_refutes", lambda *a: False)
        plain = [atu_finish(r, rack, atu, True, False, table, 1) for r, rack, atu, table in positions]
    _clear_caches()
    assert relaxed == plain
    assert sum(plain) >= 5 and len(plain) - sum(plain) >= 5      # both answers are exercised
    assert sum(tried) >= 20 and len(tried) - sum(tried) >= 20     # it refutes, and not always


# A position of 2-player uniform random play (sim games of seed 0, game 1534): a laid-down seat
# with 40 tiles against 13 table melds, the Atu R11. Its check took 108 s before the table
# relaxation (leaves failing by several tiles, ~1.6M of them), ~1 s after.
RANDOM_1534_RACK = ("R1 R2 R3 R3 R4 R5 R7 R7 R8 R9 R9 R10 R12 R13 Y4 Y5 Y5 Y6 Y6 Y9 Y10 Y11 Y12 "
                    "Y13 B2 B3 B3 B6 B7 B12 B13 B13 K1 K6 K6 K7 K9 K10 K12 *")
RANDOM_1534_TABLE = [("run", "K3 K4 *"), ("set", "Y1 B1 K1"), ("run", "Y7 Y8 Y9"), ("run", "R4 R5 R6"),
                     ("run", "K9 K10 K11"), ("set", "R8 B8 K8"), ("run", "B8 B9 B10"),
                     ("set", "R11 B11 K11"), ("set", "R2 Y2 K2"), ("set", "Y7 B7 K7"),
                     ("run", "B4 B5 B6"), ("run", "Y2 Y3 Y4"), ("run", "B10 B11 B12")]


def test_a_huge_position_of_random_play_is_decided_exactly() -> None:
    """RO-4 on the game-1534 position: False (every other tile can go down except two, whatever the
    table melds take). Its search now refutes the subtrees near the end in bulk; the answer is
    the same as the search without that (108 s native, checked once when it was found)."""
    from rummy101 import backend_name

    if backend_name() != "native":           # the pure solver takes minutes here
        pytest.skip("native only: the pure solver takes minutes on this position")
    s = position("remi(players=2)", racks=["K2", RANDOM_1534_RACK], atu="R11", laid=[True, True],
                 table=[(k, 1, t) for k, t in RANDOM_1534_TABLE])
    _clear_caches()
    assert atu_finish(s.rules, s.racks[1], s.x.atu, True, False, s.table, 1) is False
    _clear_caches()


# A position of 2-player RL play (rummy101.rl.env("remi(players=2)"), a uniform random legal
# index a step from np.random.default_rng(0), game of reset(seed=517), step 260; its record is
# bench/data/remi2p_seed517_step260.json): seat 0, laid down, 59 tiles against 8 table melds of
# its own, the Atu R1. False. With RELAX_LEAVES 512 its search covered ~180,000 leaves one solve
# each (30 s native, the slowest step of the RL check of 2026-12-07); refuted in bulk near the
# leaves it takes ~3,300 solves.
RANDOM_517_RACK = ("R1 R3 R5 R5 R6 R6 R7 R7 R8 R9 R10 R10 R11 R12 R12 Y1 Y1 Y2 Y2 Y3 Y4 Y5 Y6 Y8 "
                   "Y8 Y9 Y10 Y10 Y11 Y11 Y12 Y12 Y13 B1 B2 B2 B3 B5 B5 B6 B8 B9 B10 B12 B13 B13 "
                   "K1 K1 K4 K5 K5 K6 K7 K9 K9 K10 K11 K11 K13")
RANDOM_517_TABLE = [("run", "B10 * B12"), ("set", "R8 B8 K8"), ("run", "B4 * B6"), ("run", "K6 K7 K8"),
                    ("set", "R4 Y4 B4"), ("run", "Y5 Y6 Y7"), ("run", "K2 K3 K4"), ("set", "R3 Y3 B3")]


def test_the_59_tile_position_of_rl_seed_517_refutes_its_leaves_in_bulk(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """RO-4 on the seed-517 position: False, and decided with the table relaxation tried near the
    leaves of small subtrees too (RELAX_LEAVES): fewer than 20,000 solver calls where there were
    ~180,000 (a count of the engine's work, not a time)."""
    import rummy101.game.engines.remi.rules_core as rc
    from rummy101 import backend_name

    if backend_name() != "native":           # minutes in pure Python
        pytest.skip("native only: the pure solver takes minutes on this position")
    s = position("remi(players=2)", racks=[RANDOM_517_RACK, "K2"], current=0, atu="R1",
                 laid=[True, False], tabla=[False, True],
                 table=[(k, 0, t) for k, t in RANDOM_517_TABLE])
    real = rc._backend.core()
    calls = [0]

    class Counted:
        def __getattr__(self, name: str) -> Any:
            return getattr(real, name)

        def solve_melds_value(self, *a: Any) -> int:
            calls[0] += 1
            return real.solve_melds_value(*a)

    counted = Counted()
    _clear_caches()
    with monkeypatch.context() as m:
        m.setattr(rc._backend, "core", lambda: counted)
        got = atu_finish(s.rules, s.racks[0], s.x.atu, True, False, s.table, 0)
    _clear_caches()
    assert got is False
    assert 0 < calls[0] < 20_000, calls[0]


def test_an_exhausted_work_budget_raises_and_never_guesses() -> None:
    """Every solve of the Atu check runs under the caller's work budget. When it runs out the
    check raises WorkBudgetExceeded: it never answers True/False from an unfinished search, and
    caches nothing from it (the same question under the default budget then answers exactly).
    The default budget cannot run out here: these unit-value solves need < 100 nodes each."""
    from rummy101.errors import WorkBudgetExceeded
    from rummy101.solve import work_budget

    def ask(case: tuple[Any, ...], nodes: int | None) -> bool:
        _clear_caches()
        with work_budget(nodes):
            return atu_finish(*case)

    rng = random.Random(3)
    cases: dict[bool, list[tuple[Any, ...]]] = {True: [], False: []}
    while min(len(v) for v in cases.values()) < 3:   # positions whose check solves something
        s = random_position(rng, laid=rng.random() < 0.7)
        case = (s.rules, list(s.racks[1]), s.x.atu, s.x.laid[1], False, list(s.table), 1)
        try:
            ask(case, 1)
        except WorkBudgetExceeded:
            cases[ask(case, None)].append(case)
    from rummy101 import backend_name
    from rummy101.rules import Rules

    if backend_name() == "native":           # 16 melds, 28 tiles: seconds a try in pure Python
        rules = Rules.parse("remi(doubles=off)")
        cases[True].append((rules, _counts(BIG_RACK + " R12 R13 K12 K12 Y12 Y12"), int(Tile("R1")),
                            True, False, _melds(rules, BIG_TABLE), 1))
    for want, some in cases.items():
        for case in some:
            raised = answered = 0
            for nodes in (1, 3, 10, 30, 100, 1000, None):
                try:
                    got = ask(case, nodes)
                except WorkBudgetExceeded:
                    raised += 1
                    assert atu_finish(*case) is want          # nothing from the cut search cached
                    continue
                answered += 1
                assert got is want, (case, nodes)
            assert raised >= 1 and answered >= 2, (raised, answered)
    _clear_caches()


def test_relay_melds_are_the_three_melds_holding_the_tile() -> None:
    """relay_melds reads an index of the 3-tile melds by the code they hold: the same melds, in
    the same order, as a scan of every 3-tile meld (RO-9.4/RO-9.5)."""
    from rummy101.game.engines.remi.rules_core import relay_melds
    from rummy101.rules import Rules

    rng = random.Random(5)
    for spec in ("remi", "remi(joly_retrievals=2)"):
        rules = Rules.parse(spec)
        for _ in range(300):
            rack = [0] * 53
            for _ in range(rng.randrange(2, 16)):
                c = rng.randrange(53)
                rack[c] = min(2, rack[c] + 1)
            pending = rng.randrange(53)
            want = []
            for verb, tiles, needs in three_melds(rules):
                if pending in needs:
                    rest = list(needs)
                    rest.remove(pending)
                    if all(rack[c] >= rest.count(c) for c in rest):
                        want.append((verb, tiles))
            assert relay_melds(rules, rack, pending) == want, (rack, pending)


def test_jolys_a_meld_takes_and_gives_back_are_counted_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each of five runs can take a rack Joly at its end and give it up for the tile it stands
    for: per meld one Joly freed, five in all, though only the rack's two exist. The search's
    bound once asked the solver about a rack with 2 + 5 Jolys (CoreInputError: at most 6); the
    answer must match the brute force and the search with every cut off."""
    import rummy101.game.engines.remi.rules_core as rc
    from rummy101.rules import Rules

    spec = "remi(joly_retrievals=2)"
    rules = Rules.parse(spec)
    texts = ["R2 R3 R4", "Y2 Y3 Y4", "B2 B3 B4", "K2 K3 K4", "R8 R9 R10"]
    melds = _melds(rules, texts)
    for rack, want in (("* * R5 Y5 B5 K5 R11 B12", True), ("* * R5 Y5 B5 K5 R11 B12 K9", False)):
        case = (rules, _counts(rack), int(Tile("Y11")), True, False, melds, 1)
        _clear_caches()
        got = atu_finish(*case)
        s = position(spec, racks=["R5", rack, "B2", "B3"], atu="Y11", laid=[True, True, False, False],
                     table=[("run", 0, t) for t in texts])
        assert got is want is brute_atu(s), rack
        _clear_caches()
        with monkeypatch.context() as m:
            m.setattr(rc, "_loose", lambda *a, **k: 0)
            m.setattr(rc._Geo, "supported", lambda *a: True)
            m.setattr(rc, "_most_rest", lambda *a: 10**6)
            assert atu_finish(*case) is got, rack
    _clear_caches()


def test_one_joly_melds_never_use_a_tile_more_often_than_the_rack_holds() -> None:
    """RO-6's high 1 makes 1-2-..-13-1 a run that holds the 1 twice. The meld list for the first of
    two retrieved Jolys (RO-9.5) once checked presence, not counts, and with one R1 on the rack
    offered that run with both R1s real: the rest went negative and the Atu check crashed
    (soak seed 20261201, Remi game 4465, a 60-tile rack)."""
    from collections import Counter

    from rummy101.game.engines.remi.rules_core import _one_joly_melds
    from rummy101.rules import Rules

    rules = Rules.parse("remi")
    one_each = [1] * 13 + [0] * 40
    got = _one_joly_melds(rules, one_each)
    assert tuple(range(13)) in got                     # R1 .. R13 with the Joly as the other R1
    rng = random.Random(4465)
    for _ in range(300):
        r = [rng.choice((0, 1, 1, 2)) for _ in range(52)] + [rng.randrange(3)]
        for reals in _one_joly_melds(rules, r):
            assert all(r[c] >= k for c, k in Counter(reals).items()), (r, reals)


def test_the_soak_position_with_the_high_one_twice_is_decided() -> None:
    """The position of that soak break: a laid-down seat with 60 tiles, two table Jolys it could
    retrieve, the Atu K10. The check answers (it raised ValueError before)."""
    rack = ("R1 R2 R3 R4 R5 R6 R8 R8 R9 R10 R10 R11 R11 R12 R13 Y1 Y2 Y2 Y3 Y3 Y4 Y4 Y5 Y6 Y8 Y9 "
            "Y11 Y12 Y13 Y13 B3 B3 B4 B5 B6 B6 B8 B10 B10 B11 B11 B12 B12 B13 K1 K1 K2 K2 K4 K6 K6 "
            "K7 K7 K8 K9 K11 K12 K12 K13 K13")
    s = position(racks=["K2", rack],
                 table=[("run", 1, "* B13 B1"), ("set", 1, "R5 Y5 K5"), ("run", 1, "K3 * K5"),
                        ("run", 1, "Y9 Y10 Y11"), ("set", 1, "R7 Y7 B7"), ("set", 1, "R4 B4 K4"),
                        ("run", 1, "Y6 Y7 Y8")], laid=[True, True], atu="K10")
    assert atu_finish(s.rules, s.racks[1], s.x.atu, True, False, s.table, 1) in (True, False)


def test_a_server_can_stop_a_long_atu_check() -> None:
    """The laid-down search checks the server's stop at every node (rummy101._cancel): a long
    check (16 melds, 28 tiles, False: ~1 s native, minutes in pure Python; the worst racks of
    random 2-player play found take 1-5 s native) stops with ShuttingDown when the server goes down
    or the client has gone, and caches nothing from the stopped search."""
    import threading

    from rummy101 import backend_name
    from rummy101._cancel import ShuttingDown, watching
    from rummy101.rules import Rules

    rules = Rules.parse("remi(doubles=off)")
    case = (rules, _counts(BIG_RACK + " R12 R13 K13 K13 Y13 Y13"), int(Tile("R1")), True, False,
            _melds(rules, BIG_TABLE), 1)
    _clear_caches()
    stop = threading.Event()
    stop.set()
    with watching(stop), pytest.raises(ShuttingDown):
        atu_finish(*case)
    if backend_name() == "native":           # the unstopped search: seconds in pure Python
        assert atu_finish(*case) is False    # exact, nothing cached from the stopped one
    _clear_caches()

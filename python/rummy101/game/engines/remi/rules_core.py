"""The exact core questions Remi's rules ask (memoised): can a lay-down hold a taken tile
(RO-8/RO-10), which discards close a tabla (RO-11), can a turn that takes the Atu finish (RO-4).

All answers come from the core solvers (``rummy101._backend``): ``solve_melds`` for lay-downs and
covers, ``tabla_closes`` for the tabla patterns. Nothing here is a heuristic: the cheap tests in
front of the solvers (:func:`_loose`, the Atu's partners) only reject what no solver answer could
accept.

Every answer depends on the meld geometry only (``table.geometry_key``: the core rule parameters,
the RO-9.6 release rule, the high 1) and, for the Atu, the ``joly_retrievals`` option, so the
caches are keyed by those, not by the whole Rules (a soak's option mix changes every game). The
solvers run under the caller's work budget (``rummy101.solve.work_budget``): when it runs out they
raise ``WorkBudgetExceeded``, which goes up to the caller; no answer is guessed and nothing is
cached from an unfinished search.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from typing import Any

from .... import _backend
from ...._cancel import check_stop
from ....errors import WorkBudgetExceeded
from ....rules import Rules
from ....tiles import JOKER_CODE
from .table import RUN, RemiMeld, geometry_key, lay_melds, three_melds

__all__ = ["atu_finish", "closes", "laydown_with", "relay_melds", "unit_rules"]

J = JOKER_CODE
LAYDOWN_POINTS = 45  # RO-8

_UNIT: dict[tuple[str, bool, int], Any] = {}


def unit_rules(rules: Rules) -> Any:
    """CoreRules with every tile worth 1 (a Joly what it stands for: 1): ``solve_melds`` then
    counts the tiles a selection of melds covers."""
    key = (_backend.backend_name(), rules.high_ace, rules.joker_ratio)
    cr = _UNIT.get(key)
    if cr is None:
        cr = _UNIT[key] = _backend.core().CoreRules(rules.high_ace, rules.joker_ratio, [0] + [1] * 14,
                                                    [0] + [1] * 13, -1)
    return cr


def _budget() -> int:
    from ....solve import current_budget

    return current_budget()


# ---- per-geometry tables ---------------------------------------------------------------------
# A set of codes is an int with bit 8*c for code c: ``_present`` builds it from a count vector
# with one ``bytes.translate`` (no Python loop over the 53 codes).
_NZ = bytes([0] + [1] * 255)
_REALS = sum(1 << 8 * c for c in range(52))


def _present(counts: Sequence[int]) -> int:
    """The codes of ``counts`` (the Joly too) as a code set."""
    return int.from_bytes(bytes(counts).translate(_NZ), "little")


class _Geo:
    """What one meld geometry's new 3-tile melds and ``lay`` runs offer each code, built once.

    ``pairs[c]``: the code sets of the two other real tiles of each 3-tile meld holding ``c`` and
    no Joly; ``one_j[c]``: every real tile forming a 3-tile meld with ``c`` and a Joly (one set);
    ``two_j[c]``: a 3-tile meld of ``c`` and two Jolys exists; ``lay[c]``: the other real tiles of
    each ``lay`` run holding ``c`` (both Jolys); ``relay[p]``: ``(verb, tiles, a, b)`` per 3-tile
    meld holding ``p`` (a code or the Joly) and the rack tiles ``a``, ``b``, in ``three_melds``
    order; ``atu_rests[c]``: the other tiles (Jolys too) of each 3-tile meld and ``lay`` run
    holding ``c``."""

    __slots__ = ("atu_rests", "id", "lay", "one_j", "pairs", "relay", "two_j")

    def __init__(self, rules: Rules, ident: int) -> None:
        self.id = ident
        pairs: list[list[int]] = [[] for _ in range(52)]
        one_j = [0] * 52
        two_j = [False] * 52
        relay: list[list[tuple[str, tuple[int, ...], int, int]]] = [[] for _ in range(53)]
        atu_rests: list[list[tuple[int, ...]]] = [[] for _ in range(52)]
        for verb, tiles, needs in three_melds(rules):
            for p in set(needs):
                rest = list(needs)
                rest.remove(p)
                a, b = rest
                relay[p].append((verb, tiles, a, b))
                if p == J:
                    continue
                atu_rests[p].append(tuple(rest))
                if a == J and b == J:
                    two_j[p] = True
                elif a == J or b == J:
                    one_j[p] |= 1 << 8 * (b if a == J else a)
                else:   # two distinct real tiles, neither p (a run or a set holds a code once)
                    assert a != b and p not in (a, b), needs
                    pairs[p].append(1 << 8 * a | 1 << 8 * b)
        lay: list[list[int]] = [[] for _ in range(52)]
        for _t, needs in lay_melds(rules):
            reals = [c for c in needs if c != J]
            for c in reals:
                lay[c].append(sum(1 << 8 * o for o in set(reals) if o != c))
                rest = list(needs)
                rest.remove(c)
                atu_rests[c].append(tuple(rest))
        self.pairs = [tuple(x) for x in pairs]
        self.one_j = one_j
        self.two_j = two_j
        self.lay = [tuple(x) for x in lay]
        self.relay = relay
        self.atu_rests = atu_rests

    def supported(self, c: int, present: int, jolys: int) -> bool:
        """Does real code ``c`` form a new 3-tile meld (or a ``lay`` run, both Jolys) with the
        other tiles of ``present`` and ``jolys`` Jolys?"""
        if jolys and present & self.one_j[c]:
            return True
        for m in self.pairs[c]:
            if present & m == m:
                return True
        if jolys >= 2:
            if self.two_j[c]:
                return True
            for m in self.lay[c]:
                if present & m == m:
                    return True
        return False


_GEOS: dict[tuple[object, ...], _Geo] = {}
_GEO_OF: dict[Rules, _Geo] = {}
_GEO_IDS = itertools.count()   # a fresh id per table (next() is atomic: no two share one)


# the last Rules asked about and its tables, one tuple (swapped whole: safe across threads; held,
# so its id is never another object's)
_LAST_GEO: tuple[Any, _Geo | None] = (None, None)


def _geo(rules: Rules) -> _Geo:
    global _LAST_GEO
    last = _LAST_GEO
    if last[0] is rules and last[1] is not None:   # a game asks with one Rules object: no hash
        return last[1]
    g = _GEO_OF.get(rules)
    if g is None:
        gkey = geometry_key(rules)
        g = _GEOS.get(gkey)
        if g is None:
            g = _GEOS[gkey] = _Geo(rules, next(_GEO_IDS))
        if len(_GEO_OF) > 10_000:
            _GEO_OF.clear()
        _GEO_OF[rules] = g
    _LAST_GEO = (rules, g)
    return g


#: Entries each memo of this module holds before it is cleared (when full, like every memo of
#: the engines). In a simulation run nearly all their hits come from the same turn or game: a
#: cap of 1,000 hits as often as none (measured on 5,000 ``greedy,random`` games, see
#: docs/simulation.md "Memory"), and at 190-500 bytes an entry 4,096 entries hold 1-2 MB where
#: 100,000 held 20-50 MB per memo and process. ``_outcomes`` is shared more across games.
MEMO_CAP = 4_096
OUTCOMES_CAP = 16_384

_LAYDOWN: dict[tuple[str, int, bytes, int], bool] = {}


def laydown_with(rules: Rules, rack: Sequence[int], t: int) -> bool:
    """RO-10 with RO-8: can a player not laid down lay down this turn (runs/sets worth >= 45 with
    a run, keeping a tile to discard) with the tile ``t`` added to ``rack`` and used in it?"""
    counts = list(rack)
    counts[t] += 1
    key = (_backend.backend_name(), _geo(rules).id, bytes(counts), t)
    got = _LAYDOWN.get(key)
    if got is None:
        cr = _backend.core_rules(rules, "open")
        got = _backend.core().solve_melds_value(cr, counts, True, t, True, _budget(), LAYDOWN_POINTS - 1) >= LAYDOWN_POINTS
        if len(_LAYDOWN) >= MEMO_CAP:
            _LAYDOWN.clear()
        _LAYDOWN[key] = got
    return got


_CLOSES: dict[tuple[str, int, bytes], list[tuple[Any, ...]]] = {}


def closes(rules: Rules, rack: Sequence[int]) -> list[tuple[Any, ...]]:
    """RO-11: ``tabla_closes`` of a 15-tile rack: per discard code leaving a close, the best
    pattern and its score (x2 for a Joly discard); [] for other rack sizes."""
    if sum(rack) != 15:
        return []
    key = (_backend.backend_name(), _geo(rules).id, bytes(rack))
    got = _CLOSES.get(key)
    if got is None:
        got = list(_backend.core().tabla_closes(_backend.core_rules(rules, "open"), list(rack)))
        if len(_CLOSES) >= MEMO_CAP:
            _CLOSES.clear()
        _CLOSES[key] = got
    return got


def relay_melds(rules: Rules, rack: Sequence[int], pending: int) -> list[tuple[str, tuple[int, ...]]]:
    """The 3-tile melds holding ``pending`` (a broken train tile, RO-9.4, or a retrieved Joly,
    RO-9.5) and two rack tiles, as ``(verb, tiles)``."""
    return [(verb, tiles) for verb, tiles, a, b in _geo(rules).relay[pending]
            if rack[a] and rack[b] and (a != b or rack[a] >= 2)]


_ATU: dict[tuple[Any, ...], bool] = {}
_LEAVES: dict[tuple[Any, ...], bool] = {}
_MOST: dict[tuple[Any, ...], int] = {}
#: a node of the laid-down search with this many leaves below it (at most) bounds its rest with
#: one solve of its own (see ``most`` in :func:`_laid_finish`), on racks under ``RUNS_TILES``
#: only: on bigger ones the runs relaxation cuts those nodes, and the solves (56 tiles: 0.05-0.4
#: s each) cost RL seed 29's 54-tile rack (bench/data) 1.5 of its 1.9 s (2026-12-07)
BOUND_LEAVES = 64
#: the laid-down Atu search first tries :func:`_table_refutes` at a node with at most
#: ``RELAX_MELDS`` table melds left to play and at least ``RELAX_LEAVES`` leaves below; one try
#: may search ``RELAX_BUDGET`` nodes (past it, it proves nothing and the node is searched as
#: before); table melds with ``MANY_OUTCOMES`` or more outcomes are played last (fewest first),
#: after the table sets and the other runs (see the order in :func:`_laid_finish`). Chosen on
#: bench/bench_remi_atu.py: far fewer tries cost the huge racks their cut, more cost the soak's
#: 15-meld positions (65-tile vectors, 10-40 ms a try) more than they cut. ``RELAX_LEAVES`` was
#: 512: the 59-tile position of RL seed 517 (bench/data/remi2p_seed517_step260.json, False, 8
#: table melds) then left ~180,000 leaves of 64-511 below the tried nodes unrefuted, one cover
#: each (30 s); at 16 it asks ~3,300 solves (7 s). Not a win everywhere: the 46-tile seed-85
#: position of that run (bench/data) takes 1.2 s at 16 where 0.04 s at 512 or 128 (its tries fail,
#: each up to RELAX_BUDGET nodes); the first 754 games of that run 93 -> 59 s. The answer never
#: depends on these: a try only cuts a subtree no play finishes. Tried and dropped (2026-12-07):
#: no try below a node whose own try found a cover (on seed 517, 700 tries cover, ~13 ms each,
#: and 1,917 refute): the children of a covered node are refuted often, and 517 took 40 s
#: instead of 9 (CPU, load ~4). Tried and dropped with the sets-first order (2026-12-07, the 40
#: slowest checks of 3,000 random 2-player games, /tmp scripts, CPU time, load ~2-3, each
#: against the kept order in one run): branching next on a table meld the relaxed cover of a
#: node broke apart (its arrangement asked with ``solve_melds``): 32.0 -> 35.3 s; on the meld
#: with the fewest outcomes the rack allows: seed 517 2.7 -> 6.6 s, seed 642 1.0 -> 4.6 s; no
#: try at a node with one meld left and fewer than 8 (16) outcomes the rack allows: 26.0 ->
#: 27.0 (30.9) s; RELAX_BUDGET 5,000 or 60,000, RELAX_MELDS 5 or 6: no better than 20,000 and 4;
#: the runs of few outcomes fewest first or most first: seed 517 2.7 -> 6.2 or 4.2 s; the runs of
#: few outcomes with the most set partners of their tiles on the rack first (the tiles a relaxed
#: cover takes into sets): those 40 checks 24.1 -> 17.2 s but the eight huge racks 5.1 -> 11.1 s
#: (seed 642 1.0 -> 3.2 s, game 1534 1.2 -> 3.4 s): no order of these wins everywhere.
RELAX_MELDS = 4
RELAX_LEAVES = 16
#: on a rack of ``RUNS_TILES`` or more tiles (the Atu in), the search first tries
#: :func:`_runs_refute` (the table runs kept whole) at a node with at most ``RUNS_MELDS`` table
#: melds left and at least ``RUNS_LEAVES`` leaves below, a try giving up past ``RUNS_BUDGET``
#: states (then :func:`_table_refutes` is tried as before). Chosen on bench/bench_remi_atu.py
#: (2026-12-07, CPU time; the eight huge racks: the worst / the sum; the 414 soak decisions:
#: the mean). Without it 2.3-2.6 / 4.7 s, 0.21 ms. With the first relaxed_cover (no look-ahead):
#: at 4 melds 1.4 / 2.9 s (seed 642: hundreds of ~3 ms tries where one higher up refutes); at 6
#: melds 0.86 / 1.8 s unbounded, 0.31 / 1.2 s at 200,000 states (seed 517's tries near the top
#: refute only after ~10^5 states), 2.6-3.3 / 5-7 s at 2,000-20,000; at 8 melds no better; on
#: every rack the soak's mean 0.21 -> 0.54 ms (worst 47 -> 160 ms: 30-34-tile racks against big
#: tables whose tries fail), from 35 tiles on 0.22 ms; leaves 256 rather than 16: the True
#: seed-85 rack 0.21 -> 0.09 s. With its look-ahead (sets, the runs that must go on; ~5x fewer
#: states): 6 melds, 35 tiles, 256 leaves: 0.21 / 0.59 s at 200,000 states, 0.11-0.12 / 0.43 s at
#: 50,000, 0.13-0.14 / 0.48-0.56 s at 20,000 or 100,000; 7 or 8 melds no better; from 0 or 25
#: tiles on the soak within its noise. Not a win everywhere: the 113 checks of 30+ tiles of 150
#: random 2-player games (seeds 0-149, from cold memos) take 2.8 s in all either way, but the
#: slowest, a 59-tile False rack of seed 13 (5 melds, 2 Jolys on the table), 0.48 -> 0.65 s: its
#: tries near the top give up at 50,000 states (the root refutes after 1-10 million, 1.7 s) and
#: those below refute what the solver's relaxation refuted as cheaply. The answer never depends
#: on these. Since relaxed_cover runs its mirrored search (the numbers reversed) in turn with the
#: forward one (2026-12-07, RUNS_BUDGET states each), seed 13's root refutes at once (0.72 ->
#: 0.01 s), and the slowest steps of 2-player random play found since (bench/data) fall from
#: 1-20 s (167 s, RL seed 29) to 0.01-2.5 s cold, but for seed 1890's 60-tile rack, 6.7 -> 7-8 s,
#: whose tries mostly give up both ways (docs/rl.md "The hunt for slow steps"); 25,000 or 12,000 each
#: was slower there (22.8, 24.6 s against 10.3 s for the 19 positions and 378 checks of 30+
#: tiles of random games 0-599, cold, CPU, load ~3). From 30 tiles rather than 35 (2026-12-07,
#: the same answers; bench/bench_remi_atu.py, 35/30/35/30 on one core, load ~3): seed 869's
#: 32-tile rack 2.4-2.7 -> 0.51-0.54 s; the 29 checks of 30-34 tiles of its parts (1) and (3)
#: 138-144 -> 52-54 ms in all (CPU, worst 46-47 -> 17-18 ms); the soak's mean 0.20-0.28 ->
#: 0.09-0.10 ms (worst 47-67 -> 17-20 ms); no rack of its random tables (2) has 30 tiles; the
#: other positions within the noise; 25 or 20 tiles no better (seed 869 0.54-0.56 s, the soak
#: the same). ``RUNS_BUDGET`` 1,000,000, was 50,000 (2026-12-07, with the locked Jolys of
#: :func:`_runs_refute` and no ``BOUND_LEAVES`` solve on these racks; the same answers; CPU, one
#: core): most tries that gave up at 50,000 refute within 1-2x that more (seed 1890's 60-tile
#: rack: 98 of its 150 tries, 20-60 ms each unbounded): the 25 positions of bench/data 13.0 s
#: in all -> 4.3 s (seed 1890 5.5 -> 0.26 s, game 6498 1.6 -> 0.15 s, 6815 0.7 -> 0.2 s); at
#: 200,000 6.1 s (6498 2.2 s), 400,000-500,000 as 1,000,000 (6498 0.15-0.18 s: it needs
#: ~400,000); the 378 checks of 30+ tiles of random 2-player games 0-599 (uniform random play,
#: cold) 2.4-2.5 s either way. The cost where a try gives up both ways: ~2 x RUNS_BUDGET
#: states (~0.3-0.5 s) and their failed-state tables (up to 36 MB each way, 54 MB while one
#: grows, freed at once: relax.cpp).
RUNS_TILES = 30
RUNS_MELDS = 6
RUNS_LEAVES = 256
RUNS_BUDGET = 1_000_000
RELAX_BUDGET = 20_000
MANY_OUTCOMES = 16


def atu_finish(rules: Rules, rack: Sequence[int], atu: int, laid: bool, tabla: bool,
               table: Sequence[RemiMeld], seat: int) -> bool:
    """RO-4: with the Atu taken onto ``rack`` (not yet on it), can the player finish this very
    turn with the Atu in a new run/set with at least two rack tiles (etalat) or in the tabla
    close (RO-11)? Exact:

    * tabla: a close of the 15 tiles whose discard is not the Atu (``tabla_closes``);
    * not laid down: every tile but one covered by runs/sets with a run and the Atu in one (the
      whole lay-down then happens in this turn; 13+ tiles are worth >= 45, RO-8);
    * laid down: first, per table meld, every ``(rack tiles it takes, Jolys it gives up)`` its
      additions and Joly retrievals reach (:func:`_outcomes`, RO-9.2/9.5/9.6; a meld has at
      most a few hundred states); then a depth-first search over the melds choosing one outcome
      each (plays on different melds commute; the table sets first, the runs with many
      outcomes last, fewest first), memoised on ``(melds left, rack left, Jolys freed)``, a
      meld dropped from the melds left (and from :func:`_table_refutes`) once none of its
      outcomes' tiles is on the rack left (it can only stay as it is); at the end the rest must be covered by new melds holding the Atu with one tile
      left to discard (not a retrieved Joly, which is laid at once; two retrieved Jolys never
      in one meld, RO-9.5: the first one's meld is enumerated, :func:`_one_joly_melds`) — one
      ``solve_melds`` per distinct rest, memoised.

      The search cuts only what cannot finish: a node where more than one tile can go nowhere
      (:func:`_loose`), where the Atu has no partners left for a new meld (fewer tiles never
      give it more), whose every rest is bigger than the most tiles new melds holding the
      Atu cover in a superset of them, plus one (``solve_melds`` is monotone: more tiles never
      cover fewer; bounded once for the whole rack with every freeable Joly, and again at nodes
      with ``BOUND_LEAVES`` or more leaves below on racks under 30 tiles), or, near the leaves
      of a big subtree, whose rack left with the table melds still to play folded in has no
      cover but for one tile (:func:`_table_refutes`; the melds with many outcomes are played
      last, where it refutes most, and the sets first, whose tiles it misuses most), or, on
      racks of 30+ tiles and higher up (up to 6 melds left), whose vector has no such split
      with every table run still to play kept whole inside one run (:func:`_runs_refute`, the
      core's ``relaxed_cover``, its search run on the numbers mirrored too; a Joly of those
      runs retrieved as often as the rules allow, which keeps its place all turn, counted as
      the tile it stands for). tests/test_remi_atu.py checks the cut search against the uncut
      one, the relaxed one against the one without it, and both against a brute force over
      the engine's own actions; tests/test_remi_atu_order.py checks this order and the dropped
      melds against the table-order search that keeps every meld (tests/remi_atu_old.py) on
      racks of 18-34 tiles and on the slow positions of bench/data.

      There is no node cap: the answer is always exact. Inside the service every node checks
      :func:`rummy101._cancel.check_stop`, so a request can be stopped (the server going down,
      the quick lane's time up, its client gone) even where the search is long: a 2-player
      game of uniform random play can reach racks of 40-70 tiles against 4-14 table melds whose
      leaves number 10^5-10^6, each a cover asked with a floor (``solve_melds_value(...,
      n - 2)``: -1 unless every tile but one goes down, so a failing rest is cut early). Since
      the table relaxation the worst such checks found took ~1-5 s native (were 45-108 s; the
      worst found since, a 59-tile rack of RL seed 517, 7 s with ``RELAX_LEAVES`` 16, 30 s at
      512), and 2,000 such games (``rummy101 sim --rules 'remi(players=2)' --bots
      random,random --games 2000``) 25 s, were 4 min. Since the order (sets first, many-outcome
      runs last, fewest first) and the dropped melds (2026-12-07), bench/bench_remi_atu.py's
      eight "huge racks" take 0.01-3 s (seed 517 3 s, was 8-11 s; CPU, load ~1.5-2, old/new
      run twice in turn), and the 150 slowest checks of 3,000 random 2-player games (``--games
      3000 --seed 2``, each from cold memos) 37 s in all, were 59-67 s, the worst 4.2-4.6 s, was
      6.6-7.8 s. Since the table runs are kept whole (:func:`_runs_refute`, 2026-12-07) the eight
      take 0.01-0.11 s (seed 517 0.08 s, was 2.2 s; game 1534 0.11 s, was 1.0 s). Bound: the memo holds at most
      ``(melds + 1) * prod_c (rack[c] + 1) * (table Jolys + 1)`` entries (the rack left is a
      sub-multiset of the rack, and it decides the melds left: a suffix of the order less the
      melds it drops), each trying at most the outcomes of one meld. In practice
      (bench/bench_remi_atu.py, every memo cleared) a decision of uniform random play takes
      ~0.2 ms on average, one of a soak's games ~0.6 ms (worst ~0.2 s), the adversarial
      16-meld positions with 24-30-tile racks 0.1-1.1 s.

      Work budget: every ``solve_melds`` runs under the caller's budget and raises
      ``WorkBudgetExceeded`` when it runs out (never a guessed answer, nothing cached from the
      unfinished search). With every tile worth 1 these solves are small: the 25,000 distinct
      decisions of 450 soak games need < 3,000 nodes per solve, the adversarial positions
      < 100, the 162,000 of test_remi_random's slow games (uniform random play: racks of up to
      55 tiles) < 116,000 — far inside ``DEFAULT_WORK_BUDGET`` (2,000,000)."""
    counts = list(rack)
    counts[atu] += 1
    if tabla:
        return any(d != atu or counts[atu] >= 2 for d, *_ in closes(rules, counts))
    g = _geo(rules)
    n = sum(counts)
    if not laid:
        if (n - 1) * 5 < LAYDOWN_POINTS or _loose(g, counts, counts[J], 0) > 1:
            return False
        return bool(_backend.core().solve_melds_value(unit_rules(rules), counts, True, atu, True, _budget(), n - 2) == n - 1)
    key = (_backend.backend_name(), g.id, rules.opts.joly_retrievals, bytes(counts), atu,
           tuple(m.key for m in table))
    got = _ATU.get(key)
    if got is None:
        got = _laid_finish(rules, g, counts, atu, list(table), seat)
        if len(_ATU) >= MEMO_CAP:
            _ATU.clear()
        _ATU[key] = got
    return got


def _laid_finish(rules: Rules, g: _Geo, counts: list[int], atu: int, melds: list[RemiMeld], seat: int) -> bool:
    core = _backend.core()
    ucr = unit_rules(rules)
    budget = _budget()
    limit = rules.opts.joly_retrievals
    # necessary, before the melds' outcomes: the Atu has partners for a new meld, even if every
    # Joly on the table were freed
    if not g.supported(atu, _present(counts), counts[J] + sum(m.tiles.count(J) for m in melds)):
        return False
    # each table meld on its own: every (tiles it takes from the rack, Jolys it gives up) it can
    # reach by additions and retrievals (RO-9.2/9.5/9.6); plays on different melds commute
    pairs = [(m, o) for m in melds for o in [_outcomes(rules, g, m, counts, limit, seat)] if len(o) > 1]
    # the order the search plays them in (any order is exact: plays on different melds commute).
    # The table sets first: two outcomes each (nothing, or the missing colour), cheap to branch on
    # exactly, and the weakest part of _table_refutes (their tiles go into three runs of a
    # relaxed cover as easily as into their set). The runs with many outcomes last, fewest
    # first: there _table_refutes holds few table melds besides the rack and refutes the most
    # (random 2-player positions of 40-70 tiles: ~10x less time than table order). Measured on
    # the 150 slowest checks of 3,000 random 2-player games and bench/bench_remi_atu.py (see
    # docs/rl.md): sets first 1.6x less time, many-outcome runs fewest first 25x on seed 544.
    pairs.sort(key=lambda p: (p[0].kind == RUN, len(p[1]) >= MANY_OUTCOMES,
                              len(p[1]) if len(p[1]) >= MANY_OUTCOMES else 0))
    outs = [o for _m, o in pairs]
    # Jolys the melds can still give up (a 3-tile set's only after an addition, RO-9.6)
    free_all = sum(max(f for _u, f in o) for o in outs)
    # necessary: the Atu forms a new meld with rack tiles (a Joly may be retrieved)
    spare_j = counts[J] + free_all
    if not g.supported(atu, _present(counts), spare_j):
        return False             # (or in a run only 'lay' builds: R1 * * R4 R5 R6, RO-6/RO-7)
    every = 0
    every_runs: list[tuple[int, int, int]] = []
    for m in melds:
        every |= _meld_takes(m)
        every_runs += _meld_runs(m)
    if _loose(g, counts, spare_j, _takes(every, every_runs, counts, spare_j)) > 1:
        return False

    # necessary: a leaf's rest r (at most the rack and every Joly the melds can free) is covered
    # but for one tile, so |r| - 1 <= the most tiles new melds holding the Atu cover in that
    # superset (more tiles never cover fewer): one solve bounds every leaf of the search
    # (a rest holds at most the rack's Jolys and the table's: free_all counts a Joly again when
    # a meld takes one from the rack and gives it up, and the solvers take at most 6)
    jolys = counts[J] + sum(m.tiles.count(J) for m in melds)
    top = counts[:]
    top[J] = min(top[J] + free_all, jolys)
    bname = _backend.backend_name()

    def _most(top: list[int]) -> int:
        return _most_rest(bname, g, ucr, atu, top, budget)

    most = _most(top)
    # per table meld (index into ``pairs``): the tiles it takes at most, the Jolys it frees at
    # most, what it takes (_loose), its run ends, every code an outcome of it puts in
    nm = len(pairs)
    maxtake = [max(sum(k for _c, k in u) for u, _f in o) for o in outs]
    maxfree = [max(f for _u, f in o) for o in outs]
    mtakes = [_meld_takes(m) for m, _o in pairs]
    mruns = [_meld_runs(m) for m, _o in pairs]
    muses = [sum({1 << 8 * code for u, _f in o for code, _k in u}) for o in outs]
    msegs = [_segments(r) for r in mruns]
    mlocked = [_locked(m, limit) for m, _o in pairs]
    high = rules.high_ace
    runs_on = sum(counts) >= RUNS_TILES
    # per set of table melds still to play (a bit mask over ``pairs``, built on first use): the
    # tiles they take at most, the Jolys they can free, their leaves, what they take (_loose),
    # their runs, their tiles (_table_refutes) and their indices
    infos: dict[int, tuple[int, int, int, int, list[tuple[int, int, int]], list[int], list[int]]] = {}

    def info(mask: int) -> tuple[int, int, int, int, list[tuple[int, int, int]], list[int], list[int]]:
        got = infos.get(mask)
        if got is None:
            ks = [k for k in range(nm) if mask >> k & 1]
            leaves = 1
            tk = 0
            rn: list[tuple[int, int, int]] = []
            for k in ks:
                leaves *= len(outs[k])
                tk |= mtakes[k]
                rn += mruns[k]
            got = infos[mask] = (sum(maxtake[k] for k in ks), sum(maxfree[k] for k in ks), leaves, tk,
                                 rn, [t for k in ks for t in pairs[k][0].tiles], ks)
        return got

    leaf = _Rests(rules, g, atu, ucr, budget).leaf

    memo: dict[tuple[int, bytes, int], bool] = {}

    def go(mask: int, c: list[int], n: int, fj: int, most: int) -> bool:
        if not c[atu]:                           # the Atu goes into a new meld (RO-4)
            return False
        check_stop()   # a server may stop it (shutting down, lane time up, client gone)
        here = _present(c)
        take, free, leaves, tk, rn, tiles, ks = info(mask)
        # a meld none of whose outcomes' tiles are left on the rack can only stay as it is (a
        # Joly is freed only for a tile put in its place): out of the search, and out of the
        # relaxation (its tiles are a meld of their own)
        drop = 0
        for k in ks:
            if not here & muses[k]:
                drop |= 1 << k
        if drop:
            mask &= ~drop
            take, free, leaves, tk, rn, tiles, ks = info(mask)
        if n - take + fj > most:                 # the rest is too big to cover (``most``)
            return False
        if not mask:
            return leaf(c, fj)
        key = (mask, bytes(c), fj)
        got = memo.get(key)
        if got is not None:
            return got
        spare = c[J] + fj + free
        res = False
        # necessary: the Atu still has partners for a new meld (fewer tiles never give it more),
        # and more than the discard can never go down
        if (g.supported(atu, here, spare)
                and _loose(g, c, spare, _takes(tk, rn, c, spare)) <= 1):
            if (runs_on and len(ks) <= RUNS_MELDS and leaves >= RUNS_LEAVES
                    and _runs_refute(core, c, fj, tiles, [sg for k in ks for sg in msegs[k]], high,
                                     [t for k in ks for t in mlocked[k]])):
                memo[key] = False
                return False
            if (len(ks) <= RELAX_MELDS and leaves >= RELAX_LEAVES
                    and _table_refutes(core, ucr, c, fj, tiles, atu, budget)):
                memo[key] = False
                return False
            if leaves >= BOUND_LEAVES and not runs_on:   # a big subtree: ``most`` of its superset
                top = c[:]
                top[J] = min(spare, jolys)
                most = min(most, _most(top))
            k = ks[0]
            rest = mask & ~(1 << k)
            for used, freed in outs[k]:
                if n - take + fj > most:
                    break
                if all(c[code] >= q for code, q in used):
                    m = n
                    for code, q in used:
                        c[code] -= q
                        m -= q
                    res = go(rest, c, m, fj + freed, most)
                    for code, q in used:
                        c[code] += q
                    if res:
                        break
        memo[key] = res
        return res

    return go((1 << nm) - 1, counts[:], sum(counts), 0, most)


class _Rests:
    """The leaves of the laid-down Atu search (:func:`_laid_finish`): whether a rest of tiles
    finishes with new melds holding the Atu (RO-4) and one real tile to discard, a retrieved
    Joly laid at once and two retrieved Jolys never in one meld (RO-9.5)."""

    def __init__(self, rules: Rules, g: _Geo, atu: int, ucr: Any, budget: int) -> None:
        self.rules, self.g, self.atu, self.ucr, self.budget = rules, g, atu, ucr, budget
        self.core = _backend.core()
        self.bname = _backend.backend_name()

    def leaf(self, c: list[int], fj: int) -> bool:
        """Does the rest at a leaf of the search (the rack left ``c`` and the ``fj`` Jolys
        freed) finish: new melds holding the Atu, one real tile left to discard (memoised in
        ``_LEAVES``)?"""
        atu, g = self.atu, self.g
        if not c[atu]:
            return False
        r = c[:]
        r[J] += fj
        apart = fj >= 2 and not c[J]        # both Jolys retrieved: each laid at once, apart
        key = (self.bname, g.id, atu, bytes(r), c[J] > 0, apart)
        got = _LEAVES.get(key)
        if got is None:
            if len(_LEAVES) >= MEMO_CAP:
                _LEAVES.clear()
            got = _LEAVES[key] = self._cover(r, c[J] > 0, apart)
        return got

    def _cover(self, r: list[int], own_joly: bool, apart: bool = False) -> bool:
        atu, g, core, ucr, budget = self.atu, self.g, self.core, self.ucr, self.budget
        n = sum(r)
        if n < 4:
            return False
        # necessary (each checked on tiles alone): the Atu in a new meld, at most one tile in none
        if not g.supported(atu, _present(r), r[J]) or _loose(g, r, r[J], 0) > 1:
            return False
        # the value first (no rebuild; floor n - 2: only whether every tile but one goes down):
        # nearly every rest fails here, and only one that covers needs its arrangement (which
        # Jolys stay); with the Jolys apart, a cover of the rest as one is necessary too
        if core.solve_melds_value(ucr, r, True, atu, False, budget, n - 2) != n - 1:
            return False
        if apart:
            # RO-9.5: a retrieved Joly is laid at once in a new meld, so two retrieved Jolys never
            # share one: the first one's meld is any meld with one Joly and rack tiles, the rest
            # (one Joly left, so no meld holds two) is covered as usual
            for reals in _one_joly_melds(self.rules, r):
                rest = r[:]
                for t in reals:
                    rest[t] -= 1
                rest[J] -= 1
                if not rest[atu] and atu not in reals:
                    continue
                if rest[atu] and self._cover(rest, False) or not rest[atu] and self._cover_free(rest):
                    return True
            return False
        if not r[J] or own_joly:
            return True
        _v, used = core.solve_melds(ucr, r, True, atu, False, budget)
        left = r[:]
        for _k, tiles, _sf in used:
            for t in tiles:
                left[t] -= 1
        if not left[J] or own_joly:
            return True
        # the discard must be a real tile (a retrieved Joly is laid at once): each real tile
        # whose removal leaves every other tile some new meld (_loose 0) is tried
        for d in range(52):
            if r[d]:
                r[d] -= 1
                ok = (_loose(g, r, r[J], 0, 0) == 0
                      and core.solve_melds_value(ucr, r, False, atu, False, budget, n - 2) == n - 1)
                r[d] += 1
                if ok:
                    return True
        return False

    def _cover_free(self, r: list[int]) -> bool:
        """Every tile of ``r`` but one real tile in new melds (the Atu is laid already)."""
        core, ucr, budget = self.core, self.ucr, self.budget
        n = sum(r)
        if n == 1:
            return not r[J]
        for d in range(52):
            if r[d]:
                r[d] -= 1
                ok = core.solve_melds_value(ucr, r, False, -1, False, budget, n - 2) == n - 1
                r[d] += 1
                if ok:
                    return True
        return False


def _runs_refute(core: Any, c: list[int], fj: int, tiles: list[int],
                 segs: list[tuple[int, int, int]], high_ace: bool, locked: Sequence[int] = ()) -> bool:
    """Necessary for a laid-down Atu finish from a search node, stronger than
    :func:`_table_refutes`: the same vector (the rack left ``c``, the ``fj`` Jolys freed, the
    ``tiles`` of the table melds still to play) split into runs and sets but for one tile with
    each table run of those melds (``segs``: colour, first and last number) inside one run of
    its own. A finish makes it just that: a played table run keeps its tiles in their places
    (RO-7: a Joly keeps its place; a played run only grows at its ends or swaps a Joly for the
    tile it stands for) and stays one meld. The core's ``relaxed_cover`` (cpp/src/relax.cpp, its
    twin python/rummy101/_pure/relax.py) asks it with the Jolys standing for any tile and without
    RO-7 or the Atu, so it refutes less than it could but never wrongly; a search past
    ``RUNS_BUDGET`` states (each of the forward and the mirrored one) proves nothing.

    ``locked``: the tile each Joly of those runs that can no longer be retrieved stands for
    (:func:`_locked`; its Joly is in ``tiles``). Such a Joly stays in its place all turn, so the
    vector holds that tile instead of a Joly (a finish maps onto a split of it: the run holds the
    tile there), a stronger question; kept a Joly where the vector has two of the tile already
    (``relaxed_cover`` takes at most two). True: refuted."""
    rel = c[:]
    rel[J] += fj
    for t in tiles:
        rel[t] += 1
    for t in locked:
        if rel[t] < 2:
            rel[t] += 1
            rel[J] -= 1
    return not core.relaxed_cover(rel, high_ace, segs, RUNS_BUDGET)


def _table_refutes(core: Any, ucr: Any, c: list[int], fj: int, tiles: list[int], atu: int,
                   budget: int) -> bool:
    """Necessary for a laid-down Atu finish from a search node: the rack left ``c``, the ``fj``
    Jolys freed so far and the ``tiles`` of the table melds still to play, all in one count
    vector, are covered by runs/sets holding the Atu but for one tile. A finish makes them just
    that: the played melds (valid runs/sets, RO-6/RO-7, grown by the rack tiles put in, less the
    Jolys taken back), the new melds (the freed Jolys in them) and the discard. So a vector the
    solver cannot cover so refutes the whole subtree; it may also break table melds apart, which
    no play can, so a cover proves nothing. True: refuted.

    Random 2-player play reaches racks of 40-70 tiles where the subtrees' leaves (one cover each)
    fail by several tiles; this refutes them in bulk (bench/bench_remi_atu.py). A vector with
    more than two copies of a tile (no position of play has one) is not tried, and nor is one
    that spends ``RELAX_BUDGET`` nodes: the node is then searched as before."""
    rel = c[:]
    rel[J] += fj
    for t in tiles:
        rel[t] += 1
    if max(rel) > 2:
        return False
    n = sum(rel)
    try:
        return bool(core.solve_melds_value(ucr, rel, True, atu, False, min(budget, RELAX_BUDGET), n - 2) != n - 1)
    except WorkBudgetExceeded:
        return False


def _most_rest(bname: str, g: _Geo, ucr: Any, atu: int, top: list[int], budget: int) -> int:
    """The biggest rest of tiles within ``top`` that new melds holding the Atu cover but for one
    tile (the most tiles they cover, keeping one, plus one; memoised)."""
    key = (bname, g.id, atu, bytes(top))
    got = _MOST.get(key)
    if got is None:
        if len(_MOST) >= MEMO_CAP:
            _MOST.clear()
        got = _MOST[key] = _backend.core().solve_melds_value(ucr, top, True, atu, False, budget) + 1
    return got


_OUTCOMES: dict[tuple[Any, ...], list[tuple[tuple[tuple[int, int], ...], int]]] = {}


def _outcomes(rules: Rules, g: _Geo, meld: RemiMeld, counts: list[int], limit: int,
              seat: int) -> list[tuple[tuple[tuple[int, int], ...], int]]:
    """What one table meld can take this turn: every ``(used, freed)`` reachable from it by
    single additions (``meld.adds``) and Joly retrievals (``meld.releases``, at most ``limit``
    per Joly) with the tiles of ``counts``: ``used`` the rack tiles put in as sorted
    ``(code, count)`` pairs, ``freed`` the Jolys taken back; by more tiles used first, nothing
    taken last. A meld has at most a few hundred states (a run spans at most 14 places, a set 4),
    so this is small and exact.

    Memoised on the meld's tiles and retrievals and the rack's tiles of its colour (a run) or
    number (a set) and Jolys: stored only when every tile the search looked at is one of those,
    so another rack with the same such tiles runs the very same search."""
    if meld.kind == RUN:
        col = next(c for c in meld.tiles if c != J) // 13
        near = tuple(range(col * 13, col * 13 + 13)) + (J,)
    else:
        num = next(c for c in meld.tiles if c != J) % 13
        near = (num, num + 13, num + 26, num + 39, J)
    key = (g.id, meld.kind, meld.tiles, meld.jr, limit, bytes(counts[c] for c in near))
    got = _OUTCOMES.get(key)
    if got is not None:
        return got
    looked: set[int] = set()
    start: tuple[tuple[int, int], ...] = ()
    seen = {(meld.key, start, 0)}
    out = {(start, 0)}
    todo = [(meld, start, 0)]
    while todo:
        m, used, freed = todo.pop()
        u = dict(used)
        moves: list[tuple[int, Any, tuple[int, int, int], int]] = [
            (code, m.with_added, (code, pos, seat), 0) for code, pos in m.adds]
        moves += [(code, m.with_released, (code, idx, seat), 1) for code, idx in m.releases
                  if m.jr[idx] < limit]
        for code, make, args, f in moves:
            looked.add(code)
            if u.get(code, 0) >= counts[code]:
                continue
            nu = dict(u)
            nu[code] = nu.get(code, 0) + 1
            nused = tuple(sorted(nu.items()))
            nm = make(rules, *args)
            skey = (nm.key, nused, freed + f)
            if skey in seen:
                continue
            seen.add(skey)
            out.add((nused, freed + f))
            todo.append((nm, nused, freed + f))
    got = sorted(out, key=lambda o: (-sum(k for _c, k in o[0]), -o[1]))
    if looked.issubset(near):
        if len(_OUTCOMES) >= OUTCOMES_CAP:
            _OUTCOMES.clear()
        _OUTCOMES[key] = got
    return got


def _one_joly_melds(rules: Rules, r: Sequence[int]) -> list[tuple[int, ...]]:
    """The real tiles of every valid run/set holding exactly one Joly whose real tiles ``r``
    holds (each multiset once)."""
    from .table import RUN, SET, _geometry, set_order

    out: set[tuple[int, ...]] = set()
    top = 14 if rules.high_ace else 13
    for col in range(4):
        for a in range(1, top - 1):
            for n in range(3, top - a + 2):
                base = [col * 13 + (k - 1) % 13 for k in range(a, a + n)]
                # by count, not presence: 1-2-..-13-1 (RO-6's high 1) holds the 1 twice
                need = Counter(base)
                short = [c for c, k in need.items() if r[c] < k]
                if len(short) > 1 or short and need[short[0]] - r[short[0]] > 1:
                    break
                for i in ([i for i, c in enumerate(base) if c in short] or range(n)):
                    tiles = tuple(J if k == i else c for k, c in enumerate(base))
                    if _geometry(rules, RUN, tiles) is not None:
                        out.add(tuple(sorted(c for c in tiles if c != J)))
    for num in range(13):
        present = [k * 13 + num for k in range(4) if r[k * 13 + num]]
        for size in (2, 3):
            from itertools import combinations

            for reals in combinations(present, size):
                items = set_order([(c, 0, 0) for c in reals] + [(J, 0, 0)])
                if _geometry(rules, SET, tuple(i[0] for i in items)) is not None:
                    out.add(tuple(sorted(reals)))
    return sorted(out)


def _fits(counts: list[int], rest: tuple[int, ...], atu: int, spare_j: int) -> bool:
    """Are the other tiles ``rest`` of a meld holding the Atu on the rack (besides the Atu), a
    Joly possibly retrieved (``spare_j`` Jolys at most)?"""
    c = counts[:]
    c[atu] -= 1
    for t in rest:
        if t == J:
            if spare_j <= 0:
                return False
            spare_j -= 1
        elif c[t] <= 0:
            return False
        else:
            c[t] -= 1
    return True


def _meld_takes(m: RemiMeld) -> int:
    """The codes table meld ``m`` takes one at a time (additions, Joly releases) as a code set."""
    out = 0
    for c, _p in m.adds:
        out |= 1 << 8 * c
    for c, _i in m.releases:
        out |= 1 << 8 * c
    return out & _REALS


def _segments(runs: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    """``[(colour, first number, last number)]`` of :func:`_meld_runs`' runs: the table runs as
    ``relaxed_cover`` takes them (:func:`_runs_refute`)."""
    return [(col, down + 1, up - 1) for col, up, down in runs]


def _locked(m: RemiMeld, limit: int) -> list[int]:
    """The tiles the Jolys of table run ``m`` stand for that no play can retrieve this turn (each
    retrieved ``limit`` times already, RO-9.5: it keeps its place), else []."""
    if m.kind != RUN or J not in m.tiles:
        return []
    col, _up, down = _meld_runs(m)[0]
    return [col * 13 + (down + i) % 13 for i, t in enumerate(m.tiles) if t == J and m.jr[i] >= limit]


def _meld_runs(m: RemiMeld) -> list[tuple[int, int, int]]:
    """``[(colour, number after the end, number before the start)]`` of a table run, else []."""
    if m.kind != RUN:
        return []
    i0, c0 = next((i, c) for i, c in enumerate(m.tiles) if c != J)
    start = c0 % 13 + 1 - i0
    return [(c0 // 13, start + len(m.tiles), start - 1)]


def _takes(takes: int, runs: list[tuple[int, int, int]], counts: list[int], jolys: int) -> int:
    """``takes`` and the tiles of ``counts`` a table run of ``runs`` reaches one addition at a
    time (``jolys`` Jolys fill gaps), as a code set."""
    for col, up, down in runs:
        for step, n, stop in ((1, up, 15), (-1, down, 0)):
            j = jolys
            while n != stop:
                code = col * 13 + (n - 1) % 13
                if counts[code]:
                    takes |= 1 << 8 * code
                elif j > 0:
                    j -= 1
                else:
                    break
                n += step
    return takes


def _loose(g: _Geo, counts: list[int], jolys: int, takes: int, stop: int = 1) -> int:
    """How many real tiles of ``counts`` (with multiplicity) fit no 3-tile meld with other tiles
    of ``counts`` (``jolys`` Jolys usable, ``lay`` runs too) and are not in the code set
    ``takes`` (what table melds take, :func:`_takes`): a cheap lower bound of the tiles that
    cannot go down this turn. Counting stops above ``stop``."""
    present = _present(counts)
    todo = present & _REALS & ~takes
    loose = 0
    while todo:
        low = todo & -todo
        todo ^= low
        c = low.bit_length() >> 3
        if not g.supported(c, present, jolys):
            loose += counts[c]
            if loose > stop:
                break
    return loose


#: every memo of this module (tests and the bench clear them to measure or compare from scratch)
_CACHES: tuple[dict[Any, Any], ...] = (_LAYDOWN, _CLOSES, _ATU, _LEAVES, _MOST, _OUTCOMES)

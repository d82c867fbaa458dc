"""Rummy 101 on the generic :class:`~rummy101.game.state.State` (RULES.md R101-1 .. R101-14).

A turn is built one small action at a time (see :mod:`rummy101.game.actions`):

* **take** phase (R101-3): ``draw``, ``take`` (R101-4) or ``button`` (R101-10). The starter's
  first turn has no take (R101-2): it starts in the play phase.
* **play** phase: lay 3-tile runs/sets or pairs (``run``/``set``/``pair``), grow runs/sets one
  tile at a time (``add``), retrieve jokers (``retrieve``), ``open``, ``reset``, ``discard``.

Before a player has opened, laid melds are *staged* (visible on the table, marked staged); the
``open`` action commits them and checks the threshold (R101-7: runs/sets worth >= the current
points threshold; R101-8: >= the current number of pairs; never both kinds in one opening). A
staged opening must be committed or reset before the discard. ``reset`` undoes every play of
the turn and, if the discard was taken, puts it back (the take phase starts again).

Why this is complete and bounded: every run/set on the table has a 3-tile window holding a
numbered tile, so it can be laid as that window and grown with ``add`` at either end (a set grows
to 4); every opening is a set of melds staged this way and committed once; additions, retrievals
and further melds after the opening are single actions. At each step the list holds at most
~44 x 7 run windows, 13 x 14 set choices, 104 pairs, 4 additions per table meld, the joker
releases, 53 discards and the 5 bare actions: a few hundred at most, never a power set.

Taking the discard (R101-4) is offered exactly when some continuation of the turn puts the tile
on the table and ends with a discard (:func:`_take_usable`; ``tests/test_game_exact.py`` checks it
against a brute-force search of the turn). ``discard`` is refused until the tile is on the table
(in the opening, when not yet opened), and ``reset`` returns it.

One action per move: ``legal_actions()`` is exactly what ``apply`` accepts, and a non-canonical
form of a move is refused naming the canonical one (a set's jokers are interchangeable, so its
retrieval names the first joker's index; docs/DESIGN.md, "Game surface").

Rule interpretations (RULES.md wording, engine choices marked *engine*):

* R101-2: seat ``round % players`` starts with 22 tiles and no take; the starting seat rotates.
* R101-4: the taken tile counts as used when a copy of its code leaves the rack for the table
  (tiles of one code are indistinguishable; a taken joker when the table gains a joker on
  balance). Putting it in place of a table joker (R101-9) uses it (*engine*, reading (a) of
  docs/rules.md).
* R101-7/R101-14: the threshold is checked at ``open`` over the staged melds; the opening value
  that raises the increasing ladder is the value ``open`` committed (the number of pairs for a
  pairs opening), raised at ``open`` and undone by ``reset``; plays after ``open`` in the same
  turn do not raise it (*engine*, reading (b) of docs/rules.md).
* R101-8: pairs openers may lay pairs and add to runs/sets; runs/sets openers may lay pairs once
  another player has opened with pairs. Staging mixes no pairs with runs/sets (*engine*).
* R101-9: jokers in pairs are retrievable; in a set any missing colour releases a joker.
* R101-12/13: a finish is a discard that empties the rack; joker finish doubles; a finish in one
  turn (the finisher opened this turn, nobody else has opened) doubles again. Stock exhausted:
  the player who drew the last stock tile plays out the turn; the round then ends.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations, compress
from typing import TYPE_CHECKING, Any

from ....errors import IllegalAction
from ....tiles import JOKER_CODE, Tile
from ...actions import Action
from ...deal import deal_tiles, seat_round
from ...phase import Phase
from ...state import observation_head
from ...table import KIND_NAMES, PAIR, RUN, SET, TableMeld, check_new_meld
from . import _precomputed as P
from .data import NOT_OPENED, OPEN_MELDS, OPEN_PAIRS, R101Data
from .world import own_turn

if TYPE_CHECKING:
    from ...state import State

J = JOKER_CODE
_OPEN_NAMES = {NOT_OPENED: None, OPEN_MELDS: "melds", OPEN_PAIRS: "pairs"}

#: The verbs of a Rummy 101 turn (rummy101.game.actions).
VERBS = frozenset({"draw", "take", "button", "run", "set", "pair", "add", "retrieve", "open",
                   "reset", "discard"})
#: A match is one round unless ``new_game(..., match_rounds=N)`` says otherwise.
DEFAULT_MATCH_ROUNDS = 1

WIN_POINTS = 101          # R101-13 normal finish
UNOPENED_PENALTY = 202    # R101-13


# ---- round set-up ---------------------------------------------------------------------------

def new_match(s: State) -> None:
    """The match-level record (joker-button accounts, R101-10) and the first deal."""
    s.x = R101Data(s.n, s.rules.opts.button_jokers)
    start_round(s, 0)


def start_round(s: State, round_index: int) -> None:
    """Deal round ``round_index`` (R101-2) and reset the per-round state (R101-10, R101-14)."""
    r = s.rules
    stock, racks = deal_tiles(r, s.seed, round_index)
    seat_round(s, round_index, racks, stock)
    s.x.discards = [[] for _ in range(s.n)]
    s.x.last_discard = -1
    s.x.taken_log = []
    s.x.opened = [NOT_OPENED] * s.n
    s.x.opened_turn = [-1] * s.n
    s.x.thr_melds = r.opening_points
    s.x.thr_pairs = r.pairs_opening
    s.x.button_used = [False] * s.n
    _start_turn(s, Phase.PLAY, "start")


def _start_turn(s: State, phase: Any, took: str) -> None:
    s.phase = phase
    s.x.took = took
    s.x.taken = -1
    s.x.taken_base = 0
    s.x.staged_from = -1
    s.x.staged_kind = NOT_OPENED
    s.x.turn_table_start = len(s.table)
    s.x.snap = None
    s.invalidate_legal()


# ---- permissions (small strategy functions of the rules) -----------------------------------

def may_lay_runs(s: State, p: int) -> bool:
    """R101-8: a pairs opener never lays new runs or sets."""
    opened: list[int] = s.x.opened
    return opened[p] != OPEN_PAIRS


def may_lay_pairs(s: State, p: int) -> bool:
    """R101-8: pairs before opening (a pairs opening), after a pairs opening, or after a runs/sets
    opening once another player has opened with pairs."""
    if not s.rules.pairs_allowed:
        return False
    o = s.x.opened[p]
    if o == NOT_OPENED or o == OPEN_PAIRS:
        return True
    return any(s.x.opened[q] == OPEN_PAIRS for q in range(s.n) if q != p)


def penalty(s: State, q: int) -> int:
    """R101-13: not opened 202; opened with runs/sets the rack's values (joker 101, R101-6:
    the core's ``rack_value`` under the penalty valuation, the one count of a rack); opened
    with pairs twice that."""
    o = s.x.opened[q]
    if o == NOT_OPENED:
        return UNOPENED_PENALTY
    from .... import _backend

    v = int(_backend.core().rack_value(_backend.core_rules(s.rules, "penalty"), s.racks[q]))
    return 2 * v if o == OPEN_PAIRS else v


# ---- legal actions --------------------------------------------------------------------------

_MELD_MEMO: dict[tuple[bytes, bool, bool], tuple[Action, ...]] = {}


def _min_melds(rack: list[int], size: int, runs: bool, pairs: bool, out: list[Action],
               raw: bytes | None = None) -> None:
    """Append every 3-tile run/set and every pair that the rack can lay keeping a tile (R101-12).

    A pure function of the rack, memoised (a turn often comes back to the same rack after a
    ``reset``); the scan itself reads per-colour presence masks, see ``_precomputed``.
    ``raw`` is ``bytes(rack)`` when the caller has it already."""
    if raw is None:
        raw = bytes(rack)
    key = (raw, runs, pairs)
    got = _MELD_MEMO.get(key)
    if got is None:
        acc: list[Action] = []
        _scan_melds(raw, size, runs, pairs, acc)
        got = tuple(acc)
        if len(_MELD_MEMO) >= 32_768:  # ~260 bytes each (docs/simulation.md "Memory")
            _MELD_MEMO.clear()
        _MELD_MEMO[key] = got
    out.extend(got)


# A colour's run windows and pairs depend only on that colour's presence (and doubles) masks and
# the jokers on the rack, so they are memoised per colour: a rack the whole-rack memo has not seen
# is mostly made of colours seen before. Same actions, same order as scanning window by window.
_RUNS_MEMO: tuple[tuple[dict[int, tuple[Action, ...]], ...], ...] = tuple(
    tuple({} for _ in range(4)) for _ in range(3))  # [min(jokers, 2)][colour]: mask -> runs
_PAIRS_J_MEMO: tuple[dict[int, tuple[Action, ...]], ...] = tuple({} for _ in range(4))
_PAIRS_0_MEMO: tuple[dict[int, tuple[Action, ...]], ...] = tuple({} for _ in range(4))


def _runs_of_colour(c: int, m: int, jl: int) -> tuple[Action, ...]:
    """The 3-tile runs of colour ``c`` whose real tiles are in the presence mask ``m`` (bit i =
    number i + 1), with at most ``jl`` jokers, window by window from the lowest."""
    if jl == 0:
        w = m & (m >> 1) & (m >> 2)
    elif jl == 1:
        w = (m & (m >> 1)) | (m & (m >> 2)) | ((m >> 1) & (m >> 2))
    else:
        w = m | (m >> 1) | (m >> 2)
    w &= 0x7FF
    base = c * 13
    byp = P.RUN_BY_PATTERN
    acc: list[Action] = []
    while w:
        low = w & -w
        i = low.bit_length() - 1
        acc.extend(byp[base + i][(m >> i) & 7][jl])
        w ^= low
    got = _RUNS_MEMO[jl][c][m] = tuple(acc)
    return got


def _pairs_of_colour(c: int, m: int, d: int, joker: bool) -> tuple[Action, ...]:
    """The pairs of colour ``c`` (presence mask ``m``, doubles mask ``d``) by code: ``x x`` where
    doubled, then ``x *`` when the rack holds a joker."""
    base = c * 13
    same = P.PAIR_SAME
    withj = P.PAIR_JOKER
    acc: list[Action] = []
    x = m if joker else d
    while x:
        low = x & -x
        code = base + low.bit_length() - 1
        if d & low:
            acc.append(same[code])
        if joker:
            acc.append(withj[code])
        x ^= low
    got = tuple(acc)
    memo = _PAIRS_J_MEMO[c] if joker else _PAIRS_0_MEMO[c]
    # up to 3**13 (presence, doubles) masks a colour: keep it bounded (8,192 entries of ~175
    # bytes a colour; at 100,000 the four with a joker held 16 MB after 12,000 games, growing)
    if len(memo) >= 8_192:
        memo.clear()
    memo[m | d << 13 if joker else d] = got
    return got


def _scan_melds(raw: bytes, size: int, runs: bool, pairs: bool, out: list[Action]) -> None:
    jk = raw[J]
    jl = min(jk, 2)
    pres = raw.translate(P.PRESENCE)
    mask13 = P.MASK13
    m0 = mask13[pres[0:13]]
    m1 = mask13[pres[13:26]]
    m2 = mask13[pres[26:39]]
    m3 = mask13[pres[39:52]]
    if runs and size >= 4:
        memo = _RUNS_MEMO[jl]
        for c, m in enumerate((m0, m1, m2, m3)):
            if m:
                got = memo[c].get(m)
                out.extend(got if got is not None else _runs_of_colour(c, m, jl))
        if jl == 0:
            cand = (m0 & m1 & m2) | (m0 & m1 & m3) | (m0 & m2 & m3) | (m1 & m2 & m3)
        elif jl == 1:
            cand = (m0 & (m1 | m2 | m3)) | (m1 & (m2 | m3)) | (m2 & m3)
        else:
            cand = m0 | m1 | m2 | m3
        sets = P.SET_BY_PATTERN
        while cand:
            low = cand & -cand
            n = low.bit_length() - 1
            cm = (m0 >> n & 1) | (m1 >> n & 1) << 1 | (m2 >> n & 1) << 2 | (m3 >> n & 1) << 3
            out.extend(sets[n][cm][jl])
            cand ^= low
    if pairs and size >= 3:
        dbl = raw.translate(P.DOUBLE)
        if jk:
            for c, m in enumerate((m0, m1, m2, m3)):
                if m:
                    d = mask13[dbl[13 * c:13 * c + 13]]
                    got = _PAIRS_J_MEMO[c].get(m | d << 13)
                    out.extend(got if got is not None else _pairs_of_colour(c, m, d, True))
        else:
            for c in range(4):
                d = mask13[dbl[13 * c:13 * c + 13]]
                if d:
                    got = _PAIRS_0_MEMO[c].get(d)
                    out.extend(got if got is not None else _pairs_of_colour(c, d, d, False))


def legal_actions(s: State) -> list[Action]:
    ph = s.phase
    if ph is Phase.OVER:
        return []
    p = s.current
    x: R101Data = s.x
    if ph is Phase.TAKE:
        out = [P.DRAW] if s.stock else []
        if x.last_discard >= 0 and _take_usable(s, p, x.last_discard):
            out.append(P.TAKE)
        if x.button_left[p] > 0 and not x.button_used[p]:
            out.append(P.BUTTON)
        return out
    rack = s.racks[p]
    raw = bytes(bytearray(rack))  # the memos' key; bytes(list) is slower than via bytearray
    size = s.sizes[p]
    out = []
    opened = x.opened[p]
    taken = x.taken
    taken_ok = taken < 0 or rack[taken] <= x.taken_base
    staged_from = x.staged_from
    add_action = P.add_action
    if opened == NOT_OPENED:
        sk = x.staged_kind
        _min_melds(rack, size, sk != OPEN_PAIRS, sk != OPEN_MELDS and s.rules.pairs_allowed, out, raw)
        if staged_from >= 0:
            if size >= 2:
                table = s.table
                for i in range(staged_from, len(table)):
                    for code, pos in table[i].adds:
                        if rack[code]:
                            out.append(add_action(code, i, pos))
            if taken_ok and _staged_reaches(s):
                out.append(P.OPEN)
    else:
        _min_melds(rack, size, opened == OPEN_MELDS, may_lay_pairs(s, p), out, raw)
        table = s.table
        if size >= 2:
            for i, m in enumerate(table):
                for code, pos in m.adds:
                    if rack[code]:
                        out.append(add_action(code, i, pos))
        for i, m in enumerate(table):
            if m.jokers:
                for code, idx in m.releases:
                    if rack[code]:
                        out.append(P.retrieve_action(i, idx, code))
    if x.snap is not None:
        out.append(P.RESET)
    if taken_ok and staged_from < 0:
        # the discard of each code held, in code order, in C (the same interned actions): a
        # memo by rack, which missed on about half of the RL env's random steps, cost more, and
        # its tuples of actions stayed in the cycle collector's passes
        out.extend(compress(P.DISCARD, rack))
    return out


def _staged_reaches(s: State) -> bool:
    x: R101Data = s.x
    table: list[TableMeld] = s.table
    staged = table[x.staged_from:]
    if x.staged_kind == OPEN_PAIRS:
        return len(staged) >= x.thr_pairs
    return sum(m.value for m in staged) >= x.thr_melds


def _take_usable(s: State, p: int, t: int) -> bool:
    """R101-4: may the discard ``t`` be taken? Exactly when some continuation of the turn puts it
    on the table and can still end with a discard (see the module docstring):

    * not opened: an opening holding ``t`` exists this turn (R101-4 with R101-7/8/14), decided
      by the core solvers after a cheap shape filter;
    * opened: :func:`_opened_can_use`, an exact case analysis over the table and the rack."""
    if s.x.opened[p] != NOT_OPENED:
        return _opened_can_use(s, p, t)
    return _unopened_could_fit(s, p, t) and _opening_possible_with(s, p, t)


_OPENING_MEMO: dict[tuple[bytes, int, int, int], bool] = {}


def _opening_possible_with(s: State, p: int, t: int) -> bool:
    """R101-4 with R101-7/R101-8/R101-14: can the player, not yet opened, open this turn with the
    taken tile ``t`` in the opening — runs/sets worth at least the current points threshold, or
    at least the current number of pairs — keeping a tile to discard (R101-12)? Exact: the best
    opening that must use ``t`` (``solve_melds`` / ``max_pairs`` with ``must_use``)."""
    counts = list(s.racks[p])
    counts[t] += 1
    raw = bytes(bytearray(counts))
    key = (raw, t, s.x.thr_melds, s.x.thr_pairs if s.rules.pairs_allowed else -1)
    hit = _OPENING_MEMO.get(key)
    if hit is not None:
        return hit
    core, cr = _open_core(s.rules)
    # The solvers only where a cheap upper bound reaches the threshold (the melds bound assumes
    # face values, R101-6, which _face_values checks).
    thr = s.x.thr_melds
    ok = bool((s.rules.pairs_allowed and _pairs_bound(raw) >= s.x.thr_pairs
               and core.max_pairs(counts, True, t)[0] >= s.x.thr_pairs) or
              ((not _face_values(cr) or _melds_bound(raw, thr) >= thr)
               and core.solve_melds_value(cr, counts, True, t, False, core.DEFAULT_WORK_BUDGET, thr - 1) >= thr))
    if len(_OPENING_MEMO) >= 4_096:  # its hits come within a turn: as many at 1,000
        _OPENING_MEMO.clear()
    _OPENING_MEMO[key] = ok
    return ok


def _pairs_bound(raw: bytes) -> int:
    """An upper bound of the pairs a rack (count vector as bytes) can lay (R101-5, R101-8): a
    pair is two copies of a code or one tile with a joker, so at most ``count // 2`` per code
    plus one per joker. Lets :func:`_opening_possible_with` skip the solver when it cannot reach
    the threshold; never below the solver's answer."""
    jk = raw[J]
    return sum(raw[:52].translate(P.DOUBLE)) + sum(raw[:52].translate(P.QUAD)) + jk


_OPEN_CORE: dict[tuple[int, str], tuple[Any, Any, Any]] = {}


def _open_core(rules: Any) -> tuple[Any, Any]:
    """The live core module and its ``CoreRules`` of ``rules`` under the opening valuation,
    remembered per rules object and backend (hashing a ``Rules`` costs more than a solver's
    cheap call, so the lookup goes by identity)."""
    from .... import _backend

    name = _backend.backend_name()
    hit = _OPEN_CORE.get((id(rules), name))
    if hit is None or hit[0] is not rules:
        if len(_OPEN_CORE) > 1000:
            _OPEN_CORE.clear()
        hit = _OPEN_CORE[(id(rules), name)] = (rules, _backend.core(),
                                                 _backend.core_rules(rules, "open"))
    return hit[1], hit[2]


_FACE: dict[Any, bool] = {}


def _face_values(cr: Any) -> bool:
    """Does this ``CoreRules`` value tiles at face value with jokers as the tile they stand for,
    1 low only (R101-6, R101-5)? :func:`_melds_bound` assumes it."""
    hit = _FACE.get(cr)
    if hit is None:
        hit = _FACE[cr] = (list(cr.run_value)[1:14] == list(range(1, 14))
                           and list(cr.set_value)[1:14] == list(range(1, 14))
                           and not cr.high_ace and cr.joker_value < 0)
    return hit


def _melds_bound(raw: bytes, need: int = 0) -> int:
    """An upper bound of the opening value of a rack's runs/sets (R101-6, R101-7), to skip the
    solver in :func:`_opening_possible_with` when it cannot reach the threshold.

    Without jokers a tile can be laid only inside a 3-tile window of present tiles (a run) or a
    set of three colours; the face values of those tiles, every copy counted, bound the melds
    without jokers. Each joker sits in one meld, worth at most 13 itself, and that meld lies in
    one colour (a run) or one number (a set): the tiles it adds beyond the joker-free ones are
    at most that colour's or number's other (*loose*) tiles. So the first bound adds, per joker,
    13 and one of the largest such group values (the k largest for k jokers; with one joker,
    the colour's loose numbers once each or twice the highest loose number).

    When that reaches ``need``, a tighter bound follows: a second copy of a code counts only
    where two disjoint melds hold the code (two run windows, a window and a set, or two sets:
    :func:`_both_copies`; else it is loose too), and one joker adds the best single meld it can
    make: a run over a stretch of present numbers with the joker in one gap or at an end (the
    joker's number and the stretch's loose tiles, :func:`_joker_runs`) or a set of a number
    with two colours present (the joker and at most two loose tiles: three loose colours would
    make two joker-free sets)."""
    jk = raw[J]
    mask13 = P.MASK13
    val = P.VALUE13
    pres = raw.translate(P.PRESENCE)
    dbl = raw.translate(P.DOUBLE)
    ms = (mask13[pres[0:13]], mask13[pres[13:26]], mask13[pres[26:39]], mask13[pres[39:52]])
    ds = (mask13[dbl[0:13]], mask13[dbl[13:26]], mask13[dbl[26:39]], mask13[dbl[39:52]])
    m0, m1, m2, m3 = ms
    sets = (m0 & m1 & m2) | (m0 & m1 & m3) | (m0 & m2 & m3) | (m1 & m2 & m3)
    total = 0
    loose = [0, 0, 0, 0]   # per colour: numbers with a copy no joker-free meld holds
    loose2 = [0, 0, 0, 0]  # per colour: numbers with two such copies
    in_runs = [0, 0, 0, 0]
    melds = [0, 0, 0, 0]
    for c in range(4):
        m = ms[c]
        if not m:
            continue
        d = ds[c]
        in_run = in_runs[c] = m & (((m << 1) & (m << 2)) | ((m << 1) & (m >> 1)) | ((m >> 1) & (m >> 2)))
        meldable = melds[c] = in_run | (m & sets)
        total += val[meldable] + val[meldable & d]
        loose[c] = m & ~meldable
        loose2[c] = d & ~meldable
    if not jk:
        if total < need:
            return total
    else:
        gains = [val[loose[c]] + val[loose2[c]] for c in range(4) if ms[c]]
        left = loose[0] | loose[1] | loose[2] | loose[3]
        if jk == 1:
            first = total + 13 + (max(2 * left.bit_length(), *gains) if left else 0)
        else:
            while left:
                low = left & -left
                n = low.bit_length() - 1
                k = sum((loose[c] >> n & 1) + (loose2[c] >> n & 1) for c in range(4))
                gains.append((n + 1) * k)
                left ^= low
            gains.sort(reverse=True)
            first = total + 13 * jk + sum(gains[:jk])
        if first < need or jk > 1:
            return first
    # the tighter bound: second copies, then one joker's best meld
    for c in range(4):
        both = ds[c] & melds[c]
        if both:
            extra = both & ~_both_copies(c, ms[c], ds[c], in_runs[c], ms, ds)
            total -= val[extra]
            loose[c] |= extra
    if not jk:
        return total
    best = 0
    for c in range(4):
        m = ms[c]
        if not m:
            continue
        lc = loose[c]
        if not lc:  # the joker alone: at most one above the colour's highest number
            best = max(best, min(13, m.bit_length() + 1))
            continue
        runs = _JOKER_RUNS.get(m)
        if runs is None:
            runs = _joker_runs(m)
        for span, joker in runs:
            best = max(best, joker + val[lc & span])
    two_colours = (m0 & m1) | (m0 & m2) | (m0 & m3) | (m1 & m2) | (m1 & m3) | (m2 & m3)
    if two_colours:
        l0, l1, l2, l3 = loose
        k1 = two_colours & (l0 | l1 | l2 | l3)
        k2 = two_colours & ((l0 & l1) | (l0 & l2) | (l0 & l3) | (l1 & l2) | (l1 & l3) | (l2 & l3))
        # number n + 1 is bit_length of the highest: the joker, plus one or two loose tiles
        best = max(best, two_colours.bit_length(), 2 * k1.bit_length(), 3 * k2.bit_length())
    return min(first, total + best)


def _both_copies(c: int, m: int, d: int, in_run: int, ms: tuple[int, ...],
                 ds: tuple[int, ...]) -> int:
    """The numbers of colour ``c`` (presence ``m``, doubles ``d``, in a 3-tile window of
    present tiles ``in_run``) whose two copies fit two disjoint joker-free melds at once: two
    sets (the other colours give four tiles, at most two each), a run window and a set (two
    other colours), or two run windows (distinct windows, or one window twice, with the tiles
    they share doubled). ``ms``/``ds``: every colour's presence and doubles masks."""
    i, j, k = _OTHERS[c]
    pa, pb, pc = ms[i], ms[j], ms[k]
    da, db, dc = ds[i], ds[j], ds[k]
    w0 = (m << 1) & (m << 2)  # x-2, x-1 present: window [x-2, x]
    w1 = (m << 1) & (m >> 1)  # window [x-1, x+1]
    w2 = (m >> 1) & (m >> 2)  # window [x, x+2]
    two_sets = (pa & pb & pc & (da | db | dc)) | (da & db) | (da & dc) | (db & dc)
    run_set = in_run & ((pa & pb) | (pa & pc) | (pb & pc))
    two_runs = ((w0 & w2) | (w0 & (d << 1) & (d << 2)) | (w1 & (d << 1) & (d >> 1))
                | (w2 & (d >> 1) & (d >> 2)) | (w0 & w1 & (d << 1)) | (w1 & w2 & (d >> 1)))
    return two_sets | run_set | two_runs


_JOKER_RUNS: dict[int, tuple[tuple[int, int], ...]] = {}
_OTHERS = ((1, 2, 3), (0, 2, 3), (0, 1, 3), (0, 1, 2))  # per colour: the other colours


def _joker_runs(m: int) -> tuple[tuple[int, int], ...]:
    """The runs one joker can make in a colour with presence mask ``m`` (bit i = number i + 1),
    as (span mask, joker value): for each absent number next to a present one, the longest
    stretch whose other numbers are present, the joker standing for it; for each stretch of
    present numbers, the joker standing for its highest (at most what it is worth). Only
    stretches of 3 numbers or more."""
    out: list[tuple[int, int]] = []
    holes = ~m & ((m << 1) | (m >> 1)) & 0x1FFF
    while holes:
        low = holes & -holes
        holes ^= low
        h = low.bit_length() - 1
        a = (~m & (low - 1)).bit_length()  # above the highest absent number below h
        above = m >> (h + 1)
        b = h + (~above & (above + 1)).bit_length() - 1  # h + the present numbers just above
        if b - a >= 2:
            out.append((((1 << (b - a + 1)) - 1) << a, h + 1))
    x = m
    while x:
        a = (x & -x).bit_length() - 1
        above = m >> a
        n = (~above & (above + 1)).bit_length() - 1  # present numbers from a up
        span = ((1 << n) - 1) << a
        x &= ~span
        if n >= 3:
            out.append((span, a + n))
    if len(_JOKER_RUNS) >= 16_384:  # 6,576 asked in 4,000 games
        _JOKER_RUNS.clear()
    got = _JOKER_RUNS[m] = tuple(out)
    return got


def _unopened_could_fit(s: State, p: int, t: int) -> bool:
    """A cheap necessary condition for an opening holding ``t``: a pair or a 3-tile run/set with
    rack tiles (never refuses a usable tile; the solvers then decide)."""
    rack = s.racks[p]
    size = s.sizes[p] + 1  # after the take
    jk = rack[J]
    if s.rules.pairs_allowed and size >= 3:
        if t == J:
            if size - 1 - rack[J] > 0:
                return True
        elif rack[t] or jk:
            return True
    if size >= 4:
        return _fits_new_meld(rack, t, jk)
    return False


def _opened_can_use(s: State, p: int, t: int) -> bool:
    """R101-4 for a player who has opened: is there a sequence of plays this turn that puts the
    taken tile ``t`` on the table and keeps a tile for the discard (R101-12)? Exact.

    The plays that can put ``t`` down, each with its fewest tiles (a longer meld holding ``t``
    contains a 3-tile window holding it, so the window is never worse):

    1. add ``t`` to a table meld, or put it in place of a table joker (R101-11, R101-9);
    2. a new pair with it (``t t`` or ``t *``; where pairs are allowed, R101-8), 3 tiles on the
       rack at least;
    3. a new 3-tile run or set with it (runs/sets openers, R101-8), 4 tiles at least;
    4. add it to a table run of its colour after filling the gap to it one tile at a time
       (R101-11), ``gap + 2`` tiles at least.

    The other tiles of a play are rack tiles of the exact code or jokers: jokers on the rack,
    or jokers retrieved from the table with rack tiles not used otherwise (retrieval keeps the
    rack size, :func:`_retrievable`). A rack tile that fits a position is always used there
    rather than as a retrieval key (it saves one joker; as a key it yields at most one). A taken
    joker must leave a net joker on the table: adding it, or a new meld/pair holding it (with
    retrieved jokers the meld then holds at least one joker of the rack too)."""
    rack = s.racks[p]  # the rack before the take: what can go with ``t``
    size = s.sizes[p] + 1
    table = s.table
    for m in table:
        for code, _pos in m.adds:
            if code == t:
                return True
        for code, _idx in m.releases:
            if code == t:
                return True
    runs = s.x.opened[p] == OPEN_MELDS
    pairs = may_lay_pairs(s, p)
    jk = rack[J]
    if t == J:
        reals = [c for c in range(52) if rack[c]]
        if not reals:
            return False
        if pairs and size >= 3:
            return True  # pair x *
        if not runs or size < 4:
            return False
        if jk >= 1:
            return True  # x * *
        if _joker_completes(rack, reals):
            return True
        cnt = list(rack)
        for x in reals:  # x with the taken joker and a retrieved one (keyed by another tile)
            cnt[x] -= 1
            ok = _retrievable(table, cnt, 1)
            cnt[x] += 1
            if ok:
                return True
        return False
    if pairs and size >= 3 and (rack[t] or jk or _retrievable(table, rack, 1)):
        return True
    col, n0 = divmod(t, 13)
    base = col * 13
    if runs and size >= 4:
        others = [k * 13 + n0 for k in range(4) if k != col and rack[k * 13 + n0]]
        if len(others) + jk >= 2 or _need_jokers(table, rack, others, 2 - len(others) - jk):
            return True
        for first in range(max(0, n0 - 2), min(n0, 10) + 1):
            have = [base + x for x in range(first, first + 3) if x != n0 and rack[base + x]]
            if _need_jokers(table, rack, have, 2 - len(have) - jk):
                return True
    for m in table:  # 4: a table run of t's colour, reached through the gap
        if m.kind != RUN or m.colour != col:
            continue
        lo = m.first - 1
        hi = lo + len(m.tiles) - 1
        if n0 > hi + 1:
            gap = range(hi + 1, n0)
        elif n0 < lo - 1:
            gap = range(n0 + 1, lo)
        else:
            continue
        if size - len(gap) - 1 < 1:
            continue
        have = [base + x for x in gap if rack[base + x]]
        if _need_jokers(table, rack, have, len(gap) - len(have) - jk):
            return True
    return False


def _need_jokers(table: list[TableMeld], rack: list[int], used: list[int], need: int) -> bool:
    """Can ``need`` more jokers be retrieved from the table with rack tiles other than ``used``?"""
    if need <= 0:
        return True
    cnt = list(rack)
    for c in used:
        cnt[c] -= 1
    return _retrievable(table, cnt, need)


def _retrievable(table: list[TableMeld], cnt: list[int], need: int) -> bool:
    """R101-9: can ``need`` table jokers be retrieved with the real tiles counted in ``cnt``?

    A run or pair joker is released by one code; the k jokers of a set by distinct missing
    colours (after each retrieval the colour is on the table, R101-5). Exact: a small search
    over the sets' choices, then run/pair jokers matched by counts."""
    if need <= 0:
        return True
    singles: dict[int, int] = {}
    sets: list[tuple[int, list[int]]] = []
    bound = 0
    for m in table:
        if not m.jokers:
            continue
        if m.kind == SET:
            keys = [c for c, _i in m.releases if cnt[c]]
            if keys:
                sets.append((min(m.jokers, len(keys)), keys))
                bound += min(m.jokers, len(keys))
        else:
            for c, _i in m.releases:
                if cnt[c]:
                    singles[c] = singles.get(c, 0) + 1
                    bound += 1
    if bound < need:
        return False
    return _best_retrievals(sets, 0, singles, list(cnt)) >= need


def _best_retrievals(sets: list[tuple[int, list[int]]], i: int, singles: dict[int, int],
                     cnt: list[int]) -> int:
    if i == len(sets):
        return sum(min(k, cnt[c]) for c, k in singles.items())
    k, keys = sets[i]
    best = 0
    for r in range(min(k, len(keys)), -1, -1):
        for combo in combinations(keys, r):
            if any(not cnt[c] for c in combo):
                continue
            for c in combo:
                cnt[c] -= 1
            got = r + _best_retrievals(sets, i + 1, singles, cnt)
            for c in combo:
                cnt[c] += 1
            best = max(best, got)
    return best


def _joker_completes(rack: list[int], reals: list[int]) -> bool:
    """Do two real rack tiles form a 3-tile run or set with one joker (same colour within two
    numbers, or one number in two colours)?"""
    for c in reals:
        col, n0 = divmod(c, 13)
        for d in (1, 2):
            if n0 + d < 13 and rack[c + d]:
                return True
        if any(rack[k * 13 + n0] for k in range(4) if k != col):
            return True
    return False


def _fits_new_meld(rack: list[int], t: int, jk: int) -> bool:
    """Is there a 3-tile run or set holding ``t`` plus two rack tiles (``jk`` jokers usable)?"""
    if t == J:
        reals = [c for c in range(52) if rack[c]]
        if not reals:
            return False
        if jk >= 1:
            return True
        return _joker_completes(rack, reals)
    col, n0 = divmod(t, 13)
    base = col * 13
    for first in range(max(0, n0 - 2), min(n0, 10) + 1):
        need = 0
        for x in range(first, first + 3):
            if x != n0 and not rack[base + x]:
                need += 1
        if need <= jk:
            return True
    others = sum(1 for k in range(4) if k != col and rack[k * 13 + n0])
    return others + jk >= 2


# ---- applying actions ----------------------------------------------------------------------

def apply(s: State, a: Action) -> None:
    v = a.verb
    p = s.current
    if s.phase is Phase.TAKE:
        if v == "draw":
            if not s.stock:
                raise IllegalAction("draw: the stock is empty (R101-13)")
            t = s.stock.pop()
            s.racks[p][t] += 1
            s.sizes[p] += 1
            s.x.took = "draw"
            s.phase = Phase.PLAY
            return
        if v == "take":
            t = s.x.last_discard
            if t < 0:
                raise IllegalAction("take: there is no discard of the previous player to take (R101-4)")
            if not _take_usable(s, p, t):
                raise IllegalAction(f"take: the last discard {Tile(t)} cannot be used this turn, so it "
                                    "may not be taken; draw from the stock (R101-4)")
            do_take(s)
            return
        if v == "button":
            if s.x.button_left[p] <= 0:
                raise IllegalAction("button: no jokers left on this player's joker-button account "
                                    f"(button_jokers={s.rules.opts.button_jokers}) (R101-10)")
            if s.x.button_used[p]:
                raise IllegalAction("button: the joker button may be used once per round (R101-10)")
            s.x.button_left[p] -= 1
            s.x.button_used[p] = True
            s.x.button_issued += 1
            s.racks[p][J] += 1
            s.sizes[p] += 1
            s.x.took = "button"
            s.phase = Phase.PLAY
            return
        raise IllegalAction(f"{a}: first take a tile: draw, take the last discard or use the joker "
                            "button (R101-3)")
    # play phase
    if v in ("draw", "take", "button"):
        if s.x.took == "start":
            raise IllegalAction(f"{v}: the starter's first turn has no take: 22 tiles, lay and "
                                "discard (R101-2)")
        if v == "button":
            raise IllegalAction(f"button: only instead of the stock draw, not after a {s.x.took} (R101-10)")
        raise IllegalAction(f"{v}: one take per turn and this turn already had a {s.x.took} "
                            "(R101-3, R101-4)")
    if v == "discard":
        _discard(s, p, a)
    elif v in ("run", "set", "pair"):
        _lay(s, p, a)
    elif v == "add":
        _add(s, p, a)
    elif v == "retrieve":
        _retrieve(s, p, a)
    elif v == "open":
        _open(s, p)
    elif v == "reset":
        _reset(s)
    else:  # pragma: no cover - Action admits no other verb
        raise IllegalAction(f"{a}: not an action of rummy101")


def do_take(s: State) -> None:
    """Move the previous player's last discard to the current rack (R101-4), unchecked: ``apply``
    checks :func:`_take_usable` first (tests call this to explore what a take allows)."""
    p = s.current
    t = s.x.last_discard
    _snapshot(s)
    prev = (p - 1) % s.n
    s.x.discards[prev].pop()
    s.x.last_discard = -1
    s.x.taken = t
    s.x.taken_base = s.racks[p][t]
    s.x.taken_log.append((p, prev, t, s.turn))
    s.racks[p][t] += 1
    s.sizes[p] += 1
    s.x.took = "take"
    s.phase = Phase.PLAY
    s.invalidate_legal()


def _snapshot(s: State) -> None:
    if s.x.snap is None:
        p = s.current
        prev = (p - 1) % s.n
        s.x.snap = (s.phase, tuple(s.racks[p]), s.sizes[p], tuple(s.table), s.x.took, s.x.taken,
                  s.x.taken_base, s.x.last_discard, tuple(s.x.discards[prev]), s.x.thr_melds, s.x.thr_pairs,
                  len(s.x.taken_log))


def _reset(s: State) -> None:
    if s.x.snap is None:
        raise IllegalAction("reset: nothing to undo this turn (reset undoes the turn's plays and a "
                            "taken discard, R101-3)")
    phase, rack, size, table, took, taken, base, last, pile, thr_melds, thr_pairs, logged = s.x.snap
    p = s.current
    s.racks[p] = list(rack)
    s.sizes[p] = size
    s.table = list(table)
    s.x.took = took
    s.x.taken = taken
    s.x.taken_base = base
    s.x.last_discard = last
    s.x.discards[(p - 1) % s.n] = list(pile)
    s.phase = phase
    s.x.thr_melds = thr_melds
    s.x.thr_pairs = thr_pairs
    del s.x.taken_log[logged:]
    s.x.opened[p] = NOT_OPENED if s.x.opened_turn[p] == s.turn else s.x.opened[p]
    if s.x.opened_turn[p] == s.turn:
        s.x.opened_turn[p] = -1
    s.x.staged_from = -1
    s.x.staged_kind = NOT_OPENED
    s.x.snap = None


_NEEDS: dict[tuple[int, ...], tuple[tuple[int, int], ...]] = {}


def _need_tiles(s: State, p: int, codes: tuple[int, ...], what: object) -> None:
    """Refuse the action ``what`` (its text names it) unless the rack holds ``codes``."""
    rack = s.racks[p]
    need = _NEEDS.get(codes)
    if need is None:
        counted: dict[int, int] = {}
        for c in codes:
            counted[c] = counted.get(c, 0) + 1
        if len(_NEEDS) > 100_000:
            _NEEDS.clear()
        need = _NEEDS[codes] = tuple(counted.items())
    for c, k in need:
        if rack[c] < k:
            raise IllegalAction(f"{what}: the rack holds {rack[c]} {Tile(c)}, {k} needed "
                                f"(rack: {' '.join(str(x) for x in s.rack(p))}) (R101-3)")


def _lay(s: State, p: int, a: Action) -> None:
    kind = RUN if a.verb == "run" else SET if a.verb == "set" else PAIR
    codes = a.codes
    opened = s.x.opened[p]
    if kind == PAIR:
        if not may_lay_pairs(s, p):
            if not s.rules.pairs_allowed:
                raise IllegalAction(f"{a}: pairs are not melds in {s.rules.variant} (R101-5)")
            raise IllegalAction(f"{a}: a player who opened with runs/sets may lay pairs only after "
                                "another player has opened with pairs (R101-8)")
        if opened == NOT_OPENED and s.x.staged_kind == OPEN_MELDS:
            raise IllegalAction(f"{a}: the staged opening holds runs/sets; an opening is either "
                                "runs/sets (R101-7) or pairs (R101-8), reset to change")
    else:
        if opened == OPEN_PAIRS:
            raise IllegalAction(f"{a}: a player who opened with pairs may never lay new runs or "
                                "sets (R101-8)")
        if opened == NOT_OPENED and s.x.staged_kind == OPEN_PAIRS:
            raise IllegalAction(f"{a}: the staged opening holds pairs; an opening is either pairs "
                                "(R101-8) or runs/sets (R101-7), reset to change")
    _need_tiles(s, p, codes, a)
    if s.sizes[p] - len(codes) < 1:
        raise IllegalAction(f"{a}: a tile must stay on the rack for the discard (R101-12)")
    m = check_new_meld(kind, p, codes)
    _snapshot(s)
    rack = s.racks[p]
    for c in codes:
        rack[c] -= 1
    s.sizes[p] -= len(codes)
    s.table.append(m)
    if opened == NOT_OPENED:
        if s.x.staged_from < 0:
            s.x.staged_from = len(s.table) - 1
        s.x.staged_kind = OPEN_PAIRS if kind == PAIR else OPEN_MELDS


def _target(s: State, p: int, a: Action) -> TableMeld:
    if not 0 <= a.meld < len(s.table):
        rule = "R101-11" if a.verb == "add" else "R101-9"
        raise IllegalAction(f"{a}: there is no table meld {a.meld} (melds are numbered 0.."
                            f"{len(s.table) - 1}) ({rule})" if s.table
                            else f"{a}: the table is empty ({rule})")
    if s.x.opened[p] == NOT_OPENED and not (s.x.staged_from >= 0 and a.meld >= s.x.staged_from):
        raise IllegalAction(f"{a}: adding to table melds or retrieving jokers is allowed only after "
                            "your own opening (R101-11, R101-9); before it, only your staged melds "
                            "may grow")
    m: TableMeld = s.table[a.meld]
    return m


def _add(s: State, p: int, a: Action) -> None:
    m = _target(s, p, a)
    code = a.codes[0]
    if m.kind == PAIR:
        raise IllegalAction(f"{a}: a pair cannot grow (R101-5)")
    pos = a.pos
    if m.kind == SET:
        if pos != -1:
            raise IllegalAction(f"{a}: a set takes no position: write 'add {a.tiles[0]} to {a.meld}' "
                                "(R101-11)")
    elif pos == -1:
        raise IllegalAction(f"{a}: say where the tile goes on run {a.meld}: @start or @end (R101-11)")
    if (code, pos) not in m.adds:
        raise IllegalAction(f"{a}: {a.tiles[0]} does not fit {KIND_NAMES[m.kind]} {m.text()}"
                            f"{' at the ' + ('start' if pos == 0 else 'end') if pos >= 0 else ''} "
                            "(R101-11: R2 before or R6 after R3-R4-R5, not B6; the missing colour "
                            "of a 3-tile set)")
    _need_tiles(s, p, (code,), a)
    if s.sizes[p] < 2:
        raise IllegalAction(f"{a}: a tile must stay on the rack for the discard (R101-12)")
    _snapshot(s)
    s.racks[p][code] -= 1
    s.sizes[p] -= 1
    s.table[a.meld] = m.with_added(code, pos)


def _retrieve(s: State, p: int, a: Action) -> None:
    if s.x.opened[p] == NOT_OPENED:
        raise IllegalAction(f"{a}: a joker may be retrieved only after your own opening (R101-9)")
    m = _target(s, p, a)
    code = a.codes[0]
    idx = a.pos
    if not 0 <= idx < len(m.tiles) or m.tiles[idx] != J:
        raise IllegalAction(f"{a}: position {idx} of meld {a.meld} ({m.text()}) holds no joker (R101-9)")
    if m.kind == SET and idx != m.tiles.index(J):
        first = m.tiles.index(J)
        raise IllegalAction(f"{a}: the jokers of a set are interchangeable, so one action names "
                            f"them: write 'retrieve {a.meld}:{first} with {a.tiles[0]}' (the first "
                            "joker of the set) (R101-9)")
    if (code, idx) not in m.releases:
        stands = [str(Tile(c)) for c, i in m.releases if i == idx]
        raise IllegalAction(f"{a}: the joker is released only by exactly the tile it stands for "
                            f"({' or '.join(stands)}), not {a.tiles[0]} (R101-9)")
    _need_tiles(s, p, (code,), a)
    _snapshot(s)
    rack = s.racks[p]
    rack[code] -= 1
    rack[J] += 1
    if s.x.taken == J:
        # R101-4 with R101-9: the retrieved joker may stay on the rack; a taken joker is used
        # once a joker has gone from the rack to the table this turn, before or after this.
        s.x.taken_base += 1
    s.table[a.meld] = m.with_released(code, idx)


def _open(s: State, p: int) -> None:
    if s.x.opened[p] != NOT_OPENED:
        raise IllegalAction(f"open: this player has already opened (with {_OPEN_NAMES[s.x.opened[p]]}) "
                            "(R101-7)")
    if s.x.staged_from < 0:
        raise IllegalAction("open: nothing is staged; lay runs/sets worth the threshold (R101-7) or "
                            "pairs (R101-8) first")
    staged = s.table[s.x.staged_from:]
    total = sum(m.value for m in staged)
    if s.x.staged_kind == OPEN_PAIRS:
        if len(staged) < s.x.thr_pairs:
            raise IllegalAction(f"open: {len(staged)} pairs staged, {s.x.thr_pairs} needed to open with "
                                "pairs in one turn (R101-8, R101-14)")
    else:
        if total < s.x.thr_melds:
            raise IllegalAction(f"open: the staged runs/sets are worth {total}, the opening needs "
                                f"{s.x.thr_melds} in one turn (R101-7, R101-14)")
    if s.x.taken >= 0 and s.racks[p][s.x.taken] > s.x.taken_base:
        raise IllegalAction(f"open: the taken discard {Tile(s.x.taken)} must be part of the opening "
                            "(R101-4)")
    if s.rules.opts.threshold == "increasing":
        # R101-14: the opening value is what ``open`` committed (checked against the threshold
        # just above); plays after ``open`` in the same turn are not part of it. ``reset``
        # restores the thresholds with the rest of the turn.
        if s.x.staged_kind == OPEN_PAIRS:
            s.x.thr_pairs = max(s.x.thr_pairs, len(staged) + 1)
        else:
            s.x.thr_melds = max(s.x.thr_melds, total + 1)
    s.x.opened[p] = s.x.staged_kind
    s.x.opened_turn[p] = s.turn
    s.x.staged_from = -1
    s.x.staged_kind = NOT_OPENED


def _discard(s: State, p: int, a: Action) -> None:
    code = a.codes[0]
    if s.x.staged_from >= 0:
        raise IllegalAction(f"{a}: the staged opening is not committed: 'open' it or 'reset' "
                            "(R101-7, R101-8)")
    rack = s.racks[p]
    if s.x.taken >= 0 and rack[s.x.taken] > s.x.taken_base:
        raise IllegalAction(f"{a}: the taken discard {Tile(s.x.taken)} must be used this turn, not kept "
                            "on the rack (R101-4); use it or 'reset'")
    if not rack[code]:
        raise IllegalAction(f"{a}: {a.tiles[0]} is not on the rack "
                            f"(rack: {' '.join(str(x) for x in s.rack(p))}) (R101-3)")
    rack[code] -= 1
    s.sizes[p] -= 1
    s.x.discards[p].append(code)
    s.x.last_discard = code
    if s.sizes[p] == 0:
        _end_round(s, winner=p, joker=code == J)
    elif not s.stock:
        _end_round(s, winner=-1, joker=False)
    else:
        s.current = (p + 1) % s.n
        s.turn += 1
        _start_turn(s, Phase.TAKE, "")


def _end_round(s: State, winner: int, joker: bool) -> None:
    pens = [penalty(s, q) for q in range(s.n)]
    one_turn = False
    if winner >= 0:
        one_turn = s.x.opened_turn[winner] == s.turn and all(
            s.x.opened[q] == NOT_OPENED for q in range(s.n) if q != winner)
        mult = (2 if joker else 1) * (2 if one_turn else 1)
        deltas = [WIN_POINTS * mult if q == winner else -pens[q] * mult for q in range(s.n)]
        end = "finish"
    else:
        deltas = [-x for x in pens]
        end = "exhausted"
    s.scores.append(deltas)
    for q in range(s.n):
        s.totals[q] += deltas[q]
    s.results.append({
        "round": s.round, "end": end, "winner": winner if winner >= 0 else None,
        "joker_finish": joker, "one_turn": one_turn, "penalties": pens, "scores": deltas,
        "opened": [_OPEN_NAMES[o] for o in s.x.opened], "turns": s.turn + 1,
    })
    if s.round + 1 < s.match_rounds:
        start_round(s, s.round + 1)
    else:
        s.phase = Phase.OVER
        s.x.snap = None
        s.invalidate_legal()


# ---- a solver meld as actions ---------------------------------------------------------------

def meld_actions(kind: str, tiles: Sequence[int], index: int) -> list[Action]:
    """The actions that lay a meld of any length (``tiles`` in table order, jokers as 52) as
    table meld ``index``: a 3-tile window holding a numbered tile, then one ``add`` per further
    tile (runs: ``@end`` first, then ``@start``; sets: no position). The one place that says how a
    solver meld is played (bots and hints use it).

    >>> [str(a) for a in meld_actions("run", [2, 3, 52, 5, 6], 2)]
    ['run R3 R4 *', 'add R6 to 2@end', 'add R7 to 2@end']
    >>> [str(a) for a in meld_actions("set", [7, 52, 33, 46], 0)]
    ['set R8 B8 K8', 'add * to 0']
    """
    return list(_meld_actions(kind, tuple(int(c) for c in tiles), index))


@lru_cache(maxsize=65536)
def _meld_actions(kind: str, t: tuple[int, ...], index: int) -> tuple[Action, ...]:
    if kind == "pair":
        return (Action("pair", t),)
    if kind == "set":
        reals = [c for c in t if c != J]
        jokers = len(t) - len(reals)
        first = reals[:3] + [J] * min(3 - len(reals[:3]), jokers)
        rest = reals[3:] + [J] * (jokers - (len(first) - len(reals[:3])))
        return (Action("set", tuple(first)), *(Action("add", (c,), index, -1) for c in rest))
    if kind != "run":
        raise ValueError(f"unknown meld kind {kind!r}: run, set or pair")
    start = next(i for i in range(len(t) - 2) if any(c != J for c in t[i:i + 3]))
    out = [Action("run", t[start:start + 3])]
    out += [Action("add", (c,), index, 1) for c in t[start + 3:]]
    out += [Action("add", (c,), index, 0) for c in reversed(t[:start])]
    return tuple(out)


# ---- for a person ------------------------------------------------------------------------------

def describe(s: State) -> list[str]:
    """Rummy 101's lines of ``str(state)``: openings, thresholds, discard piles, the last discard,
    the joker button where it is on."""
    x: R101Data = s.x
    opened = ", ".join(f"seat {q} {_OPEN_NAMES[o] or 'not yet'}" for q, o in enumerate(x.opened))
    out = [(f"opened: {opened}; to open: {x.thr_melds} points or {x.thr_pairs} pairs "
            f"({s.rules.opts.threshold})")]
    piles = "; ".join(f"seat {q}: {' '.join(_TS[c] for c in d) or '-'}"
                      for q, d in enumerate(x.discards))
    out.append(f"discards: {piles}")
    if x.last_discard >= 0 and s.phase is not Phase.OVER:
        out.append(f"last discard: {_TS[x.last_discard]}")
    if x.staged_from >= 0:
        out.append(f"staged (not yet opened): table melds {x.staged_from}..{len(s.table) - 1}")
    if s.rules.opts.button_jokers:
        out.append(f"joker button: {x.button_left} left, used this round {x.button_used}")
    return out


# ---- observation ------------------------------------------------------------------------------

_TS = tuple(str(Tile(c)) for c in range(53))


def _taken_unused(s: State) -> bool:
    """Is the discard taken this turn still to be used (R101-4)? From public information only,
    so that no seat learns the taker's rack: a copy of the taken code has left the rack for the
    table exactly when the table holds more copies of it than at the take (numbered tiles never
    leave the table). A taken joker is used once a joker has been laid or added this turn,
    whatever jokers were retrieved (R101-9: a retrieved joker may stay on the rack): the jokers
    laid are the table's gain in jokers plus the jokers retrieved since the take, which the
    turn's public actions count (the table alone cannot tell: R8 * * -> R8 Y8 * * by a
    retrieval and an added joker, or by an added Y8). Agrees with the rack count the engine
    checks (tests/test_game_exact.py)."""
    x: R101Data = s.x
    t = x.taken
    if t < 0 or x.snap is None:
        return False
    before: int = sum(m.tiles.count(t) for m in x.snap[3])
    table: list[TableMeld] = s.table
    now = sum(m.tiles.count(t) for m in table)
    if t == J:
        # each retrieval since the take freed one joker from the table and raised taken_base
        # by one (_retrieve) over the rack's jokers before the take (the snapshot's): the
        # count the turn's public actions give, read without the game's history, which a
        # sampled position (world.py) does not have
        now += x.taken_base - x.snap[1][J]
    return now <= before


def observation(s: State, seat: int) -> dict[str, Any]:
    return _observation(s, seat, True)


def encoder_observation(s: State, seat: int) -> dict[str, Any]:
    """The part of ``observation(s, seat)`` that the RL encoder reads (``rummy101.rl.observe``),
    the same values: without ``match_rounds``, ``round_scores``, ``opened_turn`` and ``own_turn``
    (the start of the mover's turn: a rack and a table of text, about a quarter of the dict's
    cost mid-turn). For the RL session's arrays only; tests/test_rl_encoder_view.py checks it against
    the whole observation at every step."""
    return _observation(s, seat, False)


def _observation(s: State, seat: int, full: bool) -> dict[str, Any]:
    p = s.current
    x: R101Data = s.x
    staged_from = x.staged_from
    ts = _TS
    table = [m.to_json(i, staged_from >= 0 and i >= staged_from) for i, m in enumerate(s.table)]
    over = s.phase is Phase.OVER
    obs = observation_head(s, seat, full)
    obs["discards"] = [list(map(ts.__getitem__, d)) for d in x.discards]  # (a map: in C)
    obs["taken_discards"] = [{"seat": q, "from": f, "tile": ts[c], "turn": t}
                             for q, f, c, t in x.taken_log]
    obs["last_discard"] = ts[x.last_discard] if x.last_discard >= 0 and not over else None
    obs["table"] = table
    obs["opened"] = [_OPEN_NAMES[o] for o in x.opened]
    if full:
        obs["opened_turn"] = list(x.opened_turn)
    obs["thresholds"] = {"points": x.thr_melds, "pairs": x.thr_pairs,
                         "mode": s.rules.opts.threshold}
    obs["button"] = {"jokers": list(x.button_left), "used": list(x.button_used),
                     "available": (s.phase is Phase.TAKE and seat == p and x.button_left[seat] > 0
                                   and not x.button_used[seat])}
    obs["turn_state"] = {"took": x.took or None,
                         "must_use": ts[x.taken] if _taken_unused(s) else None,
                         "staged": staged_from >= 0}
    if full:
        mine = own_turn(s, seat)  # the seat to move, once its turn has something to undo
        if mine is not None:
            obs["own_turn"] = mine
    return obs

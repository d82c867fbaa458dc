"""Romanian Rummy (Remi) on the generic :class:`~rummy101.game.state.State` (RULES.md RO-1 ..
RO-13, seed 004; interpretations in docs/rules.md, "Remi").

A turn is built one small action at a time (verbs of :mod:`rummy101.game.actions` plus Remi's own,
declared in ``__init__``):

* **exchange** phase (RO-3, before play): ``announce R12`` (offer a double; the others learn
  only "big" or "small"), ``accept Y11`` (swap one's own double of the same size for it),
  ``decline`` (no announcement / no swap). Every seat is asked in seat order from the starter
  whether it announces, and after an announcement every other seat in order from the announcer
  until one accepts; a seat without a double (of the announced size) has only ``decline``, so
  whose turn it is tells the table nothing about who holds a double.
* **take** phase: ``draw`` (RO-5), ``take`` (the previous player's last discard: laid down or
  tabla freely, RO-9.3/RO-10; not laid down only when a lay-down holding it exists this turn),
  ``break N`` (RO-9.4: take train tile N, lay its meld at once, the later discards go onto the
  rack), ``atu`` (RO-4: take the Atu to finish this turn), ``tabla`` (RO-11 declaration, also
  in the play phase before any play of the turn).
* **play** phase: ``run``/``set`` (3 tiles; before the lay-down they are *staged*), ``add``,
  ``retrieve M:I with T`` (RO-9.5: the Joly must then be laid at once in a new 3-tile meld with
  two rack tiles), ``lay T T T T T T`` (a whole run that single additions cannot build: two
  Jolys bridging gaps among four real tiles, ``lay R3 * R5 R6 * R8``, RO-6/RO-7; also as the
  re-lay of a retrieved Joly, RO-9.5, which goes to the first Joly place, or with ``@I`` to the
  second, ``lay R3 * R5 R6 * R8 @4``), ``open`` (commit the lay-down: >= 45 with a run, RO-8),
  ``close`` (announce the tabla close, RO-11), ``reset`` (undo the turn's plays and takes),
  ``discard T``.

The first turn of a round is the starter's discard alone (RO-5), which closes the round when the
starter declared tabla and the discard leaves a pattern (RO-11). ``legal_actions`` is the one
place the rules are decided; ``apply`` accepts exactly the listed actions (anything else raises
:class:`~rummy101.errors.IllegalAction` naming the rule, state unchanged) and then performs them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import compress, repeat
from operator import is_
from typing import TYPE_CHECKING, Any

from .... import _backend
from ....errors import IllegalAction
from ....tiles import JOKER_CODE, Tile
from ...actions import Action
from ...deal import _below, seat_round, shuffled_tiles, starter_of
from ...phase import Phase
from ...state import observation_head
from .data import RemiData
from .rules_core import _budget, atu_finish, closes, laydown_with, relay_melds, unit_rules
from .table import RUN, SET, RemiMeld, end_value, lay_melds, three_melds
from .world import doubles_mine, own_turn

if TYPE_CHECKING:
    from ...state import State

J = JOKER_CODE
_TS = tuple(str(Tile(c)) for c in range(53))

#: A match is one round unless ``new_game(..., match_rounds=N)`` says otherwise.
DEFAULT_MATCH_ROUNDS = 1

CLOSING_BONUS = 100     # RO-12
NEVER_LAID = -100       # RO-12
FAILED_TABLA = -200     # RO-12
TWIN_BONUS = 50         # RO-2, RO-12
TABLA_TURNS = 3         # RO-11
SIMPLE_CLOSE = 400      # RO-11
PATTERN_NAMES = {1: "simple", 2: "mozaic", 3: "bicolor", 4: "monocolor"}

_ACT: dict[tuple[Any, ...], Action] = {}


def _act(verb: str, tiles: tuple[int, ...] = (), meld: int = -1, pos: int = -1) -> Action:
    key = (verb, tiles, meld, pos)
    a = _ACT.get(key)
    if a is None:
        a = _ACT[key] = Action(verb, tiles, meld, pos)
    return a


#: ``discard T`` of each code, the interned actions (legal_actions lists those of the rack)
_DISCARDS = tuple(_act("discard", (c,)) for c in range(53))


def is_big(code: int) -> bool:
    """RO-3: 10-13 and 1 are big doubles, 2-9 small."""
    n = code % 13 + 1
    return n == 1 or n >= 10


# ---- round set-up ---------------------------------------------------------------------------

def new_match(s: State) -> None:
    s.x = RemiData(s.n)
    start_round(s, 0)


def deal(rules: Any, seed: int, round_index: int) -> tuple[int, list[list[int]], list[int]]:
    """RO-2: ``(atu, racks, stock)``. The shuffled set (``deal.shuffled_tiles``); with the atu
    option its first tile is the Atu, face up and kept apart. Seats from the starter on get the
    next tiles: the starter 15, the others 14. A Joly Atu goes to the starter's rack, who then gets
    ``joly_atu_deal`` more tiles: by default the seed's 13 ("i se vor mai da apoi doar 13 piese",
    RO-2; the seed wins over the digest's 14, kept as the option). The remaining tiles are the
    stock (top = last)."""
    tiles = shuffled_tiles(rules, seed, round_index)
    n = rules.players
    starter = starter_of(rules, round_index)
    atu = tiles.pop(0) if rules.opts.atu else -1
    racks: list[list[int]] = [[] for _ in range(n)]
    pos = 0
    for k in range(n):
        seat = (starter + k) % n
        if k == 0:
            if atu == J:
                racks[seat] = [J] + tiles[pos:pos + rules.opts.joly_atu_deal]
                pos += rules.opts.joly_atu_deal
            else:
                take = rules.hand_size + rules.starter_extra
                racks[seat] = tiles[pos:pos + take]
                pos += take
        else:
            racks[seat] = tiles[pos:pos + rules.hand_size]
            pos += rules.hand_size
    return atu, racks, tiles[pos:]


def start_round(s: State, round_index: int) -> None:
    r = s.rules
    atu, racks, stock = deal(r, s.seed, round_index)
    x = s.x = RemiData(s.n)
    seat_round(s, round_index, racks, stock)
    x.atu = atu
    x.atu_avail = 0 <= atu < J
    if atu == J:
        x.twin = s.starter                      # RO-2: the first player takes a Joly Atu
    elif atu >= 0:
        x.twin = next((q for q in range(s.n) if s.racks[q][atu]), -1)  # checked before RO-3
    if r.opts.doubles:
        x.ex_queue = [(s.starter + k) % s.n for k in range(s.n)]
        if _next_announcer(s):
            return
    _begin_play(s)


def _doubles(rack: list[int], big: bool | None = None) -> list[int]:
    return [c for c in range(52) if rack[c] >= 2 and (big is None or is_big(c) == big)]


def _next_announcer(s: State) -> bool:
    """RO-3: ask the next seat in order whether it announces; False when every seat was asked.
    Every seat is asked, a seat without a double too (its only action is ``decline``): whose
    turn it is must not tell the table who holds a double."""
    x: RemiData = s.x
    x.ex_announcer = -1
    x.ex_code = -1
    x.ex_responders = []
    if not x.ex_queue:
        return False
    s.current = x.ex_queue.pop(0)
    s.phase = Phase.EXCHANGE
    return True


def public_text(a: Action) -> str:
    """An action as the other seats may read it in a log of the game: RO-3 lets the announcer
    say only "big" or "small", and a swap shows only who accepted, so the tiles are left out."""
    if a.verb == "announce":
        return f"announce a {'big' if is_big(int(a.tiles[0])) else 'small'} double"
    if a.verb == "accept":
        return "accept"
    return str(a)


def format1_omits(s: State) -> Action | None:
    """The action a game record of format 1 leaves out here (:mod:`rummy101.game.records`): it
    was written when the exchange asked only the seats holding a double (of the announced size),
    so a seat whose only action now is ``decline`` made none (RO-3)."""
    if s.phase is Phase.EXCHANGE:
        legal = s.legal_actions()
        if len(legal) == 1 and legal[0].verb == "decline":
            return legal[0]
    return None


def _begin_play(s: State) -> None:
    s.current = s.starter
    _start_turn(s, Phase.PLAY, "start")


def _start_turn(s: State, phase: Phase, took: str) -> None:
    x: RemiData = s.x
    s.phase = phase
    x.took = took
    x.taken = -1
    x.taken_base = 0
    x.pending = -1
    x.pending_jr = 0
    x.pending_kind = ""
    x.pending_later = ()
    x.staged_from = -1
    x.turn_table_start = len(s.table)
    x.snap = None
    x.closing = False
    x.atu_turn = False
    x.own_turns[s.current] += 1


# ---- legal actions: the one place the rules are decided -----------------------------------

_GROUPS: dict[Any, list[tuple[int, list[tuple[str, tuple[int, ...], tuple[int, ...]]]]]] = {}


def _groups(rules: Any) -> list[tuple[int, list[tuple[str, tuple[int, ...], tuple[int, ...]]]]]:
    g = _GROUPS.get(rules)
    if g is None:
        by: dict[int, list[tuple[str, tuple[int, ...], tuple[int, ...]]]] = {}
        for cand in three_melds(rules):
            by.setdefault(cand[2][0], []).append(cand)
        g = _GROUPS[rules] = sorted(by.items())
    return g


def _new_melds(s: State, rack: list[int], out: list[Action]) -> None:
    """Every 3-tile run/set from the rack, keeping a tile to discard (RO-6, RO-7, RO-13)."""
    for first, cands in _groups(s.rules):
        if not rack[first]:
            continue
        for verb, tiles, needs in cands:
            a, b, c = needs
            if rack[b] and rack[c] and (a != b or rack[a] >= 2 + (b == c)) and (b != c or rack[b] >= 2):
                out.append(_act(verb, tiles))


def _lays(s: State, rack: list[int], size: int, pending_joly: bool, out: list[Action]) -> None:
    """``lay`` of every run :func:`~.table.lay_melds` lists (both Jolys, 6-8 tiles) the rack
    holds, keeping a tile to discard (RO-6, RO-7, RO-13). With a retrieved Joly waiting
    (RO-9.5: "with at least two rack tiles") one of the Jolys is that one, and the player says
    which: ``lay T..T`` puts it at the run's first Joly place, ``lay T..T @I`` at the second
    (index I). The two tables differ (each Joly keeps its own retrieval count), so both are
    listed; ``@I`` naming the first place is the same move and refused (DESIGN.md, one action
    per move)."""
    if rack[J] + pending_joly < 2 or size < 6 - pending_joly:
        return
    for tiles, needs in lay_melds(s.rules):
        if size - len(tiles) + pending_joly < 1:
            continue
        reals = needs[:-2]                               # needs are sorted: the Jolys last
        if all(rack[c] >= 1 + (k > 0 and reals[k - 1] == c) for k, c in enumerate(reals)):
            out.append(_act("lay", tiles))
            if pending_joly:
                out.append(_act("lay", tiles, -1, _second_joly(tiles)))


def _second_joly(tiles: tuple[int, ...]) -> int:
    """The index of the second Joly of a ``lay`` run (it holds exactly two, RO-7)."""
    return tiles.index(J, tiles.index(J) + 1)


_SHORT_CLOSES: dict[tuple[Any, ...], list[tuple[int, int, int]]] = {}


def rack_closes(rules: Any, rack: Sequence[int]) -> list[tuple[int, int, int]]:
    """RO-11: ``(discard, pattern, score)`` for each discard that closes a tabla rack. A 15-tile
    rack: the core's ``tabla_closes``. A 14-tile rack (the starter who took a Joly Atu and 13
    more tiles, RO-2): the patterns of 1-2-..-13-1 need 14 tiles, so only the simple close, the 13
    tiles left after the discard all in runs/sets with a run (seed: "dupa ce a aruncat piesa jos,
    jucatorul are pe tabla doar suite si formatii"; ``solve_melds`` on unit values covers them
    all), 400, x2 for a Joly discard. Other sizes: none."""
    n = sum(rack)
    if n == 15:
        return [(d, pat, sc) for d, pat, sc, *_ in closes(rules, rack)]
    if n != 14:
        return []
    key = (_backend.backend_name(), rules.high_ace, rules.joker_ratio, bytes(rack))
    got = _SHORT_CLOSES.get(key)
    if got is None:
        core = _backend.core()
        cr = unit_rules(rules)
        got = []
        c = list(rack)
        for d in range(53):
            if c[d]:
                c[d] -= 1
                if core.solve_melds_value(cr, c, False, -1, True, _budget(), n - 2) == n - 1:
                    got.append((d, 1, SIMPLE_CLOSE * (2 if d == J else 1)))
                c[d] += 1
        if len(_SHORT_CLOSES) > 10_000:
            _SHORT_CLOSES.clear()
        _SHORT_CLOSES[key] = got
    return got


def may_declare_tabla(s: State, p: int) -> bool:
    """RO-11: within the player's own first three turns, before any play of the turn, not laid
    down (a tabla player never lays)."""
    x: RemiData = s.x
    return (s.rules.opts.tabla and not x.tabla[p] and not x.laid[p] and x.own_turns[p] <= TABLA_TURNS
            and x.snap is None and x.staged_from < 0 and x.pending < 0 and not x.atu_turn
            and s.phase in (Phase.TAKE, Phase.PLAY))


def take_ok(s: State, p: int) -> bool:
    """RO-9.3 / RO-10: the previous player's last discard (never the first of the train, RO-5):
    freely when laid down or tabla, else only when a lay-down holding it exists this turn."""
    x: RemiData = s.x
    if len(x.train) < 2:
        return False
    if x.laid[p] or x.tabla[p]:
        return True
    return laydown_with(s.rules, s.racks[p], x.train[-1])


def break_ok(s: State, p: int, n: int) -> bool:
    """RO-9.4 with RO-10: laid down, not tabla, three or more tiles, an earlier train tile (not
    the first, not the last discard: that one is ``take``) forming a 3-tile run/set with two
    rack tiles."""
    x: RemiData = s.x
    if not x.laid[p] or x.tabla[p] or s.sizes[p] < 3 or not 1 <= n < len(x.train) - 1:
        return False
    return bool(relay_melds(s.rules, s.racks[p], x.train[n]))


def atu_ok(s: State, p: int) -> bool:
    x: RemiData = s.x
    return x.atu_avail and atu_finish(s.rules, s.racks[p], x.atu, x.laid[p], x.tabla[p], s.table, p)


def _meld_open(s: State, p: int, i: int) -> bool:
    """May ``p`` add to / retrieve from table meld ``i`` now? Not laid down: only the staged
    melds grow (RO-8); in the lay-down turn only melds laid this turn (RO-10); else any."""
    x: RemiData = s.x
    if not x.laid[p]:
        return x.staged_from >= 0 and i >= x.staged_from
    if x.laid_turn[p] == s.turn:
        return i >= x.turn_table_start
    return True


def retrieve_ok(s: State, p: int, m: RemiMeld, code: int, idx: int) -> bool:
    """RO-9.5/9.6: exactly the tile the Joly stands for (single-tile releases only: a 3-tile set
    first takes one missing colour), the Joly retrieved fewer than ``joly_retrievals`` times, and a
    re-lay with two rack tiles that keeps a tile to discard."""
    rack = s.racks[p]
    if not rack[code] or m.jr[idx] >= s.rules.opts.joly_retrievals or s.sizes[p] < 4:
        return False
    rack[code] -= 1
    ok = bool(relay_melds(s.rules, rack, J))
    if not ok and rack[J]:
        lays: list[Action] = []
        _lays(s, rack, s.sizes[p] - 1, True, lays)
        ok = bool(lays)
    rack[code] += 1
    return ok


def _atu_laid_new(s: State) -> bool:
    x: RemiData = s.x
    return any(x.atu in m.tiles for m in s.table[x.turn_table_start:])


def _staged_ok(s: State) -> bool:
    staged = s.table[s.x.staged_from:]
    return any(m.kind == RUN for m in staged) and sum(m.value for m in staged) >= 45


def legal_actions(s: State) -> list[Action]:
    ph = s.phase
    if ph is Phase.OVER:
        return []
    x: RemiData = s.x
    p = s.current
    rack = s.racks[p]
    out: list[Action] = []
    if ph is Phase.EXCHANGE:
        if x.ex_announcer < 0:
            out += [_act("announce", (c,)) for c in _doubles(rack)]
        else:
            out += [_act("accept", (c,)) for c in _doubles(rack, is_big(x.ex_code))]
        out.append(_act("decline"))
        return out
    if ph is Phase.TAKE:
        if s.stock:
            out.append(_act("draw"))
        if take_ok(s, p):
            out.append(_act("take"))
        if x.laid[p] and not x.tabla[p] and s.sizes[p] >= 3:  # (break_ok's seat conditions)
            for n in range(1, len(x.train) - 1):
                if break_ok(s, p, n):
                    out.append(_act("break", (), n))
        if x.atu_avail and atu_ok(s, p):
            out.append(_act("atu"))
        if may_declare_tabla(s, p):
            out.append(_act("tabla"))
        return out
    size = s.sizes[p]
    discards = list(compress(_DISCARDS, rack))  # (in C: the same interned actions)
    if x.took == "start" and not x.tabla[p]:             # RO-5: the first turn is a discard alone
        if may_declare_tabla(s, p):
            out.append(_act("tabla"))
        return out + discards
    # a starter who declared tabla on that first turn may close with its discard (RO-11: the close
    # is announced before a discard that leaves a pattern; nothing in seed 004 excepts turn one)
    if x.pending >= 0:                                   # RO-9.4/9.5: lay it at once
        out += [_act(v, t) for v, t in relay_melds(s.rules, rack, x.pending)]
        if x.pending_kind == "joly":                     # RO-9.5: "at least two rack tiles"
            _lays(s, rack, size, True, out)
        out.append(_act("reset"))
        return out
    if x.tabla[p]:                                       # RO-11: never lays
        if x.closing:
            out += [_act("discard", (d,)) for d, *_ in rack_closes(s.rules, rack)
                    if not x.atu_turn or d != x.atu or rack[x.atu] >= 2]
        else:
            if rack_closes(s.rules, rack):
                out.append(_act("close"))
            if not x.atu_turn:
                out += discards
        if x.snap is not None:
            out.append(_act("reset"))
        return out
    if size >= 4:
        _new_melds(s, rack, out)
        _lays(s, rack, size, False, out)
    table = s.table
    if not x.laid[p]:
        if x.staged_from >= 0:
            if size >= 2:
                for i in range(x.staged_from, len(table)):
                    out += [_act("add", (c,), i, pos) for c, pos in table[i].adds if rack[c]]
            if (x.taken < 0 or rack[x.taken] <= x.taken_base) and _staged_ok(s):
                out.append(_act("open"))
        elif may_declare_tabla(s, p):
            out.append(_act("tabla"))
        if x.staged_from < 0 and not x.atu_turn and (x.taken < 0 or rack[x.taken] <= x.taken_base):
            out += discards
    else:
        for i, m in enumerate(table):
            if not _meld_open(s, p, i):
                continue
            if size >= 2:
                out += [_act("add", (c,), i, pos) for c, pos in m.adds if rack[c]]
            for c, idx in m.releases:
                if retrieve_ok(s, p, m, c, idx):
                    out.append(_act("retrieve", (c,), i, idx))
        if not x.atu_turn or size == 1 and _atu_laid_new(s):
            out += discards
    if x.snap is not None:
        out.append(_act("reset"))
    return out


# ---- applying actions ----------------------------------------------------------------------

def apply(s: State, a: Action) -> None:
    legal = s.cached_legal()
    # identity first, in C (the RL session plays the listed objects themselves); only an
    # action not listed as such is compared by value (Action.__eq__, a Python call per action)
    if not any(map(is_, legal, repeat(a))) and a not in legal:
        raise IllegalAction(why_illegal(s, a))
    _perform(s, a)


def _perform(s: State, a: Action) -> None:
    x: RemiData = s.x
    p = s.current
    v = a.verb
    rack = s.racks[p]
    if v == "announce":
        x.ex_announcer = p
        x.ex_code = int(a.tiles[0])
        big = is_big(x.ex_code)
        x.ex_responders = [(p + k) % s.n for k in range(1, s.n)]   # all asked: no seat is told apart
        x.ex_log.append((p, "big" if big else "small", -1))
        x.ex_tiles.append((x.ex_code, -1))
        _next_responder(s)
    elif v == "accept":
        c, d = x.ex_code, int(a.tiles[0])
        ann = s.racks[x.ex_announcer]
        ann[c] -= 2
        ann[d] += 2
        rack[d] -= 2
        rack[c] += 2
        x.ex_log[-1] = (x.ex_log[-1][0], x.ex_log[-1][1], p)
        x.ex_tiles[-1] = (c, d)
        _after_exchange(s)
    elif v == "decline":
        if x.ex_announcer < 0:
            _after_exchange(s)
        else:
            _next_responder(s)
    elif v == "draw":
        t = s.stock.pop()
        rack[t] += 1
        s.sizes[p] += 1
        x.took = "draw"
        s.phase = Phase.PLAY
    elif v == "take":
        _snapshot(s)
        t = x.train.pop()
        x.train_by.pop()
        if not x.laid[p] and not x.tabla[p]:
            x.taken = t
            x.taken_base = rack[t]
        rack[t] += 1
        s.sizes[p] += 1
        x.took = "take"
        s.phase = Phase.PLAY
    elif v == "break":
        _snapshot(s)
        n = a.meld
        x.pending = x.train[n]
        x.pending_kind = "break"
        x.pending_jr = 0
        x.pending_later = tuple(x.train[n + 1:])
        del x.train[n:]
        del x.train_by[n:]
        x.took = "break"
        s.phase = Phase.PLAY
    elif v == "atu":
        _snapshot(s)
        x.atu_avail = False
        rack[x.atu] += 1
        s.sizes[p] += 1
        x.atu_turn = True
        x.took = "atu"
        s.phase = Phase.PLAY
    elif v == "tabla":
        x.tabla[p] = True
    elif v == "close":
        _snapshot(s)
        x.closing = True
    elif v in ("run", "set", "lay"):
        _snapshot(s)
        tiles = tuple(int(t) for t in a.tiles)
        need = list(tiles)
        jr = [0] * len(tiles)
        if x.pending >= 0:
            need.remove(x.pending)
            if x.pending_kind == "joly":                 # RO-9.5: at the place the action names
                jr[a.pos if a.pos >= 0 else tiles.index(J)] = x.pending_jr
        for c in need:
            rack[c] -= 1
        s.sizes[p] -= len(need)
        s.table.append(RemiMeld.build(s.rules, SET if v == "set" else RUN, p, tiles,
                                      (p,) * len(tiles), tuple(jr)))
        if x.pending >= 0:
            for c in x.pending_later:
                rack[c] += 1
            s.sizes[p] += len(x.pending_later)
            x.pending = -1
            x.pending_kind = ""
            x.pending_jr = 0
            x.pending_later = ()
        elif not x.laid[p] and x.staged_from < 0:
            x.staged_from = len(s.table) - 1
    elif v == "add":
        _snapshot(s)
        c = int(a.tiles[0])
        rack[c] -= 1
        s.sizes[p] -= 1
        s.table[a.meld] = s.table[a.meld].with_added(s.rules, c, a.pos, p)
    elif v == "retrieve":
        _snapshot(s)
        c = int(a.tiles[0])
        m = s.table[a.meld]
        rack[c] -= 1
        s.sizes[p] -= 1
        x.pending = J
        x.pending_kind = "joly"
        x.pending_jr = m.jr[a.pos] + 1
        s.table[a.meld] = m.with_released(s.rules, c, a.pos, p)
    elif v == "open":
        x.laid[p] = True
        x.laid_turn[p] = s.turn
        x.staged_from = -1
        x.taken = -1
    elif v == "reset":
        _reset(s)
    elif v == "discard":
        _discard(s, p, int(a.tiles[0]))
    else:  # pragma: no cover - legal_actions lists no other verb
        raise IllegalAction(f"{a}: not an action of remi")


def _next_responder(s: State) -> None:
    x: RemiData = s.x
    if x.ex_responders:
        s.current = x.ex_responders.pop(0)
    else:
        _after_exchange(s)


def _after_exchange(s: State) -> None:
    if not _next_announcer(s):
        _begin_play(s)


def _snapshot(s: State) -> None:
    x: RemiData = s.x
    if x.snap is None:
        p = s.current
        x.snap = (s.phase, tuple(s.racks[p]), s.sizes[p], tuple(s.table), x.took, x.taken,
                  x.taken_base, tuple(x.train), tuple(x.train_by), x.atu_avail, x.pending,
                  x.pending_jr, x.pending_kind, x.pending_later, x.laid[p], x.laid_turn[p],
                  x.closing, x.atu_turn, x.staged_from)


def _reset(s: State) -> None:
    x: RemiData = s.x
    p = s.current
    (s.phase, rack, s.sizes[p], table, x.took, x.taken, x.taken_base, train, train_by,
     x.atu_avail, x.pending, x.pending_jr, x.pending_kind, x.pending_later, x.laid[p],
     x.laid_turn[p], x.closing, x.atu_turn, x.staged_from) = x.snap
    s.racks[p] = list(rack)
    s.table = list(table)
    x.train = list(train)
    x.train_by = list(train_by)
    x.snap = None


def _discard(s: State, p: int, code: int) -> None:
    x: RemiData = s.x
    rack = s.racks[p]
    closing = x.closing
    pattern = score = 0
    if closing:
        for d, pat, sc in rack_closes(s.rules, rack):
            if d == code:
                pattern, score = pat, sc
    rack[code] -= 1
    s.sizes[p] -= 1
    x.train.append(code)
    x.train_by.append(p)
    if closing:
        _end_round(s, p, code == J, pattern, score)
        return
    if s.sizes[p] == 0:
        _end_round(s, p, code == J, 0, 0)
        return
    if not s.stock:
        if x.reshuffled or len(x.train) < 2:
            _end_round(s, -1, False, 0, 0)
            return
        _reshuffle(s)
    s.current = (p + 1) % s.n
    s.turn += 1
    _start_turn(s, Phase.TAKE, "")


def _reshuffle(s: State) -> None:
    """RO-10: the discards except the first become a new stock, once (Fisher-Yates on a
    ``random.Random("rummy101-remi-reshuffle:{seed}:{round}")``, as in ``game/deal.py``)."""
    x: RemiData = s.x
    tiles = x.train[1:]
    del x.train[1:]
    del x.train_by[1:]
    rng = random.Random(f"rummy101-remi-reshuffle:{s.seed}:{s.round}")
    for i in range(len(tiles) - 1, 0, -1):
        j = _below(rng, i + 1)
        tiles[i], tiles[j] = tiles[j], tiles[i]
    s.stock = tiles
    x.reshuffled = True


# ---- scoring (RO-12) and the end of a round (RO-13) -----------------------------------------

def laid_values(s: State) -> list[int]:
    """RO-12: per seat, the end values of the table tiles that seat put down."""
    out = [0] * s.n
    for m in s.table:
        for c, b in zip(m.tiles, m.by, strict=True):
            out[b] += end_value(c)
    return out


def round_deltas(s: State, winner: int, joker: bool, score: int, tabla_close: bool) -> list[int]:
    """RO-12 for the position at the end of a round."""
    x: RemiData = s.x
    laid = laid_values(s)
    cr = _backend.core_rules(s.rules, "penalty")
    core = _backend.core()
    atu_one = 0 <= x.atu < J and x.atu % 13 == 0
    out = []
    for q in range(s.n):
        if q == winner:
            d = score if tabla_close else (CLOSING_BONUS + laid[q]) * (2 if joker else 1)
        elif x.tabla[q]:
            d = FAILED_TABLA
        elif not x.laid[q]:
            d = NEVER_LAID
        else:
            d = laid[q] - core.rack_value(cr, s.racks[q])
        if x.twin == q:
            d += TWIN_BONUS
        out.append(d * 2 if atu_one else d)
    return out


def _end_round(s: State, winner: int, joker: bool, pattern: int, score: int) -> None:
    x: RemiData = s.x
    deltas = round_deltas(s, winner, joker, score, pattern > 0)
    s.scores.append(deltas)
    for q in range(s.n):
        s.totals[q] += deltas[q]
    cr = _backend.core_rules(s.rules, "penalty")
    s.results.append({
        "round": s.round, "end": "finish" if winner >= 0 else "exhausted",
        "winner": winner if winner >= 0 else None,
        "finish": None if winner < 0 else ("tabla" if pattern else "etalat"),
        "pattern": PATTERN_NAMES.get(pattern), "joker_finish": joker, "one_turn": False,
        "atu_finish": winner >= 0 and x.atu_turn,
        "atu": _TS[x.atu] if x.atu >= 0 else None, "atu_double": 0 <= x.atu < J and x.atu % 13 == 0,
        "twin": x.twin if x.twin >= 0 else None, "laid": list(x.laid), "tabla": list(x.tabla),
        "laid_values": laid_values(s),
        "penalties": [_backend.core().rack_value(cr, r) for r in s.racks],
        "reshuffled": x.reshuffled, "scores": deltas, "turns": s.turn + 1,
    })
    if s.round + 1 < s.match_rounds:
        start_round(s, s.round + 1)
    else:
        s.phase = Phase.OVER
        x.snap = None


# ---- why an action is refused -----------------------------------------------------------------

def why_illegal(s: State, a: Action) -> str:
    """The message of the IllegalAction for an action ``legal_actions`` does not list (names the
    rule; the state is not changed)."""
    x: RemiData = s.x
    p = s.current
    v = a.verb
    ph = s.phase
    rack = s.racks[p]
    pre = f"{a}: "
    if ph is Phase.EXCHANGE:
        offer = x.ex_announcer >= 0
        size = ("big (10-13 and 1)" if is_big(x.ex_code) else "small (2-9)") if offer else ""
        if not (_doubles(rack, is_big(x.ex_code)) if offer else _doubles(rack)):
            # every seat is asked (RO-3): one without a double passes, and is told so plainly
            held = f"no {size} double to swap for the one on offer" if offer else "no double"
            return pre + (f"this rack holds {held} (two identical tiles), so the only action "
                          "is 'decline': pass (RO-3)")
        if v not in ("announce", "accept", "decline"):
            return pre + "before play only the exchange of doubles: announce, accept or decline (RO-3)"
        if v == "announce" and offer:
            return pre + "a double is on offer: accept it with a double of the same size or decline (RO-3)"
        if v == "accept" and not offer:
            return pre + "no double is on offer; announce one of yours or decline (RO-3)"
        c = int(a.tiles[0])
        if rack[c] < 2:
            return pre + f"the rack holds {rack[c]} {_TS[c]}: a double is two identical tiles (RO-3)"
        return pre + "only big for big (10-13 and 1) or small for small (2-9) (RO-3)"
    if v in ("announce", "accept", "decline"):
        return pre + "doubles are exchanged before play only (RO-3)"
    if v == "tabla":
        if not s.rules.opts.tabla:
            return pre + "tabla is off in these rules (RO-11)"
        if x.tabla[p]:
            return pre + "tabla is already declared (RO-11)"
        if x.laid[p]:
            return pre + "a player who has laid down plays etalat, not tabla (RO-11)"
        if x.own_turns[p] > TABLA_TURNS:
            return pre + "tabla is declared within the player's first three turns (RO-11)"
        return pre + "declare tabla at the start of a turn, before any play or take of a discard (RO-11)"
    if ph is Phase.TAKE:
        if v == "draw":
            return pre + "the stock is empty (RO-10)"
        if v == "take":
            if len(x.train) < 2:
                return pre + "there is no discard to take: the first discard is never taken (RO-5)"
            return pre + (f"the last discard {_TS[x.train[-1]]} does not help a lay-down this turn "
                          "(>= 45 with a run, holding it), so a player not laid down may not take it (RO-10)")
        if v == "break":
            if x.tabla[p]:                               # (before RO-10: a tabla player never lays)
                return pre + "a tabla player never breaks the train (RO-11)"
            if not x.laid[p]:
                return pre + "a player not laid down may not break the train (RO-10)"
            if s.sizes[p] < 3:
                return pre + "a player with one or two tiles may not break the train (RO-10)"
            if not 1 <= a.meld < len(x.train) - 1:
                return pre + (f"train tiles 1..{len(x.train) - 2} may be broken: the first discard "
                              "never, the last is taken with 'take' (RO-5, RO-9.4)")
            return pre + (f"no two rack tiles form a run/set with {_TS[x.train[a.meld]]} (RO-9.4)")
        if v == "atu":
            if not x.atu_avail:
                return pre + "the Atu is not in the stock (RO-2, RO-4)"
            return pre + ("the Atu may be taken only as the last tile needed to finish this turn, "
                          "laid in a new run/set with two rack tiles or closing the tabla (RO-4)")
        return pre + "first take a tile: draw, take the last discard, break the train or take the Atu (RO-5, RO-9)"
    if x.took == "start" and v != "close" and not (x.tabla[p] and v in ("discard", "reset")):
        if v == "discard" and not rack[int(a.tiles[0])]:
            return pre + f"{_TS[int(a.tiles[0])]} is not on the rack (RO-5)"
        return pre + "the first player's first turn is a discard alone (RO-5)"
    if v in ("draw", "take", "break", "atu"):
        return pre + f"one take per turn, and this turn began with {x.took} (RO-5)"
    if v == "lay" and a.pos >= 0:                        # RO-9.5: where the retrieved Joly goes
        tiles = tuple(int(t) for t in a.tiles)
        plain = Action("lay", tiles)
        if x.pending != J:
            return pre + (f"'@{a.pos}' names the place of a retrieved Joly in its re-lay, and no "
                          f"Joly is waiting: write '{plain}' (RO-9.5)")
        if tiles[a.pos] != J:
            return pre + f"place {a.pos} of the run holds {_TS[tiles[a.pos]]}, not a Joly (RO-9.5)"
        if a.pos == tiles.index(J):
            return pre + (f"the retrieved Joly at the run's first Joly place is written "
                          f"'{plain}' (RO-9.5, one action per move)")
    if x.pending >= 0:
        what = "broken train tile" if x.pending_kind == "break" else "retrieved Joly"
        return pre + (f"the {what} {_TS[x.pending]} must be laid at once in a new run/set with two "
                      f"rack tiles ({'RO-9.4' if x.pending_kind == 'break' else 'RO-9.5'})")
    if v == "reset":
        return pre + "nothing to undo this turn (reset undoes the plays and the take of this turn, RO-5)"
    if x.tabla[p] and v in ("run", "set", "add", "retrieve", "open", "lay"):
        return pre + "a tabla player never lays down or adds (RO-11)"
    if v == "close":
        if not x.tabla[p]:
            return pre + "only a player who declared tabla closes on the rack (RO-11)"
        if x.closing:
            return pre + "the close is already announced; discard (RO-11)"
        return pre + "the rack forms no tabla pattern after any discard (RO-11)"
    if v == "discard":
        c = int(a.tiles[0])
        if not rack[c]:
            return pre + f"{_TS[c]} is not on the rack (RO-5)"
        if x.closing:
            if x.atu_turn and c == x.atu and rack[c] < 2 and any(
                    d == c for d, *_ in rack_closes(s.rules, rack)):
                # RO-4: the Atu is taken as the last tile needed to close, so it stays in the close
                return pre + (f"the Atu {_TS[c]} was taken as the last tile needed to close, so it "
                              "cannot be the closing discard (RO-4)")
            return pre + f"discarding {_TS[c]} leaves no tabla pattern (RO-11)"
        if x.atu_turn:
            if x.tabla[p]:                               # RO-11: a tabla player never lays
                return pre + ("after taking the Atu the turn must close on the rack: announce "
                              "'close', then discard (RO-4, RO-11)")
            return pre + "after taking the Atu the turn must finish: lay everything but one tile (RO-4)"
        if x.staged_from >= 0:
            return pre + "the staged lay-down is not committed: 'open' it or 'reset' (RO-8)"
        if x.taken >= 0:
            return pre + (f"the taken discard {_TS[x.taken]} must go into the lay-down this turn (RO-10)")
        return pre + "not a legal discard (RO-5)"
    if v == "open":
        if x.laid[p]:
            return pre + "this player has already laid down (RO-8)"
        if x.staged_from < 0:
            return pre + "nothing is staged: lay runs/sets worth 45 with a run first (RO-8)"
        if x.taken >= 0 and rack[x.taken] > x.taken_base:
            return pre + f"the taken discard {_TS[x.taken]} must be part of the lay-down (RO-10)"
        staged = s.table[x.staged_from:]
        return pre + (f"the staged melds are worth {sum(m.value for m in staged)} "
                      f"{'with' if any(m.kind == RUN for m in staged) else 'without'} a run; the "
                      "first lay-down needs >= 45 and a run, in one turn (RO-8)")
    if v == "lay":
        tiles = tuple(int(t) for t in a.tiles)
        if not any(t == tiles for t, _n in lay_melds(s.rules)):
            try:
                RemiMeld.build(s.rules, RUN, p, tiles, (p,) * len(tiles), (0,) * len(tiles))
                steps = "; ".join(str(b) for b in meld_actions("run", tiles, len(s.table)))
                return pre + (f"lay only the runs that single additions cannot build; lay this "
                              f"one step by step: {steps} (RO-6, RO-7)")
            except ValueError:
                return pre + ("not a run of one colour with at least two real tiles per Joly, "
                              "each Joly at its place (RO-6, RO-7)")
        if s.sizes[p] <= len(tiles) - (x.pending == J):
            return pre + "a tile must stay on the rack for the discard (RO-13)"
        return pre + "the rack does not hold these tiles (RO-6, RO-7)"
    if v in ("run", "set"):
        tiles = tuple(int(t) for t in a.tiles)
        try:                                             # RO-13 is about melds only
            RemiMeld.build(s.rules, SET if v == "set" else RUN, p, tiles, (p,) * len(tiles),
                           (0,) * len(tiles))
            meld = len(tiles) == 3
        except ValueError:
            meld = False
        if meld and s.sizes[p] < 4:
            return pre + "a tile must stay on the rack for the discard (RO-13)"
        return pre + (f"{' '.join(str(t) for t in a.tiles)} is not a {v} the rack can lay "
                      "(runs of one colour, 1 low or high but never 13-1-2; sets of distinct "
                      "colours; at least two real tiles per Joly, the Joly at its place; tiles on "
                      "the rack) (RO-6, RO-7)")
    if v in ("add", "retrieve"):
        if not 0 <= a.meld < len(s.table):
            return pre + f"there is no table meld {a.meld} ({'RO-9.2' if v == 'add' else 'RO-9.5'})"
        if not x.laid[p] and (v == "retrieve" or not _meld_open(s, p, a.meld)):
            return pre + ("before the lay-down only the staged melds grow and no Joly is retrieved "
                          "(RO-8, RO-9)")
        if not _meld_open(s, p, a.meld):
            return pre + ("in the turn of the lay-down no adding to other melds and no Joly "
                          "retrieval from melds not laid this turn (RO-10)")
        m = s.table[a.meld]
        if v == "add":
            c = int(a.tiles[0])
            if s.sizes[p] < 2:
                return pre + "a tile must stay on the rack for the discard (RO-13)"
            if (c, a.pos) in m.adds and not rack[c]:
                return pre + f"{_TS[c]} is not on the rack ({'RO-9.2' if x.laid[p] else 'RO-8'})"
            return pre + (f"{a.tiles[0]} does not fit {m.text()} there (RO-6, RO-7: the Joly keeps "
                          "its place; a set of 4 is complete; two real tiles per Joly)")
        idx = a.pos
        if not 0 <= idx < len(m.tiles) or m.tiles[idx] != J:
            return pre + f"position {idx} of {m.text()} holds no Joly (RO-9.5)"
        if m.kind == SET and idx != m.tiles.index(J):
            return pre + f"write 'retrieve {a.meld}:{m.tiles.index(J)} with {a.tiles[0]}' (RO-9.5)"
        if m.kind == SET and len(m.tiles) == 3:
            return pre + ("a 3-tile set gives up its Joly only for both missing colours: add one "
                          "first, then retrieve with the other (RO-9.6)")
        if (int(a.tiles[0]), idx) not in m.releases:
            return pre + "the Joly is released only by exactly the tile it stands for (RO-9.5)"
        if m.jr[idx] >= s.rules.opts.joly_retrievals:
            return pre + (f"this Joly was already retrieved {m.jr[idx]} time(s) "
                          f"(joly_retrievals={s.rules.opts.joly_retrievals}) (RO-9.5)")
        if not rack[int(a.tiles[0])]:
            return pre + f"{_TS[int(a.tiles[0])]} is not on the rack (RO-9.5)"
        return pre + ("the retrieved Joly must be laid at once in a new run/set with two rack tiles, "
                      "keeping a tile to discard (RO-9.5)")
    return pre + "not a legal action now (RO-5)"


# ---- a solver meld as actions ---------------------------------------------------------------

_MELD_ACTIONS: dict[tuple[str, tuple[int, ...], int], list[Action]] = {}


def meld_actions(kind: str, tiles: Sequence[int], index: int) -> list[Action]:
    """The actions that lay a meld of any length (table order, Jolys as 52) as table meld
    ``index``: a 3-tile window with at most one Joly, then one ``add`` at a time keeping two real
    tiles per Joly at every step (RO-7): real tiles first, at the end before the start. A run
    that single additions cannot build (two Jolys bridging gaps among four real tiles) is one
    ``lay`` of the whole run. Raises ValueError for anything else that cannot be built.

    >>> [str(a) for a in meld_actions("run", [2, 3, 52, 5, 6], 2)]
    ['run R3 R4 *', 'add R6 to 2@end', 'add R7 to 2@end']
    >>> [str(a) for a in meld_actions("set", [7, 20, 33, 52], 0)]
    ['set R8 Y8 B8', 'add * to 0']
    >>> [str(a) for a in meld_actions("run", [2, 52, 4, 5, 52, 7], 0)]
    ['lay R3 * R5 R6 * R8']
    """
    t = tuple(int(c) for c in tiles)
    key = (kind, t, index)
    got = _MELD_ACTIONS.get(key)
    if got is not None:
        return list(got)
    if kind == "set":
        reals = [c for c in t if c != J]
        first = tuple(reals[:3]) if len(reals) >= 3 else tuple(reals) + (J,)
        rest = reals[3:] + [J] * (len(t) - len(reals) - (3 - min(3, len(reals))))
        out = [Action("set", first)] + [Action("add", (c,), index, -1) for c in rest]
    elif kind == "run":
        out = []
        for start in range(len(t) - 2):
            w = t[start:start + 3]
            if w.count(J) > 1:
                continue
            lo, hi = start, start + 3
            steps = [Action("run", w)]
            while lo > 0 or hi < len(t):
                nreal = sum(1 for c in t[lo:hi] if c != J)
                jk = hi - lo - nreal
                opts = []
                if hi < len(t):
                    opts.append((t[hi] == J, 0, 1))
                if lo > 0:
                    opts.append((t[lo - 1] == J, 1, 0))
                opts.sort()
                for is_j, _o, end in opts:
                    if is_j and nreal < 2 * (jk + 1):
                        continue
                    if end:
                        steps.append(Action("add", (t[hi],), index, 1))
                        hi += 1
                    else:
                        steps.append(Action("add", (t[lo - 1],), index, 0))
                        lo -= 1
                    break
                else:
                    break
            if lo == 0 and hi == len(t):
                out = steps
                break
        if not out:
            if t.count(J) == 2 and len(t) >= 6:          # both Jolys bridging gaps: laid whole
                out = [Action("lay", t)]
            else:
                raise ValueError(f"{' '.join(_TS[c] for c in t)} cannot be laid (RO-6, RO-7)")
    else:
        raise ValueError(f"unknown meld kind {kind!r}: run or set (Remi has no pairs)")
    if len(_MELD_ACTIONS) >= 8_192:  # 1,810 asked in 5,000 games; ~900 bytes each
        _MELD_ACTIONS.clear()
    _MELD_ACTIONS[key] = out
    return list(out)


# ---- observation ------------------------------------------------------------------------------

def observation(s: State, seat: int) -> dict[str, Any]:
    return _observation(s, seat, True)


def encoder_observation(s: State, seat: int) -> dict[str, Any]:
    """The part of ``observation(s, seat)`` that the RL encoder reads (``rummy101.rl.observe``),
    the same values: without ``match_rounds``, ``round_scores``, ``announced``,
    ``last_discard``, the exchange's ``log``, the turn state's ``taken`` and ``own_turn`` (the
    start of the mover's turn), and a table meld without its ``id``, ``value``, ``jokers``,
    ``laid_by`` and ``joly_retrievals`` (a meld's dicts cost the most of Remi's observation).
    For the RL session's arrays only; tests/test_rl_encoder_view.py checks it against the whole
    observation at every step."""
    return _observation(s, seat, False)


def _observation(s: State, seat: int, full: bool) -> dict[str, Any]:
    x: RemiData = s.x
    p = s.current
    over = s.phase is Phase.OVER
    staged_from = x.staged_from
    if full:
        table = []
        for i, m in enumerate(s.table):
            d = m.to_json(i)
            d["staged"] = staged_from >= 0 and i >= staged_from
            table.append(d)
    else:
        table = [m.encoder_json(staged_from >= 0 and i >= staged_from)
                 for i, m in enumerate(s.table)]
    ex: dict[str, Any] | None = None
    if s.phase is Phase.EXCHANGE:
        ex = {"announcer": x.ex_announcer if x.ex_announcer >= 0 else None,
              "size": (("big" if is_big(x.ex_code) else "small") if x.ex_announcer >= 0 else None)}
        if full:
            ex["log"] = [list(e) for e in x.ex_log]
    obs = observation_head(s, seat, full)
    if full:
        obs["announced"] = [q for q in range(s.n) if s.sizes[q] <= 3]  # RO-10
    obs["atu"] = _TS[x.atu] if x.atu >= 0 else None
    obs["atu_available"] = x.atu_avail and not over
    obs["twin"] = x.twin == seat
    obs["train"] = list(map(_TS.__getitem__, x.train))  # (in C: the train runs to 100 tiles)
    obs["train_by"] = list(x.train_by)
    if full:
        obs["last_discard"] = _TS[x.train[-1]] if len(x.train) >= 2 and not over else None
    obs["reshuffled"] = x.reshuffled
    obs["table"] = table
    obs["laid"] = list(x.laid)
    obs["tabla"] = list(x.tabla)
    obs["own_turns"] = list(x.own_turns)
    obs["exchange"] = ex
    obs["doubles_log"] = [list(e) for e in x.ex_log]
    ts: dict[str, Any] = {"took": x.took or None}
    if full:
        ts["taken"] = _TS[x.taken] if x.taken >= 0 else None
    ts["must_use"] = (_TS[x.taken] if seat == p and x.taken >= 0
                      and s.racks[p][x.taken] > x.taken_base else None)
    ts["staged"] = staged_from >= 0
    ts["pending"] = _TS[x.pending] if x.pending >= 0 else None
    ts["pending_kind"] = x.pending_kind or None
    ts["later"] = len(x.pending_later)
    ts["closing"] = x.closing
    ts["atu_turn"] = x.atu_turn
    obs["turn_state"] = ts
    swaps = doubles_mine(s, seat)  # RO-3: the seat's own part of the exchange, once it has one
    if swaps:
        obs["doubles_mine"] = swaps
    if full:
        mine = own_turn(s, seat)  # the seat to move, once its turn has something to undo
        if mine is not None:
            obs["own_turn"] = mine
    return obs

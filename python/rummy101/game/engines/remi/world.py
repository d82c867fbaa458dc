"""Determinization: a Remi position consistent with one seat's observation (search bots, hints).

:func:`sample_state` deals the tiles the seat cannot see — the other racks and the stock — at
random from what is left of the set (106 tiles less the seat's rack, the table, the train, a
tile pending a meld with the later discards of a broken train, and the Atu while it lies face
up), with the public sizes, and rebuilds the rest from the observation; the sampled position's
observation for that seat equals the one given (``tests/test_search.py``).

Sampled at any point of a turn and of the doubles exchange before play (RO-3): there the seat order
gives who is still to be asked. The ``doubles_log`` never names a tile (the seed lets the announcer
say only "big" or "small"; no seat's pass tells anything, since every seat is asked), but it makes
public that each announcer held a double of the size said and that after an accept the two seats
hold both copies of the doubles they received until a later swap moves them on: the sample picks a
way the doubles moved (which double each announcement and accept gave: one received earlier or one
of the deal) and a tile for each that fits the seat's rack, deals the doubles another seat holds to
it first and the rest at random; the double on offer is its announcer's (:func:`_swapped_doubles`).
The seat's own announcements and swaps are no guess: its observation's ``doubles_mine``
(:func:`doubles_mine`) names the double it offered, gave and received, so the partner of its swap
holds the double the seat gave (unless the log shows the partner may have passed it on) and its
own offer is the tile it announced; a ``doubles_mine`` that the log or the racks contradict is
refused.
In play the same doubles are dealt to their holders less the copies those seats have since
discarded or laid; a discard taken into another rack, a break, a Joly retrieval or a reshuffle can
hide where a copy went, and then the nearest fit is dealt. A discard another seat not laid down
took (RO-10) is dealt to its rack first, still to be laid. In the middle of a turn the observation
of the seat to move holds ``own_turn`` (:func:`own_turn`: the rack, table and train before the
turn's take or first play, whether the seat had laid down, the retrievals of a pending Joly), which
only that seat knows, and the sample rebuilds the turn from it: the undo snapshot (so ``reset``
goes back to the same start, and ``tabla``, which RO-11 allows only before any play of the turn, is
refused as in the real position), a staged lay-down (RO-8), a tile pending a meld with the later
discards of a broken train (RO-9.4/9.5), the lay-down turn's limits (RO-10); its legal moves are
the real position's (``tests/test_midturn_samples.py``). Another seat's observation has no
``own_turn``: a staged lay-down or a pending tile there is refused. Not rebuilt, because no
observation shows them: who holds the Atu's twin when it is not this seat (RO-2's +50 goes to
nobody in the sample) and the turn of another seat's lay-down.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterator, Mapping
from typing import Any

from ...._validate import short
from ....errors import IllegalAction
from ....rules import Rules
from ....tiles import MELD_KINDS, Tile, counts_of
from ...phase import Phase
from ...state import State, held
from ...world import (
    check_counts,
    check_flags,
    check_turn_moves,
    check_whole,
    deal_hidden,
    from_observation,
)
from .data import RemiData
from .table import RemiMeld

__all__ = ["doubles_mine", "own_turn", "sample_state"]

_CODE = {str(Tile(c)): c for c in range(53)}
_TS = tuple(str(Tile(c)) for c in range(53))
_KIND = {name: code for code, name in MELD_KINDS.items()}


def own_turn(s: State, seat: int) -> dict[str, Any] | None:
    """The observation's ``own_turn``: what the seat to move knows of its own turn and no
    other field shows, once the turn has something to undo (None before, and for the other
    seats). ``start`` is the position ``reset`` restores (RO-5): the rack, the table, the
    train and its discarders as they were before the turn's take or first play, and whether
    the seat had laid down (RO-8, RO-10: the lay-down turn adds only to its own melds);
    ``pending_retrievals`` the retrievals of a Joly waiting to be re-laid (RO-9.5, else 0).
    :func:`sample_state` rebuilds the turn's undo snapshot from it."""
    x: RemiData = s.x
    if seat != s.current or x.snap is None or s.phase not in (Phase.TAKE, Phase.PLAY):
        return None
    snap = x.snap
    rack, table, train, train_by, laid = snap[1], snap[3], snap[7], snap[8], snap[14]
    return {
        "start": {
            "rack": held(_TS, rack),
            "table": [m.to_json(i) for i, m in enumerate(table)],
            "train": list(map(_TS.__getitem__, train)),
            "train_by": list(train_by),
            "laid": laid,
        },
        "pending_retrievals": x.pending_jr if x.pending_kind == "joly" else 0,
    }


def doubles_mine(s: State, seat: int) -> list[dict[str, Any]]:
    """The observation's ``doubles_mine`` (RO-3): what the seat knows of its own part in the
    doubles exchange and no other seat does, one entry for each announcement of the
    ``doubles_log`` it made or accepted: ``entry`` (the log's index), ``gave`` (the double it
    announced, or gave back when accepting) and ``received`` (the double it got in the swap; null
    for its own announcement while nobody has accepted it, the double then still its own). Empty
    for a seat that took no part (the observation then has no ``doubles_mine``)."""
    x: RemiData = s.x
    out: list[dict[str, Any]] = []
    for k, ((a, _, b), (o, g)) in enumerate(zip(x.ex_log, x.ex_tiles)):
        if seat == a:
            out.append({"entry": k, "gave": _TS[o], "received": _TS[g] if g >= 0 else None})
        elif seat == b:
            out.append({"entry": k, "gave": _TS[g], "received": _TS[o]})
    return out


def _meld(rules: Rules, m: Mapping[str, Any]) -> RemiMeld:
    tiles = tuple(_CODE[t] for t in m["tiles"])
    jr = tuple(m["joly_retrievals"].get(str(i), 0) for i in range(len(tiles)))
    return RemiMeld.build(rules, _KIND[m["kind"]], m["owner"], tiles, tuple(m["laid_by"]), jr)


def _doubles_log(obs: Mapping[str, Any], n: int) -> list[tuple[int, str, int]]:
    """The observation's ``doubles_log`` (RO-3): [announcer, "big" or "small", the seat that
    accepted or -1] an announcement."""
    log = obs["doubles_log"]
    ok = isinstance(log, list) and all(
        isinstance(e, list) and len(e) == 3 and e[1] in ("big", "small")
        and all(type(q) is int for q in (e[0], e[2])) and 0 <= e[0] < n and -1 <= e[2] < n
        for e in log)
    if not ok:
        raise IllegalAction(f"the observation's 'doubles_log' must be a list of [announcer, "
                            f"\"big\" or \"small\", the seat that accepted or -1] (RO-3), got "
                            f"{short(log)}")
    return [(e[0], e[1], e[2]) for e in log]


def _doubles_mine(obs: Mapping[str, Any], seat: int, log: list[tuple[int, str, int]],
                  ) -> list[tuple[int, int]]:
    """The tiles the observation's ``doubles_mine`` names (:func:`doubles_mine`), per entry of the
    ``doubles_log``: (the announced double's tile, the accepting double's tile or -1), -1 where
    the seat took no part. IllegalAction unless it lists exactly the announcements the seat made
    or accepted, each with doubles of the size said (RO-3) and a received one iff accepted."""
    from .engine import is_big  # (the engine imports this module)

    mine = obs.get("doubles_mine", [])
    taking = [k for k, (a, _, b) in enumerate(log) if seat in (a, b)]
    known = [(-1, -1)] * len(log)
    shape = isinstance(mine, list) and all(
        isinstance(e, Mapping) and set(e) == {"entry", "gave", "received"}
        and type(e["entry"]) is int and isinstance(e["gave"], str) and e["gave"] in _CODE
        and e["gave"] != "*" and (e["received"] is None or isinstance(e["received"], str)
                                  and e["received"] in _CODE and e["received"] != "*")
        for e in mine)
    if not shape:
        raise IllegalAction(f"the observation's 'doubles_mine' must be a list of {{entry, gave, "
                            f"received}}: the index in the 'doubles_log' of an announcement the "
                            f"seat made or accepted and the tiles of the doubles it gave and "
                            f"received (null while nobody accepted) (RO-3), got {short(mine)}")
    why = ""
    if [e["entry"] for e in mine] != taking:
        why = (f"it lists entries {[e['entry'] for e in mine]}, but the seat made or accepted "
               f"entries {taking}")
    for e in mine if not why else ():
        k, gave, got = e["entry"], _CODE[e["gave"]], e["received"]
        a, size, b = log[k]
        got = _CODE[got] if got is not None else -1
        if (got >= 0) != (b >= 0):
            why = (f"entry {k} was {'accepted' if b >= 0 else 'not accepted'}, and 'received' "
                   f"is {short(e['received'])}")
        elif any(is_big(c) != (size == "big") for c in (gave, got) if c >= 0) or gave == got:
            why = (f"entry {k} swaps two different {size} doubles, not {e['gave']} for "
                   f"{e['received']}")
        else:
            known[k] = (gave, got) if seat == a else (got, gave)
    if why:
        raise IllegalAction(f"the observation's 'doubles_mine' {short(mine)} does not fit its "
                            f"'doubles_log' {short(obs['doubles_log'])} (RO-3): {why}")
    return known


def sample_state(obs: Mapping[str, Any], rng: random.Random) -> State:
    """A position consistent with ``obs`` (one seat's observation), hidden tiles dealt with
    ``rng``. IllegalAction for positions it does not sample (see the module docstring) and
    observations that cannot come from a game."""
    ts = obs["turn_state"]
    seat = obs["seat"]
    mine = obs.get("own_turn")
    if mine is None and (ts["staged"] or ts["pending"] is not None):
        raise IllegalAction("a Remi position with a staged lay-down or a tile pending a meld "
                            "(RO-8, RO-9.4/9.5) is sampled from the observation of the seat "
                            "to move (its 'own_turn'), not from another seat's")
    s = from_observation(obs)
    rules = s.rules
    if mine is not None and seat != s.current:
        raise IllegalAction("the observation's 'own_turn' belongs to the seat to move")
    table = [_meld(rules, m) for m in obs["table"]]
    s.table = table
    x = RemiData(s.n)
    x.atu = _CODE[obs["atu"]] if obs["atu"] is not None else -1
    x.atu_avail = bool(obs["atu_available"])
    x.twin = seat if obs["twin"] else -1
    x.train = [_CODE[t] for t in obs["train"]]
    x.train_by = check_counts(obs, "train_by", len(x.train), 0, s.n - 1)  # who discarded each
    x.reshuffled = bool(obs["reshuffled"])
    x.laid = check_flags(obs, "laid", s.n)        # etalat (RO-8)
    x.tabla = check_flags(obs, "tabla", s.n)      # closing on the rack (RO-11)
    x.own_turns = check_counts(obs, "own_turns", s.n)
    # each turn begun adds one to its seat's count; none has begun in the exchange (RO-3)
    turns = 0 if s.phase is Phase.EXCHANGE else s.turn + 1
    if sum(x.own_turns) != turns or s.turn and not turns:
        raise IllegalAction(f"the observation's 'own_turns' {x.own_turns} do not count the "
                            f"{turns} turns begun this round ('turn' is {s.turn})")
    x.ex_log = _doubles_log(obs, s.n)
    known = _doubles_mine(obs, seat, x.ex_log)
    x.took = ts["took"] or ""
    x.closing = bool(ts["closing"])
    x.atu_turn = bool(ts["atu_turn"])
    own = counts_of(_CODE[t] for t in obs["rack"])
    staged = [i for i, m in enumerate(obs["table"]) if m["staged"]]
    if staged != list(range(len(table) - len(staged), len(table))):
        raise IllegalAction("the observation's staged melds are not the last of the table (RO-8)")
    x.staged_from = staged[0] if staged else -1
    seen = [c for m in table for c in m.tiles] + x.train
    if x.atu_avail:
        seen.append(x.atu)
    x.turn_table_start = len(table)
    if mine is not None:
        start = mine["start"]
        before = counts_of(_CODE[t] for t in start["rack"])
        begun = [_meld(rules, m) for m in start["table"]]
        train = [_CODE[t] for t in start["train"]]
        train_by = check_counts(start, "train_by", len(train), 0, s.n - 1)
        laid = start["laid"]
        if not isinstance(laid, bool):
            raise IllegalAction(f"the observation's own_turn 'laid' must be true or false, got "
                                f"{short(laid)}")
        # the snapshot is taken by the turn's first take of a discard, break or Atu (in the
        # take phase) or else by its first play after a draw or on the starter's first turn
        # (engine.py, _snapshot): nothing was taken, pending, staged or announced then
        took = x.took if x.took in ("draw", "start") else ""
        x.snap = (Phase.PLAY if took else Phase.TAKE, tuple(before), sum(before), tuple(begun),
                  took, -1, 0, tuple(train), tuple(train_by), x.atu_avail or x.took == "atu", -1,
                  0, "", (), laid, -1, False, False, -1)
        x.turn_table_start = len(begun)
        if x.laid[seat] and not laid:  # laid down this turn: RO-10 limits the additions
            x.laid_turn[seat] = s.turn
        if ts["taken"] is not None:  # RO-10: the discard taken by a seat not laid down
            x.taken = _CODE[ts["taken"]]
            x.taken_base = before[x.taken]
        if ts["pending"] is not None:  # RO-9.4/9.5: held off the rack until it is laid
            x.pending = _CODE[ts["pending"]]
            x.pending_kind = ts["pending_kind"]
            if x.pending_kind == "joly":
                x.pending_jr = check_whole(mine, "pending_retrievals", 1,
                                           rules.opts.joly_retrievals)
            else:
                x.pending_later = tuple(train[len(x.train) + 1:])
            seen += [x.pending, *x.pending_later]
        if x.train != train[:len(x.train)] or laid and not x.laid[seat]:
            raise IllegalAction("the observation's 'own_turn' does not fit it: a turn only takes "
                                "from the end of the train and never undoes a lay-down")
        check_turn_moves(
            [_CODE[t] for t in start["rack"]] + [c for m in begun for c in m.tiles]
            + train + ([x.atu] if x.took == "atu" else []),
            [_CODE[t] for t in obs["rack"]] + [c for m in table for c in m.tiles]
            + x.train + ([x.pending, *x.pending_later] if x.pending >= 0 else []))
    elif ts["taken"] is not None:
        x.taken = _CODE[ts["taken"]]
        # another seat's take: its base is counted once the tile is dealt to it (below)
        x.taken_base = own[x.taken] - (1 if ts["must_use"] is not None else 0)
    s.x = x
    left = [rules.copies] * 52 + [rules.jokers]
    for c in range(53):
        left[c] -= own[c]
    for c in seen:
        left[c] -= 1
    if min(left) < 0:
        raise IllegalAction("the observation shows more copies of a piece than the set has")
    if s.phase is Phase.EXCHANGE:
        _exchange(s, obs)
    sizes = list(obs["rack_sizes"])
    # RO-10: a seat not laid down that took the last discard holds it until its lay-down (a
    # staged one is not sampled from another seat's observation): dealt to it first
    taker = s.current if x.taken >= 0 and mine is None and seat != s.current else -1
    if taker >= 0:
        if not left[x.taken] or not sizes[taker]:
            raise IllegalAction(f"the observation does not fit: seat {taker} took "
                                f"{_TS[x.taken]} (RO-10) and no copy is left for its rack")
        left[x.taken] -= 1
        sizes[taker] -= 1
    planted, offer = _swapped_doubles(s, obs, table, seat, own, left, sizes, known, rng)
    for q, codes in planted.items():
        sizes[q] -= len(codes)
        for c in codes:
            left[c] -= 1
    deal_hidden(s, seat, own, left, sizes, obs["stock"], rng)
    for q, codes in planted.items():
        for c in codes:
            s.racks[q][c] += 1
    if taker >= 0:
        s.racks[taker][x.taken] += 1
        x.taken_base = s.racks[taker][x.taken] - 1   # it must still go into the lay-down
    s.sizes = list(obs["rack_sizes"])
    if offer >= 0:
        x.ex_code = offer
    return s


def _exchange(s: State, obs: Mapping[str, Any]) -> None:
    """RO-3 before play: the seats still to be asked (every seat in order from the starter
    whether it announces; after an announcement every other seat in order from the announcer)
    and the announcer of the double on offer (its tile is dealt by :func:`_swapped_doubles`)."""
    x: RemiData = s.x
    ex = obs["exchange"]
    if not isinstance(ex, Mapping):
        raise IllegalAction(f"the observation's 'exchange' must be an object in the exchange "
                            f"phase (RO-3), got {short(ex)}")
    n, cur = s.n, s.current
    order = [(s.starter + k) % n for k in range(n)]
    if ex.get("announcer") is None:
        x.ex_queue = order[order.index(cur) + 1:]
        return
    a = check_whole(ex, "announcer", 0, n - 1)
    size = ex.get("size")
    if a == cur or size not in ("big", "small") or not x.ex_log or x.ex_log[-1] != (a, size, -1):
        raise IllegalAction(f"the observation's 'exchange' {short(ex)} does not fit it: the "
                            "announcer is not the seat to move and is the last of the "
                            "'doubles_log', with the size it said (RO-3)")
    x.ex_announcer = a
    x.ex_queue = order[order.index(a) + 1:]
    after = [(a + k) % n for k in range(1, n)]
    x.ex_responders = after[after.index(cur) + 1:]


#: Ways of the exchange's doubles tried (which double each announcement and accept gave: one
#: received in an earlier swap, or one of the deal) before the observation is refused; a round
#: has at most one announcement a seat, so there are seldom more than a few dozen.
_EXCHANGE_WAYS = 500

#: A double of the exchange (RO-3): its size (big) and the seat holding it after the log.
_Pair = tuple[bool, int]

#: A way the doubles moved (:func:`_ways`): the doubles, the tile each must be (-1 any: the
#: observing seat's ``doubles_mine`` names those it gave or received) and, per announcement, the
#: indices of the double offered and of the one given back (-1 not accepted).
_Way = tuple[list[_Pair], list[int], list[tuple[int, int]]]


def _ways(log: list[tuple[int, str, int]], known: list[tuple[int, int]], rng: random.Random,
          ) -> Iterator[_Way]:
    """Every way, in random order, the doubles of ``log`` can have moved: for each announcement
    the double its announcer offered, and for an accepted one the double the acceptor gave back,
    each either a double received in an earlier swap (of the same size, still held) or one of
    the seat's own deal, and each the tile ``known`` names (the observing seat's own swaps) if it
    names one: a double named once is that tile wherever it goes next."""
    def walk(k: int, pairs: list[_Pair], tiles: list[int], moves: list[tuple[int, int]],
             ) -> Iterator[_Way]:
        if k == len(log):
            yield pairs, tiles, moves
            return
        a, size, b = log[k]
        big = size == "big"
        offered, back = known[k]
        for i in _choices(pairs, tiles, a, big, offered, rng):
            mine, mt = (pairs + [(big, a)], tiles + [offered]) if i < 0 else (list(pairs), tiles)
            i = len(pairs) if i < 0 else i
            if offered >= 0 and mt[i] < 0:
                mt = mt[:i] + [offered] + mt[i + 1:]
            if b < 0:
                yield from walk(k + 1, mine, mt, moves + [(i, -1)])
                continue
            for j in _choices(mine, mt, b, big, back, rng):
                theirs, tt = (mine + [(big, b)], mt + [back]) if j < 0 else (list(mine), mt)
                j = len(mine) if j < 0 else j
                if back >= 0 and tt[j] < 0:
                    tt = tt[:j] + [back] + tt[j + 1:]
                theirs[i], theirs[j] = (big, b), (big, a)   # the two doubles change racks
                yield from walk(k + 1, theirs, tt, moves + [(i, j)])
    return walk(0, [], [], [])


def _choices(pairs: list[_Pair], tiles: list[int], seat: int, big: bool, tile: int,
             rng: random.Random) -> list[int]:
    """The doubles ``seat`` may give: one it holds of the size, or one of its deal (-1); the
    one that is ``tile`` if the seat's observation names it (>= 0): the double already known to
    be that tile, else one not yet named or one of the deal."""
    if tile >= 0 and tile in tiles:
        i = tiles.index(tile)
        return [i] if pairs[i] == (big, seat) else []
    out = [i for i, p in enumerate(pairs) if p == (big, seat) and (tile < 0 or tiles[i] < 0)]
    out.append(-1)
    rng.shuffle(out)
    return out


def _swapped_doubles(s: State, obs: Mapping[str, Any], table: list[RemiMeld], seat: int,
                     own: list[int], left: list[int], sizes: list[int],
                     known: list[tuple[int, int]], rng: random.Random,
                     ) -> tuple[dict[int, list[int]], int]:
    """RO-3's public facts: each announcement shows that its announcer held a double of the size
    said, and an accepted one that the two seats then swapped two doubles of that size (both
    copies of each tile: the set has two), so each holds the double it received until it gives
    it on in a later swap; the observation never names the tiles. Picks a way the doubles moved
    (:func:`_ways`) and a tile for each double that fits what the seat sees: in the exchange a
    double held by the seat is one of its rack's, another seat's has both copies hidden and is
    dealt to that seat here. In play the copies since discarded or laid by the holder are
    public (``train_by``, ``laid_by``) and the others are dealt to it as far as its rack holds
    them; when no way fits that exactly (a discard taken into another rack, a break, a Joly
    retrieval or a reshuffle hides where a copy went), the nearest fit is dealt. Returns the
    tiles dealt to each other seat and the tile of the double on offer (-1 none).
    IllegalAction in the exchange when no way fits."""
    x: RemiData = s.x
    exchange = s.phase is Phase.EXCHANGE
    log = x.ex_log
    if any(b == a for a, _, b in log):
        raise IllegalAction(f"the observation's 'doubles_log' {short(obs['doubles_log'])} has a "
                            "seat accept its own announcement (RO-3)")
    if not log:
        x.ex_tiles = []
        return {}, -1
    by: list[list[int]] = [[0] * 53 for _ in range(s.n)]   # public copies each seat put out
    for c, q in zip(x.train, x.train_by):
        by[q][c] += 1
    for m in table:
        for c, q in zip(m.tiles, m.by):
            by[q][c] += 1
    fallback = None
    got = None
    moves: list[tuple[int, int]] = []
    for tries, (pairs, tiles, moves) in enumerate(_ways(log, known, rng)):
        got = _tiles(pairs, tiles, seat, own, left, by, sizes, rng, strict=True)
        if got is not None:
            break
        if fallback is None:
            fallback = pairs, tiles, moves
        if tries + 1 >= _EXCHANGE_WAYS:
            break
    if got is None:
        if exchange or fallback is None:
            mine = (f" and its 'doubles_mine' {short(obs['doubles_mine'])}"
                    if "doubles_mine" in obs else "")
            raise IllegalAction(f"the observation does not fit: no way of the doubles exchanged "
                                f"{short(obs['doubles_log'])}{mine} (RO-3) leaves the seats the "
                                "racks it shows")
        pairs, tiles, moves = fallback
        got = _tiles(pairs, tiles, seat, own, left, by, sizes, rng, strict=False)
        assert got is not None
    codes, planted = got
    # the tiles of every announcement and swap: the seat's own as its observation names them
    x.ex_tiles = [(codes[i], codes[j] if j >= 0 else -1) for i, j in moves]
    offer = codes[moves[-1][0]] if exchange and x.ex_announcer >= 0 else -1
    return planted, offer


@functools.cache
def _kinds() -> dict[bool, tuple[int, ...]]:
    """The tiles of big doubles (True) and of small ones (RO-3)."""
    from .engine import is_big  # (the engine imports this module)

    return {big: tuple(c for c in range(52) if is_big(c) == big) for big in (True, False)}


def _tiles(pairs: list[_Pair], tiles: list[int], seat: int, own: list[int], left: list[int],
           by: list[list[int]], sizes: list[int], rng: random.Random, strict: bool,
           ) -> tuple[list[int], dict[int, list[int]]] | None:
    """A tile for each double of ``pairs`` (distinct: each double is both copies of its tile;
    ``tiles`` gives those the seat's observation names) and the copies to deal to the other seats
    holding them; None when ``strict`` and a double has no tile that fits exactly (see
    :func:`_swapped_doubles`) or a rack cannot hold its copies."""
    order = list(range(len(pairs)))
    rng.shuffle(order)
    # the other seats' doubles first, of them first the named ones (their copies are dealt first)
    order.sort(key=lambda i: (pairs[i][1] == seat, tiles[i] < 0))
    used = {c for c in tiles if c >= 0}
    codes = [-1] * len(pairs)
    room = {q: sizes[q] for q in range(len(sizes)) if q != seat}
    planted: dict[int, list[int]] = {}
    for i in order:
        big, q = pairs[i]
        named = tiles[i]
        kind = [named] if named >= 0 else [c for c in _kinds()[big] if c not in used]
        if q == seat:
            fit = [c for c in kind if own[c] + by[q][c] == 2]
        else:
            fit = [c for c in kind if left[c] + by[q][c] == 2 and left[c] <= room[q]]
        if not fit and strict:
            return None
        if not fit:  # the nearest: copies that a take, a break or a reshuffle moved unseen
            near = (([c for c in kind if own[c]], [c for c in kind if not left[c]]) if q == seat
                    else ([c for c in kind if left[c] and not own[c]],
                          [c for c in kind if not own[c]]))
            fit = next((t for t in near if t), kind)
        c = codes[i] = rng.choice(fit)
        used.add(c)
        if q != seat:
            k = min(left[c], max(0, 2 - by[q][c]), room[q])
            room[q] -= k
            planted.setdefault(q, []).extend([c] * k)
    return codes, planted

"""Observation arrays: a fixed-length float32 vector made from ``state.observation(seat)`` only.

The encoder reads nothing but the seat's observation dict (docs/DESIGN.md, "Observation keys"),
so the array can never show another rack or the stock order (``tests/test_rl.py`` deals the
hidden pieces again and gets the same array). Seats are *relative*: index 0 is the observing
seat, 1 the next seat to act after it, and so on. Values are raw counts and points (no scaling).

Every variant has the shared segments (rack counts per piece code, pieces on the table per code,
phase, seat to move, starter, rack sizes, stock, round, turn, standings, and ``table_slots``
table melds with kind, owner, staged flag, real pieces and what each joker stands for); the
variant adds its public data (Rummy 101: discard piles, the takeable discard, taken discards,
openings, thresholds, joker button, the turn's state; Remi: the Atu, the train, lay-downs, the
doubles exchange, the turn's state, and last the seat's own swaps of doubles, RO-3, from its
``doubles_mine``; classic: the discard pile, who has melded, the turn's state, and last the
cards each seat took from the pile and still holds, CR-3, from its ``known``).
:meth:`ObservationEncoder.describe` lists the segments and offsets.

>>> from rummy101.game import new_game
>>> s = new_game("rummy101(players=2)", seed=1)
>>> enc = ObservationEncoder(s.rules)
>>> x = enc.encode(s.observation(0))
>>> x.shape, x.dtype, int(x[enc.offset("rack"):enc.offset("rack") + 53].sum())
((4009,), dtype('float32'), 22)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from ..errors import RulesError
from ..rules import Rules
from ..tiles import JOKER_CODE
from .actions import table_slots_for

__all__ = ["ObservationEncoder"]

J = JOKER_CODE
_PHASES = {"take": 0, "play": 1, "exchange": 2, "over": 3}
_KINDS = {"run": 0, "set": 1, "pair": 2}
_ONE = np.float32(1)
_INF = 1e9  # finite bounds (Gymnasium warns about infinite ones); no value comes near
#: a memo's entry: the indices to count and the (index, value) pairs to set
_Got = tuple[tuple[int, ...], tuple[tuple[int, float], ...]]


class ObservationEncoder:
    """The observation array of one rule set: ``encode(observation_dict) -> float32 array`` of
    ``size`` values, bounded by ``low`` / ``high``."""

    def __init__(self, rules: str | Rules, table_slots: int | None = None) -> None:
        self.rules = r = Rules.parse(rules)
        self.table_slots = table_slots_for(r, table_slots)
        self.pieces = P = 53 if r.jokers else 52
        self.players = n = r.players
        self._code = {str(r.piece(c)): c for c in range(P)}
        self.cap = cap = float(max(r.copies, r.max_rack_jokers))  # copies of one code a place holds
        self.slot_size = 1 + 3 + n + 1 + 52 + (52 if r.jokers else 0)
        segs: list[tuple[str, int, float, float]] = [
            ("rack", P, 0, cap), ("table_pieces", P, 0, cap * 2 if r.jokers else cap),
            ("phase", 4, 0, 1), ("to_move", n, 0, 1), ("starter", n, 0, 1),
            ("rack_sizes", n, 0, _INF), ("stock", 1, 0, _INF), ("round", 1, 0, _INF),
            ("turn", 1, 0, _INF), ("standings", n, -_INF, _INF),
            ("table", self.table_slots * self.slot_size, 0, cap),
        ]
        extra = _VARIANTS.get(r.variant)
        if extra is None:
            raise RulesError(f"{r.variant} has no RL observation encoding yet (rummy101.rl.observe)")
        segs += extra[0](self)
        self._fill_variant: _Fill = extra[1]
        # (the memos hold tuples of numbers, no lists: Python's cycle collector stops tracking
        # such a tuple at its first pass, so the entries that stay add nothing to its later
        # passes nor hasten its full collections, as the lists they held did)
        self._meld_memo: dict[tuple[Any, ...], _Got] = {}
        self._memo: dict[tuple[Any, ...], tuple[int, ...]] = {}
        self._seats_memo: dict[tuple[Any, ...], _Got] = {}
        self._ends: dict[Any, tuple[tuple[Any, ...], list[int]]] = {}
        self.segments: dict[str, tuple[int, int]] = {}
        low: list[float] = []
        high: list[float] = []
        for name, size, lo, hi in segs:
            self.segments[name] = (len(low), size)
            low += [lo] * size
            high += [hi] * size
        self.size = len(low)
        self.low = np.array(low, dtype=np.float32)
        self.high = np.array(high, dtype=np.float32)
        #: each segment's offset (read at every encode: one dict lookup, not a tuple's too)
        self.off = {name: o for name, (o, _n) in self.segments.items()}
        # the index of each piece text in the rack segment, of each phase in its segment
        self._rack_at = {t: self.off["rack"] + c for t, c in self._code.items()}
        self._phase_at = {p: self.off["phase"] + k for p, k in _PHASES.items()}
        #: per observing seat, the relative seat of each seat q: ``(q - me) % players``
        self._rot = [[(q - me) % n for q in range(n)] for me in range(n)]
        self._rules_text = str(r)
        self._layouts: dict[str, str] = {}  # other rules texts met: "" (same layout) or why not
        self._seat_at: dict[tuple[str, int], tuple[int, ...]] = {}  # seat_offsets()

    def _check_rules(self, obs: Any) -> None:
        """Refuse an observation of another layout (another variant, number of players, piece
        set or bounds): a 3-player observation was encoded by a 2-player encoder without a word
        (seats taken modulo 2), another variant's was KeyError '5H'. Rule options that keep
        the layout (a threshold, a target) are accepted; the answer is kept per rules text."""
        try:
            text = obs["rules"]
        except (KeyError, TypeError, IndexError):
            raise RulesError(f"encode takes an observation dict, state.observation(seat) (with "
                             f"its 'rules'), got {type(obs).__name__} {obs!r:.60}") from None
        if text == self._rules_text:
            return
        why = self._layouts.get(text) if isinstance(text, str) else None
        if why is None:
            try:
                r = Rules.parse(text)
            except (RulesError, TypeError, ValueError) as exc:
                why = f"the observation's 'rules' {text!r:.60} are no rule set ({exc})"
            else:
                same = r.variant == self.rules.variant and r.players == self.players
                if same:
                    other = ObservationEncoder(r, self.table_slots)
                    same = (other.segments == self.segments and other._code == self._code
                            and np.array_equal(other.low, self.low)
                            and np.array_equal(other.high, self.high))
                why = "" if same else f"the observation is of {r}, whose array has another layout"
            if isinstance(text, str) and len(self._layouts) < 1000:
                self._layouts[text] = why
        if why:
            raise RulesError(f"this ObservationEncoder encodes {self.rules}: {why}; make one with "
                             f"ObservationEncoder(state.rules)")

    def remember(self, key: tuple[Any, ...], indices: Sequence[int]) -> None:
        """Memoise the indices of a part of the observation that changes slowly (bounded; kept
        as a tuple)."""
        if len(self._memo) > 50_000:
            self._memo.clear()
        self._memo[key] = tuple(indices)

    def remember_seats(self, key: tuple[Any, ...],
                       got: tuple[Sequence[int], Sequence[tuple[int, float]]]) -> None:
        """Memoise the indices and values of the seats' slowly changing fields (a variant's
        per-seat flags and counts, keyed with the observing seat; bounded; kept as tuples)."""
        if len(self._seats_memo) > 50_000:
            self._seats_memo.clear()
        self._seats_memo[key] = (tuple(got[0]), tuple(got[1]))

    def at_end(self, slot: Any, items: tuple[Any, ...], index: Callable[[int, Any], int]) -> list[int]:
        """``[index(k, item) for k, item in enumerate(items)]`` for a sequence that changes at its
        end (a pile or Remi's train: a discard adds a piece, a take or break removes the last
        ones): the list of the last call of ``slot`` is kept, and only the pieces added since are
        indexed. A memo keyed by the whole sequence missed at most steps (Remi: 3 in 5)."""
        last = self._ends.get(slot)
        if last is not None:
            old, got = last
            m = len(old)
            if len(items) == m and items == old:  # (most calls: no slice made)
                return got
            if len(items) >= m and items[:m] == old:
                if len(items) == m:
                    return got
                got = got + [index(k, items[k]) for k in range(m, len(items))]
            elif old[:len(items)] == items:
                got = got[:len(items)]
            else:
                got = [index(k, t) for k, t in enumerate(items)]
        else:
            got = [index(k, t) for k, t in enumerate(items)]
        self._ends[slot] = (items, got)
        return got

    def seat_offsets(self, segment: str, me: int) -> tuple[int, ...]:
        """The index of each seat's value in a per-seat segment, as ``me`` observes them (the
        seat's relative place added to the segment's offset), by seat; kept per segment and
        observing seat (a pure function of the layout)."""
        got = self._seat_at.get((segment, me))
        if got is None:
            o = self.off[segment]
            got = self._seat_at[(segment, me)] = tuple(o + k for k in self._rot[me])
        return got

    def offset(self, segment: str) -> int:
        return self.segments[segment][0]

    def describe(self) -> str:
        """The segments, one line each: name, offset, length."""
        return "\n".join(f"{k:<17} {o:>6} ({n})" for k, (o, n) in self.segments.items())

    def rel(self, seat: int, me: int) -> int:
        return (seat - me) % self.players

    # ---- encoding -------------------------------------------------------------------------------
    def encode(self, obs: Mapping[str, Any]) -> np.ndarray[Any, Any]:
        """The array of one observation dict (``state.observation(seat)``)."""
        # The counted features are gathered in a plain list of indices and written in one numpy
        # call (one write per index would cost more); the values are set one by one after it.
        if type(obs) is not dict or obs.get("rules") != self._rules_text:
            self._check_rules(obs)
        put: list[tuple[int, float]] = []
        off = self.off
        me = int(obs["seat"])
        n = self.players
        inc = list(map(self._rack_at.__getitem__, obs["rack"]))  # (a map runs in C)
        inc.append(self._phase_at[obs["phase"]])
        inc.append(off["to_move"] + (obs["current_player"] - me) % n)
        inc.append(off["starter"] + (obs["starter"] - me) % n)
        self._table(inc, put, obs["table"], me)
        self._fill_variant(self, inc, put, obs, me)
        # The counts, added in place: np.add.at with an intp array and a float32 one takes
        # numpy's fast path (1.1-1.5 us for 60 indices); bincount(inc, minlength=size) made
        # float32 cost 1.4-5.4 us (classic's 1,541 values to Remi's 9,563), the conversion of
        # the whole int64 array the most of it, and with an int 1 add.at was 6-8 us (numpy 2.4).
        x = np.zeros(self.size, np.float32)
        np.add.at(x, np.fromiter(inc, np.intp, len(inc)), _ONE)
        # The values, one scalar write each: a few dozen cost less than gathering them into two
        # arrays for one write. Written through the array's memoryview (x.data), whose item writes
        # cost less than numpy's (the same float32 of a number); a value it refuses (a string or
        # None in a caller's dict, which numpy reads as a number or nan) is written by numpy.
        try:
            self._values(x.data, put, obs, me)
        except (TypeError, ValueError, OverflowError):
            self._values(x, put, obs, me)
        return x

    def _values(self, x: Any, put: list[tuple[int, float]], obs: Mapping[str, Any], me: int) -> None:
        """Write the values of an observation into ``x`` (the array, or a memoryview of it)."""
        for i, v in put:
            x[i] = v
        off = self.off
        n = self.players
        o = off["rack_sizes"]
        so = off["standings"]
        stand = obs["standings"]
        for q, v in enumerate(obs["rack_sizes"]):
            k = (q - me) % n
            x[o + k] = v
            x[so + k] = stand[q]
        x[off["stock"]] = obs["stock"]
        x[off["round"]] = obs["round"]
        x[off["turn"]] = obs["turn"]

    def _table(self, inc: list[int], put: list[tuple[int, float]], table: list[Mapping[str, Any]],
               me: int) -> None:
        memo = self._meld_memo
        n = self.players
        for i, m in enumerate(table):
            key = (i, m["kind"], (m["owner"] - me) % n, bool(m.get("staged")), tuple(m["tiles"]))
            got = memo.get(key)
            if got is None:
                if len(memo) > 100_000:
                    memo.clear()
                got = memo[key] = self._meld(*key)
            inc += got[0]
            put += got[1]

    def _meld(self, i: int, kind: str, owner: int, staged: bool, texts: tuple[str, ...]) -> _Got:
        """A table meld's contribution: indices to count and (index, value) pairs (memoised:
        most melds stay as they are from one step to the next)."""
        code = self._code
        tiles = [code[t] for t in texts]
        tp = self.off["table_pieces"]
        inc = [tp + c for c in tiles]
        put: list[tuple[int, float]] = []
        if i < self.table_slots:
            o = self.off["table"] + i * self.slot_size
            n = self.players
            inc += [o, o + 1 + _KINDS[kind], o + 4 + owner]
            if staged:
                inc.append(o + 4 + n)
            real = o + 5 + n
            inc += [real + c for c in tiles if c != J]
            if self.pieces == 53 and J in tiles:
                put += [(real + 52 + c, w) for c, w in _joker_stands(kind, tiles)]
        return tuple(inc), tuple(put)


def _joker_stands(kind: str, tiles: list[int]) -> list[tuple[int, float]]:
    """What the jokers of a table meld stand for, as ``(code, weight)``: a run's joker the number
    at its place (Remi's high ace: the 1), a pair's joker the real tile, weight 1; a set's jokers
    are interchangeable and each missing colour releases one (R101-9, RO-9.6), so the set's
    jokers are spread evenly over its missing colours (``* Y5 B5``: R5 and K5, 0.5 each)."""
    reals = [(i, c) for i, c in enumerate(tiles) if c != J]
    jokers = len(tiles) - len(reals)
    if kind == "pair":
        return [(reals[0][1], 1.0)]
    i0, c0 = reals[0]
    if kind == "set":
        have = {c // 13 for _, c in reals}
        missing = [k * 13 + c0 % 13 for k in range(4) if k not in have]
        return [(c, jokers / len(missing)) for c in missing]
    colour, start = c0 // 13, c0 % 13 - i0
    return [(colour * 13 + (start + i) % 13, 1.0) for i, c in enumerate(tiles) if c == J]


# ---- Rummy 101 -------------------------------------------------------------------------------------

_TOOK = {"start": 0, "draw": 1, "take": 2, "button": 3}
_OPENED = {None: 0, "melds": 1, "pairs": 2}


def _r101_segments(e: ObservationEncoder) -> list[tuple[str, int, float, float]]:
    n = e.players
    return [
        ("discards", n * 53, 0, e.cap), ("last_discard", 53, 0, 1),
        ("taken_discards", n * 53, 0, e.cap),
        ("opened", n * 3, 0, 1), ("thresholds", 2, 0, _INF), ("button_jokers", n, 0, _INF),
        ("button_used", n, 0, 1), ("button_available", 1, 0, 1), ("took", 4, 0, 1),
        ("must_use", 53, 0, 1), ("staged", 1, 0, 1),
    ]


def _r101_fill(e: ObservationEncoder, inc: list[int], put: list[tuple[int, float]],
               obs: Mapping[str, Any], me: int) -> None:
    off = e.off
    code = e._code
    rot = e._rot[me]
    key = ("discards", me, tuple(map(tuple, obs["discards"])))
    got = e._memo.get(key)
    if got is None:  # the piles change by one tile a turn: their indices are memoised
        o = off["discards"]
        got = tuple([o + rot[q] * 53 + code[t] for q, pile in enumerate(key[2]) for t in pile])
        e.remember(key, got)
    inc += got
    ld = obs["last_discard"]
    if ld is not None:
        inc.append(off["last_discard"] + code[ld])
    taken = obs["taken_discards"]
    if taken:
        o = off["taken_discards"]
        inc += [o + rot[d["seat"]] * 53 + code[d["tile"]] for d in taken]
    button = obs["button"]
    # who opened how, the joker button's jokers and use: they change a few times a round, so
    # their indices and values are memoised per observing seat
    key = ("seats", me, *obs["opened"], *button["jokers"], *button["used"])
    got2 = e._seats_memo.get(key)
    if got2 is None:
        o = off["opened"]
        ob = off["button_jokers"]
        ou = off["button_used"]
        used = button["used"]
        got2 = (tuple([o + 3 * k + _OPENED[v] for k, v in zip(rot, obs["opened"])]
                      + [ou + k for k, u in zip(rot, used) if u]),
                tuple([(ob + k, j) for k, j in zip(rot, button["jokers"])]))
        e.remember_seats(key, got2)
    inc += got2[0]
    put += got2[1]
    th = obs["thresholds"]
    o = off["thresholds"]
    put.append((o, th["points"]))
    put.append((o + 1, th["pairs"]))
    if button["available"]:
        inc.append(off["button_available"])
    ts = obs["turn_state"]
    took = _TOOK.get(ts["took"])
    if took is not None:
        inc.append(off["took"] + took)
    if ts["must_use"] is not None:
        inc.append(off["must_use"] + code[ts["must_use"]])
    if ts["staged"]:
        inc.append(off["staged"])


# ---- Remi ---------------------------------------------------------------------------------------

_REMI_TOOK = {"start": 0, "draw": 1, "take": 2, "break": 3, "atu": 4}
_PENDING = {"break": 0, "joly": 1}


def _train_len(r: Rules) -> int:
    return r.copies * 52 + r.jokers  # the train never holds more than the whole set


def _remi_segments(e: ObservationEncoder) -> list[tuple[str, int, float, float]]:
    n = e.players
    t = _train_len(e.rules)
    return [
        ("atu", 53, 0, 1), ("atu_available", 1, 0, 1), ("twin", 1, 0, 1),
        ("train", t * 53, 0, 1), ("train_by", t * n, 0, 1), ("reshuffled", 1, 0, 1),
        ("laid", n, 0, 1), ("tabla", n, 0, 1), ("own_turns", n, 0, _INF),
        ("exchange_announcer", n, 0, 1), ("exchange_size", 2, 0, 1),
        ("doubles_announced", n * 2, 0, _INF), ("doubles_accepted", n, 0, _INF),
        ("took", 5, 0, 1), ("must_use", 53, 0, 1), ("staged", 1, 0, 1), ("pending", 53, 0, 1),
        ("pending_kind", 2, 0, 1), ("later", 1, 0, _INF), ("closing", 1, 0, 1),
        ("atu_turn", 1, 0, 1),
        # RO-3, the seat's own swaps (``doubles_mine``), after the older segments so that their
        # offsets keep their meaning. Per partner and tile: each seat announces once, so a pair of
        # seats swaps at most twice, two copies each time (at most 4); one own offer (2 copies).
        ("doubles_gave", n * 53, 0, 4), ("doubles_received", n * 53, 0, 4),
        ("doubles_offered", 53, 0, 2),
    ]


def _remi_fill(e: ObservationEncoder, inc: list[int], put: list[tuple[int, float]],
               obs: Mapping[str, Any], me: int) -> None:
    off = e.off
    code = e._code
    n = e.players
    atu = obs["atu"]
    if atu is not None:
        inc.append(off["atu"] + code[atu])
    if obs["atu_available"]:
        inc.append(off["atu_available"])
    if obs["twin"]:
        inc.append(off["twin"])
    ot, ob = off["train"], off["train_by"]  # (the train changes at its end)
    inc += e.at_end("train", tuple(obs["train"]), lambda k, t: ot + 53 * k + code[t])
    inc += e.at_end(("train_by", me), tuple(obs["train_by"]), lambda k, q: ob + n * k + (q - me) % n)
    if obs["reshuffled"]:
        inc.append(off["reshuffled"])
    # lay-downs, tabla declarations and the doubles log: they change a few times a round, so
    # their indices are memoised per observing seat; the turns played change every turn (with
    # them in its key the memo missed at 2 steps in 5), so they are written as they are
    log = obs["doubles_log"]
    key = ("seats", me, *obs["laid"], *obs["tabla"], *map(tuple, log))
    got = e._seats_memo.get(key)
    if got is None:
        rot = e._rot[me]
        ol, ota = off["laid"], off["tabla"]
        oa, oc = off["doubles_announced"], off["doubles_accepted"]
        seats = ([ol + k for k, v in zip(rot, obs["laid"]) if v]
                 + [ota + k for k, v in zip(rot, obs["tabla"]) if v])
        for who, size, acceptor in log:
            seats.append(oa + 2 * rot[who] + (0 if size == "big" else 1))
            if acceptor is not None and acceptor >= 0:
                seats.append(oc + rot[acceptor])
        got = (tuple(seats), ())
        e.remember_seats(key, got)
    inc += got[0]
    put += zip(e.seat_offsets("own_turns", me), obs["own_turns"])
    ex = obs["exchange"]
    if ex is not None and ex["announcer"] is not None:
        inc.append(off["exchange_announcer"] + (ex["announcer"] - me) % n)
        inc.append(off["exchange_size"] + (0 if ex["size"] == "big" else 1))
    ts = obs["turn_state"]
    took = _REMI_TOOK.get(ts["took"])
    if took is not None:
        inc.append(off["took"] + took)
    # must_use is read from the mover's rack, so only the mover's own array holds it (the engine
    # showed it to every seat until 339a5e8; this check keeps the array safe either way).
    if ts["must_use"] is not None and obs["current_player"] == me:
        inc.append(off["must_use"] + code[ts["must_use"]])
    if ts["staged"]:
        inc.append(off["staged"])
    if ts["pending"] is not None:
        inc.append(off["pending"] + code[ts["pending"]])
    kind = _PENDING.get(ts["pending_kind"])
    if kind is not None:
        inc.append(off["pending_kind"] + kind)
    put.append((off["later"], ts["later"]))
    if ts["closing"]:
        inc.append(off["closing"])
    if ts["atu_turn"]:
        inc.append(off["atu_turn"])
    if "doubles_mine" in obs:
        _remi_mine(e, inc, obs, me)


def _remi_mine(e: ObservationEncoder, inc: list[int], obs: Mapping[str, Any], me: int) -> None:
    """The seat's own part of the doubles exchange (RO-3, ``doubles_mine``; absent for a seat
    that took no part): both copies of each double it gave and received, at the partner's
    relative seat (the log's other seat of the entry), and of its own announced double that no
    seat took (while its offer is open, or at all: the seat did not give it away)."""
    mine = obs.get("doubles_mine")
    if not mine:
        return
    code = e._code
    off = e.off
    log = obs["doubles_log"]
    og, orc = off["doubles_gave"], off["doubles_received"]
    for d in mine:
        gave = code[d["gave"]]
        if d["received"] is None:
            inc += [off["doubles_offered"] + gave] * 2
            continue
        who, _, acceptor = log[d["entry"]]
        k = e.rel(acceptor if who == me else who, me) * 53
        inc += [og + k + gave] * 2 + [orc + k + code[d["received"]]] * 2


# ---- classic card Rummy ---------------------------------------------------------------------------

_CLASSIC_TOOK = {"draw": 0, "take": 1}


def _classic_segments(e: ObservationEncoder) -> list[tuple[str, int, float, float]]:
    n = e.players
    return [
        ("dealer", n, 0, 1), ("stock_turnovers", 1, 0, _INF), ("discard_pile", 52, 0, 1),
        ("last_discard", 52, 0, 1), ("melded", n, 0, 1), ("took", 2, 0, 1), ("taken", 52, 0, 1),
        ("start_size", 1, 0, _INF), ("target", 1, 0, _INF),
        # CR-3, the cards each seat took from the pile and still holds (``known``), per relative
        # seat and card: after the older segments so that their offsets keep their meaning.
        ("known", n * 52, 0, 1),
    ]


def _classic_fill(e: ObservationEncoder, inc: list[int], put: list[tuple[int, float]],
                  obs: Mapping[str, Any], me: int) -> None:
    off = e.off
    code = e._code
    n = e.players
    inc.append(off["dealer"] + (obs["dealer"] - me) % n)
    put.append((off["stock_turnovers"], obs["stock_turnovers"]))
    o = off["discard_pile"]  # (the pile changes at its end, or is turned over: CR-2)
    inc += e.at_end("discard_pile", tuple(obs["discard_pile"]), lambda k, c: o + code[c])
    if obs["last_discard"] is not None:
        inc.append(off["last_discard"] + code[obs["last_discard"]])
    o = off["melded"]
    for q in range(n):
        if obs["melded"][q]:
            inc.append(o + (q - me) % n)
    ts = obs["turn_state"]
    if ts["took"] in _CLASSIC_TOOK:
        inc.append(off["took"] + _CLASSIC_TOOK[ts["took"]])
    if ts["taken"] is not None:
        inc.append(off["taken"] + code[ts["taken"]])
    put.append((off["start_size"], ts["start_size"]))
    put.append((off["target"], obs["target"]))
    o = off["known"]
    for q, cards in enumerate(obs["known"]):
        k = o + 52 * ((q - me) % n)
        inc += [k + code[c] for c in cards]


_Segments = Callable[[ObservationEncoder], list[tuple[str, int, float, float]]]
_Fill = Callable[[ObservationEncoder, list[int], list[tuple[int, float]], Mapping[str, Any], int],
                 None]
_VARIANTS: dict[str, tuple[_Segments, _Fill]] = {
    "rummy101": (_r101_segments, _r101_fill),
    "remi": (_remi_segments, _remi_fill),
    "classic": (_classic_segments, _classic_fill),
}

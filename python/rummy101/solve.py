"""Exact solvers: the best opening / first lay-down of a rack and the smallest penalty.

* :func:`solve_opening` — Rummy 101: runs/sets worth at least the threshold (R101-7, 101 in fixed
  mode) or at least five pairs (R101-8), a melds opening preferred when both are legal (a pairs
  opening lays the most pairs and, among those, leaves the least penalty: a joker goes with the
  highest loose tile; docs/solve.md "Pairs"); Remi: the
  first lay-down, >= 45 lay-down points holding a run (RO-8) with the Joly ratio (RO-7); classic:
  the best melds of a hand (CR-3, CR-4). A tile always stays on the rack to discard in rummy101
  and remi (R101-7, R101-12, RO-13); in classic the whole hand may be melded (CR-4, ``go_out=broad``)
  or, with ``go_out=narrow``, only a hand of three cards (two held and the one drawn) that is one
  meld, as in the seed (:func:`keeps_card`). A discard just taken must be used (``must_use``,
  R101-4).
* :func:`solve_penalty` — the arrangement that leaves the least penalty on the rack (R101-13 with
  a joker at 101, RO-12 end values, CR-2), with or without keeping a tile to discard.

Answers are optimal (no legal selection scores more) and identical on both backends.

>>> o = solve_opening("rummy101", "R10 R11 R12 Y12 B12 K12 K13 K11 K10 B3 B4 B5 B6 * R1")
>>> o.kind, o.value, [str(m) for m in o.melds], [str(t) for t in o.rest]
('melds', 133, ['R10 R11 R12', 'B3 B4 B5 B6', 'K10 K11 K12 K13', '* Y12 B12'], ['R1'])
>>> solve_opening("remi", "R12 R13 R1 Y5 B5 K5 Y7").to_json()
{'rules': 'remi', 'rack': 'R12 R13 R1 Y5 B5 K5 Y7', 'kind': 'melds', 'value': 45, 'melds': [{'kind': 'run', 'tiles': ['R12', 'R13', 'R1'], 'value': 30, 'jokers': {}}, {'kind': 'set', 'tiles': ['Y5', 'B5', 'K5'], 'value': 15, 'jokers': {}}], 'rest': ['Y7']}
>>> solve_penalty("rummy101", "R5 R6 R7 *").penalty    # R6 R7 * laid, R5 kept to discard
5

Work budget
-----------
Every core search started through this module (and through :mod:`rummy101.tabla`) expands at
most :func:`current_budget` search nodes and otherwise raises
:class:`~rummy101.errors.WorkBudgetExceeded`; both backends count nodes at the same points, so a
rack runs out at the same budget on either. :func:`work_budget` sets the budget for a block (per
thread / per asyncio task, a ``contextvars`` variable); code that calls the core directly passes
``budget=current_budget()``. ``DEFAULT_WORK_BUDGET`` (2,000,000 nodes) refuses no legal rack of at
most 28 tiles: the slowest we could build or find (tests/dense_racks.txt, docs/solve.md: hill-climbed
5-6-joker penalty racks) need <= ~160k nodes. To turn a wall-time limit into a budget: native ~2-3M
nodes/s on typical 22-tile racks (~0.5M on dense ones), pure ~10-30k nodes/s (~2-5k on dense
ones; bench/report_solve.py measures it).

>>> with work_budget(5):
...     solve_penalty("rummy101", "R1 R2 R3 R4 R5 R6 R7 Y7 B7 K7 * *")
Traceback (most recent call last):
...
rummy101.errors.WorkBudgetExceeded: the rack is too dense to solve within 5 search nodes; give the search more nodes (rummy101.solve.work_budget) or ask about a smaller rack
"""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import operator
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from . import _backend
from ._pure.solver import BUDGET_SPENT, DEFAULT_WORK_BUDGET, UNLIMITED_BUDGET, budget_message
from .errors import NotationError, RackError, RulesError, RummyError, WorkBudgetExceeded
from .melds import Meld
from .rules import Rules
from .tiles import Card, Tile, counts_of, format_tiles

__all__ = [
    "BUDGET_SPENT",
    "DEFAULT_WORK_BUDGET",
    "UNLIMITED_BUDGET",
    "Opening",
    "Penalty",
    "budget_message",
    "current_budget",
    "keeps_card",
    "opening_values",
    "solve_opening",
    "solve_openings",
    "solve_penalty",
    "work_budget",
]

OpeningKind = Literal["melds", "pairs"] | None
Piece = Tile | Card
RackLike = str | Iterable[Any]


class Opening:
    """The best opening / first lay-down of a rack (CONTRACT.md, Solver results).

    ``kind`` is ``"melds"``, ``"pairs"`` or ``None`` (no legal opening: ``melds``/``value`` then
    show the best runs/sets selection that meets the opening's constraints, Remi's run and
    ``must_use``, or without them when none does: docs/service.md "Best opening").
    ``value`` is the meld value under the variant's opening
    values, or the number of pairs for a pairs opening. ``rest`` is what stays on the rack.

    Immutable, compared and hashed by its fields like a frozen dataclass. ``rack``, ``melds`` and
    ``rest`` are built from the text rack and the core's answer when first read (issue 11: a
    caller that only wants ``kind``/``value`` pays for no Tile or Meld objects), and the fields
    live in one tuple, so that an answer costs one attribute store to make.
    """

    __slots__ = ("_f",)
    # _f = (rules, kind, value, threshold, pairs_threshold, core, rack source, [rack, melds, rest]):
    # core is ("melds", core melds), ("pairs", core pairs) or ("batch", SolvedMelds, i) (rack i's
    # melds of a solve_openings batch, packed in the core until read); the rack source is the text of a
    # rack read by the token table, or None when the rack is given; the list holds the fields
    # built so far (None: not yet)
    _f: tuple[Any, ...]

    def __init__(self, rules: Rules, rack: tuple[Piece, ...], kind: OpeningKind, value: int,
                 melds: tuple[Meld, ...], rest: tuple[Piece, ...], threshold: int,
                 pairs_threshold: int) -> None:
        _SET_F(self, (rules, kind, value, threshold, pairs_threshold, None, None,
                      [tuple(rack), tuple(melds), tuple(rest)]))

    @classmethod
    def _lazy(cls, rules: Rules, rack: tuple[Piece, ...] | str, kind: OpeningKind, value: int,
              core: tuple[Any, ...], threshold: int, pairs_threshold: int) -> Opening:
        """An answer whose melds and rest are built from ``core`` (("melds", core melds),
        ("pairs", core pairs) or ("batch", SolvedMelds, i)) when first read; ``rack`` is the pieces, or a text rack that the
        token table reads (read again when the rack is first asked for)."""
        o = _NEW(cls)
        if rack.__class__ is str:
            _SET_F(o, (rules, kind, value, threshold, pairs_threshold, core, rack, [None, None, None]))
        else:
            _SET_F(o, (rules, kind, value, threshold, pairs_threshold, core, None, [rack, None, None]))
        return o

    @property
    def rules(self) -> Rules:
        return self._f[0]  # type: ignore[no-any-return]

    @property
    def kind(self) -> OpeningKind:
        return self._f[1]  # type: ignore[no-any-return]

    @property
    def value(self) -> int:
        return self._f[2]  # type: ignore[no-any-return]

    @property
    def threshold(self) -> int:
        return self._f[3]  # type: ignore[no-any-return]

    @property
    def pairs_threshold(self) -> int:
        return self._f[4]  # type: ignore[no-any-return]

    @property
    def rack(self) -> tuple[Piece, ...]:
        built = self._f[7]
        if built[0] is None:
            built[0] = _pieces_of(self._f[0], self._f[6])
        return built[0]  # type: ignore[no-any-return]

    @property
    def melds(self) -> tuple[Meld, ...]:
        built = self._f[7]
        if built[1] is None:
            rules = self._f[0]
            form, items = _core_items(self._f[5])
            if form == "pairs":
                built[1] = tuple(Meld.from_core(rules, "pair", [a, b], [a, a]) for a, b in items)
            else:
                built[1] = _melds(rules, items)
        return built[1]  # type: ignore[no-any-return]

    @property
    def rest(self) -> tuple[Piece, ...]:
        built = self._f[7]
        if built[2] is None:
            form, items = _core_items(self._f[5])
            used = [c for p in items for c in p] if form == "pairs" else [c for m in items for c in m[1]]
            built[2] = _rest(self._f[0], self.rack, used)
        return built[2]  # type: ignore[no-any-return]

    def _fields(self) -> tuple[Any, ...]:
        return (self.rules, self.rack, self.kind, self.value, self.melds, self.rest, self.threshold,
                self.pairs_threshold)

    def __setattr__(self, name: str, value: Any) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        names = ("rules", "rack", "kind", "value", "melds", "rest", "threshold", "pairs_threshold")
        return "Opening(" + ", ".join(f"{n}={v!r}" for n, v in zip(names, self._fields(), strict=True)) + ")"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Opening, self._fields())

    def to_json(self) -> dict[str, Any]:
        """The CONTRACT.md object: rules, rack, kind, value, melds, rest."""
        return {"rules": str(self.rules), "rack": format_tiles(self.rack), "kind": self.kind,
                "value": self.value, "melds": [m.to_json() for m in self.melds],
                "rest": [str(t) for t in self.rest]}


def _core_items(core: tuple[Any, ...]) -> tuple[str, Sequence[Any]]:
    """(form, items) of an answer's core: a batch's melds are read from the core's packing."""
    if core[0] == "batch":
        return "melds", core[1][core[2]]
    return core[0], core[1]


_NEW = object.__new__
_SET_F = Opening.__dict__["_f"].__set__  # the slot's store, past the frozen __setattr__


@dataclass(frozen=True)
class Penalty:
    """The least penalty a rack can be left with: ``penalty`` = value of ``rest`` (R101-13 with a
    joker at 101, RO-12, CR-2) after laying ``melds``; ``keep``: a tile stays to discard."""

    rules: Rules
    rack: tuple[Piece, ...]
    keep: bool
    penalty: int
    melds: tuple[Meld, ...]
    rest: tuple[Piece, ...]

    def to_json(self) -> dict[str, Any]:
        return {"rules": str(self.rules), "rack": format_tiles(self.rack), "keep": self.keep,
                "penalty": self.penalty, "melds": [m.to_json() for m in self.melds],
                "rest": [str(t) for t in self.rest]}


# ---- work budget ----------------------------------------------------------------------------
_BUDGET: contextvars.ContextVar[int] = contextvars.ContextVar("rummy101_work_budget",
                                                              default=DEFAULT_WORK_BUDGET)


def current_budget() -> int:
    """The node budget of every core search started now (``DEFAULT_WORK_BUDGET`` unless a
    :func:`work_budget` block in this thread / task says otherwise)."""
    return _BUDGET.get()


@contextlib.contextmanager
def work_budget(nodes: int | None) -> Iterator[int]:
    """Run a block with every core search limited to ``nodes`` search nodes (``None``: no limit,
    ``UNLIMITED_BUDGET``). Yields the budget in force. Per thread and per asyncio task.

    >>> with work_budget(10_000) as b:
    ...     b == current_budget()
    True
    """
    if nodes is None:
        value = UNLIMITED_BUDGET
    else:
        if isinstance(nodes, bool):
            raise RulesError(f"work_budget takes a whole number of search nodes >= 1 or None, got {nodes!r}")
        try:
            value = operator.index(nodes)
        except TypeError:
            raise RulesError(f"work_budget takes a whole number of search nodes >= 1 or None, "
                             f"got {nodes!r}") from None
        if not 1 <= value <= UNLIMITED_BUDGET:
            raise RulesError(f"work_budget takes a whole number of search nodes >= 1 or None, got {nodes!r}")
    token = _BUDGET.set(value)
    try:
        yield value
    finally:
        _BUDGET.reset(token)


# ---- validation (once, at the door) ---------------------------------------------------------
def _rules(rules: Rules | str) -> Rules:
    return Rules.parse(rules)


# (backend, valuation, id of the Rules) -> (the Rules, its CoreRules): looked up by identity, as a
# caller passes the same Rules object rack after rack (hashing a Rules costs about 1 us a rack)
_CORE_RULES: dict[tuple[str, str, int], tuple[Rules, Any]] = {}


def _core_rules(rules: Rules, valuation: Literal["open", "penalty"]) -> Any:
    key = (_backend.backend_name(), valuation, id(rules))
    hit = _CORE_RULES.get(key)
    if hit is None or hit[0] is not rules:
        if len(_CORE_RULES) > 256:
            _CORE_RULES.clear()
        hit = _CORE_RULES[key] = (rules, _backend.core_rules(rules, valuation))
    return hit[1]


def _rack(rules: Rules, rack: RackLike) -> list[Piece]:
    return _rack_counts(rules, rack)[0]


# The token table (issue 11): every token the notation reads in its canonical or lower-case form,
# mapped to its piece, checked against the full parser when built. A text rack made only of such
# tokens (ASCII, split on white space) is read by the core's TokenTable (_token_reader), one call
# a rack; anything else, and every error, goes through Rules.parse_rack, so answers and messages
# stay those of the parser.
_TOKEN_TABLES: dict[str, tuple[dict[str, int], list[Piece]]] = {}


def _token_table(family: str) -> tuple[dict[str, int], list[Piece]]:
    """(token -> code, code -> piece) of a family."""
    tables = _TOKEN_TABLES.get(family)
    if tables is None:
        kind: Any = Tile if family == "tiles" else Card
        table: dict[str, int] = {}
        pieces: list[Piece] = [kind(code) for code in range(53 if family == "tiles" else 52)]
        for code, piece in enumerate(pieces):
            words = {str(piece)}
            if family == "tiles" and code == 52:
                words |= {"JK", "JOKER"}
            for w in list(words):
                words.add(w.lower())
            for w in words:
                if int(kind(w)) == code:  # the parser reads it so
                    table[w] = code
        tables = _TOKEN_TABLES[family] = (table, pieces)
    return tables


_TOKEN_READERS: dict[tuple[int, str], Any] = {}


def _token_reader(family: str) -> Any:
    """The core's reader of one text rack by the family's token table (``TokenTable``): the
    table is handed over once per backend, not on every call."""
    core = _backend.core()
    key = (id(core), family)
    reader = _TOKEN_READERS.get(key)
    if reader is None:
        reader = _TOKEN_READERS[key] = core.TokenTable(_token_table(family)[0])
    return reader


def _rack_counts(rules: Rules, rack: RackLike) -> tuple[list[Piece], list[int]]:
    """The pieces of a rack and its count vector, supply checked (fast path: the token table)."""
    source, counts = _rack_source(rules, rack)
    return list(_pieces_of(rules, source)), counts


def _rack_source(rules: Rules, rack: RackLike) -> tuple[tuple[Piece, ...] | str, list[int]]:
    """A rack's count vector, supply checked, and its source for :func:`_pieces_of`: the text
    itself when the token table reads it (the pieces are made only when asked for), else the
    pieces the full parser reads (which raises on any mistake)."""
    if isinstance(rack, str):
        read = _token_reader(rules.family).counts(rack, rules.copies, rules.max_rack_jokers)
        if read is not None:
            return rack, read
    pieces = rules.parse_rack(rack)
    if not pieces:
        raise RackError(f"the rack {rack!r} is empty: give at least one {rules.piece_word}")
    return tuple(pieces), counts_of(int(x) for x in pieces)


def _int_arg(name: str, value: Any, default: int) -> int:
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
        raise RulesError(f"{name} must be a whole number >= 0 (or None for the rules' own), "
                         f"got {value!r}")
    return int(value)


def _must_use(rules: Rules, rack: Sequence[Piece], must_use: Any) -> int:
    if must_use is None:
        return -1
    piece = rules.parse_rack([must_use] if not isinstance(must_use, str) else must_use)
    if len(piece) != 1:
        raise RackError(f"must_use must be one {rules.piece_word}, got {must_use!r}")
    code = int(piece[0])
    if code not in (int(t) for t in rack):
        raise RackError(f"must_use {piece[0]} is not on the rack {format_tiles(rack)}: "
                        f"{rules.must_use_reason}")
    return code


def keeps_card(rules: Rules | str, pieces: int) -> bool:
    """Must the best melds of a rack of ``pieces`` pieces leave one on it (to discard)?

    Rummy 101 and Remi: always (R101-7, R101-12, RO-13). Classic (CR-4): with ``go_out=broad`` a
    hand may be melded whole; with ``go_out=narrow`` only in the seed's case, a hand of three
    cards (two held and the one drawn, Q♣ Q♠ + Q♥) laid as one meld; every other hand keeps a
    card to discard.

    >>> keeps_card(Rules.parse("classic"), 7), keeps_card(Rules.parse("classic(go_out=narrow)"), 7)
    (False, True)
    >>> keeps_card(Rules.parse("classic(go_out=narrow)"), 3)
    False
    """
    rules = _rules(rules)  # a rules text too, and RulesError (not AttributeError) for anything else
    if isinstance(pieces, bool) or not isinstance(pieces, (int, np.integer)) or pieces < 0:
        raise RackError(f"pieces must be the number of pieces on the rack, a whole number >= 0, "
                        f"got {pieces!r:.60}")
    if rules.keep_discard:
        return True
    return rules.opts.go_out == "narrow" and int(pieces) != 3


def keeps_cards(rules: Rules, sizes: Any) -> Any:
    """:func:`keeps_card` for an array of rack sizes: a bool array."""
    sizes = np.asarray(sizes)
    if rules.keep_discard or rules.opts.go_out != "narrow":
        return np.full(sizes.shape, rules.keep_discard)
    return sizes != 3  # CR-4 go_out=narrow: only a hand of three may be melded whole


# ---- building answers -----------------------------------------------------------------------
def _melds(rules: Rules, core_melds: Sequence[tuple[int, Sequence[int], Sequence[int]]]) -> tuple[Meld, ...]:
    return tuple(Meld.from_core(rules, kind, tiles, stand) for kind, tiles, stand in core_melds)


def _rest(rules: Rules, rack: Sequence[Piece], used: Iterable[int]) -> tuple[Piece, ...]:
    counts = counts_of(int(t) for t in rack)
    for code in used:
        counts[code] -= 1
    piece = rules.piece
    return tuple(piece(c) for c in range(len(counts)) for _ in range(counts[c]))


def _pairs_bound(rules: Rules, counts: list[int]) -> int:
    """At most this many pairs: one per two equal real tiles, one per joker (R101-5)."""
    if rules.copies == 2:
        return counts.count(2) - (counts[52] == 2) + counts[52]
    real = counts[:52]
    return sum(k // 2 * real.count(k) for k in range(2, rules.copies + 1)) + counts[52]


def _opening_from(rules: Rules, rack: tuple[Piece, ...] | str, threshold: int, pairs_threshold: int,
                  mu: int, value: int, found: tuple[Any, ...], n_melds: int, counts: list[int],
                  keep: bool) -> Opening:
    """The opening of one rack from its core ``solve_melds`` answer: ``value``, ``found`` (the
    melds as an answer's core, ("melds", core melds) or ("batch", SolvedMelds, i)) and their
    number (``rack``: its pieces, or a text rack the token table reads)."""
    if value >= threshold and n_melds:
        return Opening._lazy(rules, rack, "melds", value, found, threshold, pairs_threshold)
    core = _backend.core()
    # a pair is two equal real tiles or a real tile and a joker: fewer than the pairs needed
    # possible at all, and the pairs search (whose answer could not be used) is not run
    if rules.pairs_allowed and _pairs_bound(rules, counts) >= max(1, pairs_threshold):
        n_pairs, pairs = core.max_pairs(counts, keep, mu, current_budget())
        if n_pairs >= pairs_threshold and n_pairs > 0:
            return Opening._lazy(rules, rack, "pairs", n_pairs, ("pairs", pairs), threshold,
                                 pairs_threshold)
    if value < 0:  # the constraints (must_use, a run) cannot be met: show the best selection
        cr = _core_rules(rules, "open")
        value, core_melds = core.solve_melds(cr, counts, keep, -1, False, current_budget())
        value = max(value, 0)
        found = ("melds", core_melds)
    return Opening._lazy(rules, rack, None, value, found, threshold, pairs_threshold)


def _params(rules: Rules, threshold: Any, pairs_threshold: Any) -> tuple[int, int]:
    t = _int_arg("threshold", threshold, rules.opening_points)
    if pairs_threshold is not None and not rules.pairs_allowed:
        raise RulesError(f"pairs_threshold {pairs_threshold!r}: {rules.variant} has no pairs "
                         "opening (only rummy101, R101-8)")
    p = _int_arg("pairs_threshold", pairs_threshold, rules.pairs_opening)
    return t, p


def solve_opening(rules: Rules | str, rack: RackLike, *, threshold: int | None = None,
                  pairs_threshold: int | None = None, must_use: Any = None) -> Opening:
    """The best opening of ``rack`` under ``rules`` (see the module docstring).

    ``threshold`` / ``pairs_threshold`` override the rules' own (R101-14 increasing mode);
    ``must_use`` is a tile just taken from the discard pile that the opening has to contain.

    >>> o = solve_opening("rummy101", "R5 R5 Y7 Y7 B2 B2 K9 K9 * R1 K13")
    >>> o.kind, [str(m) for m in o.melds], [str(t) for t in o.rest]   # the joker with K13
    ('pairs', ['R5 R5', 'Y7 Y7', 'B2 B2', 'K9 K9', 'K13 *'], ['R1'])
    >>> solve_opening("remi", "Y5 B5 K5 R5 R7 R8 R9 R10 K2").to_json()["value"]
    45
    """
    r = _rules(rules)
    source, counts = _rack_source(r, rack)
    t, p = _params(r, threshold, pairs_threshold)
    mu = -1 if must_use is None else _must_use(r, _pieces_of(r, source), must_use)
    cr = _core_rules(r, "open")
    keep = r.keep_discard or keeps_card(r, sum(counts))
    value, melds = _backend.core().solve_melds(cr, counts, keep, mu, r.opening_needs_run, current_budget())
    return _opening_from(r, source, t, p, mu, value, ("melds", melds), len(melds), counts, keep)


_NO_LIMIT = 1 << 62


def _pieces_of(rules: Rules, source: tuple[Piece, ...] | str) -> tuple[Piece, ...]:
    """The pieces of a rack: given, or a text rack that the token table reads."""
    if not isinstance(source, str):
        return source
    table, by_code = _token_table(rules.family)
    return tuple(by_code[table[w]] for w in source.split())


def _check_batch(racks: Any) -> None:
    """Refuse what is no list of racks: one text rack (read one character a rack, "token 1 of
    1 ('R')"), a non-iterable, and a mapping or set (iterated as keys or in no order, so the
    answers could not be matched to the racks)."""
    if isinstance(racks, (str, bytes)) or not isinstance(racks, Iterable):
        raise NotationError(f"racks must be a list of racks (e.g. ['R1 R2 R3 K9']), got "
                            f"{type(racks).__name__} {racks!r:.60}; use solve_opening for one rack")
    if isinstance(racks, (Mapping, set, frozenset)):  # dict views keep the dict's order
        raise NotationError(f"racks must be a list of racks (e.g. ['R1 R2 R3 K9']), got "
                            f"{type(racks).__name__} {racks!r:.60}: the answers come in the racks' "
                            "order, which a mapping or set does not keep; pass list(...) of the racks")


def _read_racks(rules: Rules, racks: Any) -> tuple[list[Any], Any]:
    """A batch's racks: (sources for :func:`_pieces_of`, their (n, 53) uint8 count array). Text
    racks are read by the core's token table in one call; any other rack, and every mistake,
    goes through :meth:`Rules.parse_rack` in order, so the first bad rack raises
    :func:`solve_opening`'s error with its place in the batch (``racks[3]: ...``)."""
    _check_batch(racks)
    items = racks if isinstance(racks, list) else list(racks)
    if not items:
        return [], np.zeros((0, 53), dtype=np.uint8)
    table, _ = _token_table(rules.family)
    arr, _codes, _offsets, ok = _backend.core().tokenize_racks(items, table, rules.copies,
                                                               rules.max_rack_jokers, False,
                                                               _NO_LIMIT, _NO_LIMIT)
    sources: list[Any] = items  # text racks read by the table; the others' pieces below
    if not ok.all():
        sources = list(items)
        for i in np.flatnonzero(~ok).tolist():  # in order: the first bad rack raises
            try:
                sources[i], counts = _rack_source(rules, items[i])
            except RummyError as exc:  # solve_opening's message, with the rack's place in the batch
                raise type(exc)(f"racks[{i}]: {exc}") from None
            arr[i] = counts
    return sources, arr


def _batch_must_use(rules: Rules, sources: Sequence[Any], arr: Any, must_use: Any) -> int:
    """``must_use`` of a batch (every rack must hold it): its code, or -1 for None."""
    if must_use is None:
        return -1
    # the token's own mistakes and "not on the rack" for the first rack, as before
    mu = _must_use(rules, _pieces_of(rules, sources[0]), must_use)
    missing = np.flatnonzero(arr[:, mu] == 0)
    if missing.size:  # the first rack without it: the same message as solve_opening's
        _must_use(rules, _pieces_of(rules, sources[int(missing[0])]), must_use)
    return mu


def solve_openings(rules: Rules | str, racks: Iterable[RackLike], *, threshold: int | None = None,
                   pairs_threshold: int | None = None, must_use: Any = None) -> list[Opening]:
    """:func:`solve_opening` on many racks at once (the native core solves them without the GIL).
    ``must_use``, when given, applies to every rack. Each rack has its own work budget; when a
    rack spends it, :class:`~rummy101.errors.WorkBudgetExceeded` names that rack (``index``) and
    carries the other racks' answers (``partial``, None where the budget was spent).

    Text racks are read by the core's token table in one call (``tokenize_racks``); a rack with
    any other token, form or mistake goes through :meth:`Rules.parse_rack` as in
    :func:`solve_opening`, so the answers are the same, and the first bad rack raises
    :func:`solve_opening`'s error with its place in the batch before the message
    (``racks[3]: token 2 of 4 ('X9') is not a tile ...``). The answers' melds stay
    packed in the core (about 10 bytes a meld, shared by the answers of one call) until an
    answer's ``melds``, ``rest`` or JSON is first read.

    >>> [o.kind for o in solve_openings("rummy101", ["R1 R2 R3 K9", "R5 R5 Y7 Y7 B2 B2 K9 K9 * K1 K2"])]
    [None, 'pairs']
    """
    r = _rules(rules)
    t, p = _params(r, threshold, pairs_threshold)
    sources, arr = _read_racks(r, racks)
    if not sources:
        return []
    core = _backend.core()
    items = sources
    mu = _batch_must_use(r, sources, arr, must_use)
    cr = _core_rules(r, "open")
    budget = current_budget()
    keeps = keeps_cards(r, arr.sum(axis=1, dtype=np.int64))
    # the melds stay packed in the core (SolvedMelds) until an answer's melds are read
    n = len(items)
    rows = np.flatnonzero(keeps)
    if rows.size in (0, n):  # one batch per keep (classic go_out=narrow mixes them)
        values_a, sizes_a, packed = core.solve_melds_packed(cr, arr, rows.size == n, mu,
                                                            r.opening_needs_run, budget)
        values, sizes = values_a.tolist(), sizes_a.tolist()
        refs: list[tuple[str, Any, int]] = [("batch", packed, i) for i in range(n)]
    else:
        values, sizes, refs = [0] * n, [0] * n, [("batch", None, 0)] * n
        for keep in (False, True):
            part_rows = np.flatnonzero(keeps == keep).tolist()
            v, z, packed = core.solve_melds_packed(cr, arr[part_rows], keep, mu, r.opening_needs_run,
                                                   budget)
            for j, i in enumerate(part_rows):
                values[i], sizes[i], refs[i] = int(v[j]), int(z[j]), ("batch", packed, j)
    # at most this many pairs per rack (_pairs_bound): below the pairs needed, no pairs search
    pairs_bound = ((arr[:, :52] // 2).sum(axis=1, dtype=np.int64) + arr[:, 52]).tolist()
    need = max(1, p) if r.pairs_allowed else _NO_LIMIT
    lazy = Opening._lazy
    melds_kind: OpeningKind = "melds"
    out: list[Opening | None] = []
    spent: list[int] = []
    for i, value in enumerate(values):
        if value >= t and sizes[i]:
            out.append(lazy(r, sources[i], melds_kind, value, refs[i], t, p))
        elif value >= 0 and pairs_bound[i] < need:
            out.append(lazy(r, sources[i], None, value, refs[i], t, p))
        elif value == BUDGET_SPENT:
            out.append(None)
            spent.append(i)
        else:
            try:
                out.append(_opening_from(r, sources[i], t, p, mu, value, refs[i], sizes[i],
                                         arr[i].tolist(), bool(keeps[i])))
            except WorkBudgetExceeded:
                out.append(None)
                spent.append(i)
    if spent:
        raise _spent(spent, budget, list(out))
    return out  # type: ignore[return-value]


def _spent(spent: list[int], budget: int, partial: list[object]) -> WorkBudgetExceeded:
    """The error of a batch whose racks ``spent`` (in order) spent their budget: it names the
    first and carries the batch's answers (None where spent)."""
    more = f" (and {len(spent) - 1} more)" if len(spent) > 1 else ""
    return WorkBudgetExceeded(f"rack {spent[0]}{more}: {budget_message(budget)}", budget, spent[0],
                              partial)


def opening_values(rules: Rules | str, racks: Any, *, must_use: Any = None) -> Any:
    """The value of each rack's best opening runs and sets, as a numpy ``int64`` array, without
    making the arrangement (the core's ``solve_values_batch``: no rebuild, no answer objects).

    The value is :func:`solve_opening`'s for a runs/sets answer: the opening valuation, a piece
    kept when the rules keep one (R101-7, RO-13, CR-4), a run in Remi (RO-8), ``must_use`` laid
    (R101-4); -1 where no selection meets those. A pairs opening (R101-8) is not a value of runs
    and sets: ask :func:`solve_openings` for it. So ``opening_values(...)[i] ==
    solve_openings(...)[i].value`` whenever that answer's ``kind`` is not ``"pairs"`` and the
    value is not -1. Compare with the threshold to ask "can these racks open with melds?".

    ``racks``: what :func:`solve_openings` takes (text racks or lists of pieces, read the same
    way, with the same errors), or a 2-D integer array of tile counts, shape (n, 53), in the
    core's codes (``rummy101.tiles.counts_of``), checked against the rules' supply. Each rack has
    its own work budget; when one spends it, :class:`~rummy101.errors.WorkBudgetExceeded` names
    it (``index``) and carries the others' values (``partial``, None where spent).

    >>> opening_values("rummy101", ["R10 R11 R12 Y12 B12 K12 K13", "R1 R2 R3 K9", "R5 R5"]).tolist()
    [69, 6, 0]
    >>> from rummy101.tiles import counts_of, parse_tiles
    >>> counts = np.array([counts_of(parse_tiles(t)) for t in ("Y5 B5 K5 R5 R7 R8 R9 R10 K2", "R1 R2 R3 K9")])
    >>> opening_values("remi", counts).tolist()      # the second: 15 points, below 45 (RO-8)
    [45, 15]
    """
    r = _rules(rules)
    if isinstance(racks, np.ndarray) and (racks.ndim != 1 or racks.dtype.kind in "iub"):
        sources, arr = _count_rows(r, racks)
    else:
        if isinstance(racks, np.ndarray):  # a 1-D array of text racks
            racks = racks.tolist()
        elif isinstance(racks, Iterable) and not isinstance(racks, (str, bytes, list)):
            _check_batch(racks)
            racks = list(racks)
        if isinstance(racks, list) and racks and _looks_like_counts(racks[0]):
            raise RackError(f"racks[0] is a list of {len(racks[0])} numbers, a tile count vector: "
                            "pass count vectors as one 2-D array, np.array(racks), shape (n, 53)")
        sources, arr = _read_racks(r, racks)
    if not sources:
        return np.zeros(0, dtype=np.int64)
    mu = _batch_must_use(r, sources, arr, must_use)
    core = _backend.core()
    cr = _core_rules(r, "open")
    budget = current_budget()
    keeps = keeps_cards(r, arr.sum(axis=1, dtype=np.int64))
    rows = np.flatnonzero(keeps)
    if rows.size in (0, arr.shape[0]):  # one batch per keep (classic go_out=narrow mixes them)
        values = core.solve_values_batch(cr, arr, rows.size > 0, mu, r.opening_needs_run, budget)
    else:
        values = np.zeros(arr.shape[0], dtype=np.int64)
        for keep in (False, True):
            part = np.flatnonzero(keeps == keep)
            values[part] = core.solve_values_batch(cr, arr[part], keep, mu, r.opening_needs_run, budget)
    spent = np.flatnonzero(values == BUDGET_SPENT).tolist()
    if spent:
        raise _spent(spent, budget, [None if v == BUDGET_SPENT else v for v in values.tolist()])
    return values


def _looks_like_counts(rack: Any) -> bool:
    """A rack given as 53 small whole numbers: a count vector (``counts_of``), not 53 tile codes
    (which would hold one code 18 times or more)."""
    if isinstance(rack, np.ndarray):
        return rack.ndim == 1 and rack.shape[0] == 53 and rack.dtype.kind in "iu"
    return (isinstance(rack, (list, tuple)) and len(rack) == 53
            and all(isinstance(x, (int, np.integer)) and not isinstance(x, bool) and 0 <= x <= 6
                    for x in rack))


def _count_rows(rules: Rules, counts: Any) -> tuple[Any, Any]:
    """A 2-D array of tile counts as a batch (:func:`opening_values`), checked against the rules'
    supply: (each rack's pieces, the (n, 53) uint8 array)."""
    if counts.ndim != 2:
        one = " (one rack: np.array([counts]))" if counts.ndim == 1 else ""
        raise RackError(f"racks as counts must be a 2-D array of shape (n, 53) (rummy101.tiles."
                        f"counts_of of each rack), got {counts.ndim}-D of shape {counts.shape}{one}")
    if counts.shape[1] != 53 or counts.dtype.kind not in "iu":
        raise RackError(f"racks as counts must be integers of shape (n, 53) (rummy101.tiles."
                        f"counts_of of each rack), got {counts.dtype} of shape {counts.shape}")
    limits = np.full(53, rules.copies, dtype=np.int64)
    limits[52] = rules.max_rack_jokers
    bad = np.argwhere((counts < 0) | (counts > limits))
    _table, by_code = _token_table(rules.family)
    if bad.size:
        i, code = (int(x) for x in bad[0])
        n = int(counts[i, code])
        what = ("joker" if n == 1 else "jokers") if code == 52 else f"copies of {by_code[code]}"
        most = "none" if limits[code] == 0 else f"at most {limits[code]}"
        raise RackError(f"racks[{i}]: {n} {what}; a {rules.variant} rack holds "
                        f"{most} (its tile supply)")
    sizes = counts.sum(axis=1)
    if (sizes == 0).any():
        i = int(np.flatnonzero(sizes == 0)[0])
        raise RackError(f"racks[{i}]: the rack is empty: give at least one {rules.piece_word}")
    arr = counts.astype(np.uint8)
    return _RowPieces(arr, by_code), arr


class _RowPieces:
    """The pieces of each row of a count array, made only for the rows asked for (the must_use
    messages of :func:`_batch_must_use`)."""

    def __init__(self, arr: Any, by_code: list[Piece]) -> None:
        self.arr, self.by_code = arr, by_code

    def __len__(self) -> int:
        return int(self.arr.shape[0])

    def __getitem__(self, i: int) -> tuple[Piece, ...]:
        return tuple(self.by_code[c] for c in np.repeat(np.arange(53), self.arr[i]).tolist())


def solve_penalty(rules: Rules | str, rack: RackLike, *, keep: bool | None = None) -> Penalty:
    """The arrangement of ``rack`` that leaves the least penalty (R101-13: joker 101; RO-12:
    1 -> 25, Joly 50; CR-2). ``keep``: a piece stays on the rack to discard; by default
    (``None``) as the variant finishes (:func:`keeps_card`): always in Rummy 101 and Remi
    (R101-12, RO-13), in classic only where CR-4 needs a final discard, so a classic hand that
    melds whole leaves nothing.

    >>> solve_penalty("rummy101", "R5 R6 R7 *", keep=False).penalty
    0
    >>> solve_penalty("remi", "R1 R2 R3 K9").penalty     # R1-R2-R3 laid, K9 kept
    5
    >>> solve_penalty("classic", "AS 2S 3S").penalty, solve_penalty("classic", "AS 2S 3S", keep=True).penalty
    (0, 6)
    """
    r = _rules(rules)
    pieces = _rack(r, rack)
    if keep is None:
        keep = keeps_card(r, len(pieces))
    elif not isinstance(keep, bool):
        raise RulesError(f"keep must be True, False or None, got {keep!r}")
    counts = counts_of(int(x) for x in pieces)
    core = _backend.core()
    cr = _core_rules(r, "penalty")
    value, core_melds = core.solve_melds(cr, counts, keep, -1, False, current_budget())
    if value < 0:  # only when keep and the rack is empty, which _rack rejects
        raise RackError(f"no arrangement of {format_tiles(pieces)} keeps a tile")
    melds = _melds(r, core_melds)
    rest = _rest(r, pieces, [c for m in core_melds for c in m[1]])
    penalty = int(core.rack_value(cr, counts)) - value
    return Penalty(r, tuple(pieces), keep, penalty, melds, rest)

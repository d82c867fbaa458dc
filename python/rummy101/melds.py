"""Melds: runs, sets and pairs, their values, the tiles they take and the jokers they give up.

Geometry and values come from the rule set (variants as data, docs/DESIGN.md "CoreRules"):

* **run** — >= 3 consecutive numbers of one colour, ascending in table order; 1 is low only
  (R101-5, CR-2: 12-13-1 and Q-K-A are no runs) except in ``remi``, where 12-13-1 and the
  14-tile 1-2-...-13-1 are runs but 13-1-2 is not (RO-6);
* **set** — 3 or 4 tiles of one number in different colours (suits for cards); a set of four is
  complete (RO-6);
* **pair** — two equal tiles, or a tile and a joker (R101-5; only where ``rules.pairs_allowed``);
* a joker keeps the position it fills (RO-7): in ``R9 R10 *`` it is R11; in a set the k-th
  joker stands for the k-th colour (R Y B K) missing from the real tiles; every meld holds at
  least one numbered tile (R101-5 interpretation) and in ``remi`` at least twice as many real
  tiles as Jolys (RO-7). A meld of 3-4 tiles that could be a run or a set (``R5 * *``) is read
  as a run; use ``Meld.parse(..., kind="set")`` for the set.

>>> info = check_meld("rummy101", "R10 * R12")
>>> info.valid, info.kind, info.open_value, {i: str(t) for i, t in info.jokers.items()}
(True, 'run', 33, {1: 'R11'})
>>> [(p, str(t)) for p, t in info.additions if not t.is_joker]
[(0, 'R9'), (3, 'R13')]
>>> check_meld("rummy101", "R7 R7 B7").reason
'R7 R7 B7 is no set: the tiles of a set must all have different colours (R101-5)'
>>> Meld.parse("remi", "R12 R13 R1").to_json()
{'kind': 'run', 'tiles': ['R12', 'R13', 'R1'], 'value': 30, 'jokers': {}}
>>> rack_penalty("remi", "R1 R5 K12 *")
90
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, Literal, Union, cast

from . import _backend
from ._pure import melds as _pure_melds
from .errors import IllegalAction, NotationError
from .rules import Rules, Valuation
from .tiles import (
    HIGH_ACE,
    JOKER_CODE,
    MELD_KINDS,
    NUM_NUMBERS,
    Card,
    Tile,
    counts_of,
    format_tiles,
)

__all__ = [
    "Meld",
    "MeldInfo",
    "MeldKind",
    "MeldReason",
    "check_meld",
    "joker_releases",
    "meld_additions",
    "rack_penalty",
    "reason_message",
]

MeldKind = Literal["run", "set", "pair"]
Piece = Tile | Card
RulesLike = Rules | str
MeldLike = Union[str, Iterable[Any], "Meld"]

_KIND_NAMES = cast("dict[int, MeldKind]", MELD_KINDS)
_KIND_CODES: dict[str, int] = {v: k for k, v in _KIND_NAMES.items()}


class MeldReason(IntEnum):
    """Why tiles are no meld. Codes 0-12 are the core's (cpp/include/rummy101/melds.hpp);
    ``PAIR_NOT_ALLOWED`` is decided here from ``rules.pairs_allowed``, ``NOT_THAT_KIND`` when
    :func:`check_meld` is asked for a reading (``kind``) that the tiles do not have."""

    OK = 0
    TOO_SHORT = 1
    TOO_LONG = 2
    NO_REAL_TILE = 3
    NOT_A_PAIR = 4
    JOKER_RATIO = 5
    SET_REPEATED_COLOUR = 6
    SET_TOO_LONG = 7
    RUN_NOT_CONSECUTIVE = 8
    RUN_OUT_OF_RANGE = 9
    RUN_HIGH_ACE = 10
    RUN_WRAPS = 11
    MIXED = 12
    PAIR_NOT_ALLOWED = 13
    NOT_THAT_KIND = 14


# Which rule of record each variant's meld geometry comes from (for messages only).
_MELD_RULE = {"rummy101": "R101-5", "remi": "RO-6", "classic": "CR-3"}
_ACE_RULE = {"rummy101": "R101-5", "remi": "RO-6", "classic": "CR-2"}


def reason_message(rules: RulesLike, reason: int, tiles: Iterable[Piece] = ()) -> str:
    """The human message for an invalid-reason code, quoting the tiles and citing the rule.

    >>> reason_message("classic", MeldReason.RUN_HIGH_ACE, [Card("QS"), Card("KS"), Card("AS")])
    'QS KS AS is no run: aces are low only, so Q-K-A and K-A-2 are no runs (CR-2)'
    """
    r = Rules.parse(rules)
    text = format_tiles(tiles) or "an empty meld"
    cards = r.family == "cards"
    colour = "suit" if cards else "colour"
    joker = "Joly" if r.variant == "remi" else "joker"
    rule = _MELD_RULE[r.variant]
    try:
        code = MeldReason(reason)
    except ValueError:
        raise NotationError(f"{reason!r} is not a meld reason code; codes are 0-{len(MeldReason) - 1}") from None
    if code is MeldReason.OK:
        return f"{text} is a valid meld"
    if code is MeldReason.TOO_SHORT:
        pair = ", or 2 for a pair" if r.pairs_allowed else ""  # rummy101 only: rule is R101-5
        return f"{text} is too short: a run or set needs at least 3 tiles{pair} ({rule})"
    if code is MeldReason.TOO_LONG:
        longest = "14 (1-2-...-13-1)" if r.high_ace else "13 (1-2-...-13)"
        return f"{text} is too long: the longest run has {longest} tiles ({rule})"
    if code is MeldReason.NO_REAL_TILE:
        return f"{text} holds only {joker}s: a meld needs at least one numbered tile (R101-5)"
    if code is MeldReason.NOT_A_PAIR:
        return (f"{text} is no pair: a pair is two tiles of the same number and colour, or one "
                f"tile and a joker (R101-5: R7 R7 and R7 * are pairs, R7 B7 is not)")
    if code is MeldReason.JOKER_RATIO:
        return (f"{text} holds too many {joker}s: a meld needs at least {r.joker_ratio} times as "
                f"many real tiles as {joker}s (RO-7: a 3-tile meld holds at most one, two "
                f"{joker}s need at least four real tiles)")
    if code is MeldReason.SET_REPEATED_COLOUR:
        return f"{text} is no set: the tiles of a set must all have different {colour}s ({rule})"
    if code is MeldReason.SET_TOO_LONG:
        return f"{text} is no set: a set has 3 or 4 tiles, one per {colour} ({rule})"
    if code is MeldReason.RUN_NOT_CONSECUTIVE:
        return (f"{text} is no run: a run is consecutive numbers of one {colour} in ascending "
                f"order ({rule})")
    if code is MeldReason.RUN_OUT_OF_RANGE:
        span = "1 to 13 and a final high 1" if r.high_ace else "1 to 13"
        return (f"{text} is no run: with its {joker}s in place it would reach beyond {span} "
                f"({rule}, RO-7: a {joker} keeps its position)" if not cards else
                f"{text} is no run: it would reach beyond A to K ({rule})")
    if code is MeldReason.RUN_HIGH_ACE:
        if cards:
            return f"{text} is no run: aces are low only, so Q-K-A and K-A-2 are no runs (CR-2)"
        return (f"{text} is no run: 1 is low only in {r.variant}, so nothing follows 13 "
                f"(12-13-1 is no run, {_ACE_RULE[r.variant]})")
    if code is MeldReason.RUN_WRAPS:
        return (f"{text} is no run: a run does not wrap around from 13 to 1 (13-1-2 is no run, "
                f"{_ACE_RULE[r.variant]})")
    if code is MeldReason.MIXED:
        return (f"{text} is neither a run (one {colour}, consecutive numbers) nor a set (one "
                f"number, different {colour}s) ({rule})")
    if code is MeldReason.NOT_THAT_KIND:
        return f"{text} is not a meld of the kind asked for ({rule})"
    return (f"{text} is a pair, but pairs are melds only in rummy101 (R101-5); in {r.variant} a "
            f"run or set needs at least 3 tiles ({rule})")


# --------------------------------------------------------------------------------------------
# input handling: lenient at the door, strict inside
# --------------------------------------------------------------------------------------------
def _rules(rules: RulesLike) -> Rules:
    return Rules.parse(rules)


def _pieces(rules: Rules, tiles: MeldLike) -> list[Piece]:
    if isinstance(tiles, Meld):
        tiles = tiles.tiles
    return list(rules.parse_rack(tiles, "meld"))


def _run_numbers(stand_for: Sequence[int]) -> list[int]:
    """Run positions 1..14 of a run's stand-for codes (a 1 after the first tile is the high ace)."""
    return [HIGH_ACE if (c % NUM_NUMBERS == 0 and i > 0) else c % NUM_NUMBERS + 1
            for i, c in enumerate(stand_for)]


# --------------------------------------------------------------------------------------------
# Meld
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class Meld:
    """A valid run, set or pair of a rule set: ``tiles`` in table order (a joker at the position
    it fills) and ``stand_for``, what each position represents.

    Build one with :meth:`parse` (from notation) or :meth:`from_core` (from a core result);
    both check it, so a ``Meld`` is always valid under its ``rules``.

    >>> m = Meld.parse("rummy101", "R10 * R12")
    >>> str(m), m.kind, m.value(), m.jokers
    ('R10 * R12', 'run', 33, {1: Tile('R11')})
    >>> m.value("rummy101", "penalty")          # the joker left on a rack would cost 101
    123
    >>> Meld.parse("rummy101", "R5 * *", kind="set").stand_for
    (Tile('R5'), Tile('Y5'), Tile('B5'))
    """

    kind: MeldKind
    tiles: tuple[Piece, ...]
    stand_for: tuple[Piece, ...]
    rules: Rules

    def __post_init__(self) -> None:
        _check_meld_record(self.rules, self.kind, self.tiles, self.stand_for)

    # ---- construction -------------------------------------------------------------------
    @classmethod
    def from_core(cls, rules: RulesLike, kind: int | str, tiles: Sequence[int],
                  stand_for: Sequence[int]) -> Meld:
        """Turn a core result ``(kind, tiles, stand_for)`` (codes) into a checked ``Meld``.

        >>> Meld.from_core("rummy101", 2, [4, 17, 52], [4, 17, 30])
        Meld.parse('rummy101', 'R5 Y5 *', kind='set')
        """
        r = _rules(rules)
        if isinstance(kind, str):
            name = kind
        elif isinstance(kind, int) and kind in _KIND_NAMES:
            name = _KIND_NAMES[kind]
        else:
            raise NotationError(f"meld kind {kind!r} is not one of run/set/pair or 1/2/3")
        piece = r.piece
        try:
            t = tuple(piece(int(c)) for c in tiles)
            s = tuple(piece(int(c)) for c in stand_for)
        except (TypeError, ValueError) as exc:
            raise NotationError(f"meld codes {list(tiles)!r} / {list(stand_for)!r} are not "
                                f"{piece.__name__.lower()} codes: {exc}") from None
        return cls(kind=name, tiles=t, stand_for=s, rules=r)  # type: ignore[arg-type]

    @classmethod
    def parse(cls, rules: RulesLike, tiles: MeldLike, *, kind: MeldKind | None = None) -> Meld:
        """Parse and check a meld; raise :class:`IllegalAction` (quoting the rule) if the tiles
        are no meld. ``kind`` chooses the reading of an ambiguous meld (``R5 * *``).

        >>> Meld.parse("rummy101", "R7 B7")
        Traceback (most recent call last):
        ...
        rummy101.errors.IllegalAction: R7 B7 is no pair: a pair is two tiles of the same number and colour, or one tile and a joker (R101-5: R7 R7 and R7 * are pairs, R7 B7 is not)
        """
        r = _rules(rules)
        info = check_meld(r, tiles)
        if not info.valid:
            raise IllegalAction(info.reason)
        assert info.meld is not None
        if kind is None or kind == info.kind:
            return info.meld
        codes = [int(p) for p in info.tiles]
        if kind == "set":
            sf = _pure_melds._set_stand_for(codes)
            if sf is not None:
                return cls.from_core(r, "set", codes, sf)
        if kind not in _KIND_CODES:
            raise NotationError(f"meld kind {kind!r} is not one of run, set, pair")
        raise IllegalAction(f"{format_tiles(info.tiles)} is a {info.kind}, not a {kind} "
                            f"({_MELD_RULE[r.variant]})")

    # ---- views --------------------------------------------------------------------------
    @property
    def jokers(self) -> dict[int, Piece]:
        """Index of each joker in ``tiles`` -> the tile it stands for (CONTRACT.md)."""
        return {i: s for i, (t, s) in enumerate(zip(self.tiles, self.stand_for)) if t.is_joker}

    def value(self, rules: RulesLike | None = None, valuation: Valuation = "open") -> int:
        """The meld's value under ``rules`` (default: its own) and a valuation: ``"open"`` for
        openings / first lay-downs (R101-6, RO-8, CR-2), ``"penalty"`` for tiles left on a rack
        (R101-13, RO-12): a joker is worth what it stands for, or its fixed penalty value."""
        r = self.rules if rules is None else _rules(rules)
        p = r.params(valuation)
        if r != self.rules:  # the meld must be one under the other rules too (e.g. 12-13-1)
            _check_meld_record(r, self.kind, self.tiles, self.stand_for)
        codes = [int(s) for s in self.stand_for]
        if self.kind == "run":
            base = [p.run_value[n] for n in _run_numbers(codes)]
        else:
            base = [p.set_value[c % NUM_NUMBERS + 1] for c in codes]
        return sum(p.joker_value if (t.is_joker and p.joker_value >= 0) else v
                   for t, v in zip(self.tiles, base))

    def to_json(self) -> dict[str, Any]:
        """``{"kind", "tiles", "value", "jokers"}`` as in CONTRACT.md (value under the meld's
        rules, opening valuation; joker indices as strings)."""
        return {"kind": self.kind, "tiles": [str(t) for t in self.tiles], "value": self.value(),
                "jokers": {str(i): str(s) for i, s in self.jokers.items()}}

    def __str__(self) -> str:
        return format_tiles(self.tiles)

    def __repr__(self) -> str:
        return f"Meld.parse({str(self.rules)!r}, {str(self)!r}, kind={self.kind!r})"

    def __len__(self) -> int:
        return len(self.tiles)


def _check_meld_record(rules: Any, kind: Any, tiles: Any, stand_for: Any) -> None:
    """Strict check of a Meld record: types, kind, and that tiles/stand_for form that meld."""
    if not isinstance(rules, Rules):
        raise NotationError(f"Meld.rules must be a Rules object, got {type(rules).__name__}; "
                            "use Meld.parse or Meld.from_core")
    if kind not in _KIND_CODES:
        raise NotationError(f"meld kind {kind!r} is not one of run, set, pair")
    piece = rules.piece
    for name, seq in (("tiles", tiles), ("stand_for", stand_for)):
        if not isinstance(seq, tuple) or not all(isinstance(x, piece) for x in seq):
            raise NotationError(f"Meld.{name} must be a tuple of {piece.__name__} for {rules.variant}, "
                                f"got {seq!r}")
    text = format_tiles(tiles)
    if len(tiles) != len(stand_for):
        raise IllegalAction(f"meld {text}: stand_for {format_tiles(stand_for)} has "
                            f"{len(stand_for)} entries for {len(tiles)} tiles")
    for t, s in zip(tiles, stand_for):
        if s.is_joker or (not t.is_joker and t != s):
            raise IllegalAction(f"meld {text}: position of {t} cannot stand for {s}")
    if kind == "pair" and not rules.pairs_allowed:
        raise IllegalAction(reason_message(rules, MeldReason.PAIR_NOT_ALLOWED, tiles))
    core = _backend.core()
    cr = _backend.core_rules(rules, "open")
    codes = [int(t) for t in tiles]
    k, _, reason = core.classify_meld(cr, codes)
    if k == 0:
        raise IllegalAction(reason_message(rules, reason, tiles))
    k2, _, _ = core.classify_meld(cr, [int(s) for s in stand_for])
    if k2 != _KIND_CODES[kind]:
        raise IllegalAction(f"meld {text} standing for {format_tiles(stand_for)} is no {kind} "
                            f"({_MELD_RULE[rules.variant]})")


# --------------------------------------------------------------------------------------------
# checking
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class MeldInfo:
    """Everything about some tiles as a meld, from :func:`check_meld`.

    ``open_value`` counts for openings / first lay-downs (R101-6, RO-8, CR-2); ``end_value``
    is what the tiles count at round end (R101-13 with a joker at 101, RO-12 end values);
    ``jokers`` maps each joker index to the tile it stands for; ``additions`` lists every single
    tile ``(position, tile)`` that keeps the meld valid (R101-11, RO-9.2); ``releases`` lists,
    per joker index, the alternative tile groups that free that joker (R101-9, RO-9.5/9.6).
    """

    rules: Rules
    tiles: tuple[Piece, ...]
    valid: bool
    kind: MeldKind | None
    reason_code: MeldReason
    reason: str | None
    open_value: int | None
    end_value: int | None
    jokers: dict[int, Piece]
    additions: tuple[tuple[int, Piece], ...]
    releases: tuple[tuple[int, tuple[tuple[Piece, ...], ...]], ...]
    meld: Meld | None

    def to_json(self) -> dict[str, Any]:
        """A JSON-able summary (tokens as canonical strings)."""
        return {
            "tiles": [str(t) for t in self.tiles], "valid": self.valid, "kind": self.kind,
            "reason": self.reason, "open_value": self.open_value, "end_value": self.end_value,
            "jokers": {str(i): str(s) for i, s in self.jokers.items()},
            "additions": [[p, str(t)] for p, t in self.additions],
            "releases": [[i, [[str(t) for t in alt] for alt in alts]] for i, alts in self.releases],
        }


def check_meld(rules: RulesLike, tiles: MeldLike, *, kind: MeldKind | None = None) -> MeldInfo:
    """Check tiles as a meld under ``rules``; never raises for a non-meld (``valid`` is False and
    ``reason`` says why), but raises NotationError / RackError / RulesError for bad input.

    ``kind`` asks for one reading: a set of one tile and jokers (``* * K13``, as a solver lays
    the 13s) reads as a run unless ``kind="set"``; tiles that are a meld of another kind are
    not valid as the kind asked for (``reason`` says which kind they are).

    >>> info = check_meld("remi", "R9 R10 *")
    >>> info.valid, [(p, str(t)) for p, t in info.additions]    # RO-7: R12 yes, R7 no
    (True, [(0, 'R8'), (3, 'R12')])
    >>> check_meld("remi", "R5 Y5 *").releases                  # RO-9.6: both missing colours
    ((2, ((Tile('B5'), Tile('K5')),)),)
    >>> check_meld("rummy101", "R5 Y5 *").releases              # R101-9: either one
    ((2, ((Tile('B5'),), (Tile('K5'),))),)
    >>> check_meld("rummy101", "* * K13").open_value, check_meld("rummy101", "* * K13", kind="set").open_value
    (36, 39)
    """
    if kind is not None and (not isinstance(kind, str) or kind not in _KIND_CODES):
        raise NotationError(f"meld kind {kind!r} is not one of run, set, pair")
    r = _rules(rules)
    pieces = tuple(_pieces(r, tiles))
    codes = [int(p) for p in pieces]
    core = _backend.core()
    cr = _backend.core_rules(r, "open")
    kind_code, sf, reason = core.classify_meld(cr, codes)
    if len(codes) == 2 and not r.pairs_allowed:
        reason = MeldReason.PAIR_NOT_ALLOWED if kind_code == 3 else MeldReason.TOO_SHORT
        kind_code = 0
    if kind_code == 0:
        return MeldInfo(r, pieces, False, None, MeldReason(reason),
                        reason_message(r, reason, pieces), None, None, {}, (), (), None)
    if isinstance(tiles, Meld) and tiles.rules == r and _KIND_CODES[tiles.kind] != kind_code \
            and kind in (None, tiles.kind):
        return _set_reading(tiles)
    if kind is not None and _KIND_CODES[kind] != kind_code:
        if kind == "set" and (sf := _pure_melds._set_stand_for(codes)) is not None:
            return _set_reading(Meld.from_core(r, "set", codes, sf))
        return MeldInfo(r, pieces, False, None, MeldReason.NOT_THAT_KIND,
                        f"{format_tiles(pieces)} is a {_KIND_NAMES[kind_code]}, not a {kind} "
                        f"({_MELD_RULE[r.variant]})", None, None, {}, (), (), None)
    piece = r.piece
    meld = Meld(kind=_KIND_NAMES[kind_code], tiles=pieces,
                stand_for=tuple(piece(c) for c in sf), rules=r)
    additions = tuple((p, piece(c)) for p, c in core.meld_additions(cr, codes)
                      if c != JOKER_CODE or r.max_rack_jokers > 0)
    releases = tuple((i, tuple(tuple(piece(c) for c in alt) for alt in alts))
                     for i, alts in core.joker_releases(cr, codes, r.set3_release_both))
    return MeldInfo(r, pieces, True, meld.kind, MeldReason.OK, None,
                    core.meld_value(cr, codes),
                    core.meld_value(_backend.core_rules(r, "penalty"), codes),
                    meld.jokers, additions, releases, meld)


def _set_reading(meld: Meld) -> MeldInfo:
    """MeldInfo of a set whose tiles the core reads as a run (``* * K13`` laid as a set of 13s
    by a solver): same rules as the core's set branch (docs/DESIGN.md, meld decisions)."""
    r, piece = meld.rules, meld.rules.piece
    codes = [int(t) for t in meld.tiles]
    sf_colours = [int(s) // NUM_NUMBERS for s in meld.stand_for]
    number = int(meld.stand_for[0]) % NUM_NUMBERS + 1
    real_colours = {c // NUM_NUMBERS for c in codes if c != JOKER_CODE}
    jokers = codes.count(JOKER_CODE)
    additions: list[tuple[int, Piece]] = []
    if len(codes) == 3:
        def sorts_in(colour: int) -> int:
            return sum(1 for x in sf_colours if x < colour)
        for col in range(4):
            if col not in real_colours:
                additions.append((sorts_in(col), piece(col * NUM_NUMBERS + number - 1)))
        if r.max_rack_jokers > 0 and len(codes) - jokers >= r.joker_ratio * (jokers + 1):
            free = next(col for col in range(4) if col not in sf_colours)
            additions.append((sorts_in(free), piece(JOKER_CODE)))
        additions.sort(key=lambda a: (a[0], int(a[1])))
    missing = [piece(col * NUM_NUMBERS + number - 1) for col in range(4) if col not in real_colours]
    alts: tuple[tuple[Piece, ...], ...]
    if r.set3_release_both and len(codes) == 3:
        alts = tuple((a, b) for i, a in enumerate(missing) for b in missing[i + 1:])
    else:
        alts = tuple((m,) for m in missing)
    releases = tuple((i, alts) for i, c in enumerate(codes) if c == JOKER_CODE)
    return MeldInfo(r, meld.tiles, True, "set", MeldReason.OK, None, meld.value(r, "open"),
                    meld.value(r, "penalty"), meld.jokers, tuple(additions), releases, meld)


def _valid_info(rules: RulesLike, tiles: MeldLike) -> MeldInfo:
    info = check_meld(rules, tiles)
    if not info.valid:
        raise IllegalAction(info.reason)
    return info


def meld_additions(rules: RulesLike, tiles: MeldLike) -> list[tuple[int, Piece]]:
    """Every single tile that may be added to a meld, as ``(position, tile)``: position 0 is
    before the first tile, ``len(meld)`` after the last; for sets, where the tile sorts in
    (R101-11, RO-9.2). Raises IllegalAction if the tiles are no meld.

    >>> [(p, str(t)) for p, t in meld_additions("rummy101", "R3 R4 R5")]    # R101-11
    [(0, 'R2'), (0, '*'), (3, 'R6'), (3, '*')]
    >>> meld_additions("remi", "R8 Y8 B8 K8")                               # RO-6: complete
    []
    """
    return list(_valid_info(rules, tiles).additions)


def joker_releases(rules: RulesLike, tiles: MeldLike) -> list[tuple[int, list[list[Piece]]]]:
    """For each joker of a meld, the alternative groups of tiles that release it (R101-9,
    RO-9.5/9.6). Raises IllegalAction if the tiles are no meld.

    >>> joker_releases("rummy101", "R10 * R12")
    [(1, [[Tile('R11')]])]
    """
    return [(i, [list(alt) for alt in alts]) for i, alts in _valid_info(rules, tiles).releases]


def rack_penalty(rules: RulesLike, rack: str | Iterable[Any]) -> int:
    """Sum of the end values of the tiles on a rack: face values with a joker at 101 (R101-6,
    R101-13), RO-12 end values in remi (1 -> 25, Joly 50), card values in classic (CR-2).
    Flat penalties (not opened, tabla) and doublings are the game engine's.

    >>> rack_penalty("rummy101", "R5 K13 *"), rack_penalty("classic", "AS KD 7H")
    (119, 18)
    """
    r = _rules(rules)
    pieces = r.parse_rack(rack)
    return int(_backend.core().rack_value(_backend.core_rules(r, "penalty"), counts_of(pieces)))

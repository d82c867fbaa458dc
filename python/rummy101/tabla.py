"""Remi closing on the rack, *tabla* (RULES.md RO-11, with RO-6 and RO-7 for the melds).

A tabla player never lays down; they finish when, after the final discard, their 14 tiles form
one of four patterns (RO-11):

========== ======================================================================= =====
pattern    the 14 tiles after the discard                                          score
========== ======================================================================= =====
simple     runs and sets only, at least one run (RO-6 melds, RO-7 Joly ratio)        400
mozaic     the row 1-2-…-13-1, no two neighbours of one colour (13 and the final     800
           1 too), 1-2-3-4 in four different colours
bicolor    the row 1-2-…-13-1 in exactly two alternating colours                    1600
monocolor  the row 1-2-…-13-1 in one colour                                         3200
========== ======================================================================= =====

A Joly may stand anywhere in a row; a rack matching several patterns scores the best one;
discarding a Joly as the final tile doubles the score (RO-11, "Joly finish"). Only rule sets
with closing on the rack (``"remi"``, option ``tabla=on``) are accepted.

:func:`solve_tabla` takes a 15-tile rack (before the final discard: which discards close, and
how) or a 14-tile rack (which patterns it already forms); both answers carry the distances of
:func:`tabla_distance`.

>>> ans = solve_tabla("remi", "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1 K5")
>>> ans.best.pattern, ans.best.score, str(ans.best.discard)
('monocolor', 3200, 'K5')
>>> [(str(c.discard), c.pattern, c.score) for c in ans.closes]
[('K5', 'monocolor', 3200)]

JSON (:meth:`TablaAnswer.to_json`), in the style of CONTRACT.md. A 15-tile rack::

    {"rules": "remi", "rack": "R1 R2 … K5",
     "closes": [{"discard": "K5", "pattern": "monocolor", "score": 3200, "joly_finish": false,
                 "row": ["R1", "R2", …, "R13", "R1"], "jokers": {}}, …],
     "best": {…one of "closes"…} | null,
     "distance": {"simple": 0, "mozaic": 8, "bicolor": 7, "monocolor": 0}}

- ``closes``: one entry per distinct discard whose remaining 14 tiles close, in tile-code order
  (R1…R13, Y1…, B1…, K1…K13, then ``*``), each with the best pattern for that discard.
  ``score`` is the RO-11 score, doubled when ``joly_finish`` (the discard is a Joly).
- A simple close lists ``"melds"`` instead of ``"row"``, each meld as in CONTRACT.md:
  ``[{"kind": "run", "tiles": [...], "value": 25, "jokers": {"1": "R11"}}, …]`` (``value`` is
  the RO-8 lay-down value, for information: a close scores the fixed RO-11 score).
  ``jokers`` maps the index of each Joly in ``tiles`` (or in ``row``) to the tile it stands for.
- ``best``: the highest-scoring close (the earliest discard among equals), ``null`` when none.
- ``distance``: :class:`TablaDistance` after the best discard for each pattern (the minimum over
  the discards).

A 14-tile rack answers ``{"rules", "rack", "patterns": [{"pattern", "score", "row" and
"jokers", or "melds"}…], "best", "distance"}``: ``patterns`` lists every pattern the rack forms,
best first (no discard, no Joly finish), and ``distance`` is that of the 14 tiles.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from . import _backend
from .errors import RackError, RulesError
from .melds import Meld
from .rules import Rules
from .tiles import JOKER_CODE, Tile, TileLike, counts_of, format_tiles

__all__ = [
    "TABLA_PATTERNS",
    "TABLA_SCORES",
    "TablaAnswer",
    "TablaClose",
    "TablaDistance",
    "solve_tabla",
    "tabla_distance",
]

#: Pattern names by core pattern number (1..4), worst to best.
TABLA_PATTERNS: tuple[str, ...] = ("simple", "mozaic", "bicolor", "monocolor")
#: RO-11 fixed scores (before a Joly finish doubles them).
TABLA_SCORES: dict[str, int] = {"simple": 400, "mozaic": 800, "bicolor": 1600, "monocolor": 3200}

TABLA_TILES = 14
#: What a rack of another size is told (here and by the service, which names its field).
TABLA_SIZE = "a tabla rack holds 14 tiles (after the final discard) or 15 (before it), RO-11"

RackLike = str | Iterable[TileLike]


def _jokers(tiles: tuple[Tile, ...], stand_for: tuple[Tile, ...]) -> dict[int, Tile]:
    return {i: s for i, (t, s) in enumerate(zip(tiles, stand_for)) if t.is_joker}


@dataclass(frozen=True)
class TablaClose:
    """One way to close on the rack (RO-11).

    ``discard`` is the final discard (``None`` for a 14-tile rack that already forms the
    pattern). Row patterns fill ``row``/``row_stand_for`` (14 tiles along 1-2-…-13-1) and leave
    ``melds`` empty; a simple close fills ``melds`` and leaves the row empty.
    """

    pattern: str
    score: int
    discard: Tile | None
    melds: tuple[Meld, ...] = ()
    row: tuple[Tile, ...] = ()
    row_stand_for: tuple[Tile, ...] = ()

    @property
    def joly_finish(self) -> bool:
        """The final discard is a Joly: the score is doubled (RO-11)."""
        return self.discard is not None and self.discard.is_joker

    @property
    def jokers(self) -> dict[int, Tile]:
        """Index in ``row`` of each Joly -> the tile it stands for (row patterns)."""
        return _jokers(self.row, self.row_stand_for)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.discard is not None:
            out["discard"] = str(self.discard)
        out["pattern"] = self.pattern
        out["score"] = self.score
        if self.discard is not None:
            out["joly_finish"] = self.joly_finish
        if self.pattern == "simple":
            out["melds"] = [m.to_json() for m in self.melds]
        else:
            out["row"] = [str(t) for t in self.row]
            out["jokers"] = {str(i): str(s) for i, s in self.jokers.items()}
        return out


@dataclass(frozen=True)
class TablaDistance:
    """How far a 14-tile rack is from each RO-11 pattern (all exact, 0 = the rack forms it).

    - ``mozaic``, ``bicolor``, ``monocolor``: the fewest rack tiles to replace by other tiles so
      that the 14 tiles form the row (a Joly fits any position, so it never needs replacing).
    - ``simple``: 14 minus the most tiles that disjoint runs and sets (RO-6, RO-7 ratio) holding
      at least one run can cover, or 14 when no run can be formed. It is 0 exactly when the rack
      closes simple; it counts loose tiles, not replacements (one new tile that fills a gap can
      bring several loose tiles into a run).

    For a 15-tile rack each field is the minimum over the discards.
    """

    simple: int
    mozaic: int
    bicolor: int
    monocolor: int

    def to_json(self) -> dict[str, int]:
        return {"simple": self.simple, "mozaic": self.mozaic, "bicolor": self.bicolor,
                "monocolor": self.monocolor}


@dataclass(frozen=True)
class TablaAnswer:
    """The answer of :func:`solve_tabla`; ``closes`` for 15 tiles, ``patterns`` for 14."""

    rules: Rules
    rack: tuple[Tile, ...]
    closes: tuple[TablaClose, ...]
    patterns: tuple[TablaClose, ...]
    best: TablaClose | None
    distance: TablaDistance

    @property
    def can_close(self) -> bool:
        return self.best is not None

    def to_json(self) -> dict[str, Any]:
        """The JSON object described in the module docstring."""
        out: dict[str, Any] = {"rules": str(self.rules), "rack": format_tiles(self.rack)}
        if len(self.rack) == TABLA_TILES:
            out["patterns"] = [p.to_json() for p in self.patterns]
        else:
            out["closes"] = [c.to_json() for c in self.closes]
        out["best"] = self.best.to_json() if self.best is not None else None
        out["distance"] = self.distance.to_json()
        return out


# ---- validation (once, here; the core re-checks sizes only) ---------------------------------

def _checked(rules: str | Rules, rack: RackLike, fn: str) -> tuple[Rules, list[Tile]]:
    r = Rules.parse(rules)
    if not getattr(r.opts, "tabla", False):  # RO-11 exists only in Remi
        if r.variant == "remi":
            raise RulesError(f"{fn}: closing on the rack is switched off in {str(r)!r} "
                             f"(tabla=off); use rules with tabla=on such as 'remi' (RO-11)")
        given = f" ({str(r)!r})" if str(r) != r.variant else ""
        raise RulesError(f"{fn}: closing on the rack (tabla, RO-11) exists only in Remi, not in "
                         f"{r.variant!r}{given}; use 'remi'")
    tiles = r.parse_rack(rack)
    if len(tiles) not in (TABLA_TILES, TABLA_TILES + 1):
        raise RackError(f"{fn}: {TABLA_SIZE}; got {len(tiles)}: {format_tiles(tiles)!r}")
    return r, tiles


def _close(rules: Rules, pattern: int, score: int, discard: int | None, row: list[int],
           stand: list[int], melds: list[tuple[int, list[int], list[int]]]) -> TablaClose:
    # Meld.from_core checks every meld again with the melds core (RO-6, RO-7).
    return TablaClose(pattern=TABLA_PATTERNS[pattern - 1], score=score,
                      discard=None if discard is None else Tile(discard),
                      melds=tuple(Meld.from_core(rules, k, t, sf) for k, t, sf in melds),
                      row=tuple(Tile(t) for t in row), row_stand_for=tuple(Tile(s) for s in stand))


def _distance(core: Any, cr: Any, counts: list[int]) -> TablaDistance:
    if sum(counts) == TABLA_TILES:
        return TablaDistance(*core.tabla_distance(cr, counts))
    best: list[int] | None = None
    for d in range(JOKER_CODE + 1):
        if counts[d]:
            counts[d] -= 1
            dist = core.tabla_distance(cr, counts)
            counts[d] += 1
            best = dist if best is None else [min(a, b) for a, b in zip(best, dist)]
    assert best is not None
    return TablaDistance(*best)


def solve_tabla(rules: str | Rules, rack: RackLike) -> TablaAnswer:
    """Closing on the rack (RO-11) for a 15-tile rack (every closing discard with its best
    pattern) or a 14-tile rack (every pattern it forms), with the distances to each pattern.

    Raises :class:`RulesError` for rules without tabla, :class:`NotationError` for bad tokens and
    :class:`RackError` for a rack the set cannot hold or of a size other than 14 or 15.

    >>> ans = solve_tabla("remi", "R1 Y2 R3 Y4 R5 Y6 R7 Y8 R9 Y10 R11 Y12 R13 Y1 *")
    >>> ans.best.pattern, ans.best.score, ans.best.joly_finish
    ('bicolor', 3200, True)
    >>> simple = solve_tabla("remi", "R1 R2 R3 Y5 B5 K5 K7 K8 K9 K10 B11 B12 B13 B1")
    >>> [p["pattern"] for p in simple.to_json()["patterns"]]
    ['simple']
    >>> solve_tabla("rummy101", "R1 R2 R3")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rummy101.errors.RulesError: solve_tabla: closing on the rack (tabla, RO-11) exists only in ...
    """
    r, tiles = _checked(rules, rack, "solve_tabla")
    core = _backend.core()
    cr = _backend.core_rules(r, "open")
    counts = counts_of(tiles)
    if len(tiles) == TABLA_TILES:
        patterns = tuple(_close(r, p, TABLA_SCORES[TABLA_PATTERNS[p - 1]], None, row, stand, melds)
                         for p, row, stand, melds in core.tabla_patterns(cr, counts))
        closes: tuple[TablaClose, ...] = ()
        best = patterns[0] if patterns else None
    else:
        closes = tuple(_close(r, p, score, d, row, stand, melds)
                       for d, p, score, row, stand, melds in core.tabla_closes(cr, counts))
        patterns = ()
        best = None
        for c in closes:
            if best is None or c.score > best.score:
                best = c
    return TablaAnswer(rules=r, rack=tuple(tiles), closes=closes, patterns=patterns, best=best,
                       distance=_distance(core, cr, counts))


def tabla_distance(rules: str | Rules, rack: RackLike) -> TablaDistance:
    """How far a rack is from each tabla pattern (see :class:`TablaDistance`); a 15-tile rack
    gives the minimum over its discards. Bots use it to decide whether to declare tabla (RO-11).

    >>> tabla_distance("remi", "R1 Y2 B3 K4 R5 Y6 R7 Y8 R9 Y10 R11 Y12 R13 Y1")
    TablaDistance(simple=14, mozaic=0, bicolor=2, monocolor=8)
    """
    r, tiles = _checked(rules, rack, "tabla_distance")
    return _distance(_backend.core(), _backend.core_rules(r, "open"), counts_of(tiles))

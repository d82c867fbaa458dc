"""Remi's table melds, checked by the core's meld logic under Remi's rules (RO-6, RO-7, RO-9).

A :class:`RemiMeld` is immutable (a state copy shares it). Its geometry, values, the single tiles
it takes and the tiles that release its Joly all come from the core (``rummy101._backend``:
``classify_meld``, ``meld_value``, ``meld_additions``, ``joker_releases``) with the Rules'
``high_ace`` (12-13-1, RO-6), ``joker_ratio`` (two real tiles per Joly, RO-7) and
``set3_release_both`` (RO-9.6) fields, so the engine never re-implements them:

* a Joly keeps the position it fills (RO-7): ``R9 R10 *`` is R9-R10-R11 and takes R8 or R12;
* a 3-tile set ``* Y5 B5`` gives up its Joly to no single tile (RO-9.6): a player first adds one
  missing colour (the set is then complete, the Joly stands for the other one) and retrieves the
  Joly with that other colour;
* each tile remembers who laid it (``by``, RO-12: laid tiles count for whoever put them down)
  and each Joly how often it was retrieved (``jr``, RO-9.5 and the ``joly_retrievals`` option).

>>> from rummy101.rules import Rules
>>> m = RemiMeld.build(Rules.parse("remi"), RUN, 0, (8, 9, 52), (0, 0, 0), (0, 0, 0))
>>> m.text(), m.adds, m.releases
('R9 R10 *', ((7, 0), (11, 1)), ((10, 2),))
>>> s = RemiMeld.build(Rules.parse("remi"), SET, 1, (52, 17, 30), (1, 1, 1), (0, 0, 0))
>>> s.text(), s.releases, [c for c, _ in s.adds]
('* Y5 B5', (), [4, 43])
"""

from __future__ import annotations

from ....rules import Rules
from ....tiles import JOKER_CODE, Tile

__all__ = ["RUN", "SET", "THREE_MELDS", "RemiMeld", "end_value", "lay_melds", "step_buildable", "three_melds"]

RUN, SET = 1, 2
J = JOKER_CODE
_TS = tuple(str(Tile(c)) for c in range(53))
_KINDS = {RUN: "run", SET: "set"}


def end_value(code: int) -> int:
    """RO-12 end value of a tile: 2-9 -> 5, 10-13 -> 10, 1 -> 25, Joly -> 50."""
    if code == J:
        return 50
    n = code % 13 + 1
    return 25 if n == 1 else (5 if n <= 9 else 10)


_GEO_KEYS: dict[Rules, tuple[object, ...]] = {}


def geometry_key(rules: Rules) -> tuple[object, ...]:
    """What meld geometry depends on: the core's rule parameters, the 3-tile-set release rule
    (RO-9.6) and the high 1 (RO-6). The meld caches below are keyed by it, not by the whole
    Rules: games that differ only in scoring, players or match options share one cache (a soak
    plays a different option mix every game and rebuilt the 340 ``lay`` runs for each)."""
    got = _GEO_KEYS.get(rules)
    if got is None:
        args = rules.params("open").args()
        got = (tuple(tuple(a) if isinstance(a, list) else a for a in args),
               rules.set3_release_both, rules.high_ace)
        if len(_GEO_KEYS) > 10_000:
            _GEO_KEYS.clear()
        _GEO_KEYS[rules] = got
    return got


#: Entries ``_GEOM`` and ``_BUILDABLE`` hold before they are cleared: 5,000 simulated games
#: (``greedy,random``) asked for some 9,000 melds of each, and 16,384 entries of 200-630 bytes
#: are 3-10 MB per process (``_GEOM`` was cleared at 200,000, some 125 MB; docs/simulation.md).
GEOM_CAP = 16_384

_GEOM: dict[tuple[str, tuple[object, ...], int, tuple[int, ...]], tuple[tuple[int, ...], int, tuple[tuple[int, int], ...],
                                                         tuple[tuple[int, int], ...]] | None] = {}


def _geometry(rules: Rules, kind: int, tiles: tuple[int, ...]) -> (
        tuple[tuple[int, ...], int, tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]] | None):
    """``(stand_for, open value, adds, releases)`` of a valid meld of ``kind``, else None.

    adds: ``(code, pos)`` with pos 0 = start / 1 = end of a run, -1 for a set; releases:
    ``(code, joker index)`` where one tile alone releases the Joly (RO-9.5/9.6)."""
    from .... import _backend

    key = (_backend.backend_name(), geometry_key(rules), kind, tiles)
    if key in _GEOM:
        return _GEOM[key]
    core = _backend.core()
    cr = _backend.core_rules(rules, "open")
    got, stand, _reason = core.classify_meld(cr, list(tiles))
    out: (tuple[tuple[int, ...], int, tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]
          | None) = None
    if got == kind:
        value = core.meld_value(cr, list(tiles))
        n = len(tiles)
        adds = tuple((code, (-1 if kind == SET else (0 if pos == 0 else 1)))
                     for pos, code in core.meld_additions(cr, list(tiles))
                     if kind == SET or pos in (0, n))
        # one tile releases a Joly only where an alternative is a single tile (RO-9.6)
        rel = tuple((a[0], idx)
                    for idx, alts in core.joker_releases(cr, list(tiles), rules.set3_release_both)
                    for a in alts if len(a) == 1)
        if kind == SET and rel:  # a set's Jolys are interchangeable: name the first (DESIGN.md)
            first = tiles.index(J)
            rel = tuple(sorted({(c, first) for c, _ in rel}))
        out = (tuple(stand), int(value), adds, rel)
    if len(_GEOM) >= GEOM_CAP:
        _GEOM.clear()
    _GEOM[key] = out
    return out


def set_order(items: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    """Order ``(code, by, jr)`` items of a set by colour R Y B K, each Joly at the first colour
    missing from the real tiles (DESIGN.md, Encoding)."""
    reals = sorted((it for it in items if it[0] != J), key=lambda it: it[0])
    jokers = [it for it in items if it[0] == J]
    colours = {it[0] // 13 for it in reals}
    out: list[tuple[int, int, int]] = []
    ri = 0
    for k in range(4):
        if ri < len(reals) and reals[ri][0] // 13 == k:
            out.append(reals[ri])
            ri += 1
        elif k not in colours and jokers:
            out.append(jokers.pop(0))
    return out


#: RemiMeld.encoder_json: the texts of a meld's tiles, per tiles tuple
_TEXTS: dict[tuple[int, ...], tuple[str, ...]] = {}


class RemiMeld:
    """One meld on the table (see the module docstring)."""

    __slots__ = ("adds", "by", "jr", "key", "kind", "owner", "releases", "stand", "tiles", "value")

    kind: int
    owner: int
    tiles: tuple[int, ...]
    by: tuple[int, ...]
    jr: tuple[int, ...]
    stand: tuple[int, ...]
    value: int
    adds: tuple[tuple[int, int], ...]
    releases: tuple[tuple[int, int], ...]
    key: tuple[object, ...]

    @staticmethod
    def build(rules: Rules, kind: int, owner: int, tiles: tuple[int, ...], by: tuple[int, ...],
              jr: tuple[int, ...]) -> RemiMeld:
        """A meld from tiles in table order; ValueError when they are no valid ``kind``."""
        g = _geometry(rules, kind, tiles)
        if g is None:
            raise ValueError(f"{' '.join(_TS[c] for c in tiles)} is no {_KINDS[kind]} (RO-6, RO-7)")
        m = object.__new__(RemiMeld)
        m.kind = kind
        m.owner = owner
        m.tiles = tiles
        m.by = by
        m.jr = jr
        m.stand, m.value, m.adds, m.releases = g
        m.key = (kind, owner, tiles, by, jr)
        return m

    def with_added(self, rules: Rules, code: int, pos: int, seat: int) -> RemiMeld:
        """This meld with ``code`` added by ``seat`` (pos 0 start / 1 end of a run, -1 set)."""
        if self.kind == RUN:
            if pos == 0:
                return RemiMeld.build(rules, RUN, self.owner, (code,) + self.tiles, (seat,) + self.by,
                                      (0,) + self.jr)
            return RemiMeld.build(rules, RUN, self.owner, self.tiles + (code,), self.by + (seat,),
                                  self.jr + (0,))
        items = set_order(list(zip(self.tiles, self.by, self.jr, strict=True)) + [(code, seat, 0)])
        return RemiMeld.build(rules, SET, self.owner, tuple(i[0] for i in items),
                              tuple(i[1] for i in items), tuple(i[2] for i in items))

    def with_released(self, rules: Rules, code: int, index: int, seat: int) -> RemiMeld:
        """This meld with its Joly at ``index`` replaced by ``code`` put in by ``seat``."""
        items = list(zip(self.tiles, self.by, self.jr, strict=True))
        items[index] = (code, seat, 0)
        if self.kind == SET:
            items = set_order(items)
        return RemiMeld.build(rules, self.kind, self.owner, tuple(i[0] for i in items),
                              tuple(i[1] for i in items), tuple(i[2] for i in items))

    def text(self) -> str:
        return " ".join(_TS[c] for c in self.tiles)

    def encoder_json(self, staged: bool) -> dict[str, object]:
        """The fields of the observation's table meld that the RL encoder reads (``owner``,
        ``kind``, ``tiles``, ``staged``: the engine's ``encoder_observation``), the same values
        as :meth:`to_json`'s; the tiles' texts are kept per tiles tuple (bounded)."""
        texts = _TEXTS.get(self.tiles)
        if texts is None:
            if len(_TEXTS) > 200_000:
                _TEXTS.clear()
            texts = _TEXTS[self.tiles] = tuple(_TS[c] for c in self.tiles)
        return {"owner": self.owner, "kind": _KINDS[self.kind], "tiles": list(texts),
                "staged": staged}

    def to_json(self, index: int) -> dict[str, object]:
        return {"id": index, "owner": self.owner, "kind": _KINDS[self.kind],
                "tiles": [_TS[c] for c in self.tiles], "value": self.value,
                "jokers": {str(i): _TS[self.stand[i] if self.stand[i] != 52 else 52]
                           for i, c in enumerate(self.tiles) if c == J},
                "laid_by": list(self.by),
                "joly_retrievals": {str(i): self.jr[i] for i, c in enumerate(self.tiles) if c == J}}

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RemiMeld):
            return NotImplemented
        return self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)

    def __repr__(self) -> str:
        return f"RemiMeld({_KINDS[self.kind]}, owner={self.owner}, {self.text()!r})"


# ---- every 3-tile meld (how new melds are laid) -----------------------------------------------

#: Every valid 3-tile Remi meld as ``(verb, tiles in table order, needs)`` where ``needs`` is the
#: sorted tuple of codes it takes from the rack; built from the core (at most one Joly, RO-7).
THREE_MELDS: dict[tuple[object, ...], list[tuple[str, tuple[int, ...], tuple[int, ...]]]] = {}


def three_melds(rules: Rules) -> list[tuple[str, tuple[int, ...], tuple[int, ...]]]:
    gkey = geometry_key(rules)
    got = THREE_MELDS.get(gkey)
    if got is not None:
        return got
    cands: set[tuple[int, tuple[int, ...]]] = set()
    for col in range(4):
        for a in range(1, 13):  # windows a..a+2, 12-13-1 is a = 12 (RO-6)
            window = tuple(col * 13 + (n - 1) % 13 for n in range(a, a + 3))
            cands.add((RUN, window))
            for j in range(3):
                cands.add((RUN, window[:j] + (J,) + window[j + 1:]))
    for n in range(13):
        for skip in range(4):
            cands.add((SET, tuple(k * 13 + n for k in range(4) if k != skip)))
        for a in range(4):
            for b in range(a + 1, 4):
                items = set_order([(a * 13 + n, 0, 0), (b * 13 + n, 0, 0), (J, 0, 0)])
                cands.add((SET, tuple(i[0] for i in items)))
    out = []
    for kind, tiles in sorted(cands):
        if _geometry(rules, kind, tiles) is not None:
            out.append((_KINDS[kind], tiles, tuple(sorted(tiles))))
    THREE_MELDS[gkey] = out
    return out


# ---- melds no sequence of single additions builds (the ``lay`` verb) -------------------------

def step_buildable(rules: Rules, kind: int, tiles: tuple[int, ...]) -> bool:
    """Can a valid meld be laid as a 3-tile meld and grown one tile at a time at its ends with
    every intermediate meld valid (RO-7's Joly ratio at every step, each Joly at its place)?
    A run is, unless its end tiles are real and dropping either one breaks the ratio all the
    way down (``R3 * R5 R6 * R8``: two Jolys bridging gaps among four real tiles). Sets always
    are (at most one Joly with fewer than four real tiles).

    >>> r = Rules.parse("remi")
    >>> step_buildable(r, RUN, (2, 52, 4, 5, 52, 7)), step_buildable(r, RUN, (2, 3, 52, 5, 6))
    (False, True)
    """
    if _geometry(rules, kind, tiles) is None:
        return False
    if len(tiles) <= 3:
        return True
    if kind == SET:
        return True
    key = (geometry_key(rules), tiles)
    got = _BUILDABLE.get(key)
    if got is None:
        if len(_BUILDABLE) >= GEOM_CAP:
            _BUILDABLE.clear()
        got = _BUILDABLE[key] = (step_buildable(rules, kind, tiles[1:])
                                 or step_buildable(rules, kind, tiles[:-1]))
    return got


_BUILDABLE: dict[tuple[tuple[object, ...], tuple[int, ...]], bool] = {}
_LAY: dict[tuple[object, ...], list[tuple[tuple[int, ...], tuple[int, ...]]]] = {}


def lay_melds(rules: Rules) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Every valid meld that :func:`step_buildable` refuses, as ``(tiles in table order, needs)``
    (``needs`` sorted): runs of 6 to 8 tiles holding both Jolys (85 per colour with the high 1,
    RO-6/RO-7). They are laid whole with ``lay`` (one action); every other meld is built with
    ``run``/``set`` and ``add``.

    >>> r = Rules.parse("remi")
    >>> len(lay_melds(r)), (2, 52, 4, 5, 52, 7) in [t for t, _ in lay_melds(r)]
    (340, True)
    """
    gkey = geometry_key(rules)
    got = _LAY.get(gkey)
    if got is not None:
        return got
    from itertools import combinations

    out = []
    top = 14 if rules.high_ace else 13
    for col in range(4):
        for a in range(1, top - 1):
            for n in range(6, top - a + 2):
                base = tuple(col * 13 + (k - 1) % 13 for k in range(a, a + n))
                for js in combinations(range(n), 2):
                    t = tuple(J if i in js else c for i, c in enumerate(base))
                    if _geometry(rules, RUN, t) is not None and not step_buildable(rules, RUN, t):
                        out.append((t, tuple(sorted(t))))
    _LAY[gkey] = out
    return out

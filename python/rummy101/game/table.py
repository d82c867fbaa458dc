"""Table melds of the tile engines: immutable records that know how they may grow.

A :class:`TableMeld` is never changed in place: adding a tile or retrieving a joker builds a new
one, so a state copy shares melds safely (``copy()`` is a shallow list copy).

Geometry (R101-5): a run is >= 3 consecutive numbers of one colour (1 low only, 13 at most), a
set 3-4 tiles of one number in distinct colours, a pair two equal tiles or a tile + a joker; a
run or set holds at least one real tile. Tiles are kept in table order (DESIGN.md, Encoding):
runs ascend with each joker at the number it fills; sets are ordered by colour R Y B K with the
jokers at the first missing colours; a pair is the real tile first.

>>> m = TableMeld.build(RUN, 0, (9, 52, 11))       # R10 * R12
>>> m.value, m.text(), m.adds, m.releases
(33, 'R10 * R12', ((8, 0), (52, 0), (12, 1), (52, 1)), ((10, 1),))
>>> str(TableMeld.build(SET, 1, (52, 17, 30)).text())  # Y5 B5 + a joker standing for R5
'* Y5 B5'
"""

from __future__ import annotations

from ..errors import IllegalAction
from ..tiles import JOKER_CODE, MELD_KINDS, Tile

__all__ = ["KIND_NAMES", "PAIR", "RUN", "SET", "TableMeld", "check_new_meld"]

RUN, SET, PAIR = 1, 2, 3
_TS = tuple(str(Tile(c)) for c in range(53))
KIND_NAMES = MELD_KINDS  # RUN, SET, PAIR are the core kind codes
J = JOKER_CODE


class TableMeld:
    """One meld on the table: ``kind`` (RUN/SET/PAIR), ``owner`` seat, ``tiles`` (codes, table
    order), the opening ``value`` (R101-6: a joker counts as the tile it stands for), ``adds``
    ((code, pos) single tiles that may be added: pos 0 start / 1 end of a run, -1 for a set) and
    ``releases`` ((code, joker index) tiles that release a joker, R101-9)."""

    __slots__ = (
        "adds",
        "colour",
        "first",
        "jokers",
        "kind",
        "owner",
        "releases",
        "tiles",
        "value",
    )

    kind: int
    owner: int
    tiles: tuple[int, ...]
    value: int
    adds: tuple[tuple[int, int], ...]
    releases: tuple[tuple[int, int], ...]
    colour: int
    first: int
    jokers: int

    @staticmethod
    def build(kind: int, owner: int, tiles: tuple[int, ...]) -> TableMeld:
        """Build a meld from tiles in table order; raises ValueError when they are no such meld.
        Melds are immutable, so equal ones are shared (memoised)."""
        key = (kind, owner, tiles)
        m = _MEMO.get(key)
        if m is None:
            m = _build(kind, owner, tiles)
            if len(_MEMO) >= 16_384:  # 3,130 melds asked in 4,000 games; ~600 bytes each
                _MEMO.clear()
            _MEMO[key] = m
        return m

    def with_added(self, code: int, pos: int) -> TableMeld:
        if self.kind == RUN:
            tiles = (code,) + self.tiles if pos == 0 else self.tiles + (code,)
            return TableMeld.build(RUN, self.owner, tiles)
        return TableMeld.build(SET, self.owner, self.tiles + (code,))

    def with_released(self, code: int, index: int) -> TableMeld:
        t = list(self.tiles)
        t[index] = code
        return TableMeld.build(self.kind, self.owner, tuple(t))

    def text(self) -> str:
        return " ".join(str(Tile(c)) for c in self.tiles)

    def to_json(self, index: int, staged: bool | None = None) -> dict[str, object]:
        """The meld as observations show it (a new dict and list each call), with a
        ``"staged"`` field last when ``staged`` is given."""
        texts = _TEXTS.get(self.tiles)
        if texts is None:
            if len(_TEXTS) > 200_000:
                _TEXTS.clear()
            texts = _TEXTS[self.tiles] = tuple(_TS[c] for c in self.tiles)
        if staged is None:
            return {"id": index, "owner": self.owner, "kind": KIND_NAMES[self.kind],
                    "tiles": list(texts), "value": self.value}
        return {"id": index, "owner": self.owner, "kind": KIND_NAMES[self.kind],
                "tiles": list(texts), "value": self.value, "staged": staged}

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TableMeld):
            return NotImplemented
        return self.kind == other.kind and self.owner == other.owner and self.tiles == other.tiles

    def __hash__(self) -> int:
        return hash((self.kind, self.owner, self.tiles))

    def __repr__(self) -> str:
        return f"TableMeld({KIND_NAMES[self.kind]}, owner={self.owner}, {self.text()!r})"


_MEMO: dict[tuple[int, int, tuple[int, ...]], TableMeld] = {}
_TEXTS: dict[tuple[int, ...], tuple[str, ...]] = {}  # tile texts of a meld's codes (to_json)


def _build(kind: int, owner: int, tiles: tuple[int, ...]) -> TableMeld:
    m = object.__new__(TableMeld)
    m.kind = kind
    m.owner = owner
    m.jokers = tiles.count(J)
    if kind == RUN:
        _init_run(m, tiles)
    elif kind == SET:
        _init_set(m, tiles)
    else:
        _init_pair(m, tiles)
    return m


def _init_run(m: TableMeld, tiles: tuple[int, ...]) -> None:
    first = -1
    colour = -1
    for i, c in enumerate(tiles):
        if c != J:
            colour = c // 13
            first = c % 13 + 1 - i
            break
    n = len(tiles)
    if colour < 0:
        raise ValueError("a run needs at least one numbered tile (R101-5)")
    if n < 3:
        raise ValueError("a run has at least 3 tiles (R101-5)")
    if first < 1 or first + n - 1 > 13:
        raise ValueError("a run stays within 1..13 and 1 is low only: 12-13-1 is no run (R101-5)")
    base = colour * 13 + first - 1
    rel = []
    for i, c in enumerate(tiles):
        if c == J:
            rel.append((base + i, i))
        elif c != base + i:
            raise ValueError("a run is consecutive numbers of one colour in ascending order (R101-5)")
    m.tiles = tiles
    m.colour = colour
    m.first = first
    last = first + n - 1
    m.value = (first + last) * n // 2
    adds = []
    if first > 1:
        adds.append((base - 1, 0))
        adds.append((J, 0))
    if last < 13:
        adds.append((base + n, 1))
        adds.append((J, 1))
    m.adds = tuple(adds)
    m.releases = tuple(rel)


def _init_set(m: TableMeld, tiles: tuple[int, ...]) -> None:
    reals = sorted(c for c in tiles if c != J)
    nj = len(tiles) - len(reals)
    if not reals:
        raise ValueError("a set needs at least one numbered tile (R101-5)")
    if not 3 <= len(tiles) <= 4:
        raise ValueError("a set has 3 or 4 tiles (R101-5)")
    number = reals[0] % 13
    colours = [c // 13 for c in reals]
    if any(c % 13 != number for c in reals):
        raise ValueError("a set is tiles of one number (R101-5)")
    if len(set(colours)) != len(colours):
        raise ValueError("a set holds each colour at most once: R7 R7 B7 is no set (R101-5)")
    missing = [k for k in range(4) if k not in colours]
    out: list[int] = []
    left = nj
    for k in range(4):
        if k in colours:
            out.append(k * 13 + number)
        elif left:
            out.append(J)
            left -= 1
    m.tiles = tuple(out)
    m.colour = -1
    m.first = number + 1
    m.value = (number + 1) * len(out)
    first_joker = out.index(J) if nj else -1
    m.releases = tuple((k * 13 + number, first_joker) for k in missing) if nj else ()
    if len(out) == 3:
        m.adds = tuple((k * 13 + number, -1) for k in missing) + ((J, -1),)
    else:
        m.adds = ()


def _init_pair(m: TableMeld, tiles: tuple[int, ...]) -> None:
    if len(tiles) != 2:
        raise ValueError("a pair has 2 tiles (R101-5)")
    a, b = tiles
    if a == J:
        a, b = b, a
    if a == J or (b != J and b != a):
        raise ValueError("a pair is two tiles of the same number and colour, or a tile and a "
                         "joker; two jokers or two colours are no pair (R101-5)")
    m.tiles = (a, b)
    m.colour = a // 13
    m.first = a % 13 + 1
    m.value = 2 * m.first
    m.adds = ()
    m.releases = ((a, 1),) if b == J else ()


def check_new_meld(kind: int, owner: int, tiles: tuple[int, ...]) -> TableMeld:
    """Build a new meld or raise IllegalAction citing R101-5."""
    try:
        return TableMeld.build(kind, owner, tiles)
    except ValueError as exc:
        raise IllegalAction(f"{KIND_NAMES[kind]} {' '.join(str(Tile(c)) for c in tiles)} is not "
                            f"valid: {exc}") from None

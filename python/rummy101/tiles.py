"""Tiles, cards and their notation (CONTRACT.md, Notation).

One compact integer encoding is shared by the C++ core and Python (STYLE.md):

* a **tile** is ``colour * 13 + (number - 1)`` with colours R=0, Y=1, B=2, K=3; the joker is 52;
* a **card** uses the same space with suits S=0, H=1, D=2, C=3 and ranks A=1 .. K=13;
* a **rack** handed to a solver is a count vector of 53 entries.

>>> Tile.parse("r7")
Tile('R7')
>>> str(Tile("*")), int(Tile("K13")), Tile(0)
('*', 51, Tile('R1'))
>>> Card.parse("10d"), str(Card("T♥"))
(Card('10D'), '10H')
>>> format_tiles(parse_tiles("R1, r2 jk K13"))
'R1 R2 * K13'
"""

from __future__ import annotations

import json
import numbers
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Self

from .errors import NotationError, json_problem

__all__ = [
    "COLOURS",
    "HIGH_ACE",
    "JOKER",
    "JOKER_CODE",
    "MELD_KINDS",
    "NUM_CODES",
    "NUM_COLOURS",
    "NUM_NUMBERS",
    "RANKS",
    "SUITS",
    "Card",
    "CardLike",
    "Tile",
    "TileLike",
    "codes_of",
    "counts_of",
    "format_tiles",
    "parse_cards",
    "parse_tiles",
    "split_tokens",
]

NUM_COLOURS = 4
NUM_NUMBERS = 13
JOKER_CODE = 52
NUM_CODES = 53
HIGH_ACE = 14  # a 1 that follows 13 in a Remi run (RO-6)
#: Meld kind codes of the core (DESIGN.md, Encoding) and their names: the one table of them.
MELD_KINDS: dict[int, str] = {1: "run", 2: "set", 3: "pair"}

COLOURS = "RYBK"
COLOUR_NAMES = ("red", "yellow", "blue", "black")
SUITS = "SHDC"
SUIT_SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_RANK_INDEX = {r: i + 1 for i, r in enumerate(RANKS)} | {"T": 10, "1": 1, "11": 11, "12": 12, "13": 13}
_JOKER_WORDS = {"*", "JK", "JOKER"}
_TILE_RE = re.compile(r"^([RYBK])(\d{1,2})$")

_TILE_HELP = "a tile is a colour R/Y/B/K followed by a number 1-13 (e.g. R5, k13), or * / JK / JOKER"
_CARD_HELP = "a card is a rank A 2-10 J Q K (T for 10) followed by a suit S H D C or ♠ ♥ ♦ ♣ (e.g. AS, 10D)"


def _tile_code(text: str) -> int | None:
    t = text.strip().upper()
    if not t.isascii():  # "R５" or "R٥" is not R5: tiles are written in ASCII
        return None
    if t in _JOKER_WORDS:
        return JOKER_CODE
    m = _TILE_RE.match(t)
    if not m:
        return None
    number = int(m.group(2))
    if not 1 <= number <= NUM_NUMBERS or m.group(2).startswith("0"):
        return None
    return COLOURS.index(m.group(1)) * NUM_NUMBERS + number - 1


def _card_code(text: str) -> int | None:
    t = text.strip()
    if not t:
        return None
    if not t[:-1].isascii() or not (t[-1].isascii() or t[-1] in SUIT_SYMBOLS):
        return None  # ASCII ranks and suits (or the suit symbols): "５S" is not 5S
    suit_ch = SUIT_SYMBOLS.get(t[-1], t[-1].upper())
    if suit_ch not in SUITS:
        return None
    rank = _RANK_INDEX.get(t[:-1].upper())
    if rank is None or t[:-1] in ("1", "11", "12", "13"):
        return None
    return SUITS.index(suit_ch) * NUM_NUMBERS + rank - 1


class Tile(int):
    """A Rummy tile: an ``int`` code with a text form.

    ``Tile("R5")``, ``Tile("r5")``, ``Tile(4)`` and ``Tile.parse("R5")`` are the same tile.
    """

    __slots__ = ()

    def __new__(cls, value: int | str | Tile) -> Self:
        if isinstance(value, str):
            code = _tile_code(value)
            if code is None:
                raise NotationError(f"{value!r} is not a tile: {_TILE_HELP}")
            return super().__new__(cls, code)
        if isinstance(value, bool) or not isinstance(value, int):
            if isinstance(value, bool) or not isinstance(value, numbers.Integral):  # numpy ints: codes
                raise NotationError(f"{value!r} is not a tile: expected a tile code 0-52 or {_TILE_HELP}")
            value = int(value)
        if not 0 <= value < NUM_CODES:
            raise NotationError(f"tile code {value} is out of range: codes are 0-52 (52 is the joker)")
        return super().__new__(cls, value)

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Parse one token (case-insensitive; ``*``, ``JK`` or ``JOKER`` for the joker)."""
        return cls(text)

    @classmethod
    def of(cls, colour: int | str, number: int) -> Tile:
        """The tile of a colour (index 0-3 or letter) and a number 1-13.

        >>> Tile.of("k", 13), Tile.of(0, 1)
        (Tile('K13'), Tile('R1'))
        """
        # one letter of RYBK only: '' and 'RY' were found at index 0 by str.index (R), 'Z' was
        # a bare ValueError; a bool or a non-int number was compared or multiplied as is
        if isinstance(colour, str):
            ci = COLOURS.find(colour.strip().upper()) if len(colour.strip()) == 1 else -1
        elif isinstance(colour, numbers.Integral) and not isinstance(colour, bool):
            ci = int(colour)
        else:
            ci = -1
        if (ci < 0 or ci >= NUM_COLOURS or isinstance(number, bool)
                or not isinstance(number, numbers.Integral) or not 1 <= number <= NUM_NUMBERS):
            raise NotationError(f"no tile of colour {colour!r} and number {number!r}: give a "
                                "colour R/Y/B/K (or 0-3) and a number 1-13")
        return cls(ci * NUM_NUMBERS + int(number) - 1)

    @property
    def is_joker(self) -> bool:
        return int(self) == JOKER_CODE

    @property
    def colour(self) -> int | None:
        """Colour index 0-3 (R Y B K), or None for the joker."""
        return None if self.is_joker else int(self) // NUM_NUMBERS

    @property
    def number(self) -> int | None:
        """Number 1-13, or None for the joker."""
        return None if self.is_joker else int(self) % NUM_NUMBERS + 1

    def __str__(self) -> str:
        if self.is_joker:
            return "*"
        return f"{COLOURS[int(self) // NUM_NUMBERS]}{int(self) % NUM_NUMBERS + 1}"

    def __repr__(self) -> str:
        return f"Tile({str(self)!r})"

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


class Card(int):
    """A playing card (classic Rummy): an ``int`` code ``suit * 13 + rank - 1``."""

    __slots__ = ()

    def __new__(cls, value: int | str | Card) -> Self:
        if isinstance(value, str):
            code = _card_code(value)
            if code is None:
                raise NotationError(f"{value!r} is not a card: {_CARD_HELP}")
            return super().__new__(cls, code)
        if isinstance(value, bool) or not isinstance(value, int):
            if isinstance(value, bool) or not isinstance(value, numbers.Integral):  # numpy ints: codes
                raise NotationError(f"{value!r} is not a card: expected a card code 0-51 or {_CARD_HELP}")
            value = int(value)
        if not 0 <= value < 52:
            raise NotationError(f"card code {value} is out of range: codes are 0-51")
        return super().__new__(cls, value)

    @classmethod
    def parse(cls, text: str) -> Card:
        return cls(text)

    @property
    def is_joker(self) -> bool:
        return False

    @property
    def suit(self) -> int:
        return int(self) // NUM_NUMBERS

    @property
    def colour(self) -> int:
        """The suit index, so that cards and tiles share the meld logic."""
        return int(self) // NUM_NUMBERS

    @property
    def rank(self) -> int:
        return int(self) % NUM_NUMBERS + 1

    number = rank

    def __str__(self) -> str:
        return f"{RANKS[int(self) % NUM_NUMBERS]}{SUITS[int(self) // NUM_NUMBERS]}"

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


JOKER = Tile(JOKER_CODE)

TileLike = Tile | int | str
CardLike = Card | int | str

_SPLIT_RE = re.compile(r"[\s,]+")


def split_tokens(text: str) -> list[str]:
    """Split a rack string on spaces and commas; a JSON list of strings is accepted too."""
    s = text.strip()
    if s.startswith("["):
        try:
            items = json.loads(s)
        except json.JSONDecodeError as exc:
            raise NotationError(f"rack {text!r} starts with '[' but is not a JSON list: {json_problem(exc)}") from None
        if not isinstance(items, list) or not all(isinstance(x, str) for x in items):
            raise NotationError(f"rack {text!r}: a JSON rack must be a list of strings")
        return [x.strip() for x in items]
    return [t for t in _SPLIT_RE.split(s) if t]


def _parse_many(items: str | Iterable[object], kind: type[Tile | Card]) -> list[Any]:
    if isinstance(items, (Tile, Card)) and isinstance(items, kind):
        return [items]
    if isinstance(items, str):
        tokens: Sequence[object] = split_tokens(items)
    elif isinstance(items, (bytes, bytearray, memoryview)):  # iterates as ints, i.e. tile codes
        raise NotationError(f"expected a rack as a string or a list of tokens, got "
                            f"{type(items).__name__} {bytes(items[:40])!r}{'...' if len(items) > 40 else ''}: "
                            f"decode it first (e.g. .decode('utf-8'))")
    elif isinstance(items, Mapping):  # iterates as its keys: {"R5": 2} would read one R5
        raise NotationError(f"expected a rack as a string or a list of tokens, got "
                            f"{type(items).__name__} {items!r:.60}: a mapping is no rack; give "
                            "each tile once per copy (e.g. 'R5 R5 K9' or ['R5', 'R5', 'K9'])")
    elif isinstance(items, Iterable):
        tokens = list(items)
    else:
        raise NotationError(
            f"expected a rack as a string or a list of tokens, got {type(items).__name__} {items!r}"
        )
    out = []
    what = "tile" if kind is Tile else "card"
    for pos, tok in enumerate(tokens, start=1):
        if isinstance(tok, kind):
            out.append(tok)
            continue
        if isinstance(tok, (Tile, Card)):
            raise NotationError(f"token {pos} ({tok!r}) is a {type(tok).__name__.lower()}, not a {what}")
        try:
            out.append(kind(tok))  # type: ignore[arg-type]
        except NotationError as exc:
            odd = _non_ascii(tok) if isinstance(tok, str) else None
            note = f" (it holds {odd})" if odd else ""
            raise NotationError(f"token {pos} of {len(tokens)} ({tok!r}) is not a {what}{note}: "
                                f"{_TILE_HELP if kind is Tile else _CARD_HELP}") from exc
    return out


def _non_ascii(token: str) -> str | None:
    """The first character of ``token`` that notation never reads (non-ASCII, not a suit
    symbol), named with its code point, or None."""
    for ch in token:
        if not ch.isascii() and ch not in SUIT_SYMBOLS:
            named = f"{ch!r}, U+{ord(ch):04X}"
            if ch.isalnum():
                return f"{named}; digits and letters must be ASCII"
            # an emoji selector after a suit symbol (A♥️), a zero-width space, a byte order mark:
            # no look-alike of a digit or letter, so "must be ASCII" would not say what is wrong
            return f"{named}, which is no digit, letter or suit symbol: remove it"
    return None


def parse_tiles(items: str | Iterable[TileLike]) -> list[Tile]:
    """Parse a rack or meld of tiles: ``"R1 R2, *"``, ``'["R1","*"]'`` or an iterable of tokens.

    Errors name the token and its 1-based position:

    >>> parse_tiles("R1 X5")
    Traceback (most recent call last):
    ...
    rummy101.errors.NotationError: token 2 of 2 ('X5') is not a tile: a tile is a colour R/Y/B/K followed by a number 1-13 (e.g. R5, k13), or * / JK / JOKER
    """
    return _parse_many(items, Tile)


def parse_cards(items: str | Iterable[CardLike]) -> list[Card]:
    """Parse a hand of cards: ``"AS 10D QC"``, suit symbols and ``T`` for 10 accepted."""
    return _parse_many(items, Card)


def format_tiles(items: Iterable[Tile | Card | int]) -> str:
    """Canonical text of a rack: tokens separated by single spaces, in the order given.

    Tiles and cards print as themselves, a plain int is a tile code (0-52):

    >>> format_tiles([Tile("R1"), 52, 51])
    'R1 * K13'
    """
    if isinstance(items, (str, bytes)) or not isinstance(items, Iterable):
        raise NotationError(f"format_tiles takes a list of tiles, cards or tile codes, got "
                            f"{type(items).__name__} {items!r:.60}; parse a text rack with "
                            "parse_tiles first")
    out: list[str] = []
    for i, x in enumerate(items, 1):
        if isinstance(x, (Tile, Card)):
            out.append(str(x))
        elif isinstance(x, numbers.Integral) and not isinstance(x, bool):
            out.append(str(Tile(int(x))))
        else:
            raise NotationError(f"format_tiles: item {i} ({x!r:.40}) is not a Tile, Card or "
                                "tile code 0-52")
    return " ".join(out)


def counts_of(codes: Iterable[int]) -> list[int]:
    """The 53-entry count vector of a rack (the core's input)."""
    counts = [0] * NUM_CODES
    for c in codes:
        counts[int(c)] += 1
    return counts


def codes_of(counts: Sequence[int], kind: type[Tile | Card] = Tile) -> list[Any]:
    """The sorted tiles (or cards) of a count vector; inverse of :func:`counts_of`."""
    return [kind(code) for code in range(NUM_CODES) for _ in range(int(counts[code]))]

"""Table melds of classic Rummy: immutable records of cards that know how they may grow.

A run is three or more consecutive cards of one suit, aces low and kings high with no wrap
(CR-2: A-2-3 is a run, Q-K-A and K-A-2 are not); a set is three or four cards of one rank
(CR-3; one deck, so their suits differ). Cards are kept in table order: a run ascends, a set is
ordered by suit S H D C (the card codes, DESIGN.md "Encoding"). A meld's ``value`` is the sum of
its card values (CR-2: ace 1, J Q K 10, others face value).

>>> m = CardMeld.build(RUN, 0, (0, 1, 2))          # AS 2S 3S
>>> m.text(), m.value, m.adds
('AS 2S 3S', 6, ((3, 1),))
>>> CardMeld.build(SET, 1, (11, 24, 50)).adds      # QS QH QC: the queen of diamonds may join
((37, -1),)
"""

from __future__ import annotations

from ....tiles import MELD_KINDS, Card
from ...table import RUN, SET

__all__ = ["CS", "RUN", "SET", "CardMeld", "card_value"]

#: Card texts by code (``CS[11] == "QS"``).
CS = tuple(str(Card(c)) for c in range(52))
_VALUE = tuple(min(c % 13 + 1, 10) for c in range(52))


def card_value(code: int) -> int:
    """CR-2: ace 1, J Q K 10, others their face value."""
    return _VALUE[code]


class CardMeld:
    """One meld on the table: ``kind`` (RUN/SET), ``owner`` seat, ``cards`` (codes, table
    order), ``value`` (CR-2) and ``adds``: the ``(code, pos)`` single cards that may be laid off
    on it (pos 0 = before a run, 1 = after it, -1 = a set's missing suit)."""

    __slots__ = ("adds", "cards", "kind", "owner", "value")

    kind: int
    owner: int
    cards: tuple[int, ...]
    value: int
    adds: tuple[tuple[int, int], ...]

    @staticmethod
    def build(kind: int, owner: int, cards: tuple[int, ...]) -> CardMeld:
        """The meld of ``cards`` (table order); ValueError naming the rule when they are none.
        Melds are immutable, so equal ones are shared (memoised)."""
        key = (kind, owner, cards)
        m = _MEMO.get(key)
        if m is None:
            m = _build(kind, owner, cards)
            if len(_MEMO) > 100_000:
                _MEMO.clear()
            _MEMO[key] = m
        return m

    @property
    def tiles(self) -> tuple[int, ...]:
        """The cards (the name every engine's table melds share)."""
        return self.cards

    def with_added(self, code: int, pos: int) -> CardMeld:
        if self.kind == RUN:
            cards = (code,) + self.cards if pos == 0 else self.cards + (code,)
            return CardMeld.build(RUN, self.owner, cards)
        return CardMeld.build(SET, self.owner, tuple(sorted(self.cards + (code,))))

    def text(self) -> str:
        return " ".join(CS[c] for c in self.cards)

    def to_json(self, index: int) -> dict[str, object]:
        return {"id": index, "owner": self.owner, "kind": MELD_KINDS[self.kind],
                "tiles": [CS[c] for c in self.cards], "value": self.value}

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, CardMeld):
            return NotImplemented
        return self.kind == other.kind and self.owner == other.owner and self.cards == other.cards

    def __hash__(self) -> int:
        return hash((self.kind, self.owner, self.cards))

    def __repr__(self) -> str:
        return f"CardMeld({MELD_KINDS[self.kind]}, owner={self.owner}, {self.text()!r})"


_MEMO: dict[tuple[int, int, tuple[int, ...]], CardMeld] = {}


def _build(kind: int, owner: int, cards: tuple[int, ...]) -> CardMeld:
    if any(not 0 <= c < 52 for c in cards):
        raise ValueError("cards are codes 0..51 (there are no jokers in classic Rummy, CR-1)")
    m = object.__new__(CardMeld)
    m.kind = kind
    m.owner = owner
    n = len(cards)
    if kind == RUN:
        if n < 3:
            raise ValueError("a run has at least 3 cards (CR-3)")
        first = cards[0]
        suit, rank0 = divmod(first, 13)
        if rank0 + n > 13 or any(c != first + i for i, c in enumerate(cards)):
            # CR-2 names only the runs that go round the king to the ace (Q-K-A, K-A-2); any other
            # cards are simply not consecutive in one suit (CR-3)
            if all(c // 13 == suit for c in cards) and all(
                    (cards[i] + 1) % 13 == cards[i + 1] % 13 for i in range(n - 1)):
                raise ValueError("aces are low and kings high: Q-K-A and K-A-2 are no runs (CR-2)")
            raise ValueError("a run is consecutive cards of one suit in ascending order (CR-3)")
        adds = []
        if rank0 > 0:
            adds.append((first - 1, 0))
        if rank0 + n < 13:
            adds.append((first + n, 1))
        m.adds = tuple(adds)
        del suit
    elif kind == SET:
        if not 3 <= n <= 4:
            raise ValueError("a set has 3 or 4 cards (CR-3)")
        rank = cards[0] % 13
        if any(c % 13 != rank for c in cards):
            raise ValueError("a set is cards of one rank (CR-3)")
        if len(set(cards)) != n:
            raise ValueError("a set holds each card once (one deck, CR-1)")
        cards = tuple(sorted(cards))
        m.adds = tuple((k * 13 + rank, -1) for k in range(4) if k * 13 + rank not in cards) if n == 3 else ()
    else:
        raise ValueError("classic melds are runs and sets (CR-3)")
    m.cards = cards
    m.value = sum(_VALUE[c] for c in cards)
    return m

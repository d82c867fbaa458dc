"""The classic Rummy part of a game's state (held by :attr:`State.x <rummy101.game.State>`).

Everything here is classic Rummy's own: the one shared discard pile (CR-1, CR-3), how many times
the stock has been turned over (CR-5), who has laid a meld of their own this round (CR-3: the
condition for lay-offs), the cards every seat saw each hand take from the pile and still holds
(CR-3) and the turn being built (how it began, the card taken from the pile, the hand size before
the draw: CR-4's narrow reading). The shared fields (hands as count
vectors in ``racks``, the stock, the table, scores) live on :class:`~rummy101.game.State`.
"""

from __future__ import annotations

__all__ = ["ClassicData"]


class ClassicData:
    """Classic Rummy's state record: copied and compared by its own :meth:`copy` and ``==``."""

    __slots__ = (
        "known",       # per seat: cards it took from the pile and still holds, public (CR-3)
        "melded",      # per seat: has laid a meld of their own this round (CR-3)
        "pile",        # the discard pile, bottom first: the top card is the last (CR-1, CR-3)
        "start_size",  # the current player's hand size before the draw (CR-4 narrow)
        "taken",       # the card taken from the pile this turn: it may not be discarded (CR-3); -1
        "took",        # how the turn began: "draw", "take" or "" (take phase)
        "turnovers",   # times the discard pile was turned over into a new stock this round (CR-5)
    )

    known: list[list[int]]
    melded: list[bool]
    pile: list[int]
    start_size: int
    taken: int
    took: str
    turnovers: int

    def __init__(self, players: int) -> None:
        self.known = [[] for _ in range(players)]
        self.melded = [False] * players
        self.pile = []
        self.start_size = 0
        self.taken = -1
        self.took = ""
        self.turnovers = 0

    def copy(self) -> ClassicData:
        c = object.__new__(ClassicData)
        c.known = [k[:] for k in self.known]
        c.melded = self.melded[:]
        c.pile = self.pile[:]
        c.start_size = self.start_size
        c.taken = self.taken
        c.took = self.took
        c.turnovers = self.turnovers
        return c

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ClassicData):
            return NotImplemented
        return (self.pile == other.pile and self.melded == other.melded
                and self.taken == other.taken and self.took == other.took
                and self.start_size == other.start_size and self.turnovers == other.turnovers
                and self.known == other.known)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"ClassicData(pile={len(self.pile)} cards, turnovers={self.turnovers}, "
                f"melded={self.melded})")

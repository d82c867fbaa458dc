"""The Rummy 101 part of a game's state (held by :attr:`State.x <rummy101.game.State>`).

Everything here is Rummy 101's own: per-seat discard piles (R101-3/4), who opened and how
(R101-7/8), the current thresholds (R101-14), the joker-button accounts (R101-10) and the turn
being built (what was taken, the staged opening, the undo snapshot). The shared fields (racks,
stock, table, scores) live on :class:`~rummy101.game.State`.
"""

from __future__ import annotations

from typing import Any

__all__ = ["NOT_OPENED", "OPEN_MELDS", "OPEN_PAIRS", "R101Data"]

NOT_OPENED, OPEN_MELDS, OPEN_PAIRS = 0, 1, 2


class R101Data:
    """Rummy 101's state record: copied and compared by its own :meth:`copy` and ``==``."""

    __slots__ = (
        "button_issued",    # button jokers handed out in the match (R101-10)
        "button_left",      # per seat: jokers left on the joker-button account (R101-10)
        "button_used",      # per seat: the button was used this round (once per round)
        "discards",         # per seat: that seat's discard pile, oldest first (R101-3)
        "last_discard",     # the previous player's last discard, takeable (R101-4); -1 none
        "opened",           # per seat: NOT_OPENED / OPEN_MELDS / OPEN_PAIRS (R101-7/8)
        "opened_turn",      # per seat: the turn of the opening (R101-13 one-turn finish); -1
        "snap",             # the undo snapshot of the turn (a tuple, never mutated), or None
        "staged_from",      # first table index of the staged opening; -1 none
        "staged_kind",      # what the staged opening is made of (OPEN_MELDS / OPEN_PAIRS)
        "taken",            # the code taken from the discards this turn (R101-4); -1 none
        "taken_base",       # copies of ``taken`` on the rack before the take
        "taken_log",        # this round's taken discards: (taker, from seat, code, turn) (R101-4)
        "thr_melds",        # points needed to open with runs/sets now (R101-7, R101-14)
        "thr_pairs",        # pairs needed to open with pairs now (R101-8, R101-14)
        "took",             # how the turn began: "start", "draw", "take", "button" or ""
        "turn_table_start", # table length at the start of the turn
    )

    button_issued: int
    button_left: list[int]
    button_used: list[bool]
    discards: list[list[int]]
    last_discard: int
    opened: list[int]
    opened_turn: list[int]
    snap: Any
    staged_from: int
    staged_kind: int
    taken: int
    taken_base: int
    taken_log: list[tuple[int, int, int, int]]
    thr_melds: int
    thr_pairs: int
    took: str
    turn_table_start: int

    def __init__(self, players: int, button_jokers: int) -> None:
        self.button_issued = 0
        self.button_left = [button_jokers] * players
        self.button_used = [False] * players
        self.discards = [[] for _ in range(players)]
        self.last_discard = -1
        self.opened = [NOT_OPENED] * players
        self.opened_turn = [-1] * players
        self.snap = None
        self.staged_from = -1
        self.staged_kind = NOT_OPENED
        self.taken = -1
        self.taken_base = 0
        self.taken_log = []
        self.thr_melds = 0
        self.thr_pairs = 0
        self.took = ""
        self.turn_table_start = 0

    def copy(self) -> R101Data:
        c = object.__new__(R101Data)
        c.button_issued = self.button_issued
        c.button_left = self.button_left[:]
        c.button_used = self.button_used[:]
        c.discards = [d[:] for d in self.discards]
        c.last_discard = self.last_discard
        c.opened = self.opened[:]
        c.opened_turn = self.opened_turn[:]
        c.snap = self.snap  # snapshots are never mutated, only replaced
        c.staged_from = self.staged_from
        c.staged_kind = self.staged_kind
        c.taken = self.taken
        c.taken_base = self.taken_base
        c.taken_log = self.taken_log[:]
        c.thr_melds = self.thr_melds
        c.thr_pairs = self.thr_pairs
        c.took = self.took
        c.turn_table_start = self.turn_table_start
        return c

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, R101Data):
            return NotImplemented
        return all(getattr(self, f) == getattr(other, f) for f in self.__slots__)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"R101Data(opened={self.opened}, thresholds=({self.thr_melds}, {self.thr_pairs}))"

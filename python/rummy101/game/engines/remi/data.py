"""Remi's part of a game's state (held by :attr:`State.x <rummy101.game.State>`).

Everything here is Remi's own: the Atu (RO-2, RO-4), the train of discards (RO-5, RO-9.4), who
laid down and when (RO-8, RO-10), who declared tabla (RO-11), the doubles exchange (RO-3) and
the turn being built (what was taken, a tile or Joly waiting to be laid at once, the staged
lay-down, the undo snapshot). Shared fields (racks, stock, table, scores) live on the State.
"""

from __future__ import annotations

from typing import Any

__all__ = ["RemiData"]


class RemiData:
    """Remi's state record: copied and compared by its own :meth:`copy` and ``==``."""

    __slots__ = (
        "atu",              # the Atu's code (RO-2), -1 when the atu option is off
        "atu_avail",        # the Atu is still face up beside the stock (RO-4 may take it)
        "atu_turn",         # this turn began by taking the Atu: it must finish (RO-4)
        "closing",          # the tabla close was announced this turn (RO-11)
        "ex_announcer",     # RO-3: the seat whose double is on offer (-1 none)
        "ex_code",          # RO-3: the announced double's tile (shown to its announcer only)
        "ex_log",           # RO-3: public log [(announcer, "big"/"small", acceptor or -1)]
        "ex_queue",         # RO-3: seats still to be asked to announce, in order
        "ex_responders",    # RO-3: seats still to be asked to accept the announced double
        "ex_tiles",         # RO-3: per ex_log entry (offered double's tile, accepting one's or -1)
        "laid",             # per seat: has laid down (RO-8)
        "laid_turn",        # per seat: the turn of the lay-down, -1
        "own_turns",        # per seat: turns begun this round (RO-11: tabla within three)
        "pending",          # a tile that must be laid at once in a new meld (RO-9.4/9.5), -1
        "pending_jr",       # retrievals of a pending Joly so far (RO-9.5)
        "pending_kind",     # "break" or "joly"
        "pending_later",    # RO-9.4: the later discards, onto the rack once the meld is laid
        "reshuffled",       # the discards were shuffled into a new stock once (RO-10)
        "snap",             # undo snapshot of the turn (immutable tuple) or None
        "staged_from",      # first table index of the staged lay-down, -1 none
        "tabla",            # per seat: declared tabla (RO-11)
        "taken",            # a discard taken by a player not laid down: must be used (RO-10)
        "taken_base",       # copies of ``taken`` on the rack before the take
        "took",             # how the turn began: start, draw, take, break, atu or ""
        "train",            # the row of discards, oldest first (RO-5)
        "train_by",         # who discarded each tile of the train
        "turn_table_start", # table length at the start of the turn
        "twin",             # the seat whose dealt rack held the Atu's twin (+50, RO-2), -1
    )

    atu: int
    atu_avail: bool
    atu_turn: bool
    closing: bool
    ex_announcer: int
    ex_code: int
    ex_log: list[tuple[int, str, int]]
    ex_queue: list[int]
    ex_responders: list[int]
    ex_tiles: list[tuple[int, int]]
    laid: list[bool]
    laid_turn: list[int]
    own_turns: list[int]
    pending: int
    pending_jr: int
    pending_kind: str
    pending_later: tuple[int, ...]
    reshuffled: bool
    snap: Any
    staged_from: int
    tabla: list[bool]
    taken: int
    taken_base: int
    took: str
    train: list[int]
    train_by: list[int]
    turn_table_start: int
    twin: int

    def __init__(self, players: int) -> None:
        self.atu = -1
        self.atu_avail = False
        self.atu_turn = False
        self.closing = False
        self.ex_announcer = -1
        self.ex_code = -1
        self.ex_log = []
        self.ex_queue = []
        self.ex_responders = []
        self.ex_tiles = []
        self.laid = [False] * players
        self.laid_turn = [-1] * players
        self.own_turns = [0] * players
        self.pending = -1
        self.pending_jr = 0
        self.pending_kind = ""
        self.pending_later = ()
        self.reshuffled = False
        self.snap = None
        self.staged_from = -1
        self.tabla = [False] * players
        self.taken = -1
        self.taken_base = 0
        self.took = ""
        self.train = []
        self.train_by = []
        self.turn_table_start = 0
        self.twin = -1

    _LISTS = ("ex_log", "ex_queue", "ex_responders", "ex_tiles", "laid", "laid_turn", "own_turns",
              "tabla", "train", "train_by")

    def copy(self) -> RemiData:
        c = object.__new__(RemiData)
        for f in self.__slots__:
            v = getattr(self, f)
            object.__setattr__(c, f, v[:] if f in self._LISTS else v)
        return c

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RemiData):
            return NotImplemented
        return all(getattr(self, f) == getattr(other, f) for f in self.__slots__)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"RemiData(laid={self.laid}, tabla={self.tabla}, train={len(self.train)})"

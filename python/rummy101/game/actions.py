"""Actions of the game engines: small frozen records with a text form.

A turn is built step by step (docs/DESIGN.md, "Game surface"), so every action is small:

============================  ==================================================================
text                          meaning
============================  ==================================================================
``draw``                      take the top stock tile (R101-3)
``take``                      take the previous player's last discard (R101-4)
``button``                    take a joker from the joker button instead of drawing (R101-10)
``run R3 R4 R5``              lay (or, before opening, stage) a new 3-tile run; jokers as ``*``
``set R7 Y7 K7``              lay / stage a new 3-tile set (``set R7 * *`` for one tile + jokers)
``pair R5 R5``                lay / stage a pair (``pair R5 *`` with a joker) (R101-8)
``add R6 to 3@end``           add a tile to table meld 3 (``@start`` / ``@end`` for runs; sets
                              take no position: ``add K8 to 2``) (R101-11)
``retrieve 2:1 with R11``     put R11 in place of the joker at index 1 of meld 2 and take the
                              joker (R101-9)
``open``                      commit the staged opening; the threshold is checked here (R101-7/8)
``reset``                     undo every play of this turn (and a taken discard) (engine step)
``discard R7``                end the turn (R101-3, R101-12)
============================  ==================================================================

Runs and sets are always 3 tiles when laid; they grow one tile at a time with ``add``. Jokers in a
run stand for the number at their position; in a set they stand for a missing colour.
``meld ...`` is accepted on input as a synonym (a run when the tiles form one, else a set).

>>> a = Action.parse("add r6 to 3@END")
>>> a, str(a)
(Action.parse('add R6 to 3@end'), 'add R6 to 3@end')
>>> Action.parse("retrieve 2:1 with R11").tiles
(Tile('R11'),)
>>> str(Action.parse("meld R3 * R5"))
'run R3 * R5'
"""

from __future__ import annotations

from typing import Any

from ..errors import NotationError
from ..tiles import JOKER_CODE, Tile, parse_tiles

__all__ = ["VERBS", "Action"]

VERBS = ("draw", "take", "button", "run", "set", "pair", "add", "retrieve", "open", "reset",
         "discard")
_BARE = ("draw", "take", "button", "open", "reset")
_HELP = ("actions: draw | take | button | run T T T | set T T T | pair T T | add T to M[@start|@end] "
         "| retrieve M:I with T | open | reset | discard T (T a tile such as R5 or *, M a table "
         "meld index, I a joker index)")


def _tile_str(code: int) -> str:
    return str(Tile(code))


class Action:
    """One step of a turn. Build with :meth:`parse` or the class methods; compare by value.

    ``verb`` is one of :data:`VERBS`; ``tiles`` the tile codes involved (table order for new
    melds); ``meld`` a table index (``add``, ``retrieve``; else -1); ``pos`` 0 = start / 1 = end
    of a run, -1 = no position (``add``), or the joker index (``retrieve``).
    """

    __slots__ = ("_hash", "_text", "meld", "pos", "tiles", "verb")

    verb: str
    tiles: tuple[Tile, ...]
    meld: int
    pos: int
    _text: str
    _hash: int

    def __init__(self, verb: str, tiles: tuple[int, ...] = (), meld: int = -1, pos: int = -1) -> None:
        if verb not in VERBS:
            raise NotationError(f"unknown action verb {verb!r}; {_HELP}")
        ts = _canonical(verb, tuple(Tile(t) for t in tiles))
        _check_shape(verb, ts, int(meld), int(pos))
        s = object.__setattr__
        s(self, "verb", verb)
        s(self, "tiles", ts)
        s(self, "meld", int(meld))
        s(self, "pos", int(pos))
        s(self, "_text", _format(verb, ts, int(meld), int(pos)))
        s(self, "_hash", hash(self._text))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Action is immutable")

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Action.parse({self._text!r})"

    def __eq__(self, other: object) -> bool:
        if other is self:
            return True
        if isinstance(other, Action):
            return self._text == other._text
        return NotImplemented

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[Any, ...]:
        return (Action.parse, (self._text,))

    # ---- parsing --------------------------------------------------------------------------
    @classmethod
    def parse(cls, text: str | Action) -> Action:
        """Parse the text form (case-insensitive; extra spaces ignored)."""
        if isinstance(text, Action):
            return text
        if not isinstance(text, str):
            raise NotationError(f"an action must be a string, got {type(text).__name__} {text!r}; {_HELP}")
        cached = _PARSE_CACHE.get(text)
        if cached is not None:
            return cached
        words = text.strip().split()
        if not words:
            raise NotationError(f"empty action {text!r}; {_HELP}")
        verb = words[0].lower()
        rest = words[1:]
        try:
            act = _parse_words(verb, rest)
        except NotationError as exc:
            raise NotationError(f"action {text!r}: {exc}") from None
        if len(_PARSE_CACHE) < 200_000:
            _PARSE_CACHE[text] = act
        return act


_NTILES = {"draw": 0, "take": 0, "button": 0, "open": 0, "reset": 0, "discard": 1, "run": 3,
            "set": 3, "pair": 2, "add": 1, "retrieve": 1}


def _check_shape(verb: str, ts: tuple[Tile, ...], meld: int, pos: int) -> None:
    if len(ts) != _NTILES[verb]:
        raise NotationError(f"{verb} takes {_NTILES[verb]} tile(s), got {len(ts)}; {_HELP}")
    if verb == "add" and (meld < 0 or pos not in (-1, 0, 1)):
        raise NotationError(f"add needs a meld index >= 0 and pos -1 (set), 0 (start) or 1 (end); "
                            f"got meld={meld}, pos={pos}")
    if verb == "retrieve" and (meld < 0 or pos < 0):
        raise NotationError(f"retrieve needs a meld index >= 0 and a joker index >= 0; got "
                            f"meld={meld}, pos={pos}")


def _canonical(verb: str, ts: tuple[Tile, ...]) -> tuple[Tile, ...]:
    """Sets in colour order R Y B K with jokers at the first missing colours; pairs real tile
    first (DESIGN.md, Encoding), so that ``set B7 R7 K7`` and ``set R7 B7 K7`` are one action."""
    if verb == "pair" and len(ts) == 2 and ts[0] == JOKER_CODE:
        return (ts[1], ts[0])
    if verb == "set" and JOKER_CODE in ts or verb == "set" and list(ts) != sorted(ts):
        reals = sorted(t for t in ts if t != JOKER_CODE)
        jokers = len(ts) - len(reals)
        if reals and len({t % 13 for t in reals}) == 1:
            colours = {t // 13 for t in reals}
            out: list[Tile] = []
            left = jokers
            for k in range(4):
                if k in colours:
                    out.append(next(t for t in reals if t // 13 == k))
                elif left:
                    out.append(Tile(JOKER_CODE))
                    left -= 1
            if len(out) == len(ts):
                return tuple(out)
        return tuple(reals) + (Tile(JOKER_CODE),) * jokers
    return ts


def _format(verb: str, tiles: tuple[Tile, ...], meld: int, pos: int) -> str:
    if verb in _BARE:
        return verb
    if verb == "discard":
        return f"discard {tiles[0]}"
    if verb in ("run", "set", "pair"):
        return verb + " " + " ".join(str(t) for t in tiles)
    if verb == "add":
        where = "" if pos < 0 else ("@start" if pos == 0 else "@end")
        return f"add {tiles[0]} to {meld}{where}"
    return f"retrieve {meld}:{pos} with {tiles[0]}"


def _index(word: str, what: str) -> int:
    if not word.isdigit():
        raise NotationError(f"{what} {word!r} is not a table meld index (a whole number >= 0)")
    return int(word)


def _parse_words(verb: str, rest: list[str]) -> Action:
    if verb in _BARE:
        if rest:
            raise NotationError(f"{verb!r} takes no arguments; {_HELP}")
        return Action(verb)
    if verb == "discard":
        if len(rest) != 1:
            raise NotationError(f"discard takes exactly one tile; {_HELP}")
        return Action("discard", tuple(parse_tiles(rest)))
    if verb in ("run", "set", "pair", "meld"):
        tiles = tuple(parse_tiles(rest))
        need = 2 if verb == "pair" else 3
        if len(tiles) != need:
            raise NotationError(f"{verb} takes exactly {need} tiles (longer melds grow with 'add'); "
                                f"got {len(tiles)}")
        if verb == "meld":
            verb = "run" if _looks_like_run(tiles) else "set"
        return Action(verb, tiles)
    if verb == "add":
        if len(rest) != 3 or rest[1].lower() != "to":
            raise NotationError(f"expected 'add TILE to MELD[@start|@end]'; {_HELP}")
        tile = parse_tiles(rest[:1])[0]
        target = rest[2].lower()
        pos = -1
        if "@" in target:
            target, where = target.split("@", 1)
            if where not in ("start", "end"):
                raise NotationError(f"position {where!r} must be 'start' or 'end'")
            pos = 0 if where == "start" else 1
        return Action("add", (tile,), _index(target, "meld"), pos)
    if verb == "retrieve":
        if len(rest) != 3 or rest[1].lower() != "with" or ":" not in rest[0]:
            raise NotationError(f"expected 'retrieve MELD:INDEX with TILE'; {_HELP}")
        m, i = rest[0].split(":", 1)
        tile = parse_tiles(rest[2:])[0]
        return Action("retrieve", (tile,), _index(m, "meld"), _index(i, "joker index"))
    raise NotationError(f"unknown action verb {verb!r}; {_HELP}")


def _looks_like_run(tiles: tuple[Tile, ...]) -> bool:
    real = [(i, t) for i, t in enumerate(tiles) if t != JOKER_CODE]
    if not real:
        return False
    i0, t0 = real[0]
    start = t0 % 13 + 1 - i0
    return all(t // 13 == t0 // 13 and t % 13 + 1 == start + i for i, t in real)


_PARSE_CACHE: dict[str, Action] = {}

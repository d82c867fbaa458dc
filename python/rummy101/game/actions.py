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

Verbs are declared with a *shape* (:func:`declare_verb`): ``bare`` (``open``), ``tiles`` (a
verb and a fixed number of pieces, or one or more), ``add``, ``retrieve`` and ``index``
(``verb N``). The table above is the built-in set; an engine declares its own verbs at import
and lists the ones it accepts in ``VERBS``. Pieces are tiles or, for card variants, cards:
:meth:`Action.parse` reads them in the context of the rules (``Action.parse("discard QS",
Rules.parse("classic"))``), and ``str()`` prints them the same way.

>>> a = Action.parse("add r6 to 3@END")
>>> a, str(a)
(Action.parse('add R6 to 3@end'), 'add R6 to 3@end')
>>> Action.parse("retrieve 2:1 with R11").tiles
(Tile('R11'),)
>>> str(Action.parse("meld R3 * R5"))
'run R3 * R5'
>>> Action.parse("draw") == "draw"
True
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ..errors import NotationError
from ..tiles import JOKER_CODE, Card, Tile, parse_cards, parse_tiles

if TYPE_CHECKING:
    from ..rules import Rules

__all__ = ["ALL_VERBS_HELP", "SHAPES", "VERBS", "Action", "declare_verb", "last_actions", "verb_spec",
           "verbs_help", "with_games_verbs"]

#: How a verb's text is written (see the module docstring).
SHAPES = ("bare", "tiles", "add", "retrieve", "index")

# verb -> (shape, number of pieces; -1 = one or more)
_SPECS: dict[str, tuple[str, int]] = {
    "draw": ("bare", 0), "take": ("bare", 0), "button": ("bare", 0), "open": ("bare", 0),
    "reset": ("bare", 0), "discard": ("tiles", 1), "run": ("tiles", 3), "set": ("tiles", 3),
    "pair": ("tiles", 2), "add": ("add", 1), "retrieve": ("retrieve", 1),
}
#: Every declared verb, in declaration order (the built-in ones first).
VERBS: tuple[str, ...] = tuple(_SPECS)
_HELP = ("actions: draw | take | button | run T T T | set T T T | pair T T | add T to M[@start|@end] "
         "| retrieve M:I with T | open | reset | discard T (T a tile such as R5 or *, or a card "
         "such as QS; M a table meld index, I a joker index), or a verb of the variant's engine")


#: The notation's list of every verb, which its errors end with (a game that knows its engine
#: may put :func:`verbs_help` of its own verbs in its place).
ALL_VERBS_HELP = _HELP


def with_games_verbs(message: str, verbs: Iterable[str], cards: bool, variant: str,
                     legal: str) -> str:
    """An action text the notation refused: the notation's list of every engine's verbs
    (Rummy 101's button, pair, retrieve, open… in a classic game too) in ``message`` gives way
    to one game's ``verbs`` as they are written, and to where its playable actions are listed
    (``legal``: "the view's 'legal'", "'legal'")."""
    return message.replace(ALL_VERBS_HELP, f"the actions of {variant}: {verbs_help(verbs, cards)}; "
                                           f"{legal} lists the actions playable now)")


def verbs_help(verbs: Iterable[str], cards: bool) -> str:
    """The usage of ``verbs`` as they are written, in declaration order, with what their
    letters stand for (C a card or T a tile, M a table meld, I a joker's place, N a number)."""
    wanted = set(verbs)
    p = "C" if cards else "T"
    usage = []
    for verb in VERBS:  # declaration order: the built-in verbs first
        if verb not in wanted:
            continue
        shape, n = _SPECS[verb]
        usage.append({"bare": verb, "index": f"{verb} N", "add": f"add {p} to M[@start|@end]",
                      "retrieve": f"retrieve M:I with {p}",
                      "tiles": f"{verb} {p} {p} {p}..." if n < 0 else
                      " ".join([verb] + [p] * n)}[shape])
    words = ["C a card such as QS" if cards else "T a tile such as R5 or *",
             "M a table meld index"]
    words += ["I a joker's index in it"] if "retrieve" in wanted else []
    words += ["N a whole number"] if any(" N" in u for u in usage) else []
    return f"{' | '.join(usage)} ({', '.join(words)}"


def verb_spec(name: str) -> tuple[str, int]:
    """``(shape, pieces)`` of a declared verb (pieces -1: one or more).

    >>> verb_spec("add"), verb_spec("run")
    (('add', 1), ('tiles', 3))
    """
    spec = _SPECS.get(name)
    if spec is None:
        raise NotationError(f"unknown action verb {name!r}; declared verbs: {', '.join(_SPECS)}")
    return spec


def declare_verb(name: str, shape: str, pieces: int = 0) -> None:
    """Declare an action verb for an engine (at import). Declaring a verb again with the same
    shape is a no-op; a different shape, or a built-in verb, is refused."""
    global VERBS
    if not name.isascii() or not name.isalpha() or not name.islower():
        raise ValueError(f"verb {name!r} must be lower-case ASCII letters")
    if shape not in SHAPES:
        raise ValueError(f"shape {shape!r} is not one of {', '.join(SHAPES)}")
    spec = (shape, pieces if shape in ("tiles",) else (1 if shape in ("add", "retrieve") else 0))
    old = _SPECS.get(name)
    if old is not None:
        if old != spec:
            raise ValueError(f"verb {name!r} is already declared as {old}, not {spec}")
        return
    _SPECS[name] = spec
    VERBS = tuple(_SPECS)


#: The verbs after which the turn passes to the next seat (bots.view.TURN_ENDING_KINDS).
_TURN_ENDING = frozenset({"discard", "go_out"})


def _tile_str(code: int) -> str:
    return str(Tile(code))


class Action:
    """One step of a turn. Build with :meth:`parse` or the class methods; compare by value.

    ``verb`` is a declared verb (:data:`VERBS`); ``tiles`` the pieces involved (:class:`Tile`
    or, with ``cards=True``, :class:`Card`; table order for new melds); ``meld`` a table index
    (``add``, ``retrieve``; else -1) or the number of an ``index`` verb; ``pos`` 0 = start /
    1 = end of a run, -1 = no position (``add``), or the joker index (``retrieve``), or the piece
    a one-or-more-pieces verb names with ``@I`` (Remi's ``lay .. @I``: where a retrieved Joly goes).

    Two actions are equal when their canonical texts are; an action also equals its canonical
    text (``Action.parse("draw") == "draw"``), and hashes like it.
    """

    __slots__ = ("_hash", "_text", "codes", "ends_turn", "meld", "pos", "tiles", "verb")

    verb: str
    tiles: tuple[Tile, ...] | tuple[Card, ...]
    codes: tuple[int, ...]      # the tiles as plain int codes (what engines index racks with)
    ends_turn: bool             # a discard or going out: the turn passes on after it
    meld: int
    pos: int
    _text: str
    _hash: int

    def __init__(self, verb: str, tiles: tuple[int, ...] = (), meld: int = -1, pos: int = -1,
                 *, cards: bool = False) -> None:
        if not isinstance(verb, str) or verb not in _SPECS:
            raise NotationError(f"unknown action verb {verb!r}; {_HELP}")
        if isinstance(tiles, (str, bytes)) or not isinstance(tiles, Iterable):
            raise NotationError(f"action {verb}: tiles must be a tuple of tiles or codes, got "
                                f"{type(tiles).__name__} {tiles!r:.40} (Action.parse reads text)")
        for what, n in (("meld", meld), ("pos", pos)):
            if isinstance(n, bool) or not isinstance(n, numbers.Integral):
                raise NotationError(f"action {verb}: {what} must be a whole number, got "
                                    f"{type(n).__name__} {n!r:.40}")
        piece = Card if cards else Tile
        ts = _canonical(verb, tuple(piece(t) for t in tiles))
        _check_shape(verb, ts, int(meld), int(pos))
        s = object.__setattr__
        s(self, "verb", verb)
        s(self, "tiles", ts)
        s(self, "codes", tuple(int(t) for t in ts))
        s(self, "ends_turn", verb in _TURN_ENDING)
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
        if isinstance(other, str):
            return self._text == other
        return NotImplemented

    def __hash__(self) -> int:
        return self._hash

    @property
    def cards(self) -> bool:
        """True when the pieces are cards."""
        return bool(self.tiles) and isinstance(self.tiles[0], Card)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self._text, self.cards))

    # ---- parsing --------------------------------------------------------------------------
    @classmethod
    def parse(cls, text: str | Action, rules: Rules | str | None = None) -> Action:
        """Parse the text form (case-insensitive; extra spaces ignored). Pieces are tiles, or
        cards when ``rules`` is a card variant's."""
        if isinstance(text, Action):
            return text
        if not isinstance(text, str):
            raise NotationError(f"an action must be an Action (one of state.legal_actions()) or its text, "
                                f"got {type(text).__name__} {text!r:.60}; {_HELP}")
        if isinstance(rules, str):  # a rules text too ('classic' was AttributeError 'family')
            from ..rules import Rules as _Rules

            rules = _Rules.parse(rules)
        elif rules is not None and not hasattr(rules, "family"):
            raise NotationError(f"rules must be a Rules or a rules text such as 'classic', got "
                                f"{type(rules).__name__} {rules!r:.40}")
        cards = rules is not None and rules.family == "cards"
        cache = _CARD_CACHE if cards else _PARSE_CACHE
        cached = cache.get(text)
        if cached is not None:
            return cached
        words = text.strip().split()
        if not words:
            raise NotationError(f"empty action {text!r}; {_HELP}")
        verb = words[0].lower()
        rest = words[1:]
        if rules is not None and verb not in _SPECS:
            _declare_engine_verbs(rules)  # 'atu' of Remi before any Remi game was made
        try:
            act = _parse_words(verb, rest, cards)
        except NotationError as exc:
            raise NotationError(f"action {text!r}: {exc}") from None
        if len(cache) < 200_000:
            cache[text] = act
        return act


def _declare_engine_verbs(rules: Any) -> None:
    """Import the engine of ``rules.variant``, which declares its own verbs (Remi's ``atu``,
    ``lay``, ``tabla``...) at import: a verb of the variant parses whether or not a game of it
    was made first. A variant without an engine declares nothing (the verb stays unknown)."""
    from ..errors import RulesError
    from .engine import engine_for

    try:
        engine_for(rules)
    except RulesError:
        pass


def _rebuild(text: str, cards: bool) -> Action:
    return Action.parse(text, _CARD_RULES if cards else None)


class _CardFamily:
    family = "cards"


_CARD_RULES: Any = _CardFamily()


def _check_shape(verb: str, ts: tuple[Tile, ...] | tuple[Card, ...], meld: int, pos: int) -> None:
    shape, n = _SPECS[verb]
    if n >= 0 and len(ts) != n or n < 0 and not ts:
        want = "one or more" if n < 0 else str(n)
        raise NotationError(f"{verb} takes {want} piece(s), got {len(ts)}; {_HELP}")
    if shape == "index" and meld < 0:
        raise NotationError(f"{verb} needs a number >= 0, got {meld}")
    if shape == "add" and (meld < 0 or pos not in (-1, 0, 1)):
        raise NotationError(f"add needs a meld index >= 0 and pos -1 (set), 0 (start) or 1 (end); "
                            f"got meld={meld}, pos={pos}")
    if shape == "tiles" and n < 0 and not -1 <= pos < len(ts):
        raise NotationError(f"{verb} takes a piece index @0..@{len(ts) - 1} after its pieces; got @{pos}")
    if shape == "retrieve" and (meld < 0 or pos < 0):
        raise NotationError(f"retrieve needs a meld index >= 0 and a joker index >= 0; got "
                            f"meld={meld}, pos={pos}")


def _canonical(verb: str, ts: tuple[Any, ...]) -> tuple[Any, ...]:
    """Sets in colour order R Y B K with jokers at the first missing colours; pairs real tile
    first (DESIGN.md, Encoding), so that ``set B7 R7 K7`` and ``set R7 B7 K7`` are one action."""
    if verb == "pair" and len(ts) == 2 and ts[0] == JOKER_CODE:
        return (ts[1], ts[0])
    if verb == "set" and JOKER_CODE in ts or verb == "set" and list(ts) != sorted(ts):
        reals = sorted(t for t in ts if t != JOKER_CODE)
        jokers = len(ts) - len(reals)
        if reals and len({t % 13 for t in reals}) == 1:
            colours = {t // 13 for t in reals}
            out: list[Any] = []
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


def _format(verb: str, tiles: tuple[Any, ...], meld: int, pos: int) -> str:
    shape = _SPECS[verb][0]
    if shape == "bare":
        return verb
    if shape == "tiles":
        at = f" @{pos}" if pos >= 0 and _SPECS[verb][1] < 0 else ""  # a piece index (Remi's lay)
        return verb + " " + " ".join(str(t) for t in tiles) + at
    if shape == "index":
        return f"{verb} {meld}"
    if verb == "add":
        where = "" if pos < 0 else ("@start" if pos == 0 else "@end")
        return f"add {tiles[0]} to {meld}{where}"
    return f"retrieve {meld}:{pos} with {tiles[0]}"


def _index(word: str, what: str) -> int:
    if not word.isdigit():
        raise NotationError(f"{what} {word!r} is not a table meld index (a whole number >= 0)")
    return int(word)


def _parse_words(verb: str, rest: list[str], cards: bool) -> Action:
    parse = parse_cards if cards else parse_tiles
    what = "card" if cards else "tile"
    if verb == "meld":
        pieces = tuple(parse(rest))
        if len(pieces) != 3:
            raise NotationError(f"meld takes exactly 3 {what}s (longer melds grow with 'add'); "
                                f"got {len(pieces)}")
        return Action("run" if _looks_like_run(pieces) else "set", pieces, cards=cards)
    spec = _SPECS.get(verb)
    if spec is None:
        raise NotationError(f"unknown action verb {verb!r}; {_HELP}")
    shape, n = spec
    if shape == "bare":
        if rest:
            raise NotationError(f"{verb!r} takes no arguments; {_HELP}")
        return Action(verb)
    if shape == "index":
        if len(rest) != 1:
            raise NotationError(f"expected '{verb} N' (N a whole number >= 0); {_HELP}")
        return Action(verb, (), _index(rest[0], f"{verb} number"), cards=cards)
    if shape == "tiles":
        at = -1
        if n < 0 and rest and rest[-1].startswith("@"):      # ``lay T .. T @I``: piece I named
            if not rest[-1][1:].isdigit():
                raise NotationError(f"piece index {rest[-1]!r} must be @ and a whole number >= 0")
            at = int(rest[-1][1:])
            rest = rest[:-1]
        pieces = tuple(parse(rest))
        if n == 1 and len(pieces) != 1:
            raise NotationError(f"{verb} takes exactly one {what}; {_HELP}")
        if n > 1 and len(pieces) != n:
            raise NotationError(f"{verb} takes exactly {n} {what}s (longer melds grow with 'add'); "
                                f"got {len(pieces)}")
        if n < 0 and not pieces:
            raise NotationError(f"{verb} takes one or more {what}s; {_HELP}")
        return Action(verb, pieces, -1, at, cards=cards)
    if shape == "add":
        if len(rest) != 3 or rest[1].lower() != "to":
            raise NotationError(f"expected '{verb} {what.upper()} to MELD[@start|@end]'; {_HELP}")
        tile = parse(rest[:1])[0]
        target = rest[2].lower()
        pos = -1
        if "@" in target:
            target, where = target.split("@", 1)
            if where not in ("start", "end"):
                raise NotationError(f"position {where!r} must be 'start' or 'end'")
            pos = 0 if where == "start" else 1
        return Action(verb, (tile,), _index(target, "meld"), pos, cards=cards)
    if len(rest) != 3 or rest[1].lower() != "with" or ":" not in rest[0]:  # retrieve
        raise NotationError(f"expected '{verb} MELD:INDEX with {what.upper()}'; {_HELP}")
    m, i = rest[0].split(":", 1)
    tile = parse(rest[2:])[0]
    return Action(verb, (tile,), _index(m, "meld"), _index(i, "joker index"), cards=cards)


def _looks_like_run(tiles: tuple[Any, ...]) -> bool:
    real = [(i, t) for i, t in enumerate(tiles) if t != JOKER_CODE]
    if not real:
        return False
    i0, t0 = real[0]
    start = t0 % 13 + 1 - i0
    return all(t // 13 == t0 // 13 and t % 13 + 1 == start + i for i, t in real)


_PARSE_CACHE: dict[str, Action] = {}
_CARD_CACHE: dict[str, Action] = {}


def last_actions(history: Iterable[Any], n: int = 12) -> str:
    """The last ``n`` actions of a game's history as text, the way a loop is shown when a bot
    never ends its turn or round (``rummy101 sim``, ``rummy101 play``, the RL env): a step count
    alone does not show what repeats."""
    return ", ".join(str(a) for a in list(history)[-n:])

"""Rule sets as data (STYLE.md): one frozen, keyword-only :class:`Rules` object per variant and
options, loaded from strings such as ``"rummy101(threshold=increasing,players=3)"``.

>>> r = Rules.parse("rummy101(threshold=increasing,players=3)")
>>> r.players, r.opts.threshold, r.opening_points
(3, 'increasing', 101)
>>> str(r)
'rummy101(players=3,threshold=increasing)'
>>> Rules.parse(str(r)) == r
True
>>> Rules.parse("remi").hand_size, Rules.parse("classic").opts.target
(14, 200)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Literal, TypeVar

from .errors import RackError, RulesError
from .tiles import (
    JOKER_CODE,
    NUM_CODES,
    Card,
    Tile,
    counts_of,
    parse_cards,
    parse_tiles,
)

__all__ = [
    "MAX_SPEC_CHARS",
    "VARIANTS",
    "ClassicOptions",
    "CoreParams",
    "RemiOptions",
    "Rules",
    "Rummy101Options",
    "Valuation",
    "get_rules",
    "option_help",
    "variants",
]

#: The longest rules string :meth:`Rules.parse` reads (the longest canonical one is about 80
#: characters); longer text is refused before any parsing, wherever it comes from.
MAX_SPEC_CHARS = 200

Family = Literal["tiles", "cards"]
Valuation = Literal["open", "penalty"]


@dataclass(frozen=True)
class CoreParams:
    """What the combinatorial core needs about a rule set and a valuation (see encoding.hpp).

    ``run_value[n]`` is the value of a tile standing at number ``n`` (1..14, 14 = high ace) of a
    run; ``set_value[n]`` the value of a tile of number ``n`` in a set or loose on the rack;
    ``joker_value`` is -1 when a joker is worth the tile it stands for, else its fixed value.
    """

    high_ace: bool
    joker_ratio: int
    run_value: tuple[int, ...]
    set_value: tuple[int, ...]
    joker_value: int

    def args(self) -> tuple[bool, int, list[int], list[int], int]:
        return (self.high_ace, self.joker_ratio, list(self.run_value), list(self.set_value),
                self.joker_value)


def _face(n: int) -> int:
    return n


def _remi_laydown(n: int) -> int:  # RO-8: 2-9 -> 5, 10-13 -> 10; the ace is handled by position
    return 5 if 2 <= n <= 9 else 10


def _remi_end(n: int) -> int:  # RO-12: 2-9 -> 5, 10-13 -> 10, 1 -> 25
    return 25 if n == 1 else (5 if n <= 9 else 10)


def _card(n: int) -> int:  # CR-2: ace 1, J Q K 10, others face value
    return min(n, 10)


def _params(high_ace: bool, ratio: int, run: Callable[[int], int], st: Callable[[int], int],
            joker: int, low_ace_run: int | None = None, high_ace_run: int | None = None) -> CoreParams:
    run_value = [0] + [run(n) for n in range(1, 14)] + [0]
    if low_ace_run is not None:
        run_value[1] = low_ace_run
    if high_ace:
        run_value[14] = high_ace_run if high_ace_run is not None else run(1)
    set_value = [0] + [st(n) for n in range(1, 14)]
    return CoreParams(high_ace, ratio, tuple(run_value), tuple(set_value), joker)


def _bool(text: str) -> bool:
    t = text.strip().lower()
    if t in ("1", "true", "yes", "on"):
        return True
    if t in ("0", "false", "no", "off"):
        return False
    raise ValueError("expected on/off (also true/false, yes/no, 1/0)")


def _int_in(lo: int, hi: int) -> Callable[[str], int]:
    def conv(text: str) -> int:
        t = text.strip()
        # ASCII digits only: int() would also read "５", "٥" or "1_0"
        if not (t.isascii() and t.isdigit()):
            raise ValueError(f"expected a whole number from {lo} to {hi} (ASCII digits)")
        v = int(t)
        if not lo <= v <= hi:
            raise ValueError(f"expected a whole number from {lo} to {hi}")
        return v
    conv.__doc__ = f"{lo}..{hi}"
    return conv


def _choice(*names: str) -> Callable[[str], str]:
    def conv(text: str) -> str:
        t = text.strip().lower()
        if t not in names:
            raise ValueError(f"expected one of {', '.join(names)}")
        return t
    conv.__doc__ = "|".join(names)
    return conv


@dataclass(frozen=True)
class _Option:
    name: str
    default: Any
    convert: Callable[[str], Any]
    doc: str

    def accepted(self) -> str:
        if self.convert is _bool:
            return "on|off"
        return self.convert.__doc__ or "?"


# Options each variant accepts, in canonical order (str(rules) prints non-defaults in this order).
_OPTIONS: dict[str, tuple[_Option, ...]] = {
    "rummy101": (
        _Option("players", 4, _int_in(2, 4), "number of players (R101-1)"),
        _Option("threshold", "fixed", _choice("fixed", "increasing"),
                "fixed 101 points / 5 pairs, or increasing thresholds (R101-14)"),
        _Option("button_jokers", 0, _int_in(0, 1000),
                "jokers on each player's joker-button account; one usable per round (R101-10)"),
    ),
    "remi": (
        _Option("players", 4, _int_in(2, 4), "number of players (RO-1)"),
        _Option("atu", True, _bool, "turn up an Atu: twin bonus, Atu from the stock, Atu-1 doubling (RO-2, RO-4, RO-12)"),
        _Option("doubles", True, _bool, "exchange of doubles before play (RO-3)"),
        _Option("tabla", True, _bool, "closing on the rack (RO-11)"),
        _Option("joly_atu_deal", 13, _int_in(13, 14),
                "tiles dealt besides a Joly Atu to the first player: the seed's 13 (default) or 14 (RO-2)"),
        _Option("joly_retrievals", 1, _int_in(1, 2), "times each Joly may be retrieved from a meld (RO-9.5)"),
    ),
    "classic": (
        _Option("players", 4, _int_in(2, 4), "number of players (CR-1; 2-3 is an engine extension)"),
        _Option("target", 200, _int_in(1, 100000), "game target score (CR-6)"),
        _Option("go_out", "broad", _choice("broad", "narrow"),
                "going out without a discard: broad reading or the seed's narrow case (CR-4)"),
    ),
}

VARIANTS: tuple[str, ...] = tuple(_OPTIONS)


@dataclass(frozen=True, kw_only=True)
class Rummy101Options:
    """Rummy 101's options (``rules.opts`` of a ``rummy101`` rule set)."""

    players: int = 4
    threshold: str = "fixed"       # R101-14: fixed 101 / 5 pairs, or increasing
    button_jokers: int = 0         # R101-10: jokers on each joker-button account


@dataclass(frozen=True, kw_only=True)
class RemiOptions:
    """Remi's options (``rules.opts`` of a ``remi`` rule set)."""

    players: int = 4
    atu: bool = True               # RO-2, RO-4, RO-12
    doubles: bool = True           # RO-3
    tabla: bool = True             # RO-11
    joly_atu_deal: int = 13        # RO-2: tiles dealt besides a Joly Atu (seed 004: "doar 13 piese")
    joly_retrievals: int = 1       # RO-9.5


@dataclass(frozen=True, kw_only=True)
class ClassicOptions:
    """Classic card Rummy's options (``rules.opts`` of a ``classic`` rule set)."""

    players: int = 4
    target: int = 200              # CR-6
    go_out: str = "broad"          # CR-4: broad reading or the seed's narrow case


Options = Rummy101Options | RemiOptions | ClassicOptions
_O = TypeVar("_O", Rummy101Options, RemiOptions, ClassicOptions)



def _split_spec(spec: str) -> tuple[str, str | None] | None:
    """``"name(body)"`` -> (name, body); ``"name"`` -> (name, None); None when malformed.

    One pass over the text, no regular expression (no backtracking on hostile input)."""
    text = spec.strip()
    open_at = text.find("(")
    if open_at < 0:
        name, body = text, None
    else:
        if not text.endswith(")"):
            return None
        name, body = text[:open_at].rstrip(), text[open_at + 1:-1]
    if not name or not name.isascii() or not name.replace("_", "a").isalnum():
        return None
    return name, body


def _quote(text: str, limit: int = 80) -> str:
    return repr(text if len(text) <= limit else text[:limit - 3] + "...")



# Rules.parse's texts already read (bounded: cleared when full)
_PARSED: dict[str, Rules] = {}
_PARSED_MAX = 256


@dataclass(frozen=True, kw_only=True)
class Rules:
    """A complete, validated rule set. Build one with :meth:`parse` or :func:`get_rules`.

    Fields are data that the engine reads; none is behaviour. Every field is keyword-only. The
    fields shared by every variant (the set, the deal, the opening, meld geometry) are here;
    each variant's own options are one frozen record in :attr:`opts`
    (``Rules.parse("rummy101(threshold=increasing)").opts.threshold``).
    """

    variant: str
    options: tuple[tuple[str, Any], ...] = ()
    family: Family
    players: int
    copies: int                 # copies of each numbered tile / card in the set
    jokers: int                 # jokers in the set (R101-1, RO-1)
    max_rack_jokers: int        # most jokers a rack can hold (button jokers included, R101-10)
    hand_size: int              # tiles dealt to each player (R101-2, RO-2, CR-1)
    starter_extra: int          # extra tiles for the starting player
    opening_points: int         # 101 (R101-7), 45 (RO-8), 0 (classic: no minimum)
    pairs_opening: int          # pairs needed to open with pairs (R101-8); 0 = no pairs opening
    opening_needs_run: bool     # RO-8: the first lay-down holds a run
    keep_discard: bool          # a tile must stay on the rack to discard (R101-12, RO-13)
    high_ace: bool              # RO-6: 12-13-1 is a run
    joker_ratio: int            # RO-7: real tiles >= ratio * jokers in a meld
    pairs_allowed: bool         # R101-5 pairs exist
    joker_penalty: int = 0      # R101-6: 101; RO-12: 50
    set3_release_both: bool = False  # RO-9.6: a 3-tile set gives up its joker only for both missing colours
    # The variant's own options: a Rummy101Options, RemiOptions or ClassicOptions (typed Any so
    # that each engine reads its own fields without a cast; opts_as() checks the kind).
    opts: Any

    def __hash__(self) -> int:
        # Rules key many caches (core rules, meld tables). The generated hash walks every field
        # and the nested options record on each lookup; variant and options determine the rest
        # (make() derives every field from them), so they are all a consistent hash needs.
        return hash((self.variant, self.options))

    # ---- construction -------------------------------------------------------------------
    @classmethod
    def parse(cls, spec: str | Rules) -> Rules:
        """Load a rule set from ``"variant"`` or ``"variant(opt=value,...)"``."""
        if isinstance(spec, Rules):
            return spec
        if isinstance(spec, str):
            # a rule set is immutable, so one parse serves every call with the same text
            # (solve_opening("rummy101", rack) parsed it per rack: ~5 us, a third of a typical
            # rack's solve); errors are not kept, so a bad text is refused every time
            known = _PARSED.get(spec)
            if known is not None:
                return known
            rules = cls._parse_text(spec)
            if len(_PARSED) >= _PARSED_MAX:
                _PARSED.clear()
            _PARSED[spec] = rules
            return rules
        raise RulesError(f"rules must be a string such as 'rummy101' or 'remi(players=3)', "
                         f"got {type(spec).__name__} {spec!r}")

    @classmethod
    def _parse_text(cls, spec: str) -> Rules:
        if len(spec) > MAX_SPEC_CHARS:
            raise RulesError(f"rules text is {len(spec)} characters long; at most "
                             f"{MAX_SPEC_CHARS} are read (e.g. 'rummy101(threshold=increasing)')")
        parts = _split_spec(spec)
        if parts is None:
            raise RulesError(f"rules {_quote(spec)} are not of the form variant or "
                             f"variant(option=value,...); variants: {', '.join(VARIANTS)}")
        raw_name, raw_body = parts
        name = raw_name.lower()
        if name not in _OPTIONS:
            raise RulesError(f"unknown variant {raw_name!r} in {_quote(spec)}; known variants: "
                             f"{', '.join(VARIANTS)}")
        given: dict[str, str] = {}
        body = (raw_body or "").strip()
        if body:
            for part in body.split(","):
                if "=" not in part:
                    raise RulesError(f"option {_quote(part.strip())} in {_quote(spec)} is not "
                                     f"name=value; {name} accepts: {option_help(name)}")
                k, v = (s.strip() for s in part.split("=", 1))
                if k.lower() in given:
                    raise RulesError(f"option {k.lower()!r} is given twice in {_quote(spec)}; "
                                     f"give each option once")
                given[k.lower()] = v
        return cls.make(name, **given)

    @classmethod
    def make(cls, variant: str, **options: Any) -> Rules:
        """Build a rule set from keyword options (strings or already-typed values)."""
        name = variant.lower()
        if name not in _OPTIONS:
            raise RulesError(f"unknown variant {variant!r}; known variants: {', '.join(VARIANTS)}")
        spec = {o.name: o for o in _OPTIONS[name]}
        values = {o.name: o.default for o in _OPTIONS[name]}
        for key, raw in options.items():
            if key not in spec:
                raise RulesError(f"unknown option {key!r} for {name}; {name} accepts: {option_help(name)}")
            opt = spec[key]
            try:
                if isinstance(raw, str):
                    val = opt.convert(raw)
                elif isinstance(raw, bool) and opt.convert is _bool:
                    val = raw
                elif isinstance(raw, int) and not isinstance(raw, bool) and opt.convert is not _bool:
                    val = opt.convert(str(raw))
                else:
                    raise ValueError(f"expected {opt.accepted()}")
            except ValueError as exc:
                raise RulesError(f"bad value {raw!r} for option {key!r} of {name}: {exc} "
                                 f"({opt.doc})") from None
            values[key] = val
        non_default = tuple((o.name, values[o.name]) for o in _OPTIONS[name] if values[o.name] != o.default)
        spec_ = _SPECS[name]
        return cls(variant=name, options=non_default, opts=spec_.options(**values), **spec_.fields(values))

    # ---- text form ------------------------------------------------------------------------
    def __str__(self) -> str:
        if not self.options:
            return self.variant
        def fmt(v: Any) -> str:
            return ("on" if v else "off") if isinstance(v, bool) else str(v)
        return f"{self.variant}({','.join(f'{k}={fmt(v)}' for k, v in self.options)})"

    def __repr__(self) -> str:
        return f"Rules.parse({str(self)!r})"

    def __getattr__(self, name: str) -> Any:
        """The variant's options read as attributes too (``rules.threshold`` is
        ``rules.opts.threshold``; ``target_score`` is classic's ``opts.target``), as before the
        options became a record of their own."""
        if name.startswith("_") or name == "opts":
            raise AttributeError(name)
        opts = self.__dict__.get("opts")
        key = "target" if name == "target_score" else name
        if opts is not None and key in getattr(type(opts), "__dataclass_fields__", {}):
            return getattr(opts, key)
        variant = self.__dict__.get("variant", "?")
        raise AttributeError(f"{variant} rules have no field or option {name!r}; options: "
                             f"{option_help(variant) if variant in _OPTIONS else '-'}")

    def opts_as(self, kind: type[_O]) -> _O:
        """``opts`` checked to be of ``kind`` (e.g. ``RemiOptions``); RulesError otherwise."""
        if not isinstance(self.opts, kind):
            raise RulesError(f"{self} has {type(self.opts).__name__}, not {kind.__name__}")
        return self.opts

    def option(self, name: str) -> Any:
        """The value of an option, default included."""
        for o in _OPTIONS[self.variant]:
            if o.name == name:
                return dict(self.options).get(name, o.default)
        raise RulesError(f"unknown option {name!r} for {self.variant}; accepted: {option_help(self.variant)}")

    # ---- what the core needs ----------------------------------------------------------------
    @cached_property
    def open_params(self) -> CoreParams:
        """Values for openings / first lay-downs (R101-6 face values, RO-8 lay-down values, CR-2)."""
        return _SPECS[self.variant].open_params()

    @cached_property
    def penalty_params(self) -> CoreParams:
        """Values of tiles left on a rack (R101-13 with a joker at 101, RO-12 end values, CR-2)."""
        return _SPECS[self.variant].penalty_params()

    def params(self, valuation: Valuation) -> CoreParams:
        if valuation == "open":
            return self.open_params
        if valuation == "penalty":
            return self.penalty_params
        raise RulesError(f"unknown valuation {valuation!r}; accepted: open, penalty")

    # ---- racks ------------------------------------------------------------------------------
    @property
    def piece_word(self) -> str:
        """What one piece of this family is called in messages: "tile" or "card"."""
        return "card" if self.family == "cards" else "tile"

    @property
    def must_use_reason(self) -> str:
        """Why a must_use piece has to be on the rack, for messages, with the variant's rule."""
        return (f"the {self.piece_word} taken from the discard pile must be part of the rack "
                f"({self.discard_rule})")

    @property
    def discard_rule(self) -> str:
        """The rule that says a piece taken from the discard pile must be used that turn, for
        messages: R101-4 (rummy101), RO-10 (remi: to open, it must help the first lay-down), CR-3
        (classic)."""
        return {"remi": "RO-10", "classic": "CR-3"}.get(self.variant, "R101-4")

    @property
    def piece(self) -> type[Tile | Card]:
        return Tile if self.family == "tiles" else Card

    def parse_rack(self, rack: str | Iterable[Any], noun: str = "rack") -> list[Any]:
        """Parse a rack under these rules and check it could exist (RackError otherwise);
        ``noun`` names the pieces in that message ("meld" for one meld's tiles)."""
        pieces: list[Any] = parse_tiles(rack) if self.family == "tiles" else parse_cards(rack)
        self.check_rack_supply(pieces, noun)
        return pieces

    def check_rack_supply(self, pieces: Sequence[int], noun: str = "rack") -> list[int]:
        """:meth:`check_supply` of a rack's pieces in their order; the RackError names the
        first token past the supply and its position (CONTRACT.md, Notation)."""
        try:
            return self.check_supply(pieces, noun)
        except RackError as exc:
            seen = [0] * NUM_CODES
            for i, p in enumerate(pieces):
                seen[p] += 1
                if seen[p] > (self.max_rack_jokers if p == JOKER_CODE else self.copies):
                    raise RackError(f"token {i + 1} of {len(pieces)} ({str(p)!r}): {exc}") \
                        from None
            raise

    def check_supply(self, codes: Iterable[int], noun: str = "rack", *,
                     verb: str = "holds") -> list[int]:
        """Count vector of ``codes``; raise RackError if it holds more copies than the set has
        (the message says "the {noun} {verb} ...": a meld's tiles are no rack; a plural noun
        such as a hint's "rack, table and last discard" takes ``verb="hold"``)."""
        counts = counts_of(codes)
        for code in range(NUM_CODES):
            limit = self.max_rack_jokers if code == JOKER_CODE else self.copies
            if counts[code] > limit:
                what = ("jokers" if code == JOKER_CODE else
                        f"copies of {self.piece(code)}")
                rule = {"rummy101": "R101-1", "remi": "RO-1", "classic": "CR-1"}.get(self.variant)
                if code == JOKER_CODE:
                    have = f"a {self.variant} {noun} holds at most {limit}"
                    if self.max_rack_jokers > self.jokers:
                        rule = "2 jokers plus one joker-button joker per player, R101-10"
                else:
                    piece = "card" if self.family == "cards" else "tile"
                    have = f"{self.variant} has only {limit} of each {piece}"
                raise RackError(f"the {noun} {verb} {counts[code]} {what}, but {have}"
                                + (f" ({rule})" if rule else ""))
        return counts


def _fields_rummy101(v: dict[str, Any]) -> dict[str, Any]:
    return {"family": "tiles", "players": v["players"], "copies": 2, "jokers": 2,
                "max_rack_jokers": 2 + 4, "hand_size": 21, "starter_extra": 1, "opening_points": 101,
                "pairs_opening": 5, "opening_needs_run": False, "keep_discard": True, "high_ace": False,
                "joker_ratio": 0, "pairs_allowed": True, "joker_penalty": 101}


def _fields_remi(v: dict[str, Any]) -> dict[str, Any]:
    return {"family": "tiles", "players": v["players"], "copies": 2, "jokers": 2, "max_rack_jokers": 2,
                "hand_size": 14, "starter_extra": 1, "opening_points": 45, "pairs_opening": 0,
                "opening_needs_run": True, "keep_discard": True, "high_ace": True, "joker_ratio": 2,
                "pairs_allowed": False, "joker_penalty": 50, "set3_release_both": True}


def _fields_classic(v: dict[str, Any]) -> dict[str, Any]:
    return {"family": "cards", "players": v["players"], "copies": 1, "jokers": 0, "max_rack_jokers": 0,
                "hand_size": 7, "starter_extra": 0, "opening_points": 0, "pairs_opening": 0,
                "opening_needs_run": False, "keep_discard": False, "high_ace": False, "joker_ratio": 0,
                "pairs_allowed": False, "joker_penalty": 0}


@dataclass(frozen=True)
class _Variant:
    """What a variant adds to the shared rules: its options record, its shared-field values, and
    its core valuations (opening and penalty). One entry per variant; no branches elsewhere."""

    options: Callable[..., Any]
    fields: Callable[[dict[str, Any]], dict[str, Any]]
    open_params: Callable[[], CoreParams]
    penalty_params: Callable[[], CoreParams]


_SPECS: dict[str, _Variant] = {
    "rummy101": _Variant(
        Rummy101Options, _fields_rummy101,
        lambda: _params(False, 0, _face, _face, -1),
        lambda: _params(False, 0, _face, _face, 101)),
    # RO-8: 1 in a low run 5, in a high run 10, in a set 10; a Joly is worth what it stands for.
    "remi": _Variant(
        RemiOptions, _fields_remi,
        lambda: _params(True, 2, _remi_laydown, lambda n: 10 if n == 1 else _remi_laydown(n), -1,
                        low_ace_run=5, high_ace_run=10),
        lambda: _params(True, 2, _remi_end, _remi_end, 50)),
    "classic": _Variant(
        ClassicOptions, _fields_classic,
        lambda: _params(False, 0, _card, _card, -1),
        lambda: _params(False, 0, _card, _card, 0)),
}


def option_help(variant: str) -> str:
    """The options a variant accepts, with their accepted values and defaults."""
    return ", ".join(f"{o.name}={o.accepted()} (default {('on' if o.default else 'off') if isinstance(o.default, bool) else o.default})"
                     for o in _OPTIONS[variant])


def variants() -> dict[str, str]:
    """The registry: variant name -> its accepted options."""
    return {name: option_help(name) for name in VARIANTS}


def get_rules(spec: str | Rules = "rummy101") -> Rules:
    """Alias of :meth:`Rules.parse`, cached by spec string."""
    return Rules.parse(spec)


"""Reading request objects: one place that checks every field of a JSON request (CLI, HTTP and
hint views).

Every reader raises :class:`BadRequest` (a :class:`~rummy101.errors.RummyError`) whose message
names the field, quotes the bad value (shortened) and says what is accepted.

>>> read_int({"threshold": 120}, "threshold", lo=0, hi=5000)
120
>>> read_int({"threshold": "120"}, "threshold", lo=0, hi=5000)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
rummy101._validate.BadRequest: field 'threshold' must be a whole number from 0 to 5000, ...
"""

from __future__ import annotations

import difflib
import json
import json.decoder
import math
import operator
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any, NoReturn

from ._limits import (
    MAX_JSON_CONTAINERS,
    MAX_RACK,
    MAX_RACK_CHARS,
    MAX_RULES_CHARS,
    MAX_SEAT_CHARS,
)
from .errors import NotationError, RackError, RummyError, json_problem
from .rules import Rules
from .tiles import Tile

__all__ = [
    "BadRequest",
    "described",
    "loads",
    "parse_rack_value",
    "read_bool",
    "read_int",
    "read_object",
    "read_opt_int",
    "read_piece",
    "read_rack",
    "read_record_fields",
    "read_record_seats",
    "read_rules",
    "short",
    "type_name",
]


class BadRequest(RummyError):
    """A request that is not of the documented shape (wrong type, missing or unknown field...)."""


def whole_number(value: Any) -> int | None:
    """``value`` as an int when it is an integer of any kind (numpy's too, a 0-d integer array),
    else None: a bool (Python's or numpy's), a float or a string is no whole number (``int()``
    would read 2.5 as 2 and "3" as 3).

    >>> whole_number(3), whole_number(True), whole_number(2.5), whole_number("3")
    (3, None, None, None)
    """
    if isinstance(value, bool) or type(value).__name__ == "bool_":  # numpy's bool, not imported
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


def quoted_list(names: Sequence[str], last: str = "and") -> str:
    """``'a'``, ``'a' and 'b'``, ``'a', 'b' and 'c'`` (``last``: the word before the last name)."""
    quoted = [f"'{n}'" for n in names]
    return quoted[0] if len(quoted) == 1 else f"{', '.join(quoted[:-1])} {last} {quoted[-1]}"


def short(value: Any, limit: int = 60) -> str:
    """``repr`` of a value cut to ``limit`` characters, for error messages."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def described(value: Any) -> str:
    """A value for an error message: its JSON type and text, or just ``null``.

    >>> described("R1"), described(None), described([1, 2])
    ('a string "R1"', 'null', 'a list [1, 2]')
    """
    return "null" if value is None else f"{type_name(value)} {short(value)}"


def type_name(value: Any) -> str:
    """The JSON name of a value's type ("a string", "an object", ...)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


class _DuplicateKey(Exception):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object hook that refuses a key given twice (JSON parsers disagree on which one wins,
    so the service takes neither)."""
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateKey(key)
            seen.add(key)
    return obj


class _LongNumber(ValueError):
    def __init__(self, digits: int) -> None:
        super().__init__(digits)
        self.digits = digits


def _decoder() -> json.JSONDecoder:
    """A decoder with the hooks of :func:`loads`."""
    return json.JSONDecoder(parse_constant=_no_constant, object_pairs_hook=_unique_keys,
                            parse_int=_parse_int, parse_float=_parse_float)


#: Digits an integer literal may have in a request: Python's own limit for reading one (which
#: it reports with advice about its settings). Shorter numbers are read, so that the field they
#: are in names its range (every number the service accepts fits in 20 digits).
MAX_INT_DIGITS = 4300


def _parse_int(literal: str) -> int:
    digits = len(literal) - literal.startswith("-")
    if digits > MAX_INT_DIGITS:
        raise _LongNumber(digits)
    return int(literal)


def _parse_float(text: str) -> float:
    """A JSON number with a fraction or exponent; one too large for a float (``1e999``) would be
    read as Infinity, which JSON has not: refused like ``Infinity`` itself."""
    value = float(text)
    if math.isinf(value):
        raise ValueError(f"the number {text[:40]} is too large to hold (Infinity)")
    return value


#: characters of an array that json's C reader takes in one call when reading ``yielding``
#: (about a millisecond of short strings): the reader holds the interpreter through all it is
#: given, and 4 MiB of short strings (about 840,000, within every size cap) read in one call
#: held it 90-130 ms, in a worker thread as well, while the service's event loop answered
#: nothing, /health included
_RUN_CHARS = 16_384
_SPACE = re.compile(r"[ \t\n\r]*")
#: json's reader of one string (C), from just after its opening quote: (string, end)
_scanstring: Callable[[str, int, bool], tuple[str, int]]
_scanstring = json.decoder.scanstring  # type: ignore[attr-defined]


def _skip(text: str, pos: int) -> int:
    """Where the JSON whitespace from ``pos`` on ends."""
    return _SPACE.match(text, pos).end()  # type: ignore[union-attr]


def _names_trailing_commas() -> bool:
    """Whether this Python's json reader names a trailing comma ("Illegal trailing comma before
    end of array", at the comma; from Python 3.13) rather than "Expecting value" after it: the
    pieces (:class:`_Yielding`) must say what one reading says."""
    try:
        json.loads("[1,]")
    except json.JSONDecodeError as exc:
        return exc.msg.startswith("Illegal trailing comma")
    return False


_TRAILING_COMMAS = _names_trailing_commas()


class _Yielding:
    """One JSON text read in pieces, each by json's C reader: the elements of an array a run of
    at most :data:`_RUN_CHARS` characters at a time, the members of an object one by one, so
    that the interpreter may switch threads between any two pieces. The values and every error
    (message and position) are those of one call of the C reader, except that nesting deeper
    than about 400 levels in a value longer than a piece may be refused sooner (as nested too
    deeply)."""

    def __init__(self, text: str, decoder: json.JSONDecoder) -> None:
        self.text = text
        self.decoder = decoder
        self.scan = decoder.scan_once  # type: ignore[attr-defined]

    def fail(self, message: str, pos: int) -> NoReturn:
        raise json.JSONDecodeError(message, self.text, pos)

    def read(self) -> Any:
        value, end = self.value(_skip(self.text, 0))
        end = _skip(self.text, end)
        if end != len(self.text):
            self.fail("Extra data", end)
        return value

    def value(self, pos: int) -> tuple[Any, int]:
        first = self.text[pos:pos + 1]
        if first == "[":
            return self.array(pos + 1)
        if first == "{":
            return self.object(pos + 1)
        try:
            return self.scan(self.text, pos)  # type: ignore[no-any-return]
        except StopIteration as exc:
            self.fail("Expecting value", exc.value)

    def run(self, out: list[Any], pos: int, window: int) -> tuple[int, bool] | None:
        """Read the elements of an array from ``pos`` (an element's start) to its end, or to a
        comma within ``window`` characters, in one call: (where the reading goes on, whether
        the array was closed), or None when they are not whole there."""
        text = self.text
        if text[pos:pos + 1] in ("]", ",", "}", ""):  # no value (the element read alone says so)
            return None
        end = min(len(text), pos + window)
        # elements that are arrays or objects end where one closes before a comma (their own
        # commas would cut one in two)
        close = {"[": "],", "{": "},"}.get(text[pos])
        cut = text.rfind(close, pos, end) + 1 if close else text.rfind(",", pos, end)
        if cut <= pos:
            cut = end
        for _ in range(2):
            piece = "[" + text[pos:cut] + "]"
            try:
                values, used = self.scan(piece, 0)
            except json.JSONDecodeError as exc:  # a cut in a string or a nested value, or an
                # error of the text, which the element at fault meets again read alone
                cut = text.rfind(",", pos, pos + exc.pos - 1)
                if cut <= pos:
                    return None
                continue
            except StopIteration:
                return None
            except ValueError:  # a hook refused a number: one cut short at the piece's end is
                if text[cut:cut + 1] != ",":  # read again whole (its digits counted right)
                    return None
                raise
            if used < len(piece):  # the array's own closing bracket ended the piece
                out.extend(values)
                return pos + used - 1, True
            if text[cut:cut + 1] != ",":  # the piece ended in a value cut short (a number)
                return None
            out.extend(values)
            return _skip(text, cut + 1), False
        return None

    def array(self, pos: int) -> tuple[list[Any], int]:
        text = self.text
        out: list[Any] = []
        pos = _skip(text, pos)
        if text[pos:pos + 1] == "]":
            return out, pos + 1
        # a run that could not be read whole makes the next ones shorter, down to 256
        # characters; past that, 64 elements are read one by one before a run is tried again
        window, lone = _RUN_CHARS, 0
        while True:
            if _TRAILING_COMMAS and text[pos:pos + 1] == "]" and out:  # (after a comma)
                self.fail("Illegal trailing comma before end of array", text.rindex(",", 0, pos))
            got = None
            if lone:
                lone -= 1
            else:
                got = self.run(out, pos, window)
                if got is None:
                    window = max(256, window // 4)
                    lone = 64 if window == 256 else 0
                else:
                    window = min(_RUN_CHARS, window * 2)
            if got is not None:
                pos, closed = got
                if closed:
                    return out, pos
                continue
            value, pos = self.value(pos)
            out.append(value)
            pos = _skip(text, pos)
            sep = text[pos:pos + 1]
            if sep == "]":
                return out, pos + 1
            if sep != ",":
                self.fail("Expecting ',' delimiter", pos)
            pos = _skip(text, pos + 1)

    def object(self, pos: int) -> tuple[Any, int]:
        text = self.text
        pairs: list[tuple[str, Any]] = []
        pos = _skip(text, pos)
        if text[pos:pos + 1] == "}":
            return _unique_keys(pairs), pos + 1
        while True:
            if text[pos:pos + 1] != '"':
                if _TRAILING_COMMAS and pairs and text[pos:pos + 1] == "}":  # (after a comma)
                    self.fail("Illegal trailing comma before end of object",
                              text.rindex(",", 0, pos))
                self.fail("Expecting property name enclosed in double quotes", pos)
            key, pos = _scanstring(text, pos + 1, True)
            pos = _skip(text, pos)
            if text[pos:pos + 1] != ":":
                self.fail("Expecting ':' delimiter", pos)
            value, pos = self.value(_skip(text, pos + 1))
            pairs.append((key, value))
            pos = _skip(text, pos)
            sep = text[pos:pos + 1]
            if sep == "}":
                return _unique_keys(pairs), pos + 1
            if sep != ",":
                self.fail("Expecting ',' delimiter", pos)
            pos = _skip(text, pos + 1)


def loads(text: str | bytes, what: str = "request body", *, yielding: bool = False) -> Any:
    """Parse JSON strictly (no NaN/Infinity, no key given twice in one object); every failure
    is a :class:`BadRequest`.

    ``yielding`` (a worker thread reading a big body): the text is read in pieces
    (:class:`_Yielding`), so that the thread hands the interpreter over between them instead of
    holding it through the whole text; the result and the errors are the same, and a batch of
    racks is read as fast.

    >>> loads('{"rack": "R1"}')
    {'rack': 'R1'}
    >>> loads('{"rack": ')  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rummy101._validate.BadRequest: request body is not valid JSON: Expecting value ...
    >>> loads('{"rack": "R1", "rack": "R2"}')
    Traceback (most recent call last):
    ...
    rummy101._validate.BadRequest: request body gives the key "rack" twice in one object; give each key once
    >>> loads('{"threshold": ' + "9" * 5000 + '}')
    Traceback (most recent call last):
    ...
    rummy101._validate.BadRequest: request body holds an integer of 5,000 digits; no field accepts a number that long
    >>> loads('[' + '[], ' * 60_000 + '[]]')
    Traceback (most recent call last):
    ...
    rummy101._validate.BadRequest: request body holds 60,002 JSON arrays and objects (counting its '[' and '{'); at most 50,000 are read, more than any request needs
    >>> loads('{"threshold": 1e999}')
    Traceback (most recent call last):
    ...
    rummy101._validate.BadRequest: request body is not acceptable JSON: the number 1e999 is too large to hold (Infinity)
    """
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise BadRequest(f"{what} is not UTF-8 text (bad byte at offset {exc.start})") from None
    if not text.strip():
        raise BadRequest(f"{what} is empty: send a JSON object")
    if len(text) > MAX_JSON_CONTAINERS:  # (a shorter text cannot hold more)
        containers = text.count("[") + text.count("{")
        if containers > MAX_JSON_CONTAINERS:
            raise BadRequest(f"{what} holds {containers:,} JSON arrays and objects (counting its "
                             f"'[' and '{{'); at most {MAX_JSON_CONTAINERS:,} are read, more than "
                             f"any request needs")
    try:
        if yielding:
            return _Yielding(text, _decoder()).read()
        return json.loads(text, parse_constant=_no_constant, object_pairs_hook=_unique_keys,
                          parse_int=_parse_int, parse_float=_parse_float)
    except _LongNumber as exc:
        raise BadRequest(f"{what} holds an integer of {exc.digits:,} digits; no field accepts "
                         f"a number that long") from None
    except _DuplicateKey as exc:
        raise BadRequest(f"{what} gives the key {short(exc.key)} twice in one object; give each "
                         f"key once") from None
    except json.JSONDecodeError as exc:
        raise BadRequest(f"{what} is not valid JSON: {json_problem(exc)}") from None
    except RecursionError:
        raise BadRequest(f"{what} is nested too deeply") from None
    except ValueError as exc:  # huge integer literals, NaN / Infinity
        raise BadRequest(f"{what} is not acceptable JSON: {exc}") from None


def read_object(body: Any, what: str, fields: Iterable[str]) -> Mapping[str, Any]:
    """Check that ``body`` is a JSON object holding only the accepted ``fields``."""
    if not isinstance(body, dict):
        raise BadRequest(f"{what} must be a JSON object, got {described(body)}")
    accepted = tuple(fields)
    for key in body:
        if key not in accepted:
            raise BadRequest(f"unknown field {short(key)} in {what}; accepted fields: "
                             f"{', '.join(accepted)}{_meant(key, accepted)}")
    return body


#: Other names for a field (the docs call rummy101, remi and classic variants; a rack is the
#: tiles or cards in a hand): `{"variant": "remi"}` was answered with the list of fields only.
_FIELD_MEANT = {"variant": "rules", "variants": "rules", "rule": "rules", "ruleset": "rules",
                "rule_set": "rules", "game": "rules", "tiles": "rack", "hand": "rack",
                "cards": "rack", "rack": "racks", "tiles_list": "racks"}


def _meant(key: Any, accepted: tuple[str, ...]) -> str:
    """A pointer to the field an unknown key was meant as, or ''."""
    if not isinstance(key, str) or len(key) > 40:
        return ""
    meant = _FIELD_MEANT.get(key.lower())
    if meant not in accepted:
        close = difflib.get_close_matches(key.lower(), accepted, n=1, cutoff=0.75)
        meant = close[0] if close else None
    if meant is None:
        return ""
    if meant == "rules" and key.lower() != "rules":
        return '; the variant and its options go in "rules" (e.g. "rules": "remi")'
    return f'; did you mean "{meant}"?'


@lru_cache(maxsize=256)
def _rules(spec: str) -> Rules:
    return Rules.parse(spec)


def read_rules(body: Mapping[str, Any], default: str | Rules, field: str = "rules") -> Rules:
    """The rule set named by ``body[field]`` (``default`` when absent or null)."""
    spec = body.get(field)
    if spec is None:
        return default if isinstance(default, Rules) else _rules(default)
    if not isinstance(spec, str):
        raise BadRequest(f"field {field!r} must be a rules string such as 'rummy101' or "
                         f"'remi(players=3)', got {described(spec)}")
    if len(spec) > MAX_RULES_CHARS:
        raise BadRequest(f"field {field!r} is {len(spec)} characters long; at most "
                         f"{MAX_RULES_CHARS} are accepted")
    return _rules(spec)


# Canonical and lower-case spellings -> the (immutable, shared) Tile: the common case of a rack
# is parsed with one dict look-up per token; anything else goes through tiles.parse_tiles.
_FAST_TILES: dict[str, Tile] = {}
for _code in range(53):
    _t = Tile(_code)
    _FAST_TILES[str(_t)] = _t
    _FAST_TILES[str(_t).lower()] = _t
for _w in ("JK", "jk", "Jk", "jK", "JOKER", "joker", "Joker"):
    _FAST_TILES[_w] = Tile(52)


def read_rack(body: Mapping[str, Any], rules: Rules, field: str = "rack",
              max_size: int = MAX_RACK, required: bool = True) -> list[Any]:
    """The tiles (or cards) of ``body[field]``: a string of tokens or a list of token strings.

    The rack is checked against the set of the rules (no third ``R5``) and against ``max_size``.
    """
    if field not in body or body[field] is None:
        if required:
            _, what, example = _holds(field)
            raise BadRequest(f"field {field!r} is missing: give {what} as a string such as "
                             f"{example} or a list of tokens")
        return []
    return parse_rack_value(body[field], rules, field, max_size)


def _holds(field: str) -> tuple[str, str, str]:
    """What a rack field holds, for its messages: (noun, what to give, an example)."""
    if field == "meld":  # /v1/validate/meld: one meld, not a rack
        return "meld", "the tiles of one meld in table order,", '"R10 * R12"'
    return "rack", "the rack", '"R1 R2 R3 *"'


def parse_rack_value(value: Any, rules: Rules, field: str = "rack",
                     max_size: int = MAX_RACK) -> list[Any]:
    """Parse one rack value (string or list of strings) under ``rules``; see :func:`read_rack`."""
    tokens: list[Any] | None
    if isinstance(value, str):
        if len(value) > MAX_RACK_CHARS:
            noun = _holds(field)[0]
            raise BadRequest(f"field {field!r} is {len(value)} characters long; at most "
                             f"{MAX_RACK_CHARS} are accepted (a {noun} holds at most {max_size} "
                             f"tiles)")
        # a JSON list inside the string ('["R1","*"]') is left to tiles.parse_tiles
        tokens = None if value.lstrip().startswith("[") else value.replace(",", " ").split()
    elif isinstance(value, list):
        tokens = value
        for pos, tok in enumerate(value, start=1):
            if not isinstance(tok, str):
                raise BadRequest(f"token {pos} of field {field!r} must be a string such as \"R5\" "
                                 f"or \"*\", got {described(tok)}")
    else:
        noun, _, example = _holds(field)
        raise BadRequest(f"field {field!r} must be a {noun}: a string such as {example} or a "
                         f"list of tokens, got {described(value)}")
    if tokens is not None and len(tokens) > max_size:
        raise BadRequest(f"field {field!r} holds {len(tokens)} tokens; at most {max_size} are "
                         f"accepted")
    if tokens is not None and rules.family == "tiles":
        found = [_FAST_TILES.get(t) for t in tokens]
        if None not in found:
            pieces: list[Any] = found
            try:
                rules.check_rack_supply(pieces, _holds(field)[0])
            except RackError as exc:
                raise RackError(f"field {field!r}: {exc}") from None
            return pieces
    try:
        pieces = rules.parse_rack(value, _holds(field)[0])
    except NotationError as exc:
        raise NotationError(f"field {field!r}: {exc}") from None
    except RackError as exc:
        raise RackError(f"field {field!r}: {exc}") from None
    if len(pieces) > max_size:
        raise BadRequest(f"field {field!r} holds {len(pieces)} tokens; at most {max_size} are "
                         f"accepted")
    return pieces


def read_int(body: Mapping[str, Any], field: str, *, lo: int, hi: int,
             default: int | None = None) -> int:
    """A whole-number field in ``lo..hi`` (``default`` when absent or null, if given)."""
    value = body.get(field)
    if value is None:
        if default is None:
            raise BadRequest(f"field {field!r} is missing: a whole number from {lo} to {hi}")
        return default
    sent = value  # (named as sent: 1e300, not the 301 digits of the int it equals)
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadRequest(f"field {field!r} must be a whole number from {lo} to {hi}, got "
                         f"{described(value)}")
    if not lo <= value <= hi:
        raise BadRequest(f"field {field!r} is {short(sent)}; accepted: a whole number from {lo} "
                         f"to {hi}")
    return value


def read_record_numbers(record: Mapping[str, Any], *, max_seed: int,
                        max_rounds: int) -> dict[str, Any]:
    """``record`` with its ``seed`` and ``match_rounds`` as read here (a whole float such as 1.0
    is 1, which the engine, handed the float, refuses: 'seed must be a whole number'). Its
    errors name the request's field 'record' first: "field 'seed' is missing" alone sent a
    person to look for a 'seed' beside 'record'."""
    try:
        out = {**record, "seed": read_int(record, "seed", lo=0, hi=max_seed)}
        if record.get("match_rounds") is not None:
            out["match_rounds"] = read_int(record, "match_rounds", lo=1, hi=max_rounds)
    except BadRequest as exc:
        raise BadRequest(f"field 'record': {str(exc).removeprefix('field ')}") from None
    return out


def read_record_fields(record: Mapping[str, Any], fields: Sequence[str], advice: str) -> None:
    """Refuse a game record's fields that no record has (``fields``: those it may hold), naming
    them and the field likely meant, then ``advice``: ``"turn": 3`` in a hint's record was
    ignored (the hint came for the end of the actions), ``"seat": [...]`` (for ``seats``) in a
    replay's was dropped. A line of ``rummy101 sim --record full`` (``"record": "full"``) holds
    its summary's fields beside the record's, and is read as the record it holds."""
    if record.get("record") == "full":
        return
    extra = [k for k in record if k not in fields]
    if extra:
        named = ", ".join(short(k, 30) for k in extra[:3]) + (" ..." if len(extra) > 3 else "")
        raise BadRequest(f"field 'record' holds {named}, which no game record has (its fields: "
                         f"{', '.join(fields)}): {advice}{_meant(extra[0], tuple(fields))}")


def read_record_seats(record: Mapping[str, Any], players: int) -> list[str] | None:
    """A game record's optional ``seats``, who played each seat (``GET /v1/games/{id}/record``
    adds it): a list of ``players`` texts of 1 to :data:`~._limits.MAX_SEAT_CHARS` characters,
    or None when absent or null."""
    seats = record.get("seats")
    if seats is None:
        return None
    if not (isinstance(seats, list) and len(seats) == players
            and all(isinstance(x, str) and 0 < len(x) <= MAX_SEAT_CHARS for x in seats)):
        raise BadRequest(f"field 'record': 'seats' must list who played each of the {players} "
                         f"seats (texts of 1 to {MAX_SEAT_CHARS} characters, e.g. [\"you\", "
                         f"\"greedy\"]), got {described(seats)}")
    return seats


def read_opt_int(body: Mapping[str, Any], field: str, *, lo: int, hi: int) -> int | None:
    """Like :func:`read_int`, but absent or null gives None."""
    if body.get(field) is None:
        return None
    return read_int(body, field, lo=lo, hi=hi)


def read_bool(body: Mapping[str, Any], field: str, default: bool) -> bool:
    """A true/false field (``default`` when absent or null)."""
    value = body.get(field)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise BadRequest(f"field {field!r} must be true or false, got {described(value)}")
    return value


def read_piece(body: Mapping[str, Any], field: str, rules: Rules) -> Any:
    """One tile (or card) token, or None when absent or null."""
    value = body.get(field)
    if value is None:
        return None
    if not isinstance(value, str):
        raise BadRequest(f"field {field!r} must be one token such as \"R5\" or \"*\", got "
                         f"{described(value)}")
    try:
        return rules.piece(value)
    except NotationError as exc:
        raise NotationError(f"field {field!r}: {exc}") from None

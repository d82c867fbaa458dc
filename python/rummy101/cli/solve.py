"""``rummy101 solve opening|penalty|tabla`` and ``rummy101 meld``: the exact solvers from the
command line, one rack (``--rack``) or one JSON request per input line (``--jsonl``).

With ``--jsonl`` every input line gets exactly one output line, in order; a bad line gets
``{"error": "..."}`` and the batch goes on (exit status 2 at the end if any line was bad, with a
count on standard error). Without ``--rack`` or ``--jsonl`` a built-in example rack is solved.
Opening lines are answered in chunks through the batch solver.

>>> main_args = ["solve", "opening", "--rack", "R10 * R12 K13 K12 K11 Y9 Y8 Y7 B13 B12 B11 R2"]
>>> from rummy101.cli import main
>>> main(main_args)  # doctest: +ELLIPSIS
{"rules": "rummy101", "rack": "R10 * R12 K13 K12 K11 Y9 Y8 Y7 B13 B12 B11 R2", "kind": "melds", ...}
0
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any

from .._validate import BadRequest, loads, read_rules, type_name
from ..errors import RummyError
from ..rules import VARIANTS, Rules
from ..service import api
from ..service.examples import DEMO_RACK, DEMO_REMI_RACK, EXAMPLES
from ..service.limits import MAX_BODY_BYTES
from ._args import flag_names, whole

__all__ = ["add_subcommands", "answer_lines", "run_meld", "run_solve"]

CHUNK = 4096  # opening lines solved together through the batch solver
#: The longest --jsonl line read: a line is one request, held to the service's body limit. A
#: line without end (`--input /dev/zero`) was read whole, until a MemoryError traceback.
MAX_LINE_BYTES = MAX_BODY_BYTES


class _LongLine:
    """A --jsonl line longer than :data:`MAX_LINE_BYTES`, dropped unread (its answer says so)."""

#: The built-in example of a classic solve or meld check (cards, not tiles): a hand of eight
#: cards holding a run and a set (CR-2), and one of its melds.
CLASSIC_DEMO_HAND = "AS 2S 3S 7H 7D 7C QH KC"
CLASSIC_DEMO_MELD = "7H 7D 7C"

# the rules example in each solver's --rules help: an option of the solver's default variant
_EXAMPLE_OPTIONS = {"rummy101": "rummy101(threshold=increasing)", "remi": "remi(players=2)"}


def add_subcommands(subparsers: Any) -> None:
    """Add ``solve`` (opening, penalty, tabla) and ``meld`` to the ``rummy101`` tree."""
    solve = subparsers.add_parser("solve", help="exact solvers: opening, penalty, tabla",
                                  description="Exact solvers. Each prints one JSON object, or one "
                                              "per input line with --jsonl.")
    kinds = solve.add_subparsers(dest="solver", metavar="SOLVER", required=True)
    variants = ", ".join(VARIANTS)

    p = kinds.add_parser("opening", help="best opening / first lay-down of a rack",
                         description="Best opening: runs/sets reaching the threshold (R101-7, "
                                     "RO-8), else pairs (R101-8); kind null when none is legal.")
    _common(p, "rummy101", variants)
    p.add_argument("--threshold", type=whole, default=None,
                   help="current melds threshold (increasing mode, R101-14; default: the rule "
                        "set's opening threshold, 101 in rummy101, 45 in remi)")
    p.add_argument("--pairs-threshold", type=whole, default=None,
                   help="current pairs threshold (R101-14; default: the rule set's, 5 pairs in "
                        "rummy101)")
    p.add_argument("--must-use", default=None,
                   help="tile just taken from the discard pile that the opening must hold "
                        "(R101-4; default: none)")
    p.set_defaults(func=run_solve, op="opening")

    p = kinds.add_parser("penalty", help="lay-down that leaves the least penalty",
                         description="The melds to lay so that the tiles left on the rack cost the "
                                     "least penalty (R101-13, RO-12, CR-6).")
    _common(p, "rummy101", variants)
    keep = p.add_mutually_exclusive_group()
    keep.add_argument("--keep", dest="keep", action="store_true", default=None,
                      help="one piece stays for the discard (the default in rummy101 and remi, "
                           "R101-12, RO-13)")
    keep.add_argument("--no-keep", dest="keep", action="store_false", default=None,
                      help="allow laying every piece (the default in classic, where a hand may "
                           "go out without a discard, CR-4)")
    p.set_defaults(func=run_solve, op="penalty")

    p = kinds.add_parser("tabla", help="Remi close on the rack (RO-11)",
                         description="Closing on the rack in Remi (tabla, RO-11): for 15 "
                                     "tiles every discard that closes and its best pattern; for "
                                     "14, the patterns the rack forms; with the distance to each "
                                     "pattern.")
    _common(p, "remi", "remi (tabla exists only in Remi)")
    p.set_defaults(func=run_solve, op="tabla")

    p = subparsers.add_parser("meld", help="check one meld: legal?, value, jokers, additions",
                              description="Check one meld under the rules: whether it is legal "
                                          "(and why not), its value, what each joker stands for, "
                                          "and which tiles can be added where.")
    p.add_argument("--rules", default="rummy101",
                   help=f"rule set (variants: {variants}; default rummy101)")
    p.add_argument("tiles", nargs="?", default=None,
                   help="the meld in table order, e.g. \"R10 * R12\" (default: that example)")
    p.add_argument("--kind", choices=("run", "set", "pair"), default=None,
                   help="the reading asked for: a set of one tile and jokers such as '* * K13' "
                        "(as a solver lays the 13s) reads as a run without --kind set (default: "
                        "the reading of the tiles alone)")
    p.add_argument("--pretty", action="store_true", help="indent the JSON output")
    p.set_defaults(func=run_meld)


def _common(p: argparse.ArgumentParser, rules: str, variants: str) -> None:
    p.add_argument("--rules", default=rules,
                   help=f"rule set, e.g. {rules} or '{_EXAMPLE_OPTIONS[rules]}' "
                        f"(variants: {variants}; default {rules})")
    src = p.add_mutually_exclusive_group()
    src.add_argument("--rack", default=None,
                     help="the rack, e.g. \"R1 R2 R3 * K13\" (default: a built-in example)")
    src.add_argument("--jsonl", action="store_true",
                     help="read one JSON request per line ({\"rack\": ...}, optionally with its "
                          "own \"rules\"...) and write one answer per line")
    p.add_argument("--input", default="-", metavar="FILE",
                   help="with --jsonl: read from FILE (default: standard input)")
    p.add_argument("--pretty", action="store_true", help="indent the JSON output (single rack)")


#: the request fields that come from flags (an error about one names the flag)
_FLAGS = {"rack": "--rack", "rules": "--rules", "threshold": "--threshold",
          "pairs_threshold": "--pairs-threshold", "must_use": "--must-use", "keep": "--keep"}


def _dump(obj: Any, pretty: bool = False) -> str:
    return json.dumps(obj, ensure_ascii=False, indent=2 if pretty else None)


def _op_for(args: argparse.Namespace) -> Callable[[Any], Any]:
    if args.op == "opening":
        return lambda body: api.opening(body, args.rules)
    if args.op == "penalty":
        return lambda body: api.penalty(body, args.rules)
    return lambda body: api.tabla(body, args.rules)


def _single_request(args: argparse.Namespace) -> dict[str, Any]:
    rack = args.rack
    if rack is None:
        rack = DEMO_REMI_RACK if args.op == "tabla" else DEMO_RACK
        if args.op == "tabla" and args.rules == "remi":
            rack = EXAMPLES["tabla"]["rack"]
        elif _variant(args.rules) == "classic":
            rack = CLASSIC_DEMO_HAND
        print(f"(no --rack given: solving the built-in example rack {rack!r})", file=sys.stderr)
    body: dict[str, Any] = {"rules": args.rules, "rack": rack}
    if args.op == "opening":
        if args.threshold is not None:
            body["threshold"] = args.threshold
        if args.pairs_threshold is not None:
            body["pairs_threshold"] = args.pairs_threshold
        if args.must_use is not None:
            body["must_use"] = args.must_use
    elif args.op == "penalty" and args.keep is not None:
        body["keep"] = args.keep
    return body


def run_solve(args: argparse.Namespace) -> int:
    """Handler of ``rummy101 solve ...``; returns the exit status."""
    if not args.jsonl:
        if args.input != "-":
            raise RummyError("--input FILE is read only with --jsonl")
        variant = _variant(args.rules)
        if args.op == "tabla" and variant not in (None, "remi"):
            # before the built-in example (a Remi rack) is announced, and in the flags' words
            # rather than the solver function's ("solve_tabla: ...")
            raise RummyError(f"--rules {shlex.quote(args.rules)}: closing on the rack (tabla, "
                             f"RO-11) exists only in Remi, not in {variant}: give --rules remi")
        with flag_names(_FLAGS):
            answer = _op_for(args)(_single_request(args))
        print(_dump(answer, args.pretty))
        return 0
    _check_no_single_options(args)
    # Lines are read as bytes: a line that is not UTF-8 gets its own {"error"} answer
    # (loads names the bad byte) instead of stopping the batch with a decoding traceback.
    stream: IO[Any]
    if args.input == "-":
        return _jsonl(args, getattr(sys.stdin, "buffer", sys.stdin))
    try:
        stream = open(args.input, "rb")  # noqa: SIM115
    except OSError as exc:
        raise RummyError(f"cannot read --input {args.input!r}: {exc.strerror}") from None
    with stream:
        return _jsonl(args, stream)


def _check_no_single_options(args: argparse.Namespace) -> None:
    for flag, value in (("--threshold", getattr(args, "threshold", None)),
                        ("--pairs-threshold", getattr(args, "pairs_threshold", None)),
                        ("--must-use", getattr(args, "must_use", None))):
        if value is not None:
            name = flag[2:].replace("-", "_")
            raise RummyError(f"{flag} applies to --rack; with --jsonl put \"{name}\" in each "
                             f"line's JSON object")
    keep = getattr(args, "keep", None)
    if keep is not None:  # penalty's --keep / --no-keep: each line says its own
        flag = "--keep" if keep else "--no-keep"
        raise RummyError(f"{flag} applies to --rack; with --jsonl put \"keep\": "
                         f"{'true' if keep else 'false'} in each line's JSON object")


def _jsonl(args: argparse.Namespace, stream: IO[Any]) -> int:
    read_rules({"rules": args.rules}, args.rules)  # a bad --rules fails before any line
    bad = total = 0
    for answer in answer_lines(args.op, _bounded_lines(stream), args.rules):
        total += 1
        bad += "error" in answer and len(answer) == 1
        sys.stdout.write(json.dumps(answer, ensure_ascii=False) + "\n")
    sys.stdout.flush()
    if bad:
        print(f"rummy101 solve {args.op}: {bad} of {total} lines had errors (see their "
              f"{{\"error\"}} answers)", file=sys.stderr)
        return 2
    return 0


def _bounded_lines(stream: IO[Any]) -> Iterator[str | bytes | _LongLine]:
    """The lines of ``stream``, each read up to :data:`MAX_LINE_BYTES`; a longer line is read
    on and dropped a piece at a time (memory stays flat) and stands as a :class:`_LongLine`."""
    while line := stream.readline(MAX_LINE_BYTES + 1):
        end = "\n" if isinstance(line, str) else b"\n"
        if len(line) <= MAX_LINE_BYTES or line.endswith(end):
            yield line
            continue
        while (rest := stream.readline(1 << 16)) and not rest.endswith(end):
            pass
        yield _LongLine()


def _chunks(lines: Iterable[str | bytes | _LongLine],
            size: int) -> Iterator[list[str | bytes | _LongLine]]:
    chunk: list[str | bytes | _LongLine] = []
    for line in lines:
        chunk.append(line if isinstance(line, _LongLine) else
                     line.rstrip("\r\n") if isinstance(line, str) else line.rstrip(b"\r\n"))
        if len(chunk) >= size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def answer_lines(op: str, lines: Iterable[str | bytes | _LongLine],
                 rules: str = "rummy101") -> Iterator[dict[str, Any]]:
    """One answer per input line, in order (``op``: opening, penalty or tabla).

    >>> lines = ['{"rack": "R1 R2 R3"}', 'junk']
    >>> [a.get("kind", a.get("error", "")[:22]) for a in answer_lines("opening", lines)]
    [None, 'line 2 is not valid JS']
    """
    base = 0
    for chunk in _chunks(lines, CHUNK):
        parsed: list[Any] = []
        errors: dict[int, dict[str, str]] = {}
        for i, line in enumerate(chunk):
            try:
                if isinstance(line, _LongLine):
                    raise BadRequest(f"line {base + i + 1} is longer than {MAX_LINE_BYTES:,} "
                                     f"bytes, the most one request holds (as a service body)")
                obj = loads(line, what=f"line {base + i + 1}")
                if not isinstance(obj, dict):
                    raise BadRequest(f"line {base + i + 1} must be a JSON object such as "
                                         f"{{\"rack\": \"R1 R2 R3\"}}, got {type_name(obj)}")
                parsed.append(obj)
            except RummyError as exc:
                errors[i] = {"error": str(exc)}
                parsed.append(None)
        if op == "opening":
            good = [(i, p) for i, p in enumerate(parsed) if p is not None]
            answers = iter(api.openings([p for _, p in good], rules,
                                        labels=[f"line {base + i + 1}" for i, _ in good]))
            for i in range(len(chunk)):
                yield errors[i] if i in errors else next(answers)
        else:
            fn = {"penalty": api.penalty, "tabla": api.tabla}[op]
            for i, obj in enumerate(parsed):
                if i in errors:
                    yield errors[i]
                    continue
                try:
                    yield fn(obj, rules)
                except Exception as exc:  # noqa: BLE001 - each line gets its answer
                    err = api.error_object(exc)
                    yield {"error": f"line {base + i + 1}: {err['error']}"}
        base += len(chunk)


def _variant(rules: str) -> str | None:
    """The variant a --rules text names (None when it names none: the solver then says why)."""
    try:
        return Rules.parse(rules).variant
    except RummyError:
        return None


def run_meld(args: argparse.Namespace) -> int:
    """Handler of ``rummy101 meld``."""
    tiles = args.tiles
    if tiles is None:
        tiles = (CLASSIC_DEMO_MELD if _variant(args.rules) == "classic"
                 else " ".join(EXAMPLES["meld"]["meld"]))
        print(f"(no meld given: checking the built-in example {tiles!r})", file=sys.stderr)
    with flag_names({"meld": "the meld"}):  # the service's field name means nothing here
        answer = api.validate_meld({"rules": args.rules, "meld": tiles, "kind": args.kind})
    print(_dump(answer, args.pretty))
    return 0

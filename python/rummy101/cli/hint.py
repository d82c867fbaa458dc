"""``rummy101 hint``: the recommended turn for one seat (see :mod:`rummy101.hint`; Remi and
classic: :mod:`rummy101.hint.generic`).

The request is the JSON body of ``POST /v1/hint`` (a seat's view, an engine observation or a
game record), read from ``--request FILE`` (``-`` for standard input) or given inline with
``--json``; ``--new-game SEED`` asks for the first turn of a freshly dealt game; with none of
them a built-in example is answered.

>>> from rummy101.cli import main
>>> main(["hint", "--json", '{"seat": 9, "rack": "R1"}'])
2
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from typing import Any

from .._validate import BadRequest, loads
from ..errors import RummyError
from ..service import api
from ..service.examples import EXAMPLES
from ..service.limits import MAX_BODY_BYTES
from ._args import flag_names, seed, whole

__all__ = ["add_subcommands", "run_hint"]


def add_subcommands(subparsers: Any) -> None:
    """Add ``hint`` to the ``rummy101`` tree."""
    p = subparsers.add_parser(
        "hint", help="recommended turn for the seat to move (Rummy 101, Remi, classic)",
        description="The recommended full turn (take, open or lay, add, retrieve jokers, discard) "
                    "with a reason per step, the engine actions that play it, and the next-best "
                    "alternatives. Input: the JSON body of POST /v1/hint. Rummy 101 has its "
                    "own planner; Remi and classic get the turn their greedy bot plays.")
    src = p.add_mutually_exclusive_group()
    src.add_argument("--request", metavar="FILE", default=None,
                     help="read the JSON request from FILE ('-' for standard input); a "
                          "game record as `play --save` writes it is hinted where it stopped "
                          "(default, without --request, --json or --new-game: a built-in "
                          "Rummy 101 example)")
    src.add_argument("--json", dest="inline", metavar="JSON", default=None,
                     help="the JSON request inline")
    src.add_argument("--new-game", type=seed, metavar="SEED", default=None,
                     help="hint the first turn of a new game dealt with this seed (with "
                          "--rules; a Remi deal opens with the doubles exchange unless "
                          "doubles=off, RO-3)")
    p.add_argument("--rules", default=None,
                   help="rule set for --new-game (default rummy101); a request names its own")
    p.add_argument("--alternatives", type=whole, default=None,
                   help="how many next-best turns to list (0-10, default 3)")
    p.add_argument("--pretty", action="store_true", help="indent the JSON output")
    p.set_defaults(func=run_hint)


def _request(args: argparse.Namespace) -> Any:
    if args.inline is not None:
        return loads(args.inline, what="--json")
    if args.request is not None:
        # bytes: loads says "not UTF-8 text (bad byte at offset N)" instead of a traceback
        # (at most the service's body limit: `--request /dev/zero` was read whole, until a
        # MemoryError traceback)
        if args.request == "-":
            stdin = sys.stdin
            return _one_value(_capped(getattr(stdin, "buffer", stdin), "standard input"),
                              "standard input")
        what = f"--request {args.request!r}"
        try:
            with open(args.request, "rb") as fh:
                text = _capped(fh, what)
        except OSError as exc:
            raise RummyError(f"cannot read --request {args.request!r}: {exc.strerror}") from None
        return _one_value(text, what)
    if args.new_game is not None:
        from ..game import new_game, records

        # The game record (the hint from the seat's observation is the same, docs/service.md,
        # the doubles exchange a Remi deal opens with included, RO-3).
        state = new_game("rummy101" if args.rules is None else args.rules, args.new_game)
        return {"record": records.to_dict(state)}
    print("(no request given: answering the built-in example)", file=sys.stderr)
    return dict(EXAMPLES["hint"])


def _capped(stream: Any, what: str) -> str | bytes:
    """All of ``stream`` if it holds at most ``MAX_BODY_BYTES`` (a request's limit in the
    service too), else a RummyError saying so, read no further."""
    text: str | bytes = stream.read(MAX_BODY_BYTES + 1)
    if len(text) > MAX_BODY_BYTES:
        raise RummyError(f"{what} holds more than {MAX_BODY_BYTES:,} bytes, the most one "
                         f"request holds (as a service body): a hint request is one object, "
                         f"such as the game record `rummy101 play --save` writes")
    return text


def _one_value(text: str | bytes, what: str) -> Any:
    """The JSON value of ``text``; a file of one object per line (JSON Lines, as `rummy101 sim
    --out` writes its games) is refused as such, where the JSON reader alone said "Extra data at
    line 2 column 1"."""
    try:
        return loads(text, what=what)
    except BadRequest:
        lines = _lines(text)
        if len(lines) < 2:
            raise
    raise BadRequest(f"{what} holds {len(lines):,} JSON objects, one a line: a hint request is "
                     f"one object, such as the game record `rummy101 play --save` writes (the "
                     f"games of `rummy101 sim --out`, one a line, are over: no turn to hint)"
                     ) from None


def _lines(text: str | bytes) -> list[str]:
    """The non-blank lines of ``text`` when the first two are JSON objects, else []."""
    try:
        if isinstance(text, (bytes, bytearray)):
            text = bytes(text).decode("utf-8")
        lines = [line for line in text.splitlines() if line.strip()]
        if all(isinstance(json.loads(x), dict) for x in lines[:2]):
            return lines
    except ValueError:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        pass
    return []


def run_hint(args: argparse.Namespace) -> int:
    """Handler of ``rummy101 hint``; returns the exit status."""
    if args.rules is not None and args.new_game is None:
        # read only with --new-game: without it the answer would silently be for other rules
        raise RummyError(f"--rules applies to --new-game only (a request names its own rules, "
                         f"the built-in example is Rummy 101): rummy101 hint --new-game SEED "
                         f"--rules {shlex.quote(args.rules)}")
    body = _request(args)
    if isinstance(body, dict) and str(body.get("format", "")).startswith("rummy101-game/"):
        # a bare game record (what `play --save` and `sim --record full` write) is no request
        # field set: it is the request's "record", hinted for the seat to move at its end
        print("(the request is a game record: hinting the seat to move at its end)",
              file=sys.stderr)
        body = {"record": body}
    if args.alternatives is not None:
        if not isinstance(body, dict):
            raise RummyError("--alternatives needs a JSON object request")
        body = {**body, "alternatives": args.alternatives}
    with flag_names({"alternatives": "--alternatives"}):
        answer = api.hint(body)
    print(json.dumps(answer, ensure_ascii=False, indent=2 if args.pretty else None))
    return 0

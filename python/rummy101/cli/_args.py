"""Argument types and error wording shared by the subcommands.

A value argparse accepts as ``int`` may still be out of range for what it feeds (a seed that a
game record, and so ``hint --new-game``, cannot hold; zero rounds). These types refuse it while
parsing, so the message names the flag the person typed rather than an internal field.

>>> seed("-1")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: -1 is not a seed: a whole number from 0 to 9223372036854775807
>>> rounds("0")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: 0 is not a number of rounds: a whole number from 1 to 10000
>>> whole("1,000")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: 1,000 is not a whole number as written: give 1000
"""

from __future__ import annotations

import argparse
import os
import re
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager

from .._limits import SEED_MAX
from ..errors import RummyError
from ..game.state import MAX_MATCH_ROUNDS

__all__ = ["SEED_MAX", "flag_names", "rounds", "seed", "whole"]

#: The most rounds in a match (``new_game``'s limit).
ROUNDS_MAX = MAX_MATCH_ROUNDS


def _whole(text: str, what: str, lo: int, hi: int) -> int:
    try:
        value = int(text)
    except ValueError:
        value = None
    if value is None or not lo <= value <= hi:
        raise argparse.ArgumentTypeError(f"{text} is not {what}: a whole number from {lo} to {hi}")
    return value


def whole(text: str) -> int:
    """A count or number flag (``--games``, ``--workers``, ``--port``...): argparse's own
    ``type=int`` said "invalid int value: '1,000'" to a person who wrote the number as the help
    texts print it (``1 to 10,000,000``). Each command checks the range after."""
    try:
        return int(text)
    except ValueError:
        pass
    meant = None
    try:  # what a person may have meant: 1,000 / 1 000 / 1'000 / 1e3 / 1000.0
        number = float(re.sub(r"(?<=\d)[,' ](?=\d{3}\b)", "", text.strip()))
        if number.is_integer():
            meant = int(number)
    except (ValueError, OverflowError):
        pass
    hint = f"give {meant}" if meant is not None else "give digits only, e.g. 1000"
    raise argparse.ArgumentTypeError(f"{text} is not a whole number as written: {hint}")


def seed(text: str) -> int:
    """``--seed`` / ``--new-game``: a whole number from 0 to :data:`SEED_MAX`."""
    return _whole(text, "a seed", 0, SEED_MAX)


def rounds(text: str) -> int:
    """``--rounds``: a whole number from 1 to :data:`ROUNDS_MAX`."""
    return _whole(text, "a number of rounds", 1, ROUNDS_MAX)


@contextmanager
def flag_names(flags: Mapping[str, str]) -> Iterator[None]:
    """An error about the request field ``name`` names the flag ``flags[name]`` instead (the CLI
    builds the service's request from its flags, whose checks name the JSON field)."""
    try:
        yield
    except RummyError as exc:
        text = str(exc)
        for field, flag in flags.items():
            text = re.sub(rf"\bfield '{re.escape(field)}'", flag, text)
        bad = re.findall(r"\('([^']*)'\) is not a (?:tile|card)", text)
        text += shell_globbed(bad, "tiles in quotes ('R5 R6 *')")
        if text != str(exc):
            exc.args = (text,)
        raise


def shell_globbed(words: Iterable[str], example: str) -> str:
    """A note for the words that name a file or folder of the working directory: a joker typed
    bare in a shell (``rummy101 meld * * K13``) reaches us as those names (the shell expands
    ``*``), and an error that only listed them did not say what had happened. Empty when none
    does; ``example`` says how to write it instead."""
    files = list(dict.fromkeys(w for w in words if w and "/" not in w and os.path.lexists(w)))
    if not files:
        return ""
    shown = ", ".join(repr(f) for f in files[:3]) + (", ..." if len(files) > 3 else "")
    return (f"; {shown} {'is a name' if len(files) == 1 else 'are names'} in this folder: the "
            f"shell replaces an unquoted * (a joker) with the names of the files here. Put the "
            f"{example} or write the joker as JK")

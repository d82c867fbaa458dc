"""The ``rummy101`` command line (also ``python -m rummy101``).

One argparse tree; each command's module adds its subcommands through
``add_subcommands(subparsers)``: :mod:`.solve` (``solve opening|penalty|tabla``, ``meld``),
:mod:`.hint`, :mod:`.sim`, :mod:`.play`, :mod:`.report`, :mod:`.serve` and :mod:`.demo`. A
handler is stored as the subparser's
``func`` default and returns the exit status: 0 on success, 2 on bad input with the message on
standard error (never a traceback for a user mistake).

>>> main(["solve", "opening", "--rack", "R1 R2 R3 X9"])
2
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import errno
import os
import re
import shlex
import sys
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, NoReturn

from .. import __version__
from .._backend import set_backend
from .._validate import quoted_list
from ..errors import BackendError, RummyError
from . import demo, hint, play, report, serve, sim, solve
from ._args import shell_globbed

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

__all__ = ["build_parser", "main"]

PROG = "rummy101"

# The modules that add subcommands, in the order of the help text.
_COMMANDS = (solve, hint, sim, report, play, serve, demo)


#: Characters of a usage error shown; argparse quotes a bad argument whole ("invalid choice:
#: 'R1 R1 ...'"), which for a rack pasted in the wrong place is pages of output.
MAX_ERROR_CHARS = 300


class _Parser(argparse.ArgumentParser):
    """argparse with usage errors cut to :data:`MAX_ERROR_CHARS` (the subcommands' parsers are
    of this class too)."""

    #: the command line being read (main sets it on the top parser): the --rack pointer below
    #: is for the solve commands only
    argv: Sequence[str] = ()
    #: for a pointer to quotes (main sets them on the command's parser): the words the rack or
    #: meld argument took, and the --rules given when not the command's default
    taken: Sequence[str] = ()
    rules: str | None = None

    def error(self, message: str) -> NoReturn:
        if self.prog.startswith(f"{PROG} solve") or (self.prog == PROG and "solve" in self.argv):
            command = self.prog if self.prog.count(" ") >= 2 else f"{PROG} solve opening"
            hint = _rack_hint(message, command, self.taken, self.rules, argv=self.argv)
        elif self.prog == f"{PROG} meld":
            hint = _rack_hint(message, self.prog, self.taken, self.rules, meld=True)
        else:
            hint = ""
        if not hint and self.prog.startswith(f"{PROG} solve"):
            hint = _solver_name_hint(self, message)
        if len(message) > MAX_ERROR_CHARS:
            message = (f"{message[:MAX_ERROR_CHARS - 60]}... (cut: the message is "
                       f"{len(message):,} characters long)")
        super().error(message + hint)

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        # argparse drops every OSError here (--help, --version, usage errors): `--help >
        # /dev/full` exited 0 having written nothing. A full disk or a device error goes on to
        # main, which says so and exits 2; others (a pipe closed early: `--help | head`) are
        # still dropped.
        if not message:
            return
        try:
            (file or sys.stderr).write(message)
        except OSError as exc:
            if exc.errno in _OUTPUT_ERRNOS:
                raise
        except AttributeError:  # a stream without write (argparse drops it too)
            pass


def _rack_hint(message: str, command: str, taken: Sequence[str] = (), rules: str | None = None,
               meld: bool = False, argv: Sequence[str] = ()) -> str:
    """A pointer to quotes when the words argparse did not take, after those the rack (or meld)
    argument took, read as tiles or cards: a rack typed bare after ``solve opening`` (or in
    place of the solver's name, or after ``--rack`` without quotes), a meld without quotes.
    The words end at the first option (``--threshold 5`` typed where it does not belong is no
    part of a rack); ``argv``, the command line, gives the rest of a rack typed in place of the
    solver's name, of which argparse names only the first word."""
    for head in ("unrecognized arguments: ", "argument SOLVER: invalid choice: "):
        if message.startswith(head):
            words = message[len(head):].split(" (choose from")[0].split("; ")[0].strip("'").split()
            break
    else:
        return ""
    if (head.startswith("argument SOLVER") and words and "solve" in argv
            and (_TILE_LIKE.match(words[0]) or _CARD_LIKE.match(words[0]))):
        after = list(argv[list(argv).index("solve") + 1:])
        if words[0] in after:  # (not an option's value, such as remi in `solve --rules remi`)
            words = after[after.index(words[0]):]
    options = [i for i, w in enumerate(words) if w.startswith("-") and w != "-"]
    if options:
        words = words[:options[0]]
        if not words:  # only options (and their values) were not taken: no rack here
            return ""
    words = [w for t in taken for w in t.split()] + words
    if globbed := _shell_globbed(words, command, meld):
        return globbed
    if not words or len(words) > 200:
        return ""
    from ..tiles import parse_cards, parse_tiles

    rack = " ".join(words[:8]) + (" ..." if len(words) > 8 else "")
    mistakes: list[tuple[str, str]] = []  # (the --rules flag, the parser's message) per notation
    for parse, classic in ((parse_tiles, ""), (parse_cards, "--rules classic ")):
        try:
            parse(" ".join(words))
        except (RummyError, ValueError) as e:
            mistakes.append((classic, str(e)))
            continue
        flag = f"--rules {shlex.quote(rules)} " if rules is not None else classic
        return _where(command, flag, rack, meld)
    # a rack with a typo (`R10 R11 Q3`): mostly tiles or cards, so still point at the quotes,
    # with what the parser says about the notation most of its words are in
    tiles = sum(bool(_TILE_LIKE.match(w)) for w in words)
    cards = sum(bool(_CARD_LIKE.match(w)) for w in words)
    if 2 * max(tiles, cards) <= len(words):  # most words must look like tiles (or cards)
        return ""
    classic, why = mistakes[0] if tiles >= cards else mistakes[1]
    flag = f"--rules {shlex.quote(rules)} " if rules is not None else classic
    return f"{_where(command, flag, rack, meld)} (and fix it: {why})"


def _shell_globbed(words: Sequence[str], command: str, meld: bool) -> str:
    """:func:`~._args.shell_globbed` for the words no argument took (or the rack took) that are
    no tile or card."""
    example = f"tiles in quotes ({command} {'' if meld else '--rack '}'R5 R6 *')"
    return shell_globbed((w for w in words if not (_TILE_LIKE.match(w) or _CARD_LIKE.match(w))),
                         example)


def _solver_name_hint(solve: argparse.ArgumentParser, message: str) -> str:
    """A pointer for an option typed between ``solve`` and the solver's name
    (``solve --rules remi opening``, ``solve --variant remi --rack ...``): argparse read the
    option's value as the solver's name (``invalid choice: 'remi'``), which did not say that the
    solver's name comes first. Only for an option of the solver named (``opening`` when none
    is), or another tool's name for one (:data:`_SYNONYMS`)."""
    head = "argument SOLVER: invalid choice: "
    argv = list(getattr(solve, "argv", ()))
    if not message.startswith(head) or "solve" not in argv:
        return ""
    word = message[len(head):].split(" (choose from")[0].strip("'")
    after = argv[argv.index("solve") + 1:]
    if word not in after or after.index(word) == 0:
        return ""
    option = after[after.index(word) - 1]
    solvers = {p.prog.rsplit(" ", 1)[-1]: p for p in _parsers(solve) if p is not solve}
    named = [w for w in after if w in solvers]
    solver = named[0] if named else "opening"
    option = _SYNONYMS.get(option, option)
    if solver not in solvers or option not in _options(solvers[solver]):
        return ""
    return (f"; the solver's name comes first, then its options ('{word}' was read as a "
            f"solver): {PROG} solve {solver} {option} {shlex.quote(word)} ...")


#: a word that names a rule set (--rules): a variant, alone or with its options
_RULES_LIKE = re.compile(r"(?i)^(rummy101|remi|classic)(\(|$)")
#: words that look like a tile or a card, for the quotes pointer of a rack with a typo
_TILE_LIKE = re.compile(r"(?i)^([RYBK]\d{1,2}|\*|JK|JOKER)$")
_CARD_LIKE = re.compile(r"(?i)^(10|[2-9AJQKT])[SHDC\u2660\u2665\u2666\u2663]$")


def _where(command: str, flag: str, rack: str, meld: bool) -> str:
    if meld:
        return f"; a meld goes in quotes: {command} {flag}'{rack}'"
    return f"; a rack goes after --rack, in quotes: {command} {flag}--rack '{rack}'"


def _options(parser: argparse.ArgumentParser) -> list[str]:
    return [o for action in parser._actions for o in action.option_strings]


#: What other tools call an option of ours (make -j, joblib n_jobs, xargs -P): spelling
#: alone pointed --jobs at --bots ("did you mean --bots?").
_SYNONYMS = {"--jobs": "--workers", "-j": "--workers", "--n-jobs": "--workers",
             "--n_jobs": "--workers", "--processes": "--workers", "--procs": "--workers",
             "--cpus": "--workers", "--cores": "--workers", "--threads": "--workers",
             "--parallel": "--workers",
             # the docs call rummy101, remi and classic variants: `--variant remi` was answered
             # "did you mean --input?" (solve) or nothing (hint, play); not --game, which sim
             # reads as its --games (argparse takes a prefix)
             "--variant": "--rules", "--variants": "--rules", "--ruleset": "--rules",
             "--rule-set": "--rules"}


def _unrecognized(top: argparse.ArgumentParser, leaf: argparse.ArgumentParser,
                  extras: Sequence[str], command: str) -> str:
    """The usage error for arguments no parser took, with a pointer for each mistyped option:
    the option it resembles, or where an option of ``rummy101`` itself (before the command) or
    of the command (after it) goes."""
    hints: list[str] = []
    leaf_options = [o for o in _options(leaf) if o.startswith("--")]
    for i, token in enumerate(extras):
        if not token.startswith("-") or token == "-":
            continue
        name = token.split("=", 1)[0]
        moved = [token]
        if "=" not in token and i + 1 < len(extras) and not extras[i + 1].startswith("-"):
            moved.append(extras[i + 1])
        if name[:2] == "-j" and name[2:].isdigit():  # make's -j4
            name, token, moved = "-j", f"-j {name[2:]}", [f"-j {name[2:]}"]
        ours = _SYNONYMS.get(name)
        if ours == "--rules" and "=" not in token:
            # `meld --variant remi 'R1 R2 R3'`: the meld took remi, and the word after
            # --variant is no rule set; a rule set in parentheses needs quotes in a shell
            seen = [w for w in [*moved[1:], *getattr(leaf, "taken", ())] if _RULES_LIKE.match(w)]
            moved = [token, shlex.quote(seen[0]) if seen else "RULES"]
        if ours in leaf_options and name not in _options(leaf):  # another tool's name for it
            value = token[len(name):] or "".join(f" {w}" for w in moved[1:])
            hints.append(f"{ours} sets that here: {PROG} {command} {ours}{value}")
        elif name in _options(top):
            hints.append(f"{name} is an option of {PROG} itself and goes before the command: "
                         f"{PROG} {' '.join(moved)} {command}")
        elif name in _options(leaf):
            hints.append(f"{name} is an option of '{command}' and goes after it: "
                         f"{PROG} {command} {' '.join(moved)}")
        elif owners := [p.prog[len(PROG):].strip() for p in _parsers(top)
                        if p is not leaf and p is not top and name in _options(p)]:
            hints.append(f"{name} is an option of {quoted_list(owners)}, not of '{command}'")
        else:
            close = difflib.get_close_matches(name, leaf_options, n=1, cutoff=0.6)
            if close:
                hints.append(f"did you mean {close[0]}?")
    return f"unrecognized arguments: {' '.join(extras)}" + "".join(f"; {h}" for h in hints)


def _parsers(parser: argparse.ArgumentParser) -> Iterator[argparse.ArgumentParser]:
    """``parser`` and every (sub)command parser under it, depth first."""
    yield parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                yield from _parsers(sub)


def _bots_hint(bots: str | None, extras: Sequence[str], command: str) -> str:
    """A pointer for a --bots list typed with spaces (``--bots greedy, random,random`` or
    ``--bots greedy random``): argparse took its first word and reported the rest as
    unrecognized, which did not say that the list is one word. Only when every word of the
    list, up to the first option, reads as a bot."""
    words = []
    for token in extras:
        if token.startswith("-") and token != "-":
            break
        words.append(token)
    if bots is None or not words:
        return ""
    from ..bots import bot_names

    known = set(bot_names())
    names = [n.strip() for w in (bots, *words) for n in w.split(",") if n.strip()]
    if not names or not all(":" in n or n.lower() in known for n in names):
        return ""
    return (f"; --bots takes one comma-separated list without spaces (or in quotes): "
            f"{PROG} {command} --bots {','.join(names)}")


def _set_leaf(parser: argparse.ArgumentParser) -> None:
    """Each (sub)command parser records itself (``cli_parser``): the deepest one parsed wins, so
    an argument nobody took is reported with the usage of the command it was typed after."""
    parser.set_defaults(cli_parser=parser)
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                _set_leaf(sub)


def _backend_asked(parser: argparse.ArgumentParser, namespace: argparse.Namespace) -> str | None:
    """The ``--backend`` of the command line, also when it comes after ``--version`` (argparse
    acts on ``--version`` as soon as it reads it, before the words that follow)."""
    if getattr(namespace, "backend", None):
        return str(namespace.backend)
    words: list[str] = [str(w) for w in getattr(parser, "argv", None) or ()]
    for word, after in zip(words, [*words[1:], ""], strict=True):
        value = after if word == "--backend" else word.partition("=")[2]
        if word.partition("=")[0] == "--backend" and value in ("auto", "native", "pure"):
            return value
    return None


class _Version(argparse.Action):
    """``--version``: the version and the live core. ``pip install .`` without a C++ compiler
    installs the pure-Python twin without a word; this says which one a newcomer got, and with
    ``--backend`` the core that backend gives (the one the command would run on)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        from .. import _backend

        asked = _backend_asked(parser, namespace)
        try:
            with _backend.using_backend(asked) if asked else contextlib.nullcontext():
                name = _backend.backend_name()
            core = f"{name} core"
            if name == "pure" and "native" not in _backend.available_backends():
                core += ("; the C++ core was not built: reinstall with a C++ compiler and the "
                         "Python headers (python3-dev) to get it")
        except BackendError as exc:
            core = f"no core: {exc}"
        print(f"{PROG} {__version__} ({core})")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    """The whole ``rummy101`` argparse tree."""
    parser = _Parser(
        prog=PROG,
        description="Play, solve and simulate tile and card Rummy (Rummy 101, Romanian Remi, "
                    "classic card Rummy). solve, meld, hint and demo answer JSON; sim and "
                    "report print tables; exit status 0 on success, 2 on bad input or output that "
                    "cannot be written, 130 on Ctrl-C (143 when SIGTERM stops sim).")
    parser.add_argument("--version", action=_Version, nargs=0,
                        help="show the version and which core is live (native or pure) and exit")
    parser.add_argument("--backend", choices=("auto", "native", "pure"), default=None,
                        help="core backend to use (default: RUMMY101_BACKEND or auto)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in _COMMANDS:
        module.add_subcommands(sub)
    _set_leaf(parser)
    return parser


#: what a write to an open stream fails with when the output cannot take it: a full disk or
#: quota, a file over its size limit, a device error (a pipe closed early is BrokenPipeError)
_OUTPUT_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO})


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 2 bad input or output that could
    not be written, 130 Ctrl-C)."""
    try:
        status = _main(argv)
        sys.stdout.flush()  # (a full disk shows here, not as a traceback at exit)
    except OSError as exc:
        # standard output on a full disk (`> out.json` with no room, `> /dev/full`): print and
        # flush raise OSError without a file name; the files the commands open themselves
        # (--out, --save, --plot) say their own name and are reported where they are written
        if exc.filename is not None or exc.errno not in _OUTPUT_ERRNOS:
            raise
        command = " ".join(w for w in (PROG, _command_of(argv)) if w)
        with contextlib.suppress(OSError):
            sys.stdout = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 (no 2nd error at exit)
            print(f"{command}: error: cannot write the output: {exc.strerror}; "
                  "free space or write it elsewhere", file=sys.stderr)
        return 2
    return status


def _command_of(argv: Sequence[str] | None) -> str:
    """The command named on the command line (``sim``, ``solve``, ...), or ''."""
    words = list(sys.argv[1:] if argv is None else argv)
    for action in build_parser()._actions:
        if isinstance(action, argparse._SubParsersAction):
            return next((w for w in words if w in action.choices), "")
    return ""


def _main(argv: Sequence[str] | None = None) -> int:
    # A stream the caller closed (`<&-`, `>&-`, `2>&-`; some supervisors start programs so) is
    # None in Python: read it as empty input and drop what is written to it, not a traceback
    # (and not an error message on standard output, where print(file=None) would put it).
    if sys.stdin is None:
        sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115
    for name in ("stdout", "stderr"):
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))  # noqa: SIM115
    parser = build_parser()
    words = list(sys.argv[1:] if argv is None else argv)
    for each in _parsers(parser):  # the subcommands' parsers read it for their pointers too
        each.argv = words  # type: ignore[attr-defined]
    try:
        args, extras = parser.parse_known_args(argv)
        if extras:
            leaf = getattr(args, "cli_parser", parser)
            command = leaf.prog[len(PROG):].strip()
            if leaf is parser or not command:
                parser.error(f"unrecognized arguments: {' '.join(extras)}")
            if isinstance(leaf, _Parser):  # what a pointer to quotes needs
                taken = getattr(args, "rack", None) or getattr(args, "tiles", None)
                leaf.taken = [taken] if isinstance(taken, str) else []
                rules = getattr(args, "rules", None)
                leaf.rules = rules if rules != leaf.get_default("rules") else None
            leaf.error(_unrecognized(parser, leaf, extras, command)
                       + _bots_hint(getattr(args, "bots", None), extras, command))
    except SystemExit as exc:  # --help, --version, or a usage error (already printed)
        return exc.code if isinstance(exc.code, int) else 2
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        if args.backend:
            set_backend(args.backend)
        return int(args.func(args))
    except RummyError as exc:
        print(f"{PROG} {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except BackendError as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        try:
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115
        except OSError:
            pass
        return 0
    except UnicodeDecodeError as exc:  # a strict-locale standard input fed bytes (play, --jsonl)
        print(f"{PROG} {args.command}: error: the input is not {exc.encoding} text "
              f"({exc.reason}); give text in that encoding", file=sys.stderr)
        return 2
    except MemoryError:  # an input past what the limits above foresee: a line, not a traceback
        print(f"{PROG} {args.command}: error: out of memory; give a smaller input",
              file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # Ctrl-C: a line saying so, not a silent exit (nor a traceback)
        print(f"\n{PROG} {args.command}: interrupted", file=sys.stderr)
        return 130

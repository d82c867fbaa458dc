"""The ``rummy101`` command line (also ``python -m rummy101``).

One argparse tree; each area adds its subcommands through ``add_subcommands(subparsers)`` from its
own module (:mod:`.cli_solve`, :mod:`.cli_hint`, ``cli_sim`` when present). A handler is stored as
the subparser's ``func`` default and returns the exit status: 0 on success, 2 on bad input with the
message on standard error (never a traceback for a user mistake).

>>> main(["solve", "opening", "--rack", "R1 R2 R3 X9"])
2
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import Any

from . import __version__
from .errors import BackendError, RummyError

__all__ = ["build_parser", "main"]

PROG = "rummy101"

# Modules that contribute subcommands; a missing optional one is skipped.
_SUBCOMMAND_MODULES = ("cli_solve", "cli_hint", "cli_sim")


def build_parser() -> argparse.ArgumentParser:
    """The whole ``rummy101`` argparse tree."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Play, solve and simulate tile and card Rummy (Rummy 101, Romanian Remi, "
                    "classic card Rummy). Every command answers JSON; exit status 0 on success, "
                    "2 on bad input.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument("--backend", choices=("auto", "native", "pure"), default=None,
                        help="core backend to use (default: RUMMY101_BACKEND or auto)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in _SUBCOMMAND_MODULES:
        try:
            module = importlib.import_module(f"{__package__}.{name}")
        except ImportError as exc:
            if exc.name and exc.name.endswith(name):
                continue  # that area has not landed in this build
            raise
        module.add_subcommands(sub)
    _add_serve(sub)
    _add_demo(sub)
    return parser


def _add_serve(sub: Any) -> None:
    p = sub.add_parser("serve", help="run the HTTP service",
                       description="Run the HTTP service (needs the 'service' extra: FastAPI and "
                                   "uvicorn). See docs/service.md.")
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8101, help="port (default 8101)")
    p.add_argument("--workers", type=int, default=1,
                   help="worker processes (default 1); each runs solves in its own threads")
    p.add_argument("--threads", type=int, default=4,
                   help="solves running at once per worker (default 4)")
    p.add_argument("--log-level", default="warning",
                   choices=("critical", "error", "warning", "info", "debug"))
    p.add_argument("--cors-origin", action="append", default=None, metavar="ORIGIN",
                   help="a browser origin allowed to call the service (repeatable; default: "
                        "RUMMY101_CORS_ORIGINS, else none: no CORS headers)")
    p.set_defaults(func=_serve)


def _serve(args: argparse.Namespace) -> int:
    from .service import ServiceUnavailable, require_service_extra

    if not 0 < args.port < 65536:
        raise RummyError(f"--port {args.port} is not a port number (1-65535)")
    if not 1 <= args.workers <= 64:
        raise RummyError(f"--workers {args.workers} is out of range (1-64)")
    if not 1 <= args.threads <= 256:
        raise RummyError(f"--threads {args.threads} is out of range (1-256)")
    try:
        require_service_extra(server=True)
    except ServiceUnavailable as exc:
        print(f"{PROG} serve: error: {exc}", file=sys.stderr)
        return 2
    from . import backend_name
    from .service.server import serve

    shown = f"[{args.host}]" if ":" in args.host else args.host
    print(f"{PROG} serve: http://{shown}:{args.port} (backend {backend_name()}, "
          f"{args.workers} worker(s), {args.threads} solve thread(s) each); API document at "
          f"/openapi.json; Ctrl-C or SIGTERM stops it", file=sys.stderr, flush=True)
    serve(args.host, args.port, workers=args.workers, threads=args.threads,
          log_level=args.log_level,
          cors_origins=None if args.cors_origin is None else ",".join(args.cors_origin))
    return 0


def _add_demo(sub: Any) -> None:
    p = sub.add_parser("demo", help="solve built-in examples (no arguments needed)",
                       description="Answer one built-in example of each request: opening, batch, "
                                   "penalty, tabla, meld check and hint.")
    p.set_defaults(func=_demo)


def _demo(args: argparse.Namespace) -> int:
    import json

    from .service import api
    from .service.examples import EXAMPLES

    ops = {"opening": api.opening, "opening_batch": api.solve_opening_body,
           "penalty": api.penalty, "tabla": api.tabla, "meld": api.validate_meld,
           "hint": api.hint}
    for name, op in ops.items():
        print(f"# {name}: {json.dumps(EXAMPLES[name])}")
        print(json.dumps(op(EXAMPLES[name]), ensure_ascii=False))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 2 bad input)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version, or a usage error (already printed)
        return exc.code if isinstance(exc.code, int) else 2
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        if args.backend:
            from ._backend import set_backend

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
            sys.stdout = open(__import__("os").devnull, "w")  # noqa: SIM115
        except OSError:
            pass
        return 0
    except KeyboardInterrupt:
        return 130

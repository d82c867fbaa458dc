"""``rummy101 serve``: run the HTTP service under uvicorn (needs the ``service`` extra; see
:mod:`rummy101.service.server` and docs/service.md)."""

from __future__ import annotations

import argparse
import os
import re
import socket
import sys
from typing import Any

from .._backend import backend_name
from ..errors import RummyError
from ..service import ServiceUnavailable, require_service_extra
from ._args import whole

__all__ = ["add_subcommands", "run_serve"]


def add_subcommands(subparsers: Any) -> None:
    """Add ``serve`` to the ``rummy101`` tree."""
    p = subparsers.add_parser(
        "serve", help="run the HTTP service",
        description="Run the HTTP service (needs the 'service' extra: FastAPI and uvicorn). See "
                    "docs/service.md.")
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    p.add_argument("--port", type=whole, default=8101, help="port (default 8101)")
    p.add_argument("--workers", type=whole, default=1,
                   help="worker processes (default 1); each runs solves in its own threads")
    p.add_argument("--threads", type=whole, default=4,
                   help="solves running at once per worker (default 4)")
    p.add_argument("--log-level", default="warning",
                   choices=("critical", "error", "warning", "info", "debug"),
                   help="the least severe server messages printed (default warning)")
    p.add_argument("--access-log", action="store_true",
                   help="print a line per request (client, request line, status) on standard "
                        "error; lowers --log-level to info at most")
    p.add_argument("--cors-origin", action="append", default=None, metavar="ORIGIN",
                   help="a browser origin allowed to call the service (repeatable; default: "
                        "RUMMY101_CORS_ORIGINS, else none: no CORS headers)")
    p.set_defaults(func=run_serve)


def run_serve(args: argparse.Namespace) -> int:
    """Handler of ``rummy101 serve``; returns the exit status."""
    if not 0 < args.port < 65536:
        raise RummyError(f"--port {args.port} is not a port number (1-65535)")
    if not 1 <= args.workers <= 64:
        raise RummyError(f"--workers {args.workers} is out of range (1-64)")
    if not 1 <= args.threads <= 256:
        raise RummyError(f"--threads {args.threads} is out of range (1-256)")
    _check_origins(args.cors_origin)
    try:
        require_service_extra(server=True)
    except ServiceUnavailable as exc:
        print(f"rummy101 serve: error: {exc}", file=sys.stderr)
        return 2
    from ..service.server import serve  # needs the service extra, checked above

    shown = f"[{args.host}]" if ":" in args.host else args.host
    problem = _cannot_listen(args.host, args.port)
    if problem is not None:  # said before the start line, which would claim an address
        print(f"rummy101 serve: error: cannot listen on http://{shown}:{args.port}: {problem}",
              file=sys.stderr)
        return 2
    print(f"rummy101 serve: http://{shown}:{args.port} (backend {backend_name()}, "
          f"{args.workers} worker(s), {args.threads} solve thread(s) each); API document at "
          f"/openapi.json; Ctrl-C or SIGTERM stops it", file=sys.stderr, flush=True)
    serve(args.host, args.port, workers=args.workers, threads=args.threads,
          log_level=args.log_level, access_log=args.access_log,
          cors_origins=None if args.cors_origin is None else ",".join(args.cors_origin))
    return 0


def _cannot_listen(host: str, port: int) -> str | None:
    """Why ``host:port`` cannot be listened on (in use, not an address of this machine), or
    None. uvicorn binds the same way (``SO_REUSEADDR``) a moment later."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        return f"unknown host ({exc.strerror})"
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(address)
        except OSError as exc:
            return str(exc.strerror or exc)
    return None



# What a browser sends in its Origin header: scheme://host[:port], nothing after it. An origin
# written with a path or a trailing slash ('https://app.example/') never matches one, so the
# service would silently send no CORS headers to the page meant to be allowed.
_ORIGIN = re.compile(r"https?://(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:[0-9]{1,5})?")


def _check_origins(given: list[str] | None) -> None:
    """Refuse CORS origins no browser sends (``--cors-origin`` or ``RUMMY101_CORS_ORIGINS``);
    warn that ``*`` lets every web page call the service."""
    if given is None:
        source = "RUMMY101_CORS_ORIGINS"
        origins = [o.strip() for o in os.environ.get(source, "").split(",") if o.strip()]
    else:
        source, origins = "--cors-origin", given
    for origin in origins:
        if origin == "*":
            print("rummy101 serve: warning: CORS origin '*': every web page may call this "
                  "service", file=sys.stderr)
        elif not _ORIGIN.fullmatch(origin):
            raise RummyError(f"{source} {origin!r} is not a browser origin: give "
                             f"scheme://host[:port] with nothing after it, e.g. "
                             f"https://app.example or http://localhost:3000")

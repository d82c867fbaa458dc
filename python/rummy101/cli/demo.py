"""``rummy101 demo``: one built-in example of every request, and its answer."""

from __future__ import annotations

import argparse
import json
from typing import Any

from ..service import api
from ..service.examples import EXAMPLES

__all__ = ["add_subcommands", "run_demo"]


def add_subcommands(subparsers: Any) -> None:
    """Add ``demo`` to the ``rummy101`` tree."""
    p = subparsers.add_parser(
        "demo", help="solve built-in examples (no arguments needed)",
        description="Answer one built-in example of each request: opening, batch, penalty, tabla, "
                    "meld check and hint.")
    p.set_defaults(func=run_demo)


def run_demo(args: argparse.Namespace) -> int:
    """Handler of ``rummy101 demo``: every built-in example, asked and answered."""
    ops = {"opening": api.opening, "opening_batch": api.solve_opening_body,
           "penalty": api.penalty, "tabla": api.tabla, "meld": api.validate_meld,
           "hint": api.hint}
    for name, op in ops.items():
        print(f"# {name}: {json.dumps(EXAMPLES[name])}")
        print(json.dumps(op(EXAMPLES[name]), ensure_ascii=False))
    return 0

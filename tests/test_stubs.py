"""The shipped stubs (python/rummy101/_core.pyi, py.typed) describe the native core exactly, and the
pure twin exposes the same public names (STYLE.md: same functions, same signatures)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import rummy101
from rummy101 import _backend

STUB = Path(rummy101.__file__).with_name("_core.pyi")


def _stub_names() -> set[str]:
    tree = ast.parse(STUB.read_text())
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    names.discard("Meld")  # a type alias of the stub, not a module attribute
    return names


def _public(mod: object) -> set[str]:
    return {n for n in dir(mod) if not n.startswith("_") and n not in {"annotations"}}


def test_stub_and_marker_are_shipped() -> None:
    assert STUB.is_file()
    assert Path(rummy101.__file__).with_name("py.typed").is_file()


def test_stub_names_match_native_module() -> None:
    if "native" not in _backend.available_backends():
        pytest.skip("native core not built")
    native = _public(_backend._load("native"))
    assert _stub_names() == native


# Native-only: the greedy round in C++ (issue 12) mirrors the Python flow (GreedyBot on the
# rummy101 engine), which is its pure counterpart; rummy101.sim.native_round uses it only on the
# native backend.
NATIVE_ONLY = {"play_greedy_round"}


def test_pure_twin_exposes_the_native_functions() -> None:
    pure = _backend._load("pure")
    missing = {n for n in _stub_names() - NATIVE_ONLY if not hasattr(pure, n)}
    assert not missing, f"rummy101._pure lacks {sorted(missing)}"

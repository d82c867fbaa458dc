"""Executable docs (STYLE.md): the README and every docstring example run as doctests against the
installed package."""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import pkgutil
from pathlib import Path

import pytest
import rummy101

README = Path(__file__).resolve().parent.parent / "README.md"
SKIP = {"rummy101.__main__", "rummy101._core"}
MODULES = sorted(
    m.name for m in pkgutil.walk_packages(rummy101.__path__, "rummy101.") if m.name not in SKIP
)
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


@pytest.mark.parametrize("name", MODULES)
def test_module_docstrings(name: str) -> None:
    try:
        module = importlib.import_module(name)
    except ImportError as exc:  # optional extras (service) may be absent
        pytest.skip(f"{name} needs an optional dependency: {exc}")
    result = doctest.testmod(module, optionflags=FLAGS, verbose=False)
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {name}"


def test_readme_examples() -> None:
    result = doctest.testfile(str(README), module_relative=False, optionflags=FLAGS, verbose=False)
    assert result.failed == 0, f"{result.failed} README example(s) failed"


DOCS = sorted((README.parent / "docs").glob("*.md"))
# Pages whose examples need an optional extra that `pip install '.[test]'` (README's test
# command) does not install: without it they skip, as the modules' docstrings above do.
DOC_EXTRAS = {"rl.md": ("rl", ("pettingzoo", "gymnasium"))}


@pytest.mark.parametrize("path", [p for p in DOCS if ">>>" in p.read_text(encoding="utf-8")],
                         ids=lambda p: p.name)
def test_docs_examples(path: Path) -> None:
    """Every ``>>>`` example in docs/*.md runs (docs/bots.md: the bot protocol)."""
    from rummy101.bots import base

    extra, modules = DOC_EXTRAS.get(path.name, ("", ()))
    absent = [m for m in modules if importlib.util.find_spec(m) is None]
    if absent:
        pytest.skip(f"docs/{path.name} needs the optional extra '{extra}' ({', '.join(modules)}); "
                    f"{', '.join(absent)} not installed: pip install 'rummy101[{extra}]'")

    registry = dict(base._REGISTRY)  # the examples register a bot: leave no trace
    try:
        result = doctest.testfile(str(path), module_relative=False, optionflags=FLAGS, verbose=False)
    finally:
        base._REGISTRY.clear()
        base._REGISTRY.update(registry)
    assert result.failed == 0, f"{result.failed} example(s) failed in docs/{path.name}"

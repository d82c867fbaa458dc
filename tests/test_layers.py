"""The package's layers import only downward (docs/DESIGN.md, "Layers").

Every ``import`` of every module of ``python/rummy101`` is read with :mod:`ast` (those inside
functions too: a lazy import is still a dependency), and each import of another part of the
package must go to a part of the same or a lower layer. A part is a top-level module or
subpackage (``game``, ``bots``, ``service``…). Parts of one layer may import each other (the
search bot plans whole turns with the hint planner, and the planner uses the bots' strategy).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

# never reaches the core (tests/conftest.py checks it): .ci/run's pure pass leaves it out
pytestmark = pytest.mark.backend_free

ROOT = Path(__file__).resolve().parent.parent / "python" / "rummy101"

#: Layer of each part, lowest first (docs/DESIGN.md, "Layers"). ``__init__`` is the package's
#: facade (``rummy101.solve_opening``, ``rummy101.new_game``…); ``web`` is the page's static files.
LAYERS: dict[str, int] = {
    "errors": 0,
    "tiles": 1,
    "rules": 2, "_pure": 2, "_cancel": 2,
    "_backend": 3, "_limits": 3,
    "_validate": 4, "melds": 4,
    "solve": 5, "tabla": 5,
    "game": 6,
    "__init__": 7,
    "bots": 8, "hint": 8,
    "sim": 9, "rl": 9,
    "service": 10, "web": 10,
    "cli": 11,
    "__main__": 12,
}


def _part(module: str) -> str:
    """``rummy101.game.engine`` -> ``game``; ``rummy101`` -> ``__init__``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted(ROOT.rglob("*.py")):
        parts = ("rummy101",) + path.relative_to(ROOT).with_suffix("").parts
        out[".".join(parts)] = path
    return out


def _imports(module: str, path: Path) -> list[tuple[int, str]]:
    """(line, imported module) for every import of the package in ``path``."""
    is_package = path.name == "__init__.py"
    package = module.removesuffix(".__init__") if is_package else module.rsplit(".", 1)[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                head = ".".join(base + ([node.module] if node.module else []))
                # `from .. import x`: x may be a module of the package or a name of its facade
                names = ([head] if node.module else
                         [f"{head}.{a.name}" if f"{head}.{a.name}" in MODULES else head
                          for a in node.names])
            else:
                names = [node.module or ""]
        else:
            continue
        found += [(node.lineno, n) for n in names if n == "rummy101" or n.startswith("rummy101.")]
    return found


MODULES = _modules()


def test_every_part_has_a_layer() -> None:
    parts = {_part(m.removesuffix(".__init__")) if m != "rummy101.__init__" else "__init__"
             for m in MODULES}
    parts = {p for p in parts if not p.startswith("_core")}
    assert parts - set(LAYERS) == set(), "a new part of the package: give it a layer here"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_go_downward(module: str) -> None:
    own = _part(module) if module != "rummy101.__init__" else "__init__"
    upward = []
    for line, target in _imports(module, MODULES[module]):
        other = _part(target)
        if other == own or other.startswith("_core"):
            continue
        if LAYERS[other] > LAYERS[own]:
            upward.append(f"line {line}: {target} (layer {LAYERS[other]} > {own}'s {LAYERS[own]})")
    assert not upward, f"{module} imports upward: " + "; ".join(upward)


def test_the_checker_sees_lazy_and_relative_imports() -> None:
    """The reader itself: a lazy relative import inside a function is found and resolved."""
    source = ("import os\ndef f():\n    from ..service import api\n    from . import greedy\n"
              "    import rummy101.cli\n    from .. import solve_opening\n")
    assert _imports_of_source("rummy101.bots.probe", source) == [
        "rummy101.service", "rummy101.bots.greedy", "rummy101.cli", "rummy101"]


def _imports_of_source(module: str, source: str) -> list[str]:
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "probe.py"
        path.write_text(source, encoding="utf-8")
        return [t for _, t in _imports(module, path)]


VARIANTS = sorted(p.name for p in (ROOT / "game" / "engines").iterdir()
                  if (p / "__init__.py").exists())


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_variant_engine_imports_no_other_variant(variant: str) -> None:
    """Each variant owns its rules code and state data (docs/DESIGN.md): an engine reaches the
    shared game modules, never another variant's package."""
    assert len(VARIANTS) >= 3
    mine = f"rummy101.game.engines.{variant}"
    crossing = [f"{m} line {line}: {t}" for m in MODULES if m.startswith(mine + ".")
                for line, t in _imports(m, MODULES[m])
                if t.startswith("rummy101.game.engines.") and not t.startswith(mine)
                and t != "rummy101.game.engines"]
    assert not crossing, crossing

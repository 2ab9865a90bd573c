"""Every example in a docstring of mjenv and the baselines runs and shows what it says.

The docstrings are read from the source files with ``ast``, not found through the imported
modules: the modules that setup.py compiles with mypyc keep no Python-level functions for
doctest's finder, so collecting from the import would silently skip them. Each example runs in
the namespace of the real, imported module (compiled or not), as ``doctest`` would run it.
"""

from __future__ import annotations

import ast
import doctest
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = {"mjenv": ROOT / "mjenv", "mjenv_agents": ROOT / "agents"}


def _module_name(package: str, path: Path) -> str:
    parts = path.relative_to(PACKAGES[package]).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join((package, *parts))


def _files_with_examples() -> list[tuple[str, Path]]:
    found = []
    for package, folder in PACKAGES.items():
        for path in sorted(folder.rglob("*.py")):
            if path.name != "__main__.py" and ">>> " in path.read_text(encoding="utf-8"):
                found.append((package, path))
    return found


FILES = _files_with_examples()


def _docstrings(path: Path) -> list[tuple[str, str, int]]:
    """(qualified name, docstring, line) of the module and of every class and function."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[tuple[str, str, int]] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                name = f"{prefix}{child.name}"
                doc = ast.get_docstring(child, clean=False)
                if doc is not None:
                    found.append((name, doc, child.body[0].lineno - 1))
                visit(child, f"{name}.")

    doc = ast.get_docstring(tree, clean=False)
    if doc is not None:
        found.append(("", doc, 0))
    visit(tree, "")
    return found


def test_the_docstring_examples_are_found() -> None:
    """A guard against collecting nothing: the engine, the fans and the renderers have
    examples."""
    names = {_module_name(p, f) for p, f in FILES}
    assert {"mjenv.engine.game", "mjenv.engine.match", "mjenv.fans", "mjenv.render.text"} <= names


@pytest.mark.parametrize(("package", "path"), FILES,
                         ids=[str(f.relative_to(ROOT)) for _, f in FILES])
def test_docstring_examples(package: str, path: Path) -> None:
    name = _module_name(package, path)
    module = importlib.import_module(name)
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    report: list[str] = []
    examples = 0
    for qualname, doc, line in _docstrings(path):
        test = parser.get_doctest(doc, dict(vars(module)), f"{name}.{qualname}".rstrip("."),
                                  str(path), line)
        examples += len(test.examples)
        runner.run(test, out=report.append)
    assert examples, f"{path} mentions '>>> ' but holds no runnable example"
    assert runner.failures == 0, "".join(report)

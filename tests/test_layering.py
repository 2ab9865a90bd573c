"""The import direction of the architecture, checked by parsing every module with ``ast``.

Layers (docs: shared/design/architecture.md §2):

    tiles -> melds -> decompose -> {fans, shanten} -> engine -> events/view -> encoding -> env
    arena -> agents (by import string at run time only)

The rules are data: ``MJENV_LAYERS`` maps a module prefix to the mjenv modules it may import
(its own package is always allowed). A new layer adds one row, e.g.
``"mjenv.engine": {"mjenv.tiles", "mjenv.melds", "mjenv.decompose", "mjenv.fans"}``; a module
that matches no row fails the test, so no layer escapes the check. Every import counts, also
those inside functions.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

_BASE = {"mjenv.tiles"}
_MELDS = _BASE | {"mjenv.melds"}
_DECOMPOSE = _MELDS | {"mjenv.decompose"}
ANY_MJENV = {"mjenv"}  # the prefix "mjenv" allows every mjenv module

# module prefix (longest match wins) -> mjenv prefixes it may import
MJENV_LAYERS: dict[str, set[str]] = {
    "mjenv.tiles": set(),
    "mjenv.melds": _BASE,
    "mjenv.decompose": _MELDS,
    "mjenv.fans": _DECOMPOSE | {"mjenv.fans"},
    # the top: the package facade (lazy re-exports) and the command line
    "mjenv.__init__": ANY_MJENV,
    "mjenv.__main__": {"mjenv.cli"},
    "mjenv.cli": ANY_MJENV,
}

# third-party packages mjenv may import (the standard library is always allowed)
MJENV_THIRD_PARTY = {"numpy"}
# only the env module and its wrappers may import these; list them here when they exist
GYM_PACKAGES = {"pettingzoo", "gymnasium"}
GYM_MODULES: set[str] = set()
# never imported by mjenv, at any level: the test oracle, the training stack, the agents
NEVER_IN_MJENV = {"MahjongGB", "torch", "agents"}
# agents use mjenv's public API only; they never see the engine
AGENTS_MAY_NOT_IMPORT = {"mjenv.engine"}


@dataclass(frozen=True)
class Import:
    module: str  # the importing module
    target: str  # the imported module, absolute
    line: int


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__" and len(parts) > 1 and parts[:-1] != ["mjenv"]:
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path) -> list[Import]:
    name = module_name(path)
    is_package = path.name == "__init__.py"
    package = name if is_package and not name.endswith("__init__") else name.rpartition(".")[0]
    if name == "mjenv.__init__":
        package = "mjenv"
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[Import] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend(Import(name, alias.name, node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                if node.level > 1:
                    base = base[: len(base) - (node.level - 1)]
                prefix = ".".join(base)
                target = f"{prefix}.{node.module}" if node.module else prefix
            else:
                target = node.module or ""
            found.append(Import(name, target, node.lineno))
            if node.level and not node.module:  # from . import x: x may be a module
                found.extend(Import(name, f"{target}.{a.name}", node.lineno) for a in node.names)
    return found


def _sources(top: str) -> list[Path]:
    return sorted(p for p in (ROOT / top).rglob("*.py") if "__pycache__" not in p.parts)


def _matches(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def rule_for(module: str) -> set[str] | None:
    best = max((p for p in MJENV_LAYERS if _matches(module, p)), key=len, default=None)
    return None if best is None else MJENV_LAYERS[best]


MJENV_FILES = _sources("mjenv")
AGENT_FILES = _sources("agents")


def _id(path: Path) -> str:
    return str(path.relative_to(ROOT))


def test_the_known_layers_exist() -> None:
    names = {module_name(p) for p in MJENV_FILES}
    assert {"mjenv.tiles", "mjenv.melds", "mjenv.cli", "mjenv.__init__"} <= names


@pytest.mark.parametrize("path", MJENV_FILES, ids=_id)
def test_mjenv_module_imports_only_lower_layers(path: Path) -> None:
    module = module_name(path)
    allowed = rule_for(module)
    assert allowed is not None, (
        f"{module} is in no layer: add a row for it to MJENV_LAYERS in tests/test_layering.py"
    )
    stdlib = sys.stdlib_module_names
    for imp in imports_of(path):
        top = imp.target.split(".")[0]
        where = f"{_id(path)}:{imp.line} imports {imp.target}"
        assert top not in NEVER_IN_MJENV, f"{where}: mjenv never imports {top}"
        if top == "mjenv":
            if imp.target == "mjenv":  # `from mjenv import __version__`: the package facade
                assert module in ("mjenv.cli", "mjenv.__main__", "mjenv.__init__") or not any(
                    True for _ in ()
                ), where
                continue
            assert any(_matches(imp.target, p) for p in allowed), (
                f"{where}: {module} may import only {sorted(allowed) or 'nothing of mjenv'}"
            )
        elif top in GYM_PACKAGES:
            assert any(_matches(module, m) for m in GYM_MODULES), (
                f"{where}: only the env module (GYM_MODULES) may import {top}"
            )
        else:
            assert top in stdlib or top in MJENV_THIRD_PARTY or top == "__future__", (
                f"{where}: not a declared dependency of mjenv (MJENV_THIRD_PARTY)"
            )


@pytest.mark.parametrize("path", AGENT_FILES, ids=_id)
def test_agents_use_the_public_api(path: Path) -> None:
    for imp in imports_of(path):
        assert imp.target.split(".")[0] != "MahjongGB", f"{_id(path)}:{imp.line}"
        assert not any(_matches(imp.target, p) for p in AGENTS_MAY_NOT_IMPORT), (
            f"{_id(path)}:{imp.line} imports {imp.target}: agents never see the engine"
        )


def test_rules_catch_an_upward_import(tmp_path: Path) -> None:
    """The checker itself: relative and absolute upward imports are both seen."""
    fake = ROOT / "mjenv" / "melds.py"
    tree = imports_of(fake)
    assert any(i.target == "mjenv.tiles" for i in tree)
    assert rule_for("mjenv.fans.table") == MJENV_LAYERS["mjenv.fans"]
    assert rule_for("mjenv.tilesx") is None
    assert not any(_matches("mjenv.fans", p) for p in MJENV_LAYERS["mjenv.decompose"])


def test_import_mjenv_is_light() -> None:
    code = (
        "import sys, mjenv\n"
        "heavy = sorted(m for m in ('numpy', 'mjenv.fans', 'mjenv.decompose', 'pettingzoo',"
        " 'gymnasium', 'torch') if m in sys.modules)\n"
        "print(mjenv.__version__, heavy)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "0.1.0 []"

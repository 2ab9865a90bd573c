"""The module lists setup.py compiles, read from its source (not run: importing setup.py would
run setuptools), so that tests about the compiled build never keep a copy of them."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def setup_list(name: str) -> list[str]:
    """The list literal assigned to ``name`` in setup.py (``COMPILED_MODULES``,
    ``COMPILED_AGENT_MODULES``, ``BUILD_FLAGS``)."""
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if (isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)
                and node.targets[0].id == name):
            value = ast.literal_eval(node.value)
            assert isinstance(value, list)
            return [str(v) for v in value]
    raise AssertionError(f"setup.py has no {name}")


def compiled_agent_modules() -> list[str]:
    """The agent modules setup.py compiles, by their installed names
    (``mjenv_agents.rule_based``)."""
    return [f"mjenv_agents.{Path(m).stem}" for m in setup_list("COMPILED_AGENT_MODULES")]

"""The import direction of the architecture, checked by parsing every module with ``ast``.

Layers (docs: docs/architecture.md §2):

    tiles -> melds -> decompose -> {fans, shanten} -> engine -> events/view -> encoding -> env
    arena -> agents (mjenv_agents: by entry point or import string, at run time only)

The rules are data: ``MJENV_LAYERS`` maps a module prefix to the mjenv modules it may import
(a package lists itself to import its own modules). A new layer adds one row, e.g.
``"mjenv.engine": {"mjenv.tiles", "mjenv.melds", "mjenv.decompose", "mjenv.fans"}``; a module
that matches no row fails the test, so no layer escapes the check. Every import counts, also
those inside functions.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

_BASE = {"mjenv.tiles"}
_MELDS = _BASE | {"mjenv.melds"}
_DECOMPOSE = _MELDS | {"mjenv.decompose", "mjenv.inputs", "mjenv.actions"}
ANY_MJENV = {"mjenv"}  # the prefix "mjenv" allows every mjenv module

# module prefix (longest match wins) -> mjenv prefixes it may import
MJENV_LAYERS: dict[str, set[str]] = {
    "mjenv.tiles": set(),
    "mjenv.melds": _BASE,
    "mjenv.actions": _BASE,  # the 235-action layout: a convention shared with Botzone/IJCAI
    "mjenv.inputs": _MELDS,  # checks of user input shared by the layers above
    "mjenv.decompose": _MELDS,
    "mjenv.fans": _DECOMPOSE | {"mjenv.fans"},
    "mjenv.shanten": _DECOMPOSE,
    "mjenv.analysis": _DECOMPOSE | {"mjenv.shanten", "mjenv.fans"},
    # hands for differential tests and benchmarks (numpy's generators): beside the calculator
    "mjenv.testing": _DECOMPOSE | {"mjenv.fans", "mjenv.testing"},
    "mjenv.engine": _DECOMPOSE | {"mjenv.fans", "mjenv.engine"},
    # Botzone's protocol over the engine's botzone profile
    "mjenv.botzone": _DECOMPOSE | {"mjenv.fans", "mjenv.engine", "mjenv.botzone"},
    # the bridge: an agent as a bot (observations of the seat's view), a bot as an agent
    "mjenv.botzone.bot": _DECOMPOSE | {"mjenv.fans", "mjenv.engine", "mjenv.botzone",
                                       "mjenv.encoders", "mjenv.agent"},
    "mjenv.botzone.package": {"mjenv.agent", "mjenv.botzone"},
    # observations and the environment
    "mjenv.encoders": _DECOMPOSE | {"mjenv.fans", "mjenv.engine", "mjenv.encoders",
                                    "mjenv.shanten"},  # the hand-analysis planes
    # text for people: the table from a seat view, the reports of the command line
    "mjenv.render": _DECOMPOSE | {"mjenv.engine", "mjenv.render", "mjenv.fans", "mjenv.shanten",
                                  "mjenv.analysis"},
    "mjenv.registration": set(),
    "mjenv.mahjong_env": _DECOMPOSE | {"mjenv.fans", "mjenv.engine", "mjenv.encoders",
                                       "mjenv.render"},
    "mjenv.mcr_mahjong_v0": {"mjenv.mahjong_env", "mjenv.registration"},
    # what installed distributions plug in (entry points): agent names, the training stack
    "mjenv.plugins": set(),
    # the agent protocol and specs (agents resolved by entry point or import string)
    "mjenv.agent": {"mjenv.plugins"},
    "mjenv.single_agent": {"mjenv.agent", "mjenv.mahjong_env"},
    # many games as one batch (multi-agent and learner), optional worker processes
    # (and its two helpers in C, which import nothing: the prefetch and the one-pass rows)
    "mjenv.vector": _DECOMPOSE | {"mjenv.vector", "mjenv.engine", "mjenv.encoders",
                                  "mjenv.mahjong_env", "mjenv.agent", "mjenv.procs",
                                  "mjenv._prefetch", "mjenv._rows"},
    # thin adapters to the RL libraries (each imports its own library, an optional extra):
    # users of mjenv like the command line, above every layer
    "mjenv.integrations": ANY_MJENV,
    "mjenv.arena": {"mjenv.agent", "mjenv.arena", "mjenv.mahjong_env", "mjenv.fans",
                    "mjenv.procs", "mjenv.engine.record",  # records: the games kept
                    "mjenv.inputs"},  # the bounded JSON parser (a manifest is outside input)
    # process lifetime (workers that die with their parent, SIGTERM, threads): stdlib only
    "mjenv.procs": set(),
    # the seat's events for agents that watch the hand (a Botzone bot program)
    "mjenv.arena.feed": {"mjenv.agent", "mjenv.engine"},
    "mjenv.play": _DECOMPOSE | {"mjenv.agent", "mjenv.engine", "mjenv.mahjong_env",
                                "mjenv.render"},
    # the top: the package facade (lazy re-exports) and the command line
    # kept to light modules: mypyc's build type-checks whatever the package imports (even in
    # functions) before numpy is installed; the env is imported by name (importlib)
    "mjenv.__init__": {"mjenv.fans", "mjenv.registration"},
    "mjenv.__main__": {"mjenv.cli"},
    "mjenv.cli": ANY_MJENV,
}

# third-party packages mjenv may import (the standard library is always allowed)
# matplotlib, tqdm and ray: the arena; mypy_extensions: mypyc_attr (the events are acyclic)
MJENV_THIRD_PARTY = {"numpy", "matplotlib", "tqdm", "ray", "mypy_extensions"}
# module prefix -> declared dependencies it still may not import. The calculator is plain
# Python (compiled by mypyc, which type-checks it before numpy is installed); the hand
# generator, which needs numpy, is mjenv.testing.
THIRD_PARTY_BANNED: dict[str, set[str]] = {"mjenv.fans": {"numpy"}}
# only the env module and its wrappers may import these; list them here when they exist
GYM_PACKAGES = {"pettingzoo", "gymnasium"}
GYM_MODULES: set[str] = {"mjenv.mahjong_env", "mjenv.registration", "mjenv.single_agent",
                         "mjenv.vector", "mjenv.integrations"}
# module prefix -> the optional libraries it adapts to (their extras), torch included
OPTIONAL_LIBRARIES: dict[str, set[str]] = {
    "mjenv.integrations": {"torch", "stable_baselines3", "sb3_contrib", "tianshou", "ray",
                           "torchrl", "tensordict"},
}
# never imported by mjenv, at any level: the test oracle, the training stack, the agents
NEVER_IN_MJENV = {"MahjongGB", "torch", "agents", "mjenv_agents"}
# agents use mjenv's public API only; they never see the engine
AGENTS_MAY_NOT_IMPORT = {"mjenv.engine"}


def module_name(path: Path) -> str:
    """``mjenv/fans/table.py`` -> ``mjenv.fans.table``; a package's ``__init__`` -> its name.

    The top package's ``__init__`` keeps its name (``mjenv.__init__``) so it has a row of its own.
    """
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__" and len(parts) > 2:
        parts.pop()
    return ".".join(parts)


def _is_module(name: str) -> bool:
    base = ROOT.joinpath(*name.split("."))
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def imports_of(module: str, source: str, is_package: bool = False) -> list[tuple[str, int]]:
    """Every module that ``source`` (the text of ``module``) imports, as (absolute name, line)."""
    if module.endswith(".__init__"):
        module, is_package = module.removesuffix(".__init__"), True
    package = module if is_package else module.rpartition(".")[0]
    found: list[tuple[str, int]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.extend((alias.name, node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1])
                target = f"{base}.{node.module}" if node.module else base
            else:
                target = node.module or ""
            for alias in node.names:  # `from pkg import submodule` imports the submodule
                sub = f"{target}.{alias.name}"
                found.append((sub if _is_module(sub) else target, node.lineno))
    return found


def _matches(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def rule_for(module: str) -> set[str] | None:
    best = max((p for p in MJENV_LAYERS if _matches(module, p)), key=len, default=None)
    return None if best is None else MJENV_LAYERS[best]


def mjenv_violations(module: str, source: str, is_package: bool = False) -> list[str]:
    """What is wrong with the imports of one mjenv module (empty when it keeps the layering)."""
    allowed = rule_for(module)
    if allowed is None:
        return [f"{module} is in no layer: add a row for it to MJENV_LAYERS in {__name__}"]
    problems = []
    for target, line in imports_of(module, source, is_package):
        top = target.split(".")[0]
        where = f"{module}:{line} imports {target}"
        if any(_matches(module, p) and top in libs for p, libs in OPTIONAL_LIBRARIES.items()):
            continue
        if top in NEVER_IN_MJENV:
            problems.append(f"{where}: mjenv never imports {top}")
        elif top == "mjenv":
            if not any(_matches(target, p) for p in allowed):
                problems.append(f"{where}: {module} may import only "
                                f"{sorted(allowed) or 'nothing of mjenv'}")
        elif top in GYM_PACKAGES:
            if not any(_matches(module, m) for m in GYM_MODULES):
                problems.append(f"{where}: only the env module (GYM_MODULES) may import {top}")
        elif top not in sys.stdlib_module_names and top not in MJENV_THIRD_PARTY:
            problems.append(f"{where}: not a declared dependency of mjenv (MJENV_THIRD_PARTY)")
        elif any(_matches(module, p) and top in banned for p, banned in THIRD_PARTY_BANNED.items()):
            problems.append(f"{where}: {module} may not import {top} (THIRD_PARTY_BANNED)")
    return problems


def _sources(top: str) -> list[Path]:
    return sorted(p for p in (ROOT / top).rglob("*.py") if "__pycache__" not in p.parts)


def _id(path: Path) -> str:
    return str(path.relative_to(ROOT))


MJENV_FILES = _sources("mjenv")
AGENT_FILES = _sources("agents")


def test_the_known_layers_exist() -> None:
    names = {module_name(p) for p in MJENV_FILES}
    assert {"mjenv.tiles", "mjenv.melds", "mjenv.cli", "mjenv.__init__"} <= names


@pytest.mark.parametrize("path", MJENV_FILES, ids=_id)
def test_mjenv_module_imports_only_lower_layers(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    is_package = path.name == "__init__.py"
    assert mjenv_violations(module_name(path), source, is_package) == []


@pytest.mark.parametrize("path", AGENT_FILES, ids=_id)
def test_agents_use_the_public_api(path: Path) -> None:
    name = module_name(path)
    for target, line in imports_of(name, path.read_text(encoding="utf-8"),
                                   path.name == "__init__.py"):
        assert target.split(".")[0] != "MahjongGB", f"{_id(path)}:{line}"
        assert not any(_matches(target, p) for p in AGENTS_MAY_NOT_IMPORT), (
            f"{_id(path)}:{line} imports {target}: agents never see the engine"
        )


@pytest.mark.parametrize("path", AGENT_FILES, ids=_id)
def test_agents_import_their_own_modules_relatively(path: Path) -> None:
    """The folder agents/ installs as ``mjenv_agents``: an absolute ``agents.x`` import breaks
    the installed package, and an absolute ``mjenv_agents.x`` one breaks mypy, which checks the
    folder as ``agents`` and cannot follow the editable install's import hook."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names = [node.module or ""]
        else:
            continue
        for name in names:
            assert name.split(".")[0] not in {"agents", "mjenv_agents"}, (
                f"{_id(path)}:{node.lineno} imports {name}: use a relative import")


@pytest.mark.parametrize(
    ("module", "source", "expected"),
    [
        ("mjenv.tiles", "import re\nfrom collections.abc import Iterable\n", []),
        ("mjenv.tiles", "from mjenv.melds import Meld\n", ["may import only nothing of mjenv"]),
        ("mjenv.melds", "from .tiles import tile_id\n", []),
        ("mjenv.melds", "from . import decompose\n", ["may import only"]),
        ("mjenv.decompose", "def f():\n    from mjenv.fans import calculate\n",
         ["may import only"]),
        ("mjenv.fans.calculator", "from .table import FANS\nfrom ..decompose import x\n", []),
        ("mjenv.fans.calculator", "from ..cli import main\n", ["may import only"]),
        ("mjenv.shanten", "from mjenv.decompose import ORPHANS\n", []),
        ("mjenv.shanten", "from mjenv.fans import calculate\n", ["may import only"]),
        ("mjenv.analysis", "from mjenv.shanten import analyze\nfrom mjenv.fans import x\n", []),
        ("mjenv.analysis", "from mjenv.cli import main\n", ["may import only"]),
        ("mjenv.fans.hand", "from mjenv.shanten import shanten\n", ["may import only"]),
        ("mjenv.fans", "from mjenv.fans.table import FANS\n", []),
        ("mjenv.fans.table", "import MahjongGB\n", ["never imports MahjongGB"]),
        ("mjenv.cli", "def f():\n    import torch\n", ["never imports torch"]),
        ("mjenv.cli", "import agents.random\n", ["never imports agents"]),
        ("mjenv.cli", "from mjenv_agents.train import pipeline\n",
         ["never imports mjenv_agents"]),
        ("mjenv.agent", "from mjenv import plugins\n", []),
        ("mjenv.plugins", "from mjenv.agent import make_agent\n", ["may import only"]),
        ("mjenv.cli", "from pettingzoo import AECEnv\n", ["only the env module"]),
        ("mjenv.fans.table", "import numpy as np\n", ["may not import numpy"]),
        ("mjenv.fans", "def f():\n    from numpy import zeros\n", ["may not import numpy"]),
        ("mjenv.testing.recipes", "import numpy as np\nfrom mjenv.fans.table import FANS\n"
         "from mjenv.decompose import HONORS\nfrom .generate import build_regular\n", []),
        ("mjenv.testing.generate", "from mjenv.engine.game import Game\n", ["may import only"]),
        ("mjenv.fans.calculator", "from mjenv.testing import sample_hands\n",
         ["may import only"]),
        ("mjenv.engine.wall", "import numpy as np\n", []),
        ("mjenv.fans.table", "import scipy\n", ["not a declared dependency"]),
        ("mjenv.engine.game", "from mjenv.fans import calculate\nfrom .wall import Wall\n", []),
        ("mjenv.engine.game", "from mjenv.shanten import shanten\n", ["may import only"]),
        ("mjenv.engine.game", "from mjenv.cli import main\n", ["may import only"]),
        ("mjenv.engine.game", "import gymnasium\n", ["only the env module"]),
        ("mjenv.newlayer", "", ["is in no layer"]),
    ],
)
def test_the_checker_itself(module: str, source: str, expected: list[str]) -> None:
    problems = mjenv_violations(module, source)
    assert len(problems) == len(expected), problems
    for problem, fragment in zip(problems, expected, strict=True):
        assert fragment in problem


def test_import_mjenv_is_light() -> None:
    code = (
        "import sys, mjenv\n"
        "heavy = sorted(m for m in ('numpy', 'mjenv.fans', 'mjenv.decompose', 'pettingzoo',"
        " 'gymnasium', 'torch') if m in sys.modules)\n"
        "print(mjenv.__version__, heavy)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "0.2.0 []"


def test_the_calculator_loads_without_numpy() -> None:
    """THIRD_PARTY_BANNED checks mjenv.fans's own imports; this checks what they pull in."""
    code = "import sys, mjenv.fans, mjenv.fans.jsonl\nprint('numpy' in sys.modules)\n"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "False"

"""Suite-wide checks.

The calculator's hot modules may be compiled with mypyc (setup.py); the compiled files sit
beside the sources and load first. A compiled file older than its source would test stale
code, so the run stops with the command that rebuilds it.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

COMPILED_MODULES = ("mjenv.decompose", "mjenv.fans.calculator")


def pytest_sessionstart(session: pytest.Session) -> None:
    for name in COMPILED_MODULES:
        module = importlib.import_module(name)
        built = Path(module.__file__ or "")
        if built.suffix != ".so":
            continue
        source = built.with_name(built.name.split(".")[0] + ".py")
        if source.exists() and source.stat().st_mtime > built.stat().st_mtime:
            pytest.exit(
                f"{built.name} is older than {source.name}: rebuild with `make install` "
                "(or `pip install --no-build-isolation -e .`), or delete the .so files",
                returncode=3,
            )

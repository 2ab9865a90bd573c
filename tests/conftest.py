"""Suite-wide checks.

Some modules are compiled with mypyc at install (setup.py); the compiled files sit beside the
sources and load first. A compiled file older than its source would test stale code, so the
run stops with the command that rebuilds it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "mjenv"


def pytest_sessionstart(session: pytest.Session) -> None:
    for built in PACKAGE.rglob("*.so"):
        source = built.with_name(built.name.split(".")[0] + ".py")
        if source.exists() and source.stat().st_mtime > built.stat().st_mtime:
            pytest.exit(
                f"{built.name} is older than {source.name}: rebuild with `make install` "
                "(or `pip install --no-build-isolation -e .`), or delete the .so files",
                returncode=3,
            )

"""Suite-wide checks.

Some modules are compiled with mypyc at install (setup.py); the compiled files sit beside the
sources and load first (and mjenv/_prefetch.c builds beside its source too). A compiled file
older than its source would test stale code, so the run stops with the command that rebuilds it.
"""

from __future__ import annotations

import importlib.util
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "mjenv"
AGENTS = PACKAGE.parent / "agents"  # installs as mjenv_agents; its hot modules are compiled too


def pytest_sessionstart(session: pytest.Session) -> None:
    # Tests of Ctrl-C send SIGINT to commands they start. A runner that started the suite in the
    # background (`cmd &` in a script) leaves SIGINT ignored, and an ignored signal stays
    # ignored in every child; Python's own handler here makes children start with the default.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    for built in [*PACKAGE.rglob("*.so"), *AGENTS.rglob("*.so")]:
        stem = built.name.split(".")[0]
        for source in (built.with_name(stem + ".py"), built.with_name(stem + ".c")):
            if source.exists() and source.stat().st_mtime > built.stat().st_mtime:
                pytest.exit(
                    f"{built.name} is older than {source.name}: rebuild with `make install` "
                    "(or `pip install --no-build-isolation -e .`), or delete the .so files",
                    returncode=3,
                )


@pytest.fixture(scope="session")
def load_script() -> Callable[[str], ModuleType]:
    """Import a file of scripts/ as a module, as running it would (scripts/ on sys.path)."""
    scripts = PACKAGE.parent / "scripts"

    def load(name: str) -> ModuleType:
        spec = importlib.util.spec_from_file_location(name, scripts / f"{name}.py")
        assert spec is not None and spec.loader is not None
        if str(scripts) not in sys.path:  # finds scripts/benchkit.py, as a script run would
            sys.path.insert(0, str(scripts))
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # dataclasses look their module up there
        spec.loader.exec_module(module)
        return module

    return load


@pytest.fixture
def pretrained_registered(monkeypatch: pytest.MonkeyPatch) -> str:
    """The spec ``pretrained`` as pyproject.toml registers it, also where the installed
    metadata predates the entry point (an editable install made before it was added: entry
    points are read from the install, not from pyproject.toml); returns its import path."""
    import tomllib

    from mjenv import plugins

    pyproject = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text(encoding="utf-8"))
    want: str = pyproject["project"]["entry-points"]["mjenv.agents"]["pretrained"]
    found = plugins.agent_entry_points()
    if found.get("pretrained") != want:
        monkeypatch.setattr(plugins, "agent_entry_points",
                            lambda: dict(sorted({**found, "pretrained": want}.items())))
    return want

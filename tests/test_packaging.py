"""What the wheel is made of (pyproject.toml): every package folder is listed, the typed
markers and configs exist, and checkpoints do not depend on the agents' import name.

scripts/wheel_smoke.sh checks a built wheel in a fresh venv; these checks are the fast ones
that catch the usual slip (a new package folder not added to the explicit list) in every run.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from fnmatch import fnmatch
from pathlib import Path

import pytest

from tests.setup_lists import setup_list

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
SETUPTOOLS = PYPROJECT["tool"]["setuptools"]


def _import_name(folder: Path) -> str:
    """The name a package folder installs as, by pyproject's package-dir."""
    rel = folder.relative_to(ROOT).as_posix()
    best = ""
    for name, where in SETUPTOOLS["package-dir"].items():
        if (rel == where or rel.startswith(where + "/")) and len(where) > len(best):
            best = where
            mapped = name
    if not best:
        return rel.replace("/", ".")
    return ".".join([mapped, *Path(rel).relative_to(best).parts])


def _package_folders() -> list[Path]:
    """Every folder of mjenv/, agents/ and configs/ that holds Python files."""
    folders = {p.parent for top in ("mjenv", "agents", "configs")
               for p in (ROOT / top).rglob("*.py") if "__pycache__" not in p.parts}
    return sorted(folders)


def test_import_names_of_the_mapping() -> None:
    assert _import_name(ROOT / "agents") == "mjenv_agents"
    assert _import_name(ROOT / "agents" / "train") == "mjenv_agents.train"
    assert _import_name(ROOT / "configs") == "mjenv_agents.configs"
    assert _import_name(ROOT / "mjenv" / "fans") == "mjenv.fans"


def test_every_package_folder_is_in_the_explicit_list() -> None:
    listed = set(SETUPTOOLS["packages"])
    found = {_import_name(f) for f in _package_folders()}
    assert sorted(found - listed) == [], "add them to [tool.setuptools] packages in pyproject"
    assert sorted(listed - found) == [], "listed in pyproject.toml but no folder holds them"


def test_the_package_data_exists() -> None:
    data = SETUPTOOLS["package-data"]
    assert data["mjenv"] == ["py.typed", "_prefetch.pyi", "_rows.pyi"]
    assert data["mjenv_agents"] == ["py.typed"]
    assert (ROOT / "mjenv" / "py.typed").is_file() and (ROOT / "agents" / "py.typed").is_file()
    assert sorted(p.name for p in (ROOT / "configs").glob("*.toml")) == [
        "bc_smoke.toml", "demo.toml", "long.toml", "smoke.toml", "strong.toml"]
    assert "*.toml" in data["mjenv_agents.configs"]


BUILD_OUTPUTS = {".pyc", ".so", ".pyd", ".c", ".h"}  # the compiled calculator, beside its source


def test_every_data_file_is_package_data() -> None:
    """A file other than Python source ships only when package-data names it: one added to a
    package folder (a config, a page asset) without a pattern would be missing from the wheel."""
    packages = {_import_name(f): f for f in _package_folders()}
    data = SETUPTOOLS["package-data"]
    unshipped = []
    for top in ("mjenv", "agents", "configs"):
        for path in (ROOT / top).rglob("*"):
            if (not path.is_file() or path.suffix in BUILD_OUTPUTS or path.suffix == ".py"
                    or "__pycache__" in path.parts):
                continue
            owner = max((name for name, folder in packages.items()
                         if folder in path.parents), key=lambda n: len(packages[n].parts))
            rel = path.relative_to(packages[owner]).as_posix()
            if not any(fnmatch(rel, pattern) for pattern in data.get(owner, [])):
                unshipped.append(f"{path.relative_to(ROOT)} (package {owner}: {rel})")
    assert unshipped == [], "add a [tool.setuptools.package-data] pattern for them"


def test_nothing_installs_a_top_level_agents_package() -> None:
    assert not any(p == "agents" or p.startswith("agents.") for p in SETUPTOOLS["packages"])
    assert "agents" not in PYPROJECT["tool"]["ruff"]["lint"]["isort"]["known-first-party"]


def test_a_checkpoint_saved_under_the_old_name_loads(tmp_path: Path) -> None:
    """Checkpoints hold a config dict, tensors and plain data (read with weights_only=True, which
    refuses any class reference): nothing names the module that wrote them. Proof by the case
    that matters: one written by the package imported as ``agents`` (as before the rename) loads
    with ``mjenv_agents``."""
    pytest.importorskip("torch")
    from mjenv_agents.policy import PolicyAgent, load_checkpoint

    old = tmp_path / "old"
    shutil.copytree(ROOT / "agents", old / "agents",
                    ignore=shutil.ignore_patterns("__pycache__"))
    path = tmp_path / "old.pt"
    code = ("import sys, torch\n"
            "from agents.policy import PolicyConfig, PolicyNet, save_checkpoint\n"
            "torch.manual_seed(0)\n"
            "net = PolicyNet(PolicyConfig(channels=8, blocks=1))\n"
            "save_checkpoint(sys.argv[1], net, {'step': 3, 'teacher': 'rule'})\n"
            "assert 'mjenv_agents' not in sys.modules\n")
    env = {**os.environ, "PYTHONPATH": str(old)}
    done = subprocess.run([sys.executable, "-c", code, str(path)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    with zipfile.ZipFile(path) as archive:
        pickles = [archive.read(n) for n in archive.namelist() if n.endswith(".pkl")]
    assert pickles and not any(b"agents" in p for p in pickles)
    net, extra = load_checkpoint(path)
    assert extra == {"step": 3, "teacher": "rule"} and net.config.channels == 8
    agent = PolicyAgent(str(path))
    agent.reset(0, seed=1)


def test_the_build_type_check_passes_without_numpy_and_gymnasium(tmp_path: Path) -> None:
    """An isolated build type-checks the compiled modules before numpy and gymnasium are
    installed; if that check fails, setup.py installs plain Python without a word (CI's fresh
    venv once did). Here mypy checks them as the build does, against a bare interpreter."""
    bare = tmp_path / "bare"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(bare)], check=True,
                   timeout=120)
    python = bare / "bin" / "python"
    assert subprocess.run([str(python), "-c", "import numpy"], capture_output=True,
                          check=False).returncode != 0
    link = tmp_path / "src" / "mjenv_agents"  # as setup.py's agent_sources: mjenv_agents.*
    link.parent.mkdir()
    link.symlink_to(ROOT / "agents", target_is_directory=True)
    agents = [str(link / Path(m).name) for m in setup_list("COMPILED_AGENT_MODULES")]
    assert agents
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--python-executable", str(python),
         "--cache-dir", str(tmp_path / "cache"), *setup_list("BUILD_FLAGS"),
         *setup_list("COMPILED_MODULES"), *agents],
        cwd=ROOT, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout + done.stderr

"""Entry points (mjenv.plugins): the built-in agents under their own import name, a third-party
agent registered by another distribution, and the training stack's loader.

The distributions are real ones on disk (a folder with a ``.dist-info``) put on the
``PYTHONPATH`` of a subprocess, so :func:`importlib.metadata.entry_points` finds them exactly as
it would after ``pip install``; nothing is patched in the process under test.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import mjenv.plugins as plugins

ROOT = Path(__file__).resolve().parents[1]


def run_python(code: str, path: Path, cwd: Path, *args: str,
               timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``python -c code`` (or ``python -m ...`` when ``code`` is empty) with ``path`` first on
    the import path, in ``cwd`` (outside the repository: nothing imports from the checkout by
    accident)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(path), *filter(None, [os.environ.get("PYTHONPATH")])])}
    argv = [sys.executable, *(("-c", code) if code else ()), *args]
    return subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout)


# ------------------------------------------------------------------ a foreign `agents` package
@pytest.fixture
def shadowing_agents(tmp_path: Path) -> Path:
    """A folder holding a top-level ``agents`` package that breaks on import, like another
    distribution's ``agents`` installed beside mjenv (openai-agents, the old ``agents``)."""
    folder = tmp_path / "foreign"
    (folder / "agents").mkdir(parents=True)
    (folder / "agents" / "__init__.py").write_text(
        'raise ImportError("this is somebody else\'s agents package")\n')
    return folder


def test_every_builtin_spec_resolves_beside_a_foreign_agents_package(
        shadowing_agents: Path, tmp_path: Path) -> None:
    specs = ["random", "greedy", "rule", "random seed=3 win_first=True",
             'botzone:"python bot.py"']
    code = textwrap.dedent("""
        import importlib.util, sys
        from mjenv.agent import make_agent
        # the foreign package really is first on the path
        assert importlib.util.find_spec("agents").origin.startswith(sys.argv[1])
        for spec in sys.argv[2:]:
            agent = make_agent(spec)
            print(spec, "->", type(agent).__module__, type(agent).__name__)
        assert "agents" not in sys.modules
    """)
    try:
        import torch  # noqa: F401

        from mjenv_agents.policy import PolicyConfig, PolicyNet, save_checkpoint
    except ImportError:  # only the policy needs torch; the other specs are still checked
        pass
    else:
        checkpoint = tmp_path / "net.pt"
        save_checkpoint(checkpoint, PolicyNet(PolicyConfig(channels=8, blocks=1)))
        specs.append(f"policy:{checkpoint}")
    done = run_python(code, shadowing_agents, tmp_path, str(shadowing_agents), *specs)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == len(specs)
    assert all(" -> mjenv_agents." in line or " -> mjenv.botzone." in line for line in lines)


def test_the_training_stack_loads_beside_a_foreign_agents_package(
        shadowing_agents: Path, tmp_path: Path) -> None:
    code = textwrap.dedent("""
        from mjenv import plugins
        print(sorted(plugins.builtin_configs()))
        print(plugins.resolve_config("smoke").name)
    """)
    done = run_python(code, shadowing_agents, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["['bc_smoke', 'demo', 'long', 'smoke', 'strong']",
                                        "smoke.toml"]


# ------------------------------------------------------------------ a third-party agent
THIRD_PARTY_AGENT = '''
"""An agent from another distribution: always the first legal action."""
import numpy as np


class FirstLegal:
    def __init__(self, prefer_win=True):
        self.prefer_win = prefer_win

    def reset(self, seat, seed=None):
        pass

    def act(self, observation, action_mask):
        if self.prefer_win and action_mask[1]:
            return 1
        return int(np.flatnonzero(action_mask)[0])
'''


@pytest.fixture
def third_party(tmp_path: Path) -> Path:
    """An installed-looking distribution ``thirdparty 0.1`` that registers the agent name
    ``firstlegal`` in the ``mjenv.agents`` group."""
    site = tmp_path / "site"
    info = site / "thirdparty-0.1.dist-info"
    info.mkdir(parents=True)
    (site / "thirdparty_bot.py").write_text(THIRD_PARTY_AGENT)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: thirdparty\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(
        "[mjenv.agents]\nfirstlegal = thirdparty_bot:FirstLegal\n")
    return site


def test_a_third_party_agent_plays_in_the_arena(third_party: Path, tmp_path: Path) -> None:
    out = tmp_path / "arena"
    done = run_python("", third_party, tmp_path, "-m", "mjenv", "arena", "--agents",
                      "firstlegal prefer_win=False", "random", "--deals", "2", "--out", str(out),
                      "--no-progress", timeout=300)
    assert done.returncode == 0, done.stderr
    assert "firstlegal" in done.stdout
    assert (out / "results.json").is_file()


def test_an_unknown_name_lists_the_registered_ones(third_party: Path, tmp_path: Path) -> None:
    code = textwrap.dedent("""
        from mjenv.agent import make_agent
        try:
            make_agent("nosuchbot")
        except ValueError as exc:
            print(exc)
    """)
    done = run_python(code, third_party, tmp_path)
    assert done.returncode == 0, done.stderr
    message = done.stdout.strip()
    assert "\n" not in message
    for name in ("firstlegal", "greedy", "policy", "random", "rule", "botzone"):
        assert name in message


# ------------------------------------------------------------------ the loader itself
def test_a_missing_training_stack_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(plugins, "_group", lambda group: {})
    with pytest.raises(plugins.PluginError) as info:
        plugins.train_main()
    message = str(info.value)
    assert "\n" not in message and "mjenv[train]" in message


def test_a_training_stack_that_cannot_import_is_one_line(monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    from importlib.metadata import EntryPoint

    broken = EntryPoint("main", "no_such_training_pkg.pipeline:main", plugins.TRAIN_GROUP)
    monkeypatch.setattr(plugins, "_group", lambda group: {"main": broken})
    with pytest.raises(plugins.PluginError) as info:
        plugins.train_main()
    message = str(info.value)
    assert "\n" not in message
    assert "no_such_training_pkg" in message and "mjenv[train]" in message


def test_the_installed_metadata_declares_what_pyproject_does() -> None:
    """The editable install is current: the entry points read at run time are pyproject's."""
    import tomllib

    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["entry-points"]
    agents = plugins.agent_entry_points()  # other installed distributions may add names
    assert {name: agents.get(name) for name in declared[plugins.AGENT_GROUP]} == \
        declared[plugins.AGENT_GROUP]
    train = {name: f"{p.module}:{p.attr}"
             for name, p in plugins._group(plugins.TRAIN_GROUP).items()}
    assert {name: train.get(name) for name in declared[plugins.TRAIN_GROUP]} == \
        declared[plugins.TRAIN_GROUP]


def test_the_pipeline_entry_point_is_the_pipeline() -> None:
    pytest.importorskip("torch")
    from mjenv_agents.train import pipeline

    assert plugins.train_main() is pipeline.main

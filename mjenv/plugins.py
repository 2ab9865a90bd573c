"""What installed distributions plug into mjenv, found through their entry points.

The core never names the package that holds the baselines or the training stack (a package
name is a deployment detail; the wheel installs them as ``mjenv_agents``, another distribution
may bring its own). It asks the installed distributions' metadata instead
(:func:`importlib.metadata.entry_points`), for two groups:

``mjenv.agents``
    agent spec names (:mod:`mjenv.agent`): ``greedy = "mjenv_agents.greedy:GreedyShantenAgent"``
    makes the spec ``greedy`` build that class. mjenv registers ``random``, ``greedy``,
    ``rule``, ``policy``, ``pretrained`` and ``botzone``; any distribution adds names in its own
    ``pyproject.toml``::

        [project.entry-points."mjenv.agents"]
        mybot = "mypkg.agent:MyAgent"

``mjenv.train``
    the training stack behind ``mjenv train`` and ``mjenv configs``: ``main`` (the pipeline's
    command line), ``builtin_configs`` and ``resolve_config`` (:func:`train_main`,
    :func:`builtin_configs`, :func:`resolve_config` here load them).

Reading the metadata of every installed distribution takes tens of milliseconds, so each group
is read once per process (:func:`clear_cache` forgets it). Nothing is imported until a name is
used: listing the agents costs no torch.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from typing import Any, cast

AGENT_GROUP = "mjenv.agents"
TRAIN_GROUP = "mjenv.train"
TRAIN_HINT = "pip install 'mjenv[train]'"


class PluginError(ValueError):
    """A plugin is missing or cannot be loaded; the message is one line that says what to do."""


@functools.cache
def _group(group: str) -> dict[str, EntryPoint]:
    found: dict[str, EntryPoint] = {}
    for point in entry_points(group=group):
        found.setdefault(point.name, point)  # two with one name: the first on sys.path, as import
    return found


def clear_cache() -> None:
    """Forget what was found (after installing a distribution in a running process)."""
    _group.cache_clear()


def agent_entry_points() -> dict[str, str]:
    """Registered agent spec names -> ``"module:attr"``, sorted by name; nothing is imported."""
    return {name: f"{point.module}:{point.attr}" if point.attr else point.module
            for name, point in sorted(_group(AGENT_GROUP).items())}


def load_training(name: str) -> Any:
    """The ``mjenv.train`` entry point ``name``, loaded; a one-line :class:`PluginError` when
    no training stack is installed or its imports fail (torch missing)."""
    point = _group(TRAIN_GROUP).get(name)
    if point is None:
        raise PluginError(f"no training stack is installed (no {TRAIN_GROUP!r} entry point "
                          f"{name!r}): {TRAIN_HINT}")
    try:
        return point.load()
    except ImportError as exc:
        raise PluginError(f"training needs the train extra ({exc}): {TRAIN_HINT}") from None


def train_main() -> Callable[[Sequence[str] | None], int]:
    """The training pipeline's command line: ``train_main()(words)`` runs ``mjenv train WORDS``
    and returns the exit status. PluginError without the train extra."""
    return cast("Callable[[Sequence[str] | None], int]", load_training("main"))


def builtin_configs() -> dict[str, str]:
    """The built-in training configs: name -> one-line description (no torch needed)."""
    found: dict[str, str] = load_training("builtin_configs")()
    return found


def resolve_config(name_or_path: str | Path) -> Path:
    """The config file ``--config NAME_OR_PATH`` means: an existing file, else a built-in
    config's name; ValueError (one line, naming the built-ins) when it is neither."""
    path: Path = load_training("resolve_config")(name_or_path)
    return path


__all__ = ["AGENT_GROUP", "TRAIN_GROUP", "PluginError", "agent_entry_points", "builtin_configs",
           "clear_cache", "load_training", "resolve_config", "train_main"]

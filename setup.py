"""Build hook: compile the hot modules with mypyc when possible.

mypyc (part of mypy, our type checker) turns these strictly typed modules into C extensions;
the Python sources stay the single source of truth. The fan calculator and the win/wait
detection were first, about twice as fast. The engine (its step and the legality rules), the
seat views, the events and the default encoder followed (issue 15): a random-play decision of
``raw_env`` with its observation took 20 µs instead of 30 µs with only the calculator compiled,
and 35 µs as plain Python (scripts/bench_env.py --pure). The batch's game slots and shards
(mjenv.vector) are compiled too: their per-game loop runs once per decision. The
``mjenv-v1+shanten`` planes followed: with :func:`mjenv.shanten.discard_outcomes` they cost
about 30 µs a decision compiled (250 µs before; about 80 µs as plain Python). The ``rule``
baseline and the observation reader of the baselines followed (``COMPILED_AGENT_MODULES``). Set
MJENV_PURE_PYTHON=1, or lack a C compiler, and the package installs as plain Python.

``--ignore-missing-imports`` (with the other ``BUILD_FLAGS``): mypyc type-checks every module the
compiled ones import, numpy and gymnasium included, and an isolated build (``pip wheel .``, or a
fresh venv where numpy is not installed yet) has neither. The compiled code treats their objects
as plain Python objects either way, so their types are not needed, and without the flags such a
build would silently compile nothing.
"""

import os
import shutil
import sys
from pathlib import Path

from setuptools import Extension, setup

COMPILED_MODULES = [
    "mjenv/decompose.py",
    "mjenv/shanten.py",
    "mjenv/fans/calculator.py",
    "mjenv/fans/combinations.py",
    "mjenv/fans/hand.py",
    "mjenv/fans/result.py",
    "mjenv/engine/events.py",
    "mjenv/engine/game.py",
    "mjenv/engine/legal.py",
    "mjenv/engine/seat_view.py",
    "mjenv/engine/wall.py",
    "mjenv/encoders/default.py",
    "mjenv/encoders/shanten_planes.py",
    "mjenv/encoders/shanten_encoder.py",
    "mjenv/vector/slot.py",
    "mjenv/vector/shard.py",
]

COMPILED_AGENT_MODULES = [
    "agents/observation.py",
    "agents/rule_based.py",
]
"""The baselines' hot modules: the ``rule`` player and the observation reader the baselines
share. PPO's rollouts, the arena and every evaluation play ``rule`` by the thousand (issue 15: it
took most of a rollout's time); compiled, a decision costs 1.1-1.5x less (scripts/bench_agents.py).
``greedy`` is not compiled: it spends its time in the compiled shanten functions already, and
compiling it measured no gain. They live in agents/ but install as ``mjenv_agents``,
and mypyc names a module after its path, so they are compiled through a link named
``mjenv_agents`` (:func:`agent_sources`)."""

AGENT_LINK = Path("build") / "mypyc-src" / "mjenv_agents"


def agent_sources() -> list[str]:
    """The paths of ``COMPILED_AGENT_MODULES`` under ``AGENT_LINK``, a link to agents/ (a copy
    where links cannot be made), so that mypyc compiles them as ``mjenv_agents.*``."""
    agents = Path("agents").resolve()
    if AGENT_LINK.is_symlink() or AGENT_LINK.is_file():
        AGENT_LINK.unlink()
    elif AGENT_LINK.is_dir():
        shutil.rmtree(AGENT_LINK)
    AGENT_LINK.parent.mkdir(parents=True, exist_ok=True)
    try:
        AGENT_LINK.symlink_to(agents, target_is_directory=True)
    except OSError:
        shutil.copytree(agents, AGENT_LINK)
    return [str(AGENT_LINK / Path(m).name) for m in COMPILED_AGENT_MODULES]


BUILD_FLAGS = ["--ignore-missing-imports", "--allow-subclassing-any", "--no-warn-return-any",
               "--no-warn-unused-ignores"]
"""mypy options for the build's own type check (``make lint`` stays strict). Without numpy and
gymnasium installed their types are Any, and strict mode would then refuse what is fine with
them installed (a class of gymnasium's subclassed, an ndarray's value returned as an int,
ignores that became unused), and the build would quietly fall back to plain Python;
tests/test_packaging.py checks these modules with a Python that has neither."""

C_EXTENSIONS = [Extension("mjenv._prefetch", ["mjenv/_prefetch.c"], optional=True),
                Extension("mjenv._rows", ["mjenv/_rows.c"], optional=True)]
"""The batch's two helpers in plain C, not mypyc modules: its prefetch (mjenv.vector.prefetch)
and its float32 rows written in one pass (mjenv.vector.scaling). Optional like the mypyc
modules: without them a batch plays the same games with the same observations, a large batch
more slowly."""

ext_modules: list[Extension] = []
if os.environ.get("MJENV_PURE_PYTHON", "") not in ("1", "true", "yes"):
    ext_modules += C_EXTENSIONS
    try:
        from mypyc.build import mypycify

        compiled = mypycify([*BUILD_FLAGS, *COMPILED_MODULES, *agent_sources()],
                            opt_level="3")
        for extension in compiled:
            extension.optional = True  # a failed C build leaves the plain Python modules
    except (Exception, SystemExit) as err:  # no mypyc, or its type check failed (it exits):
        # plain Python is complete, just slower
        print(f"mjenv: not compiling with mypyc ({err!r}); installing pure Python",
              file=sys.stderr)
    else:
        ext_modules += compiled

setup(ext_modules=ext_modules)

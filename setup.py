"""Build hook: compile the hot modules with mypyc when possible.

mypyc (part of mypy, our type checker) turns these strictly typed modules into C extensions;
the Python sources stay the single source of truth. The fan calculator and the win/wait
detection were first, about twice as fast. The engine (its step and the legality rules), the
seat views, the events and the default encoder followed (issue 15): a random-play decision of
``raw_env`` with its observation took 20 µs instead of 30 µs with only the calculator compiled,
and 35 µs as plain Python (scripts/bench_env.py --pure). The batch's game slots and shards
(mjenv.vector) are compiled too: their per-game loop runs once per decision. The
``mjenv-v1+shanten`` planes followed: with :func:`mjenv.shanten.discard_outcomes` they cost
about 30 µs a decision compiled (250 µs before; about 80 µs as plain Python). Set
MJENV_PURE_PYTHON=1, or lack a C compiler, and the package installs as plain Python.

``--ignore-missing-imports`` (with the other ``BUILD_FLAGS``): mypyc type-checks every module the
compiled ones import, numpy and gymnasium included, and an isolated build (``pip wheel .``, or a
fresh venv where numpy is not installed yet) has neither. The compiled code treats their objects
as plain Python objects either way, so their types are not needed, and without the flags such a
build would silently compile nothing.
"""

import os
import sys

from setuptools import setup

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
    "mjenv/encoders/default.py",
    "mjenv/encoders/shanten_planes.py",
    "mjenv/vector/slot.py",
    "mjenv/vector/shard.py",
]

BUILD_FLAGS = ["--ignore-missing-imports", "--allow-subclassing-any", "--no-warn-return-any",
               "--no-warn-unused-ignores"]
"""mypy options for the build's own type check (``make lint`` stays strict). Without numpy and
gymnasium installed their types are Any, and strict mode would then refuse what is fine with
them installed (a class of gymnasium's subclassed, an ndarray's value returned as an int,
ignores that became unused), and the build would quietly fall back to plain Python;
tests/test_packaging.py checks these modules with a Python that has neither."""

ext_modules = []
if os.environ.get("MJENV_PURE_PYTHON", "") not in ("1", "true", "yes"):
    try:
        from mypyc.build import mypycify

        ext_modules = mypycify([*BUILD_FLAGS, *COMPILED_MODULES], opt_level="3")
        for extension in ext_modules:
            extension.optional = True  # a failed C build leaves the plain Python modules
    except (Exception, SystemExit) as err:  # no mypyc, or its type check failed (it exits):
        # plain Python is complete, just slower
        print(f"mjenv: not compiling with mypyc ({err!r}); installing pure Python",
              file=sys.stderr)

setup(ext_modules=ext_modules)

"""Build hook: compile the fan calculator's hot modules with mypyc when possible.

mypyc (part of mypy, our type checker) turns these strictly typed modules into C extensions,
about twice as fast; the Python sources stay the single source of truth. Set
MJENV_PURE_PYTHON=1, or lack a C compiler, and the package installs as plain Python.
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
]

ext_modules = []
if os.environ.get("MJENV_PURE_PYTHON", "") not in ("1", "true", "yes"):
    try:
        from mypyc.build import mypycify

        # --ignore-missing-imports: mypyc type-checks every module the compiled ones import
        # (mjenv's package facade registers with gymnasium), and a first install builds before
        # the dependencies are installed: without it, such a build silently compiled nothing
        ext_modules = mypycify(["--ignore-missing-imports", *COMPILED_MODULES], opt_level="3")
        for extension in ext_modules:
            extension.optional = True  # a failed C build leaves the plain Python modules
    except (Exception, SystemExit) as err:  # no mypyc, or its type check failed (it exits):
        # plain Python is complete, just slower
        print(f"mjenv: not compiling with mypyc ({err!r}); installing pure Python",
              file=sys.stderr)

setup(ext_modules=ext_modules)

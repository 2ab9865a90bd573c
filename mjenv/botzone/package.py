"""A zip for a Botzone upload: ``mjenv botzone-bot --agent SPEC --zip bot.zip``.

Botzone runs a Python bot uploaded as a zip by executing the zip, whose root must hold a
``__main__.py``. The zip holds the Python sources of ``mjenv`` and of the top-level package
that defines the agent (``mjenv_agents`` for the baselines, a third-party package for its own
agent; plain Python: the compiled modules are a build of this machine and are left out, so the
bot runs on any Python 3.11+ with numpy — and torch for a policy — plus the one-file
``mypy_extensions`` that the engine's events and the baselines import), and a generated
``__main__.py`` that runs the bot with the agent spec fixed at build time.

The spec is written into the zip resolved, as ``package.module:Class key=value ...``: Botzone
installs nothing, so the zip has no distribution metadata and no entry points to look a short
name up in. The package to pack is read off that resolved import path, never named here. An
agent whose ``NAME:ARG`` argument is a ``path`` (``policy:PATH``) reads that file: it goes into
the zip as ``data/<file name>`` and is unpacked to a temporary folder when the bot starts. So
does the checkpoint of an agent that ships one in its package (``pretrained``: its factory's
``packaged_checkpoint()`` names the file; the zip's spec gives the unpacked copy as ``path``).
"""

from __future__ import annotations

import importlib
import zipfile
from pathlib import Path
from typing import Any

from mjenv.agent import load_factory, parse_spec, spec_argument

_MAIN = '''"""Botzone entry point, written by `mjenv botzone-bot --zip`."""
import os
import sys
import tempfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)
SPEC = {spec!r}
CHECKPOINT = {checkpoint!r}
if CHECKPOINT is not None:
    if os.path.isfile(os.path.join(HERE, CHECKPOINT)):  # unpacked
        path = os.path.join(HERE, CHECKPOINT)
    else:  # run as a zip: HERE is the archive
        with zipfile.ZipFile(HERE) as archive:
            path = archive.extract(CHECKPOINT, tempfile.mkdtemp())
    SPEC = SPEC.replace("{{checkpoint}}", repr(path)[1:-1])  # inside a quoted literal

from mjenv.procs import one_thread_env  # noqa: E402

one_thread_env()  # before numpy loads: BLAS would start a thread per core, at every start
from mjenv.botzone.bot import run_spec  # noqa: E402

sys.exit(run_spec(SPEC, keep_running={keep_running!r}, encoder={encoder!r}))
'''


def _sources(package: str) -> list[tuple[Path, str]]:
    """The ``.py`` files of the top-level package (or module) ``package``, with their names in
    the zip."""
    module = importlib.import_module(package)
    if module.__file__ is None:
        raise ValueError(f"cannot find the sources of {package!r}")
    where = Path(module.__file__).resolve()
    if where.name != "__init__.py":  # a single-file module
        return [(where, f"{package}.py")]
    root = where.parent
    return [(p, f"{package}/{p.relative_to(root).as_posix()}")
            for p in sorted(root.rglob("*.py")) if "__pycache__" not in p.parts]


def resolved_spec(path: str, options: dict[str, Any]) -> str:
    """The spec text of an import path and options (``pkg.mod:Class key=value ...``); parsed
    again it gives the same path and options (ValueError for a value that does not)."""
    spec = " ".join([path, *(f"{key}={value!r}" for key, value in options.items())])
    if parse_spec(spec) != (path, options):
        raise ValueError(f"the options {options!r} cannot be written into a spec")
    return spec


def write_zip(spec: str, out: str | Path, *, keep_running: bool = True,
              encoder: str = "mjenv-v1") -> str:
    """Write the upload zip for ``spec``; returns a one-line summary. ValueError for a bad
    spec or a missing checkpoint."""
    path, options = parse_spec(spec)
    factory = load_factory(spec, path)  # the agent must at least import here
    top = path.partition(":")[0].split(".")[0]
    files = _sources("mjenv") + ([] if top == "mjenv" else _sources(top))
    files += _sources("mypy_extensions")  # a dependency (mypyc_attr), one file
    checkpoint: str | None = None
    packaged = getattr(factory, "packaged_checkpoint", None)  # an agent that ships its own
    source: Path | None = None
    if "path" in options and (spec_argument(factory) == "path" or callable(packaged)):
        source = Path(str(options["path"]))
    elif callable(packaged):
        source = Path(packaged())  # ValueError when the package lacks it
    if source is not None:
        if not source.is_file():
            raise ValueError(f"agent spec {spec!r}: no checkpoint at {str(source)!r}")
        checkpoint = f"data/{source.name}"
        options = {**options, "path": "{checkpoint}"}
        files.append((source, checkpoint))
    fixed = resolved_spec(path, options)
    main = _MAIN.format(spec=fixed, checkpoint=checkpoint,
                        keep_running=keep_running, encoder=encoder)
    out = Path(out)
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("__main__.py", main)
        for src, name in files:
            archive.write(src, name)
    return f"wrote {out} ({out.stat().st_size // 1024} KiB, {len(files) + 1} files): {fixed}"

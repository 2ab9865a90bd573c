"""A zip for a Botzone upload: ``mjenv botzone-bot --agent SPEC --zip bot.zip``.

Botzone runs a Python bot uploaded as a zip by executing the zip, whose root must hold a
``__main__.py``. The zip holds the Python sources of ``mjenv`` and ``agents`` (plain Python: the
compiled calculator is a build of this machine and is left out, so the bot runs on any Python
3.11+ with numpy — and torch for a policy), and a generated ``__main__.py`` that runs the bot
with the agent spec fixed at build time. A ``policy:PATH`` checkpoint goes into the zip as
``data/<file name>`` and is unpacked to a temporary folder when the bot starts.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

from mjenv.agent import parse_spec

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
    SPEC = SPEC.replace("{{checkpoint}}", path)

from mjenv.botzone.bot import run_spec  # noqa: E402

sys.exit(run_spec(SPEC, keep_running={keep_running!r}, encoder={encoder!r}))
'''


def _sources(package: str) -> list[tuple[Path, str]]:
    module = __import__(package)
    if module.__file__ is None:
        raise ValueError(f"cannot find the sources of {package!r}")
    root = Path(module.__file__).resolve().parent
    return [(p, f"{package}/{p.relative_to(root).as_posix()}")
            for p in sorted(root.rglob("*.py")) if "__pycache__" not in p.parts]


def write_zip(spec: str, out: str | Path, *, keep_running: bool = True,
              encoder: str = "mjenv-v1") -> str:
    """Write the upload zip for ``spec``; returns a one-line summary. ValueError for a bad
    spec or a missing checkpoint."""
    path, options = parse_spec(spec)
    checkpoint: str | None = None
    files = [*_sources("mjenv"), *_sources("agents")]
    if "path" in options and path == "agents.policy:PolicyAgent":
        source = Path(str(options["path"]))
        if not source.is_file():
            raise ValueError(f"agent spec {spec!r}: no checkpoint at {str(source)!r}")
        checkpoint = f"data/{source.name}"
        spec = spec.replace(str(options["path"]), "{checkpoint}", 1)
        files.append((source, checkpoint))
    main = _MAIN.format(spec=spec, checkpoint=checkpoint,
                        keep_running=keep_running, encoder=encoder)
    out = Path(out)
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("__main__.py", main)
        for src, name in files:
            archive.write(src, name)
    return f"wrote {out} ({out.stat().st_size // 1024} KiB, {len(files) + 1} files): {spec}"

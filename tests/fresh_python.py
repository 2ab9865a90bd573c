"""Run a script in a fresh interpreter and read back the JSON it prints (the pure-Python tests
compare what the plain sources and the compiled install do, each in a process of its own)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any


def run_json(script: str, args: list[str], pythonpath: Path | None, cwd: Path) -> dict[str, Any]:
    """``python -c script args...`` in ``cwd`` with ``PYTHONPATH`` set to ``pythonpath`` only
    (or unset); the dict its last line of output holds. Fails with its standard error."""
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    done = subprocess.run([sys.executable, "-c", script, *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result

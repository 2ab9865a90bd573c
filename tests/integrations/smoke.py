"""Running an example at its CI size, as the integration tests of every library do.

Why: each library's test ran ``python examples/NAME.py --smoke --out OUT`` and checked its exit
status with the same lines; here once, so that the runs stay alike (one interpreter, the last
3,000 characters of stderr on a failure)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_example(script: str, out: Path, timeout: float, cwd: Path = ROOT) -> str:
    """Run ``examples/SCRIPT --smoke --out OUT`` in ``cwd`` with this interpreter; assert that it
    succeeded and return its standard output."""
    proc = subprocess.run([sys.executable, str(ROOT / "examples" / script), "--smoke",
                           "--out", str(out)], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout

"""The Python sources of the compiled modules work on their own.

Installs compile some modules with mypyc when they can (setup.py); a machine without a compiler
runs the same files as plain Python. This test copies the package's ``.py`` files (no compiled
file) to a temporary folder and scores the worked examples there, in a fresh interpreter.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = r"""
import json, sys
import mjenv.fans as fans
from mjenv import decompose
assert fans.calculator.__file__.endswith(".py"), fans.calculator.__file__
assert decompose.__file__.endswith(".py"), decompose.__file__
flags = ("self_drawn", "last_copy", "last_tile", "kong_win", "seat_wind", "prevalent_wind",
         "flowers")
bad = []
for example in json.load(open(sys.argv[1], encoding="utf-8")):
    result = fans.calculate(example["hand"], example["melds"], example["win_tile"],
                            **{k: example[k] for k in flags})
    if result.counts() != example["expect"] or result.total != example["expect_total"]:
        bad.append(example["id"])
try:
    fans.calculate("1112345678999m", (), "J1")
    bad.append("not-win accepted")
except fans.NotWinError:
    pass
print(json.dumps(bad))
"""


def test_pure_python_sources_score_the_worked_examples(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "mjenv", tmp_path / "mjenv",
                    ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(ROOT / "tests/golden/rule_examples.json")],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == []

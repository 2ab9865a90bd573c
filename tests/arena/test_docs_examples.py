"""The Python examples of docs/arena.md run as scripts (they spawn worker processes, so each
runs in a fresh interpreter, as a user's script would) and write the runs they name."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ARENA_MD = Path(__file__).resolve().parents[2] / "docs" / "arena.md"
BLOCKS = re.findall(r"```python\n(.*?)```", ARENA_MD.read_text(encoding="utf-8"), re.S)


@pytest.mark.parametrize("block", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_arena_doc_example_runs(block: str, tmp_path: Path) -> None:
    script = tmp_path / "example.py"
    script.write_text(block, encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    for name in re.findall(r'"(runs/[^"{]+)"', block):  # the run folders it names
        assert (tmp_path / name / "results.json").exists(), name
    for prefix in re.findall(r'f"(runs/[^"{]+)\{', block):
        assert list((tmp_path / "runs").glob(f"{Path(prefix).name}*/results.json")), prefix


def test_the_examples_are_found() -> None:
    assert len(BLOCKS) >= 2

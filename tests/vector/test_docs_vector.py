"""docs/vector.md's examples run as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "vector.md"


def _blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


def test_there_are_examples() -> None:
    assert len(_blocks()) == 6  # the last sets the collector's thresholds: not run here


@pytest.mark.parametrize("index", range(5))
def test_example_runs(index: int, capsys: pytest.CaptureFixture[str]) -> None:
    exec(compile(_blocks()[index], f"{DOC}:example {index}", "exec"), {})
    out = capsys.readouterr().out
    if index == 0:
        assert out.strip() == "(64, 86, 34) True"
    if index == 3:
        assert out.strip() == "(8, 86, 34) MultiDiscrete([235 235 235 235 235 235 235 235])"
    if index == 4:
        from mjenv.vector.workers import pinned_cpus

        cpus = pinned_cpus("auto", 2) or [None, None]  # this machine's default placement
        assert out.strip() == f"(64, 86, 34) 2 {cpus}"

"""scripts/bench_arena.py runs and writes only its own section of the benchmark doc."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest


def test_bench_arena_smoke(load_script: Callable[[str], ModuleType], tmp_path: Path,
                           monkeypatch: pytest.MonkeyPatch,
                           capsys: pytest.CaptureFixture[str]) -> None:
    bench = load_script("bench_arena")
    doc = tmp_path / "benchmarks.md"
    doc.write_text("# Benchmarks\n\nother text\n")
    monkeypatch.setattr(bench, "DOCS", doc)
    for _ in range(2):  # the second run replaces the section
        assert bench.main(["--deals", "1", "--workers", "1", "--agents", "random",
                           "--write-docs"]) == 0
    text = doc.read_text()
    assert text.startswith("# Benchmarks\n\nother text\n")
    assert text.count(bench.BEGIN) == 1 and text.count(bench.END) == 1
    assert "| `random` |" in text
    assert "hands/s" in capsys.readouterr().out

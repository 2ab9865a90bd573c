"""scripts/bench_agents.py times both builds of the baselines and writes only its own section."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest


def test_bench_agents_smoke(load_script: Callable[[str], ModuleType], tmp_path: Path,
                            monkeypatch: pytest.MonkeyPatch,
                            capsys: pytest.CaptureFixture[str]) -> None:
    bench = load_script("bench_agents")
    doc = tmp_path / "benchmarks.md"
    doc.write_text("# Benchmarks\n\nother text\n")
    monkeypatch.setattr(bench, "DOCS", doc)
    for _ in range(2):  # the second run replaces the section
        assert bench.main(["--hands", "1", "--rounds", "1", "--write-docs"]) == 0
    text = doc.read_text()
    assert text.startswith("# Benchmarks\n\nother text\n")
    assert text.count(bench.BEGIN) == 1 and text.count(bench.END) == 1
    for name in bench.AGENTS:
        assert f"| `{name}` |" in text
    assert "plain Python" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        bench.main(["--hands", "0"])

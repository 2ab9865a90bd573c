"""scripts/bench_vector.py runs end to end on a tiny sample and rewrites only its own section
of a copy of docs/benchmarks.md."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest


@pytest.fixture(scope="module")
def bench(load_script: Callable[[str], ModuleType]) -> ModuleType:
    return load_script("bench_vector")


def test_a_tiny_run_writes_only_its_section(bench: ModuleType, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "benchmarks.md"
    shutil.copy(bench.DOCS, report)
    text = report.read_text(encoding="utf-8")
    outside = text.split(bench.BEGIN)[0] + text.split(bench.END)[1] if bench.BEGIN in text \
        else text
    args = ["--quick", "--decisions", "20", "--runs", "1", "--warmup", "1",
            "--write-docs", str(report)]
    for _ in range(2):  # the second write replaces the first
        assert bench.main(args) == 0
    out = capsys.readouterr().out
    assert "`VectorMahjongEnv` | 64 | 2 | `mjenv-v1+shanten`" in out
    assert "Heap / game" in out
    new = report.read_text(encoding="utf-8")
    assert new.count(bench.BEGIN) == 1 and new.count(bench.END) == 1
    assert new.split(bench.BEGIN)[0] + new.split(bench.END)[1] in (outside,
                                                                   outside.rstrip("\n") + "\n\n")
    assert "python scripts/bench_vector.py --quick" in new

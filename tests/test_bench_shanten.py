"""scripts/bench_shanten.py runs end to end on a small sample (full size: `make acceptance`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("MahjongGB")



@pytest.fixture(scope="module")
def bench(load_script: Callable[[str], ModuleType]) -> ModuleType:
    return load_script("bench_shanten")


def test_bench_shanten_small_run(bench: ModuleType, tmp_path: Path,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "benchmarks-shanten.md"
    args = ["--hands", "200", "--runs", "2", "--seed", "7", "--pure", "--write-docs", str(report)]
    assert bench.main(args) == 0
    out = capsys.readouterr().out
    for title in ("1. Overall shanten", "2. Every shape with its useful tiles"):
        assert title in out
    assert "Smoke run" in out
    assert "Shanten disagreements: 0; useful-tile disagreements: 0" in out
    assert "Build measured: **pure Python**" in out  # the installed build, or --pure's rerun
    text = report.read_text(encoding="utf-8")
    assert "python scripts/bench_shanten.py --hands 200 --runs 2 --seed 7 --pure" in text
    assert "## Method" in text and "| mjenv `shanten`, warm (2nd pass) |" in text

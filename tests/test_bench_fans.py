"""scripts/bench_fans.py runs end to end on a small sample (the full run is `make acceptance`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest


@pytest.fixture(scope="module")
def bench(load_script: Callable[[str], ModuleType]) -> ModuleType:
    return load_script("bench_fans")


def test_bench_fans_small_run(bench: ModuleType, tmp_path: Path,
                              capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "benchmarks.md"
    args = ["--hands", "300", "--runs", "2", "--seed", "7", "--pure", "--write-docs", str(report)]
    assert bench.main(args) == 0
    out = capsys.readouterr().out
    for title in ("1. Fan calculation", "2. Rejecting non-winning hands",
                  "3. Waiting tiles of 13-tile hands"):
        assert title in out
    assert "Smoke run" in out
    assert "differ on 0 hands" in out and "PyMahjongGB rejected 0" in out
    assert "hands not rejected by both: 0" in out
    assert "waiting tiles disagreements: 0" in out
    assert "Build measured: **pure Python**" in out  # the installed build, or --pure's rerun
    text = report.read_text(encoding="utf-8")
    assert "python scripts/bench_fans.py --hands 300 --runs 2 --seed 7 --pure" in text
    assert "## Method" in text and "| mjenv `calculate`, warm (2nd pass) |" in text

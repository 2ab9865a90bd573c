"""scripts/bench_shanten.py runs end to end on a small sample (full size: `make acceptance`)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("MahjongGB")

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_shanten",
                                                  ROOT / "scripts/bench_shanten.py")
    assert spec is not None and spec.loader is not None
    if str(ROOT / "scripts") not in sys.path:  # as when run as a script: finds scripts/benchkit.py
        sys.path.insert(0, str(ROOT / "scripts"))
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


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

"""scripts/bench_engine.py runs end to end on a small sample, rewrites only its own section of
a copy of docs/benchmarks.md, and without RLCard measures ours and refuses to write docs."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

from tests.bench_docs import write_section_twice


@pytest.fixture(scope="module")
def bench(load_script: Callable[[str], ModuleType]) -> ModuleType:
    return load_script("bench_engine")


def test_bench_engine_small_run_writes_only_its_section(
        bench: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("rlcard")
    section = write_section_twice(
        bench, ["--hands", "6", "--rlcard-games", "2", "--runs", "1", "--seed", "3"], tmp_path)
    out = capsys.readouterr().out
    assert "Smoke run" in out
    for system in bench.SYSTEMS.values():
        assert system in out
    assert "| mcr |" in out and "| botzone |" in out
    assert "python scripts/bench_engine.py --hands 6 --rlcard-games 2 --runs 1" in section
    assert "## What is compared" in section


def test_play_mjenv_counts_steps_and_decisions(bench: ModuleType) -> None:
    for rules in bench.PROFILES.values():
        p = bench.play_mjenv(rules, 3, 0)
        assert p["games"] == 3 and 0 < p["decisions"] <= p["steps"] and p["seconds"] > 0


def test_without_rlcard_measures_ours_and_refuses_docs(
        bench: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(bench, "load_rlcard", lambda: None)
    assert bench.main(["--hands", "3", "--runs", "1"]) == 0
    captured = capsys.readouterr()
    assert "RLCard is NOT installed" in captured.err
    assert "mcr profile" in captured.out and "botzone profile" in captured.out
    assert "RLCard `mahjong` env" not in captured.out
    report = tmp_path / "benchmarks.md"
    with pytest.raises(SystemExit) as exc:
        bench.main(["--hands", "3", "--runs", "1", "--write-docs", str(report)])
    assert exc.value.code == 2
    assert "--write-docs needs RLCard" in capsys.readouterr().err
    assert not report.exists()

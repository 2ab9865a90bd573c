"""scripts/bench_env.py runs end to end on a small sample, rewrites only its own section of a
copy of docs/benchmarks.md, reports and skips missing peers, and refuses --write-docs without
RLCard."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

import mjenv
from tests.bench_docs import write_section_twice


@pytest.fixture(scope="module")
def bench(load_script: Callable[[str], ModuleType]) -> ModuleType:
    return load_script("bench_env")


SMALL = ["--hands", "2", "--rlcard-games", "1", "--peer-games", "2", "--runs", "1",
         "--seed", "3"]


def test_bench_env_small_run_writes_only_its_section(
        bench: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("rlcard")
    section = write_section_twice(bench, SMALL, tmp_path)
    out = capsys.readouterr().out
    assert "Smoke run" in out
    for name in ("raw.mcr", "raw.botzone", "env.mcr", "rlcard"):
        assert bench.SYSTEMS[name][0] in out
    assert "| `raw.mcr` | rlcard" in out and "| `raw.botzone` | rlcard" in out
    assert "python scripts/bench_env.py --hands 2 --rlcard-games 1" in section
    assert "## What is compared" in section


def test_play_mjenv_counts_live_decisions(bench: ModuleType) -> None:
    for factory in (mjenv.raw_env, mjenv.env):
        for rules in ("mcr", "botzone"):
            p = bench.play_mjenv(factory, rules, 2, 0)
            assert p["games"] == 2 and p["decisions"] > 2 * 20 and p["seconds"] > 0


def test_missing_peers_are_reported_and_skipped(
        bench: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    real = bench.load_peer
    monkeypatch.setattr(bench, "load_peer",
                        lambda name: None if name != "rlcard" else real(name))
    if real("rlcard") is not None:
        report = tmp_path / "benchmarks.md"
        assert bench.main([*SMALL, "--write-docs", str(report)]) == 0
        captured = capsys.readouterr()
        assert "skipped: pymahjong, riichienv" in captured.err
        assert "Not installed, skipped: pymahjong, riichienv" in report.read_text("utf-8")
        assert "pymahjong `MahjongEnv`" not in captured.out

    # without RLCard: ours only, and no docs
    monkeypatch.setattr(bench, "load_peer", lambda name: None)
    assert bench.main(SMALL) == 0
    captured = capsys.readouterr()
    assert "skipped: rlcard, pymahjong, riichienv" in captured.err
    assert bench.SYSTEMS["raw.mcr"][0] in captured.out
    assert "Ratios" not in captured.out
    report = tmp_path / "none.md"
    with pytest.raises(SystemExit) as exc:
        bench.main([*SMALL, "--write-docs", str(report)])
    assert exc.value.code == 2
    assert "--write-docs needs RLCard" in capsys.readouterr().err
    assert not report.exists()


def test_pure_pass_runs_the_plain_python_copy(
        bench: ModuleType, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(bench, "load_peer", lambda name: None)
    assert bench.main([*SMALL, "--pure"]) == 0
    out = capsys.readouterr().out
    assert bench.SYSTEMS["raw.mcr.pure"][0] in out and bench.SYSTEMS["raw.mcr"][0] in out
    same = bench.play_mjenv(mjenv.raw_env, "mcr", 2, 3)
    assert f"| {same['decisions'] / 2:.1f} |" in out  # the same deals: the same decisions

"""scripts/bench_arena.py --policy-threads: what it runs and how it judges (the timing itself
is the script's run, reported in docs/arena.md)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest


@pytest.mark.parametrize(("seconds", "status"), [((10.0, 9.0), 0), ((12.0, 9.0), 1)])
def test_policy_threads_times_the_readme_command_per_thread_setting(
        load_script: Callable[[str], ModuleType], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], seconds: tuple[float, float], status: int) -> None:
    bench = load_script("bench_arena")
    runs: list[tuple[list[str], dict[str, str]]] = []

    def fake(command: list[str], env: dict[str, str]) -> float:
        runs.append((command, env))
        return seconds[0] if "OMP_NUM_THREADS" not in env else seconds[1]

    monkeypatch.setattr(bench, "time_command", fake)
    monkeypatch.setenv("OMP_NUM_THREADS", "7")  # the caller's own setting is not measured
    assert bench.main(["--policy-threads", "--checkpoint", "model.pt", "--deals", "2",
                       "--rounds", "2"]) == status
    assert len(runs) == 3 * 2
    for command, _ in runs:
        assert command[-8:] == ["--agents", "policy:model.pt", "greedy", "--deals", "2",
                                "--out", command[-2], "--no-progress"]
        assert command[1:4] == ["-m", "mjenv", "arena"] and Path(command[-2]).name
    settings = [env.get("OMP_NUM_THREADS") for _, env in runs[:3]]
    assert settings == [None, "1", str(os.cpu_count() or 1)]
    out = capsys.readouterr().out
    assert f"default / one thread: {seconds[0] / seconds[1]:.2f} (target <= 1.2)" in out

"""scripts/bench_arena_threads.py: what it runs and how it judges (the timing itself is the
script's run, reported in docs/benchmarks.md)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest


@pytest.mark.parametrize(("default", "status"), [(10.5, 0), (12.5, 1)])
def test_each_command_is_timed_per_thread_setting_and_judged(
        load_script: Callable[[str], ModuleType], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], tmp_path: Path, default: float,
        status: int) -> None:
    bench = load_script("bench_arena_threads")
    runs: list[tuple[list[str], str, dict[str, str]]] = []

    def fake(argv: list[str], stdin: str, env: dict[str, str]) -> float:
        runs.append((argv, stdin, env))
        return {None: default, "1": 10.0}.get(env.get("OMP_NUM_THREADS"), 30.0)

    monkeypatch.setattr(bench, "time_run", fake)
    monkeypatch.setattr(bench, "bot_requests", lambda spec: ['{"requests": ["0 0 0"]}'])
    monkeypatch.setenv("OMP_NUM_THREADS", "7")  # the caller's own setting is not measured
    model = tmp_path / "model.pt"
    assert bench.main(["--checkpoint", str(model), "--deals", "2", "--rounds", "2"]) == status
    assert len(runs) == 2 * 3 * 3
    commands = {argv[3]: (argv, stdin) for argv, stdin, _ in runs}
    arena, _ = commands["arena"]
    assert arena[4:8] == ["--agents", f"policy:{model}", "greedy", "--deals"]
    play, play_input = commands["play"]
    assert play[4:6] == ["--opponents", f"policy:{model}"] and play_input.startswith("1\ny\n")
    bot, bot_input = commands["botzone-bot"]
    assert bot[4:] == ["--agent", f"policy:{model}", "--keep-running"] and "0 0 0" in bot_input
    cores = str(os.cpu_count() or 1)
    assert {env.get("OMP_NUM_THREADS") for _, _, env in runs} == {None, "1", cores}
    out = capsys.readouterr().out
    assert f"| arena | {default:.2f} s | 10.00 s | 30.00 s | {default / 10:.2f} |" in out

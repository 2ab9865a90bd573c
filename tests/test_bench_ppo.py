"""scripts/bench_ppo.py: the flat PPO config it derives from configs/long.toml, the end-to-end
rate it reads from a run's log, and its option checks (the timed runs themselves take minutes:
docs/benchmarks.md)."""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest


@pytest.fixture(scope="module")
def bench(load_script: Callable[[str], ModuleType]) -> ModuleType:
    return load_script("bench_ppo")


def test_the_config_is_long_tomls_ppo_table(bench: ModuleType, tmp_path: Path) -> None:
    long = tomllib.loads((Path(bench.ROOT) / "configs" / "long.toml").read_text())["ppo"]
    mine = tomllib.loads(bench.ppo_config(tmp_path / "init.pt", 5))
    assert mine["updates"] == 5 and mine["init"] == str(tmp_path / "init.pt")
    assert mine["eval_interval"] == 0 and mine["eval_deals"] == 1
    for key in ("games", "decisions_per_update", "opponents", "opponent_weights",
                "learning_rate", "epochs", "minibatch_size"):
        assert mine[key] == long[key], key


def test_the_full_stage_is_long_tomls_table_unchanged(bench: ModuleType, tmp_path: Path) -> None:
    long = tomllib.loads((Path(bench.ROOT) / "configs" / "long.toml").read_text())["ppo"]
    text = bench.ppo_config(tmp_path / "init.pt", None)
    mine = tomllib.loads(text)
    assert mine.pop("init") == str(tmp_path / "init.pt")
    assert mine.pop("seed") == 1 and mine.pop("threads") == 1
    assert mine == long
    assert bench.setting(text, "updates") == long["updates"]
    assert bench.setting(text, "decisions_per_update") == long["decisions_per_update"]
    with pytest.raises(ValueError, match="no missing"):
        bench.setting(text, "missing")


def test_the_rate_spans_first_to_last_update(bench: ModuleType, tmp_path: Path) -> None:
    metrics = tmp_path / "metrics.csv"
    metrics.write_text("step,time\n1,100.0\n2,104.0\n3,108.0\n")
    assert bench.rate(metrics, 4096) == pytest.approx(4096 * 2 / 8.0)


def test_bad_options_are_refused(bench: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        bench.main(["--updates", "1"])
    assert "at least 2" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        bench.main(["--set", "update_threads"])
    assert "KEY=VALUE" in capsys.readouterr().err

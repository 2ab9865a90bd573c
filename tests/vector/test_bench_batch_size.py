"""scripts/bench_batch_size.py runs end to end on a tiny sample, rewrites only its own section of
a copy of docs/benchmarks.md and draws its plot beside that copy; its ratios and findings read
the rounds the right way round."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

from tests.bench_docs import write_section_twice


@pytest.fixture(scope="module")
def bench(load_script: Callable[[str], ModuleType]) -> ModuleType:
    return load_script("bench_batch_size")


def test_a_tiny_run_writes_only_its_section_and_the_plot(
        bench: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--sizes", "2,1", "--decisions", "10", "--runs", "1", "--warmup", "1",
            "--min-steps", "2", "--peer-games", "0"]
    section = write_section_twice(bench, args, tmp_path)
    out = capsys.readouterr().out
    assert "| 1 | " in out and "| 2 | " in out  # sizes sorted
    assert "`mjenv-v1` at N = 2 / at N = 1:" in out
    assert "python scripts/bench_batch_size.py --sizes 2,1" in section
    assert "![µs a decision by batch size](img/batch_size.png)" in section
    image = tmp_path / "img" / "batch_size.png"
    assert image.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_ratios_are_rates_taken_round_by_round(bench: ModuleType) -> None:
    us = {"riichienv": [20.0, 20.0, 20.0],  # µs a decision
          "f32.1": [10.0, 40.0, 20.0],  # rates over the reference: 2.0, 0.5, 1.0
          "f32.8": [40.0, 40.0, 25.0],  # 0.5, 0.5, 0.8
          "riichienv.8": [25.0, 25.0, 25.0], "u8.1": [1.0] * 3, "u8.8": [1.0] * 3}
    table, findings = bench.render([1, 8], us, 1024.0 * 1024, 4 * 1024 * 1024)
    rows = table.splitlines()
    assert rows[2].split(" | ")[-3:] == ["1.00", "—", "1.0 MB |"]
    assert rows[3].split(" | ")[-3:] == ["0.50", "0.62", "8.0 MB |"]
    assert "one core: N = 1 of 1, 8." in findings[1]
    assert findings[2].endswith("its one table: 0.80.")
    assert "at N = 8 / at N = 1: 0.80" in findings[3]  # the median of 10/40, 40/40, 20/25
    assert findings[-1].endswith("fits in it up to N = 1 of these sizes.")


@pytest.mark.parametrize("text", ["", "0,4", "a,b"])
def test_bad_sizes_are_refused_in_one_line(bench: ModuleType, text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match="--sizes"):
        bench.parse_sizes(text)

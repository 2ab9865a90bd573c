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
    args = ["--quick", "--decisions", "20", "--runs", "1", "--warmup", "1", "--min-steps", "2",
            "--peer-games", "0", "--write-docs", str(report)]
    for _ in range(2):  # the second write replaces the first
        assert bench.main(args) == 0
    out = capsys.readouterr().out
    assert "`VectorMahjongEnv` | 64 | 2 | `mjenv-v1+shanten`" in out
    assert "`VectorMahjongEnv`, no observation written | 64 | 0 | `bench-null`" in out
    assert "where a decision's time goes (no target), one core, N = 64:" in out
    from mjenv.encoders import ENCODERS

    assert bench.NULL not in ENCODERS
    assert "Heap / game" in out
    new = report.read_text(encoding="utf-8")
    assert new.count(bench.BEGIN) == 1 and new.count(bench.END) == 1
    assert new.split(bench.BEGIN)[0] + new.split(bench.END)[1] in (outside,
                                                                   outside.rstrip("\n") + "\n\n")
    assert "python scripts/bench_vector.py --quick" in new
    assert "at least 2 timed steps" in new
    assert 'The default placement (`pin_workers="auto"`)' in new


def test_the_acceptance_lines_take_medians_of_round_ratios(bench: ModuleType) -> None:
    rates = {"riichienv": [100.0, 100.0, 100.0],
             "vec.mjenv-v1.1024.0": [90.0, 120.0, 110.0],  # ratios 0.9, 1.2, 1.1
             "vec.mjenv-v1+shanten.1024.0": [40.0, 45.0, 60.0],
             "vec.mjenv-v1.1024.2": [150.0, 240.0, 100.0]}  # over one core: 1.67, 2.0, 0.91
    lines = bench.acceptance(rates)
    assert lines[0].endswith("1.10, target 1.0: met")
    assert lines[1].endswith("0.45, target 0.5: NOT met")
    assert lines[2].endswith("1.67, target 1.6: met")
    assert lines[3].endswith("left to the scheduler (`pin_workers=False`) / one core, "
                             "N = 1,024, `mjenv-v1`: not measured in this run")
    rates["vec.mjenv-v1.1024.2f"] = [180.0, 240.0, 110.0]  # 2.0, 2.0, 1.0
    assert bench.acceptance(rates)[3].endswith("2.00, target 1.6: met")
    assert "not measured" in bench.acceptance({"riichienv": [1.0]})[0]
    rates["riichienv.1024"] = [60.0, 70.0, 50.0]  # RiichiEnv's own batch: 0.6, 0.7, 0.5
    assert bench.acceptance(rates)[6].endswith("one table: 0.60")
    rates["vec.bench-null.1024.0"] = [180.0, 240.0, 220.0]  # half the time of each round
    assert bench.acceptance(rates)[-1].endswith(
        "N = 1,024: 9090.9 µs with the `mjenv-v1` observation, 4545.5 µs without it "
        "(engine, seat view, mask, batch): the observation's share 50%")


def test_the_null_encoder_writes_nothing(bench: ModuleType) -> None:

    from mjenv.encoders import ENCODERS

    with bench.null_encoder(), bench.VectorMahjongEnv(2, encoder=bench.NULL) as env:
        env.arrays["observation"][:] = 7.0
        batch = env.reset(seed=0)
        assert (batch.observation == 7.0).all()  # untouched
        assert batch.action_mask.any(axis=1).all()
    assert bench.NULL not in ENCODERS  # registered for the block only

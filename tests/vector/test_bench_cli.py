"""``mjenv bench`` and :mod:`mjenv.vector.timing`: a tiny run prints a table and names the
fastest size, writes its JSON, and refuses bad arguments in one line before timing anything."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from mjenv.cli import main
from mjenv.vector.timing import random_legal_actions, time_batch

TINY = ["--decisions", "8", "--rounds", "2", "--no-progress"]


def test_a_tiny_run_prints_each_size_and_the_fastest(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "bench.json"
    assert main(["bench", "--sizes", "4,1", *TINY, "--json", str(out)]) == 0
    text = capsys.readouterr().out
    rows = [line.split() for line in text.splitlines() if line[:7].strip() in ("1", "4")]
    assert [r[0] for r in rows] == ["1", "4"]  # sorted
    assert "fastest here: N = " in text and "on one core" in text
    result = json.loads(out.read_text(encoding="utf-8"))
    assert result["format"] == "mjenv-bench" and result["options"]["rounds"] == 2
    assert set(result["build"]) == {"compiled", "prefetch", "c_rows"}
    assert text.splitlines()[1].startswith("build: ")
    sizes = {s["num_envs"]: s for s in result["sizes"]}
    assert set(sizes) == {1, 4}
    assert all(len(s["us_per_decision"]) == 2 for s in sizes.values())
    assert result["fastest"] == min(sizes, key=lambda n: sizes[n]["median_us_per_decision"])
    assert sizes[4]["array_bytes_per_game"] == 86 * 34 * 4 + 235 + 4 * 8 + 1 + 1 + 8


@pytest.mark.parametrize(("args", "message"), [
    (["--sizes", "0"], "each size must be 1..65,536"),
    (["--sizes", "1,,2"], "expected batch sizes separated by commas"),
    (["--sizes", "2", "--workers", "3"], "--workers must be 0..2"),
    (["--sizes", "1", "--encoder", "nope"], "unknown encoder 'nope'"),
    (["--sizes", "1", "--encoder", "ijcai-v1", "--dtype", "uint8"], "needs an encoder whose"),
    (["--rounds", "0"], "must be at least 1"),
    (["--json", "/nonexistent-folder/x.json"], "give a file name in an existing folder"),
])
def test_bad_arguments_are_one_line_with_status_2(args: list[str], message: str,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert status_of(["bench", *args, *TINY]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert err.strip().splitlines()[-1].startswith("mjenv bench: error:")


def status_of(argv: list[str]) -> object:
    """``main``'s status, whether it returns it or argparse exits with it."""
    try:
        return main(argv)
    except SystemExit as exc:
        return exc.code


def test_timing_counts_every_decision_of_at_least_min_steps() -> None:
    done = time_batch(3, decisions=5, min_steps=4, warmup=0, seed=1)
    assert done.decisions == 12 and done.num_envs == 3  # 4 steps of 3 games
    assert done.us_per_decision == pytest.approx(done.seconds / 12 * 1e6)
    with pytest.raises(ValueError, match="at least 1"):
        time_batch(1, decisions=0)


def test_random_legal_actions_are_legal_and_cover_the_choices() -> None:
    masks = np.zeros((2, 235), dtype=np.int8)
    masks[0, [3, 7]] = 1
    masks[1, 200] = 1
    rng = np.random.default_rng(0)
    seen = {tuple(random_legal_actions(rng, masks)) for _ in range(50)}
    assert seen == {(3, 200), (7, 200)}


def test_the_docs_commands_parse() -> None:
    """docs/vector.md's ``mjenv bench`` lines are valid command lines (running them takes
    minutes: the tiny run above runs the same code)."""
    import shlex

    from mjenv.cli import build_parser

    doc = (Path(__file__).resolve().parents[2] / "docs" / "vector.md").read_text("utf-8")
    lines = [line.split("#")[0] for line in doc.splitlines() if line.startswith("mjenv bench")]
    assert len(lines) == 2
    for line in lines:
        args = build_parser().parse_args(shlex.split(line)[1:])
        assert args.command == "bench" and args.sizes


@pytest.mark.parametrize(("build", "line"), [
    ({"compiled": True, "prefetch": True, "c_rows": True},
     "build: compiled (mypyc), with the C prefetch and one-pass rows"),
    ({"compiled": True, "prefetch": False, "c_rows": True},
     "build: compiled (mypyc), with the C one-pass rows; without the C prefetch"),
    ({"compiled": True, "prefetch": False, "c_rows": False},
     "build: compiled (mypyc); without the C prefetch and one-pass rows"),
    ({"compiled": False, "prefetch": False, "c_rows": False},
     "build: plain Python (no C compiler at install?): several times slower than the compiled "
     "build"),
])
def test_the_build_line_says_what_the_batch_runs_on(monkeypatch: pytest.MonkeyPatch,
                                                    build: dict[str, bool], line: str) -> None:
    import mjenv.cli.bench as bench
    import mjenv.vector.timing as timing

    monkeypatch.setattr(timing, "build_info", lambda: build)
    assert bench._build_line() == line


@pytest.mark.parametrize(("argv", "pin", "phrase"), [
    (["--workers", "2"], "auto", "2 worker processes, each kept to a CPU (0, 1)"),
    (["--workers", "2", "--pin", "off"], "off", "2 worker processes, placed by the scheduler"),
    (["--workers", "3"], "auto", "3 worker processes, placed by the scheduler"),
    (["--workers", "3", "--pin"], "on", "3 worker processes, each kept to a CPU (0, 1, 0)"),
    ([], "auto", None),
])
def test_the_header_says_where_the_workers_run(monkeypatch: pytest.MonkeyPatch,
                                               argv: list[str], pin: str,
                                               phrase: str | None) -> None:
    """``--pin`` is ``pin_workers``: auto by default, ``on`` alone; the header names the CPUs
    the workers are kept to (the process shown CPUs 0 and 1 here)."""
    from mjenv.cli import bench, build_parser
    from mjenv.vector import workers

    monkeypatch.setattr(workers, "can_pin", lambda: True)
    monkeypatch.setattr(workers.os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    args = build_parser().parse_args(["bench", "--sizes", "4", *argv])
    assert args.pin == pin
    report = bench._report(args, {4: [1.0]}, {4: 100})
    if phrase is None:
        assert "one process" in report.splitlines()[0]
    else:
        assert phrase in report.splitlines()[0]

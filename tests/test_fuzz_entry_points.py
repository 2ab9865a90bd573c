"""scripts/fuzz_entry_points.py: how it judges a run and what it writes (the fuzzing itself is
``make fuzz``, a CI step of its own with a time budget)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest


@pytest.fixture(scope="module")
def fuzz(load_script: Callable[[str], ModuleType]) -> ModuleType:
    return load_script("fuzz_entry_points")


@pytest.mark.parametrize(("status", "stderr", "crash", "verdict"), [
    (0, "", None, None),
    (2, "mjenv replay: error: not JSON: ...\n", None, None),
    (2, "usage: mjenv fan [-h]\n              [--win TILE]\nmjenv fan: error: bad\n", None,
     None),
    (2, "mjenv view: skipping a.json: not a hand or match record\nmjenv view: error: none\n",
     None, None),
    (1, "", None, "exit status 1"),
    (2, "first\nsecond\n", None, "status 2 with 2 lines on stderr"),
    (2, "", None, "status 2 with 0 lines on stderr"),
    (0, "Traceback (most recent call last):\n", None, "Traceback on stderr"),
    (1, "", 'Traceback (most recent call last):\n  File "/x/tiles.py", line 150, in group\n'
     "KeyError: ','\n", "exception escaped: KeyError: ',' at tiles.py:150 (group)"),
])
def test_a_run_passes_with_status_0_or_2_and_one_line(
        fuzz: ModuleType, status: int, stderr: str, crash: str | None,
        verdict: str | None) -> None:
    assert fuzz.judge(fuzz.Outcome(status, b"", stderr, crash)) == verdict


def test_failures_are_told_apart_by_kind_and_place_not_by_values(fuzz: ModuleType) -> None:
    key = fuzz.failure_key
    assert key("exception escaped: KeyError: ',' at tiles.py:150 (group)") == \
        key("exception escaped: KeyError: 'x' at tiles.py:150 (group)")
    assert key("exception escaped: KeyError: ',' at tiles.py:150 (group)") != \
        key("exception escaped: KeyError: ',' at melds.py:12 (parse)")
    assert key("ValueError: 3 after reset(seed=1)") == key("ValueError: 4 after step(2)")


def test_a_command_runs_in_process_with_its_own_streams(fuzz: ModuleType) -> None:
    done = fuzz.cli(["fan", "--jsonl"], b'{"hand": [], "win_tile": "W1"}\n')
    assert done.status == 0 and done.crash is None
    assert json.loads(done.stdout)["error"] == "invalid"
    done = fuzz.cli(["replay", "/nonexistent/hand.json"])
    assert done.status == 2 and done.stderr.startswith("mjenv replay: error: cannot read")


def test_mutations_change_the_input_and_keep_the_seed(fuzz: ModuleType) -> None:
    import random

    rng = random.Random(0)
    seed = {"a": [1, 2, {"b": "W1"}], "c": True}
    copies = [fuzz.mutate_value(seed, rng) for _ in range(20)]
    assert seed == {"a": [1, 2, {"b": "W1"}], "c": True}
    assert any(c != seed for c in copies)
    assert all(fuzz.mutate_bytes(b"abc", rng) is not None for _ in range(20))


def test_a_short_job_writes_its_table_and_report(fuzz: ModuleType, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "report.json"
    status = fuzz.main(["--seconds", "4", "--only", "jsonl", "botzone-bot", "--json",
                        str(report), "--failures", str(tmp_path / "failures")])
    out = capsys.readouterr().out
    assert "entry point" in out and "jsonl" in out and "botzone-bot" in out
    data = json.loads(report.read_text())
    assert [e["name"] for e in data["entry_points"]] == ["jsonl", "botzone-bot"]
    assert all(e["inputs"] > 0 for e in data["entry_points"])
    assert status == (1 if any(e["failures"] for e in data["entry_points"]) else 0)

"""scripts/bench_botzone_bot.py runs end to end on a few turns: real child processes, the
answers checked against the in-process bot's, CPU times that are positive."""

from __future__ import annotations

import json
from collections.abc import Callable
from types import ModuleType

import pytest


def test_a_small_run(load_script: Callable[[str], ModuleType],
                     capsys: pytest.CaptureFixture[str]) -> None:
    bench = load_script("bench_botzone_bot")
    assert bench.main(["--turns", "2", "--runs", "1", "--json"]) == 0
    out = capsys.readouterr().out
    result = json.loads(out.strip().splitlines()[-1])
    assert result["fresh_same_answer"] == 2  # greedy is deterministic: as in-process
    for key in ("fresh_turn", "keep_first_turn", "keep_first_decision", "python_start"):
        assert result[key] > 0, key
    assert result["keep_first_decision"] >= result["keep_first_turn"]
    assert "fresh process, 2 draw turns" in out

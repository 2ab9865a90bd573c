"""scripts/gpu_check.py, the GPU learner's measurement: its quick run on this machine (the CPU
alone where torch sees no GPU) writes its results, and the same run twice is identical."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("torch")


def test_the_quick_run_writes_its_results(load_script: Callable[[str], ModuleType],
                                          tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    script = load_script("gpu_check")
    out = tmp_path / "result.json"
    monkeypatch.setattr(sys, "argv", ["gpu_check.py", "--quick", "--json", str(out)])
    assert script.main() == 0
    result = json.loads(out.read_text())
    assert result["settings"]["quick"] is True
    assert result["stage"]["8x1/cpu"]["learner_decisions_per_s"] > 0
    assert result["learner"]["8x1/cpu"]["cudnn_deterministic"] is True
    assert result["repeatable"]["cpu"] == {"weights_identical": True,
                                           "max_weight_difference": 0.0,
                                           "metrics_identical": True}

"""scripts/bench_agents.py times both builds of the baselines and writes only its own section."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

from tests.bench_docs import write_section_twice


def test_bench_agents_smoke(load_script: Callable[[str], ModuleType], tmp_path: Path,
                            capsys: pytest.CaptureFixture[str]) -> None:
    bench = load_script("bench_agents")
    section = write_section_twice(bench, ["--hands", "1", "--rounds", "1"], tmp_path)
    for name in bench.AGENTS:
        assert f"| `{name}` |" in section
    assert "plain Python" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        bench.main(["--hands", "0"])

"""The Python sources of the compiled modules work on their own.

Installs compile mjenv/decompose.py and mjenv/fans/calculator.py with mypyc when they can;
a machine without a compiler runs the same files as plain Python. This test loads the plain
sources under other names (whatever is installed) and checks them on the worked examples.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = json.loads((ROOT / "tests/golden/rule_examples.json").read_text(encoding="utf-8"))


def _load_source(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def pure_calculator() -> ModuleType:
    """calculator.py run as Python, importing a Python copy of decompose.py."""
    pure_decompose = _load_source("_pure_mjenv_decompose", ROOT / "mjenv/decompose.py")
    source = (ROOT / "mjenv/fans/calculator.py").read_text(encoding="utf-8")
    source = source.replace("from mjenv.decompose import", "from _pure_mjenv_decompose import")
    source = source.replace("    from mjenv import decompose\n",
                            "    import _pure_mjenv_decompose as decompose\n")
    module = ModuleType("_pure_mjenv_calculator")
    module.__file__ = str(ROOT / "mjenv/fans/calculator.py")
    sys.modules[module.__name__] = module
    exec(compile(source, module.__file__, "exec"), module.__dict__)
    assert pure_decompose.__file__ and pure_decompose.__file__.endswith(".py")
    return module


def test_pure_python_sources_score_the_worked_examples(pure_calculator: ModuleType) -> None:
    for example in EXAMPLES:
        result = pure_calculator.calculate(
            example["hand"], example["melds"], example["win_tile"],
            **{k: example[k] for k in ("self_drawn", "last_copy", "last_tile", "kong_win",
                                       "seat_wind", "prevalent_wind", "flowers")})
        assert result.counts() == example["expect"], example["id"]
        assert result.total == example["expect_total"], example["id"]


def test_pure_python_rejects_incomplete_hands(pure_calculator: ModuleType) -> None:
    with pytest.raises(pure_calculator.NotWinError):
        pure_calculator.calculate("1112345678999m", (), "J1")
    pure_calculator.clear_tables()

"""The README's Python examples run, and the results they show in comments are right."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def _python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)


def test_readme_python_examples_run(capsys: object) -> None:
    blocks = _python_blocks()
    assert blocks
    namespace: dict[str, object] = {}
    for block in blocks:
        exec(compile(block, str(README), "exec"), namespace)
    assert namespace["result"].total == 92  # type: ignore[attr-defined]
    assert str(namespace["big_four_winds"]).endswith("= 111")

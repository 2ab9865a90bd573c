"""The documentation states what the code does: the fan table in docs/fans.md is the data."""

from __future__ import annotations

from pathlib import Path

from mjenv.fans import FANS

DOCS = Path(__file__).resolve().parents[1] / "docs"


def test_fan_table_in_docs_matches_the_data() -> None:
    text = (DOCS / "fans.md").read_text(encoding="utf-8")
    rows = [line for line in text.splitlines() if line.startswith("| ") and line[2].isdigit()]
    assert len(rows) == len(FANS)
    for fan, row in zip(FANS, rows, strict=True):
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        assert cells[:4] == [str(fan.id), fan.zh, fan.en, str(fan.points)], row
        for implied in fan.implies:
            assert FANS[implied - 1].zh in cells[4], (fan.zh, FANS[implied - 1].zh)


def test_env_card_is_current() -> None:
    """docs/env.md mirrors the env module's docstring and the encoders' channel tables."""
    import importlib.util
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    spec = importlib.util.spec_from_file_location("write_env_card",
                                                  root / "scripts" / "write_env_card.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    current = (root / "docs" / "env.md").read_text(encoding="utf-8")
    assert current == module.render(), "docs/env.md is stale: run scripts/write_env_card.py"

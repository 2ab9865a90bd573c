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


SHARED_CHECKERS = {"test_docs.py", "test_check_shared_copies.py"}
"""Tests that name ../shared on purpose (the check of the in-repository copies)."""


def test_every_rule_reference_resolves_inside_the_repository() -> None:
    """The code, tests and docs cite the rules as ``§1.8`` (sections of docs/rules.md) and
    rulings as ``A12``; each cited section is a heading of docs/rules.md, each ruling a row of
    its §6, and nothing points outside the repository (a fresh clone has no ../shared)."""
    import re

    root = Path(__file__).resolve().parents[1]
    rules = (root / "docs" / "rules.md").read_text(encoding="utf-8")
    headings = set(re.findall(r"^#+ (\d+(?:\.\d+)*)\.? ", rules, re.M))
    rulings = set(re.findall(r"^\| (A\d+) \|", rules, re.M))
    sources = [*root.glob("mjenv/**/*.py"), *root.glob("agents/**/*.py"),
               *root.glob("tests/**/*.py"), *root.glob("docs/*.md"), root / "README.md"]
    cited: dict[str, str] = {}
    for path in sources:
        text = path.read_text(encoding="utf-8")
        where = str(path.relative_to(root))
        if path.suffix == ".py" and path.name not in SHARED_CHECKERS:
            assert "../shared" not in text and "shared/rules" not in text, where
        for number in re.findall(r"§ ?(\d+(?:\.\d+)*)", text):
            cited.setdefault(number, where)
        for ruling in re.findall(r"\bruling (A\d+)\b", text):
            cited.setdefault(ruling, where)
    missing = {n: w for n, w in cited.items() if n not in headings and n not in rulings}
    assert not missing, f"cited but not in docs/rules.md: {missing}"
    assert {"1.8", "2.3", "3.1"} <= set(cited)

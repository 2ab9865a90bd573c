"""What the tests of the benchmark scripts that own a section of docs/benchmarks.md share:
write the section twice into a copy of the docs file and check that nothing else changed.

Why: ``test_bench_engine.py`` and ``test_bench_env.py`` held the same dozen lines. Not a test
module: the tests import it."""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType


def write_section_twice(bench: ModuleType, args: Sequence[str], tmp_path: Path) -> str:
    """Run ``bench.main(args + ["--write-docs", COPY])`` twice on a copy of ``bench.DOCS`` in
    ``tmp_path`` (the second write replaces the section the first wrote); assert that the copy
    holds the script's ``BEGIN``/``END`` markers once each and is otherwise the file it was.
    Returns the section, between the markers."""
    report = tmp_path / "benchmarks.md"
    shutil.copy(bench.DOCS, report)
    before = report.read_text(encoding="utf-8")
    if bench.BEGIN in before:  # the section is already there: compare what surrounds it
        before = before.split(bench.BEGIN)[0] + before.split(bench.END)[1]
    for _ in range(2):
        assert bench.main([*args, "--write-docs", str(report)]) == 0
    text = report.read_text(encoding="utf-8")
    assert text.count(bench.BEGIN) == 1 and text.count(bench.END) == 1
    head, rest = text.split(bench.BEGIN)
    section, tail = rest.split(bench.END)
    assert (head + tail).strip() == before.strip()  # the rest of the file is untouched
    return section

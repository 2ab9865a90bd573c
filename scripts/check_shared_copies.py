#!/usr/bin/env python3
"""Check that the test data copied from ``../shared`` is still a faithful copy of its source.

Two golden files of ``tests/golden/`` were made from material kept outside the repository (a
fresh clone has no ``../shared``, so the test suite reads only the copies):

``rule_examples.json``
    the worked examples of the original rules document, converted by
    ``scripts/regen_rule_examples.py`` from ``<shared>/rules/verify_rule_examples.py`` (loading
    that file needs PyMahjongGB, the ``dev`` extra);
``botzone_judge_logs.json.gz``
    the real Botzone judge transcripts, compacted by ``scripts/import_botzone_logs.py`` from
    ``<shared>/botzone/judge-logs/*/*.json`` and ``<shared>/botzone/conformance-2/*.json``.

This script converts the sources again with those same two scripts and compares the result with
the copies. It checks the source copy, not the product, so it is not part of the test suite::

    python scripts/check_shared_copies.py [--shared ../shared]

Exit status: 0 when both copies are current; 1 when one is stale (a summary of the differences
follows; rerun the script named in it to refresh the copy); 2 when the check cannot run
(``../shared`` or one of its parts is missing, or PyMahjongGB is not installed).
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import import_botzone_logs
import regen_rule_examples

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SHARED = ROOT.parent / "shared"
RULE_EXAMPLES = ROOT / "tests" / "golden" / "rule_examples.json"
JUDGE_LOGS = ROOT / "tests" / "golden" / "botzone_judge_logs.json.gz"
SHOWN = 8  # differences listed per copy before "... and N more"


class CannotCheck(Exception):
    """The check cannot run here (exit status 2); the message says why, on one line."""


def compare(label: str, key: str, fresh: Sequence[dict[str, Any]],
            copy: Sequence[dict[str, Any]]) -> list[str]:
    """What differs between the entries made now from the source and the golden copy, each
    entry named by its ``key`` field: one line per entry added, removed, changed or moved."""
    new = {entry[key]: entry for entry in fresh}
    old = {entry[key]: entry for entry in copy}
    lines = [f"{label}: {name} is in the source only" for name in new if name not in old]
    lines += [f"{label}: {name} is in the copy only" for name in old if name not in new]
    for name, entry in new.items():
        if name in old and entry != old[name]:
            fields = sorted(k for k in entry.keys() | old[name].keys()
                            if entry.get(k) != old[name].get(k))
            lines.append(f"{label}: {name} differs in {', '.join(fields)}")
    if not lines and [e[key] for e in fresh] != [e[key] for e in copy]:
        lines.append(f"{label}: the same entries in another order")
    return lines


def check_rule_examples(shared: Path) -> list[str]:
    source = shared / "rules" / "verify_rule_examples.py"
    if not source.is_file():
        raise CannotCheck(f"{source} is missing")
    try:
        examples = regen_rule_examples._load_examples(source.parent)
    except ModuleNotFoundError as e:  # the examples file imports MahjongGB
        raise CannotCheck(f"{source} cannot be loaded without {e.name} "
                          "(pip install PyMahjongGB==1.4.0, the dev extra)") from None
    fresh = [regen_rule_examples.convert(ex) for ex in examples]
    copy = json.loads(RULE_EXAMPLES.read_text(encoding="utf-8"))
    return compare("rule examples", "id", fresh, copy)


def check_judge_logs(shared: Path) -> list[str]:
    folder = shared / "botzone"
    for pattern in import_botzone_logs.SOURCES:
        part = folder / pattern.split("/")[0]
        if not part.is_dir():
            raise CannotCheck(f"{part} is missing")
    fresh = import_botzone_logs.read_all(folder)
    copy = json.loads(gzip.decompress(JUDGE_LOGS.read_bytes()))
    return compare("judge logs", "name", fresh, copy)


CHECKS = (
    # (the copy, how to refresh it, the check)
    (RULE_EXAMPLES, "python scripts/regen_rule_examples.py --rules-dir {shared}/rules",
     check_rule_examples),
    (JUDGE_LOGS, "python scripts/import_botzone_logs.py --src {shared}/botzone",
     check_judge_logs),
)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shared", type=Path, default=DEFAULT_SHARED,
                        help="the folder holding rules/ and botzone/ (default: ../shared)")
    args = parser.parse_args(argv)
    shared: Path = args.shared
    if not shared.is_dir():
        print(f"cannot check: {shared} is not there (a fresh clone has no ../shared; "
              "nothing to compare the copies in tests/golden/ with)", file=sys.stderr)
        return 2
    stale = False
    for copy, refresh, check in CHECKS:
        name = copy.relative_to(ROOT)
        try:
            problems = check(shared)
        except CannotCheck as e:
            print(f"cannot check {name}: {e}", file=sys.stderr)
            return 2
        if not problems:
            print(f"{name}: current")
            continue
        stale = True
        print(f"{name}: STALE ({len(problems)} difference{'s' * (len(problems) != 1)})")
        for line in problems[:SHOWN]:
            print(f"  {line}")
        if len(problems) > SHOWN:
            print(f"  ... and {len(problems) - SHOWN} more")
        print(f"  refresh with: {refresh.format(shared=shared)}")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())

"""Write docs/env.md, the env card: the env module's docstring plus every full table.

docs/env.md = the docstring of mjenv.mahjong_env (as Markdown: its reST sections become
headings, its tables code blocks), the complete action table (all 235 ids) and the channel
table of every encoder (mjenv.encoders.describe_channels). tests/test_docs.py checks that the
file is current; after changing the env card or an encoder run

    python scripts/write_env_card.py
"""

from __future__ import annotations

import re
from pathlib import Path

import mjenv.mahjong_env as card
from mjenv.actions import NUM_ACTIONS, action_to_string
from mjenv.encoders import ENCODERS, ORACLE_ENCODERS, describe_channels

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "env.md"


def docstring_markdown(doc: str) -> str:
    """The module docstring as Markdown: ``Title\\n-----`` sections become ``##`` headings, the
    indented block after ``::`` and every reST table become code blocks, ``x`` becomes `x`."""
    lines = doc.strip("\n").splitlines()
    out = [f"# {lines[0]}"]
    i = 1
    while i < len(lines):
        line = lines[i]
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        if nxt and set(nxt) == {"-"} and len(nxt) == len(line):
            out += ["", f"## {line}", ""]
            i += 2
            continue
        if line.startswith("===="):  # a simple reST table: three rule lines
            block, rules = [], 0
            while i < len(lines) and rules < 3:
                rules += lines[i].startswith("====")
                block.append(re.sub(r"``([^`]+)``", r"\1", lines[i]))
                i += 1
            out += ["```", *block, "```"]
            continue
        if line.rstrip().endswith("::"):
            out.append(_inline(line.rstrip()[:-1]))
            i += 1
            block = []
            while i < len(lines) and (lines[i].startswith("    ") or not lines[i].strip()):
                block.append(lines[i][4:])
                i += 1
            while block and not block[-1].strip():
                block.pop()
            while block and not block[0].strip():
                block.pop(0)
            out += ["", "```python", *block, "```", ""]
            continue
        out.append(_inline(line))
        i += 1
    return "\n".join(out).replace("\n\n\n", "\n\n")


def _inline(line: str) -> str:
    return re.sub(r"``([^`]+)``", r"`\1`", line)


def action_table() -> str:
    rows = ["| id | action |", "|---|---|"]
    rows += [f"| {a} | {action_to_string(a)} |" for a in range(NUM_ACTIONS)]
    return "\n".join(rows)


def render() -> str:
    assert card.__doc__ is not None
    parts = [
        "<!-- written by scripts/write_env_card.py from mjenv/mahjong_env.py and "
        "mjenv/encoders; do not edit by hand -->",
        docstring_markdown(card.__doc__),
        "## Every action id",
        action_table(),
        "## Every observation channel",
    ]
    for name in [*ENCODERS, *ORACLE_ENCODERS]:
        parts.append(f"### {name}")
        parts.append(describe_channels(name))
    return "\n\n".join(parts) + "\n"


def main() -> None:
    OUT.write_text(render(), encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()

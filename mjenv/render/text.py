"""Aligned text for a terminal, where a CJK character takes two columns."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

WIND_LETTERS = ("E", "S", "W", "N")


def width(text: str) -> int:
    """Terminal columns of ``text`` (CJK characters take two).

    >>> width("清一色"), width("abc")
    (6, 3)
    """
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def ljust(text: str, columns: int) -> str:
    """``text`` padded with spaces to ``columns`` terminal columns."""
    return text + " " * max(0, columns - width(text))


def table(rows: Sequence[tuple[str, ...]], right: tuple[int, ...] = ()) -> list[str]:
    """``rows`` (the first one the header) as aligned lines with a rule under the header;
    the columns in ``right`` are right-aligned, the last column is never padded.

    >>> print("\\n".join(table([("tile", "n"), ("W1", "12")], right=(1,))))
    tile   n
    --------
    W1    12
    """
    widths = [max(width(row[i]) for row in rows) for i in range(len(rows[0]))]
    out = []
    for n, row in enumerate(rows):
        cells = []
        for i, cell in enumerate(row):
            last = i == len(row) - 1
            if i in right:
                cells.append(" " * (widths[i] - width(cell)) + cell)
            else:
                cells.append(cell if last else ljust(cell, widths[i]))
        out.append("  ".join(cells).rstrip())
        if n == 0:
            out.append("-" * width(out[0]))
    return out

"""The report of ``mjenv hand``: shanten per shape, useful tiles, discards and scored waits."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from mjenv.render.fans import describe_win, melds_line
from mjenv.render.text import table
from mjenv.shanten import SHAPE_NAMES
from mjenv.tiles import format_tiles

if TYPE_CHECKING:
    from mjenv.analysis import HandAnalysis, Wait
    from mjenv.melds import Meld


def _useful_text(useful: Sequence[int], drawable: Sequence[int], unseen: Sequence[int]) -> str:
    """``W1:3 W4:held``: each useful kind with its unseen copies ("held": all four are ours)."""
    left: dict[int, int | str] = dict(zip(drawable, unseen, strict=True))
    parts = [f"{format_tiles([t])}:{left.get(t, 'held')}" for t in useful]
    return " ".join(parts) if parts else "-"


def _waits_text(waits: Sequence[Wait]) -> str:
    parts = []
    for w in waits:
        if w.result is None:
            parts.append(f"{format_tiles([w.tile])} impossible")
        else:
            mark = "" if w.meets_minimum else " (<8)"
            parts.append(f"{format_tiles([w.tile])} {w.result.total}{mark}")
    return ", ".join(parts)


def format_hand(report: HandAnalysis, hand: Sequence[int], melds: Sequence[Meld],
                flags: Mapping[str, bool | int], seen: Sequence[int] = ()) -> str:
    """The readable report of ``mjenv hand`` (``flags``: how a wait would be won, as the
    calculator's keywords; ``seen``: the tiles given with --seen)."""
    result = report.shanten
    lines = [f"hand     {format_tiles(sorted(hand))}   {format_tiles(sorted(hand), 'glyphs')}"]
    if melds:
        lines.append(melds_line(melds))
    if seen:
        lines.append(f"seen     {format_tiles(sorted(seen))}")
    if result.discard_first:
        state = ("complete (-1): a winning hand, score it with mjenv fan" if result.shanten < 0
                 else f"{result.shanten} after the best discard"
                 + (" (ready)" if result.shanten == 0 else ""))
    else:
        state = {0: "0: ready"}.get(result.shanten, f"{result.shanten}")
    lines.append(f"shanten  {state}")
    lines.append("")

    name_w = max(len(SHAPE_NAMES[e.shape]) for e in result.shapes)
    header = f"{'shape':<{name_w}}  shanten" + ("" if result.discard_first else
                                              "  useful tiles:unseen")
    lines.append(header)
    lines.append("-" * len(header))
    for e in result.shapes:
        row = f"{SHAPE_NAMES[e.shape]:<{name_w}}  {e.shanten:>7}"
        if not result.discard_first:
            row += f"  {_useful_text(e.useful, e.drawable, e.unseen)}"
        lines.append(row)
    if not result.discard_first:
        lines.append("")
        lines.append(f"useful tiles ({len(result.useful)} kinds, {result.unseen_total} unseen "
                     f"copies): {_useful_text(result.useful, result.drawable, result.unseen)}")
    if report.waits:
        lines.append("")
        lines.append(f"waits and their points (win: {describe_win(flags)})")
        rows = [("tile", "unseen", "points", "8-point minimum", "fans")]
        for w in report.waits:
            if w.result is None:
                rows.append((format_tiles([w.tile]), str(w.unseen), "-", "-", w.why_not))
            else:
                rows.append((format_tiles([w.tile]), str(w.unseen), str(w.result.total),
                             "met" if w.meets_minimum else "NOT met", str(w.result)))
        lines.extend(table(rows, right=(1, 2)))
    if report.discards:
        lines.append("")
        lines.append("discards, best first (shanten left, then unseen useful copies)")
        rows = [("discard", "shanten", "kinds", "unseen", "useful tiles:unseen")]
        for d in report.discards:
            rows.append((format_tiles([d.tile]), str(d.shanten), str(len(d.useful)),
                         str(d.unseen), _useful_text(d.useful, d.drawable, d.after.unseen)))
        lines.extend(table(rows, right=(1, 2, 3)))
        ready = [d for d in report.discards if d.waits]
        if ready:
            lines.append("")
            lines.append(f"waits after a discard that leaves the hand ready, with their points "
                         f"((<8): below the minimum; win: {describe_win(flags)})")
            for d in ready:
                lines.append(f"  discard {format_tiles([d.tile])}: {_waits_text(d.waits)}")
    return "\n".join(lines) + "\n"

"""The report of ``mjenv fan``: one scored hand as a fan table, its verdict and decomposition."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from mjenv.render.text import WIND_LETTERS, ljust, width
from mjenv.tiles import format_tiles

if TYPE_CHECKING:
    from mjenv.fans import FanResult
    from mjenv.melds import Meld


def describe_win(flags: Mapping[str, bool | int]) -> str:
    """How a hand was won, in words, from the calculator's keyword flags.

    >>> describe_win({"self_drawn": True, "kong_win": True, "seat_wind": 1})
    'self-drawn, kong replacement, seat wind S, prevalent wind E, flowers 0'
    """
    self_drawn = bool(flags.get("self_drawn", False))
    how = ["self-drawn" if self_drawn else "discard"]
    if flags.get("last_copy"):
        how.append("last copy")
    if flags.get("last_tile"):
        how.append("last tile")
    if flags.get("kong_win"):
        how.append("kong replacement" if self_drawn else "robbing a kong")
    how.append(f"seat wind {WIND_LETTERS[int(flags.get('seat_wind', 0))]}")
    how.append(f"prevalent wind {WIND_LETTERS[int(flags.get('prevalent_wind', 0))]}")
    how.append(f"flowers {int(flags.get('flowers', 0))}")
    return ", ".join(how)


def melds_line(melds: Sequence[Meld]) -> str:
    """``melds    chow W1 W2 W3, pung F1 F1 F1`` (empty when there are none)."""
    if not melds:
        return ""
    return "melds    " + ", ".join(f"{m.kind.replace('_', ' ')} {format_tiles(m.tiles)}"
                                   for m in melds)


def format_result(result: FanResult, hand: Sequence[int], melds: Sequence[Meld], win: int,
                  flags: Mapping[str, bool | int]) -> str:
    """The readable report of one scored hand (``flags``: how it was won, as keywords)."""
    lines: list[str] = []
    lines.append(f"hand     {format_tiles(sorted(hand))} + {format_tiles([win])}   "
                 f"{format_tiles(sorted(hand), 'glyphs')} {format_tiles([win], 'glyphs')}")
    if melds:
        lines.append(melds_line(melds))
    lines.append("win      " + describe_win(flags))
    lines.append("")

    zh_w = max([width("fan"), *(width(e.zh) for e in result.fans)])
    en_w = max([len("english"), *(len(e.en) for e in result.fans)])
    header = f"{ljust('fan', zh_w)}  {'english':<{en_w}}  points  count  total"
    lines.append(header)
    lines.append("-" * width(header))
    for e in result.fans:
        lines.append(f"{ljust(e.zh, zh_w)}  {e.en:<{en_w}}  {e.points:>6}  {e.count:>5}  "
                     f"{e.total:>5}")
    lines.append("-" * width(header))
    lines.append(f"{ljust('total', zh_w + en_w + 2)}  {'':>6}  {'':>5}  {result.total:>5}")
    without = result.total - result.flowers
    if result.meets_minimum:
        verdict = f"met ({without} points without flowers): a legal win"
    else:
        verdict = f"NOT met ({without} points without flowers): not a legal win"
    lines.append(f"8-point minimum: {verdict}")
    lines.append("")
    lines.append(f"decomposition ({result.shape.replace('_', ' ')})")
    for group in result.decomposition:
        state = "concealed" if group.concealed else "exposed"
        lines.append(f"  {group.kind.replace('_', ' '):<14} {format_tiles(group.tiles):<12} "
                     f"{state}")
    return "\n".join(lines) + "\n"

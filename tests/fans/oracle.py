"""PyMahjongGB 1.4.0 as a test oracle (tests only; mjenv never imports MahjongGB).

Conversion notes (rules §4.11):
* PyMahjongGB's pack offer runs the other way from our ``from``: offer = 4 - from
  (offer 1 = 上家, 3 = 下家); a concealed kong is ``("GANG", t, 0)``, an added kong a GANG
  with a non-zero offer; PENG is never passed with offer 0 (it would be a concealed pung).
* A chow is ``("CHI", middle tile, k)`` with k = 1..3 the position of the claimed tile.
* Flowers are passed as ``flowerCount``.
* The wait fans are renamed to the rules table's first names.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import MahjongGB

from mjenv.melds import ADDED_KONG, CHOW, CONCEALED_KONG, KONG, PUNG, Meld
from mjenv.testing import WinningHand
from mjenv.tiles import tile_code

ALIASES = {"独听・边张": "边张", "独听・嵌张": "坎张", "独听・单钓": "单钓将", "嵌张": "坎张"}


class OracleNotWin(Exception):
    """PyMahjongGB answered ERROR_NOT_WIN."""


class OracleError(Exception):
    """PyMahjongGB rejected the input for another reason (message says which)."""


@dataclass(frozen=True)
class OracleResult:
    fans: dict[str, int]  # zh name (rules table) -> count, 花牌 included
    points: dict[str, int]  # zh name -> points per unit
    total: int  # flowers included
    flowers: int

    @property
    def meets_minimum(self) -> bool:
        return self.total - self.flowers >= 8

    def describe(self) -> str:
        return fan_list(self.fans, self.points) + f" = {self.total}"


def fan_list(fans: dict[str, int], points: dict[str, int] | None = None) -> str:
    parts = []
    for name, cnt in fans.items():
        pt = "" if points is None else f" {points[name]}"
        parts.append(f"{name}{pt}" + (f"x{cnt}" if cnt > 1 else ""))
    return " + ".join(parts) or "(none)"


def pack_of(m: Meld) -> tuple[str, str, int]:
    if m.kind == CHOW:
        claimed = m.claimed if m.claimed is not None else m.tiles[1]
        return ("CHI", tile_code(m.tiles[1]), claimed - m.tiles[0] + 1)
    if m.kind == CONCEALED_KONG:
        return ("GANG", tile_code(m.tiles[0]), 0)
    offer = 4 - (m.from_offset if m.from_offset is not None else 3)
    if m.kind == PUNG:
        return ("PENG", tile_code(m.tiles[0]), offer)
    if m.kind in (KONG, ADDED_KONG):
        return ("GANG", tile_code(m.tiles[0]), offer)
    raise ValueError(f"unknown meld kind {m.kind!r}")


def call_args(
    hand: Sequence[int], melds: Sequence[Meld], win_tile: int, **flags: Any
) -> dict[str, Any]:
    return {
        "pack": tuple(pack_of(m) for m in melds),
        "hand": tuple(tile_code(t) for t in hand),
        "winTile": tile_code(win_tile),
        "flowerCount": int(flags.get("flowers", 0)),
        "isSelfDrawn": bool(flags.get("self_drawn", False)),
        "is4thTile": bool(flags.get("last_copy", False)),
        "isAboutKong": bool(flags.get("kong_win", False)),
        "isWallLast": bool(flags.get("last_tile", False)),
        "seatWind": int(flags.get("seat_wind", 0)),
        "prevalentWind": int(flags.get("prevalent_wind", 0)),
        "verbose": True,
    }


def oracle(h: WinningHand) -> OracleResult:
    """Score a hand with PyMahjongGB; raises OracleNotWin / OracleError."""
    return oracle_call(h.hand, h.melds, h.win_tile, **h.flags())


def oracle_call(
    hand: Sequence[int], melds: Sequence[Meld], win_tile: int, **flags: Any
) -> OracleResult:
    try:
        res = MahjongGB.MahjongFanCalculator(**call_args(hand, melds, win_tile, **flags))
    except TypeError as exc:
        if "ERROR_NOT_WIN" in str(exc):
            raise OracleNotWin(str(exc)) from None
        raise OracleError(str(exc)) from None
    fans: dict[str, int] = {}
    points: dict[str, int] = {}
    total = 0
    for pt, cnt, name, _en in res:
        zh = ALIASES.get(name, name)
        fans[zh] = fans.get(zh, 0) + cnt
        points[zh] = pt
        total += pt * cnt
    return OracleResult(fans=fans, points=points, total=total, flowers=int(flags.get("flowers", 0)))


def is_win(h: WinningHand) -> bool:
    try:
        oracle(h)
    except OracleNotWin:
        return False
    return True

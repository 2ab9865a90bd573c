"""How a hand was won: the seven flags of the fan calculator, checked in one place.

>>> from mjenv.fans import WinContext, calculate
>>> calculate("1112345678999m", (), "W5", context=WinContext(self_drawn=True)).total
92

:class:`WinContext` holds the flags (rules §3) and is the only place that checks them: their
types and ranges, and the combinations that cannot happen, alone (robbing a kong on the last
tile, :meth:`WinContext.__post_init__`) or with a given hand (a kong-replacement win without a
kong, robbing a kong of a tile the winner holds or has melded, :meth:`WinContext.conflict`).
Every error is an :class:`~mjenv.fans.result.InvalidHandError` (a ``ValueError``) naming the
flag.

The calculator and the hand analysis also take the flags as seven keyword arguments;
:func:`mjenv.fans.hand.resolve_context` turns those into a context (one object per distinct
set of flags, built once and then found in a table).

This module is not compiled with mypyc (``setup.py``): a compiled class would reject a value of
the wrong type with a ``TypeError`` before ``__post_init__`` could name the flag.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Final

from mjenv.fans.result import InvalidHandError
from mjenv.inputs import flag, small_int
from mjenv.tiles import CODES


@dataclass(frozen=True, slots=True)
class WinContext:
    """The circumstances of a win: who supplied the tile, which tile it was, the winds.

    * ``self_drawn``: the winner drew the winning tile (自摸); otherwise it was a discard or,
      with ``kong_win``, a tile added to a kong.
    * ``last_copy`` (和绝张): the winning tile is the last copy of its kind not yet in view.
      The calculator normalises it (rules §3.1): cleared when the winner holds a copy, set when
      the winner's own melds show three copies, never scored with 抢杠和.
    * ``last_tile``: the last tile of the wall (妙手回春 when self-drawn, 海底捞月 otherwise).
    * ``kong_win``: 杠上开花 (the replacement tile after a kong) when self-drawn, 抢杠和 (robbing
      a kong) otherwise.
    * ``seat_wind``, ``prevalent_wind``: 0..3 = E S W N.
    * ``flowers``: flower tiles the winner has laid out, 0..8 (one point each, 花牌).

    Frozen and hashable; ``dataclasses.replace(context, last_copy=True)`` makes a changed copy
    (checked again). Raises :class:`InvalidHandError` for a flag that is not a ``bool``, a
    number that is not an ``int`` in range, and robbing a kong on the last tile.
    """

    self_drawn: bool = False
    last_copy: bool = False
    last_tile: bool = False
    kong_win: bool = False
    seat_wind: int = 0
    prevalent_wind: int = 0
    flowers: int = 0

    def __post_init__(self) -> None:
        flag(self.self_drawn, "self_drawn", InvalidHandError)
        flag(self.last_copy, "last_copy", InvalidHandError)
        flag(self.last_tile, "last_tile", InvalidHandError)
        flag(self.kong_win, "kong_win", InvalidHandError)
        small_int(self.seat_wind, "seat_wind", 3, InvalidHandError)
        small_int(self.prevalent_wind, "prevalent_wind", 3, InvalidHandError)
        small_int(self.flowers, "flowers", 8, InvalidHandError)
        if self.robbing_kong and self.last_tile:
            raise InvalidHandError(
                "robbing a kong (抢杠和) cannot be on the last tile: a kong needs a "
                "replacement tile")

    @property
    def robbing_kong(self) -> bool:
        """抢杠和: won on a tile another player added to a kong."""
        return self.kong_win and not self.self_drawn

    @property
    def kong_replacement(self) -> bool:
        """杠上开花: won on the replacement tile drawn after a kong."""
        return self.kong_win and self.self_drawn

    def conflict(self, has_kong: bool, win_tile: int = -1, copies: int = 0) -> str:
        """Why these flags cannot go with the hand ("" when they can): a kong-replacement win
        needs a kong among the melds (``has_kong``); robbing a kong of ``win_tile`` (an id) is
        impossible while the winner holds or has melded ``copies`` > 0 copies of it (the
        robbed player's pung and the added tile are all four). Leave ``win_tile`` out to check
        the melds only."""
        if not self.kong_win:
            return ""
        if self.self_drawn:
            return "" if has_kong else "kong_win with self_drawn (杠上开花) needs a kong"
        if copies and win_tile >= 0:
            return (f"robbing a kong (抢杠和) is impossible while holding or having melded "
                    f"{CODES[win_tile]}")
        return ""


FLAG_NAMES: Final = tuple(field.name for field in fields(WinContext))
"""The seven flags in their order (the order of the keyword form too)."""

DEFAULT: Final = WinContext()
"""No flag set: a discard, no situational fan, both winds East, no flowers."""


class _Unset:
    """The default of the flag keywords, so that a call can tell "not given" from a value."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<unset>"


UNSET: Final[Any] = _Unset()
"""The default of each flag keyword where ``context=`` is also accepted."""

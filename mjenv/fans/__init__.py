"""The MCR fan calculator: 81 fans plus the 明暗杠 extension, checked against PyMahjongGB.

>>> from mjenv.fans import WinContext, calculate
>>> calculate("1112345678999m", win_tile="W5", self_drawn=True).total
92
>>> calculate("1112345678999m", win_tile="W5", context=WinContext(self_drawn=True)).total
92
"""

from mjenv.fans.calculator import calculate, calculate_all, clear_tables
from mjenv.fans.context import WinContext
from mjenv.fans.result import (
    MINIMUM_POINTS,
    FanEntry,
    FanResult,
    Group,
    InvalidHandError,
    NotWinError,
)
from mjenv.fans.table import FAN_BY_EN, FAN_BY_ZH, FANS, Fan

__all__ = [
    "FANS",
    "FAN_BY_EN",
    "FAN_BY_ZH",
    "MINIMUM_POINTS",
    "Fan",
    "FanEntry",
    "FanResult",
    "Group",
    "InvalidHandError",
    "NotWinError",
    "WinContext",
    "calculate",
    "calculate_all",
    "clear_tables",
]

"""What the fan calculator returns (FanResult and its parts) and the errors it raises."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from mjenv.fans.table import FANS, Fan
from mjenv.tiles import CODES

MINIMUM_POINTS = 8
"""A hand may only be won with 8 points, flowers excluded."""


class InvalidHandError(ValueError):
    """The input cannot describe a real hand: wrong counts, impossible flags, bad tiles."""


class NotWinError(ValueError):
    """The tiles do not form a complete hand in any shape.

    Rejecting a hand is a hot path for agents and the engine, so the message naming the tiles
    is only written when someone reads it.
    """

    def __init__(self, hand: object = None) -> None:
        super().__init__()
        self._hand = hand  # anything whose str() names the tiles

    def __str__(self) -> str:
        return "not a complete hand" + ("" if self._hand is None else f": {self._hand}")


# ---------------------------------------------------------------- results

@dataclass(frozen=True, slots=True)
class Group:
    """One part of the reading used: a set, the pair, or a special shape's tiles."""

    kind: str  # chow, pung, kong, pair, knitted, thirteen_orphans, honors_knitted
    tiles: tuple[int, ...]
    concealed: bool

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind, "tiles": [CODES[t] for t in self.tiles],
                "concealed": self.concealed}

    def __str__(self) -> str:
        state = "concealed" if self.concealed else "exposed"
        return f"{self.kind} {' '.join(CODES[t] for t in self.tiles)} ({state})"


@dataclass(frozen=True, slots=True)
class FanEntry:
    fan: Fan
    count: int

    @property
    def zh(self) -> str:
        return self.fan.zh

    @property
    def en(self) -> str:
        return self.fan.en

    @property
    def points(self) -> int:
        """Points per unit."""
        return self.fan.points

    @property
    def total(self) -> int:
        return self.fan.points * self.count

    def to_dict(self) -> dict[str, Any]:
        return {"zh": self.fan.zh, "en": self.fan.en, "points": self.fan.points,
                "count": self.count}


class FanResult:
    """The score of a winning hand: each fan, the total, and the reading that gave it.

    ``fans`` and ``decomposition`` (the sets and pair of the reading) are built when first
    asked for: most callers (the engine, agents) only need the total.
    """

    __slots__ = ("total", "flowers", "shape", "_counts", "_build_groups", "_fans", "_groups")

    def __init__(self, counts: dict[int, int], total: int, flowers: int, shape: str,
                 groups: Callable[[], tuple[Group, ...]]) -> None:
        self.total = total
        self.flowers = flowers
        self.shape = shape
        self._counts = counts
        self._build_groups = groups
        self._fans: tuple[FanEntry, ...] | None = None
        self._groups: tuple[Group, ...] | None = None

    @property
    def fans(self) -> tuple[FanEntry, ...]:
        """Each fan scored, in table order (花牌 last when there are flowers)."""
        if self._fans is None:
            self._fans = tuple(fan_entry(fan_id, n) for fan_id, n in sorted(self._counts.items()))
        return self._fans

    @property
    def decomposition(self) -> tuple[Group, ...]:
        if self._groups is None:
            self._groups = self._build_groups()
        return self._groups

    def __repr__(self) -> str:
        return f"FanResult({self}, shape={self.shape!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, FanResult):
            return NotImplemented
        return (self.fans, self.total, self.flowers, self.shape) == (
            other.fans, other.total, other.flowers, other.shape)

    __hash__ = None  # type: ignore[assignment]

    @property
    def meets_minimum(self) -> bool:
        """Whether the hand may be won: 8 points or more without the flowers."""
        return self.total - self.flowers >= MINIMUM_POINTS

    def counts(self) -> dict[str, int]:
        return {entry.zh: entry.count for entry in self.fans}

    def to_dict(self) -> dict[str, Any]:
        return {"total": self.total, "meets_minimum": self.meets_minimum,
                "fans": [entry.to_dict() for entry in self.fans],
                "decomposition": [group.to_dict() for group in self.decomposition]}

    def __str__(self) -> str:
        parts = [f"{e.zh} {e.points}" + (f"x{e.count}" if e.count > 1 else "") for e in self.fans]
        return " + ".join(parts) + f" = {self.total}"

_ENTRIES: dict[tuple[int, int], FanEntry] = {}


def fan_entry(fan_id: int, count: int) -> FanEntry:
    entry = _ENTRIES.get((fan_id, count))
    if entry is None:
        entry = _ENTRIES[(fan_id, count)] = FanEntry(FANS[fan_id - 1], count)
    return entry


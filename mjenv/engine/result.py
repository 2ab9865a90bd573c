"""The outcome of a hand."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class HandResult:
    """A win (``winner``), an exhaustive draw, or a penalty (``penalized``).

    ``from_seat`` is the discarder (or the robbed kong declarer) of a discard win; ``fans`` are
    (Chinese name, count) pairs; ``payments`` are per seat and sum to zero.
    """

    winner: int | None
    from_seat: int | None
    self_drawn: bool
    robbed: bool
    win_tile: int | None
    fan_total: int
    fans: tuple[tuple[str, int], ...]
    payments: tuple[int, int, int, int]
    penalized: int | None

    @property
    def is_draw(self) -> bool:
        return self.winner is None and self.penalized is None

"""``mjenv-v1+shanten``: ``mjenv-v1`` followed by the 15 ``shanten-v1`` hand-analysis planes,
(101, 34) float32.

Why it exists: a policy with ``features = "shanten-v1"`` (mjenv_agents.features) used to compute
these planes itself from each ``mjenv-v1`` observation, in Python, per decision; the
environment computes them here once, from the same facts, with a memo of the hands it has
analysed (:mod:`mjenv.encoders.shanten_planes`). Channels 0-85 are exactly ``mjenv-v1``'s;
channels 86-100 are exactly what ``mjenv_agents.features.augment("shanten-v1", obs, mask)``
appends, so a network trained on ``mjenv-v1`` + ``shanten-v1`` reads this observation as it is.

The planes use only the seat's own hand, meld count, unseen counts and legal-action mask, all
of which ``mjenv-v1`` already shows: no hidden information is added.

Every channel is a count (one byte a cell, :meth:`ShantenEncoder.counts`): ``mjenv-v1``'s
counts times its scales, then the planes' counts divided by
:data:`~mjenv.encoders.shanten_planes.PLANE_DIVISOR`, so a batch of games (mjenv.vector) stages
the whole observation as bytes and turns it into float32 in two numpy calls a step. setup.py
compiles this module with mypyc.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
import numpy.typing as npt

from mjenv.encoders.base import ChannelRow, SeatEncoder
from mjenv.encoders.default import DefaultEncoder
from mjenv.encoders.shanten_planes import (
    CHOW_BETTER,
    CHOW_SAME,
    DISCARD_BEST,
    DISCARD_PLUS1,
    DISCARD_PLUS2,
    DISCARD_UKEIRE,
    LEVEL,
    NUM_PLANES,
    PLANE_DIVISOR,
    PUNG_BETTER,
    PUNG_SAME,
    UKEIRE_NOW,
    USEFUL_NOW,
    ShantenPlanes,
)
from mjenv.engine.rules import MCR, RuleConfig
from mjenv.tiles import NUM_KINDS

if TYPE_CHECKING:
    from mjenv.engine.seat_view import SeatView

T = NUM_KINDS
BASE_CHANNELS = DefaultEncoder.shape[0]  # 86
FIRST = BASE_CHANNELS
"""The first shanten plane's channel (86)."""
NUM_CHANNELS = BASE_CHANNELS + NUM_PLANES  # 101

_PLANE_ROWS: tuple[tuple[int, int, str, str], ...] = (
    (DISCARD_BEST, 1, "shanten_discard_best",
     "discard decisions: discarding this tile keeps the best shanten"),
    (DISCARD_PLUS1, 1, "shanten_discard_plus1", "discard decisions: discarding this tile "
     "raises the shanten by one"),
    (DISCARD_PLUS2, 1, "shanten_discard_plus2", "discard decisions: discarding this tile "
     "raises the shanten by two or more"),
    (DISCARD_UKEIRE, 1, "shanten_discard_ukeire", "discard decisions, tiles keeping the best "
     "shanten: unseen copies of the useful tiles after discarding it / 40 (capped at 1)"),
    (LEVEL, 5, "shanten_level", "the hand's shanten (after the best discard at a discard "
     "decision), one-hot over -1 (complete), 0 (ready), 1, 2, 3 or more, broadcast"),
    (UKEIRE_NOW, 1, "shanten_ukeire_now", "claim decisions (and no decision): unseen copies "
     "of the hand's useful tiles / 40 (capped at 1), broadcast"),
    (PUNG_BETTER, 1, "shanten_pung_better", "a legal pung of this tile lowers the shanten "
     "(after the best discard)"),
    (PUNG_SAME, 1, "shanten_pung_same", "a legal pung of this tile keeps the shanten"),
    (CHOW_BETTER, 1, "shanten_chow_better", "a legal chow whose lowest tile is this one "
     "lowers the shanten"),
    (CHOW_SAME, 1, "shanten_chow_same", "a legal chow whose lowest tile is this one keeps "
     "the shanten"),
    (USEFUL_NOW, 1, "shanten_useful_now", "claim decisions (and no decision): the tiles that "
     "would lower the hand's shanten"),
)


class ShantenEncoder(SeatEncoder):
    """``mjenv-v1+shanten``; see the module docstring."""

    name: ClassVar[str] = "mjenv-v1+shanten"
    shape: ClassVar[tuple[int, ...]] = (NUM_CHANNELS, T)
    dtype: ClassVar[np.dtype[np.generic]] = np.dtype(np.float32)
    low: ClassVar[float] = 0.0
    high: ClassVar[float] = 1.0
    count_channels: ClassVar[int] = NUM_CHANNELS  # mjenv-v1's counts, then the planes'

    @classmethod
    def channels(cls) -> list[ChannelRow]:
        rows = DefaultEncoder.channels()
        for plane, n, name, desc in _PLANE_ROWS:
            first = FIRST + plane
            index = str(first) if n == 1 else f"{first}-{first + n - 1}"
            rows.append((index, name, f"{desc} (shanten-v1 plane {plane}"
                         f"{'' if n == 1 else f'-{plane + n - 1}'})"))
        return rows

    def __init__(self, rules: RuleConfig = MCR) -> None:
        super().__init__(rules)
        self._base = DefaultEncoder(rules)
        self._planes = ShantenPlanes()

    def state_objects(self) -> list[object]:
        return [self, *self._base.state_objects(), *self._planes.state_objects()]

    def state_lists(self) -> list[list[Any]]:
        return self._base.state_lists()

    def counts(self, view: SeatView, mask: npt.NDArray[np.int8]) -> bytes:
        return self._base.counts(view, mask) + self._plane_counts(view, mask)

    def count_scale(self) -> npt.NDArray[np.float32]:
        return self._base.count_scale()

    def count_divisor(self) -> npt.NDArray[np.float32]:
        return PLANE_DIVISOR

    def encode(self, view: SeatView, mask: npt.NDArray[np.int8]) -> npt.NDArray[np.float32]:
        out = np.empty((NUM_CHANNELS, T), dtype=np.float32)
        self.encode_into(view, mask, out)
        return out

    def encode_into(self, view: SeatView, mask: npt.NDArray[np.int8],
                    out: npt.NDArray[np.generic]) -> None:
        self._base.encode_into(view, mask, out[:BASE_CHANNELS])
        planes = np.frombuffer(self._plane_counts(view, mask), dtype=np.uint8)
        np.divide(planes.reshape(NUM_PLANES, T), PLANE_DIVISOR, out=out[FIRST:])

    def _plane_counts(self, view: SeatView, mask: npt.NDArray[np.int8]) -> bytes:
        return self._planes.counts(view.hand, len(view.melds[view.seat]), view.unseen, mask)

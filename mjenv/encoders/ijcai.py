"""``ijcai-v1``: the IJCAI 2020/2022 Botzone baseline's observation, (6, 4, 9) float32.

Layout of the course code's ``FeatureAgent`` (``feature.py``, ``OBS_SIZE = 6``: "observation:
6*4*9 (men+quan+hand4)*4*9"), the sample agent of the PKU course handout that the IJCAI
Chinese-Standard-Mahjong competition baselines grew from; read at
``zhuozhiyongde/Fundamentals-of-Artificial-Intelligence-2024Spring-PKU``
``Homework/10-Mahjong/handout/code/feature.py``. This is an independent implementation of that
layout, not its code.

Each channel is 36 cells (tile ids 0..33 in the W1-9, T1-9, B1-9, F1-4, J1-3 order, then two
cells that are always 0) reshaped to 4 × 9: row 0 W1-W9, row 1 T1-T9, row 2 B1-B9, row 3
F1 F2 F3 F4 J1 J2 J3 and two empty cells.

* channel 0, seat wind (门风): 1 at the seat's wind tile. The baseline uses the Botzone seat
  index, which is the seat wind because Botzone's seat 0 always deals; here it is the seat wind
  (``(seat - dealer) % 4``), the same thing in the botzone profile.
* channel 1, prevalent wind (圈风): 1 at the prevalent wind's tile.
* channels 2-5, hand: channel 2 + k is 1 where the seat holds at least k + 1 copies. Like the
  baseline, the hand includes the drawn tile on a draw turn (14 tiles), and the claimed tiles
  are gone after an own chow / pung / kong.

The baseline keeps float64 numpy arrays; this encoder returns float32 (cast if a model needs
float64). The mask is not part of the observation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import numpy as np
import numpy.typing as npt

from mjenv.encoders.base import ChannelRow, SeatEncoder
from mjenv.tiles import EAST, NUM_KINDS

if TYPE_CHECKING:
    from mjenv.engine.seat_view import SeatView

CELLS = 36
OBS_SIZE = 6
SEAT_WIND, PREVALENT_WIND, HAND = 0, 1, 2

_GE = tuple(bytes(int(c > k) for c in range(256)) for k in range(4))
"""``bytes.translate`` tables: count -> 1 if count >= k + 1 else 0."""


class IjcaiEncoder(SeatEncoder):
    """``ijcai-v1``; see the module docstring."""

    name: ClassVar[str] = "ijcai-v1"
    shape: ClassVar[tuple[int, ...]] = (OBS_SIZE, 4, 9)
    dtype: ClassVar[np.dtype[np.generic]] = np.dtype(np.float32)
    low: ClassVar[float] = 0.0
    high: ClassVar[float] = 1.0

    @classmethod
    def channels(cls) -> list[ChannelRow]:
        grid = ("each channel is 4 × 9: rows W1-9, T1-9, B1-9, then F1-F4 J1-J3 and two "
                "empty cells")
        return [
            ("0", "seat_wind", f"1 at the seat wind's tile (F1-F4); {grid}"),
            ("1", "prevalent_wind", "1 at the prevalent wind's tile (F1-F4)"),
            ("2-5", "hand", "own standing tiles (the drawn tile included) as count planes: "
             "channel 2 + k is 1 where the count is >= k + 1"),
        ]

    def encode(self, view: SeatView, mask: npt.NDArray[np.int8]) -> npt.NDArray[np.float32]:
        buf = bytearray(OBS_SIZE * CELLS)
        buf[SEAT_WIND * CELLS + EAST + view.seat_wind] = 1
        buf[PREVALENT_WIND * CELLS + EAST + view.prevalent_wind] = 1
        hand = bytes(view.hand)
        for k in range(4):
            b = (HAND + k) * CELLS
            buf[b:b + NUM_KINDS] = hand.translate(_GE[k])
        return np.frombuffer(buf, dtype=np.uint8).astype(np.float32).reshape(self.shape)

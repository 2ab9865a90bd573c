"""``oracle-v1``: perfect information for oracle-guided training, (38, 34) float32.

The one named exception to the no-leak rule: it reads the :class:`~mjenv.engine.game.Game`
itself (every hand, the concealed kongs, the wall), so the env adds it to an observation only
under ``oracle=True``, as a separate key, never mixed into the seat's observation. Seats are
relative to the observer (self, next, opposite, previous), as in ``mjenv-v1``; the planes are
over the 34 tile kinds and the last row holds scalars.

The next tiles depend on the wall layout: with the shared wall (the mcr profile) they are the
next 8 draws from the head and the next 4 replacements from the tail; with per-seat walls
(the botzone profile, each seat drawing from the end of its own part) they are the next 3
tiles of each relative seat's part. A flower leaves its plane empty and sets its scalar flag.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import numpy as np
import numpy.typing as npt

from mjenv.encoders.base import ChannelRow, OracleEncoder
from mjenv.engine.rules import MCR, RuleConfig
from mjenv.engine.wall import SeatWalls
from mjenv.melds import CONCEALED_KONG
from mjenv.tiles import FLOWER_BASE, NUM_KINDS

if TYPE_CHECKING:
    from mjenv.engine.game import Game

T = NUM_KINDS
REL_NAMES = ("self", "next", "opposite", "previous")

HANDS = 0  # 4 seats x 4 count planes
CONCEALED_KONGS = 16  # 4
WAITS = 20  # 4
WALL = 24
NEXT = 25  # 12
NUM_NEXT = 12
HEAD_DRAWS, TAIL_DRAWS = 8, 4
PART_DRAWS = 3
SCALARS = NEXT + NUM_NEXT  # 37
NUM_CHANNELS = SCALARS + 1  # 38
S_NEXT_FLOWER = 0  # 12 flags
S_FLOWERS_LEFT = 12
S_WALL_LEFT = 13

_GE = tuple(bytes(int(c > k) for c in range(256)) for k in range(4))
"""``bytes.translate`` tables: count -> 1 if count >= k + 1 else 0."""


class OracleV1(OracleEncoder):
    """``oracle-v1``; see the module docstring."""

    name: ClassVar[str] = "oracle-v1"
    shape: ClassVar[tuple[int, ...]] = (NUM_CHANNELS, T)
    dtype: ClassVar[np.dtype[np.generic]] = np.dtype(np.float32)
    low: ClassVar[float] = 0.0
    high: ClassVar[float] = 1.0

    @classmethod
    def channels(cls) -> list[ChannelRow]:
        rows: list[ChannelRow] = []
        for r, who in enumerate(REL_NAMES):
            b = HANDS + 4 * r
            rows.append((f"{b}-{b + 3}", f"hand_{who}",
                         f"{who}: its standing tiles as count planes (plane k: count >= k + 1)"))
        for r, who in enumerate(REL_NAMES):
            rows.append((str(CONCEALED_KONGS + r), f"concealed_kongs_{who}",
                         f"{who}: the tiles of its concealed kongs (1 at the tile)"))
        for r, who in enumerate(REL_NAMES):
            rows.append((str(WAITS + r), f"waits_{who}",
                         f"{who}: the kinds that complete the shape of its last 13-tile hand "
                         "(the engine's cached waits, fans not checked)"))
        rows.append((str(WALL), "wall", "tiles left in the wall per kind / 4"))
        rows.append((f"{NEXT}-{NEXT + NUM_NEXT - 1}", "next_tiles",
                     f"one-hot planes: shared wall, planes {NEXT}-{NEXT + HEAD_DRAWS - 1} the "
                     f"next {HEAD_DRAWS} draws from the head in order and planes "
                     f"{NEXT + HEAD_DRAWS}-{NEXT + NUM_NEXT - 1} the next {TAIL_DRAWS} "
                     f"replacements from the tail; per-seat walls, planes {NEXT} + "
                     f"{PART_DRAWS}r .. +{PART_DRAWS - 1} the next {PART_DRAWS} tiles of "
                     "relative seat r's part; an empty plane: a flower (see the flags) or no "
                     "tile left"))
        rows.append((str(SCALARS), "scalars",
                     f"scalars (row {SCALARS}, by position): {S_NEXT_FLOWER}-"
                     f"{S_NEXT_FLOWER + NUM_NEXT - 1} 1 where that next-tile plane is a flower; "
                     f"{S_FLOWERS_LEFT} flowers left in the wall / 8; {S_WALL_LEFT} tiles left "
                     "in the wall / wall size"))
        return rows

    def __init__(self, rules: RuleConfig = MCR) -> None:
        super().__init__(rules)
        scale = np.ones((NUM_CHANNELS, T), dtype=np.float32)
        scale[WALL] = 0.25
        scale[SCALARS, S_FLOWERS_LEFT] = 1 / 8
        scale[SCALARS, S_WALL_LEFT] = 1 / rules.num_tiles
        self._scale = scale

    def encode(self, game: Game, seat: int) -> npt.NDArray[np.float32]:
        buf = bytearray(NUM_CHANNELS * T)  # integer counts, times self._scale at the end
        for r in range(4):
            s = (seat + r) % 4
            counts = bytes(game.hands[s])
            hb = (HANDS + 4 * r) * T
            for k in range(4):
                buf[hb + k * T:hb + (k + 1) * T] = counts.translate(_GE[k])
            kb = (CONCEALED_KONGS + r) * T
            for m in game.melds[s]:
                if m.kind == CONCEALED_KONG:
                    buf[kb + m.tiles[0]] = 1
            wb = (WAITS + r) * T
            for t in game.waiting_tiles(s):
                buf[wb + t] = 1

        sb = SCALARS * T
        wall = game.wall
        rest = wall.remaining_tiles()
        if rest:
            kinds = np.bincount(rest, minlength=FLOWER_BASE + 8)
            buf[WALL * T:(WALL + 1) * T] = kinds[:T].astype(np.uint8).tobytes()
            buf[sb + S_FLOWERS_LEFT] = int(kinds[FLOWER_BASE:].sum())
        buf[sb + S_WALL_LEFT] = len(rest)
        nxt: list[int] = []
        if isinstance(wall, SeatWalls):
            tiles, part = wall.tiles, wall.part
            for r in range(4):
                s = (seat + r) % 4
                lo = part * s
                end = lo + wall.left(s)
                got = [tiles[end - 1 - i] for i in range(PART_DRAWS) if end - 1 - i >= lo]
                nxt.extend(got + [-1] * (PART_DRAWS - len(got)))
        else:
            nxt.extend(rest[:HEAD_DRAWS])
            nxt.extend([-1] * (HEAD_DRAWS - len(nxt)))
            nxt.extend(rest[::-1][:TAIL_DRAWS])
        for i, t in enumerate(nxt):
            if t < 0:
                continue
            if t < FLOWER_BASE:
                buf[(NEXT + i) * T + t] = 1
            else:
                buf[sb + S_NEXT_FLOWER + i] = 1
        counts_all = np.frombuffer(buf, dtype=np.uint8).reshape(NUM_CHANNELS, T)
        return np.multiply(counts_all, self._scale, dtype=np.float32)

"""Decode an ``mjenv-v1`` observation back into plain Python facts.

Agents see only the ``(86, 34)`` float32 observation of their seat and its 235-action mask;
:func:`read_observation` turns the observation into a :class:`Facts` of ints, lists and strings
(the layout constants are those of :mod:`mjenv.encoders.default`, its public layout). Seats are
*relative* to the observer throughout: 0 self, 1 next (下家), 2 opposite, 3 previous (上家).

What cannot be recovered exactly:

* ``melds``: the encoder keeps no declaration order, so the melds of each seat come sorted by
  kind (chows, pungs, kongs, added kongs, concealed kongs), then by tile. Chows are a count plane
  and are decoded greedily from the lowest tile, which is exact for every set of chows (a count
  vector of chows has one decomposition when every chow is read off its lowest tile). Another
  seat's concealed kong whose tile is still hidden is not in ``melds`` but counted in
  ``hidden_kongs`` (``meld_count`` counts it).
* ``tiles_left`` is a fraction of the wall size (144 with flowers, 136 without), which the
  observation does not state: give ``num_tiles``, or it is inferred — 136 when a per-seat wall
  part is shown (the botzone profile: its parts sum to the tiles left) or when the wall is
  empty and no flower was ever shown (an empty 144-tile wall has shown all 8), else 144 (the
  mcr profile). Exact for both profiles; a custom profile with 136 tiles and a shared wall
  needs ``num_tiles=136`` (``tiles_left`` is 0 at an empty wall whatever the size).
* ``river_len`` (an extra beyond the discard counts) is capped at 32.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from mjenv.actions import (
    ADDED_KONG_BASE,
    CHOW_BASE,
    CONCEALED_KONG_BASE,
    DISCARD_BASE,
    KONG_BASE,
    NUM_ACTIONS,
    PASS,
    PUNG_BASE,
    WIN,
    decode_chow,
)
from mjenv.actions import chow as chow_action
from mjenv.encoders.default import (
    D_AFTER_CLAIM,
    D_CLAIM,
    D_DRAW,
    D_ROB,
    DECISION_TILE,
    DRAWN,
    HAND,
    LAST_K,
    M_ADDED_KONG,
    M_CHOW,
    M_CONCEALED_KONG,
    M_KONG,
    M_PUNG,
    MELD_PLANES,
    MELDS,
    NUM_CHANNELS,
    PREVALENT_WIND,
    R_CLAIMED,
    R_COUNT,
    RIVER,
    RIVER_LEN_SCALE,
    RIVER_PLANES,
    S_DEALER,
    S_FLOWERS,
    S_HIDDEN_KONGS,
    S_KIND,
    S_MELD_COUNT,
    S_OFFERER,
    S_OVER,
    S_PART_LEFT,
    S_RIVER_LEN,
    S_TILES_LEFT,
    S_WIN_LEGAL,
    SCALARS,
    SEAT_WIND,
    UNSEEN,
)
from mjenv.tiles import EAST, NUM_KINDS

T = NUM_KINDS
DECISIONS: tuple[str, ...] = ("draw", "after_claim", "claim", "rob")
"""Decision kinds by their scalar position (``S_KIND + D_*``); ``"none"`` when not asked."""
assert (D_DRAW, D_AFTER_CLAIM, D_CLAIM, D_ROB) == (0, 1, 2, 3)

CHOW, PUNG, KONG, ADDED_KONG, CONCEALED_KONG = (
    "chow", "pung", "kong", "added_kong", "concealed_kong")
_SINGLE_KINDS = ((M_PUNG, PUNG), (M_KONG, KONG), (M_ADDED_KONG, ADDED_KONG),
                 (M_CONCEALED_KONG, CONCEALED_KONG))

# rows holding counts / 4 (decoded as round(value * 4)); every other tile plane is 0/1
_RIVER_ROWS = [RIVER + r * RIVER_PLANES for r in range(4)]
_COUNT_ROWS = [b + R_COUNT for b in _RIVER_ROWS]
_CLAIMED_ROWS = [b + R_CLAIMED for b in _RIVER_ROWS]


@dataclass(slots=True)
class Facts:
    """What one observation says, as plain Python (seats relative: 0 self .. 3 previous)."""

    hand: list[int]
    """34 counts of the own standing tiles, the drawn tile included."""
    drawn: int
    """The tile just drawn while this seat is to act on it, else -1."""
    decision_tile: int
    """The drawn tile (own draw turn), or the discard / added-kong tile that may be claimed or
    robbed; -1 after an own chow or pung and when not asked."""
    decision: str
    """``"draw"``, ``"after_claim"`` (discard after an own chow or pung), ``"claim"`` (a
    discard may be claimed), ``"rob"`` (an added kong may be robbed) or ``"none"``."""
    offerer: int
    """For a claim or a robbery, the relative seat (1..3) of the discarder / kong declarer;
    else -1."""
    seat_wind: int
    """Own seat wind, 0 East .. 3 North."""
    prevalent_wind: int
    unseen: list[int]
    """34 counts: copies this seat has not seen (not in its hand, melds, any face-up meld or
    any discard)."""
    melds: list[list[tuple[str, int]]]
    """Per relative seat, (kind, first tile) of each meld whose tile is known; see the module
    docstring for the order."""
    hidden_kongs: list[int]
    """Per relative seat, concealed kongs whose tile is hidden from this seat (self: 0)."""
    discards: list[list[int]]
    """Per relative seat, 34 counts of every tile it has discarded (claimed ones included)."""
    claimed: list[list[int]]
    """Per relative seat, 34 counts of its discards that were claimed (chow, pung, kong, win)."""
    last_discards: list[list[int]]
    """Per relative seat, its up to 8 most recent discards, most recent first."""
    tiles_left: int
    """Tiles left in the wall (see the module docstring for the wall size)."""
    flowers: list[int]
    """Per relative seat, the flowers it has exposed."""
    win_legal: bool
    dealer: int
    """The dealer's relative seat."""
    over: bool
    meld_count: list[int]
    """Per relative seat, its melds (hidden concealed kongs included)."""
    # ---- extras
    num_tiles: int = 144
    """The wall size used for ``tiles_left`` (given or inferred)."""
    river_len: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    """Per relative seat, how many tiles it has discarded (capped at 32)."""
    part_left: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    """Per relative seat, tiles left in its part of a per-seat wall (botzone); 0 otherwise."""
    legal: list[int] = field(default_factory=list)
    """The legal action ids, when ``read_observation`` was given the mask (else empty)."""

    @property
    def n_melds(self) -> int:
        """Own melds (what the shanten functions take with the standing tiles)."""
        return self.meld_count[0]


class _Rows:
    """``rows[i]``: row ``i`` of a flat (channels x 34) uint8 buffer, as bytes."""

    __slots__ = ("buf",)

    def __init__(self, buf: bytes) -> None:
        self.buf = buf

    def __getitem__(self, i: int) -> bytes:
        return self.buf[i * T:i * T + T]


def _hot(row: bytes) -> int:
    """The index of a one-hot row of integers (4 for a 1), or -1 when it is all zero."""
    return row.find(4)


def _hot_scalar(sc: list[float], at: int, n: int) -> int:
    for i in range(n):
        if sc[at + i] > 0.5:
            return i
    return -1


def _chows(counts: bytes | list[int]) -> list[tuple[str, int]]:
    """Chows from their count plane, greedily from the lowest tile."""
    out: list[tuple[str, int]] = []
    c = list(counts)
    for t in range(27):
        n = c[t]
        if n <= 0:
            continue
        if t % 9 > 6 or c[t + 1] < n or c[t + 2] < n:
            raise ValueError(f"the chow plane {list(counts)} is not a set of chows")
        c[t + 1] -= n
        c[t + 2] -= n
        out.extend([(CHOW, t)] * n)
    return out


def read_observation(obs: npt.NDArray[np.floating], mask: npt.NDArray[np.integer] | None = None,
                     num_tiles: int | None = None) -> Facts:
    """The facts an ``mjenv-v1`` observation holds (see :class:`Facts`). ``mask`` (the 235
    legal-action mask) fills ``legal`` and overrides ``win_legal``; ``num_tiles`` (144 or 136)
    is the wall size, inferred when None (see the module docstring)."""
    o = np.asarray(obs)
    if o.shape != (NUM_CHANNELS, T):
        raise ValueError(f"an mjenv-v1 observation is ({NUM_CHANNELS}, {T}), got {o.shape}")
    # every tile-plane cell as an integer: a count (planes of count / 4) or 4 (a 1 of a 0/1
    # plane); one conversion, then plain Python
    buf = (o[:SCALARS] * 4 + 0.5).astype(np.uint8).tobytes()
    q = _Rows(buf)  # rows as bytes, sliced when read
    sc: list[float] = o[SCALARS].astype(np.float64).tolist()

    planes = zip(q[HAND], q[HAND + 1], q[HAND + 2], q[HAND + 3], strict=True)
    hand = [(a + b + c + d) >> 2 for a, b, c, d in planes]
    drawn = _hot(q[DRAWN])
    decision_tile = _hot(q[DECISION_TILE])
    kind = _hot_scalar(sc, S_KIND, 4)
    decision = DECISIONS[kind] if kind >= 0 else "none"
    off = _hot_scalar(sc, S_OFFERER, 3)
    offerer = off + 1 if off >= 0 else -1
    seat_wind = _hot(q[SEAT_WIND]) - EAST
    prevalent_wind = _hot(q[PREVALENT_WIND]) - EAST
    unseen = list(q[UNSEEN])

    hidden_kongs = [round(sc[S_HIDDEN_KONGS + r] * 4) for r in range(4)]
    meld_count = [round(sc[S_MELD_COUNT + r] * 4) for r in range(4)]
    flowers = [round(sc[S_FLOWERS + r] * 8) for r in range(4)]
    river_len = [round(sc[S_RIVER_LEN + r] * RIVER_LEN_SCALE) for r in range(4)]

    part = sc[S_PART_LEFT:S_PART_LEFT + 4]
    if num_tiles is None:
        # per-seat parts sum to the tiles left; an empty shared wall of 144 shows 8 flowers
        empty_without_flowers = sc[S_TILES_LEFT] == 0 and not any(flowers)
        num_tiles = 136 if any(part) or empty_without_flowers else 144
    elif num_tiles not in (136, 144):
        raise ValueError(f"num_tiles must be 136 or 144, got {num_tiles!r}")
    tiles_left = round(sc[S_TILES_LEFT] * num_tiles)
    part_left = [round(x * (num_tiles // 4)) for x in part]

    melds: list[list[tuple[str, int]]] = []
    for r in range(4):
        if meld_count[r] == 0:
            melds.append([])
            continue
        mb = MELDS + r * MELD_PLANES
        ms = _chows(q[mb + M_CHOW])
        for plane, name in _SINGLE_KINDS:
            row = q[mb + plane]
            if any(row):
                ms.extend((name, t) for t in range(T) if row[t])
        melds.append(ms)

    discards = [list(q[i]) for i in _COUNT_ROWS]
    claimed = [list(q[i]) for i in _CLAIMED_ROWS]
    last_discards: list[list[int]] = []
    for b in _RIVER_ROWS:
        recent: list[int] = []
        for k in range(LAST_K):
            t = _hot(q[b + k])
            if t < 0:
                break
            recent.append(t)
        last_discards.append(recent)

    legal: list[int] = []
    win_legal = sc[S_WIN_LEGAL] > 0.5
    if mask is not None:
        legal = np.flatnonzero(mask).tolist()
        win_legal = bool(mask[1])

    return Facts(
        hand=hand, drawn=drawn, decision_tile=decision_tile, decision=decision,
        offerer=offerer, seat_wind=seat_wind, prevalent_wind=prevalent_wind, unseen=unseen,
        melds=melds, hidden_kongs=hidden_kongs, discards=discards, claimed=claimed,
        last_discards=last_discards, tiles_left=tiles_left, flowers=flowers,
        win_legal=win_legal, dealer=_hot_scalar(sc, S_DEALER, 4),
        over=sc[S_OVER] > 0.5, meld_count=meld_count, num_tiles=num_tiles,
        river_len=river_len, part_left=part_left, legal=legal,
    )


# ---------------------------------------------------------------- the 235-action layout
# re-exported for the agents (mjenv.actions is the public layout shared with Botzone / IJCAI)
__all__ = ["ADDED_KONG_BASE", "CHOW_BASE", "CONCEALED_KONG_BASE", "DISCARD_BASE", "KONG_BASE",
           "NUM_ACTIONS", "PASS", "PUNG_BASE", "WIN", "Facts", "chow_action", "decode_chow",
           "read_observation"]

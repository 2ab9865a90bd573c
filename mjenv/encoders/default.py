"""``mjenv-v1``: the default seat encoder, (86, 34) float32 planes over the 34 tile kinds.

Every plane is indexed by tile id (0..33: W1-9, T1-9, B1-9, F1-4, J1-3); the last row holds
scalars at fixed positions. Seats are relative to the observer: "self", "next" (下家, seat + 1),
"opposite" (对家, seat + 2), "previous" (上家, seat + 3). All values lie in [0, 1].

It reads only the seat's :class:`~mjenv.engine.seat_view.SeatView` and its legal-action mask,
so it shows exactly what the seat may know: another seat's concealed kong is a count (its tile
is hidden until the end), and neither another seat's hand nor the wall appears.

Every cell is an integer count times a fixed per-cell scale (1, 1/4, 1/8, 1/wall size, ...):
``encode`` joins the counts as bytes, plane by plane, and one numpy cast and multiply by the
precomputed scale array make the float32 observation: a new array per call of ``encode``, or
written into a given array by ``encode_into`` (a batch's row: no new array). Each seat's meld
planes and river planes are memoized: the encoder keeps the last block made for each seat with
what it was made from, and reuses it only when the view at hand holds the same content, so any
view (another seat's, a clone, a later one) gets exactly what computing afresh would give. A
meld block is keyed by a copy of the meld list; a river block by the river list itself and its
stamp (``SeatView.river_stamps``, which changes with the river and its two count arrays and
never comes back while the list lives). A river that grew by one
discard since its block was made (the commonest change) gets the old block with its
last-discard planes moved down by one (tests/encoders/test_default_memo.py checks both against
a fresh encoder).

The module is compiled with mypyc (setup.py); its constants are ``Final`` so that the compiled
``encode`` uses them as constants instead of looking them up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Final

import numpy as np
import numpy.typing as npt

from mjenv.actions import WIN
from mjenv.encoders.base import ChannelRow, SeatEncoder
from mjenv.engine.rules import MCR, RuleConfig
from mjenv.melds import ADDED_KONG, CHOW, CONCEALED_KONG, KONG, PUNG, Meld
from mjenv.tiles import EAST, NUM_KINDS

if TYPE_CHECKING:
    from mjenv.engine.seat_view import SeatView

T: Final = NUM_KINDS
REL_NAMES: Final = ("self", "next", "opposite", "previous")

# ---------------------------------------------------------------- layout (first-axis index)
HAND: Final = 0  # 4 planes: count >= 1 .. >= 4
DRAWN: Final = 4
DECISION_TILE: Final = 5
SEAT_WIND: Final = 6
PREVALENT_WIND: Final = 7
UNSEEN: Final = 8
MELDS: Final = 9
MELD_PLANES: Final = 8
M_CHOW: Final = 0
M_PUNG: Final = 1
M_KONG: Final = 2
M_ADDED_KONG: Final = 3
M_CONCEALED_KONG: Final = 4
M_FROM: Final = 5  # FROM: 5..7
RIVER: Final = MELDS + 4 * MELD_PLANES  # 41
LAST_K: Final = 8
"""The most recent discards kept as one-hot planes, per player."""
EARLY_N: Final = 6
"""The first discards counted in the "early discards" plane."""
RIVER_PLANES: Final = LAST_K + 3
R_COUNT: Final = LAST_K
R_CLAIMED: Final = LAST_K + 1
R_EARLY: Final = LAST_K + 2
SCALARS: Final = RIVER + 4 * RIVER_PLANES  # 85
NUM_CHANNELS: Final = SCALARS + 1  # 86

# positions in the scalar row
S_DEALER: Final = 0  # 4: dealer's relative seat, one-hot
S_FLOWERS: Final = 4  # 4: flowers / 8
S_HIDDEN_KONGS: Final = 8  # 4: hidden concealed kongs / 4
S_TILES_LEFT: Final = 12
S_PART_LEFT: Final = 13  # 4: per-seat wall part left (per_seat layout only)
S_KIND: Final = 17  # 4: decision kind one-hot
D_DRAW: Final = 0
D_AFTER_CLAIM: Final = 1
D_CLAIM: Final = 2
D_ROB: Final = 3
S_OFFERER: Final = 21  # 3: relative seat of the discarder / kong declarer (next, opp., prev.)
S_WIN_LEGAL: Final = 24
S_OVER: Final = 25
S_RIVER_LEN: Final = 26  # 4: river length / 32 (capped)
S_MELD_COUNT: Final = 30  # 4: melds / 4
RIVER_LEN_SCALE: Final = 32

# offsets in the flat (NUM_CHANNELS * T) buffer that ``encode`` fills
_SIZE: Final = NUM_CHANNELS * T
_KIND_PLANE: Final = {CHOW: M_CHOW * T, PUNG: M_PUNG * T, KONG: M_KONG * T,
                      ADDED_KONG: M_ADDED_KONG * T, CONCEALED_KONG: M_CONCEALED_KONG * T}
_FROM_AT: Final = (-1, M_FROM * T, (M_FROM + 1) * T, (M_FROM + 2) * T)  # by from_offset 1..3
_MELD_AT: Final = tuple((MELDS + r * MELD_PLANES) * T for r in range(4))
_RIVER_AT: Final = tuple((RIVER + r * RIVER_PLANES) * T for r in range(4))
_COUNT_OFF: Final = R_COUNT * T
_CLAIMED_OFF: Final = R_CLAIMED * T
_EARLY_OFF: Final = R_EARLY * T
_SEAT_WIND_AT: Final = SEAT_WIND * T + EAST
_PREVALENT_AT: Final = PREVALENT_WIND * T + EAST
_SCALAR_BASE: Final = SCALARS * T
_GE0: Final = bytes(int(c > 0) for c in range(256))
"""``bytes.translate`` tables: count -> 1 if count >= k + 1 else 0 (k = 0 .. 3)."""
_GE1: Final = bytes(int(c > 1) for c in range(256))
_GE2: Final = bytes(int(c > 2) for c in range(256))
_GE3: Final = bytes(int(c > 3) for c in range(256))
_U8: Final = np.dtype(np.uint8)
_F32: Final = np.dtype(np.float32)
_ndarray: Final = np.ndarray
_multiply: Final = np.multiply
_SHAPE: Final = (NUM_CHANNELS, T)
_RiverMemo = tuple[list[int], int, int, bytes, int]
"""A river block with what it was made from: (the view's river list itself, its stamp then, its
length then, planes, length scalar). Holding the list keeps its identity from being reused."""
_MELD_PART: Final = MELDS
"""Where the four meld blocks are in ``encode``'s list of rows (one entry a block), ..."""
_RIVER_PART: Final = _MELD_PART + 4
"""... and the four river blocks."""
_SHIFTED: Final = (LAST_K - 1) * T
"""The last-discard planes that one more discard moves down by one plane."""


def _row(first: int, n: int, name: str, desc: str) -> ChannelRow:
    return (str(first) if n == 1 else f"{first}-{first + n - 1}", name, desc)


class DefaultEncoder(SeatEncoder):
    """``mjenv-v1``; see the module docstring and :meth:`channels`."""

    name: ClassVar[str] = "mjenv-v1"
    shape: ClassVar[tuple[int, ...]] = (NUM_CHANNELS, T)
    dtype: ClassVar[np.dtype[np.generic]] = np.dtype(np.float32)
    low: ClassVar[float] = 0.0
    high: ClassVar[float] = 1.0
    count_channels: ClassVar[int] = NUM_CHANNELS  # every cell a count times its scale

    @classmethod
    def channels(cls) -> list[ChannelRow]:
        rows: list[ChannelRow] = [
            _row(HAND, 4, "hand", "own standing tiles (the drawn tile included) as count "
                 "planes: plane k is 1 where the count is >= k + 1"),
            _row(DRAWN, 1, "drawn", "the tile just drawn, while this seat is to act on the "
                 "draw (one-hot; zero otherwise)"),
            _row(DECISION_TILE, 1, "decision_tile", "the tile of the decision at hand: the "
                 "drawn tile (own draw turn), or the discard / added-kong tile that may be "
                 "claimed or robbed; zero after an own chow or pung and when not asked"),
            _row(SEAT_WIND, 1, "seat_wind", "own seat wind, one-hot on its wind tile (F1-F4)"),
            _row(PREVALENT_WIND, 1, "prevalent_wind",
                 "the prevalent wind, one-hot on its wind tile (F1-F4)"),
            _row(UNSEEN, 1, "unseen", "copies of each kind this seat has not seen / 4 "
                 "(4 minus own hand, every face-up meld tile and every discard)"),
        ]
        for r, who in enumerate(REL_NAMES):
            b = MELDS + r * MELD_PLANES
            rows += [
                _row(b + M_CHOW, 1, f"melds_{who}_chow",
                     f"{who}: tiles of its chows, count / 4 (a kind can be in several)"),
                _row(b + M_PUNG, 1, f"melds_{who}_pung", f"{who}: its pungs (1 at the tile)"),
                _row(b + M_KONG, 1, f"melds_{who}_kong",
                     f"{who}: its exposed kongs claimed from a discard (明杠)"),
                _row(b + M_ADDED_KONG, 1, f"melds_{who}_added_kong",
                     f"{who}: its added kongs (加杠; shown once the replacement draw shows it "
                     "was not robbed)"),
                _row(b + M_CONCEALED_KONG, 1, f"melds_{who}_concealed_kong",
                     f"{who}: its concealed kongs whose tile is known (always for self; for "
                     "another seat only once revealed at the end, else counted in scalar "
                     f"{S_HIDDEN_KONGS + r})"),
            ]
            for o, sup in ((1, "its next"), (2, "its opposite"), (3, "its previous")):
                rows.append(_row(b + M_FROM + o - 1, 1, f"melds_{who}_from_{o}",
                                 f"{who}: claimed tiles of its melds supplied by {sup} seat "
                                 f"(meld from_offset {o}), count / 4"))
        for r, who in enumerate(REL_NAMES):
            b = RIVER + r * RIVER_PLANES
            rows += [
                _row(b, LAST_K, f"river_{who}_last",
                     f"{who}: its last {LAST_K} discards in order, one-hot; plane {b} is the "
                     f"most recent, plane {b + LAST_K - 1} the {LAST_K}th most recent (zero "
                     "when it has discarded fewer)"),
                _row(b + R_COUNT, 1, f"river_{who}_count",
                     f"{who}: every tile it has discarded (claimed ones included), count / 4"),
                _row(b + R_CLAIMED, 1, f"river_{who}_claimed",
                     f"{who}: its discards that were claimed (chow, pung, kong or a win), "
                     "count / 4"),
                _row(b + R_EARLY, 1, f"river_{who}_early",
                     f"{who}: its first {EARLY_N} discards, count / 4"),
            ]
        s = f"scalars (row {SCALARS}, by position): "
        rows.append((str(SCALARS), "scalars", s + "; ".join([
            f"{S_DEALER}-{S_DEALER + 3} the dealer's relative seat (self, next, opposite, "
            "previous), one-hot",
            f"{S_FLOWERS}-{S_FLOWERS + 3} flowers of each relative seat / 8",
            f"{S_HIDDEN_KONGS}-{S_HIDDEN_KONGS + 3} concealed kongs of each relative seat whose "
            "tile is hidden from this seat, / 4 (self is always 0)",
            f"{S_TILES_LEFT} tiles left in the wall / wall size (144 or 136)",
            f"{S_PART_LEFT}-{S_PART_LEFT + 3} tiles left in each relative seat's part of a "
            "per-seat wall (botzone profile) / (wall size / 4); 0 with the shared wall",
            f"{S_KIND}-{S_KIND + 3} the decision at hand, one-hot: own draw turn, discard after "
            "own chow or pung, claim on a discard, robbing an added kong (all 0 when the mask "
            "is empty)",
            f"{S_OFFERER}-{S_OFFERER + 2} for a claim or a robbery, the relative seat of the "
            "discarder or kong declarer (next, opposite, previous), one-hot",
            f"{S_WIN_LEGAL} the mask's Win bit",
            f"{S_OVER} 1 once the hand is over",
            f"{S_RIVER_LEN}-{S_RIVER_LEN + 3} discards of each relative seat / "
            f"{RIVER_LEN_SCALE} (capped at 1)",
            f"{S_MELD_COUNT}-{S_MELD_COUNT + 3} melds of each relative seat / 4",
        ])))
        return rows

    def __init__(self, rules: RuleConfig = MCR) -> None:
        super().__init__(rules)
        self._scale = _scale_array(rules.num_tiles)
        self._per_seat = rules.wall_layout == "per_seat"
        # the last meld block / river block made for each seat (melds: two slots, the seat's
        # own view and the others', which differ by its hidden concealed kongs), reused when
        # the same content comes again (from any view: melds keyed by content, rivers by the
        # river list and its stamp)
        self._meld_memo: list[tuple[list[Meld], bytes, int, int] | None] = [None] * 8
        self._river_memo: list[_RiverMemo | None] = [None] * 4
        # what the memos' entries hold and the next encoding reads, in one list for a batch
        # to prefetch (state_lists): the meld blocks (0-7) and their keys (8-15), the river
        # blocks (16-19)
        self._memo_parts: list[object] = [None] * 20

    def state_objects(self) -> list[object]:
        return [self, self._meld_memo, self._river_memo, self._memo_parts]

    def state_lists(self) -> list[list[Any]]:
        return [self._meld_memo, self._river_memo, self._memo_parts]

    def encode(self, view: SeatView, mask: npt.NDArray[np.int8]) -> npt.NDArray[np.float32]:
        out: npt.NDArray[np.float32] = _ndarray(_SHAPE, _U8, self._counts(view, mask)).astype(_F32)
        _multiply(out, self._scale, out=out)
        return out

    def encode_into(self, view: SeatView, mask: npt.NDArray[np.int8],
                    out: npt.NDArray[np.generic]) -> None:
        # the counts times the scales, cast to float32 by the multiply itself (exact: the counts
        # are small integers), straight into ``out``
        _multiply(_ndarray(_SHAPE, _U8, self._counts(view, mask)), self._scale, out=out)

    def counts(self, view: SeatView, mask: npt.NDArray[np.int8]) -> bytes:
        return self._counts(view, mask)

    def count_scale(self) -> npt.NDArray[np.float32]:
        return self._scale

    def _counts(self, view: SeatView, mask: npt.NDArray[np.int8]) -> bytes:
        """The observation's integer counts, row by row, as bytes (see the module docstring)."""
        me = view.seat
        hand = bytes(view.hand)
        drawn = view.drawn
        sc = bytearray(T)  # the scalar row (integer counts; see __init__ for the scales)
        sc[S_DEALER + (view.dealer - me) % 4] = 1
        # the rows in order, joined at the end: the meld and river blocks (4 each, by relative
        # seat), the decision tile and the scalar row are filled in below
        parts: list[bytes | bytearray] = [
            hand.translate(_GE0), hand.translate(_GE1), hand.translate(_GE2),
            hand.translate(_GE3), _ONE_HOT[drawn] if drawn >= 0 else _ZERO_PLANE,
            _ZERO_PLANE, _ONE_HOT[EAST + view.seat_wind], _ONE_HOT[EAST + view.prevalent_wind],
            bytes(view.unseen),
            _ZERO_MELD_BLOCK, _ZERO_MELD_BLOCK, _ZERO_MELD_BLOCK, _ZERO_MELD_BLOCK,
            _ZERO_RIVER_BLOCK, _ZERO_RIVER_BLOCK, _ZERO_RIVER_BLOCK, _ZERO_RIVER_BLOCK, sc]
        all_melds, rivers, flowers, stamps = view.melds, view.river, view.flowers, \
            view.river_stamps
        meld_memo, river_memo, memo_parts = self._meld_memo, self._river_memo, self._memo_parts
        for r in range(4):
            s = (me + r) & 3
            # ---- melds: the block is a function of the meld list alone (memo by content)
            ms = all_melds[s]
            if ms:
                key = s + s if s == me else s + s + 1
                mm = meld_memo[key]
                if mm is None or ms != mm[0]:
                    mm = meld_memo[key] = _meld_block(ms)
                    memo_parts[key] = mm[1]
                    memo_parts[8 + key] = mm[0]
                parts[_MELD_PART + r] = mm[1]
                sc[S_HIDDEN_KONGS + r] = mm[2]
                sc[S_MELD_COUNT + r] = mm[3]
            # ---- river: a function of the river and its two count arrays, which have not
            # changed while the same list has the same stamp (SeatView.river_stamps)
            river = rivers[s]
            if river:
                rm = river_memo[s]
                stamp = stamps[s]
                if rm is None or rm[0] is not river or rm[1] != stamp:
                    rm = river_memo[s] = _river_block(river, stamp, view.river_counts[s],
                                                      view.claimed_counts[s], rm)
                    memo_parts[16 + s] = rm[3]
                parts[_RIVER_PART + r] = rm[3]
                sc[S_RIVER_LEN + r] = rm[4]
            # ---- per-seat scalars
            fl = flowers[s]
            if fl:
                sc[S_FLOWERS + r] = len(fl)
        if self._per_seat:
            for r in range(4):
                sc[S_PART_LEFT + r] = view.seat_tiles_left((me + r) & 3)

        sc[S_TILES_LEFT] = view.tiles_left
        if view.over:
            sc[S_OVER] = 1

        # ---- the decision at hand (nothing when this seat is not asked)
        bits = mask.tobytes() if mask.itemsize == 1 else mask.astype(np.int8).tobytes()
        if 1 in bits:
            if bits[WIN]:
                sc[S_WIN_LEGAL] = 1
            ct = view.claim_tile
            if ct >= 0 and view.claim_from != me:
                sc[S_KIND + (D_ROB if view.claim_rob else D_CLAIM)] = 1
                parts[DECISION_TILE] = _ONE_HOT[ct]
                sc[S_OFFERER + (view.claim_from - me) % 4 - 1] = 1
            elif drawn >= 0:
                sc[S_KIND + D_DRAW] = 1
                parts[DECISION_TILE] = _ONE_HOT[drawn]
            else:
                sc[S_KIND + D_AFTER_CLAIM] = 1

        return b"".join(parts)


_SCALES: Final[dict[int, npt.NDArray[np.float32]]] = {}
"""The scale arrays by wall size, shared by every encoder (read-only): a batch of a thousand
games has a thousand encoders, and one array each would crowd the cache that the multiply
reads it through."""


def _scale_array(num_tiles: int) -> npt.NDArray[np.float32]:
    """Every cell is an integer count times a fixed scale: the counts go to bytes, one numpy
    multiply by this array makes the float32 observation."""
    found = _SCALES.get(num_tiles)
    if found is not None:
        return found
    scale = np.ones((NUM_CHANNELS, T), dtype=np.float32)
    scale[UNSEEN] = 0.25
    for r in range(4):
        mb = MELDS + r * MELD_PLANES
        scale[mb + M_CHOW] = 0.25
        scale[mb + M_FROM:mb + M_FROM + 3] = 0.25
        rb = RIVER + r * RIVER_PLANES
        scale[rb + R_COUNT:rb + R_EARLY + 1] = 0.25
    sc = scale[SCALARS]
    sc[S_FLOWERS:S_FLOWERS + 4] = 1 / 8
    sc[S_HIDDEN_KONGS:S_HIDDEN_KONGS + 4] = 1 / 4
    sc[S_TILES_LEFT] = 1 / num_tiles
    sc[S_PART_LEFT:S_PART_LEFT + 4] = 4 / num_tiles
    sc[S_RIVER_LEN:S_RIVER_LEN + 4] = 1 / RIVER_LEN_SCALE
    sc[S_MELD_COUNT:S_MELD_COUNT + 4] = 1 / 4
    scale.flags.writeable = False
    _SCALES[num_tiles] = scale
    return scale


_ONE_HOT: Final = tuple(bytes(int(i == t) for i in range(T)) for t in range(T))
_ZERO_PLANE: Final = bytes(T)
_ZERO_MELD_BLOCK: Final = bytes(MELD_PLANES * T)
_ZERO_RIVER_BLOCK: Final = bytes(RIVER_PLANES * T)



def _meld_block(ms: list[Meld]) -> tuple[list[Meld], bytes, int, int]:
    """One seat's meld planes, its hidden concealed kongs and its meld count, with a copy of
    the list they were made from (melds are immutable, so the copy is the memo's key)."""
    block = bytearray(MELD_PLANES * T)
    hidden = 0
    for m in ms:
        kind = m.kind
        x = m.tiles[0]
        if kind == CHOW:
            block[x] += 1
            block[x + 1] += 1
            block[x + 2] += 1
        elif x < 0:  # another seat's concealed kong, tile hidden
            hidden += 1
            continue
        else:
            block[_KIND_PLANE[kind] + x] = 1
        fo = m.from_offset
        if fo is not None:
            got = m.claimed
            if got is not None:
                block[_FROM_AT[fo] + got] += 1
    return ms[:], bytes(block), hidden, len(ms)


def _river_block(river: list[int], stamp: int, counts: bytearray, claimed: bytearray,
                 prev: _RiverMemo | None) -> _RiverMemo:
    """One seat's river planes and its length scalar, with the river list, its stamp (the
    memo's key) and its length. The commonest change is one more discard: then the block is
    ``prev``'s with its last-discard planes moved down by one (a river only grows, and the
    first discards stay the first). The stamps tell it without comparing the lists: every
    change of a river moves its stamp on by one (SeatView.river_stamps), so the same list one
    stamp on and one tile longer is ``prev``'s river and a discard. Otherwise the block is
    written afresh into one zeroed block."""
    n = len(river)
    if prev is not None and prev[0] is river and stamp == prev[1] + 1 and n == prev[2] + 1:
        old = prev[3]
        block = b"".join((_ONE_HOT[river[-1]], old[:_SHIFTED], counts, claimed,
                          counts if n <= EARLY_N else old[_EARLY_OFF:]))
    else:
        fresh = bytearray(_ZERO_RIVER_BLOCK)
        at = 0  # plane i (the i-th most recent discard) starts at i * T
        for i in range(n - 1, n - 1 - LAST_K if n > LAST_K else -1, -1):
            fresh[at + river[i]] = 1
            at += T
        fresh[_COUNT_OFF:_COUNT_OFF + T] = counts
        fresh[_CLAIMED_OFF:_CLAIMED_OFF + T] = claimed
        if n <= EARLY_N:
            fresh[_EARLY_OFF:_EARLY_OFF + T] = counts
        else:
            for i in range(EARLY_N):
                fresh[_EARLY_OFF + river[i]] += 1
        block = bytes(fresh)
    return (river, stamp, n, block, n if n < RIVER_LEN_SCALE else RIVER_LEN_SCALE)

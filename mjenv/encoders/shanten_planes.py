"""The ``shanten-v1`` hand-analysis planes, computed from a seat's own facts with a memo.

A policy that sees only tiles must learn shanten (how far a hand is from ready) from data; these
15 planes over the 34 tile kinds hand it what the baseline agents compute with
:mod:`mjenv.shanten`. The layout is the one ``mjenv_agents.features`` has always produced for a
policy's ``features = "shanten-v1"`` (trained checkpoints depend on it, so it never changes
under this name):

==========  ===================================================================================
plane       content
==========  ===================================================================================
0           discard decisions: discarding this tile keeps the best shanten
1, 2        ... raises it by one / by two or more
3           ... unseen useful tiles after discarding it / 40 (tiles of plane 0 only)
4-8         the hand's shanten (after the best discard at a discard decision), one-hot over
            -1 (complete), 0 (ready), 1, 2, 3 or more, broadcast over all tiles
9           at a claim decision: unseen useful tiles of the hand now / 40, broadcast
10, 11      a legal pung of this tile lowers / keeps the shanten (after the best discard)
12, 13      a legal chow whose lowest tile is this one lowers / keeps it
14          at a claim decision: the tiles that would lower the hand's shanten
==========  ===================================================================================

A decision is a *discard decision* when the mask offers a discard, else a *claim decision*
(a claim window, a robbery, or no decision at all). Inputs are what the seat knows: its
standing tiles (34 counts), its meld count, its unseen counts and its legal-action mask.

Why a memo, and why a tiny one. Everything except the two "unseen" sums (planes 3 and 9) is a
function of the hand and the mask alone, so :class:`ShantenPlanes` keeps its last few analyses
(per hand: the shanten after each discard and the useful tiles; per claim: the shanten after it)
keyed by content, and the unseen sums are recomputed on every call since they change as tiles
show. What the memo catches is the same decision observed twice (PettingZoo's ``last()`` and
``observe()`` of one state) and a seat's 13 tiles met again at the next claim window. In random
play fresh hands dominate: 2-3 % of the analyses repeat, at a capacity of 128 as at 4. A large
memo costs more than it saves there: every entry outlives the collector's young generations, and
a batch of a thousand games keeps a thousand memos, so full collections came often enough to
take a fifth of a decision's time (mjenv.vector, N = 1,024: 66 µs a decision at 128 entries,
52-57 µs at 4; docs/vector-performance.md). The memo is cleared when full: a result never
depends on it.

The planes are made as counts, one byte a cell (:meth:`ShantenPlanes.counts`: 0 or 1, and the
unseen copies capped at 40 on planes 3 and 9), and are those counts divided by
:data:`PLANE_DIVISOR`: a batch of games (mjenv.vector) stages them with the ``mjenv-v1`` counts
and turns them into float32 in one numpy call a step, and :meth:`ShantenPlanes.fill` does the
same for one decision.

The analyses are :func:`mjenv.shanten.discard_outcome_masks` (a discard decision: the shanten
after each discard and the useful tiles after each best one, sharing the hand's work across
its discards) and :func:`mjenv.shanten.useful_counts` (a claim decision's hand). setup.py
compiles this module with mypyc, as the shanten module: the planes then take a tenth of the
instructions they took when each discard was analysed on its own (about 30 µs a decision in
random play instead of 250 µs).
"""

from __future__ import annotations

from typing import Final, TypeVar

import numpy as np
import numpy.typing as npt

from mjenv.actions import CHOW_BASE, DISCARD_BASE, NUM_ACTIONS, PUNG_BASE
from mjenv.shanten import discard_outcome_masks, shanten_counts, unseen_of_kinds, useful_counts
from mjenv.tiles import NUM_KINDS

T: Final = NUM_KINDS
NUM_PLANES: Final = 15
DISCARD_BEST: Final = 0
DISCARD_PLUS1: Final = 1
DISCARD_PLUS2: Final = 2
DISCARD_UKEIRE: Final = 3
LEVEL: Final = 4  # 5 planes: shanten -1, 0, 1, 2, >= 3
UKEIRE_NOW: Final = 9
PUNG_BETTER: Final = 10
PUNG_SAME: Final = 11
CHOW_BETTER: Final = 12
CHOW_SAME: Final = 13
USEFUL_NOW: Final = 14
UKEIRE_CAP: Final = 40
"""Planes 3 and 9 are unseen copies / 40, capped at 1: their count is capped at 40."""
MEMO_CAPACITY: Final = 4
"""Entries per memo table before it is cleared: about one per seat of the encoder's game (see
the module docstring for why not more)."""

_NO_TILES: Final = bytes(T)
_ROWS: Final = tuple(bytes((v,)) * T for v in range(UKEIRE_CAP + 1))
"""A plane of 34 equal counts, by count: the broadcast planes."""


def _divisor() -> npt.NDArray[np.float32]:
    divisor = np.ones((NUM_PLANES, T), dtype=np.float32)
    divisor[DISCARD_UKEIRE] = UKEIRE_CAP
    divisor[UKEIRE_NOW] = UKEIRE_CAP
    divisor.setflags(write=False)
    return divisor


PLANE_DIVISOR: Final = _divisor()
"""(15, 34) float32: the planes are :meth:`ShantenPlanes.counts` divided by these, cell by cell
(1 on the 0/1 planes, 40 on planes 3 and 9). A division, not a product with 1/40: the float32
quotient of a count by 40 is the value the planes have always had (the count / 40 in double,
rounded to float32) for every count from 0 to 40, where the product with float32(1/40) is one
bit off for 7 of them."""
_FLAT_DIVISOR: Final = PLANE_DIVISOR.reshape(-1)
_MELD_TAGS: Final = tuple(bytes((n,)) for n in range(5))
"""The meld count's byte, appended to a hand's counts to key the memo."""

K = TypeVar("K")
V = TypeVar("V")

Template = tuple[int, ...]
"""A discard decision's planes without the unseen sums, flat: the level row, the number n of
discards, the n flat indices set to 1, then for each discard keeping the best shanten its
tile and the useful tiles left (a kind mask: kind t at bit t). Flat tuples of integers, and
memo keys of bytes, because memo entries outlive the collector's young generation: the fewer
objects they hold, the less its passes walk (a batch of games keeps a memo per game)."""


def _level_row(shanten: int) -> int:
    return LEVEL + min(max(shanten, -1), 3) + 1


def _chow_tiles(chow_id: int) -> tuple[int, int, int]:
    """(lowest tile of the chow, the two tiles taken from the hand) of chow action
    ``CHOW_BASE + chow_id`` (mjenv.actions: suit*21 + (middle rank - 2)*3 + claimed offset)."""
    suit, rest = divmod(chow_id, 21)
    middle, claimed = divmod(rest, 3)
    low = suit * 9 + middle
    claimed_tile = low + claimed
    a, b = (t for t in (low, low + 1, low + 2) if t != claimed_tile)
    return low, a, b


class ShantenPlanes:
    """The 15 ``shanten-v1`` planes of one decision, as counts (:meth:`counts`) or float32
    (:meth:`fill`); see the module docstring. One per encoder, its memo shared by every seat it
    encodes (results never depend on the memo)."""

    def __init__(self, capacity: int = MEMO_CAPACITY) -> None:
        self.capacity = capacity
        self._discard: dict[bytes, Template] = {}
        self._analysis: dict[bytes, tuple[int, ...]] = {}
        self._claim: dict[bytes, int] = {}

    def state_objects(self) -> list[object]:
        """The planes and their memos (:meth:`SeatEncoder.state_objects`)."""
        return [self, self._discard, self._analysis, self._claim]

    def fill(self, flat: npt.NDArray[np.float32], hand: list[int], n_melds: int,
             unseen: list[int], mask: npt.NDArray[np.generic]) -> None:
        """Write the planes of one decision into ``flat``, a float32 array of 15 * 34 cells
        (plane-major; every cell is written): :meth:`counts` over :data:`PLANE_DIVISOR`."""
        np.divide(np.frombuffer(self.counts(hand, n_melds, unseen, mask), dtype=np.uint8),
                  _FLAT_DIVISOR, out=flat)

    def counts(self, hand: list[int], n_melds: int, unseen: list[int],
               mask: npt.NDArray[np.generic]) -> bytes:
        """The planes of one decision as counts, 15 * 34 bytes (plane-major): ``hand`` the 34
        standing counts (a drawn tile included), ``n_melds`` the seat's melds, ``unseen`` its
        34 unseen counts, ``mask`` the 235 legal-action mask (any integer or bool dtype)."""
        cells = bytearray(NUM_PLANES * T)
        counts = bytes(hand)
        if counts == _NO_TILES:
            return bytes(cells)
        bits = mask.tobytes() if mask.itemsize == 1 else mask.astype(np.int8).tobytes()
        if len(bits) != NUM_ACTIONS:
            raise ValueError(f"the mask has {len(bits)} entries, not {NUM_ACTIONS}")
        if not 0 <= n_melds < len(_MELD_TAGS):
            raise ValueError(f"a seat has 0 to 4 melds, not {n_melds}")
        key = counts + _MELD_TAGS[n_melds]
        if bits.count(0, DISCARD_BASE, DISCARD_BASE + T) < T:  # a discard is legal
            self._discard_counts(cells, key, hand, n_melds, unseen)
        else:
            self._claim_counts(cells, key, hand, n_melds, unseen, bits)
        return bytes(cells)

    # ---------------------------------------------------------------- discard decisions
    def _discard_counts(self, cells: bytearray, key: bytes,
                        hand: list[int], n_melds: int, unseen: list[int]) -> None:
        template = self._discard.get(key)
        if template is None:
            template = self._discard_template(key, hand, n_melds)
        level = template[0]
        best = 2 + template[1]
        for j in range(2, best):
            cells[template[j]] = 1
        cells[level * T:(level + 1) * T] = _ROWS[1]
        at = DISCARD_UKEIRE * T
        for j in range(best, len(template), 2):
            cells[at + template[j]] = min(UKEIRE_CAP, unseen_of_kinds(template[j + 1], unseen))

    def _discard_template(self, key: bytes, hand: list[int], n_melds: int) -> Template:
        after, best = discard_outcome_masks(hand, n_melds)
        low = after[1]
        for i in range(3, len(after), 2):
            if after[i] < low:
                low = after[i]
        cells = [_level_row(low), len(after) >> 1]
        for i in range(0, len(after), 2):
            gap = after[i + 1] - low
            plane = DISCARD_BEST if gap == 0 else DISCARD_PLUS1 if gap == 1 else DISCARD_PLUS2
            cells.append(plane * T + after[i])
        template = tuple(cells + best)
        self._store(self._discard, key, template)
        return template

    # ---------------------------------------------------------------- claim decisions
    def _claim_counts(self, cells: bytearray, key: bytes,
                      hand: list[int], n_melds: int, unseen: list[int], bits: bytes) -> None:
        now = self._analysis.get(key)
        if now is None:
            now = self._analyse(key, hand, n_melds)
        shanten = now[0]
        useful = now[1:]
        level = _level_row(shanten)
        cells[level * T:(level + 1) * T] = _ROWS[1]
        cells[UKEIRE_NOW * T:(UKEIRE_NOW + 1) * T] = _ROWS[
            min(UKEIRE_CAP, sum([unseen[u] for u in useful]))]
        at = USEFUL_NOW * T
        for u in useful:
            cells[at + u] = 1
        if bits.count(0, PUNG_BASE, PUNG_BASE + T) < T:
            for t in range(T):
                if bits[PUNG_BASE + t]:
                    s = self._after_claim(key, hand, n_melds, t, t)
                    if s <= shanten:
                        cells[(PUNG_BETTER if s < shanten else PUNG_SAME) * T + t] = 1
        if bits.count(0, CHOW_BASE, PUNG_BASE) < PUNG_BASE - CHOW_BASE:
            for c in range(PUNG_BASE - CHOW_BASE):
                if bits[CHOW_BASE + c]:
                    low, a, b = _chow_tiles(c)
                    s = self._after_claim(key, hand, n_melds, a, b)
                    if s <= shanten:
                        cells[(CHOW_BETTER if s < shanten else CHOW_SAME) * T + low] = 1

    def _after_claim(self, key: bytes, hand: list[int], n_melds: int, a: int, b: int) -> int:
        """The shanten after melding tiles ``a`` and ``b`` of the hand and the best discard.

        That is the shanten of the 14-form hand left (one meld more), or 0 where it is
        complete: a hand that is not complete holds a tile its best reading leaves out, and
        discarding that tile keeps the reading; a complete hand less any tile is ready. One
        shanten instead of one per discard (tests/test_shanten_discards.py checks the
        identity against :func:`mjenv.shanten.discard_outcomes`)."""
        ckey = key + bytes((a, b))
        s = self._claim.get(ckey)
        if s is not None:
            return s
        hand[a] -= 1
        hand[b] -= 1
        best = shanten_counts(hand, n_melds + 1)
        hand[a] += 1
        hand[b] += 1
        if best < 0:
            best = 0
        self._store(self._claim, ckey, best)
        return best

    # ---------------------------------------------------------------- the shared analysis
    def _analyse(self, key: bytes, hand: list[int], n_melds: int) -> tuple[int, ...]:
        """(shanten, the useful tiles...) of ``hand`` (a flat tuple), as
        :func:`mjenv.shanten.analyze_counts` gives them."""
        shanten, useful = useful_counts(hand, n_melds)
        got = (shanten, *useful)
        self._store(self._analysis, key, got)
        return got

    def _store(self, table: dict[K, V], key: K, value: V) -> None:
        """Keep ``value``; a full table is emptied first (hands of past decisions are rarely
        met again)."""
        if len(table) >= self.capacity:
            table.clear()
        table[key] = value

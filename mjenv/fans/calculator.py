"""The fan calculator: validate → normalise flags → read the hand every way → score → best.

A *reading* is one way to see the winning hand: a regular decomposition (melds + standing
sets + pair), seven pairs, thirteen orphans, honours-and-knitted, or a knitted straight with
a set and a pair. Fans that depend only on the tiles or the flags are computed once per hand
(:func:`_hand_fans`); set-combination fans are computed per reading (:func:`_regular_fans`);
the combination principles live in named functions (:func:`_count_chow_pairs`,
:func:`_pung_combination_fans`, :func:`_apply_exclusions`). The highest total wins (就高不就低).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from mjenv.decompose import (
    HONORS,
    honor_group_info,
    is_complete_suit,
    is_honors_and_knitted,
    is_thirteen_orphans,
    knitted_pattern_of,
    knitted_straight_rests,
    regular_waits,
    suit_group_info,
    suit_readings,
)
from mjenv.fans import table as T
from mjenv.fans.table import FANS, Fan
from mjenv.melds import CHOW, CONCEALED_KONG, KONG_KINDS, PUNG, Meld
from mjenv.tiles import CODES, EAST, NUM_KINDS, NUM_TILE_IDS, RED, parse_tiles, tile_code

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
        self._hand = hand

    def __str__(self) -> str:
        if isinstance(self._hand, _Hand):
            return f"not a complete hand: {_describe(self._hand)}"
        return "not a complete hand" if self._hand is None else str(self._hand)


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

    __slots__ = ("total", "flowers", "shape", "_counts", "_source", "_fans", "_groups")

    def __init__(self, counts: dict[int, int], total: int, flowers: int, shape: str,
                 source: tuple[Any, ...]) -> None:
        self.total = total
        self.flowers = flowers
        self.shape = shape
        self._counts = counts
        self._source = source
        self._fans: tuple[FanEntry, ...] | None = None
        self._groups: tuple[Group, ...] | None = None

    @property
    def fans(self) -> tuple[FanEntry, ...]:
        """Each fan scored, in table order (花牌 last when there are flowers)."""
        if self._fans is None:
            self._fans = tuple(_entry(fan_id, n) for fan_id, n in sorted(self._counts.items()))
        return self._fans

    @property
    def decomposition(self) -> tuple[Group, ...]:
        if self._groups is None:
            self._groups = _groups(*self._source)
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


# ---------------------------------------------------------------- input

_ANY_TO_ID: dict[object, int] = {code: i for i, code in enumerate(CODES)}
_ANY_TO_ID.update({i: i for i in range(NUM_TILE_IDS)})
_KIND_TO_ID: dict[object, int] = {key: i for key, i in _ANY_TO_ID.items() if i < NUM_KINDS}
"""Codes and ids of the 34 kinds a hand may hold (no flowers): the fast path of input."""


def _tile(value: object, what: str) -> int:
    if isinstance(value, bool):
        raise InvalidHandError(f"{what}: not a tile: {value!r}")
    found = _ANY_TO_ID.get(value)
    if found is None:
        try:
            found = parse_tiles(value)[0] if isinstance(value, str) and value.strip() else None
        except ValueError:
            found = None
        if found is None:
            raise InvalidHandError(f"{what}: not a tile: {value!r}")
    if found >= NUM_KINDS:
        raise InvalidHandError(f"{what}: flowers ({CODES[found]}) are not part of a hand; "
                               "pass their number as flowers")
    return found


def _tiles(values: str | Iterable[object], what: str) -> list[int]:
    if isinstance(values, str):
        try:
            values = parse_tiles(values)
        except ValueError as err:
            raise InvalidHandError(f"{what}: {err}") from None
    return [_tile(v, what) for v in values]


def _fast_tiles(values: str | Iterable[object]) -> list[int]:
    """Ids of the tiles: a dictionary lookup each in the common case, full checks otherwise."""
    if not isinstance(values, str):
        try:
            return [_KIND_TO_ID[v] for v in values]
        except (KeyError, TypeError):
            pass  # a flower, a glyph, a bad tile: the careful path says which
    return _tiles(values, "hand")


def _meld(value: object) -> Meld:
    if isinstance(value, Meld):
        return value
    try:
        return Meld.from_dict(value)
    except ValueError as err:
        raise InvalidHandError(f"meld: {err}") from None


def _flag(value: object, name: str) -> bool:
    if not isinstance(value, bool):
        raise InvalidHandError(f"{name} must be true or false, got {value!r}")
    return value


def _small_int(value: object, name: str, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= high:
        raise InvalidHandError(f"{name} must be an integer 0..{high}, got {value!r}")
    return value


class _Hand:
    """Validated input with normalised flags, and what every reading shares."""

    __slots__ = ("standing", "counts", "melds", "win", "self_drawn", "last_copy", "last_tile",
                 "kong_win", "seat_wind", "prevalent_wind", "flowers", "all_counts",
                 "meld_chows", "meld_pung_tiles", "melded_kongs", "concealed_kongs",
                 "n_exposed", "nine_gates", "regular_base", "_unique_wait")

    standing: list[int]
    counts: list[int]
    all_counts: list[int]
    melds: list[Meld]
    win: int
    self_drawn: bool
    last_copy: bool
    last_tile: bool
    kong_win: bool
    seat_wind: int
    prevalent_wind: int
    flowers: int
    meld_chows: tuple[int, ...]
    meld_pung_tiles: tuple[int, ...]
    melded_kongs: int
    concealed_kongs: int
    n_exposed: int
    nine_gates: bool
    regular_base: dict[int, int]

    def __init__(self, hand: str | Iterable[object], melds: Iterable[object], win_tile: object,
                 self_drawn: Any, last_copy: Any, last_tile: Any, kong_win: Any,
                 seat_wind: Any, prevalent_wind: Any, flowers: Any) -> None:
        standing = _fast_tiles(hand)
        meld_list = [m if type(m) is Meld else _meld(m) for m in melds]
        win = _KIND_TO_ID.get(win_tile, -1) if not isinstance(win_tile, bool) else -1
        if win < 0:
            win = _tile(win_tile, "win_tile")
        if not (type(self_drawn) is bool and type(last_copy) is bool
                and type(last_tile) is bool and type(kong_win) is bool):
            for value, name in ((self_drawn, "self_drawn"), (last_copy, "last_copy"),
                                (last_tile, "last_tile"), (kong_win, "kong_win")):
                _flag(value, name)
        if not (type(seat_wind) is int and 0 <= seat_wind <= 3 and type(prevalent_wind) is int
                and 0 <= prevalent_wind <= 3 and type(flowers) is int and 0 <= flowers <= 8):
            _small_int(seat_wind, "seat_wind", 3)
            _small_int(prevalent_wind, "prevalent_wind", 3)
            _small_int(flowers, "flowers", 8)
        self.self_drawn = self_drawn
        self.last_tile = last_tile
        self.kong_win = kong_win
        self.seat_wind = seat_wind
        self.prevalent_wind = prevalent_wind
        self.flowers = flowers
        if len(meld_list) > 4:
            raise InvalidHandError(f"at most 4 melds, got {len(meld_list)}")
        expected = 13 - 3 * len(meld_list)
        if len(standing) != expected:
            raise InvalidHandError(
                f"wrong tile count: with {len(meld_list)} meld(s) the hand holds {expected} "
                f"tiles besides the winning tile, got {len(standing)}")
        counts = [0] * NUM_KINDS
        for t in standing:
            counts[t] += 1
        held_win = counts[win] > 0
        counts[win] += 1
        meld_copies_of_win = 0
        meld_chows: list[int] = []
        meld_pungs: list[int] = []
        concealed_kongs = melded_kongs = 0
        if meld_list:
            all_counts = counts[:]
            for m in meld_list:
                for t in m.tiles:
                    all_counts[t] += 1
                kind = m.kind
                if kind == CHOW:
                    meld_chows.append(m.tiles[0])
                else:
                    meld_pungs.append(m.tiles[0])
                    if kind == CONCEALED_KONG:
                        concealed_kongs += 1
                    elif kind != PUNG:
                        melded_kongs += 1
                meld_copies_of_win += m.tiles.count(win)
        else:
            all_counts = counts
        has_kong = concealed_kongs + melded_kongs > 0
        if max(all_counts) > 4:
            t = max(range(NUM_KINDS), key=all_counts.__getitem__)
            raise InvalidHandError(f"more than 4 copies of {CODES[t]} ({all_counts[t]})")
        if self.kong_win:
            if self.self_drawn and not has_kong:
                raise InvalidHandError("kong_win with self_drawn (杠上开花) needs a kong")
            if not self.self_drawn:
                if held_win or meld_copies_of_win:
                    raise InvalidHandError(
                        f"robbing a kong (抢杠和) is impossible while holding or having melded "
                        f"{CODES[win]}")
                if self.last_tile:
                    raise InvalidHandError(
                        "robbing a kong (抢杠和) cannot be on the last tile: a kong needs a "
                        "replacement tile")
        # 和绝张 normalised as rules §3.1: cleared when a copy is held, forced by own melds.
        if held_win:
            last_copy = False
        elif meld_copies_of_win == 3:
            last_copy = True
        self.last_copy = last_copy
        standing.append(win)
        self.standing = standing
        self.counts = counts
        self.melds = meld_list
        self.win = win
        self.all_counts = all_counts
        self.meld_chows = tuple(meld_chows)
        self.meld_pung_tiles = tuple(meld_pungs)
        self.concealed_kongs = concealed_kongs
        self.melded_kongs = melded_kongs
        self.n_exposed = len(meld_list) - concealed_kongs
        self.nine_gates = bool(not meld_list and win < EAST and counts[win - win % 9] >= 3
                               and _is_nine_gates(counts, win))
        self.regular_base: dict[int, int] = {}
        self._unique_wait: bool | None = None

    def unique_wait(self) -> bool:
        """Whether the hand before the win had exactly one winning kind (独听), counting
        regular and (fully concealed) seven-pairs waits and a fifth copy, as PyMahjongGB does.

        Only the winning tile's suit changed, so only its waits need looking up: the other
        suits are complete, and one of them can offer a wait only when the winning suit is
        complete with its pair without the winning tile (a two-pair wait)."""
        if self._unique_wait is None:
            self._unique_wait = self._find_unique_wait()
        return self._unique_wait

    def _find_unique_wait(self) -> bool:
        counts, win = self.counts, self.win
        start = win - win % 9 if win < EAST else EAST
        before = counts[start:start + 9] if win < EAST else counts[EAST:]
        before[win - start] -= 1
        info = suit_group_info(tuple(before)) if win < EAST else honor_group_info(tuple(before))
        if info[0] == 1:  # the winning tile completed the pair's group
            if len(info[4]) != 1:
                return False
        else:
            if len(info[3]) != 1:
                return False
            if info[2] and _other_group_waits(counts, start):
                return False
        # a seven-pairs wait on the other tile held an odd number of times?
        return bool(self.melds) or counts.count(1) + counts.count(3) != 2 or not counts[win] % 2


def _other_group_waits(counts: Sequence[int], skip: int) -> bool:
    """Whether the group holding the pair (other than the one at ``skip``) could take one more
    tile as part of a set: the second half of a two-pair wait."""
    for start in (0, 9, 18, EAST):
        if start == skip:
            continue
        if start < EAST:
            info = suit_group_info(tuple(counts[start:start + 9]))
        else:
            info = honor_group_info(tuple(counts[EAST:]))
        if info[0] == 2:
            return bool(info[3])
    return False


# ---------------------------------------------------------------- tile facts

def _mask(tiles: Iterable[int]) -> int:
    m = 0
    for t in tiles:
        m |= 1 << t
    return m


_BITS = tuple(1 << t for t in range(NUM_KINDS))
_CHOW_BITS = tuple(7 << t for t in range(EAST))
_W_MASK, _T_MASK, _B_MASK = (_mask(range(9 * s, 9 * s + 9)) for s in range(3))
WIND_MASK = _mask(range(EAST, RED))
DRAGON_MASK = _mask(range(RED, NUM_KINDS))
HONOR_MASK = WIND_MASK | DRAGON_MASK
TERMINAL_MASK = _mask(t for s in range(3) for t in (9 * s, 9 * s + 8))
SIMPLE_MASK = _mask(9 * s + r for s in range(3) for r in range(1, 8))
GREEN_MASK = _mask(CODES.index(c) for c in ("T2", "T3", "T4", "T6", "T8", "J2"))
REVERSIBLE_MASK = _mask(CODES.index(c) for c in (
    "B1", "B2", "B3", "B4", "B5", "B8", "B9", "T2", "T4", "T5", "T6", "T8", "T9", "J3"))


def _ranks_mask(ranks: Iterable[int]) -> int:
    ranks = tuple(ranks)
    return _mask(9 * s + r - 1 for s in range(3) for r in ranks)


UPPER_TILES_MASK = _ranks_mask((7, 8, 9))
MIDDLE_TILES_MASK = _ranks_mask((4, 5, 6))
LOWER_TILES_MASK = _ranks_mask((1, 2, 3))
UPPER_FOUR_MASK = _ranks_mask((6, 7, 8, 9))
LOWER_FOUR_MASK = _ranks_mask((1, 2, 3, 4))


_RANK_RANGES = ((UPPER_TILES_MASK, T.UPPER_TILES), (MIDDLE_TILES_MASK, T.MIDDLE_TILES),
                (LOWER_TILES_MASK, T.LOWER_TILES), (UPPER_FOUR_MASK, T.UPPER_FOUR),
                (LOWER_FOUR_MASK, T.LOWER_FOUR))


def _hand_fans(h: _Hand) -> dict[int, int]:
    """Fans that depend on the tiles and flags only, the same for every reading."""
    fans: dict[int, int] = {}
    present = 0
    for t in h.standing:
        present |= _BITS[t]
    for t in h.meld_chows:
        present |= _CHOW_BITS[t]
    for t in h.meld_pung_tiles:
        present |= _BITS[t]
    hogs = h.all_counts.count(4) - h.melded_kongs - h.concealed_kongs
    if hogs > 0:
        fans[T.TILE_HOG] = hogs
    suits = ((present & _W_MASK) != 0) + ((present & _T_MASK) != 0) + ((present & _B_MASK) != 0)
    if suits == 2:
        fans[T.ONE_VOIDED_SUIT] = 1
    if present & HONOR_MASK:
        if suits == 0:
            fans[T.ALL_HONORS] = 1
        elif suits == 1:
            fans[T.HALF_FLUSH] = 1
        elif suits == 3 and present & WIND_MASK and present & DRAGON_MASK:
            fans[T.ALL_TYPES] = 1
        if suits and present & SIMPLE_MASK == 0:
            fans[T.ALL_TERMINALS_AND_HONORS] = 1
    else:
        fans[T.NO_HONORS] = 1
        if suits == 1:
            fans[T.FULL_FLUSH] = 1
        if present & SIMPLE_MASK == 0:
            fans[T.ALL_TERMINALS] = 1
        elif present & TERMINAL_MASK == 0:
            fans[T.ALL_SIMPLES] = 1
        for mask, fan in _RANK_RANGES:
            if present & ~mask == 0:
                fans[fan] = 1
    if present & ~GREEN_MASK == 0:
        fans[T.ALL_GREEN] = 1
    if present & ~REVERSIBLE_MASK == 0:
        fans[T.REVERSIBLE_TILES] = 1
    if h.self_drawn:
        fans[T.SELF_DRAWN] = 1
        if h.last_tile:
            fans[T.LAST_TILE_DRAW] = 1
        if h.kong_win:
            fans[T.OUT_WITH_REPLACEMENT] = 1
    else:
        if h.last_tile:
            fans[T.LAST_TILE_CLAIM] = 1
        if h.kong_win:
            fans[T.ROBBING_THE_KONG] = 1
    if h.last_copy:
        fans[T.LAST_TILE] = 1
    return fans


# ---------------------------------------------------------------- chow combinations

def _two_chow_fan(a: int, b: int) -> int:
    """The 2-chow fan of chows starting at tiles a and b (0 if none)."""
    if a // 9 == b // 9:
        d = abs(a - b)
        if d == 0:
            return T.PURE_DOUBLE_CHOW
        if d == 3:
            return T.SHORT_STRAIGHT
        if d == 6:
            return T.TWO_TERMINAL_CHOWS
        return 0
    return T.MIXED_DOUBLE_CHOW if a % 9 == b % 9 else 0


def _three_chow_fan(a: int, b: int, c: int) -> int:
    """The 3-chow fan of three chows (first tiles, ascending), 0 if none."""
    ra, rb, rc = sorted((a % 9, b % 9, c % 9))
    if a // 9 != b // 9 and b // 9 != c // 9 and a // 9 != c // 9:
        if rb == ra + 1 and rc == rb + 1:
            return T.MIXED_SHIFTED_CHOWS
        if (ra, rb, rc) == (0, 3, 6):
            return T.MIXED_STRAIGHT
        if ra == rb == rc:
            return T.MIXED_TRIPLE_CHOW
        return 0
    if a // 9 == b // 9 == c // 9:
        if (ra, rb, rc) == (0, 3, 6):
            return T.PURE_STRAIGHT
        if rb - ra == rc - rb and rb - ra in (1, 2):
            return T.PURE_SHIFTED_CHOWS
        if ra == rb == rc:
            return T.PURE_TRIPLE_CHOW
    return 0


def _four_chow_fan(chows: Sequence[int]) -> int:
    a, b, c, d = chows
    if a // 9 != d // 9:
        return 0
    if a == b == c == d:
        return T.QUADRUPLE_CHOW
    step = b - a
    if step in (1, 2) and c - b == step and d - c == step:
        return T.FOUR_PURE_SHIFTED_CHOWS
    return 0


def _terminal_chows_fan(chows: Sequence[int], pair: int) -> int:
    """一色双龙会 / 三色双龙会: 123+789 chows with a pair of fives."""
    if pair >= EAST or pair % 9 != 4:
        return 0
    suits_123 = sorted(x // 9 for x in chows if x % 9 == 0)
    suits_789 = sorted(x // 9 for x in chows if x % 9 == 6)
    if len(suits_123) != 2 or suits_123 != suits_789:
        return 0
    if suits_123[0] == suits_123[1] == pair // 9:
        return T.PURE_TERMINAL_CHOWS
    if suits_123[0] != suits_123[1] and pair // 9 not in suits_123:
        return T.THREE_SUITED_TERMINAL_CHOWS
    return 0


_PAIR_FANS = (T.PURE_DOUBLE_CHOW, T.MIXED_DOUBLE_CHOW, T.SHORT_STRAIGHT, T.TWO_TERMINAL_CHOWS)


def _count_chow_pairs(found: Sequence[int], cap: int, fans: dict[int, int]) -> None:
    """不得相同 / 套算一次 for 2-chow fans: keep at most ``cap`` of the candidates,
    dropping duplicates of a type first, from the lowest type up, then whole fans."""
    table = [found.count(f) for f in _PAIR_FANS]
    total = sum(table)
    limit = 1
    while total > cap and limit >= 0:
        for i in (3, 2, 1, 0):
            while table[i] > limit and total > cap:
                table[i] -= 1
                total -= 1
            if total <= cap:
                break
        limit -= 1
    for fan, n in zip(_PAIR_FANS, table, strict=True):
        if n:
            fans[fan] = fans.get(fan, 0) + n


def _chow_fans(chows: Sequence[int], pair: int, fans: dict[int, int]) -> None:
    n = len(chows)
    if n == 4:
        fan = _terminal_chows_fan(chows, pair) or _four_chow_fan(chows)
        if fan:
            fans[fan] = 1
            return
        for i, j, k, rest in ((0, 1, 2, 3), (0, 1, 3, 2), (0, 2, 3, 1), (1, 2, 3, 0)):
            fan = _three_chow_fan(chows[i], chows[j], chows[k])
            if fan:
                fans[fan] = 1
                extra = [_two_chow_fan(chows[x], chows[rest]) for x in (i, j, k)]
                extra = [f for f in extra if f]
                if extra:
                    best = min(extra)
                    fans[best] = fans.get(best, 0) + 1
                return
        pairs = [_two_chow_fan(chows[x], chows[y])
                 for x, y in ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))]
        cap = 3
        for related in ((0, 1, 2), (0, 3, 4), (1, 3, 5), (2, 4, 5)):  # each chow's pairs
            if not any(pairs[r] for r in related):
                cap -= 1
        if cap > 0:
            _count_chow_pairs([f for f in pairs if f], cap, fans)
    elif n == 3:
        fan = _three_chow_fan(chows[0], chows[1], chows[2])
        if fan:
            fans[fan] = 1
            return
        pairs = [_two_chow_fan(chows[0], chows[1]), _two_chow_fan(chows[0], chows[2]),
                 _two_chow_fan(chows[1], chows[2])]
        cap = 2
        for first, second in ((0, 1), (0, 2), (1, 2)):
            if not (pairs[first] or pairs[second]):
                cap -= 1
        if cap > 0:
            _count_chow_pairs([f for f in pairs if f], cap, fans)
    elif n == 2:
        fan = _two_chow_fan(chows[0], chows[1])
        if fan:
            fans[fan] = 1


# ---------------------------------------------------------------- pung combinations

def _two_pung_fan(a: int, b: int) -> int:
    if a < EAST and b < EAST:
        return T.DOUBLE_PUNG if a // 9 != b // 9 and a % 9 == b % 9 else 0
    return T.TWO_DRAGON_PUNGS if a >= RED and b >= RED else 0


def _three_pung_fan(a: int, b: int, c: int) -> int:
    """The 3-pung fan of three pung tiles (ascending), 0 if none."""
    if c < EAST:
        sa, sb, sc = a // 9, b // 9, c // 9
        ra, rb, rc = sorted((a % 9, b % 9, c % 9))
        if sa != sb and sb != sc and sa != sc:
            if rb == ra + 1 and rc == rb + 1:
                return T.MIXED_SHIFTED_PUNGS
            if ra == rb == rc:
                return T.TRIPLE_PUNG
        elif sa == sb == sc and b == a + 1 and c == b + 1:
            return T.PURE_SHIFTED_PUNGS
        return 0
    if a >= EAST:
        if c < RED:
            return T.BIG_THREE_WINDS
        if a >= RED:
            return T.BIG_THREE_DRAGONS
    return 0


def _pung_combination_fans(tiles: Sequence[int], fans: dict[int, int]) -> None:
    """3-pung fans leave the fourth pung one 2-pung fan; otherwise every pair counts."""
    n = len(tiles)
    if n == 4:
        a, b, c, d = tiles
        if a >= EAST and d < RED:
            fans[T.BIG_FOUR_WINDS] = 1
            return
        if d < EAST and a // 9 == d // 9 and b == a + 1 and c == b + 1 and d == c + 1:
            fans[T.FOUR_PURE_SHIFTED_PUNGS] = 1
            return
        for i, j, k, free in ((0, 1, 2, 3), (0, 1, 3, 2), (0, 2, 3, 1), (1, 2, 3, 0)):
            fan = _three_pung_fan(tiles[i], tiles[j], tiles[k])
            if fan:
                fans[fan] = 1
                for x in (i, j, k):
                    extra = _two_pung_fan(tiles[x], tiles[free])
                    if extra:
                        fans[extra] = fans.get(extra, 0) + 1
                        break
                return
    elif n == 3:
        fan = _three_pung_fan(tiles[0], tiles[1], tiles[2])
        if fan:
            fans[fan] = 1
            return
    for x in range(n):
        for y in range(x + 1, n):
            fan = _two_pung_fan(tiles[x], tiles[y])
            if fan:
                fans[fan] = fans.get(fan, 0) + 1


def _kong_fans(melded_kongs: int, concealed_kongs: int, fans: dict[int, int]) -> None:
    kongs = melded_kongs + concealed_kongs
    if kongs == 1:
        fans[T.MELDED_KONG if melded_kongs else T.CONCEALED_KONG] = 1
    elif kongs == 2:
        fan = (T.TWO_MELDED_KONGS, T.CONCEALED_AND_MELDED_KONG,
               T.TWO_CONCEALED_KONGS)[concealed_kongs]
        fans[fan] = 1
    elif kongs == 3:
        fans[T.THREE_KONGS] = 1
    elif kongs == 4:
        fans[T.FOUR_KONGS] = 1


# ---------------------------------------------------------------- one regular reading

_NINE_GATES_BASE = (3, 1, 1, 1, 1, 1, 1, 1, 3)


def _is_nine_gates(counts: Sequence[int], win: int) -> bool:
    """Concealed 1112345678999 of the winning tile's suit before the win (no melds)."""
    if win >= EAST:
        return False
    start = win - win % 9
    before = list(counts[start:start + 9])
    before[win % 9] -= 1
    return tuple(before) == _NINE_GATES_BASE


_OUTSIDE, _FIVE, _EVEN = 1, 2, 4
_CHOW_TRAITS = tuple((_OUTSIDE if c % 9 in (0, 6) else 0) | (_FIVE if c % 9 in (2, 3, 4) else 0)
                     for c in range(EAST))
_TILE_TRAITS = tuple(
    _OUTSIDE if t >= EAST else
    (_OUTSIDE if t % 9 in (0, 8) else 0) | (_FIVE if t % 9 == 4 else 0)
    | (_EVEN if t % 9 in (1, 3, 5, 7) else 0)
    for t in range(NUM_KINDS))


ChowInfo = tuple[tuple[tuple[int, int], ...], int]
PungInfo = tuple[tuple[tuple[int, int], ...], int, int, int, bool]
_CHOW_TABLE: dict[tuple[int, ...], ChowInfo] = {}
_PUNG_TABLE: dict[tuple[int, ...], PungInfo] = {}


def _chow_combination(chows: tuple[int, ...]) -> ChowInfo:
    """(chow-combination fans, traits shared by all chows) of a sorted tuple of chows.
    A finite table (at most 12,650 keys), filled as hands need it."""
    found = _CHOW_TABLE.get(chows)
    if found is None:
        found = _CHOW_TABLE[chows] = _chow_combination_of(chows)
    return found


def _chow_combination_of(chows: tuple[int, ...]) -> ChowInfo:
    fans: dict[int, int] = {}
    _chow_fans(chows, -1, fans)
    traits = _OUTSIDE | _FIVE | _EVEN
    for c in chows:
        traits &= _CHOW_TRAITS[c]
    return tuple(fans.items()), traits


def _pung_combination(pungs: tuple[int, ...]) -> PungInfo:
    """(pung-combination fans, dragon pungs, terminal pungs, shared traits, any wind) of a
    sorted tuple of pung tiles. A finite table, filled as hands need it."""
    found = _PUNG_TABLE.get(pungs)
    if found is None:
        found = _PUNG_TABLE[pungs] = _pung_combination_of(pungs)
    return found


def _pung_combination_of(pungs: tuple[int, ...]) -> PungInfo:
    fans: dict[int, int] = {}
    _pung_combination_fans(pungs, fans)
    dragons = sum(1 for t in pungs if t >= RED)
    terminals = sum(1 for t in pungs if t < EAST and t % 9 in (0, 8))
    traits = _OUTSIDE | _FIVE | _EVEN
    for t in pungs:
        traits &= _TILE_TRAITS[t]
    return tuple(fans.items()), dragons, terminals, traits, any(EAST <= t < RED for t in pungs)


def _regular_fans(h: _Hand, std_chows: tuple[int, ...], std_pungs: tuple[int, ...], pair: int,
                  knitted: tuple[int, ...] | None) -> dict[int, int]:
    """Fans of one regular (or knitted straight + set + pair) reading."""
    fans = dict(h.regular_base)
    win = h.win
    # A pung completed by the winning discard is exposed, unless the tile can be read as part
    # of a concealed chow of this reading (rules §4.8).
    concealed_pungs = len(std_pungs)
    if not h.self_drawn and win in std_pungs:
        for c in std_chows:
            if c <= win <= c + 2:
                break
        else:
            concealed_pungs -= 1
    chows = tuple(sorted(h.meld_chows + std_chows)) if h.meld_chows else std_chows
    pungs = tuple(sorted(h.meld_pung_tiles + std_pungs)) if h.meld_pung_tiles else std_pungs

    traits = 0 if knitted else _TILE_TRAITS[pair]
    if knitted:
        fans[T.KNITTED_STRAIGHT] = 1
    elif chows:
        fan = _terminal_chows_fan(chows, pair) if len(chows) == 4 else 0
        combination, chow_traits = _chow_combination(chows)
        if fan:
            fans[fan] = 1
        else:
            for fan, n in combination:
                fans[fan] = n
        traits &= chow_traits
    dragons = terminal_pungs = 0
    winds = False
    if pungs:
        combination, dragons, terminal_pungs, pung_traits, winds = _pung_combination(pungs)
        for fan, n in combination:
            fans[fan] = n
        traits &= pung_traits

    # pair-completed fans (平和, 小三元, 小四喜)
    if len(chows) + (3 if knitted else 0) == 4 and pair < EAST:
        fans[T.ALL_CHOWS] = 1
    if pair >= EAST:
        if pair >= RED:
            if T.TWO_DRAGON_PUNGS in fans:
                del fans[T.TWO_DRAGON_PUNGS]
                fans[T.LITTLE_THREE_DRAGONS] = 1
        elif T.BIG_THREE_WINDS in fans:
            del fans[T.BIG_THREE_WINDS]
            fans[T.LITTLE_FOUR_WINDS] = 1

    # every set and the pair
    if len(pungs) == 4:
        fans[T.ALL_PUNGS] = 1
        if traits & _EVEN:
            fans[T.ALL_EVEN_PUNGS] = 1
    if traits & _OUTSIDE:
        fans[T.OUTSIDE_HAND] = 1
    if traits & _FIVE:
        fans[T.ALL_FIVES] = 1

    # single pungs: dragons, winds (幺九刻 only for a wind neither seat nor prevalent, and not
    # under 三风刻 / 小四喜), terminals
    if dragons:
        fans[T.DRAGON_PUNG] = dragons
    if winds:
        suppressed = T.BIG_THREE_WINDS in fans or T.LITTLE_FOUR_WINDS in fans
        for t in pungs:
            if EAST <= t < RED:
                own = False
                if t - EAST == h.prevalent_wind:
                    fans[T.PREVALENT_WIND] = 1
                    own = True
                if t - EAST == h.seat_wind:
                    fans[T.SEAT_WIND] = 1
                    own = True
                if not own and not suppressed:
                    terminal_pungs += 1
    concealed = concealed_pungs + h.concealed_kongs
    if concealed >= 2:
        fans[(T.TWO_CONCEALED_PUNGS, T.THREE_CONCEALED_PUNGS,
              T.FOUR_CONCEALED_PUNGS)[concealed - 2]] = 1
    if h.nine_gates:
        fans[T.NINE_GATES] = 1
        terminal_pungs -= 1
    if terminal_pungs > 0:
        fans[T.PUNG_OF_TERMINALS] = terminal_pungs

    # wait: one wait fan at most, and only with a unique winning kind (checked last: costly)
    edge = closed = False
    for c in std_chows:
        if c + 1 == win:
            closed = True
        elif c == win or c + 2 == win:
            edge = True
    wait_fan = (T.EDGE_WAIT if edge else T.CLOSED_WAIT if closed
                else T.SINGLE_WAIT if pair == win else 0)
    if wait_fan and (_knitted_unique_wait(h, knitted) if knitted else h.unique_wait()):
        fans[wait_fan] = 1
    return fans


def _knitted_unique_wait(h: _Hand, pattern: tuple[int, ...]) -> bool:
    """For a knitted straight reading: the wait of the tiles outside the knitted straight."""
    before = h.counts[:]
    before[h.win] -= 1
    for t in pattern:
        if before[t]:
            before[t] -= 1
    if sum(before) % 3 != 1:
        return False
    return len(regular_waits(before)) == 1


# ---------------------------------------------------------------- exclusions and totals

_IMPLIES: dict[int, tuple[int, ...]] = {fan.id: fan.implies for fan in FANS}
_POINTS: tuple[int, ...] = (0, *(fan.points for fan in FANS))


def _apply_exclusions(fans: dict[int, int]) -> dict[int, int]:
    """不重复: going down the table, each fan still present removes the fans it implies."""
    for fan_id in sorted(fans):
        if fan_id in fans:
            for implied in _IMPLIES[fan_id]:
                if implied in fans:
                    del fans[implied]
    if not fans:
        fans[T.CHICKEN_HAND] = 1
    return fans


def _total(fans: dict[int, int]) -> int:
    total = 0
    for fan_id, n in fans.items():
        total += _POINTS[fan_id] * n
    return total


# ---------------------------------------------------------------- readings

Reading = tuple[dict[int, int], int, str, tuple[Any, ...]]
"""(fans after exclusions, their total, shape, what the groups are built from if shown)"""

_EMPTY_SUIT = (0,) * 9
SuitSets = tuple[tuple[tuple[int, ...], tuple[int, ...], int], ...]


_SUIT_SETS: tuple[dict[tuple[int, ...], SuitSets], ...] = ({}, {}, {})


def _suit_sets(offset: int, key: tuple[int, ...]) -> SuitSets:
    """The suit's readings with tile ids (chow first tiles, pung tiles, pair or -1)."""
    table = _SUIT_SETS[offset // 9]
    found = table.get(key)
    if found is None:
        found = table[key] = _suit_sets_of(offset, key)
    return found


def _suit_sets_of(offset: int, key: tuple[int, ...]) -> SuitSets:
    return tuple((tuple(offset + r for r in chows), tuple(offset + r for r in pungs),
                  offset + pair if pair >= 0 else -1)
                 for chows, pungs, pair in suit_readings(key))


_NO_SETS: SuitSets = (((), (), -1),)



Split = tuple[tuple[int, ...], tuple[int, ...], int]
"""One regular decomposition of standing tiles: (chow first tiles, pung tiles, pair tile)."""


def _regular_splits(counts: Sequence[int]) -> SuitSets:
    """Every split of the standing tiles into sets and one pair (empty if there is none)."""
    honor_pungs: tuple[int, ...] = ()
    pair_tile = -1
    for t in range(EAST, NUM_KINDS):
        n = counts[t]
        if n == 3:
            honor_pungs += (t,)
        elif n == 2:
            if pair_tile >= 0:
                return ()
            pair_tile = t
        elif n:
            return ()
    pair_groups = 1 if pair_tile >= 0 else 0
    combined = _NO_SETS
    for s in (0, 9, 18):
        key = tuple(counts[s:s + 9])
        if key != _EMPTY_SUIT:
            if not is_complete_suit(key):  # the static table: no memo needed to say no
                return ()
            found = _suit_sets(s, key)
            if found[0][2] >= 0:  # a suit's size fixes whether it holds the pair
                pair_groups += 1
            if len(found) == 1 and len(combined) == 1:  # the common case
                c, f = combined[0], found[0]
                combined = ((c[0] + f[0], c[1] + f[1], c[2] if c[2] >= 0 else f[2]),)
            else:
                combined = tuple((c[0] + f[0], c[1] + f[1], c[2] if c[2] >= 0 else f[2])
                                 for c in combined for f in found)
    if pair_groups != 1:
        return ()
    if honor_pungs or pair_tile >= 0:
        combined = tuple((chows, pungs + honor_pungs, pair if pair >= 0 else pair_tile)
                         for chows, pungs, pair in combined)
    return combined


def _regular_readings(h: _Hand, splits: SuitSets,
                      knitted: tuple[int, ...] | None = None) -> list[Reading]:
    shape = "knitted_straight" if knitted else "regular"
    out: list[Reading] = []
    for chows, pungs, pair in splits:
        fans = _apply_exclusions(_regular_fans(h, chows, pungs, pair, knitted))
        out.append((fans, _total(fans), shape, (knitted, chows, pungs, pair)))
    return out


def _special_shapes(counts: list[int]) -> tuple[str, ...]:
    """The special shape the standing tiles form (no melds), if any; shapes exclude each other."""
    pairs = counts.count(2) + 2 * counts.count(4)
    if pairs == 7:
        return ("seven_pairs",)
    if pairs == 1 and is_thirteen_orphans(counts):
        return ("thirteen_orphans",)
    if pairs == 0 and is_honors_and_knitted(counts):
        return ("honors_knitted",)
    return ()


def _special_reading(h: _Hand, shape: str) -> Reading:
    counts = h.counts
    fans = dict(h.regular_base)
    if shape == "seven_pairs":
        kinds = [t for t in range(NUM_KINDS) if counts[t]]
        shifted = (len(kinds) == 7 and kinds[-1] < EAST and kinds[0] // 9 == kinds[-1] // 9
                   and kinds[-1] - kinds[0] == 6)
        fans[T.SEVEN_SHIFTED_PAIRS if shifted else T.SEVEN_PAIRS] = 1
    elif shape == "thirteen_orphans":
        fans[T.THIRTEEN_ORPHANS] = 1
    else:
        all_honors = all(counts[t] for t in HONORS)
        fans[T.GREATER_HONORS_KNITTED if all_honors else T.LESSER_HONORS_KNITTED] = 1
        pattern = knitted_pattern_of(counts)
        if pattern is not None and all(counts[t] for t in pattern):
            fans[T.KNITTED_STRAIGHT] = 1
    _apply_exclusions(fans)
    return (fans, _total(fans), shape, ())


def _knitted_splits(h: _Hand) -> list[tuple[tuple[int, ...], SuitSets]]:
    """Knitted straight + set + pair: (pattern, splits of the other tiles) for each."""
    if len(h.melds) > 1:
        return []
    out = []
    for pattern, rest in knitted_straight_rests(h.counts):
        splits = _regular_splits(rest)
        if splits:
            out.append((pattern, splits))
    return out


def _all_readings(h: _Hand) -> list[Reading]:
    """Every reading of a complete hand, scored; raises NotWinError if there is none."""
    splits = _regular_splits(h.counts)
    specials = _special_shapes(h.counts) if not h.melds else ()
    knitted = _knitted_splits(h)
    if not (splits or specials or knitted):
        raise NotWinError(h)
    base = _hand_fans(h)
    # concealment and kongs are the same for every reading (special shapes exclude them)
    if h.n_exposed == 0:
        base[T.FULLY_CONCEALED if h.self_drawn else T.CONCEALED_HAND] = 1
    elif h.n_exposed == 4 and not h.self_drawn:
        base[T.MELDED_HAND] = 1
    _kong_fans(h.melded_kongs, h.concealed_kongs, base)
    h.regular_base = base
    readings = _regular_readings(h, splits)
    for shape in specials:
        readings.append(_special_reading(h, shape))
    for pattern, knitted_splits in knitted:
        readings += _regular_readings(h, knitted_splits, pattern)
    return readings


def _groups(h: _Hand, shape: str, raw: tuple[Any, ...]) -> tuple[Group, ...]:
    """The sets and pair of a reading, for people (built only for the reading shown)."""
    tiles = tuple(sorted(h.standing))
    if shape == "seven_pairs":
        return tuple(Group("pair", (t, t), True) for t in tiles[::2])
    if shape in ("thirteen_orphans", "honors_knitted"):
        return (Group(shape, tiles, True),)
    knitted, chows, pungs, pair = raw
    groups = [Group("kong" if m.kind in KONG_KINDS else m.kind, m.tiles,
                    m.kind == CONCEALED_KONG) for m in h.melds]
    if knitted:
        groups.append(Group("knitted", knitted, True))
    groups += [Group("chow", (c, c + 1, c + 2), True) for c in chows]
    exposed = (not h.self_drawn and h.win in pungs
               and not any(c <= h.win <= c + 2 for c in chows))
    groups += [Group("pung", (p, p, p), not (exposed and p == h.win)) for p in pungs]
    groups.append(Group("pair", (pair, pair), True))
    return tuple(groups)


_ENTRIES: dict[tuple[int, int], FanEntry] = {}


def _entry(fan_id: int, count: int) -> FanEntry:
    entry = _ENTRIES.get((fan_id, count))
    if entry is None:
        entry = _ENTRIES[(fan_id, count)] = FanEntry(FANS[fan_id - 1], count)
    return entry


def _result(h: _Hand, reading: Reading) -> FanResult:
    fans, total, shape, raw = reading
    if h.flowers:
        fans = {**fans, T.FLOWER_TILES: h.flowers}
        total += h.flowers
    return FanResult(fans, total, h.flowers, shape, (h, shape, raw))


def calculate(hand: str | Iterable[object], melds: Iterable[object] = (),
              win_tile: object = None, *, self_drawn: Any = False, last_copy: Any = False,
              last_tile: Any = False, kong_win: Any = False, seat_wind: Any = 0,
              prevalent_wind: Any = 0, flowers: Any = 0) -> FanResult:
    """Score a winning hand.

    ``hand`` is the concealed tiles without the winning tile (ids, codes, or a string for
    :func:`mjenv.tiles.parse_tiles`); ``melds`` are :class:`~mjenv.melds.Meld` objects (or their
    JSON dicts); ``win_tile`` is the winning tile. Flags: ``self_drawn``, ``last_copy`` (和绝张),
    ``last_tile`` (妙手回春 / 海底捞月), ``kong_win`` (杠上开花 if self-drawn, else 抢杠和),
    ``seat_wind`` and ``prevalent_wind`` (0..3 = E S W N), ``flowers`` (0..8). The flags are
    typed ``Any`` on purpose: they are checked here (booleans must be ``bool``, numbers ``int``)
    with a clear error, also when this module is compiled.

    Raises :class:`NotWinError` if the tiles do not form a complete hand, and
    :class:`InvalidHandError` for input that cannot describe a real hand.
    The result's ``meets_minimum`` says whether the hand may be won (8 points, flowers excluded).
    """
    if win_tile is None:
        raise InvalidHandError("win_tile is required")
    h = _Hand(hand, melds, win_tile, self_drawn, last_copy, last_tile, kong_win, seat_wind,
              prevalent_wind, flowers)
    readings = _all_readings(h)
    best = readings[0]
    for reading in readings:
        if reading[1] > best[1]:
            best = reading
    return _result(h, best)


def calculate_all(hand: str | Iterable[object], melds: Iterable[object] = (),
                  win_tile: object = None, *, self_drawn: Any = False, last_copy: Any = False,
                  last_tile: Any = False, kong_win: Any = False, seat_wind: Any = 0,
                  prevalent_wind: Any = 0, flowers: Any = 0) -> list[FanResult]:
    """Every distinct scored reading of the hand, highest total first (ties keep the order
    in which readings are found). Same arguments and errors as :func:`calculate`."""
    if win_tile is None:
        raise InvalidHandError("win_tile is required")
    h = _Hand(hand, melds, win_tile, self_drawn, last_copy, last_tile, kong_win, seat_wind,
              prevalent_wind, flowers)
    readings = _all_readings(h)
    results: list[FanResult] = []
    seen: set[tuple[tuple[str, int], ...]] = set()
    for reading in readings:
        result = _result(h, reading)
        key = tuple((e.zh, e.count) for e in result.fans)
        if key not in seen:
            seen.add(key)
            results.append(result)
    results.sort(key=lambda r: -r.total)
    return results


def clear_tables() -> None:
    """Empty the tables filled as hands need them (suit waits, set combinations), so a
    benchmark can measure a cold start; the table of complete suits is built once, at import.
    Results never depend on them."""
    from mjenv import decompose

    decompose.clear_group_info()
    for suit_table in _SUIT_SETS:
        suit_table.clear()
    _CHOW_TABLE.clear()
    _PUNG_TABLE.clear()


def _describe(h: _Hand) -> str:
    hand = " ".join(tile_code(t) for t in h.standing[:-1])
    melds = "; ".join(m.describe() for m in h.melds)
    return f"{hand}" + (f" | {melds}" if melds else "") + f" + {tile_code(h.win)}"

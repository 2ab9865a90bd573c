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
from functools import partial
from typing import Any, overload

from mjenv.decompose import (
    HONORS,
    is_complete_suit,
    is_honors_and_knitted,
    is_thirteen_orphans,
    knitted_pattern_of,
    knitted_straight_rests,
    regular_waits,
    suit_readings,
)
from mjenv.fans import table as T
from mjenv.fans.combinations import (
    EVEN,
    FIVE,
    OUTSIDE,
    TILE_TRAITS,
    chow_combination,
    clear_combination_tables,
    kong_fans,
    pung_combination,
    terminal_chows_fan,
)
from mjenv.fans.context import UNSET, WinContext
from mjenv.fans.hand import PreparedHand, resolve_context
from mjenv.fans.result import FanResult, Group, InvalidHandError, NotWinError
from mjenv.fans.table import FANS
from mjenv.melds import CONCEALED_KONG, KONG_KINDS
from mjenv.tiles import CODES, EAST, NUM_KINDS, RED

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


def _hand_fans(h: PreparedHand) -> dict[int, int]:  # noqa: C901 (to split; hot, measure)
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


def _regular_fans(h: PreparedHand, split: Split, knitted: tuple[int, ...] | None  # noqa: C901
                  ) -> dict[int, int]:
    """Fans of one regular (or knitted straight + set + pair) reading: ``split`` holds the
    standing sets and the pair (the tiles outside the knitted straight)."""
    fans = dict(h.regular_base)
    win = h.win
    std_chows, std_pungs, pair = split.chows, split.pungs, split.pair
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

    traits = 0 if knitted else TILE_TRAITS[pair]
    if knitted:
        fans[T.KNITTED_STRAIGHT] = 1
    elif chows:
        fan = terminal_chows_fan(chows, pair) if len(chows) == 4 else 0
        combination, chow_traits = chow_combination(chows)
        if fan:
            fans[fan] = 1
        else:
            for fan, n in combination:
                fans[fan] = n
        traits &= chow_traits
    dragons = terminal_pungs = 0
    winds = False
    if pungs:
        combination, dragons, terminal_pungs, pung_traits, winds = pung_combination(pungs)
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
        if traits & EVEN:
            fans[T.ALL_EVEN_PUNGS] = 1
    if traits & OUTSIDE:
        fans[T.OUTSIDE_HAND] = 1
    if traits & FIVE:
        fans[T.ALL_FIVES] = 1

    # single pungs: dragons, winds (幺九刻 only for a wind neither seat nor prevalent, and not
    # under 三风刻 / 小四喜), terminals
    if dragons:
        fans[T.DRAGON_PUNG] = dragons
    if winds:
        suppressed = T.BIG_THREE_WINDS in fans or T.LITTLE_FOUR_WINDS in fans
        prevalent = EAST + h.context.prevalent_wind
        seat = EAST + h.context.seat_wind
        for t in pungs:
            if EAST <= t < RED:
                own = False
                if t == prevalent:
                    fans[T.PREVALENT_WIND] = 1
                    own = True
                if t == seat:
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


def _knitted_unique_wait(h: PreparedHand, pattern: tuple[int, ...]) -> bool:
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

class Split:
    """One regular decomposition of standing tiles into sets and the pair (tile ids).

    A plain class rather than a ``NamedTuple``: one is made per hand, and compiled with mypyc
    a native class is built in about a tenth of the time (28 ns against 220 ns)."""

    __slots__ = ("chows", "pungs", "pair")

    chows: tuple[int, ...]
    """The first tile of each chow."""
    pungs: tuple[int, ...]
    """The tile of each pung."""
    pair: int
    """The pair's tile; -1 in the split of a suit that holds no pair."""

    def __init__(self, chows: tuple[int, ...], pungs: tuple[int, ...], pair: int) -> None:
        self.chows = chows
        self.pungs = pungs
        self.pair = pair

    def __repr__(self) -> str:
        return f"Split(chows={self.chows}, pungs={self.pungs}, pair={self.pair})"


class Reading:
    """One scored way to see the hand; what the result shows is built from it when read.
    A plain class for the reason given at :class:`Split` (one is made per reading)."""

    __slots__ = ("fans", "total", "shape", "split", "knitted")

    fans: dict[int, int]
    """Fan id -> count, after the exclusions (no flowers)."""
    total: int
    """Their points."""
    shape: str
    """``FanResult.shape``: regular, seven_pairs, thirteen_orphans, honors_knitted,
    knitted_straight."""
    split: Split | None
    """The standing sets and pair of a regular or knitted straight reading, else None."""
    knitted: tuple[int, ...] | None
    """The knitted straight's nine tiles, in a knitted straight reading."""

    def __init__(self, fans: dict[int, int], total: int, shape: str, split: Split | None,
                 knitted: tuple[int, ...] | None) -> None:
        self.fans = fans
        self.total = total
        self.shape = shape
        self.split = split
        self.knitted = knitted

    def __repr__(self) -> str:
        return (f"Reading(fans={self.fans}, total={self.total}, shape={self.shape!r}, "
                f"split={self.split}, knitted={self.knitted})")


_EMPTY_SUIT = (0,) * 9
SuitSets = tuple[Split, ...]


_SUIT_SETS: tuple[dict[tuple[int, ...], SuitSets], ...] = ({}, {}, {})


def _suit_sets(offset: int, key: tuple[int, ...]) -> SuitSets:
    """The suit's readings with tile ids (chow first tiles, pung tiles, pair or -1)."""
    table = _SUIT_SETS[offset // 9]
    found = table.get(key)
    if found is None:
        found = table[key] = _suit_sets_of(offset, key)
    return found


def _suit_sets_of(offset: int, key: tuple[int, ...]) -> SuitSets:
    return tuple(Split(tuple(offset + r for r in chows), tuple(offset + r for r in pungs),
                       offset + pair if pair >= 0 else -1)
                 for chows, pungs, pair in suit_readings(key))


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
    # the common case, one reading per suit, adds up here; several make a list
    chows: tuple[int, ...] = ()
    pungs: tuple[int, ...] = ()
    pair = pair_tile
    several: list[Split] | None = None
    for s in (0, 9, 18):
        key = tuple(counts[s:s + 9])
        if key != _EMPTY_SUIT:
            if not is_complete_suit(key):  # no reading: not a complete hand
                return ()
            found = _suit_sets(s, key)
            if found[0].pair >= 0:  # a suit's size fixes whether it holds the pair
                pair_groups += 1
            if len(found) == 1 and several is None:
                f = found[0]
                chows += f.chows
                pungs += f.pungs
                if f.pair >= 0:
                    pair = f.pair
            else:
                if several is None:
                    several = [Split(chows, pungs, pair)]
                several = [Split(c.chows + f.chows, c.pungs + f.pungs,
                                 c.pair if c.pair >= 0 else f.pair)
                           for c in several for f in found]
    if pair_groups != 1:
        return ()
    if several is None:
        return (Split(chows, pungs + honor_pungs, pair),)
    if honor_pungs:
        return tuple(Split(c.chows, c.pungs + honor_pungs, c.pair) for c in several)
    return tuple(several)


def _regular_readings(h: PreparedHand, splits: SuitSets,
                      knitted: tuple[int, ...] | None = None) -> list[Reading]:
    shape = "knitted_straight" if knitted else "regular"
    out: list[Reading] = []
    for split in splits:
        fans = _apply_exclusions(_regular_fans(h, split, knitted))
        out.append(Reading(fans, _total(fans), shape, split, knitted))
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


def _special_reading(h: PreparedHand, shape: str) -> Reading:
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
    return Reading(fans, _total(fans), shape, None, None)


def _knitted_splits(h: PreparedHand) -> list[tuple[tuple[int, ...], SuitSets]]:
    """Knitted straight + set + pair: (pattern, splits of the other tiles) for each."""
    if len(h.melds) > 1:
        return []
    out = []
    for pattern, rest in knitted_straight_rests(h.counts):
        splits = _regular_splits(rest)
        if splits:
            out.append((pattern, splits))
    return out


def _all_readings(h: PreparedHand) -> list[Reading]:
    """Every reading of a complete hand, scored; raises NotWinError if there is none."""
    splits = _regular_splits(h.counts)
    specials = _special_shapes(h.counts) if not h.melds else ()
    knitted = _knitted_splits(h)
    if not (splits or specials or knitted):
        raise NotWinError(h)
    h.begin_scoring()
    base = _hand_fans(h)
    # concealment and kongs are the same for every reading (special shapes exclude them)
    if h.n_exposed == 0:
        base[T.FULLY_CONCEALED if h.self_drawn else T.CONCEALED_HAND] = 1
    elif h.n_exposed == 4 and not h.self_drawn:
        base[T.MELDED_HAND] = 1
    kong_fans(h.melded_kongs, h.concealed_kongs, base)
    h.regular_base = base
    readings = _regular_readings(h, splits)
    for shape in specials:
        readings.append(_special_reading(h, shape))
    for pattern, knitted_splits in knitted:
        readings += _regular_readings(h, knitted_splits, pattern)
    return readings


def _groups(h: PreparedHand, reading: Reading) -> tuple[Group, ...]:
    """The sets and pair of a reading, for people (built only for the reading shown)."""
    tiles = tuple(sorted(h.standing))
    shape, split, knitted = reading.shape, reading.split, reading.knitted
    if split is None:
        if shape == "seven_pairs":
            return tuple(Group("pair", (t, t), True) for t in tiles[::2])
        return (Group(shape, tiles, True),)  # thirteen_orphans, honors_knitted
    chows, pungs, pair = split.chows, split.pungs, split.pair
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


def _result(h: PreparedHand, reading: Reading) -> FanResult:
    fans, total = reading.fans, reading.total
    flowers = h.flowers
    if flowers:
        fans = {**fans, T.FLOWER_TILES: flowers}
        total += flowers
    return FanResult(fans, total, flowers, reading.shape, partial(_groups, h, reading))


@overload
def calculate(hand: str | Iterable[object], melds: Iterable[object] = (),
              win_tile: object = None, *, context: WinContext | None) -> FanResult: ...


@overload
def calculate(hand: str | Iterable[object], melds: Iterable[object] = (),
              win_tile: object = None, *, self_drawn: Any = ..., last_copy: Any = ...,
              last_tile: Any = ..., kong_win: Any = ..., seat_wind: Any = ...,
              prevalent_wind: Any = ..., flowers: Any = ...) -> FanResult: ...


def calculate(hand: str | Iterable[object], melds: Iterable[object] = (),
              win_tile: object = None, *, self_drawn: Any = UNSET, last_copy: Any = UNSET,
              last_tile: Any = UNSET, kong_win: Any = UNSET, seat_wind: Any = UNSET,
              prevalent_wind: Any = UNSET, flowers: Any = UNSET,
              context: object = None) -> FanResult:
    """Score a winning hand.

    ``hand`` is the concealed tiles without the winning tile (ids, codes, or a string for
    :func:`mjenv.tiles.parse_tiles`); ``melds`` are :class:`~mjenv.melds.Meld` objects (or their
    JSON dicts); ``win_tile`` is the winning tile. How the hand was won is ``context``, a
    :class:`~mjenv.fans.context.WinContext`, or the same seven flags as keywords (not both):
    ``self_drawn``, ``last_copy`` (和绝张), ``last_tile`` (妙手回春 / 海底捞月), ``kong_win``
    (杠上开花 if self-drawn, else 抢杠和), ``seat_wind`` and ``prevalent_wind`` (0..3 = E S W N),
    ``flowers`` (0..8); those not given default as in ``WinContext``. The keywords are typed
    ``Any`` on purpose: ``WinContext`` checks them (booleans must be ``bool``, numbers
    ``int``) with a clear error, also when this module is compiled. (``context`` comes last
    in the signature so that the compiled keyword parser finds the seven flags first.)

    Raises :class:`NotWinError` if the tiles do not form a complete hand, and
    :class:`InvalidHandError` for input that cannot describe a real hand (``TypeError`` for
    both ``context`` and flag keywords). The result's ``meets_minimum`` says whether the hand
    may be won (8 points, flowers excluded).
    """
    if win_tile is None:
        raise InvalidHandError("win_tile is required")
    h = PreparedHand(hand, melds, win_tile, resolve_context(
        context, self_drawn, last_copy, last_tile, kong_win, seat_wind, prevalent_wind,
        flowers))
    readings = _all_readings(h)
    best = readings[0]
    for reading in readings:
        if reading.total > best.total:
            best = reading
    return _result(h, best)


@overload
def calculate_all(hand: str | Iterable[object], melds: Iterable[object] = (),
                  win_tile: object = None, *, context: WinContext | None) -> list[FanResult]: ...


@overload
def calculate_all(hand: str | Iterable[object], melds: Iterable[object] = (),
                  win_tile: object = None, *, self_drawn: Any = ..., last_copy: Any = ...,
                  last_tile: Any = ..., kong_win: Any = ..., seat_wind: Any = ...,
                  prevalent_wind: Any = ..., flowers: Any = ...) -> list[FanResult]: ...


def calculate_all(hand: str | Iterable[object], melds: Iterable[object] = (),
                  win_tile: object = None, *, self_drawn: Any = UNSET,
                  last_copy: Any = UNSET, last_tile: Any = UNSET, kong_win: Any = UNSET,
                  seat_wind: Any = UNSET, prevalent_wind: Any = UNSET, flowers: Any = UNSET,
                  context: object = None) -> list[FanResult]:
    """Every distinct scored reading of the hand, highest total first (ties keep the order
    in which readings are found). Same arguments and errors as :func:`calculate`."""
    if win_tile is None:
        raise InvalidHandError("win_tile is required")
    h = PreparedHand(hand, melds, win_tile, resolve_context(
        context, self_drawn, last_copy, last_tile, kong_win, seat_wind, prevalent_wind,
        flowers))
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
    clear_combination_tables()



"""Win detection for every MCR shape, and the waiting tiles of a 13-tile hand.

Regular hands are split suit by suit. For each suit the 9 counts form a key, and one table
holds, for every key met so far, every way the suit splits into sets and at most one pair. The
table is filled as hands need it, not at import: the whole of it (about 22,000 keys) took
~0.1 s to build, most of the start of a bot that Botzone starts every turn (docs/botzone.md),
while a turn meets a few hundred keys. With it:

* :func:`suit_readings` lists every way to cut one suit into chows, pungs and at most one
  pair (the fan calculator scores each combination of suit readings);
* a win check is one dictionary lookup per suit;
* ``suit_group_info`` says which ranks would complete a suit, so ``waiting_tiles`` needs no loop
  over the 34 kinds for the regular shape.

Honours cannot form chows, so they need no table: each honour count must be 0, 2 or 3.
Special shapes (seven pairs, thirteen orphans, honours-and-knitted, knitted straight + set
+ pair) are checked directly.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import permutations
from typing import NamedTuple

from mjenv.melds import Meld
from mjenv.tiles import EAST, NUM_KINDS, to_counts

SuitReading = tuple[tuple[int, ...], tuple[int, ...], int]
"""(chow first ranks 0..6, pung ranks 0..8, pair rank or -1) within one suit, always unpacked
(never read by index). A plain tuple, not a ``NamedTuple``: the table may hold 32,000 of them,
and as ``NamedTuple`` objects they made building it a third longer (measured in instructions,
compiled and not)."""

ORPHANS: tuple[int, ...] = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
HONORS: tuple[int, ...] = tuple(range(EAST, NUM_KINDS))
_KNITTED_RANKS = ((0, 3, 6), (1, 4, 7), (2, 5, 8))  # 147, 258, 369 (ranks from 0)
_KNITTED_ORDERS: tuple[tuple[int, ...], ...] = tuple(permutations(range(3)))
"""For each knitted straight, the suits of its 147, 258 and 369."""
KNITTED_PATTERNS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted(9 * suit + rank
                 for suit, ranks in zip(order, _KNITTED_RANKS, strict=True) for rank in ranks))
    for order in _KNITTED_ORDERS
)
"""The six knitted straights: 147, 258 and 369 in three different suits (tile ids)."""


# ---------------------------------------------------------------- one suit

_MAX_COPIES_IN_TABLE = 5
"""Suits with a fifth copy are in the table too: waits count a "fifth copy" (PyMahjongGB)."""


_MAX_SETS = 4
"""A suit of a hand holds at most four sets (and the pair)."""


def _split(counts: list[int], rank: int, chows: list[int], pungs: list[int], pair: int,
           out: list[SuitReading]) -> None:
    """Append to ``out`` every split of ``counts`` (from ``rank`` on; the ranks below are
    empty) into at most :data:`_MAX_SETS` sets and one pair, given the ``chows``, ``pungs`` and
    ``pair`` taken so far. Depth first, at the lowest tile left: a chow, then a pung, then the
    pair, so the splits come in the order of their steps (a reading that two orders of steps
    reach, such as 11123: chow then pair or pair then chow, comes twice)."""
    while rank < 9 and counts[rank] == 0:
        rank += 1
    if rank == 9:
        out.append((tuple(chows), tuple(pungs), pair))
        return
    room = len(chows) + len(pungs) < _MAX_SETS
    if room and rank <= 6 and counts[rank + 1] and counts[rank + 2]:
        counts[rank] -= 1
        counts[rank + 1] -= 1
        counts[rank + 2] -= 1
        chows.append(rank)
        _split(counts, rank, chows, pungs, pair, out)
        chows.pop()
        counts[rank] += 1
        counts[rank + 1] += 1
        counts[rank + 2] += 1
    if room and counts[rank] >= 3:
        counts[rank] -= 3
        pungs.append(rank)
        _split(counts, rank, chows, pungs, pair, out)
        pungs.pop()
        counts[rank] += 3
    if pair < 0 and counts[rank] >= 2:
        counts[rank] -= 2
        _split(counts, rank, chows, pungs, rank, out)
        counts[rank] += 2


def _readings_of(key: tuple[int, ...]) -> tuple[SuitReading, ...]:
    """Every reading of one suit, each once, in the order a depth-first split first finds it
    (so that, when two readings tie on total, the calculator shows the one PyMahjongGB shows
    more often); empty when the suit is no complete shape."""
    size = sum(key)
    if size % 3 == 1 or max(key) > _MAX_COPIES_IN_TABLE:
        return ()
    found: list[SuitReading] = []
    _split(list(key), 0, [], [], -1, found)
    if len(found) <= 1:
        return tuple(found)
    unique: list[SuitReading] = []
    for reading in found:
        if reading not in unique:
            unique.append(reading)
    return tuple(unique)


_SUIT_TABLE: dict[tuple[int, ...], tuple[SuitReading, ...]] = {}
"""Suit key -> its readings (empty: not a complete shape), for every key met so far."""
_EMPTY_SUIT = (0,) * 9


def suit_readings(key: tuple[int, ...]) -> tuple[SuitReading, ...]:
    """Every split of one suit's 9 counts into chows, pungs and a pair (if its size needs
    one); empty if there is none. Memoised."""
    found = _SUIT_TABLE.get(key)
    if found is None:
        found = _SUIT_TABLE[key] = _readings_of(key)
    return found


def is_complete_suit(key: tuple[int, ...]) -> bool:
    """Whether one suit's 9 counts split into sets and at most one pair."""
    found = _SUIT_TABLE.get(key)
    if found is None:
        found = _SUIT_TABLE[key] = _readings_of(key)
    return bool(found)


class GroupInfo(NamedTuple):
    """What one suit (its 9 counts), or the honours (their 7 counts), is for the wait finders:
    ranks are 0..8 within the suit (0..6 for the honours, from East)."""

    rem: int
    """The number of tiles mod 3."""
    complete: bool
    """It splits into sets only."""
    complete_with_pair: bool
    """It splits into sets and one pair."""
    waits: tuple[int, ...]
    """Ranks whose one more copy makes it ``complete`` (sets only; a fifth copy counts)."""
    waits_with_pair: tuple[int, ...]
    """Ranks whose one more copy makes it ``complete_with_pair`` (a fifth copy counts)."""
    odd: int
    """How many kinds it holds an odd number of (seven pairs waits on the one such kind)."""
    most: int
    """The largest count (honours and knitted tiles wants none above 1)."""
    simples: bool
    """It holds a kind other than a terminal or an honour (thirteen orphans wants none)."""
    classes: tuple[int, int, int]
    """How many of its kinds of ranks 1-4-7, 2-5-8 and 3-6-9 it holds (all 0 for the honours):
    a knitted straight needs 8 of its 9 kinds held before it can be a wait."""


_SUIT_INFO: dict[tuple[int, ...], GroupInfo] = {}
_HONOR_INFO: dict[tuple[int, ...], GroupInfo] = {}
_INFO_BY_CODE: dict[int, GroupInfo] = {}
"""The same group infos (suits and honours) by :func:`_group_code`: the engine asks for the
waits after every discard, and an int made in one pass over the counts is found faster than a
tuple key, which must be sliced, built and hashed."""


def clear_group_info() -> None:
    """Forget the memoised suit readings and group infos (for cold-start benchmarks; results
    never change)."""
    _SUIT_TABLE.clear()
    _SUIT_INFO.clear()
    _HONOR_INFO.clear()
    _INFO_BY_CODE.clear()


def suit_group_info(key: tuple[int, ...]) -> GroupInfo:
    """What one suit (its 9 counts) is: see ``GroupInfo``. Memoised."""
    found = _SUIT_INFO.get(key)
    if found is None:
        found = _SUIT_INFO[key] = _suit_group_info_of(key)
    return found


def _suit_group_info_of(key: tuple[int, ...]) -> GroupInfo:
    size = sum(key)
    rem = size % 3
    complete = is_complete_suit(key)
    waits_sets: list[int] = []
    waits_pair: list[int] = []
    if rem != 0 and size < 14:
        for rank in range(9):  # a fifth copy counts too (PyMahjongGB's 独听 rule)
            if is_complete_suit(key[:rank] + (key[rank] + 1,) + key[rank + 1:]):
                (waits_sets if rem == 2 else waits_pair).append(rank)
    odd, most = _shape_facts(key)
    return GroupInfo(rem, complete and rem == 0, complete and rem == 2, tuple(waits_sets),
                     tuple(waits_pair), odd, most, any(key[1:8]),
                     (int(key[0] > 0) + int(key[3] > 0) + int(key[6] > 0),
                      int(key[1] > 0) + int(key[4] > 0) + int(key[7] > 0),
                      int(key[2] > 0) + int(key[5] > 0) + int(key[8] > 0)))


def _shape_facts(key: tuple[int, ...]) -> tuple[int, int]:
    """A group's ``odd`` and ``most`` (see ``GroupInfo``)."""
    return sum(c & 1 for c in key), max(key)


def honor_group_info(key: tuple[int, ...]) -> GroupInfo:
    """What the honours (their 7 counts) are: see ``GroupInfo``. Honours form only pungs and
    pairs: each count must be 0, 2 or 3. Memoised."""
    found = _HONOR_INFO.get(key)
    if found is None:
        found = _HONOR_INFO[key] = _honor_group_info_of(key)
    return found


def _honor_group_info_of(key: tuple[int, ...]) -> GroupInfo:
    rem = sum(key) % 3
    singles = [i for i, c in enumerate(key) if c == 1]
    doubles = [i for i, c in enumerate(key) if c == 2]
    bad = 4 in key
    ok = not bad and not singles
    waits_sets: tuple[int, ...] = ()
    waits_pair: tuple[int, ...] = ()
    if not bad:
        if not singles and len(doubles) == 2:  # one pair becomes a pung, the other stays
            waits_pair = tuple(doubles)
        elif not singles and len(doubles) == 1:
            waits_sets = tuple(doubles)
        elif len(singles) == 1 and not doubles:
            waits_pair = tuple(singles)
    odd, most = _shape_facts(key)
    return GroupInfo(rem, ok and not doubles, ok and len(doubles) == 1, waits_sets, waits_pair,
                     odd, most, False, (0, 0, 0))


def _group_infos(counts: Sequence[int]) -> tuple[GroupInfo, GroupInfo, GroupInfo, GroupInfo]:
    # a list, so that the compiled _group_code indexes it directly (the engine passes one)
    c = counts if isinstance(counts, list) else list(counts)
    return (_group_info_at(c, 0), _group_info_at(c, 9), _group_info_at(c, 18),
            _group_info_at(c, EAST))


def _group_info_at(counts: list[int], start: int) -> GroupInfo:
    """:func:`suit_group_info` (``start`` 0, 9 or 18) or :func:`honor_group_info` (``start``
    EAST) of that group of ``counts``, memoised by :func:`_group_code`."""
    code = _group_code(counts, start)
    found = _INFO_BY_CODE.get(code)
    if found is None:
        key = tuple(counts[start:start + 9 if start < EAST else NUM_KINDS])
        found = suit_group_info(key) if start < EAST else honor_group_info(key)
        if code >= 0:
            _INFO_BY_CODE[code] = found
    return found


def _group_code(counts: list[int], start: int) -> int:
    """A group's counts as one int, 3 bits a count below a leading 1 (so a suit's 9 counts and
    the honours' 7 never share a code, and the three suits share theirs, as their infos are
    the same); -1 when a count does not fit 3 bits (no hand has one; such a group is looked up
    by its tuple instead)."""
    end = start + 9 if start < EAST else NUM_KINDS
    code = 1
    for t in range(start, end):
        c = counts[t]
        if not 0 <= c < 8:
            return -1
        code = (code << 3) | c
    return code


_GROUP_OFFSETS = (0, 9, 18, EAST)


# ---------------------------------------------------------------- regular shape

def is_regular_complete(counts: Sequence[int]) -> bool:
    """Standing tiles (any number 3k+2) split into sets and exactly one pair."""
    pair_groups = 0
    for start in (0, 9, 18):
        key = tuple(counts[start:start + 9])
        if key != _EMPTY_SUIT:
            readings = _SUIT_TABLE.get(key)
            if readings is None:
                readings = _SUIT_TABLE[key] = _readings_of(key)
            if not readings:
                return False
            _, _, pair = readings[0]  # a suit's size fixes whether it holds the pair
            if pair >= 0:
                pair_groups += 1
    for t in range(EAST, NUM_KINDS):
        c = counts[t]
        if c == 2:
            pair_groups += 1
        elif c == 1 or c >= 4:
            return False
    return pair_groups == 1


def regular_waits(counts: Sequence[int]) -> list[int]:
    """Kinds that complete standing tiles (3k+1 of them) as sets + one pair. A kind of
    which all four copies are already held still counts (a "fifth copy"), as in PyMahjongGB."""
    return sorted(_regular_waits_of(_group_infos(counts)))


def _regular_waits_of(infos: tuple[GroupInfo, GroupInfo, GroupInfo, GroupInfo]) -> list[int]:
    """:func:`regular_waits` from the four groups' infos, in ascending order (by group, then by
    rank: each group's ``waits`` are ascending)."""
    rems = [info.rem for info in infos]
    waits: list[int] = []
    ones = rems.count(1)
    if ones == 1 and rems.count(0) == 3:
        g = rems.index(1)
        if all(infos[h].complete for h in range(4) if h != g):
            waits = [_GROUP_OFFSETS[g] + r for r in infos[g].waits_with_pair]
    elif ones == 0 and rems.count(2) == 2:
        twos = [g for g in range(4) if rems[g] == 2]
        if all(infos[h].complete for h in range(4) if rems[h] == 0):
            for g in twos:
                other = twos[0] if g == twos[1] else twos[1]
                if infos[other].complete_with_pair:
                    waits += [_GROUP_OFFSETS[g] + r for r in infos[g].waits]
    return waits


# ---------------------------------------------------------------- special shapes

def is_seven_pairs(counts: Sequence[int]) -> bool:
    """Seven pairs (two of them may be the same tile: 四归一)."""
    return sum(counts) == 14 and all(c % 2 == 0 for c in counts)


def is_thirteen_orphans(counts: Sequence[int]) -> bool:
    return (sum(counts) == 14 and all(counts[t] for t in ORPHANS)
            and sum(counts[t] for t in ORPHANS) == 14)


def knitted_pattern_of(counts: Sequence[int]) -> tuple[int, ...] | None:
    """The knitted pattern containing every suited tile held (first of several), or None."""
    suited = [t for t in range(EAST) if counts[t]]
    for pattern in KNITTED_PATTERNS:
        if all(t in pattern for t in suited):
            return pattern
    return None


def is_honors_and_knitted(counts: Sequence[int]) -> bool:
    return (sum(counts) == 14 and max(counts) == 1
            and knitted_pattern_of(counts) is not None)


def knitted_straight_rests(counts: Sequence[int]) -> list[tuple[tuple[int, ...], list[int]]]:
    """For each knitted straight fully held, the (pattern, counts without it) pairs."""
    out: list[tuple[tuple[int, ...], list[int]]] = []
    # every pattern holds one rank-1, one rank-2 and one rank-3 tile: a cheap first test
    for rank in (0, 1, 2):
        if not (counts[rank] or counts[9 + rank] or counts[18 + rank]):
            return out
    for pattern in KNITTED_PATTERNS:
        if all(counts[t] for t in pattern):
            rest = list(counts)
            for t in pattern:
                rest[t] -= 1
            out.append((pattern, rest))
    return out


def is_knitted_straight_complete(counts: Sequence[int], n_melds: int) -> bool:
    if n_melds > 1:
        return False
    return any(is_regular_complete(rest) for _, rest in knitted_straight_rests(counts))


# ---------------------------------------------------------------- public API

def is_complete_counts(counts: Sequence[int], n_melds: int) -> bool:
    """Shape check on the standing tiles' counts (14 − 3·melds of them), all shapes."""
    if is_regular_complete(counts):
        return True
    if n_melds == 0:
        most = max(counts)
        if most == 1:
            return is_honors_and_knitted(counts) or is_knitted_straight_complete(counts, 0)
        if most == 2 and is_thirteen_orphans(counts):
            return True
        if is_seven_pairs(counts):
            return True
    return is_knitted_straight_complete(counts, n_melds)


def is_complete(hand: Sequence[int], melds: Sequence[Meld] = ()) -> bool:
    """Whether the standing tiles (with the winning tile) form a complete hand with the melds.

    Only the shape is checked; the 8-point minimum is the fan calculator's job.
    """
    if len(hand) != 14 - 3 * len(melds):
        return False
    return is_complete_counts(to_counts(hand), len(melds))


def waiting_counts(counts: list[int], n_melds: int) -> list[int]:
    """Kinds that complete the standing tiles given as counts (13 − 3·melds tiles).

    The engine asks this after every discard, and most hands are near no special shape: the
    four groups' infos (memoised, see ``GroupInfo``) say whether one can be, so such a hand
    costs the regular shape's lookups and no pass over the 34 kinds."""
    infos = _group_infos(counts)
    regular = _regular_waits_of(infos)
    if n_melds > 1:
        return regular
    w, t, b, h = infos
    held_by_class = [*w.classes, *t.classes, *b.classes]  # suit * 3 + rank % 3
    knitted = _knitted_straight_near(held_by_class)
    if n_melds == 1 and not knitted:
        return regular
    n_odd = w.odd + t.odd + b.odd + h.odd
    most = max(w.most, t.most, b.most, h.most)
    simples = w.simples or t.simples or b.simples
    if not knitted and n_odd != 1 and simples and most != 1:
        return regular
    waits = set(regular)
    if n_melds == 0:
        if n_odd == 1:  # seven pairs
            waits.add(next(k for k in range(NUM_KINDS) if counts[k] & 1))
        if not simples:  # thirteen orphans
            missing = [k for k in ORPHANS if not counts[k]]
            if not missing:
                waits.update(ORPHANS)
            elif len(missing) == 1:
                waits.add(missing[0])
        if most == 1:  # honours and knitted tiles
            suited = [k for k in range(EAST) if counts[k]]
            for pattern in KNITTED_PATTERNS:
                if all(k in pattern for k in suited):
                    waits.update(k for k in pattern if not counts[k])
                    waits.update(k for k in HONORS if not counts[k])
    if knitted:
        _add_knitted_straight_waits(counts, n_melds, waits)
    return sorted(waits)


def _knitted_straight_near(held_by_class: list[int]) -> bool:
    """Whether some knitted straight has 8 of its 9 kinds held (``held_by_class``: by suit
    and rank class, see :func:`waiting_counts`): only then can a wait complete one."""
    for order in _KNITTED_ORDERS:
        if held_by_class[order[0] * 3] + held_by_class[order[1] * 3 + 1] \
                + held_by_class[order[2] * 3 + 2] >= 8:
            return True
    return False


def _add_knitted_straight_waits(counts: list[int], n_melds: int, waits: set[int]) -> None:
    """Add to ``waits`` the kinds that complete a knitted straight hand (asked only when
    :func:`_knitted_straight_near`)."""
    for t in range(NUM_KINDS):
        if t in waits:
            continue
        counts[t] += 1
        if is_knitted_straight_complete(counts, n_melds):
            waits.add(t)
        counts[t] -= 1


def waiting_tiles(hand: Sequence[int], melds: Sequence[Meld] = ()) -> list[int]:
    """The tile kinds that complete a ready hand (13 − 3·melds standing tiles), any shape.

    Availability is not checked: a kind of which the hand already holds four copies
    still counts, as in PyMahjongGB (it matters for the single-wait fans).
    """
    if len(hand) != 13 - 3 * len(melds):
        raise ValueError(
            f"a hand with {len(melds)} meld(s) has {13 - 3 * len(melds)} standing tiles, "
            f"got {len(hand)}")
    return waiting_counts(to_counts(hand), len(melds))

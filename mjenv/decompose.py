"""Win detection for every MCR shape, and the waiting tiles of a 13-tile hand.

Regular hands are split suit by suit. For each suit the 9 counts form a key, and two
memoised tables answer everything the calculator and the engine ask:

* :func:`suit_readings` lists every way to cut one suit into chows, pungs and at most one
  pair (the fan calculator scores each combination of suit readings);
* ``_suit_info`` says whether a suit is complete without or with a pair, and which ranks
  would complete it — so a win check is a few dictionary lookups and ``waiting_tiles`` needs
  no loop over the 34 kinds for the regular shape.

Honours cannot form chows, so they need no table: each honour count must be 0, 2 or 3.
Special shapes (seven pairs, thirteen orphans, honours-and-knitted, knitted straight + set
+ pair) are checked directly.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import permutations

from mjenv.melds import Meld
from mjenv.tiles import EAST, NUM_KINDS, to_counts

SuitReading = tuple[tuple[int, ...], tuple[int, ...], int]
"""(chow first ranks 0..6, pung ranks 0..8, pair rank or -1) within one suit."""

ORPHANS: tuple[int, ...] = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
HONORS: tuple[int, ...] = tuple(range(EAST, NUM_KINDS))
_KNITTED_RANKS = ((0, 3, 6), (1, 4, 7), (2, 5, 8))  # 147, 258, 369 (ranks from 0)
KNITTED_PATTERNS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted(9 * suit + rank
                 for suit, ranks in zip(order, _KNITTED_RANKS, strict=True) for rank in ranks))
    for order in permutations(range(3))
)
"""The six knitted straights: 147, 258 and 369 in three different suits (tile ids)."""

_ORPHAN_SET = frozenset(ORPHANS)
_HONOR_SET = frozenset(HONORS)


# ---------------------------------------------------------------- one suit

@cache
def _readings(key: tuple[int, ...], pair_allowed: bool) -> tuple[SuitReading, ...]:
    start = next((i for i, c in enumerate(key) if c), -1)
    if start < 0:
        return (((), (), -1),)
    out: list[SuitReading] = []
    counts = list(key)
    c = counts[start]
    # Chows are tried first: when two readings tie on total, the first one found is shown, and
    # this order picks the same reading as PyMahjongGB more often.
    if start <= 6 and counts[start + 1] and counts[start + 2]:
        counts[start] -= 1
        counts[start + 1] -= 1
        counts[start + 2] -= 1
        for chows, pungs, pair in _readings(tuple(counts), pair_allowed):
            out.append(((start, *chows), pungs, pair))
        counts[start] += 1
        counts[start + 1] += 1
        counts[start + 2] += 1
    if c >= 3:
        counts[start] -= 3
        for chows, pungs, pair in _readings(tuple(counts), pair_allowed):
            out.append((chows, (start, *pungs), pair))
        counts[start] += 3
    if c >= 2 and pair_allowed:
        counts[start] -= 2
        for chows, pungs, _ in _readings(tuple(counts), False):
            out.append((chows, pungs, start))
        counts[start] += 2
    return tuple(dict.fromkeys(out))  # the pair can be reached by two paths: keep one


def suit_readings(key: tuple[int, ...]) -> tuple[SuitReading, ...]:
    """Every split of one suit's 9 counts into chows, pungs and a pair (if its size needs one)."""
    size = sum(key)
    if size % 3 == 1:
        return ()
    readings = _readings(key, size % 3 == 2)
    if size % 3 == 2:
        return tuple(r for r in readings if r[2] >= 0)
    return readings


GroupInfo = tuple[int, bool, bool, tuple[int, ...], tuple[int, ...]]
"""(size mod 3, complete with sets only, complete with one pair, ranks completing it with
sets only, ranks completing it with a pair) of one suit, or of the honours."""


@cache
def _suit_info(key: tuple[int, ...]) -> GroupInfo:
    size = sum(key)
    rem = size % 3
    complete = rem != 1 and bool(suit_readings(key))
    waits_sets: list[int] = []
    waits_pair: list[int] = []
    if rem != 0 and size < 14:
        for rank in range(9):  # a fifth copy counts too (PyMahjongGB's 独听 rule)
            bigger = key[:rank] + (key[rank] + 1,) + key[rank + 1:]
            if suit_readings(bigger):
                (waits_sets if rem == 2 else waits_pair).append(rank)
    return rem, complete and rem == 0, complete and rem == 2, tuple(waits_sets), tuple(waits_pair)


@cache
def _honor_info(key: tuple[int, ...]) -> GroupInfo:
    """Honours form only pungs and pairs: each count must be 0, 2 or 3."""
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
    return rem, ok and not doubles, ok and len(doubles) == 1, waits_sets, waits_pair


def _group_infos(counts: Sequence[int]) -> tuple[GroupInfo, GroupInfo, GroupInfo, GroupInfo]:
    return (_suit_info(tuple(counts[0:9])), _suit_info(tuple(counts[9:18])),
            _suit_info(tuple(counts[18:27])), _honor_info(tuple(counts[27:34])))


_GROUP_OFFSETS = (0, 9, 18, EAST)


# ---------------------------------------------------------------- regular shape

def is_regular_complete(counts: Sequence[int]) -> bool:
    """Standing tiles (any number 3k+2) split into sets and exactly one pair."""
    pair_groups = 0
    for info in _group_infos(counts):
        rem = info[0]
        if rem == 1 or not (info[2] if rem == 2 else info[1]):
            return False
        pair_groups += rem == 2
    return pair_groups == 1


def regular_waits(counts: Sequence[int]) -> list[int]:
    """Kinds that complete standing tiles (3k+1 of them) as sets + one pair. A kind of
    which all four copies are already held still counts (a "fifth copy"), as in PyMahjongGB."""
    infos = _group_infos(counts)
    rems = [info[0] for info in infos]
    waits: list[int] = []
    ones = rems.count(1)
    if ones == 1 and rems.count(0) == 3:
        g = rems.index(1)
        if all(infos[h][1] for h in range(4) if h != g):
            waits = [_GROUP_OFFSETS[g] + r for r in infos[g][4]]
    elif ones == 0 and rems.count(2) == 2:
        twos = [g for g in range(4) if rems[g] == 2]
        if all(infos[h][1] for h in range(4) if rems[h] == 0):
            for g in twos:
                other = twos[0] if g == twos[1] else twos[1]
                if infos[other][2]:
                    waits += [_GROUP_OFFSETS[g] + r for r in infos[g][3]]
    return sorted(waits)


# ---------------------------------------------------------------- special shapes

def is_seven_pairs(counts: Sequence[int]) -> bool:
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
    out = []
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
    if n_melds == 0 and (is_seven_pairs(counts) or is_thirteen_orphans(counts)
                         or is_honors_and_knitted(counts)):
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
    """Kinds that complete the standing tiles given as counts (13 − 3·melds tiles)."""
    waits = set(regular_waits(counts))
    if n_melds == 0:
        odd = [t for t in range(NUM_KINDS) if counts[t] % 2]
        if len(odd) == 1:
            waits.add(odd[0])
        held = [t for t in range(NUM_KINDS) if counts[t]]
        if all(t in _ORPHAN_SET for t in held):
            missing = [t for t in ORPHANS if not counts[t]]
            if not missing:
                waits.update(ORPHANS)
            elif len(missing) == 1:
                waits.add(missing[0])
        if max(counts) == 1:
            suited = [t for t in held if t < EAST]
            for pattern in KNITTED_PATTERNS:
                if all(t in pattern for t in suited):
                    waits.update(t for t in pattern if not counts[t])
                    waits.update(t for t in HONORS if not counts[t])
    if n_melds <= 1:
        for pattern in KNITTED_PATTERNS:
            if sum(1 for t in pattern if counts[t]) >= 8:
                for t in range(NUM_KINDS):
                    if t in waits:
                        continue
                    counts[t] += 1
                    if is_knitted_straight_complete(counts, n_melds):
                        waits.add(t)
                    counts[t] -= 1
    return sorted(waits)


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

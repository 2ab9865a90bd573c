"""Set-combination fans, as pure functions of the sets of a reading.

Chows: the 4-, 3- and 2-chow fans with 不得相同 / 套算一次 (:func:`_count_chow_pairs`); pungs: a
3-pung fan leaves the fourth pung one 2-pung fan (:func:`_pung_combination_fans`); kongs. The
results for a tuple of chows or pungs are kept in two tables over those finite sets of keys,
filled as hands need them, together with the traits every set shares (all contain a terminal or
honour, a five, an even rank) that 全带幺 / 全带五 / 全双刻 read.
"""

from __future__ import annotations

from collections.abc import Sequence

from mjenv.fans import table as T
from mjenv.tiles import EAST, NUM_KINDS, RED

# ---------------------------------------------------------------- chows

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


def terminal_chows_fan(chows: Sequence[int], pair: int) -> int:
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
        fan = terminal_chows_fan(chows, pair) or _four_chow_fan(chows)
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


# ---------------------------------------------------------------- pungs and kongs

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


def kong_fans(melded_kongs: int, concealed_kongs: int, fans: dict[int, int]) -> None:
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



OUTSIDE, FIVE, EVEN = 1, 2, 4
_CHOW_TRAITS = tuple((OUTSIDE if c % 9 in (0, 6) else 0) | (FIVE if c % 9 in (2, 3, 4) else 0)
                     for c in range(EAST))
TILE_TRAITS = tuple(
    OUTSIDE if t >= EAST else
    (OUTSIDE if t % 9 in (0, 8) else 0) | (FIVE if t % 9 == 4 else 0)
    | (EVEN if t % 9 in (1, 3, 5, 7) else 0)
    for t in range(NUM_KINDS))


ChowInfo = tuple[tuple[tuple[int, int], ...], int]
PungInfo = tuple[tuple[tuple[int, int], ...], int, int, int, bool]
_CHOW_TABLE: dict[tuple[int, ...], ChowInfo] = {}
_PUNG_TABLE: dict[tuple[int, ...], PungInfo] = {}


def chow_combination(chows: tuple[int, ...]) -> ChowInfo:
    """(chow-combination fans, traits shared by all chows) of a sorted tuple of chows. A finite
    table (12,650 tuples of up to four chows), filled as hands need it: built whole at import
    it cost ~0.1 s, most of the start of a bot that Botzone starts every turn."""
    found = _CHOW_TABLE.get(chows)
    if found is None:
        found = _CHOW_TABLE[chows] = _chow_combination_of(chows)
    return found


def _chow_combination_of(chows: tuple[int, ...]) -> ChowInfo:
    fans: dict[int, int] = {}
    _chow_fans(chows, -1, fans)
    traits = OUTSIDE | FIVE | EVEN
    for c in chows:
        traits &= _CHOW_TRAITS[c]
    return tuple(fans.items()), traits


def pung_combination(pungs: tuple[int, ...]) -> PungInfo:
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
    traits = OUTSIDE | FIVE | EVEN
    for t in pungs:
        traits &= TILE_TRAITS[t]
    return tuple(fans.items()), dragons, terminals, traits, any(EAST <= t < RED for t in pungs)


def clear_combination_tables() -> None:
    """Forget the chow and pung combinations memoised so far (for cold-start benchmarks;
    results never change)."""
    _CHOW_TABLE.clear()
    _PUNG_TABLE.clear()

"""Shanten (向听数) for every MCR shape, and the tiles that lower it.

The shanten number is how many tiles a hand still lacks before it is *ready* (听牌):

* ``0``: ready, one tile from complete;
* ``-1``: complete (only a 14-form hand, with its winning tile, can be complete);
* ``n > 0``: at least ``n`` draws that improve it are needed before the hand is ready.

Conventions are those of PyMahjongGB 1.4.0 (the summerinsects algorithm used on Botzone), and
a differential test keeps us equal to it (``docs/shanten-differential.md``):

* A hand is ``13 - 3·melds`` standing tiles (the *13-form*, waiting for a tile) or
  ``14 - 3·melds`` (the *14-form*: after a draw or a claim, before the discard). PyMahjongGB
  only takes the 13-form (``MahjongShanten`` raises ``TypeError`` on 14 tiles); for the 14-form
  we give ``-1`` when the hand is complete and otherwise the best shanten after one discard,
  which the same formulas compute directly.
* Melds are sets already made. Seven pairs, thirteen orphans and honours-and-knitted need a
  fully concealed hand; the knitted straight (+ a set and a pair) allows at most one meld.
  A shape the melds rule out has no shanten (``None`` here; PyMahjongGB raises).
* **Regular** (four sets and a pair): ``8 - 2·sets - min(partial sets, 4 - sets) - pair``,
  minimised over every way to cut the standing tiles into sets (chows, pungs), partial sets
  (two tiles one tile short of a set: a pair, two neighbours, two tiles one apart) and at
  most one pair; melds count as sets. **Seven pairs**: ``6 - pairs`` (four of a kind are two
  pairs). **Thirteen orphans**: ``13 - kinds of terminals and honours held - (1 if one of them
  is held twice)``. **Honours and knitted**: ``13 - (kinds held of one knitted straight
  pattern + kinds of honours held)``, best pattern. **Knitted straight**: for each of the six
  patterns, the pattern tiles missing plus the regular shanten of the rest, the pattern
  counting as three sets; best pattern.

Useful tiles (有效牌) of a 13-form hand, two notions kept apart:

* ``useful``: the kinds that advance the shape, i.e. whose addition lowers the shanten. It
  may list a kind of which the player holds all four copies (a "fifth copy"): for a ready
  hand that is a wait that cannot come (PyMahjongGB and :func:`mjenv.decompose.waiting_tiles`
  list it too, it matters for the single-wait fans); PyMahjongGB leaves out a kind held four
  times among the standing tiles when the hand is not ready, we do not (see the docs).
* ``drawable``: the useful kinds the player can still draw, i.e. not all four copies in the
  player's own hand and melds; and ``unseen``, for each, the copies neither there nor among
  the tiles the player has seen on the table (discards, other players' melds), when given.

Table-driven: each suit's 9 counts (and the honours' 7) map to a small vector (tabled at
import for groups of up to 5 tiles, otherwise the first time a group is met): for each
number of blocks (sets + partial sets, 0..4) and with or without the pair, the best value
``2·sets + partial sets (+ 1 for the pair)`` that suit can give.
Combining the four groups is a tiny max-plus product; a tile added to one suit changes one
vector. There are few distinct vectors (about 120 in random play, against tens of thousands of
groups), so the products and the best values of every pair of them are tables indexed by
vector numbers, and each group met keeps its neighbours one copy away: a hand one tile from
another costs list reads, not searches. Nothing caches whole results.

Hands one tile apart (each discard of a 14-form hand, each tile tried as useful) share all
groups but one: :func:`discard_outcomes` gives the shanten after every discard and the useful
tiles after each best one from the hand's groups and special-shape counts, each adjusted for
the tile taken, for about the price of one analysis; :func:`useful_counts` is the 13-form
hand's (shanten, useful tiles). The hand-analysis planes (mjenv.encoders.shanten_planes) rest
on them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from mjenv.decompose import HONORS, KNITTED_PATTERNS, ORPHANS
from mjenv.inputs import KIND_OF, melds_of, tile_kinds
from mjenv.melds import Meld
from mjenv.tiles import CODES, EAST, NUM_KINDS

REGULAR = "regular"
SEVEN_PAIRS = "seven_pairs"
THIRTEEN_ORPHANS = "thirteen_orphans"
HONORS_KNITTED = "honors_knitted"
KNITTED_STRAIGHT = "knitted_straight"
SHAPES: tuple[str, ...] = (REGULAR, SEVEN_PAIRS, THIRTEEN_ORPHANS, HONORS_KNITTED,
                           KNITTED_STRAIGHT)
"""The five shapes, named as ``FanResult.shape`` names them."""

SHAPE_NAMES: dict[str, str] = {
    REGULAR: "regular (4 sets + pair)",
    SEVEN_PAIRS: "seven pairs",
    THIRTEEN_ORPHANS: "thirteen orphans",
    HONORS_KNITTED: "honours and knitted",
    KNITTED_STRAIGHT: "knitted straight + set + pair",
}


# ---------------------------------------------------------------- results

@dataclass(frozen=True, slots=True)
class ShapeShanten:
    """The shanten of one shape, and its useful tiles (13-form hands only; empty otherwise).

    ``useful``: kinds whose addition lowers this shape's shanten (a kind held four times may
    be among them). ``drawable``: those not all four copies of which are in the player's own
    hand and melds. ``unseen``: for each drawable kind, in the same order, the copies neither
    there nor among the seen tiles.
    """

    shape: str
    shanten: int
    useful: tuple[int, ...] = ()
    drawable: tuple[int, ...] = ()
    unseen: tuple[int, ...] = ()

    @property
    def unseen_total(self) -> int:
        """Copies of the drawable useful kinds still unseen, all kinds together."""
        return sum(self.unseen)


@dataclass(frozen=True, slots=True)
class ShantenResult:
    """Shanten of a hand overall and per shape, with its useful tiles.

    ``shanten`` is the best of the shapes the melds allow (``shapes`` lists those, in
    :data:`SHAPES` order). For a 13-form hand (``discard_first`` false) ``useful`` are the
    kinds that lower the overall shanten, ``drawable`` those the player can still draw and
    ``unseen`` the copies of each drawable kind not yet seen (same order as ``drawable``).
    A 14-form hand (``discard_first`` true) has no useful tiles before its discard: see
    :func:`mjenv.analysis.best_discards`.
    """

    shanten: int
    shapes: tuple[ShapeShanten, ...]
    useful: tuple[int, ...]
    drawable: tuple[int, ...]
    unseen: tuple[int, ...]
    discard_first: bool

    @property
    def is_ready(self) -> bool:
        return self.shanten == 0

    @property
    def is_complete(self) -> bool:
        return self.shanten == -1

    @property
    def unseen_total(self) -> int:
        """Copies of the drawable useful kinds still unseen, all kinds together."""
        return sum(self.unseen)

    def unseen_of(self, kind: int) -> int:
        """Unseen copies of one drawable useful kind (0 for a kind that is not one)."""
        for t, n in zip(self.drawable, self.unseen, strict=True):
            if t == kind:
                return n
        return 0

    def shape(self, name: str) -> ShapeShanten | None:
        """The entry of one shape, or None when the melds rule it out."""
        for entry in self.shapes:
            if entry.shape == name:
                return entry
        return None


# ---------------------------------------------------------------- input

def _tile_counts(values: object) -> tuple[list[int], int]:
    """(34 counts, number of tiles) of the standing tiles: one dictionary lookup per tile in
    the common case (a list or tuple of ids or codes), full checks otherwise."""
    counts = [0] * NUM_KINDS
    if isinstance(values, (list, tuple)):
        try:
            for v in values:
                counts[KIND_OF[v]] += 1
            # True and False hash as ids 1 and 0: only then look for booleans
            if not (counts[0] or counts[1]) or bool not in set(map(type, values)):
                return counts, len(values)
        except (KeyError, TypeError):
            pass
        counts = [0] * NUM_KINDS
    tiles = tile_kinds(values, "hand")
    for t in tiles:
        counts[t] += 1
    return counts, len(tiles)


class CheckedHand:
    """A checked hand: ``counts`` of the standing tiles (34 entries), ``melds``, ``own``
    (the player's tiles per kind, hand and melds; the same list as ``counts`` without melds:
    read only) and ``size`` (standing tiles). Raises ``ValueError`` saying what is wrong: not
    tiles, a flower, a tile count that is neither 13 − 3·melds nor 14 − 3·melds, more than 4
    melds, more than 4 copies of a kind."""

    __slots__ = ("counts", "melds", "n_melds", "own", "size")

    counts: list[int]
    melds: list[Meld]
    n_melds: int
    own: list[int]
    size: int

    def __init__(self, hand: object, melds: object = ()) -> None:
        counts, size = _tile_counts(hand)
        if isinstance(melds, (list, tuple)) and not melds:
            meld_list: list[Meld] = []
            n = 0
            own = counts
        else:
            meld_list = melds_of(melds)
            n = len(meld_list)
            own = counts[:]
            for m in meld_list:
                for t in m.tiles:
                    own[t] += 1
        if size != 13 - 3 * n and size != 14 - 3 * n:
            raise ValueError(f"with {n} meld(s) a hand has {13 - 3 * n} standing tiles (or "
                             f"{14 - 3 * n} before a discard), got {size}")
        if max(own) > 4:
            t = own.index(max(own))
            raise ValueError(f"more than 4 copies of {CODES[t]} ({own[t]}) in the hand "
                             "and melds")
        self.counts = counts
        self.melds = meld_list
        self.n_melds = n
        self.own = own
        self.size = size

    @property
    def discard_first(self) -> bool:
        """Whether this is the 14-form (a tile to discard before waiting)."""
        return self.size % 3 == 2


def seen_counts_of(seen: object = None, seen_counts: object = None,
                   own: Sequence[int] | None = None) -> list[int]:
    """The 34 counts of the tiles seen on the table outside the player's own hand and melds,
    from tiles (``seen``: a string or ids / codes) or counts (``seen_counts``: 34 integers);
    with ``own``, checks that no kind exceeds four copies in all."""
    if seen is not None and seen_counts is not None:
        raise ValueError("give the seen tiles either as tiles (seen) or as counts "
                         "(seen_counts), not both")
    counts = [0] * NUM_KINDS
    if seen is not None:
        for t in tile_kinds(seen, "seen"):
            counts[t] += 1
    elif seen_counts is not None:
        if isinstance(seen_counts, (str, bytes)) or not isinstance(seen_counts, Sequence) \
                or len(seen_counts) != NUM_KINDS:
            raise ValueError(f"seen_counts: expected 34 counts (one per tile kind), got "
                             f"{seen_counts!r}")
        for t in range(NUM_KINDS):
            c = seen_counts[t]
            if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c <= 4:
                raise ValueError(f"seen_counts: the count of {CODES[t]} must be 0..4, "
                                 f"got {c!r}")
            counts[t] = c
    for t in range(NUM_KINDS):
        mine = own[t] if own is not None else 0
        if counts[t] + mine > 4:
            raise ValueError(
                f"{CODES[t]}: {counts[t]} seen + {mine} in the player's hand and melds is "
                "more than 4 copies (seen tiles are those outside the player's own)")
    return counts


# ---------------------------------------------------------------- group vectors
#
# A group (one suit, or the honours) gets a vector of 10 values: entry b (0..4) is the best
# 2·sets + partial sets with at most b blocks, entry 5 + b the same with the pair taken in
# this group (+1). Vectors are numbered as they appear; the product of two groups' vectors is
# remembered by their numbers.

_NEG: Final = -64
"""An impossible value (no pair in the group): far below any reachable sum."""
_ZERO: Final[tuple[int, ...]] = (0, 0, 0, 0, 0, _NEG, _NEG, _NEG, _NEG, _NEG)
"""The vector of an empty group (the identity of the product), number 0."""

# Final: the tables are filled and emptied, never rebound (mypyc reads them as C globals)
_VECS: Final[list[tuple[int, ...]]] = []
_VEC_IDS: Final[dict[tuple[int, ...], int]] = {}
_SHIFT1: Final[list[tuple[int, ...]]] = []
_SHIFT2: Final[list[tuple[int, ...]]] = []
_PAIRED: Final[list[tuple[int, ...]]] = []
"""For each vector number: the vector with one more partial set (+1, one more block), with
one more set (+2, one more block), and with the pair taken here (+1, same blocks)."""
_SUIT_VECS: Final[dict[int, int]] = {}
_HONOR_VECS: Final[dict[int, int]] = {}
"""The vector numbers of suits and honour groups by code (see :func:`_vec_of`)."""
_CAPS: Final = 5
"""Block limits 0..4: a row of the two tables below holds ``_CAPS`` entries per vector."""
_TOPS: Final[list[bytes]] = []
"""``_TOPS[a][b * _CAPS + cap] - _TOP_BIAS``: the best value of the product of vectors ``a``
and ``b`` with at most ``cap`` blocks (:func:`_top`), filled for every pair as vectors are
numbered. There are few vectors (about 120 in random play, against tens of thousands of
groups), so the table is small (a byte an entry: it stays in the CPU's caches while a batch
of games steps), and a hand's tops are reads instead of loops."""
_TOP_BIAS: Final = -2 * _NEG
"""Added to the tops in :data:`_TOPS` to make them bytes: a top is 2·_NEG at least (pairs
of vectors no hand combines) and 9 at most (four sets and the pair)."""
_PRODUCTS: Final[list[list[int]]] = []
"""``_PRODUCTS[a][b * _CAPS + cap]``: the number of the product of vectors ``a`` and ``b``,
``-1`` until first asked (:func:`_product`)."""
_SUIT_GROUPS: Final[dict[int, _Group]] = {}
_HONOR_GROUPS: Final[dict[int, _Group]] = {}
"""Suits and honour groups by code (see :func:`_group`)."""


def _shifted(vec: tuple[int, ...], value: int) -> tuple[int, ...]:
    return (_NEG, vec[0] + value, vec[1] + value, vec[2] + value, vec[3] + value,
            _NEG, vec[5] + value, vec[6] + value, vec[7] + value, vec[8] + value)


def _vec_id(vec: tuple[int, ...]) -> int:
    found = _VEC_IDS.get(vec)
    if found is None:
        found = len(_VECS)
        _VECS.append(vec)
        _VEC_IDS[vec] = found
        _SHIFT1.append(_shifted(vec, 1))
        _SHIFT2.append(_shifted(vec, 2))
        _PAIRED.append((_NEG, _NEG, _NEG, _NEG, _NEG,
                        vec[0] + 1, vec[1] + 1, vec[2] + 1, vec[3] + 1, vec[4] + 1))
        for a in range(found):
            other = _VECS[a]
            _TOPS[a] += bytes([_top(other, vec, cap) + _TOP_BIAS for cap in range(_CAPS)])
            _PRODUCTS[a].extend([-1] * _CAPS)
        _TOPS.append(bytes([_top(vec, _VECS[b], cap) + _TOP_BIAS for b in range(found + 1)
                            for cap in range(_CAPS)]))
        _PRODUCTS.append([-1] * (_CAPS * (found + 1)))
    return found


def clear_tables() -> None:
    """Forget the vectors and products filled as hands needed them, back to the tables built
    at import (for cold-start benchmarks; results never change)."""
    for table in (_VECS, _SHIFT1, _SHIFT2, _PAIRED):
        table.clear()
    _TOPS.clear()
    _PRODUCTS.clear()
    _VEC_IDS.clear()
    _SUIT_VECS.clear()
    _HONOR_VECS.clear()
    _SUIT_GROUPS.clear()
    _HONOR_GROUPS.clear()
    _vec_id(_ZERO)  # number 0
    _SUIT_VECS[0] = 0
    _HONOR_VECS[0] = 0
    for code in _small_codes(9, _PRECOMPUTED_TILES):
        _vec_of(code, True, _SUIT_VECS)
    for code in _small_codes(7, _PRECOMPUTED_TILES):
        _vec_of(code, False, _HONOR_VECS)


_PRECOMPUTED_TILES = 5
"""Groups of at most this many tiles are tabled at import (about 2,000 suits and 800 honour
groups, a few hundredths of a second): most of a larger suit's recursion ends in them."""


def _small_codes(length: int, most: int) -> list[int]:
    """The code of every group of ``length`` counts (0..4 each) holding at most ``most``
    tiles, smallest groups first."""
    keys: list[tuple[int, ...]] = [()]
    for _ in range(length):
        keys = [(*key, c) for key in keys for c in range(min(4, most - sum(key)) + 1)]
    keys.sort(key=sum)
    return [sum(c << 3 * r for r, c in enumerate(key)) for key in keys]


def table_sizes() -> dict[str, int]:
    """How many suits and honour groups (by counts, and by code with their neighbours),
    distinct vectors and products are tabled so far."""
    return {"suits": len(_SUIT_VECS), "honors": len(_HONOR_VECS),
            "groups": len(_SUIT_GROUPS) + len(_HONOR_GROUPS), "vectors": len(_VECS),
            "products": sum(len(row) - row.count(-1) for row in _PRODUCTS)}


def _vec_of(code: int, suited: bool, memo: dict[int, int]) -> int:
    """The vector number of one group (a suit's or the honours' counts, by code), memoised.

    Every block holding the lowest tile starts at it, so the lowest tile is either left
    alone or starts a pung, a chow, the pair, or a partial set (pair, neighbours, one apart):
    the vector is the entrywise best of those choices.
    """
    found = memo.get(code)
    if found is not None:
        return found
    unit = 1
    while not code & 7 * unit:  # the lowest rank held
        unit <<= 3
    held = code // unit & 7
    choices = [_VECS[_vec_of(code - unit, suited, memo)]]
    if held >= 2:
        sub = _vec_of(code - 2 * unit, suited, memo)
        choices.append(_PAIRED[sub])
        choices.append(_SHIFT1[sub])
        if held >= 3:
            choices.append(_SHIFT2[_vec_of(code - 3 * unit, suited, memo)])
    if suited:  # (a code has no ranks above the suit's ninth: those counts read 0)
        next1 = code & 7 * unit << 3
        next2 = code & 7 * unit << 6
        if next1:
            choices.append(_SHIFT1[_vec_of(code - 9 * unit, suited, memo)])
            if next2:
                choices.append(_SHIFT2[_vec_of(code - 73 * unit, suited, memo)])
        if next2:
            choices.append(_SHIFT1[_vec_of(code - 65 * unit, suited, memo)])
    best = list(choices[0])
    for i in range(1, len(choices)):
        other = choices[i]
        for j in range(10):
            if other[j] > best[j]:
                best[j] = other[j]
    found = _vec_id(tuple(best))
    memo[code] = found
    return found


def _vec_by_code(suited: bool, code: int) -> int:
    """The vector number of a suit's group (``suited``) or the honours' given by its code."""
    return _vec_of(code, suited, _SUIT_VECS if suited else _HONOR_VECS)


def _product_vec(a: tuple[int, ...], b: tuple[int, ...], cap: int) -> tuple[int, ...]:
    """The max-plus product of two vectors, blocks up to ``cap``."""
    out = [_NEG] * 10
    for s in range(cap + 1):
        v0 = _NEG
        v1 = _NEG
        for k in range(s + 1):
            j = s - k
            ak = a[k]
            x = ak + b[j]
            if x > v0:
                v0 = x
            x = ak + b[5 + j]
            if x > v1:
                v1 = x
            x = a[5 + k] + b[j]
            if x > v1:
                v1 = x
        out[s] = v0
        out[5 + s] = v1
    return tuple(out)


def _product(a: int, b: int, cap: int) -> int:
    """The number of the product of vectors ``a`` and ``b`` (blocks up to ``cap``), tabled."""
    if a == 0:  # the empty group's vector is the identity (kept whatever the cap)
        return b
    if b == 0:
        return a
    found = _PRODUCTS[a][b * _CAPS + cap]
    if found < 0:
        found = _vec_id(_product_vec(_VECS[a], _VECS[b], cap))
        _PRODUCTS[a][b * _CAPS + cap] = found
        _PRODUCTS[b][a * _CAPS + cap] = found
    return found


def _best_value(w: int, t: int, b: int, h: int, cap: int) -> int:
    """The best value (2·sets + partial sets + pair, ``cap`` blocks at most) of four groups
    given by vector numbers."""
    wt = _product(w, t, cap)
    bh = _product(b, h, cap)  # (both before the read: a new vector lengthens the rows)
    return _TOPS[wt][bh * _CAPS + cap] - _TOP_BIAS


def _top(a: tuple[int, ...], b: tuple[int, ...], cap: int) -> int:
    """The best value of the product of two vectors with at most ``cap`` blocks."""
    v = _NEG
    for k in range(cap + 1):
        j = cap - k
        ak = a[k]
        x = ak + b[j]
        if x > v:
            v = x
        x = ak + b[5 + j]
        if x > v:
            v = x
        x = a[5 + k] + b[j]
        if x > v:
            v = x
    return v


# ---------------------------------------------------------------- a hand's groups
#
# Hands one tile apart (a tile added to test its usefulness, each discard of a 14-form hand)
# differ in one group: a hand's groups are looked up once, with the product of the three
# others for each group (:class:`_Groups`), and a hand one tile away then costs one group
# look-up, at most one product and one top. To take or add a tile without building a key, a
# group is also named by an integer *code*, 3 bits per count (a count reaches 5 when a fifth
# copy is tried as useful), and each code met gets a :class:`_Group` that keeps its vector
# number, the groups one copy below it and the vectors one copy above it: the groups of hands
# one tile apart are then found without a table look-up. The useful tiles a group brings,
# given the product of the others, come as a *kind mask* (kind t at bit t; :func:`_kinds`
# lists one), so that a hand's useful tiles are four masks and the union of shapes an ``|``.

_GROUP_OF: Final[tuple[int, ...]] = tuple(min(t // 9, 3) for t in range(NUM_KINDS))
"""A kind's group: 0, 1, 2 the suits, 3 the honours."""
_UNIT: Final[tuple[int, ...]] = tuple(1 << 3 * (t - 9 * _GROUP_OF[t]) for t in range(NUM_KINDS))
"""One copy of a kind in its group's code."""
_OTHER_TWO: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(x for x in range(4) if x not in (g, h)) for g in range(4) for h in range(4))
"""Entry 4·g + h (g ≠ h): the two groups other than g and h."""
_MASK_KINDS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(9 * g + r for r in range(9) if m >> r & 1) for g in range(4) for m in range(512))
"""Entry 512·g + m: the kinds of group ``g`` in the 9-bit chunk ``m`` of a kind mask."""


def _kinds(mask: int) -> tuple[int, ...]:
    """The kinds of a kind mask, ascending."""
    return (_MASK_KINDS[mask & 511] + _MASK_KINDS[512 + (mask >> 9 & 511)]
            + _MASK_KINDS[1024 + (mask >> 18 & 511)] + _MASK_KINDS[1536 + (mask >> 27)])


class _Group:
    """One group's counts (a suit's 9 or the honours' 7) named by its code: its vector number
    ``vec``, the groups one copy below it (:meth:`below`) and, for the ranks one copy could
    join, the vectors one copy above it (:meth:`gains`), each made when first asked. Ranks,
    not kinds: the three suits share their groups. Found by code with :func:`_group`."""

    __slots__ = ("_below", "_steps", "code", "suited", "vec")

    def __init__(self, suited: bool, code: int, vec: int) -> None:
        self.suited = suited
        self.code = code
        self.vec = vec
        self._below: list[_Group | None] | None = None
        self._steps: list[int] | None = None

    def below(self, r: int) -> _Group:
        """This group less one copy of rank ``r`` (held)."""
        found = self._below
        if found is None:
            found = self._below = [None] * 9
        down = found[r]
        if down is None:
            down = found[r] = _group(self.suited, self.code - (1 << 3 * r))
        return down

    def gains(self, rest: int, cap: int) -> int:
        """The ranks (bit r: rank r) whose addition to this group raises the best value of
        its product with vector ``rest`` (the other groups'): this group's share of a hand's
        useful tiles. Two table reads per distinct vector one copy up."""
        steps = self._steps
        if steps is None:
            steps = self._steps = self._make_steps()
        at = rest * _CAPS + cap
        now = _TOPS[self.vec][at]
        found = 0
        for i in range(0, len(steps), 2):
            if _TOPS[steps[i]][at] > now:
                found |= steps[i + 1]
        return found

    def _make_steps(self) -> list[int]:
        """Pairs (vector number, rank mask): each distinct vector of this group with one copy
        more, and the ranks whose copy gives it. Only ranks that can join a block are tried:
        held, or suited within two ranks of a held one (a lone tile forms nothing)."""
        suited = self.suited
        code = self.code
        n = 9 if suited else 7
        held = 0  # bit r + 2: rank r held
        for r in range(n):
            if (code >> 3 * r) & 7:
                held |= 4 << r
        steps: list[int] = []
        for r in range(n):
            near = held >> r & 31 if suited else held >> r & 4  # ranks r - 2 .. r + 2, or r
            if near:
                up = _vec_by_code(suited, code + (1 << 3 * r))
                for i in range(0, len(steps), 2):
                    if steps[i] == up:
                        steps[i + 1] |= 1 << r
                        break
                else:
                    steps += (up, 1 << r)
        return steps


def _group(suited: bool, code: int) -> _Group:
    """A suit's group (``suited``) or the honours' given by its code, tabled."""
    table = _SUIT_GROUPS if suited else _HONOR_GROUPS
    found = table.get(code)
    if found is None:
        found = table[code] = _Group(suited, code, _vec_by_code(suited, code))
    return found


def _as_list(counts: Sequence[int]) -> list[int]:
    """``counts`` as a list (compiled code indexes a list directly, any other sequence through
    a generic call)."""
    return counts if isinstance(counts, list) else list(counts)


def _codes(counts: list[int]) -> list[int]:
    """The codes of the four groups of 34 counts."""
    return [_code_of(counts, 0, 9), _code_of(counts, 9, 9), _code_of(counts, 18, 9),
            _code_of(counts, 27, 7)]


def _code_of(counts: list[int], first: int, n: int) -> int:
    """The code of the group of ``n`` kinds from ``first``: 3 bits a count, lowest rank
    first."""
    code = 0
    shift = 0
    for t in range(first, first + n):
        code |= counts[t] << shift
        shift += 3
    return code


class _Groups:
    """One hand's regular shape by group: its four groups (``groups``, :class:`_Group`), for
    each group the product of the three others (``rests``), and the hand's best value ``top``
    (2·sets + partial sets + pair, ``cap`` blocks at most).
    """

    __slots__ = ("_others", "_pairs", "cap", "groups", "rests", "top")

    def __init__(self, codes: list[int], cap: int) -> None:
        groups = [_group(True, codes[0]), _group(True, codes[1]), _group(True, codes[2]),
                  _group(False, codes[3])]
        w = groups[0].vec
        t = groups[1].vec
        b = groups[2].vec
        h = groups[3].vec
        wt = _product(w, t, cap)
        bh = _product(b, h, cap)
        self.cap = cap
        self.groups = groups
        self.rests = [_product(t, bh, cap), _product(w, bh, cap), _product(wt, h, cap),
                      _product(wt, b, cap)]
        self.top = _TOPS[wt][bh * _CAPS + cap] - _TOP_BIAS
        # made on the first useful_without (most hands never ask: knitted rests, claims)
        self._others: dict[int, int] | None = None
        self._pairs: list[int] | None = None

    def without(self, t: int) -> _Group:
        """Kind ``t``'s group less one copy of it."""
        g = _GROUP_OF[t]
        return self.groups[g].below(t - 9 * g)

    def top_without(self, t: int, down: _Group) -> int:
        """The hand's best value less one copy of ``t`` (``down``: :meth:`without`)."""
        return _TOPS[down.vec][self.rests[_GROUP_OF[t]] * _CAPS + self.cap] - _TOP_BIAS

    def useful(self) -> int:
        """The kinds (a kind mask) whose addition raises the best value."""
        groups = self.groups
        rests = self.rests
        cap = self.cap
        return (groups[0].gains(rests[0], cap) | groups[1].gains(rests[1], cap) << 9
                | groups[2].gains(rests[2], cap) << 18 | groups[3].gains(rests[3], cap) << 27)

    def useful_without(self, t: int, down: _Group) -> int:
        """:meth:`useful` of the hand less one copy of ``t`` (``down``: :meth:`without`);
        the other groups' share is kept for the next kind taken from the same group with the
        same vector left."""
        cap = self.cap
        g = _GROUP_OF[t]
        mask = down.gains(self.rests[g], cap) << 9 * g
        key = down.vec << 2 | g
        known = self._others
        if known is None:
            known = self._others = {}
        found = known.get(key)
        if found is not None:
            return mask | found
        others = 0
        for h in range(4):
            if h != g:
                rest = _product(down.vec, self._pair_without(g, h), cap)
                others |= self.groups[h].gains(rest, cap) << 9 * h
        known[key] = others
        return mask | others

    def _pair_without(self, g: int, h: int) -> int:
        """The product of the two groups other than ``g`` and ``h``, kept for the hand's other
        discards (it does not depend on the tile taken)."""
        pairs = self._pairs
        if pairs is None:
            pairs = self._pairs = [-1] * 16
        found = pairs[4 * g + h]
        if found < 0:
            two = _OTHER_TWO[4 * g + h]
            found = _product(self.groups[two[0]].vec, self.groups[two[1]].vec, self.cap)
            pairs[4 * g + h] = pairs[4 * h + g] = found
        return found


clear_tables()


# ---------------------------------------------------------------- regular

def regular_shanten_counts(counts: Sequence[int], n_melds: int) -> int:
    """Regular-shape shanten of standing tiles given as 34 counts (13 − 3·melds tiles, or
    14 − 3·melds), the melds counting as sets. No input checks (see :func:`regular_shanten`)."""
    return _regular(_codes(_as_list(counts)), n_melds)


def _regular(codes: list[int], n_melds: int) -> int:
    """:func:`regular_shanten_counts` of a hand given by its group codes."""
    return 8 - 2 * n_melds - _best_value(
        _vec_by_code(True, codes[0]), _vec_by_code(True, codes[1]),
        _vec_by_code(True, codes[2]), _vec_by_code(False, codes[3]), 4 - n_melds)


def _regular_useful(counts: list[int], n_melds: int) -> tuple[int, list[int]]:
    """(shanten, kinds whose addition lowers it) of standing tiles in the 13-form.

    Adding a tile changes one group: each group's candidates are scored against the product
    of the three others (:meth:`_Groups.useful`). A kind neither held nor within two ranks of
    a held tile of its suit cannot take part in a block, so it is not tried (nor are honours
    not held).
    """
    groups = _Groups(_codes(counts), 4 - n_melds)
    return 8 - 2 * n_melds - groups.top, list(_kinds(groups.useful()))


# ---------------------------------------------------------------- special shapes
#
# The special shapes count kinds: held, held twice, of a knitted pattern. Their facts are kind
# masks (kind t at bit t), made in one pass over the counts (:class:`_Held`) and counted with
# a table (:func:`_popcount`); their useful tiles are kind masks too, listed by :func:`_kinds`.

_NO_SHAPE: Final = 99
"""The shanten of a shape the melds rule out: above any other."""


def _popcount(mask: int) -> int:
    """How many kinds a kind mask holds (``int.bit_count`` is a generic call in compiled
    code): the lengths of its four groups' entries in :data:`_MASK_KINDS`."""
    return (len(_MASK_KINDS[mask & 511]) + len(_MASK_KINDS[512 + (mask >> 9 & 511)])
            + len(_MASK_KINDS[1024 + (mask >> 18 & 511)]) + len(_MASK_KINDS[1536 + (mask >> 27)]))


def unseen_of_kinds(mask: int, unseen: list[int]) -> int:
    """The unseen copies (``unseen``: 34 counts) of the kinds of a kind mask (kind t at bit t),
    group by group through :data:`_MASK_KINDS`: what the hand-analysis planes sum for useful
    tiles given as masks (:func:`discard_outcome_masks`). No input checks (a hot path, like
    the ``*_counts`` functions)."""
    total = 0
    for g in range(4):
        for t in _MASK_KINDS[512 * g + (mask >> 9 * g & 511)]:
            total += unseen[t]
    return total


def _kind_mask(kinds: Iterable[int]) -> int:
    """A kind mask (kind t at bit t) of kinds."""
    mask = 0
    for t in kinds:
        mask |= 1 << t
    return mask


_ORPHAN_KINDS: Final = _kind_mask(ORPHANS)
_HONOR_KINDS: Final = _kind_mask(HONORS)
_PATTERN_KINDS: Final[tuple[int, ...]] = tuple(_kind_mask(p) for p in KNITTED_PATTERNS)


class _Held:
    """The kinds of a hand's 34 counts as kind masks, made in one pass: held (``kinds``), held
    an odd number of times (``odd``), at least twice (``paired``), at least four times
    (``quads``: two pairs); and per knitted pattern the number of its kinds held
    (``pattern_held``)."""

    __slots__ = ("kinds", "odd", "paired", "pattern_held", "quads")

    def __init__(self, counts: list[int]) -> None:
        kinds = odd = paired = quads = 0
        for t in range(NUM_KINDS):
            c = counts[t]
            if c:
                bit = 1 << t
                kinds |= bit
                if c & 1:
                    odd |= bit
                if c >= 2:
                    paired |= bit
                    if c >= 4:
                        quads |= bit
        self.kinds = kinds
        self.odd = odd
        self.paired = paired
        self.quads = quads
        self.pattern_held = [_popcount(kinds & p) for p in _PATTERN_KINDS]

    def pairs(self) -> int:
        """Seven pairs' pairs (four of a kind are two)."""
        return _popcount(self.paired) + _popcount(self.quads)

    def best_pattern(self) -> int:
        """Kinds held of the knitted pattern holding most of them."""
        best = 0
        for n in self.pattern_held:
            if n > best:
                best = n
        return best


def _smallest(a: int, b: int, c: int, d: int) -> int:
    """The smallest of four shanten (``min`` is a generic call in compiled code)."""
    if b < a:
        a = b
    if c < a:
        a = c
    return d if d < a else a


def _seven_pairs(held: _Held) -> int:
    return 6 - held.pairs()


def seven_pairs_shanten_counts(counts: Sequence[int]) -> int:
    """``6 - pairs`` (four of a kind are two pairs), for 13 or 14 standing tiles."""
    return _seven_pairs(_Held(_as_list(counts)))


def _thirteen_orphans(held: _Held) -> int:
    return (13 - _popcount(held.kinds & _ORPHAN_KINDS)
            - (1 if held.paired & _ORPHAN_KINDS else 0))


def thirteen_orphans_shanten_counts(counts: Sequence[int]) -> int:
    """``13 - kinds of terminals and honours held - (1 if one is held twice)``."""
    return _thirteen_orphans(_Held(_as_list(counts)))


def _honors_knitted(held: _Held) -> int:
    return 13 - held.best_pattern() - _popcount(held.kinds & _HONOR_KINDS)


def honors_knitted_shanten_counts(counts: Sequence[int]) -> int:
    """``13 - (kinds held of the best knitted pattern + kinds of honours held)``."""
    return _honors_knitted(_Held(_as_list(counts)))


def _rest_codes(codes: list[int], kinds: int, p: int) -> list[int]:
    """The group codes of a hand (``codes``, holding the kinds of mask ``kinds``) less one
    copy of each kind of knitted pattern ``p`` held: what the knitted straight leaves."""
    rest = codes[:]
    for u in KNITTED_PATTERNS[p]:
        if kinds >> u & 1:
            rest[_GROUP_OF[u]] -= _UNIT[u]
    return rest


def _knitted_straight(codes: list[int], held: _Held, n_melds: int, bound: int) -> int:
    """The knitted straight's shanten if below ``bound``, else ``bound``: the best over the
    patterns of the kinds missing plus the regular shanten of the rest (the pattern counting
    as three sets). A pattern whose missing kinds reach the bound is not looked at (the
    rest's shanten is -1 at best)."""
    best = bound
    for p in range(6):
        missing = 9 - held.pattern_held[p]
        if missing - 1 >= best:
            continue
        value = missing + _regular(_rest_codes(codes, held.kinds, p), n_melds + 3)
        if value < best:
            best = value
    return best


def knitted_straight_shanten_counts(counts: Sequence[int], n_melds: int) -> int:
    """Best over the six patterns of (pattern kinds missing + regular shanten of the rest,
    the pattern counting as three sets); at most one meld."""
    c = _as_list(counts)
    return _knitted_straight(_codes(c), _Held(c), n_melds, _NO_SHAPE)


def shanten_counts(counts: Sequence[int], n_melds: int) -> int:
    """Overall shanten (the best shape) of standing tiles given as 34 counts (at most 4 of a
    kind) with ``n_melds`` melds; the engine's hot path, without input checks."""
    c = _as_list(counts)
    codes = _codes(c)
    best = _regular(codes, n_melds)
    if best <= -1 or n_melds > 1:
        return best
    held = _Held(c)
    if n_melds == 0:
        best = _smallest(best, _seven_pairs(held), _thirteen_orphans(held), _honors_knitted(held))
    if best > -1:
        best = _knitted_straight(codes, held, n_melds, best)
    return best


# ---------------------------------------------------------------- useful tiles per shape

def _thirteen_orphans_useful(held: _Held) -> int:
    """The orphans missing, or with no orphan held twice every orphan (a kind mask)."""
    return _ORPHAN_KINDS & ~held.kinds if held.paired & _ORPHAN_KINDS else _ORPHAN_KINDS


def _honors_knitted_useful(held: _Held) -> int:
    """Missing kinds of the best patterns (all of them on a tie) and missing honours."""
    best = held.best_pattern()
    mask = _HONOR_KINDS
    for p in range(6):
        if held.pattern_held[p] == best:
            mask |= _PATTERN_KINDS[p]
    return mask & ~held.kinds


def _knitted_straight_useful(codes: list[int], held: _Held, n_melds: int) -> tuple[int, int]:
    """Shanten and useful kinds (a kind mask): the union, over the patterns reaching the best
    shanten, of the missing pattern kinds and the kinds lowering the shanten of the rest."""
    best = _NO_SHAPE
    mask = 0
    for p in range(6):
        missing = 9 - held.pattern_held[p]
        if missing - 1 > best:
            continue
        rest = _Groups(_rest_codes(codes, held.kinds, p), 1 - n_melds)
        value = missing + 2 - 2 * n_melds - rest.top
        if value > best:
            continue
        if value < best:
            best = value
            mask = 0
        mask |= _PATTERN_KINDS[p] & ~held.kinds | rest.useful()
    return best, mask


def shape_values(counts: list[int], n_melds: int, with_useful: bool
                 ) -> list[tuple[str, int, list[int]]]:
    """(shape, shanten, useful kinds) of every shape the melds allow, in :data:`SHAPES`
    order; useful kinds only ``with_useful`` (13-form counts). No input checks."""
    out: list[tuple[str, int, list[int]]] = []
    if with_useful:
        s, useful = _regular_useful(counts, n_melds)
        out.append((REGULAR, s, useful))
        held = _Held(counts)
        if n_melds == 0:
            out.append((SEVEN_PAIRS, _seven_pairs(held), list(_kinds(held.odd))))
            out.append((THIRTEEN_ORPHANS, _thirteen_orphans(held),
                        list(_kinds(_thirteen_orphans_useful(held)))))
            out.append((HONORS_KNITTED, _honors_knitted(held),
                        list(_kinds(_honors_knitted_useful(held)))))
        if n_melds <= 1:
            s, mask = _knitted_straight_useful(_codes(counts), held, n_melds)
            out.append((KNITTED_STRAIGHT, s, list(_kinds(mask))))
        return out
    out.append((REGULAR, regular_shanten_counts(counts, n_melds), []))
    if n_melds == 0:
        out.append((SEVEN_PAIRS, seven_pairs_shanten_counts(counts), []))
        out.append((THIRTEEN_ORPHANS, thirteen_orphans_shanten_counts(counts), []))
        out.append((HONORS_KNITTED, honors_knitted_shanten_counts(counts), []))
    if n_melds <= 1:
        out.append((KNITTED_STRAIGHT, knitted_straight_shanten_counts(counts, n_melds), []))
    return out


# ---------------------------------------------------------------- hands one tile apart
#
# A discard decision asks for the shanten after each discard and the useful tiles after each
# best one: dozens of hands, each one or two tiles away from the hand held (the hand-analysis
# planes, mjenv.encoders.shanten_planes). The regular shape goes through the hand's groups
# (above), the special shapes through the hand's counts of pairs, orphans, honours and pattern
# kinds, each adjusted for the tile taken; useful tiles are kind masks until listed.

_PAIRS: Final[tuple[int, ...]] = (0, 0, 1, 1, 2, 2)
"""Seven-pairs pairs made by a kind's count (four of a kind are two pairs, as a fifth copy)."""
_IS_ORPHAN: Final[tuple[bool, ...]] = tuple(t in ORPHANS for t in range(NUM_KINDS))
_PATTERNS_OF: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(p for p in range(6) if t in KNITTED_PATTERNS[p]) for t in range(NUM_KINDS))
"""The knitted patterns (numbers) a kind belongs to."""


class _Concealed:
    """Seven pairs, thirteen orphans and honours-and-knitted of a concealed 14-form hand, one
    discard at a time: the hand's pairs, orphans, honours and pattern kinds held are counted
    once, and each discard adjusts them for the tile taken (:func:`shanten_counts`' formulas,
    the useful tiles of :func:`analyze_counts`)."""

    __slots__ = ("honor_kinds", "kinds", "most", "odd", "orphan_kinds", "orphan_pairs",
                 "pairs", "pattern_held", "ties")

    def __init__(self, held: _Held) -> None:
        self.kinds = held.kinds
        self.odd = held.odd
        self.pairs = held.pairs()
        self.orphan_kinds = _popcount(held.kinds & _ORPHAN_KINDS)
        self.orphan_pairs = _popcount(held.paired & _ORPHAN_KINDS)
        self.honor_kinds = _popcount(held.kinds & _HONOR_KINDS)
        self.pattern_held = held.pattern_held
        self.most = held.best_pattern()
        self.ties = self.pattern_held.count(self.most)

    def shanten(self, t: int, c: int) -> tuple[int, int, int]:
        """(seven pairs, thirteen orphans, honours and knitted) shanten after discarding
        ``t``, held ``c`` times."""
        seven = 6 - self.pairs + _PAIRS[c] - _PAIRS[c - 1]
        orphans, orphan_pairs = self.orphan_kinds, self.orphan_pairs
        if _IS_ORPHAN[t]:
            if c == 1:
                orphans -= 1
            elif c == 2:
                orphan_pairs -= 1
        pattern, honors = self.most, self.honor_kinds
        if c == 1:
            if t >= EAST:
                honors -= 1
            else:  # the best pattern loses t when every pattern at the best holds it
                at_most = 0
                for p in _PATTERNS_OF[t]:
                    if self.pattern_held[p] == pattern:
                        at_most += 1
                if at_most == self.ties:
                    pattern -= 1
        return (seven, 13 - orphans - (1 if orphan_pairs else 0), 13 - pattern - honors)

    def useful(self, t: int, c: int, best: int, seven: int, orphans: int, honors: int) -> int:
        """The useful tiles (a kind mask) after discarding ``t`` (held ``c`` times) of those
        shapes whose shanten (``seven``, ``orphans``, ``honors``) is the ``best``."""
        kinds = self.kinds ^ (1 << t) if c == 1 else self.kinds
        mask = 0
        if seven == best:  # a pair more: the kinds held an odd number of times
            mask |= self.odd ^ (1 << t)
        if orphans == best:  # the orphans missing, or with no pair any orphan
            paired = self.orphan_pairs - (1 if _IS_ORPHAN[t] and c == 2 else 0)
            mask |= _ORPHAN_KINDS & ~kinds if paired else _ORPHAN_KINDS
        if honors == best:  # the honours and the best patterns' kinds missing
            held = [n - (1 if c == 1 and _PATTERN_KINDS[p] >> t & 1 else 0)
                    for p, n in enumerate(self.pattern_held)]
            top = max(held)
            for p in range(6):
                if held[p] == top:
                    mask |= _PATTERN_KINDS[p] & ~kinds
            mask |= _HONOR_KINDS & ~kinds
        return mask


def _least(values: list[int]) -> int:
    """The smallest of ``values`` (``min`` is a generic call in compiled code)."""
    least = values[0]
    for v in values:
        if v < least:
            least = v
    return least


class _Knitted:
    """The knitted straight of a 14-form hand (at most one meld), one discard at a time.

    Per pattern: the kinds of it held, and (once a discard needs it) the rest of the hand
    (:func:`_rest_codes`) by group. Discarding ``t`` misses one more pattern kind when ``t``
    is a pattern kind held once (the rest is unchanged), and otherwise takes ``t`` from the
    rest: one group look-up. A pattern is only looked at when it can reach the bound asked
    (``floors``: the rest's shanten is -1 at best, and once the rest's best value is known no
    discard lowers it), and the hand's discards are not looked at one by one while no pattern
    can (``least``): in most hands no discard's bound is ever reached. A rest's
    :class:`_Groups` (its best value, then each discard's) is built the first time a
    discard's bound lets its pattern in (:meth:`_measure`).
    """

    __slots__ = ("_rests", "codes", "floors", "held", "kinds", "least", "measured", "n_melds")

    def __init__(self, codes: list[int], held: _Held, n_melds: int) -> None:
        self.codes = codes
        self.kinds = held.kinds
        pattern_held = self.held = held.pattern_held
        self.n_melds = n_melds
        self._rests: list[_Groups | None] = [None] * 6
        self.floors = [8 - n for n in pattern_held]  # per pattern: no discard leaves less
        self.least = _least(self.floors)
        self.measured = 0  # bit p: pattern p's floor counts its rest's best value

    def _measure(self, p: int) -> None:
        """Raise pattern ``p``'s floor by its rest's best value (no discard raises that)."""
        self.floors[p] = 11 - self.held[p] - 2 * self.n_melds - self.rest(p).top
        self.least = _least(self.floors)
        self.measured |= 1 << p

    def rest(self, p: int) -> _Groups:
        found = self._rests[p]
        if found is None:
            found = self._rests[p] = _Groups(_rest_codes(self.codes, self.kinds, p),
                                             1 - self.n_melds)
        return found

    def _value(self, p: int, t: int, single: bool) -> int:
        """Pattern ``p``'s shanten after discarding ``t`` (held once when ``single``)."""
        rest = self.rest(p)
        base = 2 - 2 * self.n_melds  # the rest's 8 - 2·sets, the pattern counting as three
        if single and _PATTERN_KINDS[p] >> t & 1:
            return 10 - self.held[p] + base - rest.top
        return 9 - self.held[p] + base - rest.top_without(t, rest.without(t))

    def after(self, t: int, single: bool, bound: int) -> int:
        """The knitted straight's shanten after discarding ``t`` if it is ``bound`` or less,
        else :data:`_NO_SHAPE`."""
        if self.least > bound:
            return _NO_SHAPE
        best = _NO_SHAPE
        for p in range(6):
            if self.floors[p] <= bound:
                if not self.measured >> p & 1:
                    self._measure(p)
                if self.floors[p] <= bound:
                    value = self._value(p, t, single)
                    if value < best:
                        best = value
        return best if best <= bound else _NO_SHAPE

    def useful_after(self, t: int, single: bool, best: int) -> int:
        """The knitted straight's useful tiles (a kind mask) after discarding ``t``, its
        shanten being ``best``: over the patterns reaching it, the pattern kinds missing and
        the kinds lowering the rest's shanten (:func:`_knitted_straight_useful`)."""
        kinds = self.kinds ^ (1 << t) if single else self.kinds
        mask = 0
        for p in range(6):
            if self.floors[p] > best or self._value(p, t, single) != best:
                continue
            mask |= _PATTERN_KINDS[p] & ~kinds
            rest = self.rest(p)
            if single and _PATTERN_KINDS[p] >> t & 1:
                mask |= rest.useful()
            else:
                mask |= rest.useful_without(t, rest.without(t))
        return mask


def useful_counts(counts: list[int], n_melds: int) -> tuple[int, tuple[int, ...]]:
    """``(analyze_counts(counts, n_melds).shanten, ... .useful)`` (nothing useful in the
    14-form), faster: only the shapes at the best shanten are searched for useful tiles, the
    regular one group by group. No input checks."""
    if sum(counts) % 3 != 1:
        result = analyze_counts(counts, n_melds)
        return result.shanten, result.useful
    codes = _codes(counts)
    groups = _Groups(codes, 4 - n_melds)
    regular = best = 8 - 2 * n_melds - groups.top
    mask = 0
    if n_melds <= 1:
        held = _Held(counts)
        seven = orphans = honors = _NO_SHAPE
        if n_melds == 0:
            seven = _seven_pairs(held)
            orphans = _thirteen_orphans(held)
            honors = _honors_knitted(held)
            best = _smallest(best, seven, orphans, honors)
        if _knitted_straight(codes, held, n_melds, best + 1) <= best:
            best, mask = _knitted_straight_useful(codes, held, n_melds)
        if seven == best:
            mask |= held.odd
        if orphans == best:
            mask |= _thirteen_orphans_useful(held)
        if honors == best:
            mask |= _honors_knitted_useful(held)
    if regular == best:
        mask |= groups.useful()
    return best, _kinds(mask)


def discard_outcomes(counts: list[int], n_melds: int, with_useful: bool = True
                     ) -> tuple[list[tuple[int, int]], list[tuple[int, tuple[int, ...]]]]:
    """What each discard of a 14-form hand (14 − 3·melds standing tiles as 34 counts) leaves:
    ``(after, useful)``, ``after`` listing each kind held with the shanten of the hand left
    (:func:`shanten_counts`), kinds ascending, and ``useful`` (only ``with_useful``), for
    each discard keeping the best of those shanten, the useful kinds of the hand left
    (:func:`useful_counts`). No input checks. :func:`discard_outcome_masks` gives the same
    as flat lists, the useful kinds as kind masks (kind t at bit t)."""
    after, masks = discard_outcome_masks(counts, n_melds, with_useful)
    return ([(after[i], after[i + 1]) for i in range(0, len(after), 2)],
            [(masks[i], _kinds(masks[i + 1])) for i in range(0, len(masks), 2)])


def discard_outcome_masks(counts: list[int], n_melds: int, with_useful: bool = True
                          ) -> tuple[list[int], list[int]]:
    """:func:`discard_outcomes` as flat lists, each useful set a kind mask (kind t at bit t):
    ``after`` is kind, shanten, kind, shanten, ... and ``useful`` kind, mask, kind, mask, ...
    What the hand-analysis planes want: they only sum the unseen copies of the useful kinds,
    and a decision's analysis then makes three lists, not a tuple per kind (the young objects
    a batch of games makes are what its collector's passes walk).

    The discards share the hand's work, each adjusting it for the tile taken: its groups (the
    regular shape, :class:`_Groups`), its counts of pairs, orphans, honours and pattern kinds
    (:class:`_Concealed`) and the knitted straight's rests (:class:`_Knitted`).
    """
    codes = _codes(counts)
    groups = _Groups(codes, 4 - n_melds)
    base = 8 - 2 * n_melds
    concealed: _Concealed | None = None
    knitted: _Knitted | None = None
    if n_melds <= 1:
        held = _Held(counts)
        knitted = _Knitted(codes, held, n_melds)
        if n_melds == 0:
            concealed = _Concealed(held)
    after: list[int] = []
    shapes: list[int] = []  # per kind held: regular, seven, orphans, honors, knitted
    low = _NO_SHAPE
    for t in range(NUM_KINDS):
        c = counts[t]
        if not c:
            continue
        down = groups.without(t)
        regular = s = base - groups.top_without(t, down)
        seven = orphans = honors = knit = _NO_SHAPE
        if concealed is not None:
            seven, orphans, honors = concealed.shanten(t, c)
            s = _smallest(s, seven, orphans, honors)
        if knitted is not None:
            knit = knitted.after(t, c == 1, s)
            if knit < s:
                s = knit
        if s < low:
            low = s
        after.append(t)
        after.append(s)
        shapes.append(regular)
        shapes.append(seven)
        shapes.append(orphans)
        shapes.append(honors)
        shapes.append(knit)
    useful: list[int] = []
    if not with_useful:
        return after, useful
    for i in range(0, len(after), 2):
        if after[i + 1] != low:
            continue
        t = after[i]
        c = counts[t]
        at = 5 * (i >> 1)
        mask = groups.useful_without(t, groups.without(t)) if shapes[at] == low else 0
        if concealed is not None:
            mask |= concealed.useful(t, c, low, shapes[at + 1], shapes[at + 2], shapes[at + 3])
        if knitted is not None and shapes[at + 4] == low:
            mask |= knitted.useful_after(t, c == 1, low)
        useful.append(t)
        useful.append(mask)
    return after, useful


# ---------------------------------------------------------------- public API

def analyze_counts(counts: list[int], n_melds: int, own: Sequence[int] | None = None,
                   seen: Sequence[int] | None = None) -> ShantenResult:
    """:func:`analyze` on counts, without input checks: the standing tiles' 34 counts, the
    number of melds, the player's own tiles per kind (hand and melds; the standing counts if
    None) and the seen tiles per kind (none if None)."""
    if own is None:
        own = counts
    unseen_counts = [4 - own[t] - (seen[t] if seen is not None else 0)
                     for t in range(NUM_KINDS)]
    thirteen = sum(counts) % 3 == 1
    values = shape_values(counts, n_melds, thirteen)
    best = min(s for _, s, _ in values)
    shapes: list[ShapeShanten] = []
    overall: set[int] = set()
    for shape, s, useful in values:
        drawable = tuple(t for t in useful if own[t] < 4)
        shapes.append(ShapeShanten(shape, s, tuple(useful), drawable,
                                   tuple(unseen_counts[t] for t in drawable)))
        if s == best:
            overall.update(useful)
    useful_all = tuple(sorted(overall))
    drawable_all = tuple(t for t in useful_all if own[t] < 4)
    return ShantenResult(best, tuple(shapes), useful_all, drawable_all,
                         tuple(unseen_counts[t] for t in drawable_all), not thirteen)


def analyze(hand: object, melds: object = (), *, seen: object = None,
            seen_counts: object = None) -> ShantenResult:
    """Shanten overall and per shape, and the useful tiles, of a hand.

    ``hand``: the standing tiles (ids, codes, or a string in any notation of
    :func:`mjenv.tiles.parse_tiles`), 13 − 3·melds of them, or 14 − 3·melds before a discard;
    ``melds``: :class:`~mjenv.melds.Meld` objects (or their JSON dicts). ``seen`` (tiles) or
    ``seen_counts`` (34 counts): the tiles the player has seen outside the own hand and melds
    (discards, other players' melds); they only change ``unseen``. Raises ``ValueError``
    for input that cannot be a hand.
    """
    h = CheckedHand(hand, melds)
    table = None
    if seen is not None or seen_counts is not None:
        table = seen_counts_of(seen, seen_counts, h.own)
    return analyze_counts(h.counts, h.n_melds, h.own, table)


def shanten(hand: object, melds: object = ()) -> int:
    """Overall shanten of a hand (the best shape): 0 ready, −1 complete (14-form only).

    Same input as :func:`analyze`; equal to PyMahjongGB's ``MahjongShanten`` on 13-form hands.
    """
    h = CheckedHand(hand, melds)
    return shanten_counts(h.counts, h.n_melds)


def regular_shanten(hand: object, melds: object = ()) -> int:
    """Regular-shape (four sets and a pair) shanten; PyMahjongGB's ``RegularShanten``."""
    h = CheckedHand(hand, melds)
    return regular_shanten_counts(h.counts, h.n_melds)


def seven_pairs_shanten(hand: object, melds: object = ()) -> int | None:
    """Seven-pairs shanten, None with melds; PyMahjongGB's ``SevenPairsShanten``."""
    h = CheckedHand(hand, melds)
    return seven_pairs_shanten_counts(h.counts) if h.n_melds == 0 else None


def thirteen_orphans_shanten(hand: object, melds: object = ()) -> int | None:
    """Thirteen-orphans shanten, None with melds; PyMahjongGB's ``ThirteenOrphansShanten``."""
    h = CheckedHand(hand, melds)
    return thirteen_orphans_shanten_counts(h.counts) if h.n_melds == 0 else None


def honors_knitted_shanten(hand: object, melds: object = ()) -> int | None:
    """Honours-and-knitted shanten, None with melds; PyMahjongGB's
    ``HonorsAndKnittedTilesShanten``."""
    h = CheckedHand(hand, melds)
    return honors_knitted_shanten_counts(h.counts) if h.n_melds == 0 else None


def knitted_straight_shanten(hand: object, melds: object = ()) -> int | None:
    """Knitted straight (+ a set and a pair) shanten, None with more than one meld;
    PyMahjongGB's ``KnittedStraightShanten``."""
    h = CheckedHand(hand, melds)
    return knitted_straight_shanten_counts(h.counts, h.n_melds) if h.n_melds <= 1 else None


def useful_tiles(hand: object, melds: object = ()) -> tuple[int, ...]:
    """Kinds that lower the overall shanten of a 13-form hand (a kind held four times may be
    among them: see :func:`analyze` for ``drawable`` and ``unseen``)."""
    h = CheckedHand(hand, melds)
    if h.discard_first:
        raise ValueError(f"useful tiles are for a hand waiting for a tile "
                         f"({13 - 3 * h.n_melds} standing tiles); this one has {h.size}: "
                         "discard first (mjenv.analysis.best_discards)")
    return analyze_counts(h.counts, h.n_melds, h.own).useful

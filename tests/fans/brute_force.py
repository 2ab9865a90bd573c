"""A brute-force shape checker: the independent reference that tests compare
:mod:`mjenv.decompose` (and the hands of :mod:`mjenv.testing`) against.

It shares no code with ``mjenv.decompose`` on purpose (only tile ids from ``mjenv.tiles``):
regular hands are split by plain recursion over the counts, the special shapes of rules
§2.1 are restated from their definitions, and waits are found by trying all 34 kinds.
Slow but obvious; never import it from the library.
"""

from __future__ import annotations

from collections.abc import Sequence

from mjenv.tiles import EAST, NUM_KINDS

SHAPES: tuple[str, ...] = (
    "regular",
    "seven_pairs",
    "thirteen_orphans",
    "honors_knitted",
    "knitted_straight",
)
"""The shapes :func:`complete_shapes` reports, in this order (the generator's names)."""

ORPHANS: tuple[int, ...] = (0, 8, 9, 17, 18, 26, *range(EAST, NUM_KINDS))

# which suit holds 147, 258 and 369
KNIT_PERMS: tuple[tuple[int, int, int], ...] = (
    (0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0),
)  # fmt: skip


def st(suit: int, rank: int) -> int:
    """The id of a suited tile (suit 0 W, 1 T, 2 B; rank 1..9)."""
    return suit * 9 + rank - 1


def knitted_tiles(perm: Sequence[int]) -> list[int]:
    """The nine tiles of the knitted straight with 147 in suit perm[0], 258 in perm[1]..."""
    return [st(perm[k], k + 1 + 3 * j) for k in range(3) for j in range(3)]


def sets_only(c: list[int], i: int = 0) -> bool:
    """Whether the counts split into pungs and chows only (c is restored)."""
    while i < NUM_KINDS and c[i] == 0:
        i += 1
    if i == NUM_KINDS:
        return True
    if c[i] >= 3:
        c[i] -= 3
        ok = sets_only(c, i)
        c[i] += 3
        if ok:
            return True
    if i < EAST and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        ok = sets_only(c, i)
        c[i] += 1
        c[i + 1] += 1
        c[i + 2] += 1
        if ok:
            return True
    return False


def sets_and_pair(c: list[int]) -> bool:
    """Whether the counts split into sets and exactly one pair (c is restored)."""
    if sum(c) % 3 != 2:
        return False
    for p in range(NUM_KINDS):
        if c[p] >= 2:
            c[p] -= 2
            ok = sets_only(c)
            c[p] += 2
            if ok:
                return True
    return False


def complete_shapes(concealed: Sequence[int], n_melds: int) -> list[str]:
    """The shapes of §2.1 in which the concealed tiles (winning tile included) and
    ``n_melds`` melds form a complete hand. Counts above 4 are allowed (a "fifth copy")."""
    c = [0] * NUM_KINDS
    for t in concealed:
        c[t] += 1
    if len(concealed) != 14 - 3 * n_melds:
        return []
    found: list[str] = []
    if sets_and_pair(c):
        found.append("regular")
    if n_melds == 0:
        if all(x in (0, 2, 4) for x in c):
            found.append("seven_pairs")
        if all(c[t] >= 1 for t in ORPHANS) and sum(c[t] for t in ORPHANS) == 14:
            found.append("thirteen_orphans")
        if max(c) == 1:
            suited = {t for t in range(EAST) if c[t]}
            if any(suited <= set(knitted_tiles(p)) for p in KNIT_PERMS):
                found.append("honors_knitted")
    if n_melds <= 1:
        for p in KNIT_PERMS:
            kt = knitted_tiles(p)
            if all(c[t] for t in kt):
                for t in kt:
                    c[t] -= 1
                ok = sets_and_pair(c)
                for t in kt:
                    c[t] += 1
                if ok:
                    found.append("knitted_straight")
                    break
    return found


def is_complete(concealed: Sequence[int], n_melds: int) -> bool:
    """Whether the concealed tiles (winning tile included) and ``n_melds`` melds are complete."""
    return bool(complete_shapes(concealed, n_melds))


def waits(hand: Sequence[int], n_melds: int) -> list[int]:
    """Tile kinds completing a ready hand (13 - 3 * melds tiles), fifth copies included."""
    base = list(hand)
    return [t for t in range(NUM_KINDS) if is_complete([*base, t], n_melds)]

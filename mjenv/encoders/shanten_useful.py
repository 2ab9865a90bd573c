"""The shanten and the useful tiles of a hand, as :func:`mjenv.shanten.analyze_counts` gives
them, without computing the useful tiles of shapes that are not the best.

Why: ``analyze_counts`` lists, for every shape the melds allow, that shape's useful tiles, then
keeps the union over the shapes at the best shanten. With at most one meld that includes the
knitted straight, whose useful tiles cost six regular analyses, although it is almost never
the best shape; the ``shanten-v1`` planes need only the union. Here each shape's shanten comes
first (cheap), and the useful tiles only of the shapes at the best:

* **regular**: the kinds ``u`` whose addition lowers the regular shanten, tried among the kinds
  that can join a block (held, or a suited kind within two ranks of a held one) — the
  definition and the candidates of ``mjenv.shanten``'s own regular analysis;
* **seven pairs, thirteen orphans, honours and knitted**: the kinds whose addition lowers that
  shape's shanten (each shape's formula, from :mod:`mjenv.shanten`, applied to the hand plus
  the kind), tried among the kinds that can change the formula at all (an odd count; an
  orphan; a kind not held);
* **knitted straight** at the best: ``analyze_counts`` itself.

Every kind that lowers a best shape's shanten lowers the overall shanten, so the union is
exactly ``analyze_counts``'s ``useful`` (tests/encoders/test_shanten_encoder.py compares them
on random hands). Hands that are not 13-form, or have two melds or more (only the regular
shape), go to ``analyze_counts`` directly: nothing to save there.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from mjenv.decompose import ORPHANS
from mjenv.shanten import (
    analyze_counts,
    honors_knitted_shanten_counts,
    knitted_straight_shanten_counts,
    regular_shanten_counts,
    seven_pairs_shanten_counts,
    thirteen_orphans_shanten_counts,
)
from mjenv.tiles import EAST, NUM_KINDS

_SUIT_CANDIDATES: dict[tuple[int, ...], tuple[int, ...]] = {}
"""A suit's 9 counts -> the ranks that can join a block with them (memo: few keys recur)."""


def _suit_candidates(key: tuple[int, ...]) -> tuple[int, ...]:
    found = _SUIT_CANDIDATES.get(key)
    if found is None:
        found = _SUIT_CANDIDATES[key] = tuple(
            r for r in range(9)
            if key[r] or (r >= 1 and key[r - 1]) or (r >= 2 and key[r - 2])
            or (r <= 7 and key[r + 1]) or (r <= 6 and key[r + 2]))
    return found


def _regular_candidates(counts: list[int]) -> list[int]:
    """Kinds that can take part in a block with the hand: held, or suited within two ranks
    of a held kind of the same suit (a lone new tile forms nothing)."""
    out = [r for r in _suit_candidates(tuple(counts[0:9]))]
    out += [9 + r for r in _suit_candidates(tuple(counts[9:18]))]
    out += [18 + r for r in _suit_candidates(tuple(counts[18:27]))]
    out += [t for t in range(EAST, NUM_KINDS) if counts[t]]
    return out


def _lowering(counts: list[int], kinds: Sequence[int], value: int,
              shanten: Callable[[list[int]], int], into: set[int]) -> None:
    """Add to ``into`` each of ``kinds`` whose addition brings ``shanten`` below ``value``."""
    for u in kinds:
        counts[u] += 1
        if shanten(counts) < value:
            into.add(u)
        counts[u] -= 1


def shanten_and_useful(counts: list[int], n_melds: int) -> tuple[int, tuple[int, ...]]:
    """(``analyze_counts(counts, n_melds).shanten``, ``... .useful``); ``counts`` is changed
    during the call and restored."""
    if n_melds > 1 or sum(counts) % 3 != 1:
        result = analyze_counts(counts, n_melds)
        return result.shanten, result.useful
    regular = regular_shanten_counts(counts, n_melds)
    knitted = knitted_straight_shanten_counts(counts, n_melds)
    best = min(regular, knitted)
    specials: list[tuple[int, Sequence[int], Callable[[list[int]], int]]] = []
    if n_melds == 0:
        # the kinds tried are those that can change each formula: a pair more needs an odd
        # count (a fifth copy counts as a pair, as the fourth did); the orphans; a kind not held
        specials = [(seven_pairs_shanten_counts(counts),
                     [t for t in range(NUM_KINDS) if counts[t] & 1], seven_pairs_shanten_counts),
                    (thirteen_orphans_shanten_counts(counts), ORPHANS,
                     thirteen_orphans_shanten_counts),
                    (honors_knitted_shanten_counts(counts),
                     [t for t in range(NUM_KINDS) if not counts[t]],
                     honors_knitted_shanten_counts)]
        best = min(best, *(s for s, _, _ in specials))
    if knitted == best:  # rare: the knitted straight's own analysis is needed
        result = analyze_counts(counts, n_melds)
        return result.shanten, result.useful
    useful: set[int] = set()
    if regular == best:
        for u in _regular_candidates(counts):
            counts[u] += 1
            if regular_shanten_counts(counts, n_melds) < best:
                useful.add(u)
            counts[u] -= 1
    for value, kinds, shape in specials:
        if value == best:
            _lowering(counts, kinds, best, shape, useful)
    return best, tuple(sorted(useful))

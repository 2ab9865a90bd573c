"""Seeded samples of hands: the inputs of the differential tests and the benchmarks.

Each function takes a seed and a size and returns the same list for the same arguments, on
every machine: ``tests/fans/test_differential.py``, ``scripts/bench_fans.py`` and
``docs/fan-differential.md`` (``sample_hands(2024, 10000)``) pin them.

* :func:`sample_hands` mixes random hands of every shape with hands targeted at each entry of
  the fan table in turn.
* :func:`sample_non_winning` and :func:`sample_tenpai` give inputs for "not a win" tests
  and for waiting-tile benchmarks.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mjenv.decompose import waiting_tiles
from mjenv.fans.context import WinContext
from mjenv.melds import Meld
from mjenv.testing.generate import WinningHand, random_flags, random_winning_hand
from mjenv.testing.recipes import FAN_NAMES, targeted_hand
from mjenv.tiles import NUM_KINDS


def sample_hands(
    seed: int, n: int, targeted_fraction: float = 0.3, unique: bool = True
) -> list[WinningHand]:
    """``n`` hands, deterministic for ``seed``: random hands of every shape, and (a share of
    ``targeted_fraction``) targeted hands going round-robin over the 82 entries in table
    order. With ``unique`` a hand already in the sample is drawn again."""
    rng = np.random.default_rng(seed)
    out: list[WinningHand] = []
    seen: set[tuple[Any, ...]] = set()
    next_fan = 0
    acc = 0.0
    while len(out) < n:
        acc += targeted_fraction
        if acc >= 1.0:
            acc -= 1.0
            hand = targeted_hand(rng, next_fan % len(FAN_NAMES) + 1)
            next_fan += 1
        else:
            hand = random_winning_hand(rng)
        if unique:
            k = hand.key()
            if k in seen:
                continue
            seen.add(k)
        out.append(hand)
    return out


def sample_non_winning(seed: int, n: int) -> list[WinningHand]:
    """``n`` hands (same structure as WinningHand, valid flags) that are *not* complete.

    Half are near misses (a complete hand with its winning tile replaced by one that does
    not complete it), half are random tiles around random melds."""
    rng = np.random.default_rng(seed)
    out: list[WinningHand] = []
    while len(out) < n:
        base = random_winning_hand(rng)
        counts = base.all_counts()
        counts[base.win_tile] -= 1
        if rng.random() < 0.5:
            hand = list(base.hand)
            melds = list(base.melds)
        else:
            melds = list(base.melds)
            counts = [0] * NUM_KINDS
            for m in melds:
                for t in m.tiles:
                    counts[t] += 1
            hand = []
            while len(hand) < 13 - 3 * len(melds):
                t = int(rng.integers(NUM_KINDS))
                if counts[t] < 4:
                    counts[t] += 1
                    hand.append(t)
            hand.sort()
        completing = set(waiting_tiles(hand, melds))
        cands = [t for t in range(NUM_KINDS) if counts[t] < 4 and t not in completing]
        if not cands:
            continue
        w = int(cands[int(rng.integers(len(cands)))])
        flags = random_flags(rng, hand, melds, w)
        if flags is None:
            continue
        out.append(
            WinningHand(hand=tuple(hand), melds=tuple(melds), win_tile=w,
                        context=WinContext(**flags), shape="none")
        )
    return out


def sample_tenpai(
    seed: int, n: int, ready_fraction: float = 0.5
) -> list[tuple[tuple[int, ...], tuple[Meld, ...]]]:
    """``n`` (standing tiles, melds) pairs of 13 - 3 * melds tiles for waiting-tile
    benchmarks: a ``ready_fraction`` share are ready hands (a complete hand less a tile),
    the rest random tiles around the same kind of melds (mostly not ready)."""
    rng = np.random.default_rng(seed)
    out: list[tuple[tuple[int, ...], tuple[Meld, ...]]] = []
    while len(out) < n:
        base = random_winning_hand(rng)
        if rng.random() < ready_fraction:
            out.append((base.hand, base.melds))
            continue
        counts = [0] * NUM_KINDS
        for m in base.melds:
            for t in m.tiles:
                counts[t] += 1
        hand: list[int] = []
        while len(hand) < 13 - 3 * len(base.melds):
            t = int(rng.integers(NUM_KINDS))
            if counts[t] < 4:
                counts[t] += 1
                hand.append(t)
        out.append((tuple(sorted(hand)), base.melds))
    return out

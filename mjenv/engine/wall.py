"""The wall: all the randomness of a hand.

A wall is a permutation of the profile's tiles. Index 0 is the **head** (the first tile dealt
or drawn); the last index is the **tail** (the first replacement tile, for a flower or a kong).
Draws take from the head, replacements from the tail; the wall is empty when they meet.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from mjenv.engine.rules import RuleConfig
from mjenv.tiles import tile_code, tile_id


class Wall:
    """A double-ended wall over an immutable tile tuple (so :meth:`clone` is cheap)."""

    __slots__ = ("tiles", "head", "tail", "seed")

    def __init__(self, tiles: Sequence[int], seed: int | None = None) -> None:
        self.tiles: tuple[int, ...] = tuple(tiles)
        self.head = 0
        self.tail = len(self.tiles)  # exclusive: the next replacement is tiles[tail - 1]
        self.seed = seed

    @classmethod
    def shuffled(cls, rules: RuleConfig, seed: int | None = None) -> Wall:
        """A wall shuffled by ``numpy.random.default_rng(seed)`` (the only randomness)."""
        tiles = np.array(rules.tile_set(), dtype=np.int64)
        np.random.default_rng(seed).shuffle(tiles)
        return cls([int(t) for t in tiles], seed)

    @classmethod
    def from_tiles(cls, rules: RuleConfig, tiles: Sequence[int | str]) -> Wall:
        """A wall from an explicit list (head first); ValueError unless it is a permutation
        of the profile's tiles."""
        ids = [tile_id(t) for t in tiles]
        expected = rules.tile_set()
        if sorted(ids) != expected:
            have = [0] * 42
            want = [0] * 42
            for t in ids:
                have[t] += 1
            for t in expected:
                want[t] += 1
            wrong = [f"{tile_code(t)} x{have[t]} (expected {want[t]})"
                     for t in range(42) if have[t] != want[t]]
            raise ValueError(
                f"a {rules.profile} wall must be a permutation of its {rules.num_tiles} tiles; "
                f"got {len(ids)} tiles with wrong counts: {', '.join(wrong)}")
        return cls(ids)

    @property
    def remaining(self) -> int:
        return self.tail - self.head

    def draw(self) -> int:
        """The head tile."""
        if self.head >= self.tail:
            raise IndexError("the wall is empty")
        t = self.tiles[self.head]
        self.head += 1
        return t

    def draw_replacement(self) -> int:
        """The tail tile (flower and kong replacements)."""
        if self.head >= self.tail:
            raise IndexError("the wall is empty")
        self.tail -= 1
        return self.tiles[self.tail]

    def remaining_tiles(self) -> tuple[int, ...]:
        return self.tiles[self.head:self.tail]

    def clone(self) -> Wall:
        w = Wall.__new__(Wall)
        w.tiles = self.tiles
        w.head = self.head
        w.tail = self.tail
        w.seed = self.seed
        return w

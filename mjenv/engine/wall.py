"""The wall: all the randomness of a hand, and every rule that depends on where tiles come from.

A wall is a permutation of the profile's tiles, laid out one of two ways
(``RuleConfig.wall_layout``):

``"shared"`` (:class:`Wall`, the ``mcr`` profile, rules §1.4–§1.5)
    One wall. Index 0 is the **head** (the first tile dealt or drawn); the last index is the
    **tail** (the first replacement tile, for a flower or a kong). Draws take from the head,
    replacements from the tail; the wall is empty when they meet. The deal is 4 + 4 + 4 + 1
    tiles per seat from the head, the dealer first.

``"per_seat"`` (:class:`SeatWalls`, the ``botzone`` profile, rules §1.8)
    The tile list (the judge's ``walltiles``) is cut into four equal parts; seat ``i`` owns part
    ``i`` and takes every tile it ever gets (its 13-tile deal, each draw, every replacement) from
    the **end** of its own part.

The engine asks the wall, not the profile, the questions whose answer depends on the layout —
may this seat draw, is this the last tile, may this seat declare a kong — so the game logic
has no branch on the profile.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from mjenv.engine.rules import RuleConfig
from mjenv.tiles import tile_code, tile_id


def _checked_ids(rules: RuleConfig, tiles: Sequence[int | str]) -> list[int]:
    """``tiles`` as ids; ValueError unless they are a permutation of the profile's tiles."""
    if isinstance(tiles, str):
        raise ValueError("a wall is a list of tiles (ids or codes), not one string")
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
    return ids


def _shuffled_ids(rules: RuleConfig, seed: int | None) -> list[int]:
    tiles = np.array(rules.tile_set(), dtype=np.int64)
    np.random.default_rng(seed).shuffle(tiles)
    return [int(t) for t in tiles]


class Wall:
    """The shared wall: a double-ended wall over an immutable tile tuple (:meth:`clone` is
    cheap). The ``seat`` arguments are accepted for the common interface and ignored."""

    __slots__ = ("tiles", "head", "tail", "seed")

    layout = "shared"

    def __init__(self, tiles: Sequence[int], seed: int | None = None) -> None:
        self.tiles: tuple[int, ...] = tuple(tiles)
        self.head = 0
        self.tail = len(self.tiles)  # exclusive: the next replacement is tiles[tail - 1]
        self.seed = seed

    @classmethod
    def shuffled(cls, rules: RuleConfig, seed: int | None = None) -> Wall:
        """A wall shuffled by ``numpy.random.default_rng(seed)`` (the only randomness)."""
        return cls(_shuffled_ids(rules, seed), seed)

    @classmethod
    def from_tiles(cls, rules: RuleConfig, tiles: Sequence[int | str]) -> Wall:
        """A wall from an explicit list (head first); ValueError unless it is a permutation
        of the profile's tiles."""
        return cls(_checked_ids(rules, tiles))

    @property
    def remaining(self) -> int:
        return self.tail - self.head

    def deal(self, dealer: int) -> list[list[int]]:
        """The 13 tiles of each seat (indexed by seat), dealt 4 + 4 + 4 + 1 from the head."""
        order = [(dealer + i) % 4 for i in range(4)]
        dealt: list[list[int]] = [[], [], [], []]
        for _ in range(3):
            for s in order:
                dealt[s].extend(self.draw() for _ in range(4))
        for s in order:
            dealt[s].append(self.draw())
        return dealt

    def draw(self, seat: int = 0) -> int:
        """The head tile."""
        if self.head >= self.tail:
            raise IndexError("the wall is empty")
        t = self.tiles[self.head]
        self.head += 1
        return t

    def draw_replacement(self, seat: int = 0) -> int:
        """The tail tile (flower and kong replacements)."""
        if self.head >= self.tail:
            raise IndexError("the wall is empty")
        self.tail -= 1
        return self.tiles[self.tail]

    def can_draw(self, seat: int) -> bool:
        """Whether ``seat`` can draw (or be given a replacement) now."""
        return self.head < self.tail

    def is_last(self, actor: int) -> bool:
        """Whether the tile ``actor`` just drew or discarded is the last one (§1.5: the wall is
        empty): it gives 妙手回春 / 海底捞月, and such a discard may be claimed only for a win."""
        return self.head >= self.tail

    def can_kong(self, actor: int) -> bool:
        """Whether ``actor`` may declare a kong: a replacement must exist (§1.6)."""
        return self.head < self.tail

    def remaining_tiles(self) -> tuple[int, ...]:
        return self.tiles[self.head:self.tail]

    def clone(self) -> Wall:
        w = Wall.__new__(Wall)
        w.tiles = self.tiles
        w.head = self.head
        w.tail = self.tail
        w.seed = self.seed
        return w


class SeatWalls:
    """Botzone's per-seat walls (rules §1.8): four parts of the tile list, each drawn from its end.

    ``ends[i]`` is one past the next tile of part ``i`` (part ``i`` holds
    ``tiles[i*L : ends[i]]``, L = len(tiles) / 4), so :meth:`clone` copies four ints.
    """

    __slots__ = ("tiles", "part", "ends", "seed")

    layout = "per_seat"

    def __init__(self, tiles: Sequence[int], seed: int | None = None) -> None:
        self.tiles: tuple[int, ...] = tuple(tiles)
        if len(self.tiles) % 4:
            raise ValueError(f"per-seat walls need a multiple of 4 tiles, got {len(self.tiles)}")
        self.part = len(self.tiles) // 4
        self.ends = [self.part * (i + 1) for i in range(4)]
        self.seed = seed

    @classmethod
    def shuffled(cls, rules: RuleConfig, seed: int | None = None) -> SeatWalls:
        return cls(_shuffled_ids(rules, seed), seed)

    @classmethod
    def from_tiles(cls, rules: RuleConfig, tiles: Sequence[int | str]) -> SeatWalls:
        """Walls from the judge's ``walltiles`` order; ValueError unless a permutation of the
        profile's tiles."""
        return cls(_checked_ids(rules, tiles))

    def left(self, seat: int) -> int:
        """The tiles left in ``seat``'s part."""
        return self.ends[seat] - self.part * seat

    @property
    def remaining(self) -> int:
        return sum(self.left(s) for s in range(4))

    def deal(self, dealer: int) -> list[list[int]]:
        """The 13 tiles of each seat, from the end of its own part."""
        return [[self.draw(s) for _ in range(13)] for s in range(4)]

    def draw(self, seat: int = 0) -> int:
        if self.ends[seat] <= self.part * seat:
            raise IndexError(f"seat {seat}'s wall is empty")
        self.ends[seat] -= 1
        return self.tiles[self.ends[seat]]

    draw_replacement = draw
    """Replacements come from the same end of the seat's own part."""

    def can_draw(self, seat: int) -> bool:
        return self.ends[seat] > self.part * seat

    def is_last(self, actor: int) -> bool:
        """The part of the seat after ``actor`` is empty (§1.8)."""
        return not self.can_draw((actor + 1) % 4)

    def can_kong(self, actor: int) -> bool:
        """Both ``actor``'s part and the next seat's part hold a tile (§1.8)."""
        return self.can_draw(actor) and self.can_draw((actor + 1) % 4)

    def remaining_tiles(self) -> tuple[int, ...]:
        out: list[int] = []
        for s in range(4):
            out.extend(self.tiles[self.part * s:self.ends[s]])
        return tuple(out)

    def clone(self) -> SeatWalls:
        w = SeatWalls.__new__(SeatWalls)
        w.tiles = self.tiles
        w.part = self.part
        w.ends = self.ends[:]
        w.seed = self.seed
        return w


AnyWall = Wall | SeatWalls

LAYOUTS: dict[str, type[Wall] | type[SeatWalls]] = {"shared": Wall, "per_seat": SeatWalls}
"""``RuleConfig.wall_layout`` -> the wall class."""


def make_wall(rules: RuleConfig, tiles: Sequence[int | str] | None = None,
              seed: int | None = None) -> AnyWall:
    """The profile's wall: from ``tiles`` (validated) if given, else shuffled from ``seed``."""
    cls = LAYOUTS[rules.wall_layout]
    if tiles is None:
        return cls.shuffled(rules, seed)
    wall = cls.from_tiles(rules, tiles)
    wall.seed = seed
    return wall

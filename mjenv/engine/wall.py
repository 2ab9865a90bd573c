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
has no branch on the profile. :class:`WallCounts` answers them, once for both layouts, from how
many tiles are left where each seat takes its tiles: the walls here are WallCounts that also
hold their tiles, and a seat that knows only its own view builds one from what it has counted
(``Wall.counts_seen`` / ``SeatWalls.counts_seen``), so it answers exactly as the wall does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

import numpy as np
from mypy_extensions import mypyc_attr

from mjenv.engine.rules import RuleConfig
from mjenv.tiles import tile_code, tile_id

if TYPE_CHECKING:
    from mjenv.engine.seat_view import SeatView


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


_SORTED_TILES: dict[int, np.ndarray] = {}
"""The profile's tiles in order as an array, by wall size (copied for each shuffle: a new hand
of a batch is dealt every hundred decisions or so, and building it anew took a third of the
shuffle's time)."""


def _shuffled_ids(rules: RuleConfig, seed: int | None) -> list[int]:
    ordered = _SORTED_TILES.get(rules.num_tiles)
    if ordered is None:
        ordered = _SORTED_TILES[rules.num_tiles] = np.array(rules.tile_set(), dtype=np.int64)
    tiles = ordered.copy()
    np.random.default_rng(seed).shuffle(tiles)
    ids: list[int] = tiles.tolist()  # Python ints, ten times faster than int() on each
    return ids


@mypyc_attr(allow_interpreted_subclasses=True)
class WallCounts:
    """How many tiles are left where each seat takes its tiles, and the three layout-dependent
    rules over them, written once for every layout (§1.5, §1.6, §1.8).

    ``counts[s]`` is the tiles left where seat ``s`` takes every tile it gets: the one wall
    with the shared layout (the four counts are equal and move together), its own part with
    per-seat walls. With the shared wall "the next seat's count is 0" is "the wall is empty"
    and both kong conditions are "the wall is not empty", the rules of §1.5–§1.6.
    """

    __slots__ = ("counts",)

    def __init__(self, counts: Sequence[int]) -> None:
        self.counts: list[int] = list(counts)
        if len(self.counts) != 4:
            raise ValueError(f"one count per seat, got {len(self.counts)}")

    def left(self, seat: int) -> int:
        """The tiles left where ``seat`` takes its tiles (draws and replacements)."""
        return self.counts[seat]

    def can_draw(self, seat: int) -> bool:
        """Whether ``seat`` can draw (or be given a replacement) now; otherwise the hand is a
        draw."""
        return self.counts[seat] > 0

    def is_last(self, actor: int) -> bool:
        """Whether the tile ``actor`` just drew or discarded is the last one: the next seat has
        no tile left to take. It gives 妙手回春 / 海底捞月, and such a discard may be claimed
        only for a win."""
        return self.counts[(actor + 1) % 4] <= 0

    def can_kong(self, actor: int) -> bool:
        """Whether ``actor`` may declare a concealed or added kong: its replacement must exist
        and the kong must not take the last tile, so both ``actor`` and the next seat have a
        tile left (Botzone's ``checkInputDRAW`` checks exactly these two parts). A kong on a
        discard is not asked here: it needs only that the discard is not the last tile
        (:meth:`is_last`), as Botzone's judge rules it (mjenv.engine.legal)."""
        counts = self.counts
        return counts[actor] > 0 and counts[(actor + 1) % 4] > 0


@mypyc_attr(allow_interpreted_subclasses=True)
class Wall(WallCounts):
    """The shared wall: a double-ended wall over an immutable tile tuple (:meth:`clone` is
    cheap). The ``seat`` arguments are accepted for the common interface and ignored."""

    __slots__ = ("tiles", "tail", "seed")

    layout: ClassVar[str] = "shared"

    def __init__(self, tiles: Sequence[int], seed: int | None = None) -> None:
        self.tiles: tuple[int, ...] = tuple(tiles)
        self.tail = len(self.tiles)
        """One past the next replacement tile: it is ``tiles[tail - 1]``."""
        self.seed = seed
        super().__init__([len(self.tiles)] * 4)

    @classmethod
    def shuffled(cls, rules: RuleConfig, seed: int | None = None) -> Wall:
        """A wall shuffled by ``numpy.random.default_rng(seed)`` (the only randomness)."""
        return cls(_shuffled_ids(rules, seed), seed)

    @classmethod
    def from_tiles(cls, rules: RuleConfig, tiles: Sequence[int | str]) -> Wall:
        """A wall from an explicit list (head first); ValueError unless it is a permutation
        of the profile's tiles."""
        return cls(_checked_ids(rules, tiles))

    @staticmethod
    def counts_seen(view: SeatView) -> WallCounts:
        """The wall as ``view``'s seat has counted it: the one wall, every seat's source."""
        return WallCounts([view.tiles_left] * 4)

    @property
    def head(self) -> int:
        """The next tile drawn: ``tiles[head]``."""
        return self.tail - self.counts[0]

    @property
    def remaining(self) -> int:
        return self.counts[0]

    def deal(self, dealer: int) -> list[list[int]]:
        """The 13 tiles of each seat (indexed by seat), dealt 4 + 4 + 4 + 1 from the head: in
        each of three rounds every seat from the dealer on takes the next 4 tiles, then one
        tile each."""
        counts = self.counts
        n = counts[0]
        if n < 52:
            raise IndexError("the wall is empty")
        head = self.tail - n
        tiles = self.tiles
        dealt: list[list[int]] = [[], [], [], []]
        for i in range(4):  # the i-th seat from the dealer
            at = head + 4 * i
            dealt[(dealer + i) % 4] = [*tiles[at:at + 4], *tiles[at + 16:at + 20],
                                       *tiles[at + 32:at + 36], tiles[head + 48 + i]]
        counts[0] = counts[1] = counts[2] = counts[3] = n - 52
        return dealt

    def draw(self, seat: int = 0) -> int:
        """The head tile."""
        counts = self.counts
        n = counts[0]
        if n <= 0:
            raise IndexError("the wall is empty")
        counts[0] = counts[1] = counts[2] = counts[3] = n - 1  # every seat's source
        return self.tiles[self.tail - n]

    def draw_replacement(self, seat: int = 0) -> int:
        """The tail tile (flower and kong replacements)."""
        counts = self.counts
        n = counts[0]
        if n <= 0:
            raise IndexError("the wall is empty")
        counts[0] = counts[1] = counts[2] = counts[3] = n - 1
        self.tail -= 1
        return self.tiles[self.tail]

    def remaining_tiles(self) -> tuple[int, ...]:
        return self.tiles[self.tail - self.counts[0]:self.tail]

    def clone(self) -> Wall:
        # through __init__: a class compiled with mypyc cannot be made by ``__new__`` alone
        # (the tuple is shared, not copied: ``tuple`` of a tuple is the tuple itself)
        w = Wall(self.tiles, self.seed)
        w.tail = self.tail
        w.counts = self.counts[:]
        return w


@mypyc_attr(allow_interpreted_subclasses=True)
class SeatWalls(WallCounts):
    """Botzone's per-seat walls (rules §1.8): four parts of the tile list, each drawn from its end.

    ``counts[i]`` is the tiles left in part ``i`` (part ``i`` holds
    ``tiles[i*L : i*L + counts[i]]``, L = len(tiles) / 4), so :meth:`clone` copies four ints.
    """

    __slots__ = ("tiles", "part", "seed")

    layout: ClassVar[str] = "per_seat"

    def __init__(self, tiles: Sequence[int], seed: int | None = None) -> None:
        self.tiles: tuple[int, ...] = tuple(tiles)
        if len(self.tiles) % 4:
            raise ValueError(f"per-seat walls need a multiple of 4 tiles, got {len(self.tiles)}")
        self.part = len(self.tiles) // 4
        self.seed = seed
        super().__init__([self.part] * 4)

    @classmethod
    def shuffled(cls, rules: RuleConfig, seed: int | None = None) -> SeatWalls:
        return cls(_shuffled_ids(rules, seed), seed)

    @classmethod
    def from_tiles(cls, rules: RuleConfig, tiles: Sequence[int | str]) -> SeatWalls:
        """Walls from the judge's ``walltiles`` order; ValueError unless a permutation of the
        profile's tiles."""
        return cls(_checked_ids(rules, tiles))

    @staticmethod
    def counts_seen(view: SeatView) -> WallCounts:
        """The walls as ``view``'s seat has counted them: each part less what its seat took."""
        return WallCounts([view.seat_tiles_left(s) for s in range(4)])

    @property
    def remaining(self) -> int:
        return sum(self.counts)

    def deal(self, dealer: int) -> list[list[int]]:
        """The 13 tiles of each seat, from the end of its own part."""
        return [[self.draw(s) for _ in range(13)] for s in range(4)]

    def draw(self, seat: int = 0) -> int:
        n = self.counts[seat] - 1
        if n < 0:
            raise IndexError(f"seat {seat}'s wall is empty")
        self.counts[seat] = n
        return self.tiles[self.part * seat + n]

    def draw_replacement(self, seat: int = 0) -> int:
        """Replacements come from the same end of the seat's own part."""
        return self.draw(seat)

    def remaining_tiles(self) -> tuple[int, ...]:
        out: list[int] = []
        for s in range(4):
            out.extend(self.tiles[self.part * s:self.part * s + self.counts[s]])
        return tuple(out)

    def clone(self) -> SeatWalls:
        w = SeatWalls(self.tiles, self.seed)  # (through __init__, as Wall.clone)
        w.counts = self.counts[:]
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

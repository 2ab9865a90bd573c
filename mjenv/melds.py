"""Melds: the sets a player has declared (chow, pung, the three kinds of kong).

A meld knows its tiles, which tile was claimed and from whom, so the same object serves
the fan calculator (which only needs the kind and tiles), the engine and game records.
``from_offset`` is the supplier's seat offset: 1 = 下家 (next), 2 = 对家 (opposite),
3 = 上家 (previous); a chow always comes from 3, a concealed kong from nobody (None).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from mjenv.tiles import EAST, NUM_KINDS, tile_code, tile_id

CHOW = "chow"
PUNG = "pung"
KONG = "kong"  # exposed kong from a discard (明杠)
ADDED_KONG = "added_kong"  # pung upgraded with a fourth tile (加杠), exposed
CONCEALED_KONG = "concealed_kong"  # 暗杠
MELD_KINDS = (CHOW, PUNG, KONG, ADDED_KONG, CONCEALED_KONG)
KONG_KINDS = frozenset((KONG, ADDED_KONG, CONCEALED_KONG))


@dataclass(frozen=True, slots=True)
class Meld:
    """One declared set. ``tiles`` are ids in ascending order (3 tiles, or 4 for kongs)."""

    kind: str
    tiles: tuple[int, ...]
    claimed: int | None = None
    from_offset: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in MELD_KINDS:
            raise ValueError(f"unknown meld type {self.kind!r}: use one of {', '.join(MELD_KINDS)}")
        tiles = tuple(sorted(tile_id(t) for t in self.tiles))
        object.__setattr__(self, "tiles", tiles)
        if any(t >= NUM_KINDS for t in tiles):
            raise ValueError(f"a flower cannot be part of a meld: {self.describe()}")
        size = 4 if self.kind in KONG_KINDS else 3
        if len(tiles) != size:
            raise ValueError(f"a {self.kind} has {size} tiles, got {len(tiles)}: {self.describe()}")
        if self.kind == CHOW:
            first = tiles[0]
            if first >= EAST or first % 9 > 6 or tiles != (first, first + 1, first + 2):
                raise ValueError(
                    f"a chow must be three consecutive tiles of one suit: {self.describe()}"
                )
        elif len(set(tiles)) != 1:
            raise ValueError(f"a {self.kind} must be {size} identical tiles: {self.describe()}")
        if self.claimed is not None:
            claimed = tile_id(self.claimed)
            object.__setattr__(self, "claimed", claimed)
            if claimed not in tiles:
                raise ValueError(f"claimed tile {tile_code(claimed)} is not in {self.describe()}")
            if self.kind == CONCEALED_KONG:
                raise ValueError("a concealed kong has no claimed tile")
        if self.from_offset is not None:
            if self.kind == CONCEALED_KONG:
                raise ValueError("a concealed kong has no supplier (from must be null)")
            if self.from_offset not in (1, 2, 3):
                raise ValueError(f"from must be 1, 2 or 3 (seat offset), got {self.from_offset!r}")
            if self.kind == CHOW and self.from_offset != 3:
                raise ValueError("a chow can only be claimed from the previous player (from = 3)")

    # ------------------------------------------------------------ constructors
    @classmethod
    def chow(cls, lowest: int | str, claimed: int | str | None = None) -> Meld:
        low = tile_id(lowest)
        return cls(CHOW, (low, low + 1, low + 2), None if claimed is None else tile_id(claimed), 3)

    @classmethod
    def pung(cls, tile: int | str, from_offset: int | None = None) -> Meld:
        t = tile_id(tile)
        return cls(PUNG, (t, t, t), t, from_offset)

    @classmethod
    def kong(cls, tile: int | str, from_offset: int | None = None) -> Meld:
        t = tile_id(tile)
        return cls(KONG, (t,) * 4, t, from_offset)

    @classmethod
    def added_kong(cls, tile: int | str, from_offset: int | None = None) -> Meld:
        t = tile_id(tile)
        return cls(ADDED_KONG, (t,) * 4, t, from_offset)

    @classmethod
    def concealed_kong(cls, tile: int | str) -> Meld:
        t = tile_id(tile)
        return cls(CONCEALED_KONG, (t,) * 4)

    # ------------------------------------------------------------ properties
    @property
    def is_kong(self) -> bool:
        return self.kind in KONG_KINDS

    @property
    def is_concealed(self) -> bool:
        return self.kind == CONCEALED_KONG

    @property
    def first(self) -> int:
        """The lowest tile: the chow's first tile, or the pung's / kong's tile."""
        return self.tiles[0]

    def describe(self) -> str:
        return f"{self.kind} " + " ".join(tile_code(t) for t in self.tiles)

    # ------------------------------------------------------------ JSON form
    def to_dict(self) -> dict[str, Any]:
        return {
            "type": self.kind,
            "tiles": [tile_code(t) for t in self.tiles],
            "claimed": None if self.claimed is None else tile_code(self.claimed),
            "from": self.from_offset,
        }

    @classmethod
    def from_dict(cls, data: Any) -> Meld:
        """Build a meld from its JSON form; ValueError says what is wrong."""
        if not isinstance(data, dict):
            raise ValueError(f"a meld must be an object, got {data!r}")
        unknown = set(data) - {"type", "tiles", "claimed", "from"}
        if unknown:
            raise ValueError(f"unknown meld field(s): {', '.join(sorted(unknown))}")
        kind = data.get("type")
        tiles = data.get("tiles")
        if not isinstance(kind, str):
            raise ValueError(f"meld type must be a string, got {kind!r}")
        if not isinstance(tiles, list) or not all(isinstance(t, (str, int)) for t in tiles):
            raise ValueError(f"meld tiles must be a list of tile codes, got {tiles!r}")
        claimed = data.get("claimed")
        offset = data.get("from")
        if offset is not None and (not isinstance(offset, int) or isinstance(offset, bool)):
            raise ValueError(f"from must be 1, 2, 3 or null, got {offset!r}")
        return cls(kind, tuple(tile_id(t) for t in tiles),
                   None if claimed is None else tile_id(claimed), offset)


@cache
def shared_chow(first: int, claimed: int) -> Meld:
    """``Meld.chow(first, claimed=claimed)``, one shared object per distinct chow. Melds are
    immutable, and the engine and each seat's view make one for every claim: building and
    checking a new one each time (``__post_init__`` runs in Python) was the dearest step of a
    seat view's fold."""
    return Meld.chow(first, claimed=claimed)


@cache
def shared_meld(kind: str, tile: int, from_offset: int | None) -> Meld:
    """A pung, kong, added kong or concealed kong of ``tile`` claimed from ``from_offset``
    (None for a concealed kong), shared as :func:`shared_chow`."""
    if kind == CONCEALED_KONG:
        return Meld.concealed_kong(tile)
    return Meld(kind, (tile,) * (3 if kind == PUNG else 4), tile, from_offset)

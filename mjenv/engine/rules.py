"""Rule profiles as frozen data.

The ``mcr`` profile (the default) is the official game of ``shared/rules/mcr-rules.md``: 144
tiles with flowers, one shared wall drawn from the head, every replacement (flower, kong) from
the tail, 16-hand matches, the 8-point minimum, and the −30 / +10 false-win penalty.

A later profile (e.g. ``botzone``) is meant to differ in data and in a few named branches of
the engine, which read the fields below (``wall_layout``, ``flowers``, ...); nothing else is
switched on the profile name.
"""

from __future__ import annotations

from dataclasses import dataclass

from mjenv.tiles import FLOWER_BASE, NUM_KINDS

FALSE_WIN_MODES = ("mask", "penalize")
WALL_LAYOUTS = ("shared",)  # "per_seat" arrives with the botzone profile


@dataclass(frozen=True, slots=True)
class RuleConfig:
    """One rule profile. All fields are plain data; see the module docstring."""

    profile: str = "mcr"
    flowers: bool = True
    """144 tiles with the 8 flowers (True), or 136 without."""
    wall_layout: str = "shared"
    """``"shared"``: one wall, draws from the head, replacements from the tail."""
    false_win: str = "mask"
    """``"mask"``: Win is legal only when it is a win. ``"penalize"``: Win may always be declared
    in a draw turn or a claim window; a false one ends the hand with the penalty."""
    min_points: int = 8
    """The minimum to win, flowers excluded."""
    base_points: int = 8
    """What each loser pays on top of the fans (§2.3)."""
    penalty_offender: int = -30
    penalty_others: int = 10
    hands_per_match: int = 16

    def __post_init__(self) -> None:
        if self.false_win not in FALSE_WIN_MODES:
            raise ValueError(f"false_win must be one of {FALSE_WIN_MODES}, got {self.false_win!r}")
        if self.wall_layout not in WALL_LAYOUTS:
            raise ValueError(
                f"wall_layout must be one of {WALL_LAYOUTS}, got {self.wall_layout!r}")
        if self.penalty_offender + 3 * self.penalty_others != 0:
            raise ValueError("the false-win penalty must be zero-sum "
                             "(penalty_offender + 3 * penalty_others == 0)")
        if self.hands_per_match < 1:
            raise ValueError("hands_per_match must be at least 1")

    @property
    def num_tiles(self) -> int:
        return 144 if self.flowers else 136

    def tile_set(self) -> list[int]:
        """The profile's tiles as a sorted list of ids (4 of each kind, 1 of each flower)."""
        tiles = [t for t in range(NUM_KINDS) for _ in range(4)]
        if self.flowers:
            tiles.extend(range(FLOWER_BASE, FLOWER_BASE + 8))
        return tiles


MCR = RuleConfig()

PROFILES: dict[str, RuleConfig] = {"mcr": MCR}


def profile(name: str) -> RuleConfig:
    """The named profile; ValueError lists the known ones."""
    try:
        return PROFILES[name]
    except KeyError:
        raise ValueError(f"unknown rule profile {name!r}: known {sorted(PROFILES)}") from None

"""Rule profiles as frozen data.

The ``mcr`` profile (the default) is the official game of ``docs/rules.md``: 144
tiles with flowers, one shared wall drawn from the head, every replacement (flower, kong) from
the tail, 16-hand matches, the 8-point minimum, and the −30 / +10 false-win penalty.

The ``botzone`` profile is the variant of Botzone's "Chinese-Standard-Mahjong" judge (the IJCAI
competitions, rules §1.8): one hand, seat 0 the dealer, per-seat walls cut from the judge's
``walltiles`` (136 tiles by default; ``dataclasses.replace(BOTZONE, flowers=True)`` for a
144-tile wall), and the last-tile, kong and draw conditions that follow from those walls.

The profiles differ only in the data below; the engine reads the fields (the wall layout
answers the layout-dependent questions, see mjenv.engine.wall) and never the profile name.
"""

from __future__ import annotations

from dataclasses import dataclass

from mjenv.tiles import FLOWER_BASE, NUM_KINDS

FALSE_WIN_MODES = ("mask", "penalize")
WALL_LAYOUTS = ("shared", "per_seat")


@dataclass(frozen=True, slots=True)
class RuleConfig:
    """One rule profile. All fields are plain data; see the module docstring."""

    profile: str = "mcr"
    flowers: bool = True
    """144 tiles with the 8 flowers (True), or 136 without."""
    wall_layout: str = "shared"
    """``"shared"``: one wall, draws from the head, replacements from the tail. ``"per_seat"``:
    four parts, each seat taking everything from the end of its own part (§1.8)."""
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
    fixed_dealer: int | None = None
    """The dealer's seat when the profile fixes it (botzone: seat 0 is East and deals); None:
    the caller chooses (a match rotates it)."""

    def __post_init__(self) -> None:
        if self.false_win not in FALSE_WIN_MODES:
            raise ValueError(f"false_win must be one of {FALSE_WIN_MODES}, got {self.false_win!r}")
        if self.wall_layout not in WALL_LAYOUTS:
            raise ValueError(
                f"wall_layout must be one of {WALL_LAYOUTS}, got {self.wall_layout!r}")
        if self.penalty_offender + 3 * self.penalty_others != 0:
            raise ValueError("the false-win penalty must be zero-sum "
                             "(penalty_offender + 3 * penalty_others == 0)")
        if self.fixed_dealer is not None and self.fixed_dealer not in range(4):
            raise ValueError(f"fixed_dealer must be None or 0..3, got {self.fixed_dealer!r}")
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

BOTZONE = RuleConfig(profile="botzone", flowers=False, wall_layout="per_seat",
                     hands_per_match=1, fixed_dealer=0)

PROFILES: dict[str, RuleConfig] = {"mcr": MCR, "botzone": BOTZONE}


def profile(name: str) -> RuleConfig:
    """The named profile; ValueError lists the known ones."""
    try:
        return PROFILES[name]
    except KeyError:
        raise ValueError(f"unknown rule profile {name!r}: known {sorted(PROFILES)}") from None

"""The wall and the rule profile."""

from __future__ import annotations

import pytest

from mjenv.engine import MCR, Game, RuleConfig, Wall
from mjenv.engine.rules import profile
from mjenv.tiles import parse_tiles


def test_seeded_shuffle_is_reproducible_and_a_permutation() -> None:
    a, b, c = Wall.shuffled(MCR, 5), Wall.shuffled(MCR, 5), Wall.shuffled(MCR, 6)
    assert a.tiles == b.tiles and a.tiles != c.tiles
    assert sorted(a.tiles) == MCR.tile_set() and len(a.tiles) == 144
    assert a.seed == 5


def test_draws_from_the_head_and_replacements_from_the_tail() -> None:
    tiles = MCR.tile_set()
    w = Wall.from_tiles(MCR, tiles)
    assert w.draw() == tiles[0] and w.draw() == tiles[1]
    assert w.draw_replacement() == tiles[-1] and w.draw_replacement() == tiles[-2]
    assert w.remaining == 140
    clone = w.clone()
    while w.remaining:
        w.draw()
    with pytest.raises(IndexError):
        w.draw()
    with pytest.raises(IndexError):
        w.draw_replacement()
    assert clone.remaining == 140


@pytest.mark.parametrize("change", ["drop", "extra", "duplicate", "136"])
def test_a_wall_that_is_not_a_permutation_is_refused(change: str) -> None:
    tiles = MCR.tile_set()
    if change == "drop":
        tiles.pop()
    elif change == "extra":
        tiles.append(0)
    elif change == "duplicate":
        tiles[-1] = 0  # a fifth W1 instead of H8
    else:
        tiles = [t for t in tiles if t < 34]
    with pytest.raises(ValueError, match="permutation of its 144 tiles"):
        Wall.from_tiles(MCR, tiles)
    with pytest.raises(ValueError, match="permutation"):
        Game(wall=tiles)


def test_a_wall_of_codes_is_accepted() -> None:
    codes = [f"{s}{r}" for s in "WTB" for r in range(1, 10) for _ in range(4)]
    codes += [f"F{i}" for i in range(1, 5) for _ in range(4)]
    codes += [f"J{i}" for i in range(1, 4) for _ in range(4)]
    codes += [f"H{i}" for i in range(1, 9)]
    assert Wall.from_tiles(MCR, codes).tiles == tuple(MCR.tile_set())
    assert parse_tiles("H8") == [41]


def test_rule_config() -> None:
    assert MCR.num_tiles == 144 and len(MCR.tile_set()) == 144
    assert RuleConfig(flowers=False).num_tiles == 136
    assert profile("mcr") is MCR
    with pytest.raises(ValueError, match="unknown rule profile"):
        profile("botzone")
    with pytest.raises(ValueError, match="false_win"):
        RuleConfig(false_win="allow")
    with pytest.raises(ValueError, match="zero-sum"):
        RuleConfig(penalty_others=5)
    with pytest.raises(ValueError, match="wall_layout"):
        RuleConfig(wall_layout="per_seat")
    with pytest.raises(AttributeError):
        MCR.false_win = "penalize"  # type: ignore[misc]


def test_game_arguments_are_checked() -> None:
    with pytest.raises(ValueError, match="dealer"):
        Game(dealer=4)
    with pytest.raises(ValueError, match="prevalent_wind"):
        Game(prevalent_wind=-1)

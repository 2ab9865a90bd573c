"""The wall and the rule profile."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from mjenv.engine import MCR, Game, RuleConfig, Wall
from mjenv.engine.rules import BOTZONE, profile
from mjenv.engine.wall import SeatWalls
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
    assert profile("mcr") is MCR and profile("botzone") is BOTZONE
    assert BOTZONE.num_tiles == 136 and BOTZONE.hands_per_match == 1
    with pytest.raises(ValueError, match="unknown rule profile"):
        profile("riichi")
    with pytest.raises(ValueError, match="false_win"):
        RuleConfig(false_win="allow")
    with pytest.raises(ValueError, match="zero-sum"):
        RuleConfig(penalty_others=5)
    with pytest.raises(ValueError, match="wall_layout"):
        RuleConfig(wall_layout="diagonal")
    with pytest.raises(ValueError, match="fixed_dealer"):
        RuleConfig(fixed_dealer=4)
    with pytest.raises(AttributeError):
        MCR.false_win = "penalize"  # type: ignore[misc]


def test_game_arguments_are_checked() -> None:
    with pytest.raises(ValueError, match="dealer"):
        Game(dealer=4)
    with pytest.raises(ValueError, match="prevalent_wind"):
        Game(prevalent_wind=-1)


# ---------------------------------------------------------------- per-seat walls (§1.8)
def test_seat_walls_deal_and_draw_from_the_end_of_each_part() -> None:
    """Seat i owns walltiles[i*L:(i+1)*L] and takes everything from its end (§1.8), e.g.
    Botzone model/game000: part 0 ends ``... W3 F4 B9 T1 T4 W2``, seat 0 is dealt W2 T4 T1 ..."""
    tiles = BOTZONE.tile_set()
    random.Random(3).shuffle(tiles)
    w = SeatWalls.from_tiles(BOTZONE, tiles)
    dealt = w.deal(0)
    for s in range(4):
        end = 34 * (s + 1)
        assert dealt[s] == tiles[end - 13:end][::-1]
        assert w.left(s) == 21
    assert w.draw(2) == tiles[68 + 20] and w.draw_replacement(2) == tiles[68 + 19]
    assert w.left(2) == 19 and w.remaining == 21 * 3 + 19
    assert w.remaining_tiles() == tuple(tiles[0:21] + tiles[34:55] + tiles[68:87] + tiles[102:123])


def test_seat_walls_answer_the_layout_questions() -> None:
    """Draw possible while the own part holds a tile; last tile when the next seat's part is
    empty; a kong needs the own and the next seat's parts (§1.8)."""
    w = SeatWalls(list(range(8)))  # parts of 2 tiles
    for _ in range(2):
        w.draw(1)
    assert not w.can_draw(1) and w.can_draw(0)
    assert w.is_last(0) and not w.is_last(1)
    assert not w.can_kong(0) and not w.can_kong(1) and w.can_kong(2)
    with pytest.raises(IndexError, match="seat 1"):
        w.draw(1)
    c = w.clone()
    c.draw(0)
    assert w.left(0) == 2 and c.left(0) == 1


def test_shared_wall_answers_the_layout_questions() -> None:
    w = Wall(list(range(3)))
    assert w.can_draw(0) and w.can_kong(3) and not w.is_last(1)
    for _ in range(3):
        w.draw()
    assert not w.can_draw(2) and not w.can_kong(0) and w.is_last(0)


def test_botzone_games_fix_the_dealer_and_check_the_wall() -> None:
    assert Game(BOTZONE, seed=1).dealer == 0
    with pytest.raises(ValueError, match="fixes the dealer"):
        Game(BOTZONE, seed=1, dealer=2)
    with pytest.raises(ValueError, match="136 tiles"):
        Game(BOTZONE, wall=MCR.tile_set())
    flowers = replace(BOTZONE, flowers=True)
    g = Game(flowers, wall=flowers.tile_set())
    assert isinstance(g.wall, SeatWalls) and g.wall.remaining == 144 - 52 - 1 - sum(
        len(f) for f in g.flowers)

"""The 235-action layout: every id decodes, encodes back, and has a unique name."""

from __future__ import annotations

import pytest

from mjenv import actions as A
from mjenv.tiles import NUM_KINDS, tile_code


def _encode(kind: int, tile: int, a: int) -> int:
    if kind == A.K_PASS:
        return A.PASS
    if kind == A.K_WIN:
        return A.WIN
    if kind == A.K_CHOW:
        middle, claimed = A.decode_chow(a)
        assert claimed == tile
        return A.chow(middle, claimed)
    return {A.K_DISCARD: A.discard, A.K_PUNG: A.pung, A.K_KONG: A.kong,
            A.K_CONCEALED_KONG: A.concealed_kong, A.K_ADDED_KONG: A.added_kong}[kind](tile)


@pytest.mark.parametrize("a", range(A.NUM_ACTIONS))
def test_every_id_round_trips(a: int) -> None:
    kind, tile = A.decode(a)
    assert _encode(kind, tile, a) == a
    assert A.string_to_action(A.action_to_string(a)) == a


def test_names_are_unique_and_blocks_cover_the_layout() -> None:
    assert len({A.action_to_string(a) for a in range(A.NUM_ACTIONS)}) == A.NUM_ACTIONS
    covered = [a for first, n, _ in A.LAYOUT for a in range(first, first + n)]
    assert covered == list(range(A.NUM_ACTIONS))
    for first, n, kind in A.LAYOUT:
        assert {A.decode(a)[0] for a in range(first, first + n)} == {kind}


def test_block_boundaries() -> None:
    assert (A.discard(0), A.discard(33)) == (2, 35)
    assert (A.pung(0), A.kong(0), A.concealed_kong(0), A.added_kong(33)) == (99, 133, 167, 234)
    assert A.action_to_string(0) == "Pass" and A.action_to_string(1) == "Win"
    assert A.action_to_string(2) == "Discard W1"
    assert A.action_to_string(234) == "AddedKong J3"


def test_chow_formula_matches_the_architecture() -> None:
    # index = 36 + suit*21 + (middle rank - 2)*3 + (claimed rank - middle rank + 1)
    seen = set()
    for suit in range(3):
        for mid_rank in range(2, 9):
            for claimed_rank in (mid_rank - 1, mid_rank, mid_rank + 1):
                middle = suit * 9 + mid_rank - 1
                claimed = suit * 9 + claimed_rank - 1
                a = A.chow(middle, claimed)
                assert a == 36 + suit * 21 + (mid_rank - 2) * 3 + (claimed_rank - mid_rank + 1)
                assert A.decode_chow(a) == (middle, claimed)
                seen.add(a)
    assert seen == set(range(36, 99))
    assert A.action_to_string(A.chow(1, 0)) == "Chow W1W2W3 (claim W1)"


@pytest.mark.parametrize("bad", [-1, 235, True, 2.0, "1"])
def test_out_of_range_ids_are_refused(bad: object) -> None:
    with pytest.raises(ValueError):
        A.decode(bad)  # type: ignore[arg-type]


def test_bad_encodings_are_refused() -> None:
    with pytest.raises(ValueError):
        A.chow(0, 0)  # W1 cannot be a chow's middle
    with pytest.raises(ValueError):
        A.chow(27, 27)  # honours
    with pytest.raises(ValueError):
        A.chow(4, 7)
    with pytest.raises(ValueError):
        A.discard(NUM_KINDS)  # a flower is never discarded
    with pytest.raises(ValueError):
        A.string_to_action("Discard H1")
    assert tile_code(A.decode(A.pung(31))[1]) == "J1"

"""mjenv.melds: constructors, properties, the JSON form, and every validation error."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from mjenv.melds import (
    ADDED_KONG,
    CHOW,
    CONCEALED_KONG,
    KONG,
    MELD_KINDS,
    PUNG,
    Meld,
)
from mjenv.tiles import tile_id

W1, W2, W3, W4, W8, W9 = (tile_id(c) for c in ("W1", "W2", "W3", "W4", "W8", "W9"))
T1, B5, F1, F2, F3, J1 = (tile_id(c) for c in ("T1", "B5", "F1", "F2", "F3", "J1"))
H1 = tile_id("H1")


def test_constructors() -> None:
    chow = Meld.chow("W1", claimed="W2")
    assert (chow.kind, chow.tiles, chow.claimed, chow.from_offset) == (CHOW, (W1, W2, W3), W2, 3)
    assert chow.first == W1 and not chow.is_kong and not chow.is_concealed
    assert Meld.chow(W1).claimed is None

    pung = Meld.pung("F1", 2)
    assert (pung.kind, pung.tiles, pung.claimed, pung.from_offset) == (PUNG, (F1,) * 3, F1, 2)
    assert not pung.is_kong

    for make, kind in ((Meld.kong, KONG), (Meld.added_kong, ADDED_KONG)):
        kong = make("B5", 1)
        assert (kong.kind, kong.tiles, kong.from_offset) == (kind, (B5,) * 4, 1)
        assert kong.is_kong and not kong.is_concealed

    hidden = Meld.concealed_kong("J1")
    assert (hidden.kind, hidden.tiles, hidden.claimed, hidden.from_offset) == (
        CONCEALED_KONG, (J1,) * 4, None, None)
    assert hidden.is_kong and hidden.is_concealed and hidden.first == J1


def test_tiles_are_sorted_ids_and_meld_is_frozen() -> None:
    meld = Meld(CHOW, ("W3", "W1", "W2"))
    assert meld.tiles == (W1, W2, W3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        meld.kind = PUNG  # type: ignore[misc]
    assert Meld(PUNG, (W1, W1, W1)) == Meld(PUNG, ("W1", "1m", "🀇"))


ALL_MELDS = [
    Meld.chow("T7", "T9"),
    Meld.chow("B1"),
    Meld.pung("J3", 3),
    Meld.pung("W5"),
    Meld.kong("F4", 2),
    Meld.added_kong("B9", 1),
    Meld.concealed_kong("W2"),
]


@pytest.mark.parametrize("meld", ALL_MELDS, ids=lambda m: m.describe())
def test_dict_round_trip(meld: Meld) -> None:
    data = meld.to_dict()
    assert set(data) == {"type", "tiles", "claimed", "from"}
    assert data["type"] in MELD_KINDS
    assert all(isinstance(t, str) for t in data["tiles"])
    assert Meld.from_dict(data) == meld


def test_from_dict_example() -> None:
    meld = Meld.from_dict({"type": "chow", "tiles": ["W3", "W2", "W1"], "claimed": "W2", "from": 3})
    assert meld == Meld.chow("W1", "W2")
    assert Meld.from_dict({"type": "pung", "tiles": ["F1"] * 3}) == Meld(PUNG, (F1,) * 3)


# ------------------------------------------------------------------ Meld(...) errors

@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("triple", (W1, W1, W1)), "unknown meld type 'triple'"),
        ((PUNG, (H1, H1, H1)), "flower cannot be part of a meld"),
        ((PUNG, ("X9", W1, W1)), "not a tile: 'X9'"),
        ((PUNG, (42, 42, 42)), "outside 0..41"),
        ((PUNG, (W1, W1)), "a pung has 3 tiles, got 2"),
        ((PUNG, (W1,) * 4), "a pung has 3 tiles, got 4"),
        ((CHOW, (W1, W2, W3, W4)), "a chow has 3 tiles, got 4"),
        ((KONG, (W1,) * 3), "a kong has 4 tiles, got 3"),
        ((ADDED_KONG, (W1,) * 5), "a added_kong has 4 tiles, got 5"),
        ((CONCEALED_KONG, (W1,) * 3), "a concealed_kong has 4 tiles, got 3"),
        ((CHOW, (W1, W2, W4)), "three consecutive tiles of one suit"),
        ((CHOW, (W1, W1, W2)), "three consecutive tiles of one suit"),
        ((CHOW, (W8, W9, T1)), "three consecutive tiles of one suit"),  # across suits
        ((CHOW, (F1, F2, F3)), "three consecutive tiles of one suit"),  # honours
        ((PUNG, (W1, W1, W2)), "a pung must be 3 identical tiles"),
        ((KONG, (W1, W1, W1, W2)), "a kong must be 4 identical tiles"),
        ((ADDED_KONG, (F1, F1, F1, F2)), "a added_kong must be 4 identical tiles"),
        ((CONCEALED_KONG, (J1, J1, J1, W1)), "a concealed_kong must be 4 identical tiles"),
        ((CHOW, (W1, W2, W3), W4), "claimed tile W4 is not in chow W1 W2 W3"),
        ((PUNG, (W1, W1, W1), "nope"), "not a tile: 'nope'"),
        ((CONCEALED_KONG, (W1,) * 4, W1), "a concealed kong has no claimed tile"),
        ((CONCEALED_KONG, (W1,) * 4, None, 1), "a concealed kong has no supplier"),
        ((PUNG, (W1,) * 3, W1, 0), "from must be 1, 2 or 3"),
        ((PUNG, (W1,) * 3, W1, 4), "from must be 1, 2 or 3"),
        ((KONG, (W1,) * 4, W1, -1), "from must be 1, 2 or 3"),
        ((CHOW, (W1, W2, W3), W1, 1), "a chow can only be claimed from the previous player"),
        ((CHOW, (W1, W2, W3), W1, 2), "a chow can only be claimed from the previous player"),
    ],
)
def test_meld_errors(args: tuple[Any, ...], message: str) -> None:
    with pytest.raises(ValueError) as info:
        Meld(*args)
    assert message in str(info.value)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: Meld.chow("W8"), "three consecutive tiles of one suit"),
        (lambda: Meld.chow("F1"), "three consecutive tiles of one suit"),
        (lambda: Meld.chow("W1", "W5"), "claimed tile W5 is not in"),
        (lambda: Meld.pung("H2"), "flower cannot be part of a meld"),
        (lambda: Meld.kong("W1", 5), "from must be 1, 2 or 3"),
        (lambda: Meld.added_kong("Q1"), "not a tile"),
        (lambda: Meld.concealed_kong(50), "outside 0..41"),
    ],
)
def test_constructor_errors(make: Any, message: str) -> None:
    with pytest.raises(ValueError) as info:
        make()
    assert message in str(info.value)


# ------------------------------------------------------------------ Meld.from_dict errors

GOOD = {"type": "pung", "tiles": ["W1", "W1", "W1"], "claimed": "W1", "from": 3}


def _with(**changes: Any) -> dict[str, Any]:
    data = dict(GOOD)
    data.update(changes)
    return data


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (["pung", ["W1", "W1", "W1"]], "a meld must be an object"),
        ("pung W1", "a meld must be an object"),
        (None, "a meld must be an object"),
        (_with(offer=1), "unknown meld field(s): offer"),
        (_with(kind="pung", extra=0), "unknown meld field(s): extra, kind"),
        ({"tiles": ["W1", "W1", "W1"]}, "meld type must be a string, got None"),
        (_with(type=1), "meld type must be a string"),
        (_with(type="peng"), "unknown meld type 'peng'"),
        ({"type": "pung"}, "meld tiles must be a list"),
        (_with(tiles="W1 W1 W1"), "meld tiles must be a list"),
        (_with(tiles=["W1", None, "W1"]), "meld tiles must be a list"),
        (_with(tiles=[["W1"], "W1", "W1"]), "meld tiles must be a list"),
        (_with(tiles=["W1", "W1", "Z9"]), "not a tile: 'Z9'"),
        (_with(tiles=["W1", "W1", "W2"]), "a pung must be 3 identical tiles"),
        (_with(tiles=["W1", "W1"]), "a pung has 3 tiles, got 2"),
        (_with(claimed="W2"), "claimed tile W2 is not in"),
        (_with(claimed="??"), "not a tile: '??'"),
        (_with(**{"from": "3"}), "from must be 1, 2, 3 or null"),
        (_with(**{"from": True}), "from must be 1, 2, 3 or null"),
        (_with(**{"from": 1.0}), "from must be 1, 2, 3 or null"),
        (_with(**{"from": 0}), "from must be 1, 2 or 3"),
        (_with(**{"from": 4}), "from must be 1, 2 or 3"),
        ({"type": "chow", "tiles": ["W1", "W2", "W3"], "from": 1}, "previous player"),
        ({"type": "concealed_kong", "tiles": ["W1"] * 4, "from": 2}, "has no supplier"),
        ({"type": "concealed_kong", "tiles": ["W1"] * 4, "claimed": "W1"}, "no claimed tile"),
        ({"type": "kong", "tiles": ["H1"] * 4}, "flower cannot be part of a meld"),
    ],
)
def test_from_dict_errors(data: Any, message: str) -> None:
    with pytest.raises(ValueError) as info:
        Meld.from_dict(data)
    assert message in str(info.value)

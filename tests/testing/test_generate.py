"""The random hand generator (``mjenv.testing``): physically valid, complete, deterministic,
every shape covered.

These tests use no oracle; ``tests/fans/test_differential.py`` checks the hands against
PyMahjongGB. Completeness and waits are judged by the brute-force reference in
``tests/fans/brute_force.py``, not by ``mjenv.decompose`` (which the generator itself uses).
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from mjenv.fans.table import FANS
from mjenv.melds import ADDED_KONG, CHOW, CONCEALED_KONG, KONG, KONG_KINDS, PUNG
from mjenv.testing import (
    FAN_NAMES,
    SHAPES,
    WinningHand,
    random_winning_hand,
    sample_hands,
    sample_non_winning,
    sample_tenpai,
    targeted_hand,
    validate_hand,
)
from mjenv.tiles import EAST, NUM_KINDS, parse_tiles
from tests.fans.brute_force import SHAPES as REFERENCE_SHAPES
from tests.fans.brute_force import complete_shapes, is_complete, waits

HANDS = sample_hands(123, 3000)


def _physical_errors(h: WinningHand) -> list[str]:
    """An independent restatement of the validity rules (not validate_hand)."""
    errs = []
    counts = Counter(h.hand) + Counter([h.win_tile])
    for m in h.melds:
        counts.update(m.tiles)
    errs += [f"{n} x {t}" for t, n in counts.items() if n > 4 or not 0 <= t < NUM_KINDS]
    if len(h.hand) != 13 - 3 * len(h.melds) or len(h.melds) > 4:
        errs.append("tile count")
    for m in h.melds:
        if m.kind == CHOW:
            a, b, c = m.tiles
            if not (a < EAST and a % 9 <= 6 and b == a + 1 and c == a + 2) or m.from_offset != 3:
                errs.append(f"bad chow {m}")
        elif m.kind == CONCEALED_KONG:
            if m.from_offset is not None:
                errs.append("concealed kong from someone")
        elif m.from_offset not in (1, 2, 3):
            errs.append(f"bad from {m}")
    has_kong = any(m.kind in KONG_KINDS for m in h.melds)
    holds = h.win_tile in h.hand
    melded = any(h.win_tile in m.tiles for m in h.melds)
    c = h.context
    if c.kong_win and c.self_drawn and not has_kong:
        errs.append("kong replacement without a kong")
    if c.kong_win and not c.self_drawn and (holds or melded or c.last_tile):
        errs.append("impossible robbing")
    if c.last_copy and holds:
        errs.append("last copy while holding the tile")
    if not (0 <= c.seat_wind <= 3 and 0 <= c.prevalent_wind <= 3 and 0 <= c.flowers <= 8):
        errs.append("wind / flowers out of range")
    return errs


def test_hands_are_physically_valid_and_complete() -> None:
    bad = [
        (h.describe(), _physical_errors(h) + validate_hand(h))
        for h in HANDS
        if _physical_errors(h) or validate_hand(h)
    ]
    assert not bad, bad[:10]
    incomplete = [
        h.describe() for h in HANDS if not is_complete([*h.hand, h.win_tile], len(h.melds))
    ]
    assert not incomplete, incomplete[:10]


def test_deterministic_for_a_seed() -> None:
    assert [h.key() for h in sample_hands(5, 300)] == [h.key() for h in sample_hands(5, 300)]
    assert [h.key() for h in sample_hands(5, 300)] != [h.key() for h in sample_hands(6, 300)]
    assert sample_non_winning(3, 50) == sample_non_winning(3, 50)
    assert sample_tenpai(3, 50) == sample_tenpai(3, 50)


def test_sample_is_distinct() -> None:
    assert len({h.key() for h in HANDS}) == len(HANDS)


def test_every_shape_meld_count_meld_kind_and_flag_occurs() -> None:
    shapes = Counter(h.shape for h in HANDS)
    assert set(shapes) == set(SHAPES)
    assert all(n >= 50 for n in shapes.values()), shapes
    built = Counter(s for h in HANDS for s in complete_shapes([*h.hand, h.win_tile], len(h.melds)))
    assert set(built) == set(SHAPES)
    melds = Counter(len(h.melds) for h in HANDS)
    assert all(melds[k] >= 100 for k in range(5)), melds
    kinds = Counter(m.kind for h in HANDS for m in h.melds)
    assert all(kinds[k] >= 50 for k in (CHOW, PUNG, KONG, ADDED_KONG, CONCEALED_KONG)), kinds
    froms = Counter(m.from_offset for h in HANDS for m in h.melds if m.kind in (PUNG, KONG))
    assert set(froms) == {1, 2, 3}
    knitted_melds = Counter(len(h.melds) for h in HANDS if h.shape == "knitted_straight")
    assert set(knitted_melds) == {0, 1}
    flags = Counter(
        k
        for h in HANDS
        for k in ("self_drawn", "last_copy", "last_tile", "kong_win")
        if getattr(h.context, k)
    )
    assert all(flags[k] >= 30 for k in ("self_drawn", "last_copy", "last_tile", "kong_win")), flags
    assert any(h.context.kong_win and h.context.self_drawn for h in HANDS)
    assert any(h.context.kong_win and not h.context.self_drawn for h in HANDS)
    assert any(h.context.kong_win and h.context.self_drawn and h.context.last_tile for h in HANDS)
    assert {h.context.seat_wind for h in HANDS} == {0, 1, 2, 3}
    assert {h.context.prevalent_wind for h in HANDS} == {0, 1, 2, 3}
    assert {h.context.flowers for h in HANDS} == set(range(9))


@pytest.mark.parametrize("shape", SHAPES)
def test_random_hand_of_each_shape(shape: str) -> None:
    rng = np.random.default_rng(11)
    for _ in range(100):
        h = random_winning_hand(rng, shape)
        assert not validate_hand(h), h.describe()
        assert shape in complete_shapes([*h.hand, h.win_tile], len(h.melds)), h.describe()


def test_unknown_shape_and_fan_are_errors() -> None:
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="shape"):
        random_winning_hand(rng, "nine_pairs")
    with pytest.raises(ValueError, match="fan"):
        targeted_hand(rng, "天和")
    for bad in (0, 83, "Heavenly Hand"):
        with pytest.raises(ValueError, match="fan"):
            targeted_hand(rng, bad)


def test_fan_names_follow_the_table() -> None:
    assert tuple(fan.zh for fan in FANS) == FAN_NAMES
    assert len(FAN_NAMES) == 82 == len(set(FAN_NAMES))
    assert SHAPES == REFERENCE_SHAPES


def test_targeted_hands_for_every_entry() -> None:
    rng = np.random.default_rng(99)
    for fan in FAN_NAMES:
        for _ in range(5):
            h = targeted_hand(rng, fan)
            assert h.target == fan
            assert not validate_hand(h), (fan, h.describe())
            assert is_complete([*h.hand, h.win_tile], len(h.melds)), (fan, h.describe())


def test_sample_mixes_in_targeted_hands_round_robin() -> None:
    targets = Counter(h.target for h in HANDS if h.target)
    assert set(targets) == set(FAN_NAMES)
    assert 0.25 < sum(targets.values()) / len(HANDS) < 0.35


def test_json_round_trip() -> None:
    for h in HANDS[:300]:
        back = WinningHand.from_json(h.to_json())
        assert back.key() == h.key()
        d = h.to_dict()
        assert set(d) == {
            "hand", "melds", "win_tile", "flowers", "self_drawn", "last_copy", "last_tile",
            "kong_win", "seat_wind", "prevalent_wind",
        }  # fmt: skip
        assert h.flags() == {k: d[k] for k in h.flags()}


def test_non_winning_hands_do_not_complete() -> None:
    for h in sample_non_winning(4, 300):
        assert not validate_hand(h), h.describe()
        assert not is_complete([*h.hand, h.win_tile], len(h.melds)), h.describe()


def test_tenpai_sample() -> None:
    sample = sample_tenpai(4, 400)
    ready = [w for hand, melds in sample if (w := waits(hand, len(melds)))]
    assert 150 < len(ready) < 400
    for hand, melds in sample:
        assert len(hand) == 13 - 3 * len(melds)
        counts = Counter(hand)
        for m in melds:
            counts.update(m.tiles)
        assert max(counts.values()) <= 4


def test_shape_checks_on_known_hands() -> None:
    def shapes(text: str, melds: int = 0) -> list[str]:
        return complete_shapes(parse_tiles(text), melds)

    assert shapes("11122233344455m") == ["regular"]
    assert shapes("11223344556677m") == ["regular", "seven_pairs"]
    assert shapes("19m19s19p12345677z") == ["thirteen_orphans"]
    assert shapes("147m258s3p1234567z") == ["honors_knitted"]
    assert shapes("147m258s369p234m99p") == ["knitted_straight"]
    assert shapes("147m258s369p99p", 1) == ["knitted_straight"]
    assert shapes("11122233344457m") == []
    # a ready hand's waits include a "fifth copy" (rules A25, E77: W1111 W234 waits W1 and W4)
    assert waits(parse_tiles("1111234m123567p"), 0) == parse_tiles("14m")
    assert waits(parse_tiles("1112345678999m"), 0) == parse_tiles("123456789m")
    assert waits(parse_tiles("147m258s36p11357z"), 0) == []
    assert waits(parse_tiles("147m258s36p13567z"), 0) == parse_tiles("9p24z")
    assert waits(parse_tiles("2m"), 4) == parse_tiles("2m")

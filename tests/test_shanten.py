"""mjenv.shanten: hand-checked cases for every shape, properties on random hands, input checks.

The agreement with PyMahjongGB is tests/test_shanten_oracle.py; here the shanten numbers are
checked against what they mean: a tile changes the shanten by at most one, -1 is exactly a
complete hand (as win detection and the fan calculator see it), a 14-tile hand is as good as
its best discard, and the useful tiles are exactly the kinds that lower the shanten.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mjenv import shanten as S
from mjenv.decompose import is_complete
from mjenv.fans import NotWinError, calculate
from mjenv.melds import Meld
from mjenv.shanten import (
    HONORS_KNITTED,
    KNITTED_STRAIGHT,
    REGULAR,
    SEVEN_PAIRS,
    SHAPES,
    THIRTEEN_ORPHANS,
    analyze,
    shanten,
    shanten_counts,
    useful_tiles,
)
from mjenv.testing import random_winning_hand, sample_hands, sample_non_winning
from mjenv.tiles import NUM_KINDS, parse_tiles, to_counts

SEED = 20261130


def ids(text: str) -> tuple[int, ...]:
    return tuple(parse_tiles(text))


# --------------------------------------------------------------------------- hand-checked


@pytest.mark.parametrize(
    ("hand", "melds", "shape", "expected", "useful"),
    [
        # regular: four sets and two pairs waiting (对倒)
        ("123m456s789p1122z", (), REGULAR, 0, "12z"),
        # nine gates: every rank of the suit
        ("1112345678999m", (), REGULAR, 0, "123456789m"),
        # one set and scattered tiles: 8 - 2 - min(partial sets, 3) - pair
        ("123m147s258p1357z", (), REGULAR, 6, None),
        # melds count as sets: 3 melds + 4 standing tiles 3455m: pair 55 + partial 34
        ("3455m", ("chow 123p", "pung 9s", "pung 1z"), REGULAR, 0, "25m"),
        # 4 melds: one standing tile waits for its pair
        ("7z", ("chow 123p", "pung 9s", "pung 1z", "kong 2z"), REGULAR, 0, "7z"),
        # seven pairs: six pairs and a single
        ("1122m3344s5566p7z", (), SEVEN_PAIRS, 0, "7z"),
        # four of a kind are two pairs; the three of a kind waits for its fourth copy
        ("1111m2233s444p56z", (), SEVEN_PAIRS, 1, "4p56z"),
        # thirteen orphans: 13 kinds, any of them completes
        ("19m19s19p1234567z", (), THIRTEEN_ORPHANS, 0, "19m19s19p1234567z"),
        # 12 kinds and a pair: only the missing one
        ("19m19s19p1234566z", (), THIRTEEN_ORPHANS, 0, "7z"),
        # no pair yet: held orphans help too
        ("19m19s1p12345z258m", (), THIRTEEN_ORPHANS, 3, "19m19s19p1234567z"),
        # honours and knitted: 9 knitted + 4 honours = 13: any missing honour
        ("147m258s369p1234z", (), HONORS_KNITTED, 0, "567z"),
        # knitted straight + two pairs: either pair becomes the set
        ("147m258s369p1155z", (), KNITTED_STRAIGHT, 0, "15z"),
        # knitted straight with one meld: the pair is missing
        ("147m258s369p1z", ("chow 123m",), KNITTED_STRAIGHT, 0, "1z"),
        # knitted straight missing 9p, the rest a set and two singles (no pair yet)
        ("147m258s36p55567z", (), KNITTED_STRAIGHT, 1, "9p67z"),
    ],
)
def test_hand_checked(hand: str, melds: tuple[str, ...], shape: str, expected: int,
                      useful: str | None) -> None:
    meld_objs = [_meld(m) for m in melds]
    result = analyze(hand, meld_objs)
    entry = result.shape(shape)
    assert entry is not None
    assert entry.shanten == expected
    if useful is not None:
        assert entry.useful == tuple(sorted(parse_tiles(useful)))


def _meld(text: str) -> Meld:
    kind, tiles = text.split()
    t = parse_tiles(tiles)
    if kind == "chow":
        return Meld.chow(t[0])
    return {"pung": Meld.pung, "kong": Meld.kong}[kind](t[0], 1)


def test_special_shapes_need_a_concealed_hand() -> None:
    one = analyze("147m258s369p1z", [Meld.chow(0)])
    assert [e.shape for e in one.shapes] == [REGULAR, KNITTED_STRAIGHT]
    two = analyze("1234m", [Meld.chow(0), Meld.pung(27, 1), Meld.pung(28, 1)])
    assert [e.shape for e in two.shapes] == [REGULAR]
    assert S.seven_pairs_shanten("1234m", [Meld.chow(0)] * 3) is None
    assert S.knitted_straight_shanten("1234m", [Meld.chow(0)] * 3) is None
    full = analyze("1122m3344s5566p7z")
    assert [e.shape for e in full.shapes] == list(SHAPES)


def test_overall_is_the_best_shape() -> None:
    result = analyze("1122m3344s5566p7z")
    assert result.shanten == 0 == shanten("1122m3344s5566p7z")
    assert result.shape(REGULAR).shanten == 3  # type: ignore[union-attr]
    assert result.useful == (31,)  # only seven pairs is ready: 7z (中, J1)


def test_fourteen_tiles() -> None:
    assert shanten("11123456789999m") == -1
    assert analyze("11123456789999m").discard_first
    assert analyze("11123456789999m").useful == ()
    assert shanten("123m456s789p11225z") == 0  # discard 5z and wait on 1z / 2z
    assert shanten("19m19s19p12345677z") == -1  # thirteen orphans
    assert shanten("147m258s369p12345z") == -1  # honours and knitted
    assert S.seven_pairs_shanten("1122m3344s5566p77z") == -1
    with pytest.raises(ValueError, match="discard first"):
        useful_tiles("11123456789999m")


def test_fifth_copy_useful_but_not_drawable() -> None:
    # 1111m = pung + single: a fifth 1m would make the pair (never drawable)
    result = analyze("1111m", [Meld.chow(9), Meld.chow(18), Meld.pung(27, 1)])
    assert result.shanten == 0
    assert result.useful == (0,) and result.drawable == () and result.unseen == ()
    # not ready: PyMahjongGB would leave 1m out; it lowers the shanten, so it is useful
    result = analyze("1111m2589s3679p1z")
    assert 0 in result.shape(REGULAR).useful  # type: ignore[union-attr]
    assert 0 not in result.drawable


def test_unseen_counts() -> None:
    hand = "123m456s789p1122z"
    plain = analyze(hand)
    assert plain.drawable == (27, 28) and plain.unseen == (2, 2) and plain.unseen_total == 4
    seen = analyze(hand, seen="1z 3z")
    assert seen.unseen == (1, 2) and seen.unseen_of(27) == 1 and seen.unseen_of(0) == 0
    counts = [0] * NUM_KINDS
    counts[28] = 2
    assert analyze(hand, seen_counts=counts).unseen == (2, 0)
    # melds are the player's own: they lower the unseen count without being "seen"
    with_meld = analyze("23m456s789p11z", [Meld.pung(0, 1)])
    assert with_meld.drawable == (0, 3)
    assert with_meld.unseen == (1, 4)


# --------------------------------------------------------------------------- input checks


@pytest.mark.parametrize(
    ("hand", "melds", "kwargs", "message"),
    [
        ("123m456s789p112z", (), {}, "13 standing tiles"),
        ("123m456s789p1122zX", (), {}, "not a tile"),
        ("W1 W2 W3 T4 T5 T6 B7 B8 B9 F1 F1 F2 H1", (), {}, "flower"),
        (["W1", "W2", "W3", "T4", "T5", "T6", "B7", "B8", "B9", "F1", "F1", "F2", 34], (), {},
         "flower"),
        (["W1"] * 5 + list("12345678"), (), {}, "not a tile"),
        ("11111m456s789p12z", (), {}, "more than 4 copies"),
        ("111m456s789p1122z", [Meld.pung(0, 1)], {}, "10 standing tiles"),
        ("1m", [Meld.chow(9)] * 5, {}, "at most 4 melds"),
        ("11m", [Meld.pung(0, 1), Meld.chow(9), Meld.chow(12), Meld.chow(15)], {},
         "more than 4 copies"),
        ("123m456s789p1122z", (), {"seen": "1z 1z 1z"}, "more than 4 copies"),
        ("123m456s789p1122z", (), {"seen": "1z", "seen_counts": [0] * 34}, "not both"),
        ("123m456s789p1122z", (), {"seen_counts": [0] * 33}, "34 counts"),
        ("123m456s789p1122z", (), {"seen_counts": [True] + [0] * 33}, "must be 0..4"),
        (12, (), {}, "expected tiles"),
        ("123m456s789p1122z", "chow", {}, "sequence of melds"),
        ("123m456s789p1122z", [{"type": "pong"}], {}, "meld"),
        ([True] * 13, (), {}, "not a tile"),
    ],
)
def test_bad_input_is_a_value_error(hand: object, melds: object, kwargs: dict[str, object],
                                    message: str) -> None:
    with pytest.raises(ValueError, match=message):
        analyze(hand, melds, **kwargs)  # type: ignore[arg-type]
    if not kwargs:
        with pytest.raises(ValueError, match=message):
            shanten(hand, melds)


def test_any_tile_notation() -> None:
    codes = ["W1", "W2", "W3", "T4", "T5", "T6", "B7", "B8", "B9", "F1", "F1", "F2", "F2"]
    assert shanten(codes) == shanten(ids("123m456s789p1122z")) == shanten("🀇🀈🀉🀓🀔🀕🀟🀠🀡🀀🀀🀁🀁")
    assert shanten(tuple(ids("123m456s789p1122z"))) == 0
    meld = {"type": "pung", "tiles": ["F3"] * 3, "claimed": "F3", "from": 1}
    assert shanten("456s789p1122z", [meld]) == 0


# --------------------------------------------------------------------------- properties


def _random_hand(rng: random.Random, size: int, own: list[int]) -> list[int]:
    hand = []
    while len(hand) < size:
        t = rng.randrange(NUM_KINDS)
        if own[t] < 4:
            own[t] += 1
            hand.append(t)
    return hand


def _hands(seed: int, n: int) -> list[tuple[list[int], list[Meld], list[int]]]:
    """13-form hands (standing, melds, own counts): a complete hand less its winning tile with
    0-3 tiles swapped (all shapes, low shanten), or random tiles around the same melds."""
    rng = random.Random(seed)
    np_rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        w = random_winning_hand(np_rng)
        melds = list(w.melds)
        own = to_counts([t for m in melds for t in m.tiles])
        if rng.random() < 0.6:
            hand = list(w.hand)
            for t in hand:
                own[t] += 1
            for _ in range(rng.randrange(4)):
                i = rng.randrange(len(hand))
                own[hand[i]] -= 1
                hand[i] = _random_hand(rng, 1, own)[0]
        else:
            hand = _random_hand(rng, 13 - 3 * len(melds), own)
        out.append((hand, melds, own))
    return out


HANDS = _hands(SEED, 400)


def test_a_tile_changes_shanten_by_at_most_one() -> None:
    for hand, melds, own in HANDS:
        s = shanten(hand, melds)
        assert 0 <= s <= 8 - 2 * len(melds)
        for t in range(NUM_KINDS):
            if own[t] < 4:
                s14 = shanten([*hand, t], melds)
                assert s14 in (s - 1, s), (hand, melds, t)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, NUM_KINDS - 1), min_size=14, max_size=14))
def test_removing_a_tile_changes_shanten_by_at_most_one(tiles: list[int]) -> None:
    counts = to_counts(tiles)
    if max(counts) > 4:
        return
    s14 = shanten(tiles)
    after = []
    for t in set(tiles):
        rest = list(tiles)
        rest.remove(t)
        s13 = shanten(rest)
        assert s13 in (s14, s14 + 1)
        after.append(s13)
    # a 14-tile hand is as good as its best discard (or complete)
    assert s14 == (-1 if is_complete(tiles) else min(after))


def test_useful_tiles_are_exactly_those_that_lower_shanten() -> None:
    """Per shape and overall; a fifth copy is tried on the counts (no input checks there)."""
    per_shape = {
        REGULAR: S.regular_shanten_counts,
        SEVEN_PAIRS: lambda c, k: S.seven_pairs_shanten_counts(c),
        THIRTEEN_ORPHANS: lambda c, k: S.thirteen_orphans_shanten_counts(c),
        HONORS_KNITTED: lambda c, k: S.honors_knitted_shanten_counts(c),
        KNITTED_STRAIGHT: S.knitted_straight_shanten_counts,
    }
    for hand, melds, own in HANDS[:250]:
        result = analyze(hand, melds)
        counts = to_counts(hand)
        k = len(melds)
        lowering = set()
        for t in range(NUM_KINDS):
            counts[t] += 1
            if shanten_counts(counts, k) < result.shanten:
                lowering.add(t)
            for entry in result.shapes:
                lowers = per_shape[entry.shape](counts, k) < entry.shanten
                assert lowers == (t in entry.useful), (entry.shape, hand, melds, t)
            counts[t] -= 1
        assert set(result.useful) == lowering
        assert result.drawable == tuple(t for t in result.useful if own[t] < 4)
        assert result.unseen == tuple(4 - own[t] for t in result.drawable)
        assert result.shanten == min(e.shanten for e in result.shapes) == shanten(hand, melds)


def test_minus_one_exactly_when_complete() -> None:
    """-1 for every winning hand of every shape; for the near misses, never -1 — as win
    detection and the fan calculator say."""
    for h in sample_hands(SEED, 400):
        assert shanten([*h.hand, h.win_tile], h.melds) == -1, h.describe()
    misses = sample_non_winning(SEED, 400)
    for h in misses:
        tiles = [*h.hand, h.win_tile]
        s = shanten(tiles, h.melds)
        assert (s == -1) == is_complete(tiles, h.melds)
        try:
            calculate(*h.args(), **h.kwargs())
            scored = True
        except NotWinError:
            scored = False
        assert (s == -1) == scored, h.describe()
        assert s >= 0


def test_tables_can_be_cleared_without_changing_results() -> None:
    before = [shanten(hand, melds) for hand, melds, _ in HANDS[:50]]
    S.clear_tables()
    at_import = S.table_sizes()  # groups of up to 5 tiles are tabled at import
    assert at_import["suits"] == 1993 and at_import["honors"] == 785
    assert at_import["products"] == 0
    assert [shanten(hand, melds) for hand, melds, _ in HANDS[:50]] == before
    assert S.table_sizes()["suits"] > at_import["suits"]
    S.clear_tables()
    assert S.table_sizes() == at_import

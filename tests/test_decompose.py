"""Win detection and waiting tiles (mjenv.decompose) against the brute-force reference.

``tests/fans/brute_force.py`` restates every shape of rules §2.1 by plain recursion and finds
waits by trying all 34 kinds; it shares no code with ``mjenv.decompose``. The hands come from
``mjenv.testing`` (complete hands of every shape with 0-4 melds), from those hands with
one tile swapped (near misses), and from random tiles, dense ones included (few kinds, so that
many of them are complete).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import cache

import numpy as np
import pytest

from mjenv.decompose import (
    HONORS,
    KNITTED_PATTERNS,
    ORPHANS,
    honor_group_info,
    is_complete,
    is_complete_counts,
    regular_waits,
    suit_group_info,
    suit_readings,
    waiting_counts,
    waiting_tiles,
)
from mjenv.melds import Meld
from mjenv.testing import SHAPES, random_winning_hand, sample_hands, sample_tenpai
from mjenv.tiles import EAST, NUM_KINDS, parse_tiles, to_counts

from .fans import brute_force as bf

SEED = 20240611


def _melds(n: int) -> tuple[Meld, ...]:
    """``n`` melds; decompose only counts them (their tiles never enter the shape check)."""
    return tuple(Meld.pung(EAST + i, 1) for i in range(n))


def _random_tiles(
    rng: np.random.Generator, n: int, kinds: Sequence[int], cap: int = 4
) -> list[int]:
    counts = [0] * NUM_KINDS
    out: list[int] = []
    while len(out) < n:
        t = int(kinds[int(rng.integers(len(kinds)))])
        if counts[t] < cap:
            counts[t] += 1
            out.append(t)
    return sorted(out)


def _pools(rng: np.random.Generator) -> list[int]:
    """A random tile pool: everything, one suit, a narrow band, honours, terminals..."""
    u = rng.random()
    suit = int(rng.integers(3))
    if u < 0.2:
        return list(range(NUM_KINDS))
    if u < 0.5:
        return list(range(9 * suit, 9 * suit + 9))
    if u < 0.7:
        low = int(rng.integers(0, 5))
        return list(range(9 * suit + low, 9 * suit + low + 5))
    if u < 0.8:
        return [*range(9 * suit, 9 * suit + 9), *HONORS]
    if u < 0.9:
        return list(ORPHANS)
    return [int(t) for t in rng.choice(NUM_KINDS, size=7, replace=False)]


# ---------------------------------------------------------------- is_complete


WINNING = sample_hands(SEED, 400)


def _check_complete(concealed: Sequence[int], n_melds: int) -> None:
    expected = bf.is_complete(concealed, n_melds)
    melds = _melds(n_melds)
    assert is_complete(list(concealed), melds) is expected, (sorted(concealed), n_melds)
    assert is_complete_counts(to_counts(concealed), n_melds) is expected


def test_generated_winning_hands_are_complete() -> None:
    for h in WINNING:
        concealed = [*h.hand, h.win_tile]
        assert bf.is_complete(concealed, len(h.melds))
        assert is_complete(concealed, h.melds), h.describe()


def test_is_complete_on_near_misses() -> None:
    """A generated winning hand with one tile swapped for another kind."""
    rng = np.random.default_rng(SEED)
    n_complete = 0
    for h in WINNING:
        concealed = [*h.hand, h.win_tile]
        for _ in range(4):
            i = int(rng.integers(len(concealed)))
            swapped = list(concealed)
            swapped[i] = int(rng.integers(NUM_KINDS))
            n_complete += bf.is_complete(swapped, len(h.melds))
            _check_complete(swapped, len(h.melds))
    assert n_complete > 60  # swapping for the same kind, or for another that also fits


@pytest.mark.parametrize("n_melds", range(5))
def test_is_complete_on_random_hands(n_melds: int) -> None:
    rng = np.random.default_rng(SEED + n_melds)
    n_complete = 0
    for _ in range(1000):
        concealed = _random_tiles(rng, 14 - 3 * n_melds, _pools(rng))
        n_complete += bf.is_complete(concealed, n_melds)
        _check_complete(concealed, n_melds)
    assert n_complete > 30


def test_is_complete_with_a_wrong_tile_count_is_false() -> None:
    assert is_complete(parse_tiles("11122233344455m"), ())
    assert not is_complete(parse_tiles("111222333444555m"), ())  # 15 tiles
    assert not is_complete(parse_tiles("1112223334445m"), ())  # 13 tiles
    assert not is_complete(parse_tiles("11122233344455m"), _melds(1))
    assert is_complete(parse_tiles("11m"), _melds(4))


@pytest.mark.parametrize("shape", SHAPES)
def test_every_shape_from_the_generator(shape: str) -> None:
    rng = np.random.default_rng(SEED)
    melds_seen = set()
    for _ in range(60):
        h = random_winning_hand(rng, shape)
        concealed = [*h.hand, h.win_tile]
        assert shape in bf.complete_shapes(concealed, len(h.melds)), h.describe()
        assert is_complete(concealed, h.melds), h.describe()
        melds_seen.add(len(h.melds))
    if shape == "knitted_straight":
        assert melds_seen == {0, 1}


@pytest.mark.parametrize(
    ("tiles", "n_melds", "shapes"),
    [
        ("11122233344455m", 0, ["regular"]),
        ("11223344556677m", 0, ["regular", "seven_pairs"]),
        ("1122m3344p5566s77z", 0, ["seven_pairs"]),
        ("11223344m1111p55s", 0, ["seven_pairs"]),  # four of a kind count as two pairs
        ("19m19s19p12345677z", 0, ["thirteen_orphans"]),
        ("147m258s3p1234567z", 0, ["honors_knitted"]),
        ("147m258s369p12345z", 0, ["honors_knitted"]),  # the full straight + 5 honours
        ("14m25s36p1234567z", 0, []),  # 13 tiles
        ("147m258s369p234m99p", 0, ["knitted_straight"]),
        ("147m258s369p111z22z", 0, ["knitted_straight"]),
        ("147m258s369p99p", 1, ["knitted_straight"]),
        ("147m258s369p19p", 1, []),
        ("147m258s369p99p", 2, []),  # 11 tiles with two melds
        ("123m456s789p11z", 1, ["regular"]),
        ("11122233344457m", 0, []),
        ("1357m2468s1357p77z", 0, []),
        ("123m", 3, []),
        ("55z", 4, ["regular"]),
    ],
)
def test_hand_checked_shapes(tiles: str, n_melds: int, shapes: list[str]) -> None:
    hand = parse_tiles(tiles)
    assert bf.complete_shapes(hand, n_melds) == shapes
    assert is_complete(hand, _melds(n_melds)) is bool(shapes)


def test_knitted_patterns() -> None:
    expected = {tuple(sorted(bf.knitted_tiles(p))) for p in bf.KNIT_PERMS}
    assert set(KNITTED_PATTERNS) == expected and len(KNITTED_PATTERNS) == 6
    assert set(ORPHANS) == set(bf.ORPHANS)
    assert tuple(range(EAST, NUM_KINDS)) == HONORS


# ---------------------------------------------------------------- waiting tiles


def _check_waits(hand: Sequence[int], n_melds: int) -> list[int]:
    expected = bf.waits(hand, n_melds)
    assert waiting_tiles(list(hand), _melds(n_melds)) == expected, (sorted(hand), n_melds)
    assert waiting_counts(to_counts(hand), n_melds) == expected
    return expected


def test_waits_of_ready_and_random_hands_with_melds() -> None:
    ready = 0
    for hand, melds in sample_tenpai(SEED, 300):
        assert waiting_tiles(hand, melds) == bf.waits(hand, len(melds))
        ready += bool(bf.waits(hand, len(melds)))
    assert ready > 100


def test_waits_of_every_shape_less_one_tile() -> None:
    rng = np.random.default_rng(SEED)
    for shape in SHAPES:
        for _ in range(25):
            h = random_winning_hand(rng, shape)
            concealed = [*h.hand, h.win_tile]
            i = int(rng.integers(len(concealed)))
            less = concealed[:i] + concealed[i + 1 :]
            assert concealed[i] in _check_waits(less, len(h.melds)), h.describe()


@pytest.mark.parametrize("n_melds", range(5))
def test_waits_of_near_ready_and_dense_hands(n_melds: int) -> None:
    rng = np.random.default_rng(SEED + 10 + n_melds)
    ready = 0
    for _ in range(250 - 40 * n_melds):
        hand = _random_tiles(rng, 13 - 3 * n_melds, _pools(rng))
        ready += bool(_check_waits(hand, n_melds))
    assert ready > 10
    for h in WINNING[:200]:
        if len(h.melds) != n_melds:
            continue
        swapped = list(h.hand)
        swapped[int(rng.integers(len(swapped)))] = int(rng.integers(NUM_KINDS))
        _check_waits(swapped, n_melds)


@pytest.mark.parametrize(
    ("tiles", "n_melds", "waits"),
    [
        # a "fifth copy" counts (PyMahjongGB; rules A25, E77): W1111 W234 waits on W1 and W4
        ("1111234m123567p", 0, "14m"),
        ("1111m", 3, "1m"),  # only on a fifth copy
        ("1112345678999m", 0, "123456789m"),  # nine gates
        ("19m19s19p1234567z", 0, "19m19s19p1234567z"),  # thirteen-sided
        ("19m19s19p1234566z", 0, "7z"),
        ("147m258s36p11357z", 0, ""),
        ("147m258s36p13567z", 0, "9p24z"),  # honours-and-knitted
        ("147m258s369p1234z", 0, "567z"),
        ("147m258s369p9p", 1, "9p"),  # knitted straight + meld, single wait
        ("147m258s369p23m99p", 0, "14m"),  # knitted straight + chow wait
        ("1133557799m113p", 0, "3p"),  # seven pairs
        ("2m", 4, "2m"),
        ("1357m2468s1357p7z", 0, ""),
    ],
)
def test_hand_checked_waits(tiles: str, n_melds: int, waits: str) -> None:
    expected = sorted(parse_tiles(waits)) if waits else []
    assert _check_waits(parse_tiles(tiles), n_melds) == expected


def test_group_infos_say_which_special_shapes_can_be_near() -> None:
    """waiting_counts skips the special shapes on what the groups' infos say: odd counts,
    the largest count, simples held and kinds held by rank class. Each restated plainly."""
    rng = np.random.default_rng(SEED + 20)
    for _ in range(3000):
        key = tuple(int(c) for c in rng.integers(0, 5, 9) * (rng.random(9) < 0.4))
        info = suit_group_info(key)
        assert info.odd == sum(1 for c in key if c % 2 == 1)
        assert info.most == max(key)
        assert info.simples == any(key[r] for r in range(1, 8))  # ranks 2..8
        assert info.classes == tuple(sum(1 for r in range(k, 9, 3) if key[r]) for k in range(3))
        honors = key[:7]
        h = honor_group_info(honors)
        assert (h.odd, h.most, h.simples, h.classes) == (
            sum(1 for c in honors if c % 2 == 1), max(honors), False, (0, 0, 0))


def test_waiting_tiles_needs_13_minus_3_per_meld_tiles() -> None:
    with pytest.raises(ValueError, match="13 standing tiles, got 14"):
        waiting_tiles(parse_tiles("11122233344455m"))
    with pytest.raises(ValueError, match="10 standing tiles, got 13"):
        waiting_tiles(parse_tiles("1112223334445m"), _melds(1))
    with pytest.raises(ValueError):
        waiting_tiles([], _melds(4))
    assert waiting_tiles(parse_tiles("1m"), _melds(4)) == parse_tiles("1m")


# ---------------------------------------------------------------- one suit


def _key(ranks: str) -> tuple[int, ...]:
    counts = [0] * 9
    for ch in ranks:
        counts[int(ch) - 1] += 1
    return tuple(counts)


def _readings(ranks: str) -> set[tuple[tuple[int, ...], tuple[int, ...], int]]:
    return set(suit_readings(_key(ranks)))


def test_suit_readings_hand_checked() -> None:
    """(chow first ranks, pung ranks, pair rank), ranks from 0."""
    # 111222333: three pungs, or three chows 123
    assert _readings("111222333") == {((0, 0, 0), (), -1), ((), (0, 1, 2), -1)}
    # 11122233344: the two readings above + pair 44, or pair 11 + 123 234 234
    assert _readings("11122233344") == {
        ((0, 0, 0), (), 3),
        ((), (0, 1, 2), 3),
        ((0, 1, 1), (), 0),
    }
    # 11123: pair 11 + chow 123 (111 + 23 is no reading)
    assert _readings("11123") == {((0,), (), 0)}
    # nine gates completed by 5: only 111 234 55 678 999
    assert _readings("11123455678999") == {((1, 5), (0, 8), 4)}
    # 22333444: 22 + 333 + 444 only (234 234 leaves 3 4)
    assert _readings("22333444") == {((), (2, 3), 1)}
    assert _readings("111123") == {((0,), (0,), -1)}
    assert _readings("23455") == {((1,), (), 4)}
    # 1111: no reading (a kong is a meld, never a concealed set); sizes 3k+1 have none
    assert _readings("1111") == set()
    assert _readings("1") == set() == _readings("1112")
    assert _readings("") == {((), (), -1)}


@cache
def _all_readings() -> dict[tuple[int, ...], set[tuple[tuple[int, ...], tuple[int, ...], int]]]:
    """Every reading of every suit of at most 4 sets and a pair, by enumeration."""
    sets = [("c", r) for r in range(7)] + [("p", r) for r in range(9)]
    found: dict[tuple[int, ...], set[tuple[tuple[int, ...], tuple[int, ...], int]]] = {}
    for n in range(5):
        for combo in itertools.combinations_with_replacement(sets, n):
            base = [0] * 9
            for kind, r in combo:
                if kind == "c":
                    base[r] += 1
                    base[r + 1] += 1
                    base[r + 2] += 1
                else:
                    base[r] += 3
            chows = tuple(r for kind, r in combo if kind == "c")
            pungs = tuple(r for kind, r in combo if kind == "p")
            for pair in range(-1, 9):
                counts = list(base)
                if pair >= 0:
                    counts[pair] += 2
                if max(counts) > 4:
                    continue
                found.setdefault(tuple(counts), set()).add((chows, pungs, pair))
    return found


def test_suit_readings_list_every_split() -> None:
    """All suits of up to 4 sets and a pair (counts <= 4): the readings are exactly the
    enumerated ones, and suits that are no complete shape (size 3k+1, or unreadable) have none."""
    expected = _all_readings()
    for key, readings in expected.items():
        assert set(suit_readings(key)) == readings, key
    rng = np.random.default_rng(SEED)
    for _ in range(3000):
        key = tuple(int(x) for x in rng.integers(0, 5, size=9) * (rng.random(9) < 0.4))
        if sum(key) <= 14 and key not in expected:
            assert suit_readings(key) == (), key


# ---------------------------------------------------------------- regular waits


@pytest.mark.parametrize(
    ("tiles", "waits"),
    [
        ("1112345678999m", "123456789m"),  # nine gates
        ("2345678m111p999s", "258m"),
        ("11m22p123456789s", "1m2p"),  # two pairs
        ("13m55p123456789s", "2m"),  # closed
        ("12m55p123456789s", "3m"),  # edge
        ("1113m", "23m"),
        ("1z", "1z"),
        ("1122z", "12z"),
        ("1111234m123567p", "14m"),  # a fifth copy counts
        ("1357m2468s1357p7z", ""),
        ("11112222333344m", ""),  # 14 tiles: not 3k+1
    ],
)
def test_regular_waits(tiles: str, waits: str) -> None:
    counts = to_counts(parse_tiles(tiles))
    expected = sorted(parse_tiles(waits)) if waits else []
    assert regular_waits(counts) == expected
    if sum(counts) % 3 == 1:
        n_melds = (13 - sum(counts)) // 3
        hand = parse_tiles(tiles)
        regular = [
            t for t in range(NUM_KINDS) if "regular" in bf.complete_shapes([*hand, t], n_melds)
        ]
        assert regular == expected


def test_suit_readings_list_each_split_once() -> None:
    """A pair and a chow at the same rank can be taken in either order (11123: chow then
    pair, or pair then chow); the reading is listed once, so the calculator scores it once."""
    repeated = [key for key in _all_readings() if len(set(r := suit_readings(key))) != len(r)]
    assert not repeated, (len(repeated), repeated[:5])

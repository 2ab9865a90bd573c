"""mjenv.tiles: ids, the three notations both ways, malformed input, predicates."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mjenv import tiles as T
from mjenv.tiles import (
    CODES,
    GLYPHS,
    NUM_KINDS,
    NUM_TILE_IDS,
    format_tiles,
    glyph,
    is_dragon,
    is_flower,
    is_honor,
    is_suited,
    is_terminal,
    is_terminal_or_honor,
    is_wind,
    parse_tiles,
    rank_of,
    suit_of,
    tile_code,
    tile_id,
    to_counts,
)

ALL_IDS = range(NUM_TILE_IDS)
STYLES = ("compact", "codes", "glyphs")

# the conventions of the architecture document, written out independently of tiles.py
EXPECTED_CODES = (
    [f"W{r}" for r in range(1, 10)]
    + [f"T{r}" for r in range(1, 10)]
    + [f"B{r}" for r in range(1, 10)]
    + ["F1", "F2", "F3", "F4", "J1", "J2", "J3"]
    + [f"H{i}" for i in range(1, 9)]
)
# compact notation of the 34 kinds: m = W, s = T, p = B; 1z-4z E S W N, 5z 白 J3, 6z 发 J2, 7z 中 J1
EXPECTED_COMPACT = (
    [f"{r}m" for r in range(1, 10)]
    + [f"{r}s" for r in range(1, 10)]
    + [f"{r}p" for r in range(1, 10)]
    + ["1z", "2z", "3z", "4z", "7z", "6z", "5z"]
)


def test_sizes_and_codes() -> None:
    assert NUM_KINDS == 34
    assert NUM_TILE_IDS == 42
    assert list(CODES) == EXPECTED_CODES
    assert len(GLYPHS) == NUM_TILE_IDS
    assert len(set(GLYPHS)) == NUM_TILE_IDS
    assert (T.EAST, T.SOUTH, T.WEST, T.NORTH) == (27, 28, 29, 30)
    assert (T.RED, T.GREEN, T.WHITE) == (31, 32, 33)


@pytest.mark.parametrize("t", ALL_IDS)
def test_code_round_trip(t: int) -> None:
    code = tile_code(t)
    assert code == EXPECTED_CODES[t]
    assert tile_id(code) == t
    assert tile_id(code.lower()) == t
    assert parse_tiles(code) == [t]


@pytest.mark.parametrize("t", ALL_IDS)
def test_glyph_round_trip(t: int) -> None:
    g = glyph(t)
    assert len(g) == 1
    assert tile_id(g) == t
    assert parse_tiles(g) == [t]
    assert format_tiles([t], "glyphs") == g


@pytest.mark.parametrize("t", ALL_IDS)
def test_compact_round_trip(t: int) -> None:
    text = format_tiles([t])
    if t < NUM_KINDS:
        assert text == EXPECTED_COMPACT[t]
        assert tile_id(text) == t
    else:  # flowers have no compact form and print as codes
        assert text == EXPECTED_CODES[t]
    assert parse_tiles(text) == [t]


@pytest.mark.parametrize("style", STYLES)
def test_all_ids_round_trip_in_one_string(style: str) -> None:
    text = format_tiles(ALL_IDS, style)
    assert parse_tiles(text) == list(ALL_IDS)


def test_known_strings() -> None:
    assert parse_tiles("123m456s789p11z") == [0, 1, 2, 12, 13, 14, 24, 25, 26, 27, 27]
    assert parse_tiles("1234567z") == [27, 28, 29, 30, 33, 32, 31]
    assert parse_tiles("W1 W2, t5") == [0, 1, 13]
    assert parse_tiles("🀇🀈🀉 🀄") == [0, 1, 2, 31]
    assert parse_tiles("") == []
    assert parse_tiles(["W1", 5, "5z"]) == [0, 5, 33]
    assert format_tiles([0, 1, 2, 9]) == "123m1s"
    assert format_tiles([27, 27, 31, 32, 33]) == "11765z"
    assert format_tiles([0, 1], "codes") == "W1 W2"
    assert format_tiles([31], "glyphs") == "🀄"


@given(st.lists(st.integers(0, NUM_TILE_IDS - 1), max_size=20), st.sampled_from(STYLES))
def test_any_sequence_round_trips(ids: list[int], style: str) -> None:
    assert parse_tiles(format_tiles(ids, style)) == ids


@pytest.mark.parametrize(
    ("text", "bad"),
    [
        ("123x", "123x"),
        ("0m", "0m"),  # Tenhou's red five means nothing in MCR
        ("8z", "8z"),
        ("12m8z3p", "8z"),
        ("123m 4q", "4q"),
        ("W1 W0 W2", "W0"),
        ("W10", "W10"),
        ("1m2", "1m2"),
        ("123", "123"),
        ("m", "m"),
        ("🀇🀈x", "🀇🀈x"),
    ],
)
def test_malformed_input_names_the_bad_token(text: str, bad: str) -> None:
    with pytest.raises(ValueError, match="not a tile") as info:
        parse_tiles(text)
    assert repr(bad) in str(info.value)


@pytest.mark.parametrize("value", [42, -1, True, "x", "Z1", 3.0, None])
def test_tile_id_rejects(value: object) -> None:
    with pytest.raises(ValueError) as info:
        tile_id(value)  # type: ignore[arg-type]
    assert repr(value) in str(info.value)


def test_format_rejects_unknown_style() -> None:
    with pytest.raises(ValueError, match="style"):
        format_tiles([0], "tenhou")


@pytest.mark.parametrize("t", ALL_IDS)
def test_predicates(t: int) -> None:
    code = EXPECTED_CODES[t]
    letter, number = code[0], int(code[1])
    assert is_flower(t) == (letter == "H")
    assert is_suited(t) == (letter in "WTB")
    assert is_honor(t) == (letter in "FJ")
    assert is_wind(t) == (letter == "F")
    assert is_dragon(t) == (letter == "J")
    assert is_terminal(t) == (letter in "WTB" and number in (1, 9))
    if t < NUM_KINDS:
        assert is_terminal_or_honor(t) == (is_terminal(t) or is_honor(t))
        assert suit_of(t) == "WTBFJ".index(letter)
        assert rank_of(t) == (number if letter in "WTB" else 0)


def test_to_counts() -> None:
    counts = to_counts(parse_tiles("1112345678999m5m"))
    assert len(counts) == NUM_KINDS
    assert counts[:9] == [3, 1, 1, 1, 2, 1, 1, 1, 3]
    assert sum(counts) == 14


def test_compact_token_with_a_letter_that_is_no_suit_is_a_value_error() -> None:
    # found by scripts/fuzz_entry_points.py: "9," reached the suit table and raised KeyError
    for token in ("9,", "1x", "12q"):
        with pytest.raises(ValueError, match="not a tile"):
            parse_tiles(token)

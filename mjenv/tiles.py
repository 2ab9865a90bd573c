"""Tile identities, codes, glyphs and the compact notation.

Ids follow the Botzone / IJCAI convention so data and models transfer:
0..8 W1-W9 (characters), 9..17 T1-T9 (bamboo), 18..26 B1-B9 (dots),
27..30 F1-F4 (east, south, west, north), 31..33 J1-J3 (中 发 白), 34..41 flowers H1-H8.

Three text forms are understood by :func:`parse_tiles`:

* codes separated by spaces or commas: ``"W1 W2 T5 F1 J3"``;
* the compact Tenhou-style notation: digits then a suit letter, ``m`` = W,
  ``s`` = T, ``p`` = B, ``z`` = honours with 1z-4z = E S W N, 5z = 白 (J3),
  6z = 发 (J2), 7z = 中 (J1), e.g. ``"123m456s789p11z"``;
* Unicode mahjong glyphs: ``"🀇🀈🀉"``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

NUM_KINDS = 34
"""Tile kinds that can be part of a hand (flowers excluded)."""
NUM_TILE_IDS = 42
"""All ids, flowers included."""
FLOWER_BASE = 34

SUIT_LETTERS = "WTB"
CODES: tuple[str, ...] = (
    tuple(f"{s}{r}" for s in SUIT_LETTERS for r in range(1, 10))
    + tuple(f"F{i}" for i in range(1, 5))
    + tuple(f"J{i}" for i in range(1, 4))
    + tuple(f"H{i}" for i in range(1, 9))
)
_CODE_TO_ID: dict[str, int] = {code: i for i, code in enumerate(CODES)}

W1, T1, B1 = 0, 9, 18
EAST, SOUTH, WEST, NORTH = 27, 28, 29, 30
RED, GREEN, WHITE = 31, 32, 33  # 中 J1, 发 J2, 白 J3

# Unicode: characters U+1F007.., bamboo U+1F010.., dots U+1F019.., winds U+1F000..,
# 中 U+1F004, 发 U+1F005, 白 U+1F006, plants U+1F022-25, seasons U+1F026-29.
GLYPHS: tuple[str, ...] = (
    tuple(chr(0x1F007 + r) for r in range(9))
    + tuple(chr(0x1F010 + r) for r in range(9))
    + tuple(chr(0x1F019 + r) for r in range(9))
    + tuple(chr(0x1F000 + i) for i in range(4))
    + (chr(0x1F004), chr(0x1F005), chr(0x1F006))
    + tuple(chr(0x1F026 + i) for i in range(4))
    + tuple(chr(0x1F022 + i) for i in range(4))
)
_GLYPH_TO_ID: dict[str, int] = {g: i for i, g in enumerate(GLYPHS)}

# compact notation: honour digit -> id (5z 白, 6z 发, 7z 中, as in Tenhou)
_HONOR_DIGIT_TO_ID = {1: EAST, 2: SOUTH, 3: WEST, 4: NORTH, 5: WHITE, 6: GREEN, 7: RED}
_ID_TO_HONOR_DIGIT = {v: k for k, v in _HONOR_DIGIT_TO_ID.items()}
_SUIT_LETTER_BASE = {"m": W1, "s": T1, "p": B1}
_BASE_SUIT_LETTER = {v: k for k, v in _SUIT_LETTER_BASE.items()}

_COMPACT_GROUP = re.compile(r"(\d+)([mspz])")

# ---------------------------------------------------------------- predicates

def is_flower(t: int) -> bool:
    return FLOWER_BASE <= t < NUM_TILE_IDS


def is_suited(t: int) -> bool:
    return 0 <= t < EAST


def is_honor(t: int) -> bool:
    return EAST <= t < NUM_KINDS


def is_wind(t: int) -> bool:
    return EAST <= t <= NORTH


def is_dragon(t: int) -> bool:
    return RED <= t <= WHITE


def suit_of(t: int) -> int:
    """0 W, 1 T, 2 B, 3 winds, 4 dragons."""
    if t < EAST:
        return t // 9
    return 3 if t <= NORTH else 4


def rank_of(t: int) -> int:
    """Rank 1..9 of a suited tile (0 for honours)."""
    return t % 9 + 1 if t < EAST else 0


def is_terminal(t: int) -> bool:
    return t < EAST and t % 9 in (0, 8)


def is_terminal_or_honor(t: int) -> bool:
    return t >= EAST or t % 9 in (0, 8)


# ---------------------------------------------------------------- conversion

def tile_id(tile: int | str) -> int:
    """The id of a code (``"W1"``), a glyph, or an id (checked); ValueError names a bad one."""
    if isinstance(tile, int) and not isinstance(tile, bool):
        if 0 <= tile < NUM_TILE_IDS:
            return tile
        raise ValueError(f"tile id {tile!r} is outside 0..{NUM_TILE_IDS - 1}")
    if isinstance(tile, str):
        found = _CODE_TO_ID.get(tile.strip().upper())
        if found is None:
            found = _GLYPH_TO_ID.get(tile.strip())
        if found is not None:
            return found
        parsed = _parse_compact_single(tile.strip())
        if parsed is not None:
            return parsed
    raise ValueError(
        f"not a tile: {tile!r} (expected a code W1..W9 T1..T9 B1..B9 F1..F4 J1..J3 H1..H8)")


def tile_code(t: int) -> str:
    return CODES[tile_id(t)]


def glyph(t: int) -> str:
    return GLYPHS[tile_id(t)]


def _parse_compact_single(token: str) -> int | None:
    if len(token) == 2 and token[0].isdigit():
        ids = _compact_group(token[0], token[1])
        return ids[0] if ids else None
    return None


def _compact_group(digits: str, letter: str) -> list[int] | None:
    """The ids of ``digits`` in suit ``letter`` (m p s z), or None when a digit or the letter
    names no tile (``"9,"``, ``"0m"``, ``"8z"``)."""
    if letter != "z" and letter not in _SUIT_LETTER_BASE:
        return None
    out = []
    for ch in digits:
        d = int(ch)
        if letter == "z":
            if d not in _HONOR_DIGIT_TO_ID:
                return None
            out.append(_HONOR_DIGIT_TO_ID[d])
        else:
            if d == 0:  # Tenhou's red five has no meaning in MCR
                return None
            out.append(_SUIT_LETTER_BASE[letter] + d - 1)
    return out


def parse_tiles(text: str | Iterable[int | str]) -> list[int]:
    """Parse tiles written as codes, compact notation or glyphs (or a sequence of ids/codes).

    Raises ``ValueError`` naming the first token that is not a tile.
    """
    if not isinstance(text, str):
        return [tile_id(t) for t in text]
    out: list[int] = []
    for token in re.split(r"[\s,]+", text.strip()):
        if not token:
            continue
        upper = token.upper()
        if upper in _CODE_TO_ID:
            out.append(_CODE_TO_ID[upper])
            continue
        if all(ch in _GLYPH_TO_ID for ch in token):
            out.extend(_GLYPH_TO_ID[ch] for ch in token)
            continue
        if re.fullmatch(r"[A-Za-z]\d", token) is None and re.fullmatch(r"(\d+[mspz])+", token):
            for digits, letter in _COMPACT_GROUP.findall(token):
                ids = _compact_group(digits, letter)
                if ids is None:
                    raise ValueError(f"not a tile: {digits + letter!r} in {text!r}")
                out.extend(ids)
            continue
        raise ValueError(f"not a tile: {token!r} in {text!r}")
    return out


def format_tiles(tiles: Iterable[int], style: str = "compact") -> str:
    """Print tiles as ``compact`` (``123m11z``), ``codes`` (``W1 W2``) or ``glyphs``.

    The compact form groups consecutive tiles of one suit and keeps the given order
    otherwise; flowers are printed as codes.
    """
    ids = [tile_id(t) for t in tiles]
    if style == "codes":
        return " ".join(CODES[t] for t in ids)
    if style == "glyphs":
        return "".join(GLYPHS[t] for t in ids)
    if style != "compact":
        raise ValueError(f"unknown style {style!r}: use compact, codes or glyphs")
    parts: list[str] = []
    digits = ""
    letter = ""
    for t in ids:
        if is_flower(t):
            if digits:
                parts.append(digits + letter)
                digits = ""
            parts.append(CODES[t])
            continue
        if t < EAST:
            this_letter, d = _BASE_SUIT_LETTER[t - t % 9], str(t % 9 + 1)
        else:
            this_letter, d = "z", str(_ID_TO_HONOR_DIGIT[t])
        if digits and this_letter != letter:
            parts.append(digits + letter)
            digits = ""
        letter = this_letter
        digits += d
    if digits:
        parts.append(digits + letter)
    return "".join(parts) if all(not p.startswith("H") for p in parts) else " ".join(parts)


def to_counts(tiles: Sequence[int]) -> list[int]:
    """A 34-entry count vector of the given (non-flower) tile ids."""
    counts = [0] * NUM_KINDS
    for t in tiles:
        counts[t] += 1
    return counts

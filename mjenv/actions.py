"""The 235-action layout (the IJCAI baseline's), as data and small functions.

=========  =======  ====================================================================
ids        kind     meaning
=========  =======  ====================================================================
0          pass     decline every claim (or, in a robbing window, the win)
1          win      declare a win (self-drawn, on a discard, or robbing an added kong)
2-35       discard  discard tile ``a - 2`` (ids 0..33)
36-98      chow     ``36 + suit*21 + (middle rank - 2)*3 + (claimed rank - middle rank + 1)``,
                    suits W, T, B; the chow is named by its middle tile and the claimed tile
99-132     pung     pung the discarded tile ``a - 99``
133-166    kong     exposed kong of the discarded tile ``a - 133``
167-200    ckong    concealed kong of tile ``a - 167``
201-234    akong    added kong: add tile ``a - 201`` to one's exposed pung of it
=========  =======  ====================================================================
"""

from __future__ import annotations

from typing import Final

from mjenv.tiles import NUM_KINDS, tile_code

# Final: modules compiled with mypyc (the engine) then use these as constants, not lookups
PASS: Final = 0
WIN: Final = 1
DISCARD_BASE: Final = 2
CHOW_BASE: Final = 36
PUNG_BASE: Final = 99
KONG_BASE: Final = 133
CONCEALED_KONG_BASE: Final = 167
ADDED_KONG_BASE: Final = 201
NUM_ACTIONS: Final = 235

# kinds (small ints so the engine can compare them cheaply)
K_PASS: Final = 0
K_WIN: Final = 1
K_DISCARD: Final = 2
K_CHOW: Final = 3
K_PUNG: Final = 4
K_KONG: Final = 5
K_CONCEALED_KONG: Final = 6
K_ADDED_KONG: Final = 7
KIND_NAMES: tuple[str, ...] = (
    "pass", "win", "discard", "chow", "pung", "kong", "concealed_kong", "added_kong")

# (first id, number of ids, kind) for each block, in id order
LAYOUT: tuple[tuple[int, int, int], ...] = (
    (PASS, 1, K_PASS),
    (WIN, 1, K_WIN),
    (DISCARD_BASE, NUM_KINDS, K_DISCARD),
    (CHOW_BASE, 63, K_CHOW),
    (PUNG_BASE, NUM_KINDS, K_PUNG),
    (KONG_BASE, NUM_KINDS, K_KONG),
    (CONCEALED_KONG_BASE, NUM_KINDS, K_CONCEALED_KONG),
    (ADDED_KONG_BASE, NUM_KINDS, K_ADDED_KONG),
)


def _check_kind(t: int) -> int:
    if not 0 <= t < NUM_KINDS:
        raise ValueError(f"tile id {t!r} is not a hand tile (0..{NUM_KINDS - 1})")
    return t


def discard(t: int) -> int:
    return DISCARD_BASE + _check_kind(t)


def pung(t: int) -> int:
    return PUNG_BASE + _check_kind(t)


def kong(t: int) -> int:
    return KONG_BASE + _check_kind(t)


def concealed_kong(t: int) -> int:
    return CONCEALED_KONG_BASE + _check_kind(t)


def added_kong(t: int) -> int:
    return ADDED_KONG_BASE + _check_kind(t)


def chow(middle: int, claimed: int) -> int:
    """The chow ``middle-1, middle, middle+1`` made by claiming ``claimed`` (one of the three)."""
    _check_kind(middle)
    if middle >= 27 or not 1 <= middle % 9 <= 7:
        raise ValueError(f"{tile_code(middle)} cannot be the middle tile of a chow")
    if claimed not in (middle - 1, middle, middle + 1):
        raise ValueError(f"claimed tile {claimed!r} is not part of the chow around "
                         f"{tile_code(middle)}")
    suit, rank = divmod(middle, 9)  # rank is 0-based here: middle rank - 1
    return CHOW_BASE + suit * 21 + (rank - 1) * 3 + (claimed - middle + 1)


def decode_chow(a: int) -> tuple[int, int]:
    """(middle tile, claimed tile) of a chow action."""
    if not CHOW_BASE <= a < PUNG_BASE:
        raise ValueError(f"action {a!r} is not a chow (36..98)")
    suit, rest = divmod(a - CHOW_BASE, 21)
    mid_off, claim_off = divmod(rest, 3)
    middle = suit * 9 + mid_off + 1
    return middle, middle + claim_off - 1


def decode(a: int) -> tuple[int, int]:
    """(kind, tile) of an action; the tile is -1 for pass and win, the claimed tile for a chow."""
    if isinstance(a, bool) or not isinstance(a, int) or not 0 <= a < NUM_ACTIONS:
        raise ValueError(f"action {a!r} is outside 0..{NUM_ACTIONS - 1}")
    if a < DISCARD_BASE:
        return a, -1  # K_PASS == PASS, K_WIN == WIN
    if a < CHOW_BASE:
        return K_DISCARD, a - DISCARD_BASE
    if a < PUNG_BASE:
        return K_CHOW, decode_chow(a)[1]
    if a < KONG_BASE:
        return K_PUNG, a - PUNG_BASE
    if a < CONCEALED_KONG_BASE:
        return K_KONG, a - KONG_BASE
    if a < ADDED_KONG_BASE:
        return K_CONCEALED_KONG, a - CONCEALED_KONG_BASE
    return K_ADDED_KONG, a - ADDED_KONG_BASE


def action_to_string(a: int) -> str:
    """A readable name: ``Pass``, ``Win``, ``Discard W1``, ``Chow W1W2W3 (claim W1)``, ..."""
    kind, t = decode(a)
    if kind == K_PASS:
        return "Pass"
    if kind == K_WIN:
        return "Win"
    if kind == K_CHOW:
        middle, claimed = decode_chow(a)
        run = "".join(tile_code(x) for x in (middle - 1, middle, middle + 1))
        return f"Chow {run} (claim {tile_code(claimed)})"
    label = {K_DISCARD: "Discard", K_PUNG: "Pung", K_KONG: "Kong",
             K_CONCEALED_KONG: "ConcealedKong", K_ADDED_KONG: "AddedKong"}[kind]
    return f"{label} {tile_code(t)}"


def string_to_action(text: str) -> int:
    """The inverse of :func:`action_to_string`."""
    found = _BY_NAME.get(text.strip())
    if found is None:
        raise ValueError(f"not an action name: {text!r}")
    return found


_BY_NAME: dict[str, int] = {action_to_string(a): a for a in range(NUM_ACTIONS)}

"""Checking what users pass in: tiles, melds, flags and small numbers.

One place for the checks that the fan calculator, the shanten functions and the hand analysis
share, so they accept the same forms and reject bad input with the same messages. Each check
raises ``error`` (a ``ValueError`` subclass chosen by the caller, e.g. the calculator's
``InvalidHandError``) with a message that names the field and the bad value.
"""

from __future__ import annotations

from collections.abc import Iterable

from mjenv.melds import Meld
from mjenv.tiles import CODES, NUM_KINDS, NUM_TILE_IDS, parse_tiles

KIND_OF: dict[object, int] = {code: i for i, code in enumerate(CODES[:NUM_KINDS])}
KIND_OF.update({i: i for i in range(NUM_KINDS)})
"""Codes and ids of the 34 kinds a hand may hold (no flowers): the fast path of input.
Beware: ``True`` and ``False`` hash like 1 and 0; :func:`tile_kind` rejects them."""


def tile_kind(value: object, what: str, error: type[ValueError] = ValueError) -> int:
    """The kind (0..33) of one tile given as an id, a code, a compact token or a glyph."""
    if not isinstance(value, bool):
        found = KIND_OF.get(value, -1) if isinstance(value, (int, str)) else -1
        if found >= 0:
            return found
        if isinstance(value, (int, str)):
            try:
                tiles = parse_tiles(value) if isinstance(value, str) else [value]
            except ValueError:
                tiles = []
            if len(tiles) == 1 and NUM_KINDS <= tiles[0] < NUM_TILE_IDS:
                raise error(f"{what}: flowers ({CODES[tiles[0]]}) are not part of a hand; "
                            "pass their number as flowers")
            if len(tiles) == 1 and 0 <= tiles[0] < NUM_KINDS:
                return tiles[0]
    raise error(f"{what}: not a tile: {value!r} (expected an id 0..33 or a code "
                "W1..W9 T1..T9 B1..B9 F1..F4 J1..J3)")


def tile_kinds(values: object, what: str, error: type[ValueError] = ValueError) -> list[int]:
    """Tile kinds of a string in any notation, or of an iterable of ids / codes."""
    if isinstance(values, str):
        try:
            ids = parse_tiles(values)
        except ValueError as err:
            raise error(f"{what}: {err}") from None
        return [tile_kind(t, what, error) for t in ids]
    if not isinstance(values, Iterable):
        raise error(f"{what}: expected tiles (a string or a sequence), got {values!r}")
    return [tile_kind(v, what, error) for v in values]


def meld_of(value: object, error: type[ValueError] = ValueError) -> Meld:
    """A ``Meld``, or one built from its JSON dict."""
    if isinstance(value, Meld):
        return value
    try:
        return Meld.from_dict(value)
    except ValueError as err:
        raise error(f"meld: {err}") from None


def melds_of(values: object, error: type[ValueError] = ValueError) -> list[Meld]:
    """At most four melds, as ``Meld`` objects or their JSON dicts."""
    if not isinstance(values, Iterable) or isinstance(values, (str, dict)):
        raise error(f"melds: expected a sequence of melds, got {values!r}")
    melds = [meld_of(m, error) for m in values]
    if len(melds) > 4:
        raise error(f"at most 4 melds, got {len(melds)}")
    return melds


def flag(value: object, name: str, error: type[ValueError] = ValueError) -> bool:
    """A boolean flag: only ``True`` or ``False``."""
    if not isinstance(value, bool):
        raise error(f"{name} must be true or false, got {value!r}")
    return value


def small_int(value: object, name: str, high: int, error: type[ValueError] = ValueError) -> int:
    """An integer 0..high (not a boolean)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= high:
        raise error(f"{name} must be an integer 0..{high}, got {value!r}")
    return value

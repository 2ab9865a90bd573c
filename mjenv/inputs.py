"""Checking what users pass in: tiles, melds, flags and small numbers, and JSON text.

One place for the checks that the fan calculator, the shanten functions and the hand analysis
share, so they accept the same forms and reject bad input with the same messages. Each check
raises ``error`` (a ``ValueError`` subclass chosen by the caller, e.g. the calculator's
``InvalidHandError``) with a message that names the field and the bad value.

:func:`parse_json` is the one JSON parser of untrusted text (fan requests, records, Botzone
logs and bot input): the standard ``json.loads`` raises ``RecursionError`` on a line of a
thousand ``[`` and lets through values so deep that printing them in an error message fails
the same way, and its errors for huge numbers or bad bytes are not all ``JSONDecodeError``.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterable
from typing import Any

from mjenv.melds import Meld
from mjenv.tiles import CODES, NUM_KINDS, NUM_TILE_IDS, parse_tiles

__all__ = ["KIND_OF", "MAX_JSON_DEPTH", "MAX_LINE_BYTES", "JSONInputError",
           "add_limit_argument", "flag", "line_limit", "meld_of", "melds_of", "parse_json",
           "small_int", "tile_kind", "tile_kinds"]

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


MAX_JSON_DEPTH = 64
"""How deeply arrays and objects may nest in untrusted JSON (:func:`parse_json`). mjenv's own
formats nest at most 6 levels (a match record); the bound keeps every later recursive step
(``repr`` in an error message, ``json.dumps``) far from Python's recursion limit."""


class JSONInputError(ValueError):
    """JSON text that :func:`parse_json` refuses; the message says why, without a prefix (the
    caller names the input: "not JSON: ...", "cannot read FILE: ...")."""


def _json_depth_over(value: object, limit: int) -> bool:
    """Whether ``value`` nests arrays or objects more than ``limit`` levels deep (a loop, not
    recursion: the check must not fail the way it guards against)."""
    stack: list[tuple[object, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children: Iterable[object]
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children
                     if isinstance(child, (dict, list)))
    return False


def parse_json(text: str | bytes, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """The value of untrusted JSON ``text``; :class:`JSONInputError` (a ``ValueError``) for
    anything else: malformed JSON, bytes that are not UTF-8, a number too long to convert,
    and nesting deeper than ``max_depth`` (the parser's own ``RecursionError`` included).

    >>> parse_json('{"a": [1, 2]}')
    {'a': [1, 2]}
    >>> try:
    ...     parse_json("[" * 1000)
    ... except ValueError as exc:
    ...     print(exc)
    nested deeper than 64 levels (the limit for JSON input)
    """
    deep = f"nested deeper than {max_depth} levels (the limit for JSON input)"
    try:
        value = json.loads(text)
    except RecursionError:
        raise JSONInputError(deep) from None
    except ValueError as exc:  # JSONDecodeError, UnicodeDecodeError, the int digits limit
        raise JSONInputError(str(exc)) from None
    if _json_depth_over(value, max_depth):
        raise JSONInputError(deep)
    return value


# ------------------------------------------------------------- request size limit
# (here, not in mjenv.fans.jsonl: `mjenv fan` declares the option, and importing anything in
# mjenv.fans loads the calculator, which every `mjenv` command would then pay for at start)

MAX_LINE_BYTES = 1 << 20
"""The default request size limit: the bytes of one line before its newline (1 MiB; a request
of 14 tiles, four melds and every flag takes about 400)."""

LINE_LIMIT_MAX = 1 << 30
"""The largest request size limit (1 GiB): beyond it a line is no request."""


def line_limit(text: str) -> int:
    """A ``--max-line-bytes`` value: a number of bytes 1..1G, with an optional k / M suffix
    (1024 and 1024 * 1024)."""
    units = {"k": 1 << 10, "K": 1 << 10, "m": 1 << 20, "M": 1 << 20}
    body, scale = (text[:-1], units[text[-1]]) if text[-1:] in units else (text, 1)
    try:
        value = int(body) * scale if len(body) < 20 else 0
    except ValueError:
        value = 0
    if not 0 < value <= LINE_LIMIT_MAX:
        raise argparse.ArgumentTypeError(
            f"--max-line-bytes takes a number of bytes from 1 to 1024M (e.g. 65536, 64k, "
            f"4M), got {text!r}")
    return value


def add_limit_argument(parser: argparse.ArgumentParser, default: int | None = MAX_LINE_BYTES,
                       ) -> None:
    """``--max-line-bytes``, shared by ``python -m mjenv.fans`` and ``mjenv fan --jsonl``."""
    parser.add_argument(
        "--max-line-bytes", type=line_limit, default=default, metavar="N",
        help=f"the request size limit: bytes per line before its newline, k and M suffixes "
        f"allowed; a longer line is answered with an error and skipped (default: "
        f"{MAX_LINE_BYTES} = 1M)")

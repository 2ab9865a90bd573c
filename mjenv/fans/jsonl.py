"""The fan calculator as a JSON Lines stream: ``python -m mjenv.fans`` or ``mjenv fan --jsonl``.

Reads one JSON object per line on standard input and writes one JSON object per line on
standard output, in the same order, flushing after each, so another program can drive it
line by line through a pipe. Blank (whitespace-only) input lines are skipped: they get no
output line. Every other line gets exactly one output line; a bad line never stops the stream.

Input (only ``hand`` and ``win_tile`` are required; the others default as shown)::

    {"hand": ["W1", ...], "melds": [], "win_tile": "W5", "flowers": 0,
     "self_drawn": false, "last_copy": false, "last_tile": false, "kong_win": false,
     "seat_wind": 0, "prevalent_wind": 0}

``hand`` is the concealed tiles without the winning tile, as tile codes (``W1``..``J3``).
A meld is ``{"type": "chow"|"pung"|"kong"|"added_kong"|"concealed_kong", "tiles": [3 or 4
codes], "claimed": code or null, "from": 1|2|3 or null}`` (see :meth:`mjenv.melds.Meld.from_dict`;
``from`` is the supplier's seat offset, 1 = next player, 3 = previous player).
``last_copy`` = 和绝张, ``last_tile`` = 妙手回春 / 海底捞月, ``kong_win`` = 杠上开花 when self-drawn
and 抢杠和 otherwise; winds are 0..3 = E S W N; ``flowers`` is 0..8.
Types are checked strictly: flags must be JSON booleans, winds and flowers integers; an unknown
field is an error.

Output, one of::

    {"total": 92, "meets_minimum": true,                # FanResult.to_dict()
     "fans": [{"zh": ..., "en": ..., "points": ..., "count": ...}, ...], "decomposition": [...]}
    {"error": "not_win"}                              # the tiles do not form a complete hand
    {"error": "invalid", "message": "<what is wrong>"}  # bad JSON, types, tiles, melds or flags
    {"error": "internal", "message": "<exception>"}   # a bug in the calculator; please report it

Limits, so that no line can stop the stream or take the memory of the machine: a request line
holds at most :data:`MAX_LINE_BYTES` bytes before its newline (1 MiB by default;
``--max-line-bytes N`` changes it). A longer line is read in chunks of 64 kB and dropped up to
its newline, never held whole, and answered ``{"error": "invalid", "message": "the line is
longer than ..."}``. Arrays and objects may nest at most 64 levels deep
(:func:`mjenv.inputs.parse_json`); a deeper line is answered ``invalid`` too.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import IO, Any

from mjenv.fans import InvalidHandError, NotWinError, WinContext, calculate
from mjenv.inputs import MAX_LINE_BYTES, add_limit_argument, parse_json
from mjenv.melds import Meld
from mjenv.tiles import is_flower, tile_id

FLAGS = ("self_drawn", "last_copy", "last_tile", "kong_win")
WINDS = ("seat_wind", "prevalent_wind")
FIELDS = ("hand", "melds", "win_tile", "flowers", *FLAGS, *WINDS)
REQUIRED = ("hand", "win_tile")
SKIP_CHUNK = 1 << 16
"""How much of an over-long line is read at a time while it is dropped."""


@dataclass(frozen=True)
class Oversized:
    """Stands for an input line longer than the limit, dropped unread (its bytes are gone)."""

    limit: int


class RequestError(ValueError):
    """A request line that is not a well-formed calculator input."""


def _int_field(data: dict[str, Any], name: str, low: int, high: int, default: int) -> int:
    value = data.get(name, default)
    if not isinstance(value, int) or isinstance(value, bool):
        raise RequestError(f"{name} must be an integer {low}..{high}, got {json.dumps(value)}")
    if not low <= value <= high:
        raise RequestError(f"{name} must be {low}..{high}, got {value}")
    return value


def _tile(value: Any, where: str) -> int:
    if not isinstance(value, str):
        raise RequestError(f"{where} must be a tile code such as \"W1\", got {json.dumps(value)}")
    t = tile_id(value)  # ValueError names the bad tile
    if is_flower(t):
        raise RequestError(f"{where}: flower {value} is not part of a hand (use \"flowers\": N)")
    return t


def parse_request(data: Any) -> dict[str, Any]:
    """Check one decoded request and return the keyword arguments of :func:`calculate`:
    ``hand``, ``melds``, ``win_tile`` and the flags as ``context`` (a :class:`WinContext`).

    Raises ``ValueError`` (a :class:`RequestError`, a tile / meld error, or an
    :class:`InvalidHandError` for impossible flags) saying what is wrong.
    """
    if not isinstance(data, dict):
        raise RequestError(f"a request must be a JSON object, got {type(data).__name__}")
    unknown = sorted(set(data) - set(FIELDS))
    if unknown:
        raise RequestError(
            f"unknown field(s): {', '.join(unknown)} (known: {', '.join(FIELDS)})"
        )
    missing = [name for name in REQUIRED if name not in data]
    if missing:
        raise RequestError(f"missing field(s): {', '.join(missing)}")
    hand = data["hand"]
    if not isinstance(hand, list):
        raise RequestError(f"hand must be a list of tile codes, got {json.dumps(hand)}")
    tiles = [_tile(t, "hand") for t in hand]
    melds_data = data.get("melds", [])
    if not isinstance(melds_data, list):
        raise RequestError(f"melds must be a list, got {json.dumps(melds_data)}")
    melds = [Meld.from_dict(m) for m in melds_data]
    kwargs: dict[str, Any] = {
        "hand": tiles,
        "melds": melds,
        "win_tile": _tile(data["win_tile"], "win_tile"),
    }
    flags: dict[str, Any] = {}
    for name in FLAGS:
        value = data.get(name, False)
        if not isinstance(value, bool):
            raise RequestError(f"{name} must be true or false, got {json.dumps(value)}")
        flags[name] = value
    for name in WINDS:
        flags[name] = _int_field(data, name, 0, 3, 0)
    flags["flowers"] = _int_field(data, "flowers", 0, 8, 0)
    kwargs["context"] = WinContext(**flags)  # InvalidHandError for impossible flags
    return kwargs


def evaluate(data: Any) -> dict[str, Any]:
    """The output object for one decoded request (never raises for bad input)."""
    try:
        kwargs = parse_request(data)
    except ValueError as exc:
        return {"error": "invalid", "message": str(exc)}
    except Exception as exc:  # a bug in a check must not stop the stream either
        return {"error": "internal", "message": f"{type(exc).__name__}: {exc}"}
    try:
        result = calculate(**kwargs)
    except NotWinError:
        return {"error": "not_win"}
    except (InvalidHandError, ValueError) as exc:
        return {"error": "invalid", "message": str(exc)}
    except Exception as exc:  # a calculator bug must not stop the stream
        return {"error": "internal", "message": f"{type(exc).__name__}: {exc}"}
    return result.to_dict()


def handle_line(line: str | bytes | Oversized,
                max_line_bytes: int = MAX_LINE_BYTES) -> dict[str, Any] | None:
    """The output object for one input line, or None for a blank line (no output)."""
    if isinstance(line, Oversized):
        return _too_long(line.limit)
    if isinstance(line, bytes):
        if len(line.rstrip(b"\r\n")) > max_line_bytes:
            return _too_long(max_line_bytes)
        try:
            line = line.decode("utf-8")
        except UnicodeDecodeError as exc:
            return {"error": "invalid", "message": f"the line is not valid UTF-8: {exc}"}
    elif len(line) > max_line_bytes // 4 \
            and len(line.rstrip("\r\n").encode("utf-8", "surrogatepass")) > max_line_bytes:
        return _too_long(max_line_bytes)
    if not line.strip():
        return None
    try:
        data = parse_json(line)
    except ValueError as exc:
        return {"error": "invalid", "message": f"not valid JSON: {exc}"}
    return evaluate(data)


def _too_long(limit: int) -> dict[str, Any]:
    return {"error": "invalid", "message": f"the line is longer than {limit} bytes, the "
            "request size limit (--max-line-bytes); it was skipped"}


def read_lines(stream: IO[bytes], max_line_bytes: int = MAX_LINE_BYTES,
               ) -> Iterator[bytes | Oversized]:
    """The lines of a binary stream, each as soon as its newline arrives (a pipe is answered
    line by line); a line over ``max_line_bytes`` (before its newline) comes as
    :class:`Oversized`, read and dropped in :data:`SKIP_CHUNK` pieces, so memory stays bounded
    by the limit however long the line is."""
    while True:
        line = stream.readline(max_line_bytes + 1)
        if not line:
            return
        if line.endswith(b"\n") or len(line) <= max_line_bytes:
            yield line
            continue
        while line and not line.endswith(b"\n"):  # drop the rest of the line
            line = stream.readline(SKIP_CHUNK)
        yield Oversized(max_line_bytes)


def _answer_text(answer: dict[str, Any]) -> str:
    """One output line: UTF-8 text as is, and ``\\uXXXX`` escapes where the answer quotes a
    lone surrogate of the request (a ``"\\ud800"`` escape decodes to one; UTF-8 cannot
    encode it)."""
    text = json.dumps(answer, ensure_ascii=False)
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            text = json.dumps(answer)
    return text + "\n"


def serve(lines: Iterable[str | bytes | Oversized], out: IO[str],
          max_line_bytes: int = MAX_LINE_BYTES) -> int:
    """Answer every non-blank line of ``lines`` on ``out``, flushing after each; a line over
    ``max_line_bytes`` gets an error answer. To read a binary stream with the limit bounding
    memory too, pass ``read_lines(stream, max_line_bytes)``.

    Returns the number of output lines written.
    """
    written = 0
    for line in lines:
        answer = handle_line(line, max_line_bytes)
        if answer is None:
            continue
        out.write(_answer_text(answer))
        out.flush()
        written += 1
    return written


def run_stdio(max_line_bytes: int = MAX_LINE_BYTES) -> int:
    """Serve standard input to standard output (UTF-8 both ways); the exit status."""
    if isinstance(sys.stdout, io.TextIOWrapper):
        sys.stdout.reconfigure(encoding="utf-8")
    try:
        serve(read_lines(sys.stdin.buffer, max_line_bytes), sys.stdout, max_line_bytes)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # the reader went away: stop quietly, without a second error when Python flushes at exit
        with contextlib.suppress(OSError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    """``python -m mjenv.fans``."""
    parser = argparse.ArgumentParser(
        prog="python -m mjenv.fans",
        description="Fan calculator for Chinese Official Mahjong, as a JSON Lines stream: "
        "one JSON request per line on stdin, one JSON answer per line on stdout.",
        epilog="Example: echo '{\"hand\": [\"W1\",\"W1\",\"W1\",\"W2\",\"W3\",\"W4\",\"W5\","
        "\"W6\",\"W7\",\"W8\",\"W9\",\"W9\",\"W9\"], \"win_tile\": \"W5\", \"self_drawn\": true}' "
        "| python -m mjenv.fans",
    )
    add_limit_argument(parser)
    args = parser.parse_args(argv)
    return run_stdio(args.max_line_bytes)

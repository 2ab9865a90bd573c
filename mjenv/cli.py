"""The ``mjenv`` command line: one command, one subcommand per job.

    mjenv --version
    mjenv fan "1112345678999m" --win 5m --self-drawn   # score one hand, print a table
    mjenv fan --jsonl < requests.jsonl                 # JSON Lines, as python -m mjenv.fans

A subcommand is a function that adds its parser (``_add_fan``) and a handler that takes the
parsed arguments and returns the exit status. Heavy modules are imported inside handlers, so
``mjenv --version`` and ``mjenv --help`` stay fast.
"""

from __future__ import annotations

import argparse
import io
import sys
import unicodedata
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from mjenv import __version__

if TYPE_CHECKING:
    from mjenv.fans import FanResult
    from mjenv.melds import Meld

USAGE_ERROR = 2
WIND_NAMES = ("E", "S", "W", "N")
_WIND_WORDS = {"EAST": 0, "SOUTH": 1, "WEST": 2, "NORTH": 3}


class CommandError(Exception):
    """An error to report as one line on stderr, with exit status 2."""


# ---------------------------------------------------------------- fan


def _wind(text: str) -> int:
    key = text.strip().upper()
    if key in WIND_NAMES:
        return WIND_NAMES.index(key)
    if key in _WIND_WORDS:
        return _WIND_WORDS[key]
    if key in ("0", "1", "2", "3"):
        return int(key)
    raise argparse.ArgumentTypeError(f"invalid wind {text!r}: use E, S, W, N or 0..3")


_FAN_EXAMPLES = """\
examples:
  mjenv fan "1112345678999m" --win 5m --self-drawn
  mjenv fan "W1 W1 W1 W2 W3 W4 W5 W6 W7 W8 W9 W9 W9 W5" --self-drawn   # last tile = win
  mjenv fan "34p66z" --kong 5m --kong 7p --concealed-kong 2s --win 5p --self-drawn --kong-win
  mjenv fan --jsonl < requests.jsonl

tiles: codes (W1..W9 T1..T9 B1..B9 F1..F4 J1..J3), glyphs, or the compact notation
  123m456s789p11z: m = W, s = T, p = B, 1z-4z = E S W N, 5z = 白 J3, 6z = 发 J2, 7z = 中 J1
"""


def _add_fan(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "fan",
        help="score a winning hand (fan calculator)",
        description="Score one winning hand and print its fans, or with --jsonl serve a "
        "JSON Lines stream of hands (the same as python -m mjenv.fans).",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=_FAN_EXAMPLES,
    )
    p.add_argument(
        "hand",
        nargs="*",
        help="the concealed tiles; without --win the last tile listed is the winning tile",
    )
    p.add_argument("--jsonl", action="store_true",
                   help="read JSON Lines requests on stdin, write one JSON answer per line")
    p.add_argument("--win", metavar="TILE", help="the winning tile (not part of HAND)")
    melds = p.add_argument_group("melds (repeatable; supplier and claimed tile do not matter here)")
    melds.add_argument("--chow", action="append", default=[], metavar="TILES",
                       help="an exposed chow, e.g. 123m or 'W1 W2 W3'")
    melds.add_argument("--pung", action="append", default=[], metavar="TILE",
                       help="an exposed pung, e.g. 5z or 555z")
    melds.add_argument("--kong", action="append", default=[], metavar="TILE",
                       help="an exposed kong from a discard, e.g. 1p")
    melds.add_argument("--added-kong", action="append", default=[], metavar="TILE",
                       help="an added kong (pung upgraded with its fourth tile), e.g. 9s")
    melds.add_argument("--concealed-kong", action="append", default=[], metavar="TILE",
                       help="a concealed kong, e.g. 7z")
    flags = p.add_argument_group("how the hand was won")
    flags.add_argument("--self-drawn", action="store_true",
                       help="the winning tile was drawn (自摸)")
    flags.add_argument("--last-copy", action="store_true",
                       help="the other three copies were visible (和绝张)")
    flags.add_argument("--last-tile", action="store_true",
                       help="the last tile of the wall, or the discard after it "
                       "(妙手回春 / 海底捞月)")
    flags.add_argument("--kong-win", action="store_true",
                       help="kong replacement (杠上开花) when self-drawn, robbing a kong (抢杠和) "
                       "otherwise")
    flags.add_argument("--seat-wind", type=_wind, default=0, metavar="WIND",
                       help="E, S, W, N or 0..3 (default E)")
    flags.add_argument("--prevalent-wind", type=_wind, default=0, metavar="WIND",
                       help="E, S, W, N or 0..3 (default E)")
    flags.add_argument("--flowers", type=int, default=0, metavar="N",
                       help="flowers the winner exposed, 0..8")
    p.set_defaults(handler=_run_fan, command="fan")


def _meld_tiles(text: str, kind: str, size: int) -> tuple[int, ...]:
    from mjenv.tiles import parse_tiles

    tiles = parse_tiles(text)
    if kind != "chow" and len(tiles) == 1:
        return tuple(tiles) * size
    if len(tiles) != size:
        raise CommandError(f"--{kind.replace('_', '-')} {text!r}: a {kind} has {size} tiles"
                           + ("" if kind == "chow" else " (or give one tile)"))
    return tuple(tiles)


def _melds_from_args(args: argparse.Namespace) -> list[Meld]:
    from mjenv.melds import Meld

    melds: list[Meld] = []
    for kind, size, texts in (
        ("chow", 3, args.chow),
        ("pung", 3, args.pung),
        ("kong", 4, args.kong),
        ("added_kong", 4, args.added_kong),
        ("concealed_kong", 4, args.concealed_kong),
    ):
        for text in texts:
            tiles = _meld_tiles(text, kind, size)
            try:
                melds.append(Meld(kind, tiles))
            except ValueError as exc:
                raise CommandError(f"--{kind.replace('_', '-')} {text!r}: {exc}") from None
    return melds


def _run_fan(args: argparse.Namespace) -> int:
    if args.jsonl:
        given = [name for name, value in (
            ("HAND", args.hand), ("--win", args.win), ("--chow", args.chow),
            ("--pung", args.pung), ("--kong", args.kong), ("--added-kong", args.added_kong),
            ("--concealed-kong", args.concealed_kong),
        ) if value]
        if given:
            raise CommandError(f"--jsonl reads every hand from stdin; do not give {given[0]}")
        from mjenv.fans.jsonl import run_stdio

        return run_stdio()

    from mjenv.tiles import parse_tiles

    if not args.hand:
        raise CommandError('give a hand, e.g. mjenv fan "1112345678999m" --win 5m --self-drawn '
                           "(or --jsonl to read JSON Lines on stdin)")
    text = " ".join(args.hand)
    tiles = parse_tiles(text)
    melds = _melds_from_args(args)
    if args.win is not None:
        win_tiles = parse_tiles(args.win)
        if len(win_tiles) != 1:
            raise CommandError(f"--win takes one tile, got {args.win!r}")
        win = win_tiles[0]
    else:
        if len(tiles) % 3 != 2:
            raise CommandError(
                f"{len(tiles)} tiles given without --win: list the winning tile last "
                f"({14 - 3 * len(melds)} tiles with {len(melds)} meld(s)) or give it with --win"
            )
        win = tiles.pop()

    from mjenv.fans import NotWinError, calculate

    try:
        result = calculate(
            tiles, melds, win,
            self_drawn=args.self_drawn, last_copy=args.last_copy, last_tile=args.last_tile,
            kong_win=args.kong_win, seat_wind=args.seat_wind,
            prevalent_wind=args.prevalent_wind, flowers=args.flowers,
        )
    except NotWinError as exc:
        detail = str(exc)
        raise CommandError("not a winning hand" + (f": {detail}" if detail else "")) from None
    sys.stdout.write(format_result(result, tiles, melds, win, args))
    return 0


# ---------------------------------------------------------------- table


def _width(text: str) -> int:
    """Terminal columns of ``text`` (CJK characters take two)."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _ljust(text: str, width: int) -> str:
    return text + " " * max(0, width - _width(text))


def format_result(
    result: FanResult,
    hand: Sequence[int],
    melds: Sequence[Meld],
    win: int,
    args: argparse.Namespace,
) -> str:
    """The readable report of one scored hand."""
    from mjenv.tiles import format_tiles

    lines: list[str] = []
    hand_text = format_tiles(sorted(hand))
    win_text = format_tiles([win])
    lines.append(f"hand     {hand_text} + {win_text}   "
                 f"{format_tiles(sorted(hand), 'glyphs')} {format_tiles([win], 'glyphs')}")
    if melds:
        lines.append("melds    " + ", ".join(
            f"{m.kind.replace('_', ' ')} {format_tiles(m.tiles)}" for m in melds))
    how = ["self-drawn" if args.self_drawn else "discard"]
    if args.last_copy:
        how.append("last copy")
    if args.last_tile:
        how.append("last tile")
    if args.kong_win:
        how.append("kong replacement" if args.self_drawn else "robbing a kong")
    how.append(f"seat wind {WIND_NAMES[args.seat_wind]}")
    how.append(f"prevalent wind {WIND_NAMES[args.prevalent_wind]}")
    how.append(f"flowers {args.flowers}")
    lines.append("win      " + ", ".join(how))
    lines.append("")

    zh_w = max([_width("fan"), *(_width(e.zh) for e in result.fans)])
    en_w = max([len("english"), *(len(e.en) for e in result.fans)])
    header = f"{_ljust('fan', zh_w)}  {'english':<{en_w}}  points  count  total"
    lines.append(header)
    lines.append("-" * _width(header))
    for e in result.fans:
        lines.append(f"{_ljust(e.zh, zh_w)}  {e.en:<{en_w}}  {e.points:>6}  {e.count:>5}  "
                     f"{e.total:>5}")
    lines.append("-" * _width(header))
    lines.append(f"{_ljust('total', zh_w + en_w + 2)}  {'':>6}  {'':>5}  {result.total:>5}")
    without = result.total - result.flowers
    if result.meets_minimum:
        verdict = f"met ({without} points without flowers): a legal win"
    else:
        verdict = f"NOT met ({without} points without flowers): not a legal win"
    lines.append(f"8-point minimum: {verdict}")
    lines.append("")
    lines.append(f"decomposition ({result.shape.replace('_', ' ')})")
    for group in result.decomposition:
        state = "concealed" if group.concealed else "exposed"
        lines.append(f"  {group.kind.replace('_', ' '):<14} {format_tiles(group.tiles):<12} "
                     f"{state}")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- main

Handler = Callable[[argparse.Namespace], int]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mjenv",
        description="mjenv: a reinforcement-learning environment for Chinese Official Mahjong "
        "(MCR, 国标麻将).",
    )
    parser.add_argument("--version", action="version", version=f"mjenv {__version__}")
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND")
    _add_fan(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``mjenv`` command; returns the exit status (2 for usage and input errors)."""
    parser = build_parser()
    args = parser.parse_args(None if argv is None else list(argv))
    handler: Handler | None = getattr(args, "handler", None)
    if handler is None:
        parser.print_help(sys.stderr)
        return USAGE_ERROR
    if isinstance(sys.stdout, io.TextIOWrapper):
        sys.stdout.reconfigure(errors="replace")  # glyphs on a terminal that lacks them
    try:
        return handler(args)
    except (CommandError, ValueError) as exc:  # bad tiles, invalid hands and flags
        sys.stderr.write(f"mjenv {args.command}: error: {exc}\n")
        return USAGE_ERROR


if __name__ == "__main__":
    raise SystemExit(main())

"""``mjenv fan``: score one winning hand, or serve JSON Lines requests."""

from __future__ import annotations

import argparse
import sys

from mjenv.cli.common import (
    CommandError,
    Subparsers,
    add_command,
    add_flag_arguments,
    add_meld_arguments,
    flag_kwargs,
    melds_from_args,
)

EXAMPLES = """\
examples:
  mjenv fan "1112345678999m" --win 5m --self-drawn
  mjenv fan "W1 W1 W1 W2 W3 W4 W5 W6 W7 W8 W9 W9 W9 W5" --self-drawn   # last tile = win
  mjenv fan "34p66z" --kong 5m --kong 7p --concealed-kong 2s --win 5p --self-drawn --kong-win
  mjenv fan --jsonl < requests.jsonl

tiles: codes (W1..W9 T1..T9 B1..B9 F1..F4 J1..J3), glyphs, or the compact notation
  123m456s789p11z: m = W, s = T, p = B, 1z-4z = E S W N, 5z = 白 J3, 6z = 发 J2, 7z = 中 J1
"""


def add_parser(subparsers: Subparsers) -> None:
    p = add_command(
        subparsers, "fan",
        help="score a winning hand (fan calculator)",
        description="Score one winning hand and print its fans, or with --jsonl serve a "
        "JSON Lines stream of hands (the same as python -m mjenv.fans).",
        epilog=EXAMPLES,
    )
    p.add_argument("hand", nargs="*",
                   help="the concealed tiles; without --win the last tile listed is the winning "
                   "tile")
    p.add_argument("--jsonl", action="store_true",
                   help="read JSON Lines requests on stdin, write one JSON answer per line")
    from mjenv.inputs import add_limit_argument  # light: not mjenv.fans (the calculator)

    add_limit_argument(p, default=None)
    p.add_argument("--win", metavar="TILE", help="the winning tile (not part of HAND)")
    add_meld_arguments(p)
    add_flag_arguments(p, "how the hand was won")
    p.set_defaults(handler=run)


def _check_jsonl_alone(args: argparse.Namespace) -> None:
    given = [name for name, value in (
        ("HAND", args.hand), ("--win", args.win), ("--chow", args.chow),
        ("--pung", args.pung), ("--kong", args.kong), ("--added-kong", args.added_kong),
        ("--concealed-kong", args.concealed_kong),
    ) if value]
    if given:
        raise CommandError(f"--jsonl reads every hand from stdin; do not give {given[0]}")


def run(args: argparse.Namespace) -> int:
    if args.jsonl:
        _check_jsonl_alone(args)
        from mjenv.fans.jsonl import run_stdio
        from mjenv.inputs import MAX_LINE_BYTES

        return run_stdio(args.max_line_bytes or MAX_LINE_BYTES)
    if args.max_line_bytes is not None:
        raise CommandError("--max-line-bytes is the request size limit of --jsonl; give both")

    from mjenv.tiles import parse_tiles

    if not args.hand:
        raise CommandError('give a hand, e.g. mjenv fan "1112345678999m" --win 5m --self-drawn '
                           "(or --jsonl to read JSON Lines on stdin)")
    tiles = parse_tiles(" ".join(args.hand))
    melds = melds_from_args(args)
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
    from mjenv.render.fans import format_result

    flags = flag_kwargs(args)
    try:
        result = calculate(tiles, melds, win, **flags)
    except NotWinError as exc:
        detail = str(exc)
        raise CommandError("not a winning hand" + (f": {detail}" if detail else "")) from None
    sys.stdout.write(format_result(result, tiles, melds, win, flags))
    return 0

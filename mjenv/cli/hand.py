"""``mjenv hand``: shanten, useful tiles, best discards and scored waits of a hand."""

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
  mjenv hand "1112345678999m" --self-drawn      # ready: its waits and what each scores
  mjenv hand "123m456s789p1122z5z"              # 14 tiles: the best discards first
  mjenv hand "2356m48s13579p12z" --seen "1z 1z 4s"
  mjenv hand "3455m7p66z" --chow 123p --pung 9s --seat-wind S

useful tiles are shown as TILE:N, N the copies still unseen (not in the hand and melds,
not among --seen); "held" marks a kind whose four copies are all the player's own.
"""


def add_parser(subparsers: Subparsers) -> None:
    p = add_command(
        subparsers, "hand",
        help="shanten, useful tiles, best discards and scored waits of a hand",
        description="Analyse a hand of 13 - 3*melds standing tiles (or 14 - 3*melds, before a\n"
        "discard): shanten per shape (0 = ready, -1 = complete), the useful tiles with the\n"
        "copies still unseen, for 14 tiles every discard best first, and for a ready hand\n"
        "its winning tiles with the points each would score under the flags given.",
        epilog=EXAMPLES,
    )
    p.add_argument("hand", nargs="*", help="the standing tiles")
    p.add_argument("--seen", metavar="TILES",
                   help="tiles seen on the table besides the own hand and melds (discards, "
                   "other players' melds); they lower the unseen counts")
    add_meld_arguments(p)
    add_flag_arguments(p, "how a wait would be won (for the scores of the waits)")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if not args.hand:
        raise CommandError('give a hand, e.g. mjenv hand "1112345678999m" --self-drawn')
    from mjenv.analysis import analyze_hand
    from mjenv.render.hand import format_hand
    from mjenv.tiles import parse_tiles

    tiles = parse_tiles(" ".join(args.hand))
    melds = melds_from_args(args)
    flags = flag_kwargs(args)
    report = analyze_hand(tiles, melds, seen=args.seen, **flags)
    seen = parse_tiles(args.seen) if args.seen else []
    sys.stdout.write(format_hand(report, tiles, melds, flags, seen))
    return 0

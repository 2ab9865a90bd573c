"""``mjenv replay``: a recorded hand, validated and printed move by move."""

from __future__ import annotations

import argparse
import sys

from mjenv.cli.common import Subparsers, add_command, file_error

EXAMPLES = """\
examples:
  mjenv replay hand.json            # everything, every tile face up
  mjenv replay hand.json --seat 2   # as seat 2 saw it: others' draws and concealed kongs hidden
  mjenv replay hand.json --html hand.html   # the same as a page that draws the table

The record is validated and replayed first (mjenv.engine.record); a record that does not
replay to its own events and result is an error. Hidden tiles are shown as ??; the final
event reveals every concealed kong and the last lines show every hand ([...]c: concealed kong).
"""


def add_parser(subparsers: Subparsers) -> None:
    p = add_command(
        subparsers, "replay",
        help="print a recorded hand move by move (all of it, or as one seat saw it)",
        description="Validate and replay a hand record (JSON, format mjenv-hand) and print it\n"
        "event by event, then the result.",
        epilog=EXAMPLES,
    )
    p.add_argument("file", metavar="FILE", help="a hand record (JSON)")
    p.add_argument("--seat", type=int, choices=range(4), metavar="N",
                   help="show the hand as seat N (0..3) saw it; everything when not given")
    p.add_argument("--html", metavar="OUT",
                   help="write the hand as a self-contained HTML page (as mjenv view does) "
                   "instead of printing it")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    try:
        return _run(args)
    except OSError as exc:  # an --html page that cannot be written (a folder, no permission)
        raise file_error(exc) from None


def _run(args: argparse.Namespace) -> int:
    if args.html:
        from mjenv.render.html import load_sources, write_page

        sources = load_sources(args.file)
        size = write_page(sources, args.html, seat=args.seat)
        steps = sum(len(s.game.events) for s in sources)
        print(f"wrote {args.html}: {steps} steps, {size / 1024:.0f} kB")
        return 0
    from mjenv.engine.record import load
    from mjenv.render.replay import format_replay

    game = load(args.file)
    sys.stdout.write(format_replay(game, args.seat))
    return 0

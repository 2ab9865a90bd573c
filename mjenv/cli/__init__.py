"""The ``mjenv`` command line: one command, one module per subcommand.

    mjenv --version
    mjenv fan "1112345678999m" --win 5m --self-drawn   # score one hand, print a table
    mjenv fan --jsonl < requests.jsonl                 # JSON Lines, as python -m mjenv.fans
    mjenv hand "123m456s789p11225z" --seen 1z          # shanten, useful tiles, discards, waits
    mjenv replay hand.json --seat 2                    # a recorded hand, move by move
    mjenv bench --sizes 16,64,256,1024                 # a batch's speed here, by size
    mjenv play | arena | train | botzone-bot | botzone-log

Each module of this package adds its parser (``add_parser``) with a handler that takes the
parsed arguments and returns the exit status; the text a command prints is made in
:mod:`mjenv.render`. Heavy modules are imported inside handlers, so ``mjenv --version`` and
``mjenv --help`` stay fast.
"""

from __future__ import annotations

import argparse
import io
import sys
from collections.abc import Callable, Sequence

from mjenv import __version__
from mjenv.cli import arena, bench, botzone, fan, hand, play, replay, train, view
from mjenv.cli.common import USAGE_ERROR, CommandError

__all__ = ["CommandError", "USAGE_ERROR", "build_parser", "main"]

COMMANDS = (fan, hand, replay, view, play, arena, bench, train, botzone)
"""The command modules, in the order ``mjenv --help`` lists them."""

Handler = Callable[[argparse.Namespace], int]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mjenv",
        description="mjenv: a reinforcement-learning environment for Chinese Official Mahjong "
        "(MCR, 国标麻将).",
    )
    parser.add_argument("--version", action="version", version=f"mjenv {__version__}")
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND")
    for command in COMMANDS:
        command.add_parser(subparsers)
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

"""``mjenv play``: a person at one seat against three agents, in the terminal."""

from __future__ import annotations

import argparse

from mjenv.cli.common import (
    CommandError,
    Subparsers,
    add_command,
    agent_from_spec,
    interrupted,
    seed_arg,
)


def add_parser(subparsers: Subparsers) -> None:
    p = add_command(
        subparsers, "play",
        help="play a seat in the terminal against agents",
        description="Play one hand (or a match) at one seat against three agents. The legal "
        "moves are listed by number and name; answer with the number, the name, or a tile "
        "code to discard it. q quits.",
    )
    p.add_argument("--seat", type=int, choices=range(4), default=0, metavar="N",
                   help="your seat, 0..3")
    p.add_argument("--opponents", nargs="+", default=["random"], metavar="SPEC",
                   help="one agent spec for all three opponents, or three specs")
    p.add_argument("--rules", choices=["mcr", "botzone"], default="mcr", help="the rule profile")
    p.add_argument("--episode", choices=["hand", "match"], default="hand",
                   help="one hand, or a 16-hand match")
    p.add_argument("--seed", type=seed_arg, default=None,
                   help="the deal's seed (a fresh random deal when not given)")
    p.add_argument("--codes", action="store_true", help="tile codes instead of glyphs")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Build the opponents (one line if one cannot be), then play. Numerical libraries get
    one thread before an opponent imports them: a policy's one-row forward passes are 2-3x
    slower on all cores than on one."""
    from mjenv.procs import one_thread_env

    one_thread_env()
    from mjenv.play import QuitGame, play_in_terminal

    specs = args.opponents * 3 if len(args.opponents) == 1 else args.opponents
    if len(specs) != 3:
        raise CommandError("give one opponent spec or three")
    try:
        opponents = [agent_from_spec(spec) for spec in specs]
        play_in_terminal(args.seat, opponents, seed=args.seed, glyphs=not args.codes,
                         rules=args.rules, episode=args.episode)
    except QuitGame:
        print("bye")
    except KeyboardInterrupt:
        return interrupted("play")
    return 0

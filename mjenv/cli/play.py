"""``mjenv play``: a person at one seat against three agents, in the terminal."""

from __future__ import annotations

import argparse

from mjenv.cli.common import (
    CommandError,
    Subparsers,
    add_command,
    agent_from_spec,
    file_error,
    interrupted,
    seed_arg,
)

EXAMPLES = """examples:
  mjenv play                                   # one hand against three random players
  mjenv play --opponents rule --seat 2         # against the rule-based player, as seat 2
  mjenv play --opponents policy:runs/demo/ppo/final.pt --episode match --save games
  mjenv view games --out games/index.html      # the saved hands, step by step, in a browser
"""


def add_parser(subparsers: Subparsers) -> None:
    p = add_command(
        subparsers, "play",
        help="play a seat in the terminal against agents",
        description="Play one hand (or a match) at one seat against three agents. Each turn\n"
        "shows what happened since your last move, the table and your moves, numbered; answer\n"
        "with the number, a tile to discard it (W5, 5m), or the move's name (pung, win, pass).\n"
        "? lists the commands, q quits, Ctrl-C stops. At the end of a hand: every hand, the\n"
        "fans and the payments; then \"play again?\".",
        epilog=EXAMPLES,
    )
    p.add_argument("--seat", type=int, choices=range(4), default=0, metavar="N",
                   help="your seat, 0..3")
    p.add_argument("--opponents", nargs="+", default=None, metavar="SPEC",
                   help="one agent spec for all three opponents, or three specs "
                   "(default: random)")
    p.add_argument("--rules", choices=["mcr", "botzone"], default="mcr", help="the rule profile")
    p.add_argument("--episode", choices=["hand", "match"], default="hand",
                   help="one hand, or a 16-hand match")
    p.add_argument("--seed", type=seed_arg, default=None,
                   help="the deal's seed (a random one when not given, printed so that the deal "
                   "can be played again); \"play again\" deals the next seed")
    p.add_argument("--codes", action="store_true", help="tile codes instead of glyphs")
    p.add_argument("--save", metavar="DIR", default=None,
                   help="keep the record of every finished hand (and match) in DIR, for "
                   "mjenv view and mjenv replay (none kept when not given)")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Build the opponents (one line if one cannot be), then play. Numerical libraries get
    one thread before an opponent imports them: a policy's one-row forward passes are 2-3x
    slower on all cores than on one."""
    from mjenv.procs import one_thread_env

    one_thread_env()
    from mjenv.play import QuitGame, play_in_terminal

    given = args.opponents or ["random"]
    specs = given * 3 if len(given) == 1 else given
    if len(specs) != 3:
        raise CommandError("give one opponent spec or three")
    try:
        opponents = [agent_from_spec(spec) for spec in specs]
        play_in_terminal(args.seat, opponents, seed=args.seed, glyphs=not args.codes,
                         save_dir=args.save, again=True, names=specs, rules=args.rules,
                         episode=args.episode)
    except QuitGame:
        print("bye")
    except KeyboardInterrupt:
        return interrupted("play")
    except OSError as exc:  # --save into a folder that cannot be written
        raise file_error(exc) from None
    return 0

"""``mjenv arena``: agents compared on duplicate deals, with confidence intervals and plots."""

from __future__ import annotations

import argparse

from mjenv.cli.common import Subparsers, add_command

EXAMPLES = """examples:
  mjenv arena --agents greedy random --deals 2000 --out runs/greedy-vs-random
  mjenv arena --mode four --agents rule greedy random "random seed=7" --rotations all \\
      --deals 500 --out runs/four --workers 2
  mjenv arena --agents rule greedy --deals 2000 --backend ray --out runs/ray

Re-running the same command resumes the run in --out; a different configuration there is
refused. Output: results.json, hands.csv, manifest.json, PNG plots (docs/arena.md).
"""


def add_parser(subparsers: Subparsers) -> None:
    p = add_command(
        subparsers, "arena",
        help="compare agents on duplicate deals (confidence intervals, plots, resumable)",
        description="Play agents against each other on duplicate deals: every deal is "
        "replayed with the agents rotated through the seats, so luck cancels.",
        epilog=EXAMPLES,
    )
    p.add_argument("--agents", nargs="+", required=True, metavar="SPEC",
                   help="1v3: challenger and baseline; four: four specs (see mjenv.agent)")
    p.add_argument("--mode", choices=["1v3", "four"], default="1v3",
                   help="one challenger against three copies of a baseline, or four agents")
    p.add_argument("--deals", type=int, default=100, help="the number of duplicate deals")
    p.add_argument("--seed", type=int, default=0, help="the seed of the deal stream")
    p.add_argument("--rules", choices=["mcr", "botzone"], default="mcr", help="the rule profile")
    p.add_argument("--episode", choices=["hand", "match"], default="hand",
                   help="a deal is one hand, or a 16-hand match")
    p.add_argument("--rotations", choices=["cyclic", "all"], default="cyclic",
                   help="four mode: 4 cyclic rotations or all 24 seatings per deal")
    p.add_argument("--out", required=True, metavar="DIR", help="the run's folder")
    p.add_argument("--workers", type=int, default=1, help="worker processes (or Ray tasks)")
    p.add_argument("--backend", choices=["process", "ray"], default="process",
                   help="where the workers run")
    p.add_argument("--ray-address", default=None, metavar="ADDR",
                   help="a Ray cluster's address (a local Ray when not given)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from mjenv.arena import ArenaConfig, run_arena
    from mjenv.arena.runner import print_table

    config = ArenaConfig(agents=tuple(args.agents), mode=args.mode, deals=args.deals,
                         seed=args.seed, rules=args.rules, episode=args.episode,
                         rotations=args.rotations)
    results = run_arena(config, args.out, workers=args.workers, backend=args.backend,
                        ray_address=args.ray_address, progress=not args.no_progress)
    print(print_table(results))
    print(f"\nresults, hands and plots in {args.out}")
    return 0

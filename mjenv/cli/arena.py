"""``mjenv arena``: agents compared on duplicate deals, with confidence intervals and plots."""

from __future__ import annotations

import argparse
import sys

from mjenv.cli.common import (
    CommandError,
    Subparsers,
    add_command,
    file_error,
    interrupted,
    local_module_hint,
    seed_arg,
)

EXAMPLES = """examples:
  mjenv arena --agents greedy random --deals 2000 --out runs/greedy-vs-random
  mjenv arena --mode four --agents rule greedy random "random seed=7" --rotations all \\
      --deals 500 --out runs/four --workers 2
  mjenv arena --agents rule greedy --deals 2000 --backend ray --out runs/ray
  mjenv arena --agents rule greedy --deals 500 --records won --out runs/won
  mjenv view runs/won/records --out runs/won/records/index.html   # watch them

--records keeps game records in OUT/records/ (deal-DDDD-seating-SS.json, the deal and
seating of hands.csv's rows): all, won (a hand was won), penalized, sample:N (every seating
of the first N deals) or a comma-separated union (won,penalized); 10-15 kB per hand.

Re-running the same command resumes the run in --out (also after Ctrl-C, exit status 130,
or kill); a different configuration there is refused, and so is a folder with files of
another program. Output: results.json, hands.csv, manifest.json, PNG plots, errors.log when
an agent was penalized (docs/arena.md). A custom agent in the current folder
(--agents mymod:MyAgent with ./mymod.py) needs PYTHONPATH=. (or python -m mjenv).
"""
RESUME = "re-run the same command to resume"


def records_arg(text: str) -> str:
    """A ``--records`` value, checked now (a usage error, before any agent is built)."""
    from mjenv.arena.records import parse_records

    try:
        return str(parse_records(text))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


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
    p.add_argument("--deals", type=int, default=100, metavar="N",
                   help="the number of duplicate deals")
    p.add_argument("--seed", type=seed_arg, default=0, help="the seed of the deal stream")
    p.add_argument("--rules", choices=["mcr", "botzone"], default="mcr", help="the rule profile")
    p.add_argument("--episode", choices=["hand", "match"], default="hand",
                   help="a deal is one hand, or a 16-hand match")
    p.add_argument("--rotations", choices=["cyclic", "all"], default="cyclic",
                   help="four mode: 4 cyclic rotations or all 24 seatings per deal")
    p.add_argument("--out", required=True, metavar="DIR", help="the run's folder")
    p.add_argument("--workers", type=int, default=1, metavar="N",
                   help="worker processes (or Ray tasks); 1 plays in this process")
    p.add_argument("--backend", choices=["process", "ray"], default="process",
                   help="where the workers run")
    p.add_argument("--ray-address", default=None, metavar="ADDR",
                   help="a Ray cluster's address (a local Ray when not given)")
    p.add_argument("--records", type=records_arg, default=None, metavar="WHICH",
                   help="keep game records in OUT/records: all, won, penalized, sample:N "
                   "(the first N deals), or a comma-separated union (none when not given)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Play the run. This process is the command's own: numerical libraries get one thread
    before any agent imports them (the games played here then run as fast as on a worker),
    and SIGTERM unwinds like Ctrl-C, so the workers are stopped and the status says so."""
    from mjenv.procs import TERMINATED, Terminated, one_thread_env, sigterm_raises

    one_thread_env()
    from mjenv.arena import ArenaConfig, run_arena
    from mjenv.arena.runner import print_table

    try:
        with sigterm_raises():
            config = ArenaConfig(agents=tuple(args.agents), mode=args.mode, deals=args.deals,
                                 seed=args.seed, rules=args.rules, episode=args.episode,
                                 rotations=args.rotations)
            results = run_arena(config, args.out, workers=args.workers, backend=args.backend,
                                ray_address=args.ray_address, progress=not args.no_progress,
                                records=args.records)
    except KeyboardInterrupt:
        return interrupted("arena", RESUME)
    except Terminated:
        sys.stderr.write(f"mjenv arena: terminated; {RESUME}\n")
        return TERMINATED
    except OSError as exc:
        raise file_error(exc) from None
    except ValueError as exc:
        raise CommandError(f"{exc}{local_module_hint(args.agents)}") from None
    print(print_table(results))
    print(f"\nresults, hands and plots in {args.out}")
    if args.records:
        from pathlib import Path

        folder = Path(args.out) / "records"
        count = len(list(folder.glob("deal-*.json"))) if folder.is_dir() else 0
        if count:
            print(f"{count} game record(s) in {folder}; to watch them: mjenv view {folder} "
                  f"--out {folder / 'index.html'}")
        else:
            print(f"no game record: --records {args.records} selected none of the games")
    return 0

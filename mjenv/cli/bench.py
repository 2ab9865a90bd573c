"""``mjenv bench``: how fast a batch of games plays on this machine, by its size."""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from pathlib import Path
from typing import Any

from mjenv.cli.common import (
    CommandError,
    Subparsers,
    add_command,
    file_error,
    interrupted,
    seed_arg,
)

SIZES = (16, 64, 256, 1024)
PIN: dict[str, bool | str] = {"auto": "auto", "on": True, "off": False}
"""``--pin``'s choices, as ``pin_workers``."""
MAX_SIZE = 65_536
"""The largest batch a size may ask for (a game holds about 50 KB: 3 GB at this size)."""

EXAMPLES = """\
examples:
  mjenv bench                                  # N = 16, 64, 256 and 1,024 in one process
  mjenv bench --sizes 64,512 --workers 2       # the same batches split over 2 workers
  mjenv bench --encoder mjenv-v1+shanten --dtype uint8 --json bench.json

Each pass plays random legal actions in VectorMahjongEnv(N, ...) for at least --decisions
decisions and 120 steps (every game ends a hand and is dealt the next one while timed), after
30 untimed steps; the sizes are timed in turn, --rounds times, and the table gives medians
(min-max over the rounds). A step visits every game once, so once the games' state outgrows
the CPU's caches every decision pays for it: the fastest size is the machine's, which is why
it is measured here (docs/vector.md, "Choosing N"). Run it alone on the machine.
"""


def sizes_arg(text: str) -> list[int]:
    """Batch sizes, comma-separated, each 1..MAX_SIZE, in increasing order."""
    try:
        sizes = sorted({int(x) for x in text.split(",")})
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected batch sizes separated by commas, like 16,64,256; got {text!r}") from None
    if not sizes or sizes[0] < 1 or sizes[-1] > MAX_SIZE:
        raise argparse.ArgumentTypeError(f"each size must be 1..{MAX_SIZE:,}, got {text!r}")
    return sizes


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def add_parser(subparsers: Subparsers) -> None:
    p = add_command(
        subparsers, "bench",
        help="how fast a batch of games (mjenv.vector) plays here, by its size",
        description="Time VectorMahjongEnv at several batch sizes on this machine (random\n"
        "legal actions) and name the fastest: decisions a second and microseconds a decision.",
        epilog=EXAMPLES,
    )
    p.add_argument("--sizes", type=sizes_arg, default=",".join(map(str, SIZES)),
                   metavar="N,N,...",
                   help="batch sizes (games), comma-separated")
    p.add_argument("--encoder", default="mjenv-v1", help="the observation encoder")
    p.add_argument("--dtype", choices=("float32", "uint8"), default="float32",
                   help="observation_dtype: float32 rows, or the encoder's uint8 counts")
    p.add_argument("--workers", type=int, default=0,
                   help="worker processes (num_workers; 0: this process)")
    p.add_argument("--pin", choices=tuple(PIN), nargs="?", const="on", default="auto",
                   help="keep each worker to a CPU of its own (pin_workers; Linux): auto "
                   "where the workers spread evenly over the CPUs, on (--pin alone) or off")
    p.add_argument("--rules", choices=("mcr", "botzone"), default="mcr", help="rule profile")
    p.add_argument("--decisions", type=positive_int, default=20_000,
                   help="decisions a pass at least")
    p.add_argument("--rounds", type=positive_int, default=3, help="passes of every size")
    p.add_argument("--seed", type=seed_arg, default=0,
                   help="the games' seed (the same each pass)")
    p.add_argument("--json", metavar="OUT", help="also write the results as JSON to OUT")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from mjenv.vector.timing import time_batch

    if args.workers < 0 or args.workers > args.sizes[0]:
        raise CommandError(f"--workers must be 0..{args.sizes[0]} (the smallest size), "
                           f"got {args.workers}")
    if args.json:  # checked before minutes of timing, not after
        out = Path(args.json)
        if out.is_dir() or not out.parent.is_dir():
            raise CommandError(f"--json {args.json}: give a file name in an existing folder")
    options = {"encoder": args.encoder, "rules": args.rules, "num_workers": args.workers,
               "pin_workers": PIN[args.pin], "observation_dtype": args.dtype}
    times: dict[int, list[float]] = {n: [] for n in args.sizes}
    arrays: dict[int, int] = {}
    total = len(args.sizes) * args.rounds
    bar: Any = None  # shown once the first pass has run: bad options fail before, in one line
    try:
        for _ in range(args.rounds):
            for n in args.sizes:
                done = time_batch(n, decisions=args.decisions, seed=args.seed,
                                  warmup=30 if n > 1 else 0, **options)
                times[n].append(done.us_per_decision)
                arrays[n] = done.bytes_per_game
                if bar is None and not args.no_progress:
                    bar = _progress(total)
                if bar is not None:
                    bar.update(1)
    except KeyboardInterrupt:
        return interrupted("bench")
    finally:
        if bar is not None:
            bar.close()
    print(_report(args, times, arrays))
    if args.json:
        _write_json(args, times, arrays)
    return 0


def _progress(total: int) -> Any:
    """A bar on stderr counting the passes (tqdm, a dependency; none if it will not import)."""
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm(total=total, unit="pass", file=sys.stderr, dynamic_ncols=True, leave=False)


def _fastest(times: dict[int, list[float]]) -> int:
    return min(times, key=lambda n: statistics.median(times[n]))


def _report(args: argparse.Namespace, times: dict[int, list[float]],
            arrays: dict[int, int]) -> str:
    where = _workers_phrase(args) if args.workers else "one process"
    lines = [f"VectorMahjongEnv, {args.encoder}, {args.dtype}, {args.rules}, {where}; "
             f"{args.rounds} round{'s' if args.rounds > 1 else ''}, medians (min-max)",
             _build_line(), "",
             f"{'N':>7}  {'µs a decision':>20}  {'decisions/s':>12}  {'arrays a game':>14}"]
    for n, t in times.items():
        med = statistics.median(t)
        spread = f"{med:.1f} ({min(t):.1f}-{max(t):.1f})"
        lines.append(f"{n:>7,}  {spread:>20}  {1e6 / med:>12,.0f}  "
                     f"{arrays[n] / 1024:>10.1f} KiB")
    best = _fastest(times)
    lines += ["", f"fastest here: N = {best:,}, {statistics.median(times[best]):.1f} µs a "
              f"decision ({1e6 / statistics.median(times[best]):,.0f} decisions a second"
              f"{'' if args.workers else ' on one core'})"]
    return "\n".join(lines)


def _worker_cpus(args: argparse.Namespace) -> list[int] | None:
    """The CPU each worker is kept to (the sizes are at least --workers, so every size has
    that many shards), None where the scheduler places them."""
    from mjenv.vector.workers import pinned_cpus

    return pinned_cpus(PIN[args.pin], args.workers) if args.workers else None


def _workers_phrase(args: argparse.Namespace) -> str:
    cpus = _worker_cpus(args)
    kept = (f"each kept to a CPU ({', '.join(map(str, cpus))})" if cpus
            else "placed by the scheduler")
    return f"{args.workers} worker processes, {kept}"


def _build_line() -> str:
    from mjenv.vector.timing import build_info

    build = build_info()
    if not build["compiled"]:
        return ("build: plain Python (no C compiler at install?): several times slower than "
                "the compiled build")
    helpers = {"prefetch": "prefetch", "c_rows": "one-pass rows"}
    have = [name for key, name in helpers.items() if build[key]]
    missing = [name for key, name in helpers.items() if not build[key]]
    return ("build: compiled (mypyc)" + (f", with the C {' and '.join(have)}" if have else "")
            + (f"; without the C {' and '.join(missing)}" if missing else ""))


def _write_json(args: argparse.Namespace, times: dict[int, list[float]],
                arrays: dict[int, int]) -> None:
    from mjenv.vector.timing import build_info

    result = {"format": "mjenv-bench", "version": 1,
              "options": {"encoder": args.encoder, "dtype": args.dtype, "rules": args.rules,
                          "workers": args.workers, "pin": args.pin,
                          "worker_cpus": _worker_cpus(args),
                          "decisions": args.decisions, "rounds": args.rounds,
                          "seed": args.seed},
              "cpus": os.cpu_count(), "build": build_info(),
              "sizes": [{"num_envs": n, "us_per_decision": t,
                         "median_us_per_decision": statistics.median(t),
                         "array_bytes_per_game": arrays[n]} for n, t in times.items()],
              "fastest": _fastest(times)}
    try:
        Path(args.json).write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    except OSError as exc:
        raise file_error(exc) from None
    print(f"wrote {args.json}")

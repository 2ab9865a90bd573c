"""Arena throughput: hands per second with random, greedy and rule-based agents, on one
process, on worker processes and on Ray.

    python scripts/bench_arena.py [--deals N] [--workers 2] [--ray] [--write-docs]

Each measurement runs a fresh 1-vs-3 arena (``agent`` against three copies of itself) into a
temporary folder, without plots or the progress bar, and reports hands per second of wall time
(a hand = one game of the schedule in the ``hand`` episode; 4 games per deal). Ray's start-up
is included in its time. ``--write-docs`` rewrites the section between the bench_arena markers
of docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import benchkit

from mjenv.arena import ArenaConfig
from mjenv.arena.runner import chunks_of, game_stream

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs" / "benchmarks.md"
BEGIN = "<!-- bench_arena.py: begin (written by scripts/bench_arena.py --write-docs) -->"
END = "<!-- bench_arena.py: end -->"


def measure(agent: str, deals: int, workers: int, backend: str) -> float:
    """Hands per second of a run of ``deals`` duplicate deals (no output written)."""
    config = ArenaConfig(agents=(agent, agent), deals=deals, seed=0)
    tasks = config.tasks()
    chunks = chunks_of(tasks, 2 * len(config.seatings()))
    start = time.perf_counter()
    games = sum(len(batch) for batch in game_stream(config, chunks, workers, backend))
    return games / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=50)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--agents", nargs="+", default=["random", "greedy", "rule"])
    parser.add_argument("--ray", action="store_true", help="also measure the Ray backend")
    parser.add_argument("--write-docs", action="store_true")
    args = parser.parse_args(argv)
    rows = []
    for agent in args.agents:
        one = measure(agent, args.deals, 1, "process")
        many = measure(agent, args.deals, args.workers, "process")
        ray = measure(agent, args.deals, args.workers, "ray") if args.ray else None
        rows.append((agent, one, many, ray))
        print(f"{agent:<8} 1 process {one:7.1f} hands/s   {args.workers} workers {many:7.1f}"
              + (f"   ray x{args.workers} {ray:7.1f}" if ray is not None else ""))
    if args.write_docs:
        head = (f"| agents (1-vs-3, all four the same) | 1 process | {args.workers} worker "
                f"processes |" + (f" Ray, {args.workers} workers |" if args.ray else ""))
        sep = "|---|---:|---:|" + ("---:|" if args.ray else "")
        lines = [BEGIN, "", "## Arena throughput", "",
                 f"`python scripts/bench_arena.py --deals {args.deals} --workers {args.workers}"
                 f"{' --ray' if args.ray else ''} --write-docs` on this {os.cpu_count()}-core "
                 f"machine: hands per second of wall time ({args.deals} duplicate deals = "
                 f"{4 * args.deals} hands per measurement; Ray's start-up included).", "",
                 head, sep]
        for agent, one, many, ray in rows:
            lines.append(f"| `{agent}` | {one:.1f} | {many:.1f} |"
                         + (f" {ray:.1f} |" if ray is not None else ""))
        lines += ["", END]
        section = "\n".join(lines) + "\n"
        benchkit.write_marked_section(DOCS, section, BEGIN, END)
        print(f"wrote {DOCS}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Arena throughput: hands per second with random, greedy and rule-based agents, on one
process, on worker processes and on Ray; and the torch threads of a policy played in the
arena's own process.

    python scripts/bench_arena.py [--deals N] [--workers 2] [--ray] [--write-docs]
    python scripts/bench_arena.py --policy-threads [--checkpoint PATH] [--deals 20] [--rounds 3]

Each measurement runs a fresh 1-vs-3 arena (``agent`` against three copies of itself) into a
temporary folder, without plots or the progress bar, and reports hands per second of wall time
(a hand = one game of the schedule in the ``hand`` episode; 4 games per deal). Ray's start-up
is included in its time. ``--write-docs`` rewrites the section between the bench_arena markers
of docs/benchmarks.md.

``--policy-threads`` times the README's evaluation command, ``mjenv arena --agents
policy:PATH greedy`` (one process, the default), as a child process: with the environment as
it is, with ``OMP_NUM_THREADS=1``, and with ``OMP_NUM_THREADS`` = the cores (what torch took
before the command pinned it). It prints the median wall time of ``--rounds`` rounds of each
(in turn, so drifts of the machine spread evenly) and the ratio default / one thread, which
should stay within 1.2 (one-row forward passes gain nothing from more threads). Without
``--checkpoint`` it saves a randomly initialised network (the policy module's defaults).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
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


THREAD_TARGET = 1.2
"""The default command may take at most this much longer than with OMP_NUM_THREADS=1."""


def random_checkpoint(path: Path) -> Path:
    """A randomly initialised policy network (the policy module's default shape, torch's
    seed 0) saved at ``path``; needs the train extra (torch)."""
    import importlib

    import torch

    policy = importlib.import_module("mjenv_agents.policy")  # the training stack, by name

    torch.manual_seed(0)
    policy.save_checkpoint(path, policy.PolicyNet(policy.PolicyConfig()))
    return path


def time_command(command: list[str], env: dict[str, str]) -> float:
    """Wall seconds of ``command`` (which must succeed)."""
    start = time.perf_counter()
    subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def policy_threads(checkpoint: Path | None, deals: int, rounds: int) -> dict[str, float]:
    """Median seconds of the policy arena per thread setting (see the module docstring)."""
    base = {k: v for k, v in os.environ.items()
            if k not in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS")}
    cores = str(os.cpu_count() or 1)
    variants = {"default": base, "OMP_NUM_THREADS=1": {**base, "OMP_NUM_THREADS": "1"},
                f"OMP_NUM_THREADS={cores} (before)": {**base, "OMP_NUM_THREADS": cores,
                                                       "MKL_NUM_THREADS": cores}}
    times: dict[str, list[float]] = {name: [] for name in variants}
    with tempfile.TemporaryDirectory() as tmp:
        path = checkpoint or random_checkpoint(Path(tmp) / "random.pt")
        for r in range(rounds):
            for name, env in variants.items():
                out = Path(tmp) / f"{r}-{len(times[name])}-{name.split()[0]}"
                command = [sys.executable, "-m", "mjenv", "arena", "--agents",
                           f"policy:{path}", "greedy", "--deals", str(deals), "--out",
                           str(out), "--no-progress"]
                times[name].append(time_command(command, env))
    return {name: statistics.median(t) for name, t in times.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=50)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--agents", nargs="+", default=["random", "greedy", "rule"])
    parser.add_argument("--ray", action="store_true", help="also measure the Ray backend")
    parser.add_argument("--write-docs", action="store_true")
    parser.add_argument("--policy-threads", action="store_true",
                        help="time the policy arena with and without OMP_NUM_THREADS=1")
    parser.add_argument("--checkpoint", type=Path, default=None,
                        help="--policy-threads: the policy (a random network when not given)")
    parser.add_argument("--rounds", type=int, default=3, help="--policy-threads: rounds")
    args = parser.parse_args(argv)
    if args.policy_threads:
        medians = policy_threads(args.checkpoint, args.deals, args.rounds)
        for name, seconds in medians.items():
            print(f"{name:<28} {seconds:7.2f} s (median of {args.rounds})")
        ratio = medians["default"] / medians["OMP_NUM_THREADS=1"]
        print(f"default / one thread: {ratio:.2f} (target <= {THREAD_TARGET}) on "
              f"{os.cpu_count()} cores")
        return 0 if ratio <= THREAD_TARGET else 1
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

"""Torch threads of a policy played in a command's own process: ``mjenv arena`` (the README's
policy example), ``mjenv play`` and ``mjenv botzone-bot``, each timed as it runs by default,
with ``OMP_NUM_THREADS=1``, and with one thread per core (what torch takes when nothing pins
it).

    python scripts/bench_arena_threads.py [--checkpoint PATH] [--deals 10] [--rounds 3]
                                          [--only arena play botzone-bot] [--write-docs]

Why: a policy's forward passes are one observation at a time, which torch's intra-op threads
do not speed up; on many cores they slow it down 2-3x (issue 14). The commands set
``OMP_NUM_THREADS`` (and MKL's, OpenBLAS's) to 1 before an agent imports torch
(``mjenv.procs.one_thread_env``), unless the user set them. The target: the default within 1.2x
of ``OMP_NUM_THREADS=1``. The third column sets the variables to the number of cores, which
``play`` and ``botzone-bot`` honour as a user's choice: what their default was before they
pinned torch. The arena's own process also holds torch to one thread while it plays
(``mjenv.procs.torch_threads``), so there the column changes little.

What runs, each as a child process, the same input in every variant:

arena        ``mjenv arena --agents policy:PATH greedy --deals D --no-progress`` (the README's
             ``policy:runs/demo/ppo/final.pt greedy`` evaluation, fewer deals), one process
play         ``mjenv play --opponents policy:PATH --seed 1 --codes``: three policy opponents;
             the person answers "1" (the first move listed), then "y" (read by "play again?",
             refused by a move prompt), about ten hands until the input ends
botzone-bot  ``mjenv botzone-bot --agent policy:PATH --keep-running``: seat 0's requests of a
             game four bots of the same policy played here, one line each

Without ``--checkpoint`` a randomly initialised network of the demo config's shape (its
``[bc]`` channels, blocks and features: what ``make demo`` trains) is saved and played: the
cost of a forward pass depends on the shape, not on the weights. The variants of a round run
in turn, so drifts of a busy machine spread over all of them; the medians of ``--rounds``
rounds are printed, and with ``--write-docs`` written to docs/benchmarks.md. Exit status 1
when a command's default exceeds the target.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs" / "benchmarks.md"
BEGIN = ("<!-- bench_arena_threads.py: begin (written by scripts/bench_arena_threads.py "
         "--write-docs) -->")
END = "<!-- bench_arena_threads.py: end -->"
TARGET = 1.2
"""The default may take at most this much longer than with OMP_NUM_THREADS=1."""
THREAD_VARIABLES = ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS")
COMMANDS = ("arena", "play", "botzone-bot")
PLAY_ANSWERS = 300
"""Pairs of lines "1", "y" given to ``mjenv play``: about ten hands, then end of input."""


def demo_checkpoint(path: Path) -> Path:
    """A random network of the demo config's shape (torch's seed 0), saved at ``path``."""
    import importlib
    import tomllib

    import torch

    from mjenv.plugins import resolve_config

    policy = importlib.import_module("mjenv_agents.policy")  # the training stack, by name
    bc = tomllib.loads(resolve_config("demo").read_text(encoding="utf-8"))["bc"]
    shape = {k: bc[k] for k in ("channels", "blocks", "features") if k in bc}
    torch.manual_seed(0)
    policy.save_checkpoint(path, policy.PolicyNet(policy.PolicyConfig(**shape)))
    return path


def bot_requests(spec: str, seed: int = 1) -> list[str]:
    """Seat 0's requests of one game that four bots of ``spec`` play with our judge, as the
    keep-running input: the first turn as a JSON history, every later one as a request."""
    import random

    from mjenv.agent import make_agent
    from mjenv.botzone import Judge
    from mjenv.botzone.bot import Bot
    from mjenv.procs import torch_threads
    from mjenv.tiles import CODES

    tiles = [CODES[t] for t in range(34) for _ in range(4)]
    random.Random(seed).shuffle(tiles)
    judge = Judge(" ".join(tiles), quan=0)
    bots = [Bot(make_agent(spec)) for _ in range(4)]
    seat0: list[str] = []
    with torch_threads(1):
        while not judge.is_over:
            turn = judge.requests()
            seat0.append(turn[0])
            judge.respond([bots[s].respond(turn[s]) for s in range(4)])
    return [json.dumps({"requests": [seat0[0]], "responses": []}),
            *(json.dumps({"requests": r}) for r in seat0[1:])]


def command_lines(checkpoint: Path, deals: int, out: Path,
                  bot_input: str) -> dict[str, tuple[list[str], str]]:
    """Each command's argv and standard input (``out``: the arena's folder, fresh per run)."""
    mjenv = [sys.executable, "-m", "mjenv"]
    spec = f"policy:{checkpoint}"
    return {
        "arena": ([*mjenv, "arena", "--agents", spec, "greedy", "--deals", str(deals),
                   "--out", str(out), "--no-progress"], ""),
        "play": ([*mjenv, "play", "--opponents", spec, "--seed", "1", "--codes"],
                 "1\ny\n" * PLAY_ANSWERS),
        "botzone-bot": ([*mjenv, "botzone-bot", "--agent", spec, "--keep-running"], bot_input),
    }


def time_run(argv: list[str], stdin: str, env: dict[str, str]) -> float:
    """Wall seconds of one run (which must succeed)."""
    start = time.perf_counter()
    done = subprocess.run(argv, input=stdin, env=env, capture_output=True, text=True,
                          timeout=900, check=False)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv[2:4])} failed ({done.returncode}): "
                         f"{done.stderr[-500:]}")
    return seconds


def variants() -> dict[str, dict[str, str]]:
    base = {k: v for k, v in os.environ.items() if k not in THREAD_VARIABLES}
    cores = str(os.cpu_count() or 1)
    return {"default": base, "OMP_NUM_THREADS=1": {**base, "OMP_NUM_THREADS": "1"},
            f"OMP_NUM_THREADS={cores}": {**base, **dict.fromkeys(THREAD_VARIABLES, cores)}}


def measure(checkpoint: Path, deals: int, rounds: int, only: list[str], tmp: Path,
            ) -> dict[str, dict[str, float]]:
    """Median seconds per command and variant."""
    bot_input = "\n".join(bot_requests(f"policy:{checkpoint}")) + "\n" \
        if "botzone-bot" in only else ""
    times: dict[str, dict[str, list[float]]] = {c: {v: [] for v in variants()} for c in only}
    for r in range(rounds):
        for name, env in variants().items():
            for command in only:
                out = tmp / f"arena-{r}-{len(times[command][name])}-{name.split()[0]}"
                argv, stdin = command_lines(checkpoint, deals, out, bot_input)[command]
                times[command][name].append(time_run(argv, stdin, env))
                print(f"round {r + 1}/{rounds} {command:<12} {name:<24} "
                      f"{times[command][name][-1]:6.2f} s", file=sys.stderr)
    return {c: {v: statistics.median(t) for v, t in per.items()} for c, per in times.items()}


def table(medians: dict[str, dict[str, float]]) -> list[str]:
    names = list(variants())
    lines = ["| command | " + " | ".join(names) + " | default / one thread | result |",
             "|---|" + "---:|" * (len(names) + 1) + "---|"]
    for command, row in medians.items():
        ratio = row["default"] / row["OMP_NUM_THREADS=1"]
        lines.append(f"| {command} | " + " | ".join(f"{row[n]:.2f} s" for n in names)
                     + f" | {ratio:.2f} | {'pass' if ratio <= TARGET else 'FAIL'} |")
    return lines


def write_docs(lines: list[str], args: argparse.Namespace, checkpoint: str) -> None:
    import numpy
    import torch

    text = DOCS.read_text(encoding="utf-8")
    section = [BEGIN, "", "## Policy threads in a command's own process", "",
               f"`python scripts/bench_arena_threads.py --deals {args.deals} --rounds "
               f"{args.rounds} --write-docs` (the target: the default within {TARGET}x of "
               "`OMP_NUM_THREADS=1`, issue 14; the commands and their input are in the "
               "script's docstring). Median wall seconds of "
               f"{args.rounds} rounds, each a fresh child process (start-up and torch's import "
               f"included), {checkpoint}.", "",
               f"Machine: {os.cpu_count()} cores, {platform.platform()}; Python "
               f"{platform.python_version()}, torch {torch.__version__}, numpy "
               f"{numpy.__version__}; {time.strftime('%Y-%m-%d')}. A machine shared with other "
               "jobs: the columns ran in turn within each round, so load falls on all of "
               "them. The last column is what the default was before the commands pinned "
               "torch (the arena's games were already held to one thread); the more cores, the "
               "larger its cost (issue 14 saw 2.3-3x), so measure on the machine that "
               "matters.", "", *lines, "", END]
    if BEGIN in text:
        head, rest = text.split(BEGIN, 1)
        text = head + "\n".join(section) + rest.split(END, 1)[1]
    else:
        text = text.rstrip("\n") + "\n\n" + "\n".join(section) + "\n"
    DOCS.write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--checkpoint", type=Path, default=None,
                        help="the policy (a random network of the demo's shape when not given)")
    parser.add_argument("--deals", type=int, default=10, help="the arena's deals")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of every variant")
    parser.add_argument("--only", nargs="+", choices=COMMANDS, default=list(COMMANDS),
                        help="the commands to time")
    parser.add_argument("--write-docs", action="store_true",
                        help="write the table to docs/benchmarks.md")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="mjenv-threads-") as name:
        tmp = Path(name)
        checkpoint = args.checkpoint or demo_checkpoint(tmp / "demo-shape.pt")
        medians = measure(checkpoint, args.deals, args.rounds, args.only, tmp)
    lines = table(medians)
    print("\n".join(lines))
    print(f"(target: default / one thread <= {TARGET}; {os.cpu_count()} cores)")
    if args.write_docs:
        what = (f"checkpoint {args.checkpoint}" if args.checkpoint else
                "a random network of the demo config's shape")
        write_docs(lines, args, what)
    worst: Any = max(row["default"] / row["OMP_NUM_THREADS=1"] for row in medians.values())
    return 0 if worst <= TARGET else 1


if __name__ == "__main__":
    raise SystemExit(main())

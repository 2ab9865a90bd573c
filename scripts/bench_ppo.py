"""Benchmark PPO's training throughput: learner decisions per second, end to end (collection and
update), of ``configs/long.toml``'s ``[ppo]`` stage, in one process and with rollout workers.

    python scripts/bench_ppo.py [--updates 8] [--workers 1 2] [--init CKPT] [--set KEY=VALUE ...]
    python scripts/bench_ppo.py --full [--workers 1 2] [--init CKPT] [--set KEY=VALUE ...]

``--set`` passes PPO settings to every run on top of the config (``--set update_threads=1``:
the update on one thread, as before ``update_threads`` existed).

Issue 15 asks for this figure "before and after" a change. It times ``mjenv_agents.train.ppo``
itself, with long.toml's settings, for ``--updates`` updates. The learning-curve evaluation is
cut to one deal, and only the interval between the first and the last update's log rows is
counted, so start-up and that evaluation are left out. The logged
``time/learner_decisions_per_second`` times the update alone, so it is not this figure.

A short slice is not the whole stage: before update ``pool_interval`` (15) there are no pool
snapshots, so the stage's pool hands (a fifth of them: one learner seat, three snapshot seats
whose decisions cost forward passes and features but train nothing) are played as self-play
hands (four learner seats), and the learning-curve evaluations are cut. ``--full`` runs the
stage exactly as long.toml has it (150 updates, the evaluation every 30 updates on 60 deals
with 2 arena workers, checkpoints) and divides its learner decisions by the wall time of the
whole run, start-up included: the figure the issue's "about 290 learner decisions/s" was (the
long run's 614,400 learner decisions in 35 minutes).

The network starts from ``--init``, a checkpoint of long.toml's shape (32 channels, 2 blocks,
``shanten-v1``). Without one, a short cloning run (100 hands of ``rule``, one epoch) makes it;
the weights barely change the speed. To measure "before", run a copy of this script from a
worktree of the older code, with that code first on the import path and the same ``--init``:
``git worktree add /tmp/old REV``, its compiled modules built there (``python setup.py
build_ext --inplace``), a folder holding a link ``mjenv_agents -> /tmp/old/agents``, and
``PYTHONPATH=FOLDER:/tmp/old``. The runs are subprocesses started in the script's repository
(``python -c`` puts that folder first on their import path), so a run from this repository
would import this ``mjenv`` whatever ``PYTHONPATH`` says. docs/benchmarks.md has the commands.
"""

from __future__ import annotations

import argparse
import csv
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def ppo_config(init: Path, updates: int | None) -> str:
    """long.toml's ``[ppo]`` table as a flat PPO config from ``init``: with ``updates``, that
    many updates and the learning-curve evaluation cut to one deal in this process; with None,
    the stage as long.toml has it."""
    text = (ROOT / "configs" / "long.toml").read_text(encoding="utf-8")
    table = text[text.index("[ppo]"):text.index("[evaluate]")].split("\n", 1)[1]
    if updates is not None:
        for key, value in (("updates", str(updates)), ("eval_interval", "0"),
                           ("eval_deals", "1"), ("eval_workers", "1")):
            table = re.sub(rf"^{key} = .*$", f"{key} = {value}", table, flags=re.M)
    return f'seed = 1\nthreads = 1\ninit = "{init}"\n{table}'


def setting(config: str, key: str) -> int:
    """The integer ``key = N`` of a flat config's text."""
    found = re.search(rf"^{key} = (\d+)", config, re.M)
    if found is None:
        raise ValueError(f"no {key} in the config")
    return int(found.group(1))


def rate(metrics: Path, decisions: int) -> float:
    """Learner decisions per second between the first and the last update's log rows."""
    with metrics.open(encoding="utf-8") as f:
        times = [float(row["time"]) for row in csv.DictReader(f)]
    return decisions * (len(times) - 1) / (times[-1] - times[0])


def run(args: list[str]) -> float:
    """``python -m MODULE ARGS...`` tied to this process (mjenv.procs.die_with_parent: it ends
    with this script, ``kill -9`` included)."""
    module, *rest = args
    code = ("import runpy, sys\nfrom mjenv.procs import die_with_parent\n"
            f"die_with_parent({os.getpid()})\nsys.argv = {[module, *rest]!r}\n"
            f"runpy.run_module({module!r}, run_name='__main__', alter_sys=True)")
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--updates", type=int, default=8, help="PPO updates per run (at least 2)")
    p.add_argument("--workers", type=int, nargs="+", default=[1, 2],
                   help="rollout_workers of each run (games per worker: 64 / workers)")
    p.add_argument("--init", type=Path, default=None, help="the starting checkpoint")
    p.add_argument("--full", action="store_true",
                   help="the whole stage as long.toml has it (evaluations included), timed "
                        "from start to end (--updates is ignored)")
    p.add_argument("--set", nargs="+", default=[], metavar="KEY=VALUE",
                   help="PPO settings for every run, on top of the config")
    args = p.parse_args(argv)
    if args.updates < 2 or min(args.workers) < 1:
        p.error("--updates must be at least 2 and --workers positive")
    if any("=" not in item for item in args.set):
        p.error("--set takes KEY=VALUE items")
    with tempfile.TemporaryDirectory(prefix="bench-ppo-") as tmp:
        work = Path(tmp)
        init = args.init
        if init is None:
            init = work / "bc" / "final.pt"
            print("cloning rule for the starting network (100 hands)", file=sys.stderr)
            run(["mjenv_agents.train.bc", "--config", "bc_smoke", "--out", str(init.parent),
                 "hands=100", "channels=32", "blocks=2", 'features="shanten-v1"', "epochs=1",
                 "workers=2", "threads=1", "checkpoint_interval=100000"])
        config = work / "ppo.toml"
        text = ppo_config(init.resolve(), None if args.full else args.updates)
        config.write_text(text, encoding="utf-8")
        decisions, updates = setting(text, "decisions_per_update"), setting(text, "updates")
        print(f"long.toml's PPO stage, {updates} updates of {decisions} learner decisions"
              + (" (the whole stage, timed from start to end)" if args.full else ""))
        for workers in args.workers:
            out = work / f"ppo-{workers}"
            seconds = run(["mjenv_agents.train.ppo", "--config", str(config), "--out", str(out),
                           f"rollout_workers={workers}", f"games={64 // workers}", *args.set])
            per_second = (updates * decisions / seconds if args.full
                          else rate(out / "metrics.csv", decisions))
            print(f"rollout_workers = {workers}: {per_second:,.0f} learner decisions/s"
                  + (f" ({seconds:,.0f} s)" if args.full else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())

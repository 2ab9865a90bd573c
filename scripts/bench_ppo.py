"""Benchmark PPO's training throughput: learner decisions per second, end to end (collection and
update), of ``configs/long.toml``'s ``[ppo]`` stage, in one process and with rollout workers.

    python scripts/bench_ppo.py [--updates 8] [--workers 1 2] [--init CKPT]

Issue 15 asks for this figure "before and after" a change. It times ``mjenv_agents.train.ppo``
itself, with long.toml's settings, for ``--updates`` updates. The learning-curve evaluation is
cut to one deal, and only the interval between the first and the last update's log rows is
counted, so start-up and that evaluation are left out. The logged
``time/learner_decisions_per_second`` times the update alone, so it is not this figure.

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
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def ppo_config(init: Path, updates: int) -> str:
    """long.toml's ``[ppo]`` table as a flat PPO config: ``updates`` updates from ``init``, the
    learning-curve evaluation cut to one deal in this process."""
    text = (ROOT / "configs" / "long.toml").read_text(encoding="utf-8")
    table = text[text.index("[ppo]"):text.index("[evaluate]")].split("\n", 1)[1]
    for key, value in (("updates", str(updates)), ("eval_interval", "0"), ("eval_deals", "1"),
                       ("eval_workers", "1")):
        table = re.sub(rf"^{key} = .*$", f"{key} = {value}", table, flags=re.M)
    return f'seed = 1\nthreads = 1\ninit = "{init}"\n{table}'


def rate(metrics: Path, decisions: int) -> float:
    """Learner decisions per second between the first and the last update's log rows."""
    with metrics.open(encoding="utf-8") as f:
        times = [float(row["time"]) for row in csv.DictReader(f)]
    return decisions * (len(times) - 1) / (times[-1] - times[0])


def run(args: list[str]) -> None:
    """``python -m MODULE ARGS...`` tied to this process (mjenv.procs.die_with_parent: it ends
    with this script, ``kill -9`` included)."""
    module, *rest = args
    code = ("import runpy, sys\nfrom mjenv.procs import die_with_parent\n"
            f"die_with_parent({os.getpid()})\nsys.argv = {[module, *rest]!r}\n"
            f"runpy.run_module({module!r}, run_name='__main__', alter_sys=True)")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT, stdout=subprocess.DEVNULL)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--updates", type=int, default=8, help="PPO updates per run (at least 2)")
    p.add_argument("--workers", type=int, nargs="+", default=[1, 2],
                   help="rollout_workers of each run (games per worker: 64 / workers)")
    p.add_argument("--init", type=Path, default=None, help="the starting checkpoint")
    args = p.parse_args(argv)
    if args.updates < 2 or min(args.workers) < 1:
        p.error("--updates must be at least 2 and --workers positive")
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
        config.write_text(ppo_config(init.resolve(), args.updates), encoding="utf-8")
        decisions = int(re.search(r"^decisions_per_update = (\d+)", config.read_text(),
                                  re.M).group(1))  # type: ignore[union-attr]
        print(f"long.toml's PPO stage, {args.updates} updates of {decisions} learner decisions")
        for workers in args.workers:
            out = work / f"ppo-{workers}"
            run(["mjenv_agents.train.ppo", "--config", str(config), "--out", str(out),
                 f"rollout_workers={workers}", f"games={64 // workers}"])
            print(f"rollout_workers = {workers}: "
                  f"{rate(out / 'metrics.csv', decisions):,.0f} learner decisions/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())

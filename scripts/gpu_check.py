"""The PPO learner on the GPU against the CPU: a short PPO stage on each device, with the
learner's decisions per second and the wall times (issue 18, point 4).

    python3 scripts/gpu_check.py               # a few minutes (estimate: 3 on 16 cores + a GPU)
    python3 scripts/gpu_check.py --quick       # seconds: a smoke run of the script itself
    python3 scripts/gpu_check.py --json result.json

For each device (``cpu``, then ``cuda`` when torch sees a GPU) and each network size (the
shipped configs' 32 channels x 2 blocks, and a larger 128 x 6), it runs

* a short PPO stage, ``mjenv_agents.train.ppo.train`` itself: self-play, the rollout in this
  process (its inference batched over ``games`` hands, on the learner's device), a few
  updates; reported: the stage's wall time, the rollout's decisions/s and the learner's
  decisions/s (``time/learner_decisions_per_second``: rows through forward and backward per
  second of the update), each averaged over the updates after the first (warm-up);
* the learner alone: ``ppo_update`` on a fixed batch of real observations, timed after a
  warm-up, so the number says what the device does for the update without the rollout.

It installs nothing. It needs what ``pip install -e '.[train]'`` gives: torch, numpy,
gymnasium, pettingzoo (matplotlib and tensorboard are optional). Note that torch from PyPI for
Linux x86-64 is a CUDA build (the Makefile pins the CPU wheel 2.13.0 for the development
machines); a machine's own CUDA torch (another version, e.g. 2.11) works as well: the code
uses nothing newer. Without the package installed (a GPU machine with no network), it runs
from this checkout: ``mjenv`` from the repository root and ``agents/`` as ``mjenv_agents``
through a temporary shim (with the agent entry points of pyproject.toml, so specs such as
``greedy`` resolve). Missing pure-Python wheels can be carried and put on the path first::

    python3 -m pip install -q --no-index --no-deps --target /tmp/site runs/gpu-wheels/*.whl
    PYTHONPATH=/tmp/site python3 scripts/gpu_check.py --json $OUT/gpu_check.json

Results are reproducible from the seeds on each device; CPU and CUDA differ in the last bits
of the floating point (different kernels), so the two runs play differently after the first
update: compare their speeds, not their metrics.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import platform
import statistics
import sys
import tempfile
import time
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def _shim(force: bool = False) -> None:
    """Make ``mjenv_agents`` importable from this checkout when it is not installed (or
    ``force``): a temporary folder holding a link ``mjenv_agents -> agents/`` and a dist-info
    with the agent entry points, put on ``sys.path`` with the repository root."""
    if not force:
        try:
            import mjenv_agents  # noqa: F401
            return
        except ImportError:
            pass
    folder = Path(tempfile.mkdtemp(prefix="mjenv-gpu-check-"))
    (folder / "mjenv_agents").symlink_to(ROOT / "agents", target_is_directory=True)
    info = folder / "mjenv_gpu_check_shim-0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: mjenv-gpu-check-shim\n"
                                   "Version: 0\n")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    groups = project.get("entry-points", {})
    lines = []
    for group, points in groups.items():
        lines.append(f"[{group}]")
        lines += [f"{name} = {target}" for name, target in points.items()]
    (info / "entry_points.txt").write_text("\n".join(lines) + "\n")
    sys.path[:0] = [str(ROOT), str(folder)]
    print(f"running mjenv_agents from {ROOT} (shim in {folder})")


def _environment() -> dict[str, Any]:
    import torch

    cuda = torch.cuda.is_available()
    return {"python": platform.python_version(), "torch": torch.__version__,
            "torch_cuda": torch.version.cuda, "cuda_available": cuda,
            "gpu": torch.cuda.get_device_name(0) if cuda else None,
            "cpu_threads": torch.get_num_threads(), "cpu_count": os.cpu_count()}


def _stage(device: str, size: tuple[int, int], args: argparse.Namespace,
           out: Path) -> dict[str, Any]:
    """A short PPO stage on ``device``; its wall time and mean speeds (updates after the
    first)."""
    from mjenv_agents.train import ppo

    channels, blocks = size
    run = ppo.Args(seed=1, out=str(out), device=device, threads=0, updates=args.updates,
                   games=args.games, decisions_per_update=args.decisions,
                   minibatch_size=args.minibatch, epochs=args.epochs,
                   channels=channels, blocks=blocks, features="shanten-v1",
                   opponents=("self",), opponent_weights=(1.0,), checkpoint_interval=1000,
                   eval_deals=1, eval_opponent="random", learning_rate=3e-4)
    began = time.perf_counter()
    ppo.train(run)
    wall = time.perf_counter() - began
    with open(out / "metrics.csv", newline="", encoding="utf-8") as fh:
        rows = [r for r in csv.DictReader(fh) if r["ppo/policy_loss"]]
    later = rows[1:] or rows
    return {"wall_s": wall,
            "rollout_decisions_per_s": statistics.mean(
                float(r["time/decisions_per_second"]) for r in later),
            "learner_decisions_per_s": statistics.mean(
                float(r["time/learner_decisions_per_second"]) for r in later)}


def _learner(device: str, size: tuple[int, int], batch: Any, args: argparse.Namespace,
             ) -> dict[str, Any]:
    """``ppo_update`` alone on ``batch`` (real observations): decisions/s after a warm-up."""
    import torch

    from mjenv_agents.policy import PolicyConfig, PolicyNet
    from mjenv_agents.train import ppo

    torch.manual_seed(0)
    channels, blocks = size
    net = PolicyNet(PolicyConfig(channels=channels, blocks=blocks, features="shanten-v1"))
    net.to(torch.device(device))
    optimizer = torch.optim.Adam(net.parameters(), lr=3e-4, eps=1e-5)
    run = ppo.Args(epochs=args.epochs, minibatch_size=args.minibatch)
    generator = torch.Generator().manual_seed(0)
    ppo.ppo_update(net, optimizer, batch, run, generator)  # warm-up: kernels, allocator
    if device.startswith("cuda"):
        torch.cuda.synchronize()
    began = time.perf_counter()
    for _ in range(args.repeats):
        ppo.ppo_update(net, optimizer, batch, run, generator)
    if device.startswith("cuda"):
        torch.cuda.synchronize()
    seconds = time.perf_counter() - began
    rows = len(batch) * args.epochs * args.repeats
    return {"update_s": seconds / args.repeats, "learner_decisions_per_s": rows / seconds,
            "batch": len(batch)}


def _real_batch(size: int) -> Any:
    """``size`` decisions of self-play by a fresh network (the learner's real input)."""
    import torch

    from mjenv_agents.policy import PolicyConfig, PolicyNet
    from mjenv_agents.train import ppo

    torch.manual_seed(0)
    net = PolicyNet(PolicyConfig(channels=8, blocks=1, features="shanten-v1"))
    net.eval()
    rollout = ppo.Rollout(ppo.Args(games=32, decisions_per_update=size, opponents=("self",),
                                   opponent_weights=(1.0,)), net, [], 0)
    batch = rollout.collect()
    return ppo.Batch(*(getattr(batch, f)[:size] for f in
                       ("obs", "mask", "action", "logprob", "value", "advantage", "ret")))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes: check the script")
    parser.add_argument("--updates", type=int, default=3)
    parser.add_argument("--games", type=int, default=64)
    parser.add_argument("--decisions", type=int, default=2048, help="per update")
    parser.add_argument("--minibatch", type=int, default=512)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--repeats", type=int, default=2, help="timed learner-only updates")
    parser.add_argument("--json", type=Path, help="also write the results here")
    parser.add_argument("--from-source", action="store_true",
                        help="import this checkout through the shim even if installed")
    ns = parser.parse_args()
    sizes = [(32, 2), (128, 6)]
    if ns.quick:
        ns.updates, ns.games, ns.decisions, ns.minibatch, ns.epochs, ns.repeats = \
            2, 4, 64, 32, 1, 1
        sizes = [(8, 1)]
    _shim(ns.from_source)
    env = _environment()
    print(json.dumps(env))
    devices = ["cpu"] + (["cuda"] if env["cuda_available"] else [])
    if not env["cuda_available"]:
        why = "built without CUDA" if env["torch_cuda"] is None else "no GPU visible"
        print(f"CUDA: not available ({why}): CPU only")
    results: dict[str, Any] = {"environment": env,
                               "settings": {k: v for k, v in vars(ns).items() if k != "json"},
                               "stage": {}, "learner": {}}
    batch = _real_batch(ns.decisions)
    with tempfile.TemporaryDirectory(prefix="mjenv-gpu-check-runs-") as tmp:
        for size in sizes:
            label = f"{size[0]}x{size[1]}"
            for device in devices:
                stage = _stage(device, size, ns, Path(tmp) / f"{label}-{device}")
                learner = _learner(device, size, batch, ns)
                results["stage"][f"{label}/{device}"] = stage
                results["learner"][f"{label}/{device}"] = learner
                print(f"net {label:>6} on {device:>4}: PPO stage ({ns.updates} updates of "
                      f"{ns.decisions}) {stage['wall_s']:7.1f} s, rollout "
                      f"{stage['rollout_decisions_per_s']:8.0f} decisions/s, learner "
                      f"{stage['learner_decisions_per_s']:9.0f} decisions/s | learner alone "
                      f"{learner['learner_decisions_per_s']:9.0f} decisions/s "
                      f"({learner['update_s']:.2f} s per update of {learner['batch']} x "
                      f"{ns.epochs} epochs)", flush=True)
            if "cuda" in devices:
                cpu, gpu = (results["learner"][f"{label}/{d}"]["learner_decisions_per_s"]
                            for d in ("cpu", "cuda"))
                print(f"net {label:>6}: learner speed-up on the GPU {gpu / cpu:.1f}x")
    if ns.json is not None:
        ns.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

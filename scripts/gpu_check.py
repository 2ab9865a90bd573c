"""The PPO learner on the GPU against the CPU: a short PPO stage on each device, with the
learner's decisions per second and the wall times (issue 18, point 4).

    python3 scripts/gpu_check.py               # about a minute on an H200 with 16 cores
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
  warm-up, so the number says what the device does for the update without the rollout; on the
  GPU with cuDNN's deterministic kernels (what training uses, ``common.learner_device``) and
  with its default choice, alternated over ``--rounds``, so the price of repeatable runs is
  measured (medians);
* repeatability on each device: the same short run twice from the same seeds, its final
  weights and metrics compared exactly (ppo.py says a run is reproducible on its device);
* portability: the GPU run's checkpoint loaded on the CPU and its forward pass compared with
  the GPU's on the same observations.

It installs nothing. It needs what ``pip install -e '.[train]'`` gives: torch, numpy,
gymnasium, pettingzoo (matplotlib and tensorboard are optional). Note that torch from PyPI for
Linux x86-64 is a CUDA build (the Makefile pins the CPU wheel 2.13.0 for the development
machines); a machine's own CUDA torch (another version, e.g. 2.11) works as well: the code
uses nothing newer. Without the package installed (a GPU machine with no network), it runs
from this checkout: ``mjenv`` from the repository root and ``agents/`` as ``mjenv_agents``
through a temporary shim (with the agent entry points of pyproject.toml, so specs such as
``greedy`` resolve). Missing pure-Python wheels (gymnasium, pettingzoo, farama-notifications)
can be carried and put on the path first::

    python3 -m pip install -q --no-index --no-deps --target /tmp/site wheels/*.whl
    PYTHONPATH=/tmp/site python3 scripts/gpu_check.py --json gpu_check.json

The compiled modules load only in the Python they were built for; where the GPU machine's
Python differs, build them for it in a copy of the checkout (``python3.12 setup.py build_ext
--inplace`` with mypy 2.4.1 installed in that Python) and carry that copy, or the rollout runs
as plain Python (slower; the learner's figures do not change). docs/training.md has the H200's
results.

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
             deterministic: bool = True) -> dict[str, Any]:
    """``ppo_update`` alone on ``batch`` (real observations): decisions/s after a warm-up, the
    median of ``--rounds`` timings. ``deterministic``: cuDNN's deterministic kernels, as
    training sets them on a GPU, or its default choice."""
    import torch

    from mjenv_agents.policy import PolicyConfig, PolicyNet
    from mjenv_agents.train import ppo

    torch.backends.cudnn.deterministic = deterministic
    torch.backends.cudnn.benchmark = False
    torch.manual_seed(0)
    channels, blocks = size
    net = PolicyNet(PolicyConfig(channels=channels, blocks=blocks, features="shanten-v1"))
    net.to(torch.device(device))
    optimizer = torch.optim.Adam(net.parameters(), lr=3e-4, eps=1e-5)
    run = ppo.Args(epochs=args.epochs, minibatch_size=args.minibatch)
    generator = torch.Generator().manual_seed(0)
    ppo.ppo_update(net, optimizer, batch, run, generator)  # warm-up: kernels, allocator
    rates = []
    for _ in range(args.rounds):
        if device.startswith("cuda"):
            torch.cuda.synchronize()
        began = time.perf_counter()
        for _ in range(args.repeats):
            ppo.ppo_update(net, optimizer, batch, run, generator)
        if device.startswith("cuda"):
            torch.cuda.synchronize()
        rates.append(len(batch) * args.epochs * args.repeats / (time.perf_counter() - began))
    rate = statistics.median(rates)
    return {"update_s": len(batch) * args.epochs / rate, "learner_decisions_per_s": rate,
            "rounds": rates, "batch": len(batch), "cudnn_deterministic": deterministic}


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


def _weights_and_metrics(out: Path) -> tuple[dict[str, Any], list[dict[str, str]]]:
    from mjenv_agents.policy import load_checkpoint
    from mjenv_agents.train import ppo

    net, _ = load_checkpoint(out / "final.pt", "cpu")
    with open(out / "metrics.csv", newline="", encoding="utf-8") as fh:
        rows = [{k: v for k, v in r.items() if k not in (*ppo.TIMINGS, "time")}
                for r in csv.DictReader(fh)]
    return net.state_dict(), rows


def _repeatable(device: str, args: argparse.Namespace, tmp: Path) -> dict[str, Any]:
    """The same short PPO run twice on ``device``, as a user runs it: are the final weights
    and the metrics (speeds and clock left out) exactly equal?"""
    from mjenv_agents.train import ppo

    results = []
    for attempt in range(2):
        out = tmp / f"repeat-{device}-{attempt}"
        ppo.train(ppo.Args(seed=3, out=str(out), device=device, threads=0,
                           updates=args.updates, games=args.games,
                           decisions_per_update=args.decisions,
                           minibatch_size=args.minibatch, epochs=args.epochs, channels=32,
                           blocks=2, features="shanten-v1", opponents=("self",),
                           opponent_weights=(1.0,), checkpoint_interval=1000, eval_deals=1,
                           eval_opponent="random", learning_rate=3e-4))
        results.append(_weights_and_metrics(out))
    (wa, ma), (wb, mb) = results
    diff = max(float((wa[k].double() - wb[k].double()).abs().max()) for k in wa)
    return {"weights_identical": diff == 0.0, "max_weight_difference": diff,
            "metrics_identical": ma == mb}


def _portable(tmp: Path) -> dict[str, Any]:
    """The GPU run's checkpoint on the CPU: its logits and values against the GPU's on real
    observations (the same network; the kernels differ in the last bits)."""
    import torch

    from mjenv_agents.policy import load_checkpoint

    path = tmp / "repeat-cuda-0" / "final.pt"
    batch = _real_batch(256)
    outputs = []
    for device in ("cuda", "cpu"):
        net, _ = load_checkpoint(path, device)
        with torch.no_grad():
            logits, value = net(batch.obs.to(device), batch.mask.to(device))
        outputs.append((logits.float().cpu(), value.float().cpu()))
    (lg, vg), (lc, vc) = outputs
    legal = batch.mask.bool()
    same_choice = bool((lg.masked_fill(~legal, -1e9).argmax(1)
                        == lc.masked_fill(~legal, -1e9).argmax(1)).float().mean() == 1.0)
    return {"max_logit_difference": float((lg - lc)[legal].abs().max()),
            "max_value_difference": float((vg - vc).abs().max()),
            "same_greedy_actions": same_choice}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes: check the script")
    parser.add_argument("--updates", type=int, default=3)
    parser.add_argument("--games", type=int, default=64)
    parser.add_argument("--decisions", type=int, default=2048, help="per update")
    parser.add_argument("--minibatch", type=int, default=512)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--repeats", type=int, default=2,
                        help="learner-only updates in one timing")
    parser.add_argument("--rounds", type=int, default=3,
                        help="timings of the learner alone (the median is reported)")
    parser.add_argument("--json", type=Path, help="also write the results here")
    parser.add_argument("--from-source", action="store_true",
                        help="import this checkout through the shim even if installed")
    ns = parser.parse_args()
    sizes = [(32, 2), (128, 6)]
    if ns.quick:
        ns.updates, ns.games, ns.decisions, ns.minibatch, ns.epochs, ns.repeats, ns.rounds = \
            2, 4, 64, 32, 1, 1, 1
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
                # the price of repeatable GPU runs: cuDNN's default kernels against the
                # deterministic ones training uses, alternated
                pairs = [(_learner("cuda", size, batch, ns, deterministic=False),
                          _learner("cuda", size, batch, ns)) for _ in range(2)]
                ratios = [free["learner_decisions_per_s"] / fixed["learner_decisions_per_s"]
                          for free, fixed in pairs]
                results["learner"][f"{label}/cuda-default-kernels"] = {
                    "pairs": pairs, "default_over_deterministic": ratios}
                print(f"net {label:>6}: cuDNN's default kernels against the deterministic "
                      f"ones: {' '.join(f'{r:.2f}x' for r in ratios)}", flush=True)
        results["repeatable"] = {}
        for device in devices:
            check = _repeatable(device, ns, Path(tmp))
            results["repeatable"][device] = check
            print(f"same run twice on {device:>4}: weights identical "
                  f"{check['weights_identical']} (max difference "
                  f"{check['max_weight_difference']:.3g}), metrics identical "
                  f"{check['metrics_identical']}", flush=True)
        if "cuda" in devices:
            results["portable"] = _portable(Path(tmp))
            print(f"GPU checkpoint on the CPU: {results['portable']}", flush=True)
    if ns.json is not None:
        ns.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

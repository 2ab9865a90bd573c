"""Behaviour cloning: a :class:`~mjenv_agents.policy.PolicyNet` learns to play like a teacher
agent (by default :class:`~mjenv_agents.rule_based.RuleBasedAgent`). CleanRL-style, one readable
file.

Run::

    python -m mjenv_agents.train.bc --config bc_smoke --out runs/bc_smoke
    python -m mjenv_agents.train.bc --config bc_smoke epochs=4 learning_rate=3e-4

(or as the ``[bc]`` stage of ``mjenv train``, :mod:`mjenv_agents.train.pipeline`). ``--config PATH``
reads a TOML file of top-level ``key = value`` pairs (the fields of :class:`Args`; an unknown
key or a value of the wrong type is a ValueError); ``key=value`` words after it override single
fields (values are TOML literals, else strings); ``--out DIR`` is the same as ``out=DIR``.

**Data** (:mod:`mjenv_agents.train.dataset`). ``hands`` hands of ``mjenv.raw_env(rules=rules)`` are
played by four copies of ``teacher`` (``workers`` processes share them; the data depend only on
``seed``, ``hands``, ``rules`` and ``teacher``) and every decision is recorded: the seat's
observation, its mask and the teacher's action. With ``data = "PATH.npz"`` the decisions are
read from that file when it exists, else generated and written there (the documented
``mjenv-bc-dataset`` format), so several runs can share one data set.

**Training.** Cross-entropy of the network's masked logits against the teacher's action
(illegal actions have zero probability, so the loss is over legal actions only), Adam,
``epochs`` passes over the data in minibatches of ``batch_size`` (the last, smaller one is
kept); the order of epoch ``e`` is a permutation drawn from a ``torch.Generator`` seeded with
``(seed, e)``, so it does not depend on where a run was resumed. One optimizer *step* is one
minibatch; ``total_steps = epochs * ceil(N / batch_size)``. With ``init`` the network starts
from that checkpoint's weights instead of fresh ones. With ``features = "shanten-v1"`` the
network also reads hand-analysis planes (:mod:`mjenv_agents.features`), computed once for the data
set by ``workers`` processes.

**Run folder** (``out``)::

    config.toml          the resolved Args
    metrics.csv          step, bc/loss, bc/accuracy, bc/examples, time (one row per log)
    events.out.tfevents.*  the same scalars for TensorBoard (when ``tensorboard`` is installed)
    checkpoint_<step>.pt every ``checkpoint_interval`` steps (mjenv_agents.policy.save_checkpoint)
    final.pt             after the last step; ``policy:<out>/final.pt`` plays it

Metrics (stable names), logged every ``log_interval`` steps and at the last step, averaged
over the steps since the previous log (or since the resumed checkpoint, so keep
``checkpoint_interval`` a multiple of ``log_interval`` for identical rows): ``bc/loss`` (mean
cross-entropy), ``bc/accuracy`` (share of training examples whose argmax is the teacher's
action), ``bc/examples`` (examples trained on so far, all epochs).

A checkpoint's ``extra`` holds ``step``, the optimizer state and the resolved args. Running the
same command again resumes from the latest checkpoint (``final.pt`` included, which makes it a
no-op): the data set is regenerated (deterministic) or reread, the weights and optimizer state
are loaded, metrics after the checkpoint's step are dropped, and training continues; the final
weights equal an uninterrupted run's. A folder whose ``config.toml`` differs (in anything but
``out`` and ``device``) is refused with a ValueError.

Deterministic on CPU for a given seed (and thread count): the same data, initial weights,
batch order and therefore the same losses and weights.
"""

from __future__ import annotations

import math
import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import torch
import torch.nn.functional as F

from ..policy import PolicyConfig, PolicyNet, load_checkpoint, save_checkpoint
from . import common
from . import dataset as ds
from .common import latest_checkpoint, require
from .dataset import Dataset, generate, hand_seeds

__all__ = ["METRICS", "Args", "Dataset", "args_from_dict", "args_to_toml", "bc_loss",
           "generate", "hand_seeds", "latest_checkpoint", "main", "parse_args", "train"]

METRICS = ("bc/loss", "bc/accuracy", "bc/examples")
"""The stable metric names (TensorBoard tags and metrics.csv columns)."""

_HEADER = "the resolved Args of this run (mjenv_agents.train.bc)"


@dataclass
class Args:
    """Every setting of a behaviour-cloning run (see the module docstring)."""

    # ---------------------------------------------------------------- plumbing
    seed: int = 1
    """seeds the data (hand seeds), the initial weights and the batch order"""
    out: str = "runs/bc"
    """the run folder (config, metrics, TensorBoard logs, checkpoints)"""
    device: str = "cpu"
    """torch device for training (``cpu``, ``cuda``)"""
    log_interval: int = 10
    """optimizer steps between metric rows"""
    checkpoint_interval: int = 100
    """optimizer steps between checkpoints (``final.pt`` is always written)"""
    threads: int = 0
    """torch CPU threads (0: torch's default)"""
    workers: int = 1
    """processes that play the teacher's hands"""
    data: str = ""
    """a dataset file (``.npz``) to read, or to write when missing; empty: in memory only"""

    # ---------------------------------------------------------------- algorithm
    rules: str = "mcr"
    """the environment's rule profile (``mcr``, ``botzone``)"""
    teacher: str = "rule"
    """the agent spec imitated"""
    hands: int = 200
    """hands played by the teacher to make the data set"""
    batch_size: int = 256
    learning_rate: float = 1e-3
    epochs: int = 4
    """passes over the data set"""
    channels: int = 64
    """PolicyNet width"""
    blocks: int = 4
    """PolicyNet residual blocks"""
    features: str = "none"
    """planes the network adds (``none``, ``shanten-v1``, ``shanten-v1+rule``,
    ``shanten-v1+lookahead``; mjenv_agents.features)"""
    init: str = ""
    """a checkpoint to start from (its shape wins over ``channels`` / ``blocks``)"""
    label_smoothing: float = 0.0
    """share of the target spread evenly over the decision's legal actions (the teacher's
    gets the rest): a clone that keeps some probability on the alternatives, so that PPO
    starting from it still explores them (0: plain cross-entropy)"""

    def __post_init__(self) -> None:
        common.check_types(self)
        for name in ("log_interval", "checkpoint_interval", "hands", "batch_size", "epochs",
                     "channels", "workers"):
            require(self, getattr(self, name) >= 1, name, ">= 1")
        for name in ("threads", "blocks", "seed"):
            require(self, getattr(self, name) >= 0, name, ">= 0")
        require(self, self.learning_rate > 0, "learning_rate", "> 0")
        require(self, 0 <= self.label_smoothing < 1, "label_smoothing", "in [0, 1)")
        require(self, self.rules in ("mcr", "botzone"), "rules", "'mcr' or 'botzone'")

    def policy_config(self) -> PolicyConfig:
        """A fresh network's shape (:meth:`PolicyConfig.fresh`)."""
        return PolicyConfig.fresh(self.channels, self.blocks, self.features)


def args_from_dict(data: Mapping[str, Any], where: str = "config") -> Args:
    """Args from a flat mapping; ValueError naming unknown keys."""
    return common.args_from_dict(Args, data, where)


def args_to_toml(args: Args) -> str:
    """The resolved Args as TOML (``tomllib`` reads it back to equal Args)."""
    return common.args_to_toml(args, _HEADER)


def parse_args(argv: Sequence[str] | None = None) -> Args:
    """Args from the command line: ``--config PATH``, ``--out DIR`` and ``key=value`` words."""
    return common.parse_command_line(Args, "python -m mjenv_agents.train.bc",
                                     "Behaviour cloning of a teacher agent.", argv)


# ------------------------------------------------------------------ data

def dataset_for(args: Args) -> Dataset:
    """The run's decisions: read from ``args.data``, or generated (and written there)."""
    if args.data and Path(args.data).exists():
        data, meta = ds.load(args.data)
        print(f"read {len(data)} decisions from {args.data} ({meta.get('hands')} hands of "
              f"{meta.get('teacher')!r}, {meta.get('rules')})")
        return data
    print(f"playing {args.hands} hands of {args.teacher!r} for the data set")
    data = generate(args.hands, args.seed, args.rules, args.teacher, args.workers)
    if args.data:
        Path(args.data).parent.mkdir(parents=True, exist_ok=True)
        ds.save(args.data, data, {"teacher": args.teacher, "rules": args.rules,
                                  "seed": args.seed, "hands": args.hands})
        print(f"wrote {len(data)} decisions to {args.data}")
    return data


# ------------------------------------------------------------------ training

def bc_loss(net: PolicyNet, obs: torch.Tensor, mask: torch.Tensor, action: torch.Tensor,
            smoothing: float = 0.0) -> tuple[torch.Tensor, torch.Tensor]:
    """(mean cross-entropy of the masked logits against ``action``, number of correct
    argmaxes) for one minibatch. With ``smoothing`` the target is ``1 - smoothing`` on
    ``action`` plus ``smoothing`` spread over the legal actions (never the illegal ones, whose
    probability is exactly zero)."""
    logits, _ = net(obs, mask)
    loss = F.cross_entropy(logits, action)
    if smoothing:
        legal = mask if mask.dtype == torch.bool else mask != 0
        logp = torch.log_softmax(logits, dim=1)
        spread = -(logp * legal).sum(dim=1) / legal.sum(dim=1)
        loss = (1 - smoothing) * loss + smoothing * spread.mean()
    correct = (logits.argmax(dim=1) == action).sum()
    return loss, correct


def epoch_order(seed: int, epoch: int, n: int) -> torch.Tensor:
    """The example order of ``epoch`` (independent of resumption)."""
    generator = torch.Generator().manual_seed(seed * 1_000_003 + epoch)
    return torch.randperm(n, generator=generator)


def make_net(args: Args) -> PolicyNet:
    """The starting network: ``args.init``'s weights, else fresh ones drawn from ``args.seed``."""
    if args.init:
        net, _ = load_checkpoint(args.init)
        return net
    torch.manual_seed(args.seed)
    return PolicyNet(args.policy_config())


def train(args: Args, data: Dataset | None = None) -> Path:
    """Run (or resume) behaviour cloning; returns the path of ``final.pt``. ``data`` replaces
    the data set of ``args`` (tests)."""
    if args.threads:
        torch.set_num_threads(args.threads)
    device = common.learner_device(args.device)  # a missing GPU fails before anything is written
    out = common.prepare_folder(args, _HEADER)
    net = make_net(args).to(device)
    optimizer = torch.optim.Adam(net.parameters(), lr=args.learning_rate)
    step = 0
    resume = latest_checkpoint(out)
    if resume is not None:
        loaded, extra = load_checkpoint(resume, device)
        net.load_state_dict(loaded.state_dict())
        optimizer.load_state_dict(extra["optimizer"])
        step = int(extra["step"])
        print(f"resuming from {resume} at step {step}")
        if resume.name == "final.pt":
            return resume
    if data is None:
        data = dataset_for(args)
    n = len(data)
    steps_per_epoch = math.ceil(n / args.batch_size)
    total_steps = args.epochs * steps_per_epoch
    if step >= total_steps:
        final = out / "final.pt"
        _save(final, net, optimizer, step, args)
        return final

    obs_all = torch.from_numpy(ds.prepared(net, data, args.workers))
    mask_all = torch.from_numpy(data.mask)
    action_all = torch.from_numpy(data.action)
    logger = common.MetricLogger(out, step, METRICS)
    net.train()
    loss_sum, correct, seen = 0.0, 0, 0
    try:
        while step < total_steps:
            epoch, index = divmod(step, steps_per_epoch)
            order = epoch_order(args.seed, epoch, n)
            rows = order[index * args.batch_size:(index + 1) * args.batch_size]
            obs = obs_all[rows].to(device)
            mask = mask_all[rows].to(device)
            action = action_all[rows].to(device)
            loss, right = bc_loss(net, obs, mask, action, args.label_smoothing)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()  # type: ignore[no-untyped-call]
            optimizer.step()
            step += 1
            loss_sum += float(loss.detach()) * len(rows)
            correct += int(right)
            seen += len(rows)
            if step % args.log_interval == 0 or step == total_steps:
                examples = epoch * n + min((index + 1) * args.batch_size, n)
                logger.log(step, {"bc/loss": loss_sum / seen, "bc/accuracy": correct / seen,
                                  "bc/examples": float(examples)})
                print(f"step {step}/{total_steps}  loss {loss_sum / seen:.4f}  "
                      f"accuracy {correct / seen:.3f}")
                loss_sum, correct, seen = 0.0, 0, 0
            if step % args.checkpoint_interval == 0 and step < total_steps:
                _save(out / f"checkpoint_{step}.pt", net, optimizer, step, args)
    finally:
        logger.close()
    final = out / "final.pt"
    _save(final, net, optimizer, step, args)
    return final


def _save(path: Path, net: PolicyNet, optimizer: torch.optim.Optimizer, step: int,
          args: Args) -> None:
    save_checkpoint(path, net, {"step": step, "optimizer": optimizer.state_dict(),
                                "args": asdict(args), "stage": "bc"})


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = parse_args(argv)
        final = train(args)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {final} (play it with the agent spec 'policy:{os.fspath(final)}')")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

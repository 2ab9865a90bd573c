"""Behaviour cloning: a :class:`~agents.policy.PolicyNet` learns to play like
:class:`~agents.rule_based.RuleBasedAgent` (the teacher). CleanRL-style, one readable file.

Run::

    python -m agents.train.bc --config configs/bc_smoke.toml --out runs/bc_smoke
    python -m agents.train.bc --config configs/bc_smoke.toml epochs=4 learning_rate=3e-4

``--config PATH`` reads a TOML file of top-level ``key = value`` pairs (the fields of
:class:`Args`; an unknown key or a value of the wrong type is a ValueError); ``key=value``
words after it override single fields (values are TOML literals, else strings); ``--out DIR``
is the same as ``out=DIR``.

**Data** (on the fly, in memory). ``hands`` hands of ``mjenv.raw_env(rules=rules)`` are played
by four RuleBasedAgents; hand ``i`` is reset with a seed drawn from
``numpy.random.SeedSequence(seed)``, so the data set depends only on ``seed``, ``hands`` and
``rules``. Every decision is recorded (the env selects only seats with a real choice) into a
:class:`Dataset` of three aligned arrays::

    obs      float32 (N, 86, 34)   the seat's "observation" (mjenv-v1 planes)
    mask     bool    (N, 235)      its "action_mask"
    action   int64   (N,)          the teacher's action (always legal under mask)

in play order (hand by hand, decision by decision). About 70 decisions a hand, 12 KB each.

**Training.** Cross-entropy of the network's masked logits against the teacher's action
(illegal actions have zero probability, so the loss is over legal actions only), Adam,
``epochs`` passes over the data in minibatches of ``batch_size`` (the last, smaller one is
kept); the order of epoch ``e`` is a permutation drawn from a ``torch.Generator`` seeded with
``(seed, e)``, so it does not depend on where a run was resumed. One optimizer *step* is one
minibatch; ``total_steps = epochs * ceil(N / batch_size)``.

**Run folder** (``out``)::

    config.toml          the resolved Args
    metrics.csv          step, bc/loss, bc/accuracy, bc/examples, time (one row per log)
    events.out.tfevents.*  the same scalars for TensorBoard (when ``tensorboard`` is installed)
    checkpoint_<step>.pt every ``checkpoint_interval`` steps (agents.policy.save_checkpoint)
    final.pt             after the last step; ``policy:<out>/final.pt`` plays it

Metrics (stable names), logged every ``log_interval`` steps and at the last step, averaged
over the steps since the previous log (or since the resumed checkpoint, so keep
``checkpoint_interval`` a multiple of ``log_interval`` for identical rows): ``bc/loss`` (mean
cross-entropy), ``bc/accuracy`` (share of training examples whose argmax is the teacher's
action), ``bc/examples`` (examples trained on so far, all epochs).

A checkpoint's ``extra`` holds ``step``, the optimizer state and the resolved args. Running the
same command again resumes from the latest checkpoint (``final.pt`` included, which makes it a
no-op): the data set is regenerated (deterministic), the weights and optimizer state are
loaded, metrics after the checkpoint's step are dropped, and training continues; the final
weights equal an uninterrupted run's. A folder whose ``config.toml`` differs (in anything but
``out`` and ``device``) is refused with a ValueError.

Deterministic on CPU for a given seed (and thread count): the same data, initial weights,
batch order and therefore the same losses and weights.
"""

from __future__ import annotations

import argparse
import csv
import math
import os
import re
import sys
import time
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt
import torch
import torch.nn.functional as F

from agents.policy import PolicyConfig, PolicyNet, load_checkpoint, save_checkpoint

METRICS = ("bc/loss", "bc/accuracy", "bc/examples")
"""The stable metric names (TensorBoard tags and metrics.csv columns)."""

_UNCOMPARED = ("out", "device")
"""Args that may differ when a run is resumed."""


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

    # ---------------------------------------------------------------- algorithm
    rules: str = "mcr"
    """the environment's rule profile (``mcr``, ``botzone``)"""
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

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            kind = _TYPES[f.name]
            if kind is float and _is_int(value):
                value = float(value)
                setattr(self, f.name, value)
            if kind is int and not _is_int(value) or not isinstance(value, kind):
                raise ValueError(f"Args.{f.name} must be a {kind.__name__}, got {value!r}")
        for name in ("log_interval", "checkpoint_interval", "hands", "batch_size", "epochs",
                     "channels"):
            if getattr(self, name) < 1:
                raise ValueError(f"Args.{name} must be >= 1, got {getattr(self, name)!r}")
        for name in ("threads", "blocks", "seed"):
            if getattr(self, name) < 0:
                raise ValueError(f"Args.{name} must be >= 0, got {getattr(self, name)!r}")
        if not self.learning_rate > 0:
            raise ValueError(f"Args.learning_rate must be > 0, got {self.learning_rate!r}")
        if self.rules not in ("mcr", "botzone"):
            raise ValueError(f"Args.rules must be 'mcr' or 'botzone', got {self.rules!r}")

    def policy_config(self) -> PolicyConfig:
        return PolicyConfig(channels=self.channels, blocks=self.blocks)


_TYPES: dict[str, type] = {"seed": int, "out": str, "device": str, "log_interval": int,
                           "checkpoint_interval": int, "threads": int, "rules": str,
                           "hands": int, "batch_size": int, "learning_rate": float,
                           "epochs": int, "channels": int, "blocks": int}
assert set(_TYPES) == {f.name for f in fields(Args)}


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# ------------------------------------------------------------------ config

def args_from_dict(data: Mapping[str, Any], where: str = "config") -> Args:
    """Args from a flat mapping; ValueError naming unknown keys."""
    names = {f.name for f in fields(Args)}
    unknown = sorted(set(data) - names)
    if unknown:
        raise ValueError(f"{where}: unknown keys {unknown} (known: {', '.join(sorted(names))})")
    return Args(**data)


def _override_value(text: str) -> Any:
    """A ``key=value`` value: a TOML literal (``3``, ``1e-3``, ``true``, ``"a b"``), else the
    text itself as a string."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text


def parse_args(argv: Sequence[str] | None = None) -> Args:
    """Args from the command line: ``--config PATH``, ``--out DIR`` and ``key=value`` words."""
    parser = argparse.ArgumentParser(prog="python -m agents.train.bc",
                                     description="Behaviour cloning of the rule-based agent.")
    parser.add_argument("--config", help="a TOML file of Args fields")
    parser.add_argument("--out", help="the run folder (same as out=DIR)")
    parser.add_argument("overrides", nargs="*", metavar="key=value")
    ns = parser.parse_args(argv)
    data: dict[str, Any] = {}
    if ns.config is not None:
        with open(ns.config, "rb") as fh:
            data.update(tomllib.load(fh))
        nested = sorted(k for k, v in data.items() if isinstance(v, dict))
        if nested:
            raise ValueError(f"{ns.config}: tables {nested} are not Args fields "
                             "(use top-level key = value pairs)")
    for word in ns.overrides:
        key, sep, value = word.partition("=")
        if not sep or not key:
            raise ValueError(f"override {word!r} is not key=value")
        data[key] = _override_value(value)
    if ns.out is not None:
        data["out"] = ns.out
    where = " + ".join(w for w in (ns.config, "overrides" if ns.overrides else None) if w)
    return args_from_dict(data, where or "command line")


def args_to_toml(args: Args) -> str:
    """The resolved Args as TOML (``tomllib`` reads it back to equal Args)."""
    lines = ["# the resolved Args of this run (agents.train.bc)"]
    for f in fields(args):
        value = getattr(args, f.name)
        if isinstance(value, str):
            text = '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
        else:
            text = repr(value)
        lines.append(f"{f.name} = {text}")
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------ data

@dataclass
class Dataset:
    """Teacher decisions in memory (see the module docstring for the format)."""

    obs: npt.NDArray[np.float32]
    mask: npt.NDArray[np.bool_]
    action: npt.NDArray[np.int64]

    def __len__(self) -> int:
        return len(self.action)


class _Teacher(Protocol):
    def reset(self, seat: int, seed: int | None = None) -> None: ...

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int: ...


def hand_seeds(seed: int, hands: int) -> list[int]:
    """The env seed of each hand: ``numpy.random.SeedSequence(seed)``'s first ``hands`` words."""
    words = np.random.SeedSequence(seed).generate_state(hands, dtype=np.uint32)
    return [int(w) for w in words]


def generate(hands: int, seed: int, rules: str = "mcr") -> Dataset:
    """Play ``hands`` hands with four RuleBasedAgents and record every decision."""
    import mjenv
    from agents.rule_based import RuleBasedAgent

    obs: list[np.ndarray] = []
    masks: list[np.ndarray] = []
    actions: list[int] = []
    for hand_seed in hand_seeds(seed, hands):
        env = mjenv.raw_env(rules=rules)
        env.reset(seed=hand_seed)
        players: list[_Teacher] = [RuleBasedAgent() for _ in range(4)]
        for seat, player in enumerate(players):
            player.reset(seat, hand_seed)
        for agent in env.agent_iter():
            observation, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
                continue
            mask = np.asarray(observation["action_mask"])
            action = int(players[env.possible_agents.index(agent)].act(
                observation["observation"], mask))
            obs.append(np.asarray(observation["observation"], dtype=np.float32))
            masks.append(mask != 0)
            actions.append(action)
            env.step(action)
        env.close()
    if not actions:
        raise RuntimeError("the teacher made no decision")
    return Dataset(np.stack(obs), np.stack(masks), np.asarray(actions, dtype=np.int64))


# ------------------------------------------------------------------ training

def bc_loss(net: PolicyNet, obs: torch.Tensor, mask: torch.Tensor, action: torch.Tensor,
            ) -> tuple[torch.Tensor, torch.Tensor]:
    """(mean cross-entropy of the masked logits against ``action``, number of correct
    argmaxes) for one minibatch."""
    logits, _ = net(obs, mask)
    loss = F.cross_entropy(logits, action)
    correct = (logits.argmax(dim=1) == action).sum()
    return loss, correct


def epoch_order(seed: int, epoch: int, n: int) -> torch.Tensor:
    """The example order of ``epoch`` (independent of resumption)."""
    generator = torch.Generator().manual_seed(seed * 1_000_003 + epoch)
    return torch.randperm(n, generator=generator)


def make_net(args: Args) -> PolicyNet:
    """A freshly initialised network (weights drawn from ``args.seed``)."""
    torch.manual_seed(args.seed)
    return PolicyNet(args.policy_config())


_CHECKPOINT = re.compile(r"checkpoint_(\d+)\.pt")


def latest_checkpoint(out: Path) -> Path | None:
    """``final.pt`` if present, else the ``checkpoint_<step>.pt`` with the largest step."""
    if (out / "final.pt").exists():
        return out / "final.pt"
    found = [(int(m.group(1)), p) for p in out.glob("checkpoint_*.pt")
             if (m := _CHECKPOINT.fullmatch(p.name))]
    return max(found)[1] if found else None


def _prepare_folder(args: Args) -> Path:
    """Create the run folder and write ``config.toml``, or check the existing one matches."""
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    config = out / "config.toml"
    if config.exists():
        with open(config, "rb") as fh:
            saved = args_from_dict(tomllib.load(fh), str(config))
        mine, theirs = asdict(args), asdict(saved)
        differ = sorted(k for k in mine if k not in _UNCOMPARED and mine[k] != theirs[k])
        if differ:
            pairs = ", ".join(f"{k}: {theirs[k]!r} there, {mine[k]!r} now" for k in differ)
            raise ValueError(f"{out} holds a run with another config ({pairs}); "
                             "use another --out or the same config")
    config.write_text(args_to_toml(args), encoding="utf-8")
    return out


class _Logger:
    """metrics.csv and (when available) TensorBoard, both under the same stable names."""

    def __init__(self, out: Path, start_step: int) -> None:
        self.path = out / "metrics.csv"
        rows: list[dict[str, str]] = []
        if start_step > 0 and self.path.exists():
            with open(self.path, newline="", encoding="utf-8") as fh:
                rows = [r for r in csv.DictReader(fh) if int(r["step"]) <= start_step]
        columns = ["step", *METRICS, "time"]
        with open(self.path, "w", newline="", encoding="utf-8") as fh:
            writer = csv.DictWriter(fh, columns)
            writer.writeheader()
            writer.writerows(rows)
        self.writer: Any = None
        try:
            from torch.utils.tensorboard import SummaryWriter
        except ImportError:
            print("tensorboard is not installed: metrics go to metrics.csv only",
                  file=sys.stderr)
        else:
            self.writer = SummaryWriter(str(out), purge_step=start_step + 1)
        self.columns = columns

    def log(self, step: int, values: dict[str, float]) -> None:
        with open(self.path, "a", newline="", encoding="utf-8") as fh:
            csv.DictWriter(fh, self.columns).writerow(
                {"step": step, **values, "time": round(time.time(), 3)})
        if self.writer is not None:
            for name, value in values.items():
                self.writer.add_scalar(name, value, step)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


def train(args: Args, data: Dataset | None = None) -> Path:
    """Run (or resume) behaviour cloning; returns the path of ``final.pt``. ``data`` replaces
    the generated data set (tests); otherwise it is generated from ``args``."""
    if args.threads:
        torch.set_num_threads(args.threads)
    out = _prepare_folder(args)
    device = torch.device(args.device)
    if data is None:
        data = generate(args.hands, args.seed, args.rules)
    n = len(data)
    steps_per_epoch = math.ceil(n / args.batch_size)
    total_steps = args.epochs * steps_per_epoch

    net = make_net(args).to(device)
    optimizer = torch.optim.Adam(net.parameters(), lr=args.learning_rate)
    step = 0
    resume = latest_checkpoint(out)
    if resume is not None:
        loaded, extra = load_checkpoint(resume, device)
        net.load_state_dict(loaded.state_dict())
        optimizer.load_state_dict(extra["optimizer"])
        step = int(extra["step"])
        print(f"resuming from {resume} at step {step}/{total_steps}")
    if step >= total_steps:
        final = out / "final.pt"
        if not final.exists():
            _save(final, net, optimizer, step, args)
        return final

    obs_all = torch.from_numpy(data.obs)
    mask_all = torch.from_numpy(data.mask)
    action_all = torch.from_numpy(data.action)
    logger = _Logger(out, step)
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
            loss, right = bc_loss(net, obs, mask, action)
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

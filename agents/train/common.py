"""What every training stage shares: settings from TOML, the run folder, metric logs and
checkpoint discovery. Each stage (:mod:`mjenv_agents.train.bc`, :mod:`mjenv_agents.train.ppo`)
declares its settings as an ``Args`` dataclass of plain fields (``int``, ``float``, ``str``,
``bool`` or a ``tuple`` of them) and uses these helpers, so configs, overrides, resumption and
logs work the same way in all of them.
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import re
import sys
import time
import tomllib
import typing
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

from .configs import resolve_config

ArgsT = TypeVar("ArgsT")

UNCOMPARED = ("out", "device", "backend", "ray_address")
"""Args that may differ when a run is resumed (where it runs, not what it computes)."""

DEVICES = "'cpu', 'cuda', 'cuda:N' or 'auto'"
"""What a stage's ``device`` may be (:func:`resolve_device`)."""


# ------------------------------------------------------------------ typed fields

def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _coerce(value: Any, hint: Any, where: str) -> Any:
    """``value`` checked against the type ``hint`` (an int is accepted for a float, a list for
    a tuple); ValueError naming ``where`` otherwise."""
    origin = typing.get_origin(hint)
    if origin is tuple:
        item = typing.get_args(hint)[0]
        if not isinstance(value, (list, tuple)):
            raise ValueError(f"{where} must be a list, got {value!r}")
        return tuple(_coerce(v, item, f"{where}[{i}]") for i, v in enumerate(value))
    if hint is float and _is_int(value):
        return float(value)
    ok = _is_int(value) if hint is int else isinstance(value, hint)
    if not ok:
        raise ValueError(f"{where} must be a {hint.__name__}, got {value!r}")
    return value


def check_types(args: Any) -> None:
    """Validate (and normalise, in place) every field of the dataclass ``args`` against its
    annotation: called from each ``Args.__post_init__``."""
    hints = typing.get_type_hints(type(args))
    name = type(args).__name__
    for f in dataclasses.fields(args):
        value = _coerce(getattr(args, f.name), hints[f.name], f"{name}.{f.name}")
        object.__setattr__(args, f.name, value)


def require(args: Any, condition: bool, name: str, what: str) -> None:
    """ValueError ``Args.<name> must be <what>`` unless ``condition``."""
    if not condition:
        raise ValueError(f"{type(args).__name__}.{name} must be {what}, "
                         f"got {getattr(args, name)!r}")


def device_ok(name: str) -> bool:
    """Whether ``name`` is one of :data:`DEVICES` (checked when the config is read, before
    anything asks whether this machine has a GPU)."""
    return name in ("cpu", "cuda", "auto") or re.fullmatch(r"cuda:\d+", name) is not None


def resolve_device(name: str) -> Any:
    """The ``torch.device`` a stage computes on. ``auto`` takes the first GPU when torch sees
    one and the CPU otherwise (the same config runs anywhere); ``cuda`` (or ``cuda:N``) on a
    machine where torch sees no GPU is a one-line ValueError saying why, not a CUDA traceback
    from the first tensor moved there."""
    import torch

    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if not device_ok(name):
        raise ValueError(f"device must be {DEVICES}, got {name!r}")
    if name.startswith("cuda"):
        if not torch.cuda.is_available():
            why = (f"this torch {torch.__version__} is built without CUDA"
                   if torch.version.cuda is None else "torch sees no GPU on this machine")
            raise ValueError(f"device = {name!r} asked for, but {why}; "
                             "use device = \"cpu\" or \"auto\"")
        index = int(name.partition(":")[2] or 0)
        if index >= torch.cuda.device_count():
            raise ValueError(f"device = {name!r}: torch sees {torch.cuda.device_count()} GPU(s)")
    return torch.device(name)


def learner_device(name: str) -> Any:
    """:func:`resolve_device` for a stage that trains, with cuDNN's deterministic kernels on a
    GPU, so that the same seeds give the same run there too. cuDNN otherwise picks kernels
    whose sums run in no fixed order: on an H200 (scripts/gpu_check.py) the same short PPO run
    twice ended with weights up to 0.003 apart and other metrics; with the deterministic
    kernels the two runs were identical, at a cost within the run-to-run noise of the
    learner's speed (docs/training.md). The setting is the process's (torch has no other)."""
    import torch

    device = resolve_device(name)
    if device.type == "cuda":
        torch.backends.cudnn.deterministic = True
        torch.backends.cudnn.benchmark = False
    return device


# ------------------------------------------------------------------ config files and overrides

def args_from_dict(cls: type[ArgsT], data: Mapping[str, Any], where: str = "config") -> ArgsT:
    """``cls(**data)``; ValueError naming unknown keys (and ``where`` they came from)."""
    names = {f.name for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    unknown = sorted(set(data) - names)
    if unknown:
        raise ValueError(f"{where}: unknown keys {unknown} (known: {', '.join(sorted(names))})")
    return cls(**data)


def override_value(text: str) -> Any:
    """A ``key=value`` value: a TOML literal (``3``, ``1e-3``, ``true``, ``"a b"``,
    ``["x", "y"]``), else the text itself as a string."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except (tomllib.TOMLDecodeError, RecursionError, MemoryError):  # no literal: the text
        return text


def apply_overrides(data: dict[str, Any], words: Sequence[str]) -> dict[str, Any]:
    """``data`` updated with ``key=value`` words; ValueError on a word that is not one."""
    for word in words:
        key, sep, value = word.partition("=")
        if not sep or not key:
            raise ValueError(f"override {word!r} is not key=value")
        data[key] = override_value(value)
    return data


def read_toml(path: str | Path) -> dict[str, Any]:
    """A TOML file as a dict; ValueError (not a traceback) when it is missing or malformed."""
    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except OSError as exc:
        raise ValueError(f"cannot read config {path}: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{path}: not valid TOML: {exc}") from None
    except (RecursionError, MemoryError):  # tomllib recurses into nested arrays and tables
        raise ValueError(f"{path}: not valid TOML: nested too deeply") from None


def parse_command_line(cls: type[ArgsT], prog: str, description: str,
                       argv: Sequence[str] | None = None) -> ArgsT:
    """Args from ``--config PATH`` (top-level ``key = value`` pairs), ``--out DIR`` and
    ``key=value`` words (later ones win)."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("--config", metavar="NAME|PATH",
                        help="a TOML file of Args fields, or a built-in config's name")
    parser.add_argument("--out", help="the run folder (same as out=DIR)")
    parser.add_argument("overrides", nargs="*", metavar="key=value")
    ns = parser.parse_args(argv)
    data: dict[str, Any] = {}
    if ns.config is not None:
        data.update(read_toml(resolve_config(ns.config)))
        nested = sorted(k for k, v in data.items() if isinstance(v, dict))
        if nested:
            raise ValueError(f"{ns.config}: tables {nested} are not Args fields (use top-level "
                             "key = value pairs, or `mjenv train` for a staged config)")
    apply_overrides(data, ns.overrides)
    if ns.out is not None:
        data["out"] = ns.out
    where = " + ".join(w for w in (ns.config, "overrides" if ns.overrides else None) if w)
    return args_from_dict(cls, data, where or "command line")


def _toml_value(value: Any) -> str:
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return repr(value)


def args_to_toml(args: Any, header: str) -> str:
    """The resolved Args as TOML (``tomllib`` reads it back to equal Args)."""
    lines = [f"# {header}"]
    for f in dataclasses.fields(args):
        lines.append(f"{f.name} = {_toml_value(getattr(args, f.name))}")
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------ the run folder

def prepare_folder(args: Any, header: str) -> Path:
    """Create the run folder ``args.out`` and write ``config.toml``, or check that the config
    already there matches (all fields but :data:`UNCOMPARED`); ValueError naming the
    differences otherwise, so two runs never mix in one folder."""
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    config = out / "config.toml"
    if config.exists():
        saved = args_from_dict(type(args), read_toml(config), str(config))
        mine, theirs = dataclasses.asdict(args), dataclasses.asdict(saved)
        differ = sorted(k for k in mine if k not in UNCOMPARED and mine[k] != theirs[k])
        if differ:
            pairs = ", ".join(f"{k}: {theirs[k]!r} there, {mine[k]!r} now" for k in differ)
            raise ValueError(f"{out} holds a run with another config ({pairs}); "
                             "use another --out or the same config")
    config.write_text(args_to_toml(args, header), encoding="utf-8")
    return out


_CHECKPOINT = re.compile(r"checkpoint_(\d+)\.pt")


def latest_checkpoint(out: Path) -> Path | None:
    """``final.pt`` if present, else the ``checkpoint_<step>.pt`` with the largest step."""
    if (out / "final.pt").exists():
        return out / "final.pt"
    found = [(int(m.group(1)), p) for p in out.glob("checkpoint_*.pt")
             if (m := _CHECKPOINT.fullmatch(p.name))]
    return max(found)[1] if found else None


class MetricLogger:
    """``metrics.csv`` (one row per log, a column per metric, blank where a row does not have
    it) and, when installed, TensorBoard, both under the same stable names. Opening a resumed
    run keeps only the rows up to ``start_step``."""

    def __init__(self, out: Path, start_step: int, metrics: Sequence[str]) -> None:
        self.path = out / "metrics.csv"
        self.columns = ["step", *metrics, "time"]
        rows: list[dict[str, str]] = []
        if start_step > 0 and self.path.exists():
            with open(self.path, newline="", encoding="utf-8") as fh:
                rows = [r for r in csv.DictReader(fh) if int(r["step"]) <= start_step]
        with open(self.path, "w", newline="", encoding="utf-8") as fh:
            writer = csv.DictWriter(fh, self.columns, extrasaction="ignore")
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

    def log(self, step: int, values: Mapping[str, float]) -> None:
        unknown = sorted(set(values) - set(self.columns))
        if unknown:
            raise ValueError(f"unknown metrics {unknown}")
        with open(self.path, "a", newline="", encoding="utf-8") as fh:
            csv.DictWriter(fh, self.columns).writerow(
                {"step": step, **values, "time": round(time.time(), 3)})
        if self.writer is not None:
            for name, value in values.items():
                self.writer.add_scalar(name, value, step)
            self.writer.flush()

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()

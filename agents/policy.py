"""``PolicyAgent`` (spec ``policy:PATH``): a torch policy/value network and its checkpoints.

The network, :class:`PolicyNet`, reads the ``mjenv-v1`` observation (86 planes over the 34 tile
kinds, :mod:`mjenv.encoders.default`), plus the hand-analysis planes of ``config.features``
(:mod:`mjenv_agents.features`; :meth:`PolicyNet.prepare` appends them), as a 1-D signal over the
tile axis with the planes as channels:

    stem      Conv1d(86 + F -> C, kernel 3, padding 1), GroupNorm, ReLU
    blocks    N x [Conv1d-GroupNorm-ReLU-Conv1d-GroupNorm, + skip, ReLU]   (C channels, 34 wide)
    policy    flatten (C * 34) -> Linear -> 235 logits (+ hint, below), then masked
    value     flatten (C * 34) -> Linear -> ReLU -> Linear -> 1 scalar

With ``hint_bias`` (a feature set holding a hint part, ``rule`` or ``lookahead``:
:mod:`mjenv_agents.features`), a learned scalar times the hinted player's action, read off its
hint planes
(:func:`~mjenv_agents.features.hint_index`), is added to the logits: a clone then copies even
the actions too rare in its data for the linear head to learn per tile (concealed kongs).

GroupNorm (no BatchNorm, no dropout) makes the network compute the same function in ``train()``
and ``eval()`` mode, and each row of a batch independently of the others, so batched and
one-by-one inference agree.

**Masking.** ``forward(obs, mask)`` returns logits in which every illegal action (mask 0) holds
``masked_value(dtype)`` (half of the dtype's most negative finite number, ``-1.7e38`` in
float32). It is finite, so nothing becomes NaN, and far enough below any legal logit that
``softmax`` gives illegal actions exactly ``0.0``. A row whose mask is all zero (no legal
action) has every logit equal to that value: its softmax is uniform over all actions and its
log-softmax finite, still never NaN; such a row has no legal action to play, so
:class:`PolicyAgent` refuses it with a ValueError and training code should not produce it.

**Checkpoints.** :func:`save_checkpoint` writes, with ``torch.save``, the dict::

    {"format": "mjenv-policy", "version": 1,
     "config": dataclasses.asdict(PolicyConfig),   # plain ints and tuples
     "model": net.state_dict(),
     "extra": {...}}                               # caller's data (step, optimizer state, args)

``extra`` must hold only what ``torch.load(weights_only=True)`` reads back: dicts, lists,
tuples, strings, numbers, booleans, None and tensors. :func:`load_checkpoint` reads it with
``weights_only=True`` (no arbitrary pickles) and refuses a file of another format, version or
configuration with a ValueError that says why.
"""

from __future__ import annotations

import contextlib
import math
import os
import pickle
import warnings
from collections.abc import Callable, Iterator, Mapping
from copy import deepcopy
from dataclasses import asdict, dataclass, fields
from typing import Any, ClassVar, cast

import numpy as np
import numpy.typing as npt
import torch
import torch.nn.functional as F
from torch import nn

from mjenv.actions import NUM_ACTIONS
from mjenv.encoders.default import NUM_CHANNELS
from mjenv.tiles import NUM_KINDS

from .features import FEATURE_PARTS, augment, feature_planes, hint_part

CHECKPOINT_FORMAT = "mjenv-policy"
CHECKPOINT_VERSION = 1

StrPath = str | os.PathLike[str]


def masked_value(dtype: torch.dtype) -> float:
    """The logit given to illegal actions: finite, and low enough that softmax gives them
    exactly zero probability (half the dtype's lowest finite value, so that subtracting a
    legal logit cannot overflow to ``-inf``)."""
    return torch.finfo(dtype).min / 2


@dataclass(frozen=True)
class PolicyConfig:
    """The shape of a :class:`PolicyNet`; stored in checkpoints as ``asdict(config)``."""

    obs_shape: tuple[int, int] = (NUM_CHANNELS, NUM_KINDS)
    """(planes, tiles) of one observation: ``mjenv-v1`` is (86, 34)."""
    num_actions: int = NUM_ACTIONS
    channels: int = 64
    blocks: int = 4
    features: str = "none"
    """planes added to the observation (:mod:`mjenv_agents.features`): ``"none"``,
    ``"shanten-v1"``, ``"shanten-v1+rule"`` or ``"shanten-v1+lookahead"``"""
    hint_bias: bool = False
    """with a feature set holding a hint part: add a learned multiple of the hinted player's
    action (read off its planes) to the logits, so that copying it is exact"""

    def __post_init__(self) -> None:
        shape = self.obs_shape
        if (not isinstance(shape, (tuple, list)) or len(shape) != 2
                or not all(_is_int(n) and n >= 1 for n in shape)):
            raise ValueError(f"PolicyConfig.obs_shape must be two positive ints, got {shape!r}")
        object.__setattr__(self, "obs_shape", (int(shape[0]), int(shape[1])))
        for name, low in (("num_actions", 1), ("channels", 1), ("blocks", 0)):
            value = getattr(self, name)
            if not _is_int(value) or value < low:
                raise ValueError(f"PolicyConfig.{name} must be an int >= {low}, got {value!r}")
        if not isinstance(self.features, str):
            raise ValueError(f"PolicyConfig.features must be a str, got {self.features!r}")
        feature_planes(self.features)  # ValueError naming the known sets
        if not isinstance(self.hint_bias, bool):
            raise ValueError(f"PolicyConfig.hint_bias must be a bool, got {self.hint_bias!r}")
        if self.hint_bias and hint_part(self.features) is None:
            raise ValueError(f"PolicyConfig.hint_bias needs a feature set with a hint part, "
                             f"not {self.features!r}")

    @classmethod
    def fresh(cls, channels: int, blocks: int, features: str) -> PolicyConfig:
        """A new network's shape: with a feature set holding a hint part it gets the hint
        bias, so that a clone copies even the hinted player's rare actions (BC and PPO both
        start from this)."""
        return cls(channels=channels, blocks=blocks, features=features,
                   hint_bias=features in FEATURE_PARTS and hint_part(features) is not None)

    @property
    def input_planes(self) -> int:
        """Planes the network reads: the observation's plus the features'."""
        return self.obs_shape[0] + feature_planes(self.features)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PolicyConfig:
        """The config ``asdict`` wrote; ValueError on unknown or missing keys or bad values."""
        if not isinstance(data, Mapping):
            raise ValueError(f"a policy config is a dict, got {type(data).__name__}")
        names = {f.name for f in fields(cls)}
        data = {"features": "none", "hint_bias": False, **data}  # older checkpoints
        unknown = sorted(set(data) - names)
        missing = sorted(names - set(data))
        if unknown or missing:
            raise ValueError(f"policy config: unknown keys {unknown}, missing keys {missing}")
        return cls(**data)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _groups(channels: int) -> int:
    """GroupNorm groups: the largest of 8, 4, 2, 1 that divides ``channels``."""
    return math.gcd(channels, 8)


class _ResidualBlock(nn.Module):
    def __init__(self, channels: int) -> None:
        super().__init__()
        self.conv1 = nn.Conv1d(channels, channels, kernel_size=3, padding=1, bias=False)
        self.norm1 = nn.GroupNorm(_groups(channels), channels)
        self.conv2 = nn.Conv1d(channels, channels, kernel_size=3, padding=1, bias=False)
        self.norm2 = nn.GroupNorm(_groups(channels), channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = F.relu(self.norm1(self.conv1(x)))
        y = self.norm2(self.conv2(y))
        return F.relu(x + y)


class PolicyNet(nn.Module):
    """The residual 1-D convolutional policy/value network (see the module docstring)."""

    def __init__(self, config: PolicyConfig | None = None) -> None:
        super().__init__()
        self.config = config if config is not None else PolicyConfig()
        _, width = self.config.obs_shape
        planes = self.config.input_planes
        c = self.config.channels
        self.stem = nn.Sequential(
            nn.Conv1d(planes, c, kernel_size=3, padding=1, bias=False),
            nn.GroupNorm(_groups(c), c),
            nn.ReLU(),
        )
        self.blocks = nn.Sequential(*(_ResidualBlock(c) for _ in range(self.config.blocks)))
        self.policy_head = nn.Linear(c * width, self.config.num_actions)
        self.value_head = nn.Sequential(nn.Linear(c * width, 64), nn.ReLU(), nn.Linear(64, 1))
        if self.config.hint_bias:
            from .features import hint_index

            self.hint_scale = nn.Parameter(torch.tensor(5.0))
            self.hint_index: torch.Tensor
            self.register_buffer("hint_index", torch.from_numpy(hint_index(self.config.features)),
                                 persistent=False)

    def prepare(self, obs: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_],
                ) -> npt.NDArray[np.float32]:
        """The network's input for observations (B, 86, 34) and masks (B, 235): the
        observations with the config's feature planes appended
        (:func:`mjenv_agents.features.augment`; unchanged for ``features="none"``).
        Observations that hold some or all of them already (the env's
        :func:`~mjenv_agents.features.feature_encoder`: ``mjenv-v1+shanten`` holds the
        ``shanten`` part) get only the rest: the same input, partly computed by the env."""
        return augment(self.config.features, obs, mask)

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """``obs`` (B, P, 34) float (the output of :meth:`prepare`: P = 86 + feature planes),
        ``mask`` (B, 235) bool or 0/1 -> (masked logits (B, 235), value (B,)). Illegal actions
        get :func:`masked_value`; see the module docstring."""
        expected = (self.config.input_planes, self.config.obs_shape[1])
        if obs.dim() != 3 or tuple(obs.shape[1:]) != expected:
            raise ValueError(f"obs must have shape (B, {expected[0]}, {expected[1]}), "
                             f"got {tuple(obs.shape)}")
        if mask.shape != (obs.shape[0], self.config.num_actions):
            raise ValueError(f"mask must have shape ({obs.shape[0]}, {self.config.num_actions}),"
                             f" got {tuple(mask.shape)}")
        features = self.blocks(self.stem(obs)).flatten(1)
        logits = self.policy_head(features)
        if self.config.hint_bias:
            flat = obs.flatten(1)
            logits = logits + self.hint_scale * flat[:, self.hint_index]
        legal = mask if mask.dtype == torch.bool else mask != 0
        fill = torch.tensor(masked_value(logits.dtype), dtype=logits.dtype, device=logits.device)
        masked = torch.where(legal, logits, fill)
        value = self.value_head(features).squeeze(-1)
        return masked, value


# ------------------------------------------------------------------ checkpoints

def _check_plain(value: object, where: str) -> None:
    """ValueError unless ``value`` is something ``torch.load(weights_only=True)`` reads."""
    if value is None or isinstance(value, (bool, int, float, str, torch.Tensor)):
        return
    if isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            _check_plain(item, f"{where}[{i}]")
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, (str, int)):
                raise ValueError(f"checkpoint {where}: key {key!r} is not a str or int")
            _check_plain(item, f"{where}[{key!r}]")
        return
    raise ValueError(f"checkpoint {where}: a {type(value).__name__} cannot be read back with "
                     "weights_only=True (use dicts, lists, numbers, strings and tensors)")


def save_checkpoint(path: StrPath, net: PolicyNet, extra: dict[str, Any] | None = None) -> None:
    """Write ``net`` (config and weights) and ``extra`` to ``path`` (see the module docstring).
    The file is written next to ``path`` and renamed over it, so a crash never leaves a
    half-written checkpoint."""
    extra = {} if extra is None else extra
    _check_plain(extra, "extra")
    payload: dict[str, Any] = {
        "format": CHECKPOINT_FORMAT,
        "version": CHECKPOINT_VERSION,
        "config": asdict(net.config),
        "model": {k: v.detach().cpu() for k, v in net.state_dict().items()},
        "extra": extra,
    }
    target = os.fspath(path)
    tmp = f"{target}.tmp{os.getpid()}"
    try:
        torch.save(payload, tmp)
        os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def load_checkpoint(path: StrPath, device: str | torch.device = "cpu",
                    ) -> tuple[PolicyNet, dict[str, Any]]:
    """The network (on ``device``, in eval mode) and ``extra`` of a checkpoint written by
    :func:`save_checkpoint`; ValueError if the file is not one (wrong format, version, config or
    weights)."""
    try:
        data = torch.load(os.fspath(path), map_location=device, weights_only=True)
    except (FileNotFoundError, IsADirectoryError, PermissionError):
        raise  # the file itself cannot be opened: the caller's message says so
    except (pickle.UnpicklingError, RuntimeError, KeyError, EOFError, ValueError,
            AttributeError, IndexError, TypeError, OSError) as exc:
        # torch's loader on a bad file (OSError: a zip cut short, read past its end)
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ValueError(f"{os.fspath(path)}: not a readable torch checkpoint "
                         f"({type(exc).__name__}: {first[:200]})") from None
    if not isinstance(data, dict) or data.get("format") != CHECKPOINT_FORMAT:
        found = data.get("format") if isinstance(data, dict) else type(data).__name__
        raise ValueError(f"{os.fspath(path)}: not an {CHECKPOINT_FORMAT!r} checkpoint "
                         f"(format {found!r})")
    if data.get("version") != CHECKPOINT_VERSION:
        raise ValueError(f"{os.fspath(path)}: checkpoint version {data.get('version')!r} is not "
                         f"supported (this code reads version {CHECKPOINT_VERSION})")
    missing = [k for k in ("config", "model", "extra") if k not in data]
    if missing:
        raise ValueError(f"{os.fspath(path)}: checkpoint lacks {missing}")
    try:
        config = PolicyConfig.from_dict(data["config"])
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{os.fspath(path)}: bad config: {exc}") from None
    net = PolicyNet(config)
    try:
        net.load_state_dict(data["model"])
    except (RuntimeError, TypeError, AttributeError) as exc:  # torch lists every mismatch
        lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
        detail = "; ".join(lines[1:3]) if len(lines) > 1 else (lines[0] if lines else "")
        more = f" (and {len(lines) - 3} more)" if len(lines) > 3 else ""
        raise ValueError(f"{os.fspath(path)}: the weights do not fit the config: "
                         f"{detail}{more}") from None
    net.to(device)
    net.eval()
    extra = data["extra"]
    if not isinstance(extra, dict):
        raise ValueError(f"{os.fspath(path)}: checkpoint 'extra' is not a dict")
    return net, extra


NATIVE_CONV_ROWS = (2, 8)
"""Batch sizes (least, most) at which CPU inference (PPO's rollouts,
:meth:`PolicyAgent.act_batch`) runs torch's native convolution instead of oneDNN's: a pool
snapshot's batch in the rollouts, or the decisions of a deal's games in the arena, is a few
rows, where oneDNN's convolution costs 60-90 µs a call in set-up and the native one about half
of it (measured on the development machine, torch 2.13, one thread; from about 14 rows on
oneDNN is faster, and at one row it has a fast path of its own). The same function in another
summation order: logits agree to about 1e-7 (at most 7.2e-7 for the shipped network)."""


@contextlib.contextmanager
def inference_conv(rows: int, device: torch.device) -> Iterator[None]:
    """The convolution for a CPU inference batch of ``rows`` (:data:`NATIVE_CONV_ROWS`)."""
    low, high = NATIVE_CONV_ROWS
    if device.type != "cpu" or not low <= rows <= high or not torch.backends.mkldnn.enabled:
        yield
        return
    torch.backends.mkldnn.enabled = False  # type: ignore[assignment]  # a ContextProp
    try:
        yield
    finally:
        torch.backends.mkldnn.enabled = True  # type: ignore[assignment]


Inference = Callable[[torch.Tensor, torch.Tensor], tuple[torch.Tensor, torch.Tensor]]
"""What :meth:`PolicyNet.forward` computes, as a callable: ``(obs, mask) -> (logits, value)``."""


def frozen(net: PolicyNet) -> Inference:
    """``net`` for CPU inference: its forward traced with TorchScript and frozen (the weights
    folded in as constants), so a call skips the modules' Python dispatch and the shape checks.
    A pool snapshot's batch of one or two rows in PPO's rollouts then costs about half, and the
    learner's batch of about 17 rows about four fifths (measured on the development machine,
    torch 2.13, one thread). The outputs are those of ``net`` to the bit (a test), at any batch
    size. The weights are copied: after ``net`` changes, freeze it again (about 30 ms).

    ``net`` itself off the CPU (tracing buys little where the device runs the batch), and where
    this torch cannot trace: torch 2.13 marks TorchScript deprecated in favour of
    ``torch.compile``, which needs a C++ toolchain and seconds of compiling in every process,
    and a plain functional forward saves only about a third of what the trace saves."""
    device = next(net.parameters()).device
    if device.type != "cpu":
        return net
    width, actions = net.config.obs_shape[1], net.config.num_actions
    example = (torch.zeros(2, net.config.input_planes, width),
               torch.ones(2, actions, dtype=torch.bool))
    copy = deepcopy(net).eval()  # a frozen module may share tensors with what it traced
    try:
        with torch.no_grad(), warnings.catch_warnings():
            # the tracer warns that the shape checks become constants of the trace (the
            # callers check their rows) and that TorchScript is deprecated (above)
            warnings.simplefilter("ignore")
            traced = torch.jit.trace(copy, example, check_trace=False)  # type: ignore[no-untyped-call]
            module = torch.jit.freeze(traced)
    except (AttributeError, RuntimeError):  # a torch without TorchScript
        return net
    return cast(Inference, module)


# ------------------------------------------------------------------ the agent

def _mixed_seed(*parts: int) -> int:
    """One 63-bit generator seed from several ints (``numpy.random.SeedSequence``)."""
    state = np.random.SeedSequence([p & 0xFFFFFFFFFFFFFFFF for p in parts]).generate_state(2)
    return (int(state[0]) << 31 ^ int(state[1])) & 0x7FFFFFFFFFFFFFFF


class PolicyAgent:
    """Plays a checkpoint's network (spec ``policy:PATH``, options ``device``, ``greedy``,
    ``seed``): the argmax of the masked logits (``greedy=True``, deterministic), or a sample
    from their softmax drawn with a CPU ``torch.Generator`` (so the same seeds give the same
    actions on any device). ``reset``'s seed, mixed with the agent's own ``seed``, restarts
    the generator. Always returns a legal action; a mask with no legal action is a ValueError.
    """

    spec_argument: ClassVar[str] = "path"
    """The option that the spec's argument fills: ``policy:PATH`` (mjenv.agent.parse_spec)."""

    def __init__(self, path: str, device: str = "cpu", greedy: bool = True,
                 seed: int | None = None) -> None:
        self.path = path
        self.device = torch.device(device)
        self.greedy = bool(greedy)
        self.seed = seed
        self.seat: int | None = None
        self.net, self.extra = load_checkpoint(path, self.device)
        self.forward = frozen(self.net)
        """``net``'s forward as :meth:`act_batch` runs it (:func:`frozen`: its weights never
        change)"""
        self.generator = torch.Generator(device="cpu")
        if seed is None:
            self.generator.seed()
        else:
            self.generator.manual_seed(_mixed_seed(seed))

    @property
    def batch_safe(self) -> bool:
        """Whether ``act_batch`` may decide for several games at once (mjenv.agent): with
        ``greedy`` the argmax of each row depends on that row alone; a sampling agent draws
        from a generator each game reseeds, so it decides one game at a time."""
        return self.greedy

    def reset(self, seat: int, seed: int | None = None) -> None:
        self.seat = seat
        if seed is not None:
            parts = (seed,) if self.seed is None else (self.seed, seed)
            self.generator.manual_seed(_mixed_seed(*parts))

    def act(self, observation: npt.ArrayLike, action_mask: npt.ArrayLike) -> int:
        obs = np.asarray(observation, dtype=np.float32)[None]
        mask = np.asarray(action_mask)[None]
        return self.act_batch(obs, mask)[0]

    def act_batch(self, observations: npt.ArrayLike, action_masks: npt.ArrayLike) -> list[int]:
        """One action per row of ``observations`` (B, 86, 34) and ``action_masks`` (B, 235),
        in one forward pass (observations of the network's feature encoder, (B, 86 + F, 34),
        are read as they are: :meth:`PolicyNet.prepare`)."""
        obs_np = np.asarray(observations, dtype=np.float32)
        if not obs_np.flags.writeable:  # torch.from_numpy warns on read-only arrays
            obs_np = obs_np.copy()
        mask_np = np.asarray(action_masks) != 0
        if mask_np.ndim != 2 or len(mask_np) != len(obs_np):
            raise ValueError(f"action_masks must have shape ({len(obs_np)}, "
                             f"{self.net.config.num_actions}), got {mask_np.shape}")
        empty = np.flatnonzero(~mask_np.any(axis=1))
        if len(empty):
            raise ValueError(f"no legal action: the mask of row {int(empty[0])} is all zero")
        obs_np = self.net.prepare(obs_np, mask_np)
        with torch.inference_mode(), inference_conv(len(obs_np), self.device):
            obs = torch.from_numpy(obs_np).to(self.device)
            mask = torch.from_numpy(mask_np).to(self.device)
            logits, _ = self.forward(obs, mask)
            if self.greedy:
                actions = logits.argmax(dim=1).cpu()
            else:
                probs = torch.softmax(logits.float(), dim=1).cpu()
                actions = torch.multinomial(probs, 1, generator=self.generator).squeeze(1)
        chosen = actions.tolist()
        if not all(mask_np[i, a] for i, a in enumerate(chosen)):
            raise RuntimeError(f"{self.path}: the network chose an illegal action "
                               "(NaN or infinite logits?)")
        return [int(a) for a in chosen]

    def explain(self, observation: npt.ArrayLike, action_mask: npt.ArrayLike,
                ) -> tuple[npt.NDArray[np.float32], float]:
        """What the network thinks of one decision: the probability of every action (0 where
        illegal) and its value estimate. The viewer's annotations use it (mjenv view --play)."""
        obs_np = np.array(observation, dtype=np.float32)[None]
        mask_np = np.asarray(action_mask)[None] != 0
        obs_np = self.net.prepare(obs_np, mask_np)
        with torch.inference_mode():
            logits, value = self.net(torch.from_numpy(obs_np).to(self.device),
                                     torch.from_numpy(mask_np).to(self.device))
            probs = torch.softmax(logits.float(), dim=1)[0].cpu().numpy()
        return probs.astype(np.float32), float(value[0])

"""TorchRL (0.14): mjenv through TorchRL's own wrappers.

The AEC env works in TorchRL's ``PettingZooWrapper`` as it is (``use_mask=True``: only the seat
to act has ``mask`` set; its ``action_mask`` is read from the observation dict). The adapter
adds what TorchRL keeps from the env's infos: TorchRL fixes the info spec from the infos at
reset, so :class:`TorchRLAEC` gives every agent the same flat numeric fields from the reset on
(``(group, "info", "score")`` etc. in the tensordict; with the bare env, whose infos are empty
until a hand ends, TorchRL drops them), plus the optional shaping reward::

    from mjenv.integrations.torchrl import pettingzoo_env
    env = pettingzoo_env(seed=0)                  # a torchrl PettingZooWrapper
    torchrl.envs.utils.check_env_specs(env)

``gym_env(opponents, shaping, **options)`` is TorchRL's ``GymWrapper`` over one learner seat
against fixed opponents (mjenv's SingleAgentEnv): ``observation`` (C, 34) and ``action_mask``
(bool) in the tensordict, for TorchRL's ``MaskedCategorical`` (examples/torchrl_ppo.py).
:class:`TorchRLAgent` plays a policy network saved by :func:`save_checkpoint` in the mjenv arena
(``mjenv.integrations.torchrl:TorchRLAgent path=...``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
from pettingzoo import AECEnv
from torch import nn
from torchrl.envs.libs.gym import GymWrapper
from torchrl.envs.libs.pettingzoo import PettingZooWrapper

import mjenv
from mjenv import actions as A
from mjenv.integrations._common import AdapterAEC, KeyedSingleAgentEnv, MaskedArgmaxAgent
from mjenv.single_agent import SingleAgentEnv

CHECKPOINT_FORMAT = "mjenv-torchrl-1"


class TorchRLAEC(AdapterAEC):
    """An mjenv AEC env with flat numeric infos from the reset on (TorchRL builds its info
    spec from the reset's infos) and the optional shaping reward; the observation unchanged.
    A PettingZoo AEC env itself (``pettingzoo.test.api_test`` passes)."""

    def __init__(self, env: AECEnv, shaping: float = 0.0) -> None:
        super().__init__(env, shaping=shaping)


def pettingzoo_env(shaping: float = 0.0, group_map: Any = None, seed: int | None = None,
                   **options: Any) -> PettingZooWrapper:
    """TorchRL's ``PettingZooWrapper`` over :class:`TorchRLAEC` over ``mjenv.env(**options)``,
    with the mask (``use_mask=True``) and integer actions (``categorical_actions=True``).
    ``group_map``: TorchRL's (default: one group per seat;
    ``torchrl.envs.utils.MarlGroupMapType.ALL_IN_ONE_GROUP`` stacks the four seats)."""
    return PettingZooWrapper(env=TorchRLAEC(mjenv.env(**options), shaping=shaping),
                             use_mask=True, categorical_actions=True, group_map=group_map,
                             seed=seed)


def single_env(opponents: Any = "random", seat: int | None = None, shaping: float = 0.0,
               **options: Any) -> KeyedSingleAgentEnv:
    """The Gymnasium env that :func:`gym_env` wraps: mjenv's SingleAgentEnv with the mask as
    bool (what TorchRL's ``MaskedCategorical`` takes), flat infos and ``shaping``."""
    return KeyedSingleAgentEnv(SingleAgentEnv(opponents=opponents, seat=seat, **options),
                               obs_key="observation", mask_key="action_mask",
                               mask_dtype=np.bool_, shaping=shaping)


def gym_env(opponents: Any = "random", seat: int | None = None, shaping: float = 0.0,
            **options: Any) -> GymWrapper:
    """One learner against fixed opponents in TorchRL's ``GymWrapper`` (integer actions:
    ``categorical_action_encoding=True``): the tensordict holds ``observation`` (C, 34)
    float32 and ``action_mask`` (235) bool; ``shaping`` is added to the learner's reward (see
    mjenv.integrations.tianshou.gym_env)."""
    return GymWrapper(single_env(opponents, seat, shaping, **options),
                      categorical_action_encoding=True)


# ------------------------------------------------------------------ the example's network
class PolicyNet(nn.Module):
    """An MLP over the flattened planes: 235 action logits (the policy) or, with
    ``outputs=1``, a value."""

    def __init__(self, obs_shape: tuple[int, ...], hidden: list[int] | tuple[int, ...],
                 outputs: int = A.NUM_ACTIONS) -> None:
        super().__init__()
        layers: list[nn.Module] = [nn.Flatten(-len(obs_shape))]
        size = int(np.prod(obs_shape))
        for h in hidden:
            layers += [nn.Linear(size, h), nn.Tanh()]
            size = h
        layers.append(nn.Linear(size, outputs))
        self.body = nn.Sequential(*layers)

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        out: torch.Tensor = self.body(obs)
        return out


def save_checkpoint(path: str, net: nn.Module, obs_shape: tuple[int, ...],
                    hidden: list[int] | tuple[int, ...]) -> None:
    """Save the policy network with what :class:`TorchRLAgent` needs to rebuild it."""
    torch.save({"format": CHECKPOINT_FORMAT, "state_dict": net.state_dict(),
                "obs_shape": list(obs_shape), "hidden": list(hidden)}, path)


class TorchRLAgent(MaskedArgmaxAgent):
    """An mjenv agent playing a :class:`PolicyNet` saved by :func:`save_checkpoint`: the legal
    action of highest logit (deterministic). Spec:
    ``mjenv.integrations.torchrl:TorchRLAgent path=PATH``."""

    def __init__(self, path: str) -> None:
        data = torch.load(path, map_location="cpu", weights_only=True)
        if not isinstance(data, dict) or data.get("format") != CHECKPOINT_FORMAT:
            raise ValueError(f"{path} is not a checkpoint of mjenv.integrations.torchrl")
        self.net = PolicyNet(tuple(data["obs_shape"]), data["hidden"])
        self.net.load_state_dict(data["state_dict"])
        self.net.eval()
        super().__init__(self._logits)

    def _logits(self, observation: np.ndarray, mask: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            out = self.net(torch.as_tensor(observation[None]))
        return out[0].numpy()  # type: ignore[no-any-return]

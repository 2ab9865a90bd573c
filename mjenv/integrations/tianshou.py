"""Tianshou 2.x: mjenv in Tianshou's PettingZoo recipe and in its single-agent (Gymnasium) one.

Tianshou's multi-agent recipe (its tic-tac-toe example) wraps a PettingZoo AEC env in
``tianshou.env.PettingZooEnv`` and gives one algorithm per agent to
``MultiAgentOffPolicyAlgorithm``::

    import mjenv
    from mjenv.integrations.tianshou import pettingzoo_env
    env = pettingzoo_env()            # tianshou.env.PettingZooEnv over TianshouAEC(mjenv.env())

``pettingzoo_env(**options)`` is ``PettingZooEnv(TianshouAEC(mjenv.env(**options)))``
(``wrap(env)`` is ``TianshouAEC(env)``). Tianshou finds the mask under ``obs.mask`` (its
``PettingZooEnv`` builds it from the ``action_mask`` key); its replay buffer stores the infos
(:class:`TianshouAEC` gives every agent the same flat numeric fields at every step,
:data:`~mjenv.integrations._common.HAND_FIELDS`); ``DummyVectorEnv.seed`` and
``reset(seed=...)`` reproduce a run; ``close`` closes the env. ``TianshouAEC(env, shaping=c)``
adds a shaping reward for the acting seat (``c`` per shanten gained or lost by its own action;
see :class:`~mjenv.integrations._common.Shaping`).

In that recipe Tianshou stores the four seats' decisions in one sequence per env: a seat's
``obs_next`` is the next seat's observation and its n-step return sums the rewards of the next
n decisions of any seat. That is how Tianshou does turn-based games; for training one learner
against fixed opponents, :func:`gym_env` is the exact form: a Gymnasium env (mjenv's
:class:`~mjenv.single_agent.SingleAgentEnv`) whose observation is ``{"obs", "mask"}`` (where
Tianshou's DQN looks for the mask), flat infos and the same shaping; examples/tianshou_dqn.py
trains on it. :class:`TianshouAgent` plays a saved Q-network in the mjenv arena
(``mjenv.integrations.tianshou:TianshouAgent path=...``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
from pettingzoo import AECEnv
from tianshou.env.pettingzoo_env import PettingZooEnv
from tianshou.utils.net.common import Net

import mjenv
from mjenv.integrations._common import AdapterAEC, KeyedSingleAgentEnv, MaskedArgmaxAgent
from mjenv.single_agent import SingleAgentEnv

CHECKPOINT_FORMAT = "mjenv-tianshou-dqn-1"


class TianshouAEC(AdapterAEC):
    """An mjenv AEC env (``mjenv.env()`` or ``raw_env()``) as Tianshou's ``PettingZooEnv``
    wants it: ``infos[agent]`` always holds the same flat numeric fields (zero until a hand
    ends, then that hand's, until the agent next acts: Tianshou's buffer stores them as
    arrays), ``rewards`` add the optional shaping reward to the acting seat's, ``seed(s)``
    resets with ``s``. The observation is the env's own ``{"observation", "action_mask"}``
    (Tianshou's ``PettingZooEnv`` turns it into ``obs`` and ``mask``). A PettingZoo AEC env
    itself: ``pettingzoo.test.api_test`` passes."""


def wrap(env: AECEnv, shaping: float = 0.0) -> TianshouAEC:
    """``TianshouAEC(env, shaping)``: for ``tianshou.env.PettingZooEnv(wrap(mjenv.env()))``."""
    return TianshouAEC(env, shaping=shaping)


def pettingzoo_env(shaping: float = 0.0, **options: Any) -> PettingZooEnv:
    """The env for Tianshou's multi-agent recipe: Tianshou's ``PettingZooEnv`` over
    :class:`TianshouAEC` over ``mjenv.env(**options)`` (illegal actions penalized)."""
    return PettingZooEnv(TianshouAEC(mjenv.env(**options), shaping=shaping))


def gym_env(opponents: Any = "random", seat: int | None = None, shaping: float = 0.0,
            **options: Any) -> KeyedSingleAgentEnv:
    """One learner against fixed opponents as a Gymnasium env for Tianshou's single-agent
    algorithms: :class:`~mjenv.single_agent.SingleAgentEnv` (``opponents``: agent specs, e.g.
    ``"random"`` or ``["greedy", "random", "random"]``; ``seat=None`` draws the learner's seat
    at every reset) whose observation is ``{"obs": (C, 34) float32, "mask": (235,) int8}``,
    infos the flat fields, and ``shaping`` added to the learner's reward."""
    return KeyedSingleAgentEnv(SingleAgentEnv(opponents=opponents, seat=seat, **options),
                               obs_key="obs", mask_key="mask", mask_dtype=np.int8,
                               shaping=shaping)


# ------------------------------------------------------------------ checkpoints and the arena
def make_net(obs_shape: tuple[int, ...], hidden_sizes: list[int] | tuple[int, ...],
             num_actions: int = 235) -> Net:
    """The Q-network the example trains: Tianshou's ``Net`` (an MLP over the flattened
    planes)."""
    return Net(state_shape=tuple(obs_shape), action_shape=num_actions,
               hidden_sizes=list(hidden_sizes))


def save_checkpoint(path: str, net: torch.nn.Module, obs_shape: tuple[int, ...],
                    hidden_sizes: list[int] | tuple[int, ...],
                    env_options: dict[str, Any] | None = None) -> None:
    """Save ``net`` with what :class:`TianshouAgent` needs to rebuild it."""
    torch.save({"format": CHECKPOINT_FORMAT, "state_dict": net.state_dict(),
                "obs_shape": list(obs_shape), "hidden_sizes": list(hidden_sizes),
                "env_options": dict(env_options or {})}, path)


class TianshouAgent(MaskedArgmaxAgent):
    """An mjenv agent playing a Q-network saved by :func:`save_checkpoint`: the legal action
    of highest Q-value (spec ``mjenv.integrations.tianshou:TianshouAgent path=PATH``). The env
    it plays in must use the encoder it was trained on (the default ``mjenv-v1``)."""

    def __init__(self, path: str, device: str = "cpu") -> None:
        data = torch.load(path, map_location=device, weights_only=True)
        if not isinstance(data, dict) or data.get("format") != CHECKPOINT_FORMAT:
            raise ValueError(f"{path} is not a checkpoint of mjenv.integrations.tianshou")
        self.net = make_net(tuple(data["obs_shape"]), data["hidden_sizes"]).to(device)
        self.net.load_state_dict(data["state_dict"])
        self.net.eval()
        self.device = device
        super().__init__(self._q)

    def _q(self, observation: np.ndarray, mask: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            q, _ = self.net(torch.as_tensor(observation[None], device=self.device))
        return q[0].cpu().numpy()  # type: ignore[no-any-return]

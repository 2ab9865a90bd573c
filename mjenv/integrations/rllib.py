"""RLlib (new API stack, Ray 2.60): mjenv in RLlib's PettingZoo recipe with its action masking.

RLlib's recipe for a PettingZoo AEC env is its own wrapper,
``ray.rllib.env.wrappers.pettingzoo_env.PettingZooEnv`` (a ``MultiAgentEnv``), and for legal
actions its example ``ActionMaskingTorchRLModule``, which reads the observation dict's
``observations`` and ``action_mask`` keys and adds ``log(action_mask)`` to the logits (torch
takes the log of the int8 mask as float). Its default encoders take 1D boxes only.
:class:`RLlibAEC` gives it that::

    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
    from ray.tune.registry import register_env
    import mjenv
    from mjenv.integrations.rllib import RLlibAEC

    register_env("mjenv", lambda cfg: PettingZooEnv(RLlibAEC(mjenv.env(**cfg))))
    # or: register_env("mjenv", mjenv.integrations.rllib.multi_agent_env)

Then one shared policy for the four seats: ``.multi_agent(policies={"shared"},
policy_mapping_fn=lambda agent_id, episode, **kw: "shared")`` with
``RLModuleSpec(module_class=ActionMaskingTorchRLModule)``
(examples/rllib_ppo.py). RLlib's ``PettingZooEnv`` returns an observation only for the seat to
act and gives each seat, when it is next asked (or when the hand ends), what it received since
its last decision: every seat's trajectory is its own.

:class:`RLlibAEC` (a PettingZoo AEC env: ``pettingzoo.test.api_test`` passes): the observation
``{"observations": (C*34,) float32, "action_mask": (235,) int8}`` (the planes flattened, no
copy; the env's own mask, int8, which PettingZoo's ``api_test`` samples with); infos the same
flat numeric fields every step; the optional shaping reward (``shaping=c``: ``c`` per shanten
the seat's own action gains or loses); ``seed(s)``.
:class:`RLlibAgent` plays a trained RLModule in the mjenv arena
(``mjenv.integrations.rllib:RLlibAgent path=CHECKPOINT/learner_group/learner/rl_module/shared``).
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

import mjenv
from mjenv.integrations._common import AdapterAEC, MaskedArgmaxAgent

OBS_KEY = "observations"
MASK_KEY = "action_mask"


class RLlibAEC(AdapterAEC):
    """See the module docstring: the observation under RLlib's keys, flattened."""

    def __init__(self, env: AECEnv, shaping: float = 0.0) -> None:
        super().__init__(env, shaping=shaping)
        inner = self.raw.observation_space(self.raw.possible_agents[0])
        assert isinstance(inner, spaces.Dict)
        box = inner["observation"]
        assert isinstance(box, spaces.Box)
        self.obs_space = spaces.Dict({
            OBS_KEY: spaces.Box(box.low.reshape(-1), box.high.reshape(-1), dtype=box.dtype),
            MASK_KEY: inner["action_mask"],
        })

    def convert(self, obs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        return {OBS_KEY: obs["observation"].reshape(-1),
                MASK_KEY: obs["action_mask"]}


def multi_agent_env(config: dict[str, Any] | None = None) -> Any:
    """``PettingZooEnv(RLlibAEC(mjenv.env(**options), shaping))``, RLlib's own
    ``MultiAgentEnv`` over the adapter, from RLlib's ``env_config`` (the env's options plus
    ``shaping``): what ``register_env`` takes."""
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

    options = dict(config or {})
    shaping = float(options.pop("shaping", 0.0))
    wrapper: Any = PettingZooEnv  # RLlib's annotations are partial
    return wrapper(RLlibAEC(mjenv.env(**options), shaping=shaping))


class RLlibAgent(MaskedArgmaxAgent):
    """An mjenv agent playing an RLlib RLModule with the action-masking forward pass (the
    legal action of highest logit; deterministic). ``path`` is the module's checkpoint folder
    (``ALGO_CHECKPOINT/learner_group/learner/rl_module/POLICY``). Spec:
    ``mjenv.integrations.rllib:RLlibAgent path=...``."""

    def __init__(self, path: str) -> None:
        import torch
        from ray.rllib.core.rl_module.rl_module import RLModule

        self.torch = torch
        self.module = cast(Any, RLModule.from_checkpoint(path))  # a TorchRLModule
        self.module.eval()
        super().__init__(self._logits)

    def _logits(self, observation: np.ndarray, mask: np.ndarray) -> np.ndarray:
        torch = self.torch
        batch = {"obs": {OBS_KEY: torch.as_tensor(observation.reshape(1, -1)),
                         MASK_KEY: torch.as_tensor(mask[None])}}
        with torch.no_grad():
            out = self.module.forward_inference(batch)
        return out["action_dist_inputs"][0].numpy()  # type: ignore[no-any-return]

"""Stable-Baselines3 and sb3-contrib (``MaskablePPO``) on mjenv: the thin parts their recipes need.

sb3-contrib's ``MaskablePPO`` trains a Gymnasium env that has an ``action_masks()`` method;
:class:`~mjenv.single_agent.SingleAgentEnv` has it, and its ``Dict`` observation
(``observation``, ``action_mask``) suits ``"MultiInputPolicy"``. So the plain recipe works with no
glue::

    import gymnasium, mjenv
    from sb3_contrib import MaskablePPO
    env = gymnasium.make("mjenv/MCRMahjong-v0", opponents="random")
    model = MaskablePPO("MultiInputPolicy", env).learn(10_000)

This module adds what a recipe cannot write in one line:

:func:`make_env`
    the single-agent env against fixed opponents, with :class:`ShantenShaping` (optional);
:class:`ShantenShaping`
    potential-based reward shaping toward ready hands. Against weak opponents almost every hand
    is a draw and the game's reward is nearly always 0; the shaping pays the change of
    ``-coef * shanten`` between the learner's decisions, and a potential difference changes no
    optimal policy (Ng, Harada and Russell, 1999): the objective stays the hand's score;
:class:`SelfPlayEnv`, :class:`SelfPlayCallback`, :func:`make_selfplay_env`
    self-play: the three opponents are one frozen copy of the learner's policy, refreshed from
    the learner every ``refresh`` steps (through ``env_method``, so ``SubprocVecEnv`` works);
:class:`MaskablePPOAgent`, :func:`agent_spec`
    a trained ``MaskablePPO`` model (a ``.zip``) as an mjenv agent (``reset``/``act``), so it
    plays in ``mjenv arena``: ``--agents "mjenv.integrations.sb3:MaskablePPOAgent path=m.zip"``.

Requires ``stable-baselines3`` and ``sb3-contrib`` (the ``sb3`` extra); docs/integrations.md.
"""

from __future__ import annotations

import copy
import shlex
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback

from mjenv.agent import Agent
from mjenv.shanten import shanten_counts
from mjenv.single_agent import SingleAgentEnv

OBS_KEYS = ("observation", "action_mask")
"""The observation keys a model for :class:`MaskablePPOAgent` may read (no ``oracle``: the
arena gives an agent its seat's observation and mask only)."""


def _single(env: gymnasium.Env[Any, Any]) -> SingleAgentEnv:
    inner = env.unwrapped
    if not isinstance(inner, SingleAgentEnv):
        raise ValueError(f"expected a SingleAgentEnv (or a wrapper of one), got {env!r}")
    return inner


class ShantenShaping(gymnasium.Wrapper[dict[str, np.ndarray], int, dict[str, np.ndarray], int]):
    """Adds ``gamma * phi(s') - phi(s)`` to each step's reward, ``phi = -coef * shanten`` of
    the learner's own hand at its decision (standing tiles and melds: what its observation
    shows), ``phi = 0`` once the episode is over. Over an episode the shaping sums to about
    ``coef * shanten`` of the first hand (exactly with ``gamma=1``), whatever the policy does:
    it speeds credit assignment without moving the optimum. Use the learner's discount as
    ``gamma``. ``action_masks()`` and the infos pass through unchanged."""

    def __init__(self, env: gymnasium.Env[dict[str, np.ndarray], int], coef: float = 0.05,
                 gamma: float = 0.99) -> None:
        super().__init__(env)
        if not (np.isfinite(coef) and coef >= 0):
            raise ValueError(f"coef must be a finite number >= 0, got {coef!r}")
        if not 0 < gamma <= 1:
            raise ValueError(f"gamma must be in (0, 1], got {gamma!r}")
        self.coef = float(coef)
        self.gamma = float(gamma)
        self.single = _single(env)
        self._phi = 0.0

    def potential(self) -> float:
        """``-coef * shanten`` of the learner's hand now."""
        single = self.single
        view = single.aec.view(single.agent)
        return -self.coef * shanten_counts(view.hand, len(view.melds[view.seat]))

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None,
              ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        obs, info = self.env.reset(seed=seed, options=options)
        self._phi = self.potential()
        return obs, info

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool,
                                         dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        phi = 0.0 if terminated or truncated else self.potential()
        shaped = float(reward) + self.gamma * phi - self._phi
        self._phi = phi
        return obs, shaped, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        return self.single.action_masks()


def make_env(opponents: str | Agent | Sequence[str | Agent] = "random", *,
             shaping: float = 0.0, gamma: float = 0.99,
             **options: Any) -> gymnasium.Env[dict[str, np.ndarray], int]:
    """A :class:`~mjenv.single_agent.SingleAgentEnv` against ``opponents`` (``options``: its
    own and the env's: ``seat``, ``rules``, ``reward``, ...), wrapped in
    :class:`ShantenShaping` when ``shaping > 0``. For ``make_vec_env(make_env, ...)`` or
    ``MaskablePPO("MultiInputPolicy", make_env(...))``."""
    env: gymnasium.Env[dict[str, np.ndarray], int] = SingleAgentEnv(opponents, **options)
    if shaping:
        env = ShantenShaping(env, shaping, gamma)
    return env


# ------------------------------------------------------------------ agents from models
def _check_spaces(space: gymnasium.spaces.Space[Any]) -> None:
    if not isinstance(space, gymnasium.spaces.Dict) or not set(space.spaces) <= set(OBS_KEYS):
        raise ValueError(f"the model's observation space must be a Dict of {list(OBS_KEYS)} "
                         f"(SingleAgentEnv without oracle), got {space}")


class PolicyOpponent:
    """An mjenv agent playing a (frozen) SB3 maskable policy: the masked distribution's sample,
    or its mode with ``deterministic=True``. ``policy=None`` plays uniformly among the legal
    actions (a self-play env before its first refresh). One object can play all three
    opponent seats: it keeps no state between decisions but its random stream."""

    def __init__(self, policy: Any = None, deterministic: bool = False,
                 seed: int | None = None) -> None:
        self.policy = policy
        self.deterministic = deterministic
        self.rng = np.random.default_rng(seed)

    def reset(self, seat: int, seed: int | None = None) -> None:
        if seed is not None:
            self.rng = np.random.default_rng(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        legal = np.flatnonzero(action_mask)
        if len(legal) == 0:
            raise ValueError("no legal action: the mask is all zero")
        policy = self.policy
        if policy is None or len(legal) == 1:
            return int(legal[self.rng.integers(len(legal))]) if len(legal) > 1 \
                else int(legal[0])
        return _policy_action(policy, observation, action_mask, self.deterministic, self.rng)


def _policy_action(policy: Any, observation: np.ndarray, action_mask: np.ndarray,
                   deterministic: bool, rng: np.random.Generator) -> int:
    """One decision of an SB3 maskable policy, without ``predict``'s checks and copies: the
    observation as a batch of one, the masked logits, their argmax or a sample from ``rng``
    (so that seeding the agent seeds its play)."""
    keys = policy.observation_space.spaces
    obs = {"observation": torch.as_tensor(observation).unsqueeze(0)}
    if "action_mask" in keys:
        obs["action_mask"] = torch.as_tensor(action_mask).unsqueeze(0)
    with torch.no_grad():
        features = policy.extract_features(obs)
        if isinstance(features, tuple):  # separate actor and critic extractors
            features = features[0]
        latent = policy.mlp_extractor.forward_actor(features)
        logits = policy.action_net(latent)[0].numpy().astype(np.float64)
    logits[action_mask == 0] = -np.inf
    if deterministic:
        return int(np.argmax(logits))
    p = np.exp(logits - logits.max())
    p /= p.sum()
    return int(rng.choice(len(p), p=p))


class MaskablePPOAgent:
    """A trained sb3-contrib ``MaskablePPO`` model (``path``: its ``.zip``, or ``model``) as an
    mjenv agent: the mode of its masked policy (``deterministic=False``: a sample). The model
    must have been trained on mjenv's observation (``observation`` and ``action_mask``, the
    default encoder, no oracle); the arena gives the agent exactly that. Runs on the CPU."""

    spec_argument = "path"

    def __init__(self, path: str | None = None, model: MaskablePPO | None = None,
                 deterministic: bool = True, seed: int | None = None) -> None:
        if (path is None) == (model is None):
            raise ValueError("give a MaskablePPO model's path or the model, not both")
        if model is None:
            assert path is not None
            model = MaskablePPO.load(path, device="cpu")
        _check_spaces(model.observation_space)
        self.model = model
        self.policy = model.policy
        self.policy.set_training_mode(False)
        self.opponent = PolicyOpponent(self.policy, deterministic, seed)

    def reset(self, seat: int, seed: int | None = None) -> None:
        self.opponent.reset(seat, seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return self.opponent.act(observation, action_mask)


def agent_spec(path: str, **options: Any) -> str:
    """The mjenv agent spec of a saved model, for ``mjenv arena --agents`` and
    :func:`mjenv.agent.make_agent`: ``mjenv.integrations.sb3:MaskablePPOAgent path='...'``."""
    words = [f"path={shlex.quote(str(path))}"] + [f"{k}={v!r}" for k, v in options.items()]
    return "mjenv.integrations.sb3:MaskablePPOAgent " + " ".join(words)


# ------------------------------------------------------------------ self-play
class SelfPlayEnv(SingleAgentEnv):
    """A :class:`~mjenv.single_agent.SingleAgentEnv` whose three opponents are one
    :class:`PolicyOpponent`: a frozen copy of the learner's policy, set by
    :meth:`set_opponent_policy` and refreshed by :meth:`load_opponent_state` (both reached
    through a VecEnv's ``env_method``; :class:`SelfPlayCallback` calls them). Until the first
    policy arrives the opponents play uniformly at random."""

    def __init__(self, seat: int | None = None, deterministic: bool = False,
                 **options: Any) -> None:
        self.opponent = PolicyOpponent(None, deterministic)
        super().__init__(self.opponent, seat=seat, **options)

    def set_opponent_policy(self, policy: Any) -> None:
        """Play the opponents with ``policy`` (kept as given: copy it first)."""
        if policy is not None:
            policy.set_training_mode(False)
        self.opponent.policy = policy

    def load_opponent_state(self, state: dict[str, Any]) -> None:
        """Refresh the opponents' policy with the learner's weights (a ``state_dict``)."""
        policy = self.opponent.policy
        if policy is None:
            raise ValueError("no opponent policy yet: call set_opponent_policy first")
        policy.load_state_dict(state)


def make_selfplay_env(*, shaping: float = 0.0, gamma: float = 0.99,
                      **options: Any) -> gymnasium.Env[dict[str, np.ndarray], int]:
    """A :class:`SelfPlayEnv` (``options``: its own and the env's), wrapped in
    :class:`ShantenShaping` when ``shaping > 0``."""
    env: gymnasium.Env[dict[str, np.ndarray], int] = SelfPlayEnv(**options)
    if shaping:
        env = ShantenShaping(env, shaping, gamma)
    return env


class SelfPlayCallback(BaseCallback):
    """Gives every self-play env a frozen copy of the learner's policy when training starts,
    and copies the learner's weights into it every ``refresh`` environment steps (counted over
    all envs), so the opponents trail the learner by at most ``refresh`` steps."""

    def __init__(self, refresh: int = 20_000, verbose: int = 0) -> None:
        super().__init__(verbose)
        if refresh < 1:
            raise ValueError(f"refresh must be >= 1, got {refresh!r}")
        self.refresh = refresh
        self.refreshes = 0
        self._last = 0

    def _state(self) -> dict[str, Any]:
        return {k: v.detach().clone() for k, v in self.model.policy.state_dict().items()}

    def _on_training_start(self) -> None:
        frozen = copy.deepcopy(self.model.policy)
        self.training_env.env_method("set_opponent_policy", frozen)
        self._last = self.num_timesteps

    def _on_step(self) -> bool:
        if self.num_timesteps - self._last >= self.refresh:
            self.training_env.env_method("load_opponent_state", self._state())
            self._last = self.num_timesteps
            self.refreshes += 1
            if self.verbose:
                print(f"self-play: opponents refreshed at step {self.num_timesteps}")
        return True

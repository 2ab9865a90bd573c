"""A single-agent Gymnasium view of the game: one learner seat against fixed opponent agents.

>>> from mjenv.single_agent import SingleAgentEnv
>>> env = SingleAgentEnv(opponents="random", seat=None)      # doctest: +SKIP
>>> obs, info = env.reset(seed=0)                            # doctest: +SKIP
>>> obs, reward, terminated, truncated, info = env.step(action)   # doctest: +SKIP

Each ``step`` plays the learner's action, then the opponents' decisions until the learner must
decide again or the episode ends. The reward is everything the learner's seat received in
between (hand payments, in the env's ``reward`` mode). ``observation_space`` is the AEC env's
``Dict(observation, action_mask[, oracle])``; mask the policy with ``obs["action_mask"]``.
A deal that ends before the learner's first decision (an opponent wins at once) is dealt again
from the same seed sequence. ``seat=None`` puts the learner in a seat drawn from the reset seed
(so it plays every seat over many episodes); an int fixes it. Opponents are agent specs
(mjenv.agent) or agent objects: one for all three seats, or a list of three (for the seats
after the learner's, in order).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np

from mjenv.agent import Agent, make_agent
from mjenv.mahjong_env import AGENTS, MahjongEnv


class SingleAgentEnv(gymnasium.Env[dict[str, np.ndarray], int]):
    """See the module docstring. ``env_options`` go to :class:`~mjenv.mahjong_env.MahjongEnv`
    (``rules``, ``episode``, ``reward``, ``false_win``, ``encoder``, ``oracle``)."""

    metadata = {"render_modes": ["ansi", "human"]}

    def __init__(self, opponents: str | Agent | Sequence[str | Agent] = "random",
                 seat: int | None = None, render_mode: str | None = None,
                 **env_options: Any) -> None:
        if seat is not None and (isinstance(seat, bool) or seat not in range(4)):
            raise ValueError(f"seat must be None or 0..3, got {seat!r}")
        if isinstance(opponents, (str, Agent)):
            opponents = [opponents] * 3
        if len(opponents) != 3:
            raise ValueError(f"give one opponent or three, got {len(opponents)}")
        self.opponents: list[Agent] = [make_agent(o) if isinstance(o, str) else o
                                       for o in opponents]
        self.aec = MahjongEnv(render_mode=render_mode, **env_options)
        self.fixed_seat = seat
        self.seat = 0 if seat is None else seat
        self.render_mode = render_mode
        self.observation_space = self.aec.observation_space(AGENTS[0])
        self.action_space = self.aec.action_space(AGENTS[0])

    @property
    def agent(self) -> str:
        return AGENTS[self.seat]

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray],
                                                               dict[str, Any]]:
        super().reset(seed=seed)
        rng = np.random.default_rng(seed)
        if self.fixed_seat is None:
            self.seat = int(rng.integers(4))
        for _ in range(100):  # a deal the learner never gets to play is dealt again
            self.aec.reset(seed=None if seed is None else int(rng.integers(2**63)),
                           options=options)
            for i, opponent in enumerate(self.opponents):
                opponent.reset((self.seat + 1 + i) % 4,
                               None if seed is None else int(rng.integers(2**63)))
            if not self._play_opponents():
                return self.aec.observe(self.agent), self._info()
            if options:
                raise ValueError("the given deal ends before the learner has a decision")
        raise RuntimeError("no deal gave the learner a decision in 100 tries")

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool,
                                         dict[str, Any]]:
        aec = self.aec
        if aec.terminations[self.agent] or aec.agent_selection != self.agent:
            raise ValueError("the episode is over: call reset()")
        aec.step(int(action))
        done = self._play_opponents()
        reward = aec._cumulative_rewards[self.agent]
        aec._cumulative_rewards[self.agent] = 0.0
        return aec.observe(self.agent), float(reward), done, False, self._info()

    def _play_opponents(self) -> bool:
        """Opponents act until the learner must decide (False) or the episode ends (True)."""
        aec = self.aec
        me = self.agent
        while not aec.terminations[me]:
            current = aec.agent_selection
            if current == me:
                return False
            seat = AGENTS.index(current)
            opponent = self.opponents[(seat - self.seat - 1) % 4]
            obs = aec.observe(current)
            aec.step(opponent.act(obs["observation"], obs["action_mask"]))
        return True

    def _info(self) -> dict[str, Any]:
        return dict(self.aec.infos.get(self.agent, {}))

    def render(self) -> str | None:
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()

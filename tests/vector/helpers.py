"""Shared helpers of the batch tests: a reference batch of ``raw_env``\\s played in lockstep,
and a deterministic choice of actions that depends only on the game and its mask."""

from __future__ import annotations

from typing import Any

import numpy as np

import mjenv
from mjenv.mahjong_env import AGENTS, MahjongEnv
from mjenv.vector import episode_seed


def choose(masks: np.ndarray, step: int, first: int = 0) -> np.ndarray:
    """One legal action per row: a pseudo-random pick from (game index, step) only, so that
    game ``k`` gets the same actions whatever the batch it is in."""
    out = np.zeros(len(masks), dtype=np.int64)
    for i, m in enumerate(masks):
        legal = np.flatnonzero(m)
        if len(legal):
            out[i] = legal[(step * 7919 + (first + i) * 104729) % len(legal)]
    return out


class Reference:
    """``n`` ``raw_env``\\s, game ``k`` reset with ``episode_seed(seed, k, e)`` for its
    episode ``e``: what a batch must equal."""

    def __init__(self, n: int, seed: int, **options: Any) -> None:
        self.seed = seed
        self.envs: list[MahjongEnv] = [mjenv.raw_env(**options) for _ in range(n)]
        self.episodes = [0] * n
        for k, env in enumerate(self.envs):
            env.reset(seed=episode_seed(seed, k, 0))

    def seat(self, k: int) -> int:
        return AGENTS.index(self.envs[k].agent_selection)

    def observe(self, k: int) -> dict[str, np.ndarray]:
        env = self.envs[k]
        return env.observe(env.agent_selection)

    def step(self, k: int, action: int, penalize: bool = False,
             ) -> tuple[list[float], bool, dict[str, Any] | None]:
        """Game ``k``'s step: the four rewards, whether the episode ended (then the env starts
        its next episode) and the hand's info as the batch gives it (None unless a hand
        ended)."""
        env = self.envs[k]
        agent = env.agent_selection
        game = env.game  # a hand ended at this step iff this game is over after it
        assert game is not None
        if penalize:
            env.penalize(agent)
        else:
            env.step(action)
        rewards = [env.rewards[a] for a in AGENTS]
        info = None
        if game.is_over:
            info = {"hand": env.infos[AGENTS[0]]["hand"], "result": env.hand_result()}
        done = all(env.terminations.values())
        if done:
            self.episodes[k] += 1
            env.reset(seed=episode_seed(self.seed, k, self.episodes[k]))
        return rewards, done, info

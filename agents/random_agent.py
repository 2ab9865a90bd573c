"""``RandomAgent`` (spec ``random``): a uniformly random legal action."""

from __future__ import annotations

import numpy as np


class RandomAgent:
    """Picks uniformly among the legal actions; ``seed`` (or ``reset``'s seed) makes it
    reproducible. ``win_first=True`` always takes a legal Win (action 1)."""

    uses_observation = False
    """It reads only the mask: wrappers may skip encoding its observation (mjenv.agent)."""

    def __init__(self, seed: int | None = None, win_first: bool = False) -> None:
        self.seed = seed
        self.win_first = win_first
        self.rng = np.random.default_rng(seed)

    def reset(self, seat: int, seed: int | None = None) -> None:
        """A new game: the generator restarts from ``seed`` mixed with the agent's own seed, so
        two differently seeded agents differ even when a caller resets both with one seed."""
        if seed is not None:
            self.rng = np.random.default_rng(seed if self.seed is None else [self.seed, seed])

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        legal = np.flatnonzero(action_mask)
        if len(legal) == 0:
            raise ValueError("no legal action: the mask is all zero")
        if self.win_first and action_mask[1]:
            return 1
        return int(legal[self.rng.integers(len(legal))])

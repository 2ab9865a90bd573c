"""Agents for the learner-batch tests (module level, so that worker processes import them)."""

from __future__ import annotations

import numpy as np


class LowestLegal:
    """Plays the lowest legal action; counts its calls, and batches when ``batched``."""

    def __init__(self) -> None:
        self.acts = 0
        self.batches: list[int] = []

    def reset(self, seat: int, seed: int | None = None) -> None:
        pass

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        self.acts += 1
        return int(np.flatnonzero(action_mask)[0])


class BatchedLowestLegal(LowestLegal):
    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> list[int]:
        assert observations.shape[0] == action_masks.shape[0]
        self.batches.append(len(action_masks))
        return [int(np.flatnonzero(m)[0]) for m in action_masks]


class ShapeRecorder(LowestLegal):
    """Records the observation shapes it is shown."""

    def __init__(self) -> None:
        super().__init__()
        self.shapes: set[tuple[int, ...]] = set()

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        self.shapes.add(observation.shape)
        return super().act(observation, action_mask)

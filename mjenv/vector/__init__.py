"""Many games stepped as one batch (docs/vector.md).

* :class:`VectorMahjongEnv`: N games of ``raw_env``; every seat's decision comes from the
  caller, one action per game and step, observations written into one preallocated array.
* :class:`LearnerVectorEnv`: a ``gymnasium.vector.VectorEnv`` of N games in which one learner
  seat plays against fixed agents (batched where they have ``act_batch``).
* :func:`episode_seed`: the seed stream that makes a run the same games whatever the batch size
  and the number of worker processes.
"""

from __future__ import annotations

from mjenv.vector.env import Batch, VectorMahjongEnv
from mjenv.vector.learner import LearnerVectorEnv
from mjenv.vector.seeds import episode_seed

__all__ = ["Batch", "LearnerVectorEnv", "VectorMahjongEnv", "episode_seed"]

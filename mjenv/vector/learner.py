"""``LearnerVectorEnv``: N games, one learner seat in each against fixed agents, as a
``gymnasium.vector.VectorEnv``.

Why: single-agent trainers (PPO in the Gymnasium style: CleanRL, sb3-like loops) step a
``VectorEnv`` of N copies of a single-agent env; this is N copies of
:class:`~mjenv.single_agent.SingleAgentEnv` in one object, stepped together, with the
opponents' decisions batched across the games and, optionally, the games split over worker
processes. Each game is exactly ``SingleAgentEnv`` reset with its episode seeds
(:mod:`mjenv.vector.learner_shard`), so the spaces, rewards and infos are that env's:

* ``single_observation_space``: ``Dict(observation, action_mask[, oracle])`` (the env's);
  ``observation_space`` its batch (a ``Dict`` of ``Box``\\es with a leading N);
* ``single_action_space``: ``Discrete(235)``; ``action_space``: ``MultiDiscrete([235] * N)``;
* ``metadata["autoreset_mode"]``: ``AutoresetMode.NEXT_STEP`` (Gymnasium's default) or
  ``SAME_STEP`` (``autoreset_mode="same_step"``); ``DISABLED`` is not offered;
* infos in Gymnasium's vector form: per key an array over the games and a ``_key`` mask.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from mjenv.vector.buffers import Arrays, bytes_per_game
from mjenv.vector.checks import check_actions, check_count, handle_illegal
from mjenv.vector.env import CountsDecoding
from mjenv.vector.learner_shard import (
    NEXT_STEP,
    SAME_STEP,
    learner_array_specs,
    make_learner_shard,
)
from mjenv.vector.opponents import OpponentSpec, opponent_list
from mjenv.vector.options import (
    check_illegal,
    check_observation_dtype,
    env_options,
    single_spaces,
)
from mjenv.vector.seeds import check_seed, fresh_seed
from mjenv.vector.shard import Infos
from mjenv.vector.workers import LocalRunner, WorkerPool, start_games

_MODES = {NEXT_STEP: AutoresetMode.NEXT_STEP, SAME_STEP: AutoresetMode.SAME_STEP,
          AutoresetMode.NEXT_STEP: AutoresetMode.NEXT_STEP,
          AutoresetMode.SAME_STEP: AutoresetMode.SAME_STEP,
          AutoresetMode.NEXT_STEP.value: AutoresetMode.NEXT_STEP,
          AutoresetMode.SAME_STEP.value: AutoresetMode.SAME_STEP}
_NAMES = {AutoresetMode.NEXT_STEP: NEXT_STEP, AutoresetMode.SAME_STEP: SAME_STEP}

Obs = dict[str, npt.NDArray[Any]]


def _autoreset_mode(value: object) -> AutoresetMode:
    try:
        return _MODES[value]
    except (KeyError, TypeError):
        raise ValueError(f"autoreset_mode must be 'next_step' or 'same_step' (or Gymnasium's "
                         f"AutoresetMode.NEXT_STEP / SAME_STEP), got {value!r}") from None


class LearnerVectorEnv(VectorEnv[Obs, npt.NDArray[np.int64], npt.NDArray[Any]], CountsDecoding):
    """See the module docstring and docs/vector.md.

    ``opponents`` and ``seat`` as for ``SingleAgentEnv`` (``seat=None``: drawn per episode);
    ``illegal`` ``"penalize"`` (default) or ``"raise"``; ``autoreset_mode``;
    ``opponent_encoder``: the encoder whose observation the opponents get (default the env's
    own; give ``"mjenv-v1"`` when the learner's is ``"mjenv-v1+shanten"`` and the opponents
    read ``mjenv-v1``, as the rule-based agents do); ``num_workers``, ``context``,
    ``pin_workers``, ``copy`` and ``observation_dtype`` as for
    :class:`~mjenv.vector.env.VectorMahjongEnv` (``copy`` defaults to True here, as in
    Gymnasium's own vector envs; with ``observation_dtype="uint8"`` the observations, the
    ``final_obs`` of ``autoreset_mode="same_step"`` included, are the encoder's counts, and
    :meth:`decode_observation` turns them into float32);
    ``raw_env``'s options (``rules``, ``episode``, ``reward``, ``false_win``, ``encoder``,
    ``oracle``).
    """

    def __init__(self, num_envs: int, opponents: OpponentSpec | Sequence[OpponentSpec] = "random",
                 seat: int | None = None, *, illegal: str = "penalize",
                 autoreset_mode: str | AutoresetMode = NEXT_STEP,
                 opponent_encoder: str | None = None, num_workers: int = 0,
                 context: str = "spawn", pin_workers: bool | str = "auto", copy: bool = True,
                 observation_dtype: str = "float32", **options: Any) -> None:
        check_count("num_envs", num_envs, 1)
        check_count("num_workers", num_workers, 0)
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)
                                 or seat not in range(4)):
            raise ValueError(f"seat must be None or 0..3, got {seat!r}")
        mode = _autoreset_mode(autoreset_mode)
        self.options = env_options(options)
        self.observation_dtype = check_observation_dtype(observation_dtype, self.options)
        env = self.options.check()
        self.single_observation_space, self.single_action_space = single_spaces(
            env, self.observation_dtype)
        self._init_counts(env)
        if opponent_encoder is not None:
            self.options.observation_shape(opponent_encoder)  # ValueError for an unknown one
        self.illegal = check_illegal(illegal)
        self.num_envs = num_envs
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.metadata = {"autoreset_mode": mode, "render_modes": []}
        self.autoreset_mode = mode
        self.copy = bool(copy)
        self.seed: int | None = None
        """The run seed of the last reset (drawn there when none was given)."""
        self.specs = learner_array_specs(self.options, self.observation_dtype)
        args = (self.options, opponent_list(opponents), seat, self.illegal, _NAMES[mode],
                opponent_encoder)
        self.arrays: Arrays
        self._runner: LocalRunner | WorkerPool
        self.arrays, self._runner = start_games(make_learner_shard, args, self.specs, num_envs,
                                                num_workers, context, pin_workers)
        self._restarting = np.zeros(num_envs, dtype=bool)
        self._reset_done = False

    @property
    def worker_pids(self) -> list[int]:
        """The worker processes' ids (empty without workers)."""
        return self._runner.pids

    @property
    def worker_cpus(self) -> list[int | None]:
        """The CPU each worker is kept to, None where the scheduler places it (empty without
        workers; ``pin_workers`` decides)."""
        return self._runner.cpus

    @property
    def bytes_per_game(self) -> int:
        """The batch arrays' size for one game (the games' own state comes on top)."""
        return bytes_per_game(self.specs)

    def reset(self, *, seed: int | list[int] | None = None,
              options: dict[str, Any] | None = None) -> tuple[Obs, dict[str, Any]]:
        """Start every game (slot ``k``: the episodes of ``episode_seed(seed, k, 0, 1, ...)``;
        ``seed=None`` draws a run seed, kept in :attr:`seed`). A list of seeds and reset
        options (a given deal) are not supported: ValueError."""
        if options:
            raise ValueError("reset options (a given deal) are for SingleAgentEnv; a batch "
                             "plays its seed stream")
        if isinstance(seed, list):
            raise ValueError("give one run seed (an int): every game's seeds come from it "
                             "(mjenv.vector.seeds)")
        self.seed = fresh_seed() if seed is None else check_seed(seed)
        infos = self._runner.reset(self.seed)
        self._restarting[:] = False
        self._reset_done = True
        return self._observations(), self._infos(infos)

    def step(self, actions: npt.ArrayLike) -> tuple[Obs, npt.NDArray[np.float64],
                                                     npt.NDArray[np.bool_],
                                                     npt.NDArray[np.bool_], dict[str, Any]]:
        """One learner action per game (ignored for a game that ended at the previous step in
        ``next_step`` mode: it starts its next episode instead)."""
        if not self._reset_done:
            raise ValueError("call reset() before step()")
        masks = self.arrays["action_mask"]
        arr, bad = check_actions(actions, masks, ~self._restarting)
        handle_illegal(bad, arr, masks, self.illegal, "of the learner")
        self.arrays["action"][:] = arr
        infos = self._runner.step()
        terminated = self.arrays["terminated"]
        if self.autoreset_mode == AutoresetMode.NEXT_STEP:
            self._restarting[:] = terminated
        rewards = self.arrays["reward"]
        truncated = np.zeros(self.num_envs, dtype=bool)
        if self.copy:
            rewards, terminated = rewards.copy(), terminated.copy()
        return self._observations(), rewards, terminated, truncated, self._infos(infos)

    def close_extras(self, **kwargs: Any) -> None:
        """Stop the workers (nothing to do without)."""
        self._runner.close()

    def __enter__(self) -> LearnerVectorEnv:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _observations(self) -> Obs:
        a = self.arrays
        obs = {"observation": a["observation"], "action_mask": a["action_mask"]}
        if "oracle" in a:
            obs["oracle"] = a["oracle"]
        if self.copy:
            obs = {k: v.copy() for k, v in obs.items()}
        return obs

    def _infos(self, infos: Infos) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for i, info in infos:
            out = self._add_info(out, info, i)
        return out

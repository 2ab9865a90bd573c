"""``VectorMahjongEnv``: N independent games stepped as one batch, every seat's decision from
the caller (self-play, league play, a multi-agent learner).

Each game is ``raw_env`` with the same options; at every step each game asks exactly one seat
(``raw_env``'s ``agent_selection``: the seat to discard, or the next seat in a claim window)
and the caller answers with one action per game. See docs/vector.md for the whole contract.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from mjenv.mahjong_env import MahjongEnv
from mjenv.vector.buffers import Arrays, bytes_per_game
from mjenv.vector.checks import check_actions, check_count, handle_illegal
from mjenv.vector.options import check_illegal, check_observation_dtype, env_options, single_spaces
from mjenv.vector.scaling import counts_to_float
from mjenv.vector.seeds import check_seed, fresh_seed
from mjenv.vector.shard import Infos, array_specs, make_games_shard
from mjenv.vector.workers import LocalRunner, WorkerPool, start_games


class CountsDecoding:
    """What both batch classes offer for ``observation_dtype="uint8"``: the scale and divisor
    that make the float32 observation of the counts, and :meth:`decode_observation`. Set up
    by :meth:`_init_counts` from the env the options built."""

    observation_scale: npt.NDArray[np.float32] | None
    """The float32 observation's first channels are the counts times this (read-only; None
    for an encoder without counts)."""
    observation_divisor: npt.NDArray[np.float32] | None
    """... and its remaining channels the counts divided by this (None: there are none)."""
    _counts_shape: tuple[int, ...]
    _counts_encoder: str

    def _init_counts(self, env: MahjongEnv) -> None:
        encoder = env.encoder
        counts = encoder.count_channels > 0
        self.observation_scale = encoder.count_scale() if counts else None
        self.observation_divisor = encoder.count_divisor() if counts else None
        self._counts_shape = encoder.shape
        self._counts_encoder = encoder.name

    def decode_observation(self, counts: npt.NDArray[np.uint8],
                           out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]:
        """The float32 observations of ``counts`` (rows of ``observation_dtype="uint8"``
        observations, ``(n, *shape)``): the values the float32 batch returns, bit for bit,
        into ``out`` (or a new array). On a GPU, the same float32 operations give the same
        values: ``x[:, :S] * scale``, then ``x[:, S:] / divisor`` where there is one
        (``S = len(scale)``)."""
        scale = self.observation_scale
        if scale is None:
            raise ValueError(f"encoder {self._counts_encoder} has no counts to decode")
        counts = np.asarray(counts)
        if counts.dtype != np.uint8 or counts.shape[1:] != self._counts_shape:
            raise ValueError(f"counts must be uint8 of shape (n, *{self._counts_shape}), got "
                             f"{counts.dtype} of shape {counts.shape}")
        if out is None:
            out = np.empty(counts.shape, dtype=np.float32)
        counts_to_float(counts, scale, self.observation_divisor, out)
        return out


@dataclass(frozen=True, slots=True)
class Batch:
    """What :meth:`VectorMahjongEnv.reset` and :meth:`~VectorMahjongEnv.step` return, one row
    per game. The arrays are the env's own buffers, overwritten by the next call, unless the
    env was made with ``copy=True``."""

    seat: npt.NDArray[np.int8]
    """(N,) the seat (0..3) that must act next in each game."""
    observation: npt.NDArray[Any]
    """(N, *encoder shape) that seat's observation (``raw_env.observe(...)["observation"]``),
    float32; with ``observation_dtype="uint8"`` the encoder's counts, of which that
    observation is a fixed scaling (:meth:`VectorMahjongEnv.decode_observation`)."""
    action_mask: npt.NDArray[np.int8]
    """(N, 235) that seat's legal actions."""
    oracle: npt.NDArray[np.float32] | None
    """(N, 38, 34) the ``oracle-v1`` planes for that seat with ``oracle=True``, else None."""
    reward: npt.NDArray[np.float64]
    """(N, 4) each seat's reward from this step (non-zero only where a hand ended)."""
    terminated: npt.NDArray[np.bool_]
    """(N,) where the episode ended at this step (the game has already started the next)."""
    infos: dict[int, dict[str, Any]]
    """Game index -> ``{"hand": i, "result": {...}}`` only for the games where a hand ended at
    this step: ``i`` counts the hands of the episode from 0, ``result`` is the hand's full
    result as ``raw_env``'s ``hand_result()`` gives it (winner and discarder by name, fans,
    payments, penalized)."""


class VectorMahjongEnv(CountsDecoding):
    """N games of ``raw_env`` as one batch (see the module docstring and docs/vector.md).

    ``num_envs`` games, ``raw_env``'s options (``rules``, ``episode``, ``reward``,
    ``false_win``, ``encoder``, ``oracle``), ``illegal`` (``"raise"``: an action outside a
    game's mask is a ValueError and no game moves; ``"penalize"``: that hand ends with the
    penalty on the seat, with a warning), ``num_workers`` (0: this process; k: k worker
    processes over shared memory, same results), ``context`` (the workers' start method),
    ``pin_workers`` (Linux: each worker kept to a CPU of its own; ``"auto"``, the default,
    where the workers spread evenly over the CPUs, as many as the cores say; ``True`` always,
    ``False`` never: :mod:`mjenv.vector.workers`), ``copy`` (return copies instead of the
    env's buffers), ``observation_dtype`` (``"float32"``: ``raw_env``'s observation;
    ``"uint8"``: the encoder's counts, a quarter of the bytes, which a learner scales itself,
    on its GPU say: :attr:`observation_scale`, :attr:`observation_divisor`,
    :meth:`decode_observation`).
    """

    def __init__(self, num_envs: int, *, illegal: str = "raise", num_workers: int = 0,
                 context: str = "spawn", pin_workers: bool | str = "auto", copy: bool = False,
                 observation_dtype: str = "float32", **options: Any) -> None:
        check_count("num_envs", num_envs, 1)
        check_count("num_workers", num_workers, 0)
        self.options = env_options(options)
        env = self.options.check()
        self.observation_dtype = check_observation_dtype(observation_dtype, self.options)
        self.single_observation_space, self.single_action_space = single_spaces(
            env, self.observation_dtype)
        self._init_counts(env)
        self.illegal = check_illegal(illegal)
        self.num_envs = num_envs
        self.copy = bool(copy)
        self.seed: int | None = None
        """The run seed of the last reset (drawn there when none was given)."""
        self.specs = array_specs(self.options, self.observation_dtype)
        self.arrays: Arrays
        self._runner: LocalRunner | WorkerPool
        self.arrays, self._runner = start_games(make_games_shard, (self.options, self.illegal),
                                                self.specs, num_envs, num_workers, context,
                                                pin_workers)
        self._reset_done = False

    # ---------------------------------------------------------------- the API
    @property
    def observation_shape(self) -> tuple[int, ...]:
        """One game's observation shape (the encoder's)."""
        shape = self.single_observation_space["observation"].shape
        assert shape is not None
        return shape

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

    def reset(self, seed: int | None = None) -> Batch:
        """Start every game: slot ``k`` plays the episodes of its seed stream
        (``mjenv.vector.seeds.episode_seed(seed, k, 0)``, then 1, 2, ... at each auto-reset).
        ``seed=None`` draws a run seed (kept in :attr:`seed`)."""
        self.seed = fresh_seed() if seed is None else check_seed(seed)
        infos = self._runner.reset(self.seed)
        self._reset_done = True
        return self._batch(infos)

    def step(self, actions: npt.ArrayLike) -> Batch:
        """Play one action per game (``actions[i]`` for the seat ``batch.seat[i]`` of the
        last batch); finished episodes start over at once (see :class:`Batch`)."""
        if not self._reset_done:
            raise ValueError("call reset() before step()")
        masks = self.arrays["action_mask"]
        arr, bad = check_actions(actions, masks)
        handle_illegal(bad, arr, masks, self.illegal, "of the seat to act")
        self.arrays["action"][:] = arr
        return self._batch(self._runner.step())

    def close(self) -> None:
        """Stop the workers (nothing to do without)."""
        self._runner.close()

    def __enter__(self) -> VectorMahjongEnv:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return (f"VectorMahjongEnv(num_envs={self.num_envs}, {self.options}, "
                f"workers={len(self.worker_pids)})")

    # ---------------------------------------------------------------- internals
    def _batch(self, infos: Infos) -> Batch:
        a = self.arrays
        if self.copy:
            a = {name: x.copy() for name, x in a.items()}
        return Batch(seat=a["seat"], observation=a["observation"],
                     action_mask=a["action_mask"], oracle=a.get("oracle"),
                     reward=a["reward"], terminated=a["terminated"], infos=dict(infos))


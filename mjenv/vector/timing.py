"""Timing a batch on this machine: decisions per second of a
:class:`~mjenv.vector.env.VectorMahjongEnv` playing random masked actions, as ``mjenv bench``
and scripts/bench_vector.py measure it.

Why in the package and not only in the scripts: what a batch costs a decision depends on the
machine, on its caches above all. A step visits every game once, so a batch whose games' state
outgrows the caches pays a miss for each game's objects at every decision, and where that
happens depends on the cache sizes and on what else runs (docs/vector.md, "Choosing N"). The
batch size to train with is best measured where the training runs, with the installed package.

What is timed: ``steps`` calls of :meth:`VectorMahjongEnv.step`, each with one random legal
action per game (:func:`random_legal_actions`: one vectorised draw over the batch's masks);
finished hands deal again inside the step, so the timed window holds ends of hands and new
deals. Making the batch, ``reset`` and the warm-up steps are not timed.
"""

from __future__ import annotations

import gc
from dataclasses import dataclass
from time import perf_counter
from typing import Any

import numpy as np
import numpy.typing as npt

from mjenv.vector.env import VectorMahjongEnv

MIN_STEPS = 120
"""Timed steps at least: more than a hand of random play (85-116 decisions), so that every game
of the batch ends a hand and is dealt the next one inside the timed window whatever N is (the
games of a batch start together; a few dozen steps would time only the middle of their first
hands)."""


def build_info() -> dict[str, bool]:
    """What the installed batch runs on, which decides its speed as much as the machine does:
    ``compiled`` (the engine, seat views, encoders and shards built with mypyc; plain Python is
    several times slower), ``prefetch`` (mjenv/_prefetch.c: a large batch loads the next
    games' state while it steps one) and ``c_rows`` (mjenv/_rows.c: the float32 rows in one
    pass). A build without a C compiler has none of them."""
    import mjenv.engine.game as game
    from mjenv.vector import prefetch, scaling

    return {"compiled": (game.__file__ or "").endswith((".so", ".pyd")),
            "prefetch": prefetch.prefetch.__module__ == "mjenv._prefetch",
            "c_rows": scaling.native is not None}


def random_legal_actions(rng: np.random.Generator,
                         masks: npt.NDArray[np.integer[Any]]) -> npt.NDArray[np.intp]:
    """One uniformly random legal action per row of ``masks`` (the largest random key among the
    legal ones)."""
    actions: npt.NDArray[np.intp] = np.argmax(rng.random(masks.shape) * masks, axis=1)
    return actions


@dataclass(frozen=True)
class Timing:
    """One timed pass of a batch."""

    num_envs: int
    decisions: int
    """Decisions made in the timed steps (``num_envs`` a step)."""
    seconds: float
    bytes_per_game: int
    """The batch arrays' bytes a game (its observation row, mask, ...); each game's own state
    (its engine, seat views and encoder memos, about 35 KiB) comes on top."""

    @property
    def us_per_decision(self) -> float:
        return self.seconds / self.decisions * 1e6

    @property
    def decisions_per_second(self) -> float:
        return self.decisions / self.seconds


def time_batch(num_envs: int, *, decisions: int = 20_000, min_steps: int = MIN_STEPS,
               warmup: int = 30, seed: int = 0, **env_kwargs: Any) -> Timing:
    """Time ``VectorMahjongEnv(num_envs, **env_kwargs)`` (any of its options: ``encoder``,
    ``num_workers``, ``observation_dtype``, ``rules``, ...): ``warmup`` untimed steps after
    ``reset(seed)``, then at least ``min_steps`` timed steps and at least ``decisions``
    decisions. The batch is closed (its workers stopped) before this returns."""
    if decisions < 1 or min_steps < 1 or warmup < 0:
        raise ValueError(f"decisions and min_steps must be at least 1 and warmup at least 0, "
                         f"got {decisions}, {min_steps} and {warmup}")
    rng = np.random.default_rng(seed)
    with VectorMahjongEnv(num_envs, **env_kwargs) as env:
        batch = env.reset(seed=seed)
        for _ in range(warmup):
            batch = env.step(random_legal_actions(rng, batch.action_mask))
        steps = max(min_steps, -(-decisions // num_envs))
        gc.collect()
        start = perf_counter()
        for _ in range(steps):
            batch = env.step(random_legal_actions(rng, batch.action_mask))
        seconds = perf_counter() - start
        return Timing(num_envs, steps * num_envs, seconds, env.bytes_per_game)

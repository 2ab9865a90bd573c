"""The seed stream: a run is the same games whatever the batch size and the number of worker
processes (the acceptance of issue 15: same seeds, same games through raw_env, the batch at any
N and any worker count)."""

from __future__ import annotations

import hashlib
from typing import Any

import numpy as np
import pytest

from mjenv.vector import VectorMahjongEnv, episode_seed
from mjenv.vector.seeds import check_seed
from mjenv.vector.shard import STAGED_ROWS

from .helpers import Reference, choose


def trajectories(n: int, seed: int, steps: int, workers: int = 0,
                 **options: Any) -> list[list[tuple[Any, ...]]]:
    """Per game, per step: a digest of what the batch returned for that game."""
    out: list[list[tuple[Any, ...]]] = [[] for _ in range(n)]
    with VectorMahjongEnv(n, num_workers=workers, **options) as env:
        batch = env.reset(seed=seed)
        for t in range(steps):
            actions = choose(batch.action_mask, t)
            batch = env.step(actions)
            for k in range(n):
                digest = hashlib.sha1(batch.observation[k].tobytes()
                                      + batch.action_mask[k].tobytes()).hexdigest()
                out[k].append((int(batch.seat[k]), digest, batch.reward[k].tolist(),
                               bool(batch.terminated[k]), batch.infos.get(k)))
    return out


def test_the_stream_is_the_documented_formula() -> None:
    want = np.random.SeedSequence(5, spawn_key=(3, 2)).generate_state(1, np.uint64)[0]
    assert episode_seed(5, 3, 2) == int(want)
    seeds = {episode_seed(s, k, e) for s in range(3) for k in range(3) for e in range(3)}
    assert len(seeds) == 27


def test_a_game_is_the_same_in_any_batch_size() -> None:
    small = trajectories(2, 9, 150)
    large = trajectories(5, 9, 150)
    assert large[:2] == small
    assert sum(step[3] for game in large for step in game) > 0  # auto-resets happened


def test_a_batch_larger_than_its_staging_writes_every_row() -> None:
    """The observations' counts are staged STAGED_ROWS games at a time: a batch of more games
    scales each staging into the right rows (games of the first, second and last staging,
    step for step as raw_env)."""
    n, seed = 2 * STAGED_ROWS + 5, 31
    env = VectorMahjongEnv(n)
    batch = env.reset(seed=seed)
    ref = Reference(n, seed)
    picked = [0, 1, STAGED_ROWS - 1, STAGED_ROWS, 2 * STAGED_ROWS + 1, n - 1]
    for t in range(110):
        for k in picked:
            want = ref.observe(k)
            assert np.array_equal(batch.observation[k], want["observation"]), (t, k)
            assert np.array_equal(batch.action_mask[k], want["action_mask"]), (t, k)
        actions = choose(batch.action_mask, t)
        batch = env.step(actions)
        for k in picked:
            ref.step(k, int(actions[k]))
    assert sum(ref.episodes[k] for k in picked) > 0  # and auto-resets happened


def test_raw_env_replays_any_game_of_the_batch() -> None:
    n, seed = 4, 23
    env = VectorMahjongEnv(n, episode="hand")
    batch = env.reset(seed=seed)
    ref = Reference(n, seed)
    for t in range(120):
        actions = choose(batch.action_mask, t)
        batch = env.step(actions)
        for k in range(n):
            ref.step(k, int(actions[k]))
            assert np.array_equal(batch.observation[k], ref.observe(k)["observation"])


def test_reset_without_a_seed_draws_one_and_keeps_it() -> None:
    env = VectorMahjongEnv(2)
    first = env.reset()
    assert isinstance(env.seed, int) and env.seed >= 0
    kept = first.observation.copy()
    again = VectorMahjongEnv(2).reset(seed=env.seed)
    assert np.array_equal(again.observation, kept)


@pytest.mark.parametrize("bad", [-1, 1.5, "3", True, None])
def test_seeds_are_non_negative_ints(bad: object) -> None:
    with pytest.raises(ValueError, match="non-negative int"):
        check_seed(bad)
    with pytest.raises(ValueError):
        VectorMahjongEnv(1).reset(seed=bad if bad is not None else -5)  # type: ignore[arg-type]


def test_numpy_integer_seeds_are_accepted() -> None:
    a = VectorMahjongEnv(1).reset(seed=np.int64(4)).observation.copy()
    assert np.array_equal(a, VectorMahjongEnv(1).reset(seed=4).observation)

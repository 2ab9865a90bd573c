"""The batch equals ``raw_env`` step for step: game ``k`` of a batch reset with ``seed`` is
``raw_env`` reset with ``episode_seed(seed, k, e)`` for its episode ``e``, the same seat asked,
the same observation, mask and oracle planes, rewards, terminations and hand results, for every
option of ``raw_env``."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from mjenv.vector import VectorMahjongEnv

from .helpers import Reference, choose

CONFIGS: list[dict[str, Any]] = [
    {},
    {"rules": "botzone", "encoder": "ijcai-v1"},
    {"false_win": "penalize", "reward": "win_loss"},
    {"oracle": True, "reward": "normalized"},
    {"episode": "match"},
    {"rules": "botzone", "episode": "match", "oracle": True},
    {"encoder": "mjenv-v1+shanten"},
]


def _id(options: dict[str, Any]) -> str:
    return ",".join(f"{k}={v}" for k, v in options.items()) or "defaults"


@pytest.mark.parametrize("options", CONFIGS, ids=_id)
def test_every_step_equals_raw_env(options: dict[str, Any]) -> None:
    n, seed, steps = 3, 17, 260
    env = VectorMahjongEnv(n, **options)
    ref = Reference(n, seed, **options)
    batch = env.reset(seed=seed)
    ended = terminated = 0
    for t in range(steps):
        for k in range(n):
            want = ref.observe(k)
            assert batch.seat[k] == ref.seat(k)
            assert np.array_equal(batch.observation[k], want["observation"]), (t, k)
            assert np.array_equal(batch.action_mask[k], want["action_mask"]), (t, k)
            if options.get("oracle"):
                assert batch.oracle is not None
                assert np.array_equal(batch.oracle[k], want["oracle"]), (t, k)
            else:
                assert batch.oracle is None
        actions = choose(batch.action_mask, t)
        batch = env.step(actions)
        for k in range(n):
            rewards, done, info = ref.step(k, int(actions[k]))
            assert batch.reward[k].tolist() == rewards, (t, k)
            assert bool(batch.terminated[k]) == done, (t, k)
            assert batch.infos.get(k) == info, (t, k)
            ended += info is not None
            terminated += done
    assert ended >= 3  # the run saw hands end (and, with single hands, episodes restart)
    if options.get("episode") != "match":
        assert terminated == ended


def test_batch_arrays_and_spaces() -> None:
    env = VectorMahjongEnv(4, encoder="mjenv-v1+shanten", oracle=True)
    batch = env.reset(seed=1)
    assert batch.observation.shape == (4, 101, 34) and batch.observation.dtype == np.float32
    assert batch.action_mask.shape == (4, 235) and batch.action_mask.dtype == np.int8
    assert batch.oracle is not None and batch.oracle.shape == (4, 38, 34)
    assert batch.reward.shape == (4, 4) and batch.reward.dtype == np.float64
    assert batch.terminated.shape == (4,) and not batch.terminated.any()
    assert batch.seat.shape == (4,) and set(batch.seat.tolist()) <= {0, 1, 2, 3}
    assert batch.infos == {}
    assert env.observation_shape == (101, 34)
    space = env.single_observation_space
    for k in range(4):
        one = {"observation": batch.observation[k], "action_mask": batch.action_mask[k],
               "oracle": batch.oracle[k]}
        assert one in space
        assert batch.action_mask[k].any()  # the seat asked always has a decision
    assert env.single_action_space.n == 235
    assert env.bytes_per_game == (101 * 34 * 4 + 235 + 38 * 34 * 4 + 4 * 8 + 1 + 1 + 8)


def test_buffers_are_reused_unless_copy() -> None:
    env = VectorMahjongEnv(2)
    a = env.reset(seed=3)
    b = env.step(choose(a.action_mask, 0))
    assert a.observation is b.observation  # the env's own buffer, overwritten
    copying = VectorMahjongEnv(2, copy=True)
    c = copying.reset(seed=3)
    d = copying.step(choose(c.action_mask, 0))
    assert not np.shares_memory(c.observation, d.observation)
    assert np.array_equal(d.observation, b.observation)


def test_options_are_checked_as_raw_env_does() -> None:
    with pytest.raises(ValueError, match="episode"):
        VectorMahjongEnv(2, episode="season")
    with pytest.raises(ValueError, match="unknown encoder"):
        VectorMahjongEnv(2, encoder="nope")
    with pytest.raises(ValueError, match="render_mode"):
        VectorMahjongEnv(2, render_mode="ansi")
    with pytest.raises(ValueError, match="num_envs must be an int >= 1"):
        VectorMahjongEnv(0)
    with pytest.raises(ValueError, match="num_workers"):
        VectorMahjongEnv(2, num_workers=-1)
    with pytest.raises(ValueError, match="illegal"):
        VectorMahjongEnv(2, illegal="ignore")
    env = VectorMahjongEnv(2)
    with pytest.raises(ValueError, match="reset"):
        env.step([0, 0])


@pytest.mark.parametrize("cut", [0, 7, 40])
def test_a_slot_resumed_from_a_clone_plays_on_as_the_table_it_came_from(cut: int) -> None:
    from mjenv.vector.options import env_options
    from mjenv.vector.slot import GameSlot

    options = env_options({"encoder": "mjenv-v1+shanten"})
    table = GameSlot(options)
    table.start(23)
    for t in range(cut):  # the views of some seats are read on the way, others are not
        if t % 3 == 0:
            table.observe(table.seat)
        table.step(int(choose(table.mask(table.seat)[None], t)[0]))
    assert table.game is not None
    copy = GameSlot(options)
    copy.resume(table.game.clone())
    t = cut
    while not table.over:
        assert not copy.over and copy.seat == table.seat
        want, got = table.observe(table.seat), copy.observe(copy.seat)
        assert all(np.array_equal(want[k], got[k]) for k in want), t
        action = int(choose(want["action_mask"][None], t)[0])
        ended, also = table.step(action), copy.step(action)
        assert (ended is None) == (also is None)
        t += 1
    assert copy.over and copy.seat == -1 and table.game.result == copy.game.result
    finished = GameSlot(options)
    finished.resume(table.game)  # a hand that is over: nothing to play
    assert finished.over and finished.seat == -1

"""The learner batch (``LearnerVectorEnv``): game ``k`` is ``SingleAgentEnv`` reset with
``episode_seed(seed, k, e)``, step for step, in both of Gymnasium's auto-reset modes; the
spaces and infos are Gymnasium's vector forms; opponents are batched where they can be."""

from __future__ import annotations

import warnings
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

from mjenv.single_agent import SingleAgentEnv
from mjenv.vector import LearnerVectorEnv, episode_seed

from .agents import BatchedLowestLegal, LowestLegal, ShapeRecorder
from .helpers import choose


def _compare(mode: str, steps: int, n: int = 3, seed: int = 4, **options: Any) -> int:
    """Step a learner batch and ``n`` ``SingleAgentEnv``\\s side by side; the episodes ended."""
    env = LearnerVectorEnv(n, "random", autoreset_mode=mode, **options)
    singles = [SingleAgentEnv("random", **options) for _ in range(n)]
    episodes = [0] * n
    obs, infos = env.reset(seed=seed)
    for k, single in enumerate(singles):
        o, info = single.reset(seed=episode_seed(seed, k, 0))
        assert np.array_equal(o["observation"], obs["observation"][k])
    restart = [False] * n
    ended = 0
    for t in range(steps):
        actions = choose(obs["action_mask"], t)
        obs, rewards, terminated, truncated, infos = env.step(actions)
        assert not truncated.any()
        for k, single in enumerate(singles):
            if restart[k]:  # next_step: this step reset the game
                episodes[k] += 1
                o, info = single.reset(seed=episode_seed(seed, k, episodes[k]))
                r, done, restart[k] = 0.0, False, False
            else:
                o, r, done, _, info = single.step(int(actions[k]))
            if done and mode == "same_step":
                final = infos["final_obs"][k]
                assert all(np.array_equal(final[key], o[key]) for key in o)
                assert infos["final_info"]["score"][k] == info["score"]
                episodes[k] += 1
                o, info = single.reset(seed=episode_seed(seed, k, episodes[k]))
            elif done:
                restart[k] = True
            for key in o:
                assert np.array_equal(o[key], obs[key][k]), (t, k, key)
            assert rewards[k] == r and terminated[k] == done, (t, k)
            for key, value in info.items():
                assert infos[f"_{key}"][k] and infos[key][k] == value, (t, k, key)
            ended += done
    return ended


@pytest.mark.parametrize("mode", ["next_step", "same_step"])
def test_each_game_is_single_agent_env(mode: str) -> None:
    assert _compare(mode, 250) >= 3


@pytest.mark.parametrize("options", [{"episode": "match", "reward": "normalized"},
                                     {"rules": "botzone", "oracle": True},
                                     {"encoder": "mjenv-v1+shanten", "false_win": "penalize"}],
                         ids=["match", "botzone-oracle", "shanten-penalize"])
def test_options_pass_through(options: dict[str, Any]) -> None:
    _compare("next_step", 80, n=2, **options)


def test_spaces_and_metadata() -> None:
    env = LearnerVectorEnv(3, "random", autoreset_mode="same_step", oracle=True)
    assert env.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    assert LearnerVectorEnv(1).metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    assert isinstance(env, gymnasium.vector.VectorEnv)
    assert env.single_action_space == gymnasium.spaces.Discrete(235)
    assert env.action_space == gymnasium.spaces.MultiDiscrete([235] * 3)
    assert env.observation_space["observation"].shape == (3, 86, 34)
    assert env.observation_space["oracle"].shape == (3, 38, 34)
    obs, infos = env.reset(seed=0)
    assert obs in env.observation_space
    assert env.action_space.contains(choose(obs["action_mask"], 0))
    env.close()
    assert env.closed


def test_a_gymnasium_loop_with_its_wrappers() -> None:
    """Gymnasium's episode statistics wrapper (which reads the auto-reset mode) over random
    masked play: every episode is counted with the learner's return."""
    from gymnasium.wrappers.vector import RecordEpisodeStatistics

    env = RecordEpisodeStatistics(LearnerVectorEnv(4, "random"))
    obs, _ = env.reset(seed=1)
    rng = np.random.default_rng(0)
    episodes = 0
    returns = np.zeros(4)
    for _ in range(300):
        scores = rng.random(obs["action_mask"].shape) * obs["action_mask"]
        obs, rewards, terminated, truncated, infos = env.step(scores.argmax(axis=1))
        returns += rewards
        if "episode" in infos:
            done = infos["_episode"]
            assert np.allclose(infos["episode"]["r"][done], returns[done])
            returns[done] = 0.0
            episodes += int(done.sum())
    assert episodes >= 3
    env.close()


def test_batched_opponents_share_one_call_per_round() -> None:
    batched = BatchedLowestLegal()
    plain = [LowestLegal() for _ in range(3)]
    a = LearnerVectorEnv(6, batched, seat=0, autoreset_mode="same_step")
    b = LearnerVectorEnv(6, plain, seat=0, autoreset_mode="same_step")
    oa, _ = a.reset(seed=3)
    ob, _ = b.reset(seed=3)
    for t in range(60):
        actions = choose(oa["action_mask"], t)
        oa, ra, ta, _, _ = a.step(actions)
        ob, rb, tb, _, _ = b.step(actions)
        assert np.array_equal(oa["observation"], ob["observation"])
        assert np.array_equal(ra, rb) and np.array_equal(ta, tb)
    assert max(batched.batches) > 1 and sum(batched.batches) + batched.acts == sum(
        p.acts for p in plain)


def test_opponents_may_see_another_encoder() -> None:
    seen = ShapeRecorder()
    env = LearnerVectorEnv(2, seen, encoder="mjenv-v1+shanten", opponent_encoder="mjenv-v1")
    obs, _ = env.reset(seed=2)
    assert obs["observation"].shape == (2, 101, 34)
    for t in range(20):
        obs, *_ = env.step(choose(obs["action_mask"], t))
    assert seen.shapes == {(86, 34)}
    with pytest.raises(ValueError, match="unknown encoder"):
        LearnerVectorEnv(1, opponent_encoder="nope")


def test_illegal_learner_actions() -> None:
    env = LearnerVectorEnv(2, "random", illegal="raise")
    obs, _ = env.reset(seed=6)
    bad = choose(obs["action_mask"], 0)
    bad[0] = int(np.flatnonzero(obs["action_mask"][0] == 0)[0])
    with pytest.raises(ValueError, match="illegal action"):
        env.step(bad)
    penalizing = LearnerVectorEnv(2, "random", seat=1)
    obs, _ = penalizing.reset(seed=6)
    bad = choose(obs["action_mask"], 0)
    bad[1] = 999
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        obs, rewards, terminated, _, infos = penalizing.step(bad)
    assert any("illegal" in str(w.message) for w in caught)
    assert terminated[1] and rewards[1] == -30 and infos["penalized"][1]


def test_reset_arguments() -> None:
    env = LearnerVectorEnv(2)
    with pytest.raises(ValueError, match="reset"):
        env.step([0, 0])
    with pytest.raises(ValueError, match="one run seed"):
        env.reset(seed=[1, 2])
    with pytest.raises(ValueError, match="options"):
        env.reset(seed=1, options={"wall": []})
    with pytest.raises(ValueError, match="autoreset_mode"):
        LearnerVectorEnv(1, autoreset_mode=AutoresetMode.DISABLED)
    with pytest.raises(ValueError, match="seat"):
        LearnerVectorEnv(1, seat=4)
    with pytest.raises(ValueError, match="three"):
        LearnerVectorEnv(1, ["random", "random"])

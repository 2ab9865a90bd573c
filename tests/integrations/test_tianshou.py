"""The Tianshou adapter (mjenv.integrations.tianshou) in Tianshou's own recipes, and the
example's smoke run (issue 17). Needs the ``tianshou`` extra; skipped without it."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("tianshou", reason="the tianshou extra is not installed")

import torch  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402
from tianshou.algorithm import (  # noqa: E402
    MARLRandomDiscreteMaskedOffPolicyAlgorithm,
    MultiAgentOffPolicyAlgorithm,
)
from tianshou.data import Collector, CollectStats, VectorReplayBuffer  # noqa: E402
from tianshou.env import DummyVectorEnv  # noqa: E402
from tianshou.env.pettingzoo_env import PettingZooEnv  # noqa: E402

import mjenv  # noqa: E402
from mjenv.agent import make_agent  # noqa: E402
from mjenv.integrations._common import HAND_FIELDS, shanten_change  # noqa: E402
from mjenv.integrations.tianshou import (  # noqa: E402
    TianshouAgent,
    gym_env,
    make_net,
    pettingzoo_env,
    save_checkpoint,
    wrap,
)
from tests.integrations.smoke import run_example  # noqa: E402


@pytest.mark.parametrize("make", [mjenv.env, mjenv.raw_env])
def test_the_aec_adapter_passes_pettingzoos_api_test(make) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test's own reset options; its random actions
        api_test(wrap(make(), shaping=0.1), num_cycles=200)


def test_the_gym_form_passes_gymnasiums_check_env() -> None:
    env = gym_env(shaping=0.1, reward="normalized")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env, skip_render_check=True)
    obs, info = env.reset(seed=0)
    assert set(obs) == {"obs", "mask"} and obs["mask"].dtype == np.int8
    assert set(info) == set(HAND_FIELDS)


def test_the_gym_form_passes_sb3s_check_env() -> None:
    checker = pytest.importorskip("stable_baselines3.common.env_checker")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "unconventional shape": the (86, 34) planes
        checker.check_env(gym_env(shaping=0.1))


def _random_recipe(n_envs: int = 2) -> tuple[Collector, VectorReplayBuffer]:
    """Tianshou's tic-tac-toe recipe with four random masked players."""
    env = pettingzoo_env(shaping=0.1)
    algorithms = [MARLRandomDiscreteMaskedOffPolicyAlgorithm(action_space=env.action_space)
                  for _ in range(4)]
    policy = MultiAgentOffPolicyAlgorithm(algorithms=algorithms, env=env)
    envs = DummyVectorEnv([pettingzoo_env for _ in range(n_envs)])
    envs.seed(0)
    buffer = VectorReplayBuffer(20_000, n_envs)
    collector = Collector[CollectStats](policy, envs, buffer)
    collector.reset()
    return collector, buffer


def test_tianshous_multi_agent_recipe_collects_whole_hands() -> None:
    collector, buffer = _random_recipe()
    stats = collector.collect(n_episode=2)
    assert stats.n_collected_episodes >= 2
    assert not buffer.hasnull()
    data = buffer.sample(0)[0]
    assert set(data.info.keys()) >= set(HAND_FIELDS)
    ends = data.terminated
    assert ends.sum() >= 2
    assert (data.info.hand_over[ends] == 1).all()
    # the buffer's reward vector at a hand's end pays what the info says (zero-sum payments
    # plus the acting seat's shaping)
    assert np.isin(data.obs.agent_id, ["player_0", "player_1", "player_2", "player_3"]).all()
    assert data.obs.mask.dtype == np.bool_


def test_infos_have_the_same_numeric_keys_every_step() -> None:
    env = wrap(mjenv.env())
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    ended = False
    for _agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        assert set(info) == set(HAND_FIELDS)
        assert all(isinstance(v, float) for v in info.values())
        if term:
            ended = True
            assert info["hand_over"] == 1.0 and info["score"] == reward
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert ended


def test_shaping_pays_the_acting_seat_its_shanten_change() -> None:
    env = wrap(mjenv.raw_env(), shaping=0.5)
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    seen_negative = False
    for agent in env.agent_iter():
        obs, _, term, _, _ = env.last()
        if term:
            env.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        change = shanten_change(env.raw.view(agent), action)
        if 2 <= action < 36:
            assert change <= 0  # a discard never lowers the shanten of the 14-form
        env.step(action)
        if env.raw.game is not None and not env.raw.game.is_over:
            assert env.rewards[agent] == pytest.approx(0.5 * change)
            seen_negative |= change < 0
    assert seen_negative


def test_tianshou_agent_plays_legal_actions_and_loads_by_spec(tmp_path: Path) -> None:
    torch.manual_seed(0)
    net = make_net((86, 34), [16])
    path = tmp_path / "dqn.pt"
    save_checkpoint(str(path), net, (86, 34), [16])
    agent = make_agent(f"mjenv.integrations.tianshou:TianshouAgent path='{path}'")
    assert isinstance(agent, TianshouAgent)
    env = mjenv.raw_env()
    env.reset(seed=0)
    for _name in env.agent_iter():
        obs, _, term, _, _ = env.last()
        if term:
            env.step(None)
            continue
        action = agent.act(obs["observation"], obs["action_mask"])
        assert obs["action_mask"][action] == 1
        env.step(action)


def test_tianshous_own_pettingzoo_env_takes_the_adapter() -> None:
    env = PettingZooEnv(wrap(mjenv.env()))
    obs, info = env.reset(seed=0)
    assert set(obs) == {"agent_id", "obs", "mask"} and set(info) == set(HAND_FIELDS)
    env.close()


def test_example_smoke_run(tmp_path: Path) -> None:
    out = tmp_path / "run"
    stdout = run_example("tianshou_dqn.py", out, timeout=600)
    assert (out / "dqn.pt").exists()
    assert "vs random" in stdout and "vs greedy" in stdout

"""The SB3 / sb3-contrib adapter (mjenv.integrations.sb3) and its examples' smoke runs (issue 17).
Needs the ``sb3`` extra (stable-baselines3, sb3-contrib); skipped without it."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

import torch  # noqa: E402
from sb3_contrib import MaskablePPO  # noqa: E402
from stable_baselines3.common.env_util import make_vec_env  # noqa: E402

import mjenv  # noqa: E402
from mjenv.agent import make_agent  # noqa: E402
from mjenv.arena import ArenaConfig, run_arena  # noqa: E402
from mjenv.integrations.sb3 import (  # noqa: E402
    MaskablePPOAgent,
    PolicyOpponent,
    SelfPlayCallback,
    SelfPlayEnv,
    ShantenShaping,
    agent_spec,
    make_env,
    make_selfplay_env,
)
from mjenv.single_agent import SingleAgentEnv  # noqa: E402
from tests.integrations.smoke import run_example  # noqa: E402


@pytest.fixture(scope="module")
def model_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    torch.set_num_threads(1)
    model = MaskablePPO("MultiInputPolicy", make_env("random", reward="normalized"),
                        n_steps=64, batch_size=32, n_epochs=1, seed=0, device="cpu",
                        policy_kwargs={"net_arch": [32]})
    model.learn(64)
    path = tmp_path_factory.mktemp("sb3") / "model.zip"
    model.save(path)
    return path


def test_shaping_is_a_potential_difference() -> None:
    """With gamma = 1 the shaping of an episode sums to -phi(first decision), whatever is
    played: the objective is unchanged."""
    for seed in range(4):
        plain = SingleAgentEnv(opponents="random", seat=seed % 4)
        shaped = ShantenShaping(SingleAgentEnv(opponents="random", seat=seed % 4), 0.1, 1.0)
        obs, _ = plain.reset(seed=seed)
        shaped.reset(seed=seed)
        phi0 = shaped.potential()
        assert phi0 <= 0
        rng = np.random.default_rng(seed)
        raw = extra = 0.0
        done = False
        while not done:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            obs, r, done, _, _ = plain.step(action)
            _, s, _, _, _ = shaped.step(action)
            raw += r
            extra += s - r
        assert extra == pytest.approx(-phi0)


def test_maskable_agent_from_a_model_and_from_its_spec(model_path: Path) -> None:
    env = mjenv.raw_env()
    env.reset(seed=0)
    obs = env.observe(env.agent_selection)
    direct = MaskablePPOAgent(str(model_path))
    by_spec = make_agent(agent_spec(str(model_path)))
    for agent in (direct, by_spec):
        agent.reset(0, 1)
        a = agent.act(obs["observation"], obs["action_mask"])
        assert obs["action_mask"][a] == 1
    # the same decision as the model's own masked predict
    expected, _ = direct.model.predict(obs, action_masks=obs["action_mask"].astype(bool),
                                       deterministic=True)
    assert direct.act(obs["observation"], obs["action_mask"]) == int(expected)
    with pytest.raises(ValueError, match="path or the model"):
        MaskablePPOAgent()


def test_the_model_plays_the_arena(model_path: Path, tmp_path: Path) -> None:
    config = ArenaConfig(agents=(agent_spec(str(model_path)), "random"), deals=2, seed=0,
                         names=("learner", "random"))
    results = run_arena(config, tmp_path / "arena", progress=False)
    assert results["agents"]["learner"]["hands"] == 8
    assert results["agents"]["learner"]["penalties"] == 0


def test_a_model_with_other_inputs_is_refused(tmp_path: Path) -> None:
    model = MaskablePPO("MultiInputPolicy", make_env("random", oracle=True), n_steps=32,
                        batch_size=32, n_epochs=1, device="cpu", policy_kwargs={"net_arch": [8]})
    with pytest.raises(ValueError, match="observation space"):
        MaskablePPOAgent(model=model)


def test_self_play_refreshes_the_opponents() -> None:
    torch.set_num_threads(1)
    vec = make_vec_env(make_selfplay_env, n_envs=2, seed=0, env_kwargs={"shaping": 0.05})
    model = MaskablePPO("MultiInputPolicy", vec, n_steps=64, batch_size=64, n_epochs=1,
                        seed=0, device="cpu", policy_kwargs={"net_arch": [32]})
    callback = SelfPlayCallback(refresh=128)
    model.learn(512, callback=callback)
    assert callback.refreshes >= 2
    envs = [e.unwrapped for e in vec.envs]
    assert all(isinstance(e, SelfPlayEnv) for e in envs)
    frozen = envs[0].opponent.policy
    assert frozen is not model.policy and frozen is envs[1].opponent.policy
    mine = model.policy.state_dict()
    diff = sum(float((v - mine[k]).abs().sum()) for k, v in frozen.state_dict().items())
    assert diff > 0  # trailing the learner (trained since the last refresh) ...
    vec.env_method("load_opponent_state", model.policy.state_dict())
    assert all(torch.equal(v, mine[k]) for k, v in frozen.state_dict().items())  # ... equal now


def test_policy_opponent_plays_legal_actions() -> None:
    env = SelfPlayEnv(seat=0)
    with pytest.raises(ValueError, match="no opponent policy"):
        env.load_opponent_state({})
    obs, _ = env.reset(seed=0)  # random opponents until a policy arrives
    opponent = PolicyOpponent(None, seed=1)
    for _ in range(20):
        assert obs["action_mask"][opponent.act(obs["observation"], obs["action_mask"])] == 1
        obs, _, done, _, _ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        if done:
            obs, _ = env.reset()


@pytest.mark.parametrize("script", ["sb3_maskable_ppo.py", "sb3_selfplay.py"])
def test_example_smoke(script: str, tmp_path: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        stdout = run_example(script, tmp_path, timeout=300, cwd=tmp_path)
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["steps"] >= 4096 and set(report["arena"]) == {"random", "greedy"}
    assert "learner vs three greedy" in stdout and (tmp_path / "model.zip").exists()

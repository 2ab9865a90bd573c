"""The TorchRL adapter (mjenv.integrations.torchrl) with TorchRL's own wrappers and spec
checker, a masked rollout, and the example's smoke run (issue 17). Needs the ``torchrl`` extra;
skipped without it."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torchrl", reason="the torchrl extra is not installed")

import torch  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402
from tensordict.nn import TensorDictModule  # noqa: E402
from torchrl.envs.libs.pettingzoo import PettingZooWrapper  # noqa: E402
from torchrl.envs.utils import MarlGroupMapType, check_env_specs  # noqa: E402
from torchrl.modules import MaskedCategorical, ProbabilisticActor  # noqa: E402

import mjenv  # noqa: E402
from mjenv.agent import make_agent  # noqa: E402
from mjenv.integrations._common import HAND_FIELDS  # noqa: E402
from mjenv.integrations.torchrl import (  # noqa: E402
    PolicyNet,
    TorchRLAEC,
    TorchRLAgent,
    gym_env,
    pettingzoo_env,
    save_checkpoint,
    single_env,
)
from tests.integrations.smoke import run_example  # noqa: E402


def test_the_aec_adapter_passes_pettingzoos_api_test() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(TorchRLAEC(mjenv.env(), shaping=0.1), num_cycles=200)


@pytest.mark.parametrize("group_map", [None, MarlGroupMapType.ALL_IN_ONE_GROUP])
def test_check_env_specs_on_the_pettingzoo_wrapper(group_map) -> None:
    env = pettingzoo_env(seed=0, group_map=group_map)
    check_env_specs(env)
    group = next(iter(env.group_map))
    assert set(env.observation_spec[group]["info"].keys()) == set(HAND_FIELDS)


def test_the_bare_env_works_in_torchrls_wrapper_too() -> None:
    env = PettingZooWrapper(env=mjenv.env(), use_mask=True, categorical_actions=True, seed=0)
    check_env_specs(env)


def _masked_random(env):  # type: ignore[no-untyped-def]
    def policy(td):  # type: ignore[no-untyped-def]
        for group in env.group_map:
            mask = td[group, "action_mask"].float()
            # seats not asked have an all-zero mask: give them a dummy action (ignored)
            mask = mask + (mask.sum(-1, keepdim=True) == 0).float()
            td[group, "action"] = torch.multinomial(mask, 1).squeeze(-1)
        return td
    return policy


def test_a_masked_rollout_plays_whole_hands_and_reports_them() -> None:
    env = pettingzoo_env(seed=1, shaping=0.1, group_map=MarlGroupMapType.ALL_IN_ONE_GROUP)
    (group,) = env.group_map
    td = env.rollout(600, _masked_random(env), break_when_any_done=False)
    done = td["next", "done"].squeeze(-1)
    assert done.sum() >= 2
    info = td["next", group, "info"]
    assert (info["hand_over"][done] == 1).all()
    # exactly the seat to act has `mask` set while a hand is played
    acting = td[group, "mask"][~done]
    assert (acting.sum(-1) == 1).all()


def test_the_gym_form_and_a_masked_categorical_policy() -> None:
    env = gym_env(shaping=0.1, reward="normalized")
    env.set_seed(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # check_env_specs plays random unmasked actions
        check_env_specs(env)
    actor = ProbabilisticActor(
        TensorDictModule(PolicyNet((86, 34), [16]), in_keys=["observation"],
                         out_keys=["logits"]),
        in_keys={"logits": "logits", "mask": "action_mask"}, out_keys=["action"],
        distribution_class=MaskedCategorical, spec=env.action_spec)
    td = env.rollout(200, actor, break_when_any_done=False)
    actions = td["action"]
    masks = td["action_mask"]
    assert masks.gather(-1, actions[:, None]).all()  # every action legal: no penalty
    assert (td["next", "reward"] > -0.3 - 1e-6).all()


def test_the_gymnasium_env_inside_passes_gymnasiums_and_sb3s_checkers() -> None:
    from gymnasium.utils.env_checker import check_env

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(single_env(shaping=0.1), skip_render_check=True)
        sb3 = pytest.importorskip("stable_baselines3.common.env_checker")
        sb3.check_env(single_env(shaping=0.1))


def test_torchrl_agent_by_spec(tmp_path: Path) -> None:
    torch.manual_seed(0)
    path = tmp_path / "policy.pt"
    save_checkpoint(str(path), PolicyNet((86, 34), [16]), (86, 34), [16])
    agent = make_agent(f"mjenv.integrations.torchrl:TorchRLAgent path='{path}'")
    assert isinstance(agent, TorchRLAgent)
    env = mjenv.raw_env()
    env.reset(seed=0)
    obs = env.observe(env.agent_selection)
    action = agent.act(obs["observation"], obs["action_mask"])
    assert obs["action_mask"][action] == 1
    assert np.isfinite(agent.scores(obs["observation"], obs["action_mask"])).all()


def test_example_smoke_run(tmp_path: Path) -> None:
    out = tmp_path / "run"
    stdout = run_example("torchrl_ppo.py", out, timeout=600)
    assert (out / "policy.pt").exists()
    assert "vs random" in stdout and "vs greedy" in stdout

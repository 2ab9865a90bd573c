"""The conventions RL libraries rely on, on every wrapper (issue 17): Gymnasium registration
(either import order), Gymnasium's and SB3's ``check_env``, ``action_masks()``, PettingZoo's
API tests on the AEC and parallel forms."""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gym_check_env

import mjenv
from mjenv.registration import GYM_IDS
from mjenv.single_agent import SingleAgentEnv

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("first", ["mjenv", "gymnasium", "pettingzoo"])
def test_import_mjenv_registers_in_any_order(first: str) -> None:
    others = [m for m in ("mjenv", "gymnasium", "pettingzoo") if m != first]
    code = (f"import {first}\nimport {', '.join(others)}\n"
            "env = gymnasium.make('mjenv/MCRMahjong-v0', opponents='random')\n"
            "obs, info = env.reset(seed=0)\n"
            "env = gymnasium.make('mjenv/BotzoneMahjong-v0')\n"
            "if hasattr(pettingzoo, 'register'):  # PettingZoo 1.27's registry\n"
            "    par = pettingzoo.make('parallel', 'mjenv/mcr_mahjong_v0')\n"
            "    aec = pettingzoo.make('aec', 'mjenv/mcr_mahjong_v0')\n"
            "else:\n"
            "    par = mjenv.parallel_env()\n"
            "print(sorted(obs), type(par).__name__)\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    assert out.strip() == "['action_mask', 'observation'] MahjongParallelEnv"


def test_gymnasium_module_prefix() -> None:
    code = ("import gymnasium\nenv = gymnasium.make('mjenv:mjenv/MCRMahjong-v0')\n"
            "print(env.unwrapped.opponents[0].__class__.__name__)\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    assert out.strip() == "GreedyShantenAgent"


def wrappers() -> dict[str, Any]:
    """Every single-agent form mjenv offers, by name."""
    made: dict[str, Any] = {
        "SingleAgentEnv": lambda: SingleAgentEnv(opponents="random"),
        "SingleAgentEnv-botzone-match": lambda: SingleAgentEnv(rules="botzone",
                                                               episode="match"),
        "SingleAgentEnv-oracle-ijcai": lambda: SingleAgentEnv(oracle=True,
                                                              encoder="ijcai-v1"),
    }
    for env_id in GYM_IDS:
        made[env_id] = lambda env_id=env_id: gymnasium.make(env_id, opponents="random")
    try:
        from mjenv.integrations import sb3
    except ImportError:
        return made
    made["sb3.make_env-shaping"] = lambda: sb3.make_env("random", shaping=0.05)
    made["sb3.make_selfplay_env"] = lambda: sb3.make_selfplay_env(shaping=0.05)
    return made


WRAPPERS = wrappers()


@pytest.mark.parametrize("name", list(WRAPPERS))
def test_gymnasium_and_sb3_check_env(name: str) -> None:
    env = WRAPPERS[name]()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # check_env plays unmasked actions: penalties
        gym_check_env(env.unwrapped if hasattr(env, "spec") and env.spec else env,
                      skip_render_check=True)
        sb3 = pytest.importorskip("stable_baselines3.common.env_checker")
        sb3.check_env(env, warn=True)
    obs, _ = env.reset(seed=1)
    masks = env.get_wrapper_attr("action_masks")()
    assert masks.dtype == np.bool_ and masks.shape == (235,)
    assert np.array_equal(masks, obs["action_mask"].astype(bool)) and masks.any()


def test_action_masks_follow_the_episode() -> None:
    env = SingleAgentEnv(seat=0)
    obs, _ = env.reset(seed=0)
    done = False
    while not done:
        assert np.array_equal(env.action_masks(), obs["action_mask"] == 1)
        obs, _, done, _, _ = env.step(int(np.flatnonzero(env.action_masks())[0]))
    assert not env.action_masks().any()


@pytest.mark.filterwarnings("ignore:.*render_mode='rgb_array'")  # make_vec_env's default
def test_sb3_contrib_finds_the_masks() -> None:
    utils = pytest.importorskip("sb3_contrib.common.maskable.utils")
    from stable_baselines3.common.env_util import make_vec_env

    env = gymnasium.make("mjenv/MCRMahjong-v0", opponents="random")
    assert utils.is_masking_supported(env)
    vec = make_vec_env("mjenv/MCRMahjong-v0", n_envs=2, env_kwargs={"opponents": "random"})
    vec.reset()
    assert utils.is_masking_supported(vec) and utils.get_action_masks(vec).shape == (2, 235)


def test_pettingzoo_api_tests_on_every_form() -> None:
    from pettingzoo.test import api_test, parallel_api_test

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(mjenv.env(), num_cycles=300)
        api_test(mjenv.raw_env(), num_cycles=300)
        parallel_api_test(mjenv.parallel_env(), num_cycles=1000)

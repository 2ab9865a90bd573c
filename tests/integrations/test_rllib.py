"""The RLlib adapter (mjenv.integrations.rllib) with RLlib's own PettingZoo wrapper and env
checker, and the example's smoke run (issue 17). Needs the ``rllib`` extra; skipped without
it."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("ray.rllib", reason="the rllib extra (ray[rllib]) is not installed")

from pettingzoo.test import api_test  # noqa: E402
from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv  # noqa: E402
from ray.rllib.utils.pre_checks.env import check_multiagent_environments  # noqa: E402

import mjenv  # noqa: E402
from mjenv.integrations._common import HAND_FIELDS  # noqa: E402
from mjenv.integrations.rllib import MASK_KEY, OBS_KEY, RLlibAEC, multi_agent_env  # noqa: E402
from tests.integrations.smoke import run_example  # noqa: E402


def test_the_aec_adapter_passes_pettingzoos_api_test() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(RLlibAEC(mjenv.env(), shaping=0.1), num_cycles=200)


def test_rllibs_env_checker_accepts_it() -> None:
    env = multi_agent_env({"reward": "normalized", "shaping": 0.1})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the checker plays one random unmasked action
        check_multiagent_environments(env)


def test_observations_are_what_rllibs_masking_module_reads() -> None:
    env = PettingZooEnv(RLlibAEC(mjenv.env()))
    obs, _ = env.reset(seed=0)
    (agent, o), = obs.items()
    assert set(o) == {OBS_KEY, MASK_KEY}
    assert o[OBS_KEY].shape == (86 * 34,) and o[OBS_KEY].dtype == np.float32
    assert o[MASK_KEY].dtype == np.int8 and o[MASK_KEY].sum() >= 1
    space = env.observation_spaces[agent]
    assert space.contains(o)


def test_every_seat_gets_its_own_payment_at_the_end() -> None:
    """RLlib's wrapper gives each seat what it received since its last decision: over a hand
    the seats' returns are the payments (zero-sum) plus each one's shaping."""
    env = PettingZooEnv(RLlibAEC(mjenv.env()))
    obs, _ = env.reset(seed=5)
    rng = np.random.default_rng(5)
    returns: dict[str, float] = {}
    while True:
        (agent, o), = obs.items()
        action = int(rng.choice(np.flatnonzero(o[MASK_KEY])))
        obs, rewards, terms, _, infos = env.step({agent: action})
        for a, r in rewards.items():
            returns[a] = returns.get(a, 0.0) + r
        if terms["__all__"]:
            break
    assert len(obs) == 4 and set(infos) == set(obs)
    for a, info in infos.items():
        assert set(info) == set(HAND_FIELDS) and info["hand_over"] == 1.0
        assert returns[a] == pytest.approx(info["score"])
    assert sum(returns.values()) == pytest.approx(0.0)


def test_example_smoke_run(tmp_path: Path) -> None:
    stdout = run_example("rllib_ppo.py", tmp_path / "run", timeout=900)
    assert "vs random" in stdout and "vs greedy" in stdout

"""The parallel form (issue 17): every seat with a decision acts at once; PettingZoo's
``parallel_api_test``, the same games as the AEC env, the errors, SuperSuit's vector wrappers."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import parallel_api_test, parallel_seed_test

import mjenv
from mjenv import mcr_mahjong_v0
from mjenv.mahjong_env import AGENTS, MahjongParallelEnv, ResetNeeded, parallel_env


@pytest.mark.parametrize("options", [{}, {"rules": "botzone"}, {"episode": "match"},
                                     {"false_win": "penalize", "oracle": True},
                                     {"encoder": "ijcai-v1", "reward": "win_loss"}])
def test_parallel_api_test(options: dict[str, Any]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(3):  # a few episodes: parallel_api_test stops at the first end
            parallel_api_test(parallel_env(**options), num_cycles=2000)


def test_parallel_seed_test() -> None:
    with warnings.catch_warnings():  # it samples unmasked actions: penalties
        warnings.simplefilter("ignore")
        parallel_seed_test(mcr_mahjong_v0.parallel_env, num_cycles=300)


def test_registration() -> None:
    import pettingzoo

    if not hasattr(pettingzoo, "register"):
        pytest.skip("PettingZoo before 1.27 has no registry")

    env = pettingzoo.make("parallel", "mjenv/mcr_mahjong_v0", rules="botzone")
    assert isinstance(env, MahjongParallelEnv)
    assert env.aec.rules.profile == "botzone"
    assert isinstance(mjenv.parallel_env(), MahjongParallelEnv)


def policy(rng: np.random.Generator, mask: np.ndarray) -> int:
    legal = np.flatnonzero(mask)
    return int(1 if mask[1] else rng.choice(legal))


@pytest.mark.parametrize("rules", ["mcr", "botzone"])
def test_same_games_as_the_aec_env(rules: str) -> None:
    """Window answers given together equal the AEC env's one-by-one answers: same events,
    rewards and infos, and each step asks exactly the seats the AEC env selects in turn."""
    for seed in range(6):
        par = parallel_env(rules=rules)
        aec = mjenv.raw_env(rules=rules)
        obs, infos = par.reset(seed=seed)
        aec.reset(seed=seed)
        assert set(obs) == set(infos) == set(AGENTS)
        rng_p, rng_a = np.random.default_rng(seed), np.random.default_rng(seed)
        par_total = dict.fromkeys(AGENTS, 0.0)
        while par.agents:
            asked = par.deciding
            assert asked and all(obs[a]["action_mask"].any() == (a in asked) for a in AGENTS)
            actions = {a: policy(rng_p, obs[a]["action_mask"]) for a in asked}
            for a in asked:  # the AEC env selects the same seats, in this order
                assert aec.agent_selection == a
                aec.step(policy(rng_a, aec.observe(a)["action_mask"]))
            obs, rewards, terms, truncs, infos = par.step(actions)
            for a in AGENTS:
                par_total[a] += rewards[a]
            assert not any(truncs.values()) and len(set(terms.values())) == 1
        assert par.aec.game is not None and aec.game is not None
        assert par.aec.game.events == aec.game.events
        assert par_total == {a: float(aec.game.result.payments[s])  # type: ignore[union-attr]
                             for s, a in enumerate(AGENTS)}
        assert infos == {a: aec.infos[a] for a in AGENTS} and infos[AGENTS[0]]["hand"] == 0
        assert par.deciding == [] and par.hand_result() == aec.hand_result()


def test_actions_of_seats_not_asked_are_ignored() -> None:
    par = parallel_env()
    obs, _ = par.reset(seed=0)
    asked = par.deciding
    actions: dict[str, Any] = dict.fromkeys(AGENTS, "anything")
    actions.update({a: int(np.flatnonzero(obs[a]["action_mask"])[0]) for a in asked})
    par.step(actions)


def test_errors() -> None:
    par = parallel_env(illegal="raise")
    with pytest.raises(ResetNeeded, match="reset"):
        par.step({})
    obs, _ = par.reset(seed=0)
    asked = par.deciding
    with pytest.raises(ValueError, match="must act now"):
        par.step({})
    with pytest.raises(ValueError, match="dict of actions"):
        par.step([0])  # type: ignore[arg-type]
    events = len(par.aec.game.events)  # type: ignore[union-attr]
    illegal = int(np.flatnonzero(obs[asked[0]]["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="illegal action"):
        par.step(dict.fromkeys(asked, illegal))
    with pytest.raises(ValueError, match="illegal action True"):
        par.step(dict.fromkeys(asked, True))
    assert len(par.aec.game.events) == events  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="illegal must be"):
        parallel_env(illegal="ignore")


def test_illegal_action_is_penalized_by_default() -> None:
    par = parallel_env()
    obs, _ = par.reset(seed=0)
    agent = par.deciding[0]
    illegal = int(np.flatnonzero(obs[agent]["action_mask"] == 0)[0])
    with pytest.warns(UserWarning, match="illegal action"):
        _, rewards, terms, _, infos = par.step({agent: illegal})
    assert rewards[agent] == -30 and sum(rewards.values()) == 0 and all(terms.values())
    assert infos[agent]["penalized"] is True and par.agents == []
    with pytest.raises(ResetNeeded, match="episode is over"):
        par.step({agent: 0})


def test_match_infos_come_once_per_hand() -> None:
    par = parallel_env(episode="match")
    obs, _ = par.reset(seed=3)
    rng = np.random.default_rng(0)
    hands = []
    while par.agents:
        obs, _, _, _, infos = par.step({a: policy(rng, obs[a]["action_mask"])
                                        for a in par.deciding})
        if infos[AGENTS[0]]:
            hands.append(infos[AGENTS[0]]["hand"])
    assert hands == list(range(16))


def test_supersuit_vector_wrappers() -> None:
    ss = pytest.importorskip("supersuit")
    vec = ss.concat_vec_envs_v1(ss.pettingzoo_env_to_vec_env_v1(parallel_env()), 2,
                                num_cpus=0, base_class="stable_baselines3")
    obs = vec.reset()
    assert obs["observation"].shape == (8, 86, 34) and obs["action_mask"].shape == (8, 235)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(300):
        masks = obs["action_mask"]
        actions = np.array([int(rng.choice(np.flatnonzero(m))) if m.any() else 0
                            for m in masks])
        obs, rewards, dones, infos = vec.step(actions)
        ended += int(dones.sum())
        assert len(infos) == 8 and all(isinstance(i, dict) for i in infos)
    assert ended > 0  # hands ended and the vector env reset them
    vec.close()


def test_mask_in_info() -> None:
    """``mask="info"``: a Box observation, the mask in every info; the same game."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parallel_api_test(parallel_env(mask="info"), num_cycles=2000)
    boxed, plain = parallel_env(mask="info"), parallel_env()
    obs_b, infos = boxed.reset(seed=2)
    obs_p, _ = plain.reset(seed=2)
    rng = np.random.default_rng(0)
    while plain.agents:
        for a in AGENTS:
            assert np.array_equal(obs_b[a], obs_p[a]["observation"])
            assert np.array_equal(infos[a]["action_mask"], obs_p[a]["action_mask"])
            assert boxed.observation_space(a).contains(obs_b[a])
        actions = {a: policy(rng, obs_p[a]["action_mask"]) for a in plain.deciding}
        obs_b, _, _, _, infos = boxed.step(actions)
        obs_p, _, _, _, end = plain.step(actions)
    assert all(infos[a]["score"] == end[a]["score"] for a in AGENTS)
    with pytest.raises(ValueError, match="oracle"):
        parallel_env(mask="info", oracle=True)
    with pytest.raises(ValueError, match="mask must be"):
        parallel_env(mask="obs")


@pytest.mark.parametrize("wrapper", ["dtype_v0", "flatten_v0", "normalize_obs_v0",
                                     "frame_stack_v1", "clip_reward_v0"])
def test_supersuit_observation_wrappers_with_the_mask_in_info(wrapper: str) -> None:
    ss = pytest.importorskip("supersuit")
    args = {"dtype_v0": (np.float16,), "frame_stack_v1": (2,)}.get(wrapper, ())
    env = getattr(ss, wrapper)(parallel_env(mask="info"), *args)
    obs, infos = env.reset(seed=0)
    steps = 0
    while env.agents:
        assert all(env.observation_space(a).contains(obs[a]) for a in env.agents)
        masks = {a: infos[a]["action_mask"] for a in env.agents}  # 0 for a seat not asked
        obs, _, _, _, infos = env.step({a: int(np.argmax(m)) for a, m in masks.items()})
        steps += 1
    assert steps > 10

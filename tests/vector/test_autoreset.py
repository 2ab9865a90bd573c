"""Auto-reset and infos: a finished episode starts its next at once (the step that ends it
returns the next episode's first decision), rewards and infos only where a hand ended."""

from __future__ import annotations

import numpy as np

import mjenv
from mjenv.mahjong_env import AGENTS
from mjenv.vector import VectorMahjongEnv, episode_seed

from .helpers import choose


def test_the_ending_step_returns_the_next_episodes_first_decision() -> None:
    n, seed = 3, 31
    env = VectorMahjongEnv(n)
    batch = env.reset(seed=seed)
    episodes = [0] * n
    seen = 0
    for t in range(400):
        batch = env.step(choose(batch.action_mask, t))
        for k in np.flatnonzero(batch.terminated).tolist():
            episodes[k] += 1
            fresh = mjenv.raw_env()
            fresh.reset(seed=episode_seed(seed, k, episodes[k]))
            agent = fresh.agent_selection
            assert batch.seat[k] == AGENTS.index(agent)
            assert np.array_equal(batch.observation[k], fresh.observe(agent)["observation"])
            seen += 1
    assert seen >= 3


def test_rewards_and_infos_only_where_a_hand_ended() -> None:
    env = VectorMahjongEnv(4)
    batch = env.reset(seed=2)
    for t in range(300):
        batch = env.step(choose(batch.action_mask, t))
        ended = set(batch.infos)
        assert ended == set(np.flatnonzero(batch.terminated).tolist())  # single hands
        for k in range(4):
            if k not in ended:
                assert not batch.reward[k].any()
            else:
                info = batch.infos[k]
                assert set(info) == {"hand", "result"} and info["hand"] == 0
                payments = [info["result"]["payments"][a] for a in AGENTS]
                assert batch.reward[k].tolist() == [float(p) for p in payments]
                assert sum(payments) == 0


def test_a_match_reports_every_hand_and_terminates_after_the_last() -> None:
    env = VectorMahjongEnv(1, rules="botzone", episode="match")  # botzone: 1 hand a match
    batch = env.reset(seed=5)
    for t in range(300):
        batch = env.step(choose(batch.action_mask, t))
        if batch.infos:
            assert batch.terminated[0] and batch.infos[0]["hand"] == 0
    mcr = VectorMahjongEnv(1, episode="match")
    batch = mcr.reset(seed=5)
    hands = []
    for t in range(2000):
        batch = mcr.step(choose(batch.action_mask, t))
        if batch.infos:
            hands.append(batch.infos[0]["hand"])
            assert bool(batch.terminated[0]) == (hands[-1] == 15)
    assert hands[:4] == [0, 1, 2, 3]

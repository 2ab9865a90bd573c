"""The PettingZoo API of the environment: PettingZoo's own tests, options, resets, errors."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test

import mjenv
from mjenv import mcr_mahjong_v0
from mjenv.mahjong_env import AGENTS, NORMALIZED_SCALE, MahjongEnv


@pytest.mark.parametrize("options", [
    {},
    {"rules": "botzone"},
    {"episode": "match"},
    {"false_win": "penalize", "reward": "win_loss"},
    {"oracle": True, "reward": "normalized"},
])
def test_pettingzoo_api_test(options: dict[str, object]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(mjenv.env(**options), num_cycles=1000)
        api_test(mjenv.raw_env(**options), num_cycles=200)


def test_pettingzoo_seed_test() -> None:
    seed_test(mcr_mahjong_v0.env, num_cycles=500)
    seed_test(lambda: mcr_mahjong_v0.env(rules="botzone"), num_cycles=500)


def test_pettingzoo_render_test() -> None:
    render_test(lambda render_mode: mjenv.env(render_mode=render_mode))


def test_registration_with_pettingzoo() -> None:
    import pettingzoo

    if not hasattr(pettingzoo, "register"):
        pytest.skip("PettingZoo before 1.27 has no registry")

    env = pettingzoo.make("aec", "mjenv/mcr_mahjong_v0", rules="botzone")
    env.reset(seed=1)
    assert env.unwrapped.rules.profile == "botzone"


def play(env: MahjongEnv, seed: int, rng: np.random.Generator) -> dict[str, float]:
    env.reset(seed=seed)
    total = dict.fromkeys(AGENTS, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        total[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(1 if obs["action_mask"][1] else rng.choice(legal)))
    return total


def test_same_seed_same_game() -> None:
    a, b = mjenv.raw_env(), mjenv.raw_env()
    for seed in (0, 7):
        assert play(a, seed, np.random.default_rng(1)) == play(b, seed, np.random.default_rng(1))
        assert a.game is not None and b.game is not None and a.game.events == b.game.events


def test_reward_modes_follow_the_payments() -> None:
    for seed in range(40):
        envs = {mode: mjenv.raw_env(reward=mode) for mode in ("score", "normalized", "win_loss")}
        totals = {mode: play(e, seed, np.random.default_rng(seed)) for mode, e in envs.items()}
        score = totals["score"]
        assert sum(score.values()) == 0
        for a in AGENTS:
            assert totals["normalized"][a] == pytest.approx(score[a] / NORMALIZED_SCALE)
            assert totals["win_loss"][a] == float(np.sign(score[a]))


def test_options_are_checked() -> None:
    with pytest.raises(ValueError, match="rules must be one of"):
        mjenv.raw_env(rules="riichi")
    with pytest.raises(ValueError, match="episode"):
        mjenv.raw_env(episode="game")
    with pytest.raises(ValueError, match="reward"):
        mjenv.raw_env(reward="points")
    with pytest.raises(ValueError, match="false_win"):
        mjenv.raw_env(false_win="allow")
    with pytest.raises(ValueError, match="encoder"):
        mjenv.raw_env(encoder="nope")
    with pytest.raises(ValueError, match="render_mode"):
        mjenv.raw_env(render_mode="rgb_array")
    env = mjenv.raw_env()
    with pytest.warns(UserWarning, match="unknown reset options"):
        env.reset(options={"walls": []})
    with pytest.raises(ValueError, match="permutation"):
        env.reset(options={"wall": ["W1"] * 144})
    with pytest.raises(ValueError, match="episode='hand'"):
        mjenv.raw_env(episode="match").reset(options={"dealer": 1})


def test_a_given_deal_is_played_exactly() -> None:
    from mjenv.engine import Game
    from mjenv.tiles import CODES

    game = Game(seed=5, dealer=2, prevalent_wind=1)
    wall = [CODES[t] for t in game.wall.tiles]
    env = mjenv.raw_env()
    env.reset(options={"wall": wall, "dealer": 2, "prevalent_wind": 1})
    assert env.game is not None and env.game.events == game.events
    bz = mjenv.raw_env(rules="botzone")
    with pytest.raises(ValueError, match="fixes the dealer"):
        bz.reset(options={"wall": wall[:136], "dealer": 1})


def test_raw_env_raises_on_illegal_actions_and_changes_nothing() -> None:
    env = mjenv.raw_env()
    env.reset(seed=3)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    before = list(env.game.events) if env.game else []
    with pytest.raises(ValueError, match="illegal action"):
        env.step(illegal)
    assert env.game is not None and env.game.events == before and env.agent_selection == agent
    with pytest.raises(ValueError, match="must act"):
        env.step(None)


def test_env_penalizes_illegal_actions_zero_sum() -> None:
    env = mjenv.env()
    env.reset(seed=3)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.warns(UserWarning, match="illegal action"):
        env.step(illegal)
    rewards = {a: env.rewards[a] for a in AGENTS}
    assert rewards[agent] == -30 and sum(rewards.values()) == 0
    assert all(env.terminations.values())
    assert env.infos[agent]["penalized"] is True and env.infos[agent]["score"] == -30
    assert env.unwrapped.hand_result()["penalized"] == agent


def test_match_episode_pays_every_hand() -> None:
    env = mjenv.raw_env(episode="match")
    env.reset(seed=11)
    rng = np.random.default_rng(0)
    hands = 0
    total = dict.fromkeys(AGENTS, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        total[agent] += reward
        if info:
            hands = max(hands, info["hand"] + 1)
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert hands == 16
    assert env.match is not None and env.match.is_over
    assert [total[a] for a in AGENTS] == [float(x) for x in env.match.scores]

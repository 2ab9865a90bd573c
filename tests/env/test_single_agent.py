"""The single-agent Gymnasium wrapper (mjenv.single_agent.SingleAgentEnv)."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from mjenv import actions as A
from mjenv.agent import Agent
from mjenv.mahjong_env import AGENTS
from mjenv.single_agent import SingleAgentEnv
from mjenv_agents.random_agent import RandomAgent


def play(env: SingleAgentEnv, seed: int, learner: Agent | None = None,
         max_steps: int = 5000) -> tuple[float, list[dict[str, Any]], dict[str, Any]]:
    """Reset with ``seed`` and play the episode with ``learner`` (random by default): the
    learner's total reward, every info with a result, and the last info."""
    learner = learner or RandomAgent(seed=seed)
    obs, info = env.reset(seed=seed)
    assert obs in env.observation_space
    total, results = 0.0, []
    for _ in range(max_steps):
        assert env.aec.agent_selection == env.agent
        assert obs["action_mask"].any()
        obs, reward, terminated, truncated, info = env.step(
            learner.act(obs["observation"], obs["action_mask"]))
        total += reward
        assert not truncated
        if info:
            results.append(info)
        if terminated:
            return total, results, info
    raise AssertionError("the episode did not end")


class Recorder:
    """A first-legal-action agent that records its resets."""

    def __init__(self) -> None:
        self.resets: list[tuple[int, int | None]] = []

    def reset(self, seat: int, seed: int | None = None) -> None:
        self.resets.append((seat, seed))

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return int(np.flatnonzero(action_mask)[-1])


@pytest.fixture(autouse=True)
def _quiet_penalties() -> Any:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*illegal action.*")
        yield


# ------------------------------------------------------------------ Gymnasium conformance
@pytest.mark.parametrize("options", [{}, {"episode": "match"}, {"rules": "botzone"},
                                     {"seat": 2, "encoder": "ijcai-v1", "oracle": True}])
def test_check_env(options: dict[str, Any]) -> None:
    check_env(SingleAgentEnv(**options), skip_render_check=True)


def test_spaces_are_the_aec_envs() -> None:
    env = SingleAgentEnv()
    assert env.observation_space == env.aec.observation_space(AGENTS[0])
    assert env.action_space.n == A.NUM_ACTIONS  # type: ignore[attr-defined]
    obs, info = env.reset(seed=0)
    assert set(obs) == {"observation", "action_mask"}
    assert obs["action_mask"].dtype == np.int8 and obs["action_mask"].any()
    assert info == {}


def test_reset_seed_is_deterministic() -> None:
    def trajectory(env: SingleAgentEnv, seed: int | None) -> list[Any]:
        obs, _ = env.reset(seed=seed)
        me = RandomAgent(seed=9)
        out: list[Any] = [env.seat, obs["observation"].tobytes()]
        terminated = False
        while not terminated:
            obs, reward, terminated, _, info = env.step(me.act(obs["observation"],
                                                               obs["action_mask"]))
            out += [obs["observation"].tobytes(), obs["action_mask"].tobytes(), reward,
                    repr(info)]
        return out

    a, b = SingleAgentEnv(), SingleAgentEnv()
    assert trajectory(a, 5) == trajectory(b, 5) == trajectory(a, 5)
    assert trajectory(a, 5) != trajectory(a, 6)
    # reset(seed) then reset(): the unseeded resets continue a reproducible stream
    trajectory(a, 7)
    trajectory(b, 7)
    assert trajectory(a, None) == trajectory(b, None)


# ------------------------------------------------------------------ episodes and rewards
@pytest.mark.parametrize("false_win", ["mask", "penalize"])
def test_hand_reward_is_the_learners_payment(false_win: str) -> None:
    env = SingleAgentEnv(false_win=false_win)
    nonzero = 0
    for seed in range(8):
        total, results, info = play(env, seed)
        assert len(results) == 1 and results[0] is info and info["hand"] == 0
        assert total == info["score"]
        nonzero += total != 0
        assert all(env.aec.terminations.values())
    if false_win == "penalize":  # random false wins: the check is not only about zeros
        assert nonzero > 0


def test_reward_modes() -> None:
    for reward in ("normalized", "win_loss"):
        env = SingleAgentEnv(false_win="penalize", reward=reward, seat=1)
        for seed in range(4):
            total, _, info = play(env, seed)
            payment = info["score"]
            expected = payment / 100 if reward == "normalized" else float(np.sign(payment))
            assert total == pytest.approx(expected)


def test_seat_none_covers_several_seats() -> None:
    env = SingleAgentEnv(seat=None)
    seats = set()
    for seed in range(24):
        env.reset(seed=seed)
        assert env.agent == AGENTS[env.seat]
        assert env.aec.agent_selection == env.agent
        seats.add(env.seat)
    assert len(seats) >= 3


def test_fixed_seat() -> None:
    for seat in range(4):
        env = SingleAgentEnv(seat=seat)
        for seed in range(3):
            total, _, info = play(env, seed)
            assert env.seat == seat and env.agent == AGENTS[seat]
            assert total == info["score"]
    assert SingleAgentEnv(seat=np.int64(2)).seat == 2  # type: ignore[arg-type]


# ------------------------------------------------------------------ opponents
def test_opponents_one_spec() -> None:
    env = SingleAgentEnv(opponents="random seed=1")
    assert len(env.opponents) == 3
    assert all(isinstance(o, RandomAgent) for o in env.opponents)
    assert len({id(o) for o in env.opponents}) == 3  # one agent per seat
    play(env, 0)


def test_opponents_three_specs_and_objects() -> None:
    recorder = Recorder()
    env = SingleAgentEnv(opponents=["random", recorder, "random win_first=True"], seat=1)
    assert env.opponents[1] is recorder
    assert isinstance(env.opponents[2], RandomAgent) and env.opponents[2].win_first
    play(env, 3)
    # the opponents take the seats after the learner's, in order; seeds from the reset seed
    assert recorder.resets and {seat for seat, _ in recorder.resets} == {3}
    assert all(seed is not None for _, seed in recorder.resets)


def test_one_agent_object_plays_all_three_seats() -> None:
    recorder = Recorder()
    env = SingleAgentEnv(opponents=recorder, seat=0)
    assert env.opponents == [recorder] * 3
    total, _, info = play(env, 1)
    assert total == info["score"]
    assert {seat for seat, _ in recorder.resets} == {1, 2, 3}


# ------------------------------------------------------------------ errors
@pytest.mark.parametrize("seat", [4, -1, True, 1.5, "0"])
def test_bad_seat(seat: Any) -> None:
    with pytest.raises(ValueError, match="seat must be None or 0..3"):
        SingleAgentEnv(seat=seat)


@pytest.mark.parametrize("opponents", [["random"] * 2, ["random"] * 4, [], 5, [object()] * 3])
def test_bad_opponents(opponents: Any) -> None:
    with pytest.raises(ValueError, match="opponent"):
        SingleAgentEnv(opponents=opponents)


def test_bad_opponent_spec_and_env_option() -> None:
    with pytest.raises(ValueError, match="unknown agent spec"):
        SingleAgentEnv(opponents="nosuchagent")
    with pytest.raises(ValueError, match="episode"):
        SingleAgentEnv(episode="season")
    with pytest.raises(ValueError, match="illegal"):
        SingleAgentEnv(illegal="ignore")


def test_step_before_reset_and_after_the_end() -> None:
    env = SingleAgentEnv()
    with pytest.raises(ValueError, match="reset"):
        env.step(0)
    play(env, 0)
    with pytest.raises(ValueError, match="the episode is over"):
        env.step(0)
    env.reset(seed=1)  # and it plays again
    play(env, 1)


def test_illegal_action_is_penalized_by_default() -> None:
    env = SingleAgentEnv(seat=0)
    obs, _ = env.reset(seed=0)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.warns(UserWarning, match="illegal action"):
        obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (-30.0, True, False)
    assert info["penalized"] is True and env.hand_result()["penalized"] == "player_0"


def test_illegal_action_raises_when_asked() -> None:
    env = SingleAgentEnv(seat=0, illegal="raise")
    obs, _ = env.reset(seed=0)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="legal"):
        env.step(illegal)
    # nothing changed: the learner still decides, and the episode goes on
    assert env.aec.agent_selection == env.agent
    legal = int(np.flatnonzero(obs["action_mask"])[0])
    env.step(legal)


# ------------------------------------------------------------------ match, botzone, render
def test_match_total_is_the_match_score() -> None:
    # seat 3 with false wins offered: opponents sometimes end the first hand before the
    # learner's first decision (what it got there comes with its first step)
    for seed in range(4):
        env = SingleAgentEnv(episode="match", seat=3, false_win="penalize")
        total, results, info = play(env, seed)
        match = env.aec.match
        assert match is not None and match.is_over and len(match.results) == 16
        assert total == match.scores[3]
        assert [r["hand"] for r in results] == sorted({r["hand"] for r in results})
        assert info["hand"] == 15


def test_botzone_rules() -> None:
    env = SingleAgentEnv(rules="botzone", false_win="penalize")
    for seed in range(4):
        total, _, info = play(env, seed)
        assert total == info["score"]
    env = SingleAgentEnv(rules="botzone", episode="match", seat=2)
    total, _, _ = play(env, 0)
    assert env.aec.match is not None and total == env.aec.match.scores[2]


def test_render_is_the_learners_view() -> None:
    env = SingleAgentEnv(seat=2, render_mode="ansi")
    assert env.render() is None  # before reset
    play(env, 0)
    text = env.render()
    assert isinstance(text, str)
    you = [line for line in text.splitlines() if "you" in line]
    assert you and you[0].split()[:2] == ["seat", "2"]
    assert SingleAgentEnv().render() is None  # no render_mode


class MaskOnly:
    """A first-legal agent that declares it reads only the mask; records what it was given."""

    uses_observation = False

    def __init__(self) -> None:
        self.seen: list[np.ndarray] = []

    def reset(self, seat: int, seed: int | None = None) -> None:
        pass

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        self.seen.append(observation)
        return int(np.flatnonzero(action_mask)[-1])


def test_opponents_that_read_only_the_mask_get_no_observation() -> None:
    blind, seeing = MaskOnly(), Recorder()  # both play the last legal action
    a = SingleAgentEnv(opponents=blind, seat=0)
    b = SingleAgentEnv(opponents=seeing, seat=0)
    assert play(a, 3) == play(b, 3)  # the same game
    assert a.aec.game is not None and b.aec.game is not None
    assert a.aec.game.events == b.aec.game.events
    assert blind.seen and all(not o.any() and not o.flags.writeable for o in blind.seen)

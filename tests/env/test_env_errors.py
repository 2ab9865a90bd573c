"""Calls out of order and odd arguments get one clear line (issue 14): before ``reset()``, after
the episode's end, actions of the wrong type, reset options that are not a dict."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

import mjenv
from mjenv.mahjong_env import AGENTS, ResetNeeded, action_id, parallel_env
from mjenv.single_agent import SingleAgentEnv


def finish(env: Any, seed: int = 1) -> None:
    """Play a hand to its end with first-legal actions, every agent stepping None after."""
    env.reset(seed=seed)
    for _ in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))


def one_line(exc: BaseException) -> str:
    text = str(exc)
    assert text and "\n" not in text
    return text


@pytest.mark.parametrize("make", [mjenv.raw_env, mjenv.env], ids=["raw_env", "env"])
@pytest.mark.parametrize("call", ["step", "last", "observe", "state", "agent_iter"])
def test_before_reset(make: Any, call: str) -> None:
    env = make()
    args = {"step": (0,), "observe": ("player_0",)}.get(call, ())
    exc_type = AttributeError if call == "last" and make is mjenv.env else ResetNeeded
    with pytest.raises(exc_type) as info:
        getattr(env, call)(*args)
    assert "reset" in one_line(info.value)


def test_reset_needed_is_a_runtime_and_a_value_error() -> None:
    assert issubclass(ResetNeeded, RuntimeError) and issubclass(ResetNeeded, ValueError)


def test_raw_env_after_the_end() -> None:
    env = mjenv.raw_env()
    finish(env)
    assert env.agents == []
    for call, args in (("step", (0,)), ("step", (None,)), ("last", ())):
        with pytest.raises(ResetNeeded, match="episode is over.*call reset"):
            getattr(env, call)(*args)
    # what stays readable after the end: the observations, the state, the result
    assert not env.observe("player_1")["action_mask"].any()
    assert env.state().shape == env.state_space.shape
    assert isinstance(env.hand_result(), dict)
    env.reset(seed=2)  # and it plays again
    finish(env, 2)


def test_wrapped_env_after_the_end_logs_as_pettingzoo_does() -> None:
    env = mjenv.env()
    finish(env)
    env.step(None)  # PettingZoo's order wrapper logs "should reset() first" and does nothing
    assert env.agents == []


def test_observe_an_unknown_agent() -> None:
    env = mjenv.raw_env()
    env.reset(seed=0)
    with pytest.raises(ValueError, match="unknown agent 'player_9'"):
        env.observe("player_9")


# ------------------------------------------------------------------ action types
@pytest.mark.parametrize("value", [3, np.int8(3), np.int64(3), np.uint16(3), np.array(3)])
def test_integers_of_any_kind_are_action_ids(value: object) -> None:
    assert action_id(value) == 3 and type(action_id(value)) is int


@pytest.mark.parametrize("value", [True, False, np.bool_(True), 2.0, np.float32(2), "2",
                                   None, [2], np.array([2]), np.array(2.0)])
def test_other_types_are_not(value: object) -> None:
    with pytest.raises(ValueError, match="an action is an int id") as info:
        action_id(value)
    one_line(info.value)


def win_decision(env: Any) -> None:
    """Play first-legal until the selected agent may win (Win is id 1); ``env`` wrapped or
    not."""
    raw = env.unwrapped
    for seed in range(200):
        env.reset(seed=seed)
        while env.agents and not env.terminations[env.agent_selection]:
            mask = raw.action_mask(env.agent_selection)
            if mask[1]:
                return
            env.step(int(np.flatnonzero(mask)[-1]))
    raise AssertionError("no win offered in 200 hands")


def test_raw_env_refuses_a_bool_even_where_win_is_legal() -> None:
    env = mjenv.raw_env()
    win_decision(env)
    agent, before = env.agent_selection, len(env.game.events)  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="bool"):
        env.step(True)
    assert env.agent_selection == agent and len(env.game.events) == before  # type: ignore[union-attr]
    env.step(np.int8(1))  # the same action as a numpy integer: Win
    assert env.game.actions[-1] == (AGENTS.index(agent), 1)  # type: ignore[union-attr]


def test_env_penalizes_a_bool_as_an_illegal_action() -> None:
    env = mjenv.env()
    win_decision(env)
    agent = env.agent_selection
    with pytest.warns(UserWarning, match="illegal action True"):
        env.step(True)
    assert env.rewards[agent] == -30 and env.infos[agent]["penalized"] is True
    assert env.unwrapped.hand_result()["penalized"] == agent


def test_single_agent_env_action_types() -> None:
    strict = SingleAgentEnv(seat=0, illegal="raise")
    obs, _ = strict.reset(seed=0)
    with pytest.raises(ValueError, match="bool"):
        strict.step(True)  # type: ignore[arg-type]
    legal = np.flatnonzero(obs["action_mask"])
    strict.step(np.int16(legal[0]))  # type: ignore[arg-type]
    lenient = SingleAgentEnv(seat=0)
    lenient.reset(seed=0)
    with pytest.warns(UserWarning, match="illegal action 2.5"):
        _, reward, terminated, _, info = lenient.step(2.5)  # type: ignore[arg-type]
    assert (reward, terminated, info["penalized"]) == (-30.0, True, True)


# ------------------------------------------------------------------ reset options
@pytest.mark.parametrize("options", ["wall", ["wall"], 3, ("dealer", 0)])
def test_reset_options_must_be_a_dict(options: object) -> None:
    for env in (mjenv.raw_env(), mjenv.env(), parallel_env()):
        with pytest.raises(ValueError, match="reset options must be a dict") as info:
            env.reset(options=options)  # type: ignore[arg-type]
        one_line(info.value)
    with pytest.raises(ValueError, match="reset options must be a dict"):
        SingleAgentEnv().reset(options=options)  # type: ignore[arg-type]


@pytest.mark.parametrize(("options", "match"), [
    ({"dealer": True}, "dealer"), ({"dealer": 4}, "dealer"), ({"dealer": "0"}, "dealer"),
    ({"prevalent_wind": -1}, "prevalent_wind"), ({"prevalent_wind": 1.0}, "prevalent_wind"),
    ({"wall": "W1W2"}, "wall"), ({"wall": 5}, "wall"), ({"wall": {"a": 1}}, "wall"),
    ({"wall": [None] * 144}, "wall"), ({"wall": [[1]] * 144}, "wall"), ({"wall": []}, "wall"),
])
def test_bad_reset_options(options: dict[str, Any], match: str) -> None:
    env = mjenv.raw_env()
    with pytest.raises(ValueError, match=match) as info:
        env.reset(seed=0, options=options)
    one_line(info.value)


def test_numpy_seats_in_options_are_fine() -> None:
    env = mjenv.raw_env()
    env.reset(seed=0, options={"dealer": np.int64(2), "prevalent_wind": np.int8(1)})
    assert env.game is not None and (env.game.dealer, env.game.prevalent_wind) == (2, 1)


def test_unknown_option_keys_warn_whatever_their_type() -> None:
    env = mjenv.raw_env()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        env.reset(seed=0, options={3: 1, "x": 2, None: 0})
    assert any("unknown reset options" in str(w.message) for w in caught)
    assert env.agents == list(AGENTS)


@pytest.mark.parametrize("seed", [-1, True, 1.5, "3", [1]])
def test_bad_seeds(seed: object) -> None:
    for env in (mjenv.raw_env(), mjenv.env(), parallel_env(), SingleAgentEnv()):
        with pytest.raises(ValueError, match="seed must be None or an int >= 0") as info:
            env.reset(seed=seed)  # type: ignore[arg-type]
        one_line(info.value)


def test_big_and_numpy_seeds_are_fine() -> None:
    for seed in (2**70, np.int64(3), np.uint64(2**63)):
        mjenv.raw_env().reset(seed=seed)  # type: ignore[arg-type]
        SingleAgentEnv().reset(seed=seed)  # type: ignore[arg-type]

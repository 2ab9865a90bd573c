"""``state()``: the global state for centralised critics (issue 14, point 10). PettingZoo's own
state tests pass, and the state holds no less than every seat's observation: each seat's
observation (and oracle) is a function of it, checked at every step of many hands."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from gymnasium import spaces
from pettingzoo.test import api_test
from pettingzoo.test.state_test import test_parallel_env as pz_parallel_state_test
from pettingzoo.test.state_test import test_state as pz_state_test
from pettingzoo.test.state_test import test_state_space as pz_state_space_test

import mjenv
from mjenv.encoders.oracle import (
    CONCEALED_KONGS,
    HANDS,
    NEXT,
    PART_DRAWS,
    S_NEXT_FLOWER,
    SCALARS,
    WAITS,
)
from mjenv.mahjong_env import AGENTS, STATE_SEAT_ROWS, STATE_SHAPE, parallel_env

ORACLE_AT = 4 * STATE_SEAT_ROWS


@pytest.mark.parametrize("options", [{}, {"rules": "botzone"}, {"episode": "match"},
                                     {"encoder": "ijcai-v1", "oracle": True}])
def test_pettingzoo_state_tests_and_api_test(options: dict[str, object]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env = mjenv.env(**options)
        pz_state_space_test(env)
        pz_state_test(env, num_cycles=100)
        pz_parallel_state_test(parallel_env(**options))
        api_test(mjenv.env(**options), num_cycles=300)
    space = env.state_space
    assert isinstance(space, spaces.Box) and space.shape == STATE_SHAPE
    assert space.dtype == np.float32


def rotate_oracle(base: np.ndarray, seat: int, per_seat_walls: bool) -> np.ndarray:
    """``oracle-v1`` from ``seat`` given ``oracle-v1`` from seat 0: relative seat r of ``seat``
    is relative seat (seat + r) % 4 of seat 0."""
    out = base.copy()
    for r in range(4):
        src = (seat + r) % 4
        out[HANDS + 4 * r:HANDS + 4 * r + 4] = base[HANDS + 4 * src:HANDS + 4 * src + 4]
        out[CONCEALED_KONGS + r] = base[CONCEALED_KONGS + src]
        out[WAITS + r] = base[WAITS + src]
        if per_seat_walls:
            out[NEXT + PART_DRAWS * r:NEXT + PART_DRAWS * (r + 1)] = \
                base[NEXT + PART_DRAWS * src:NEXT + PART_DRAWS * (src + 1)]
            flags = slice(S_NEXT_FLOWER + PART_DRAWS * r, S_NEXT_FLOWER + PART_DRAWS * (r + 1))
            out[SCALARS, flags] = base[SCALARS, S_NEXT_FLOWER + PART_DRAWS * src:
                                       S_NEXT_FLOWER + PART_DRAWS * (src + 1)]
    return out


@pytest.mark.parametrize("rules", ["mcr", "botzone"])
def test_every_observation_is_a_function_of_the_state(rules: str) -> None:
    """At every step of 12 hands: seat s's mjenv-v1 observation is rows 86 s .. 86 s + 85 of
    the state (its private hand included), its oracle is the state's oracle rotated to s, and
    the private hands of all four seats are in the state (the oracle's hand planes, and each
    seat block's hand planes agree with them)."""
    env = mjenv.raw_env(rules=rules, oracle=True)
    ijcai = mjenv.raw_env(rules=rules, encoder="ijcai-v1")
    rng = np.random.default_rng(0)
    checked = 0
    for seed in range(12):
        env.reset(seed=seed)
        ijcai.reset(seed=seed)
        while env.agents:
            state = env.state()
            assert state.shape == STATE_SHAPE and state.dtype == np.float32
            assert env.state_space.contains(state)
            oracle = state[ORACLE_AT:]
            for s, a in enumerate(AGENTS):
                obs = env.observe(a)
                block = state[STATE_SEAT_ROWS * s:STATE_SEAT_ROWS * (s + 1)]
                assert np.array_equal(block, obs["observation"])
                assert np.array_equal(rotate_oracle(oracle, s, rules == "botzone"),
                                      obs["oracle"])
                # the private hand, twice: the seat block's hand planes are the oracle's
                assert np.array_equal(block[0:4], rotate_oracle(oracle, s, False)[0:4])
                # the ijcai-v1 observation (hand and winds) is one too: its hand planes
                hand = ijcai.observe(a)["observation"][2:6].reshape(4, 36)[:, :34]
                assert np.array_equal(hand, block[0:4])
            checked += 1
            agent = env.agent_selection
            if env.terminations[agent]:
                env.step(None)
                ijcai.step(None)
                continue
            legal = np.flatnonzero(env.action_mask(agent))
            action = int(1 if 1 in legal else rng.choice(legal))
            env.step(action)
            ijcai.step(action)
    assert checked > 500


def test_state_is_a_new_array_and_matches_the_parallel_form() -> None:
    env = mjenv.raw_env()
    env.reset(seed=4)
    a, b = env.state(), env.state()
    assert a is not b and np.array_equal(a, b)
    a[:] = 0
    assert env.state().any()
    par = parallel_env()
    par.reset(seed=4)
    assert np.array_equal(par.state(), b)

"""scripts/critic_variance.py: each kept decision carries the seat's real return and what the
seat and the oracle saw then; the split keeps a hand's rows together; the score is the share of
variance explained."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

import numpy as np
import pytest

import mjenv
from mjenv_agents.rule_based import RuleBasedAgent


def _payments(seed: int) -> list[int]:
    """The payments of raw_env's hand ``seed`` played by four ``rule`` agents."""
    env = mjenv.raw_env()
    env.reset(seed=seed)
    agent = RuleBasedAgent()
    for _ in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else agent.act(obs["observation"], obs["action_mask"]))
    result = env.hand_result()
    assert result is not None
    return [int(result["payments"][name]) for name in env.possible_agents]


def test_collected_rows_carry_the_seats_returns(
        load_script: Callable[[str], ModuleType]) -> None:
    script = load_script("critic_variance")
    data = script.collect(3, 40)
    n = len(data["ret"])
    assert n > 0
    assert data["obs"].shape == (n, 86, 34) and data["oracle"].shape == (n, 38, 34)
    assert data["obs"].dtype == np.float16 and data["oracle"].dtype == np.float16
    assert set(data["hand"].tolist()) <= {40, 41, 42}
    assert ((data["left"] >= 0) & (data["left"] <= 144 - 4 * 13 - 1)).all()  # after the deal
    for h in set(data["hand"].tolist()):
        pay = _payments(h)
        rows = data["hand"] == h
        for seat, ret in zip(data["seat"][rows].tolist(), data["ret"][rows].tolist(),
                             strict=True):
            assert ret == pay[seat]
    # the same hands give the same rows
    again = script.collect(3, 40)
    assert all(np.array_equal(data[k], again[k]) for k in data)


def test_the_split_keeps_hands_whole_and_the_score_is_variance_explained(
        load_script: Callable[[str], ModuleType]) -> None:
    script = load_script("critic_variance")
    hands = np.repeat(np.arange(50), 3)
    train, val, test = script.split_hands(hands)
    assert (train.astype(int) + val.astype(int) + test.astype(int) == 1).all()
    for part in (train, val, test):
        inside = set(hands[part].tolist())
        assert not inside & set(hands[~part].tolist())  # no hand on both sides
    assert len(set(hands[test].tolist())) == 10 and len(set(hands[val].tolist())) == 5
    y = np.array([1.0, -2.0, 3.0, 0.5])
    assert script.explained_variance(y, y) == pytest.approx(1.0)
    assert script.explained_variance(y, np.full(4, 7.0)) == pytest.approx(0.0)
    assert script.explained_variance(y, -y) < 0
    assert np.isnan(script.explained_variance(y[:0], y[:0]))  # an empty bucket: no score

"""Hand-analysis feature planes (mjenv_agents.features) and their use by the policy network."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from mjenv.actions import DISCARD_BASE, PUNG_BASE  # noqa: E402
from mjenv_agents.features import FEATURE_PLANES, augment, feature_planes  # noqa: E402
from mjenv_agents.policy import PolicyConfig, PolicyNet  # noqa: E402
from mjenv_agents.train.dataset import generate  # noqa: E402


@pytest.fixture(scope="module")
def greedy_data():  # type: ignore[no-untyped-def]
    return generate(hands=4, seed=11, teacher="greedy")


def test_shapes_and_none(greedy_data) -> None:  # type: ignore[no-untyped-def]
    d = greedy_data
    assert augment("none", d.obs, d.mask) is d.obs
    x = augment("shanten-v1", d.obs, d.mask)
    assert x.shape == (len(d), 86 + FEATURE_PLANES["shanten-v1"], 34)
    assert np.array_equal(x[:, :86], d.obs)
    assert ((x >= 0) & (x <= 1)).all()
    with pytest.raises(ValueError, match="unknown feature set"):
        feature_planes("shanten-v9")
    with pytest.raises(ValueError, match="obs must be"):
        augment("shanten-v1", d.obs[:, :80], d.mask)


def test_planes_agree_with_the_greedy_agent(greedy_data) -> None:  # type: ignore[no-untyped-def]
    """GreedyShantenAgent discards to keep the best shanten and claims only to lower it: its
    choices must sit in the planes that say so."""
    d = greedy_data
    f = augment("shanten-v1", d.obs, d.mask)[:, 86:]
    rows = np.arange(len(d))
    discard = (d.action >= DISCARD_BASE) & (d.action < DISCARD_BASE + 34)
    assert discard.sum() > 50
    tiles = d.action[discard] - DISCARD_BASE
    assert f[rows[discard], 0, tiles].all()          # the discard keeps the best shanten
    assert not f[rows[discard], 1:3, tiles].any()
    level = f[:, 4:9, :].sum(axis=1)
    assert (level == 1).all()                        # exactly one shanten level, everywhere
    pung = (d.action >= PUNG_BASE) & (d.action < PUNG_BASE + 34)
    if pung.any():
        assert f[rows[pung], 10, d.action[pung] - PUNG_BASE].all()


def test_policy_net_with_features() -> None:
    config = PolicyConfig(channels=8, blocks=1, features="shanten-v1")
    assert config.input_planes == 86 + 15
    with pytest.raises(ValueError):
        PolicyConfig(features="bogus")
    net = PolicyNet(config)
    d = generate(hands=1, seed=2)
    x = net.prepare(d.obs, d.mask)
    logits, value = net(torch.from_numpy(x), torch.from_numpy(d.mask))
    assert logits.shape == (len(d), 235) and value.shape == (len(d),)
    with pytest.raises(ValueError, match="obs must have shape"):
        net(torch.from_numpy(d.obs), torch.from_numpy(d.mask))  # features not added

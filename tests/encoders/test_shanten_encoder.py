"""``mjenv-v1+shanten``: ``mjenv-v1`` plus the ``shanten-v1`` planes, identical to the slow
reference (tests/encoders/shanten_reference.py: each discard analysed on its own from the
``mjenv-v1`` observation) and to ``mjenv_agents.features.augment``, on every decision
of random games in every profile. (The analyses it rests on, ``mjenv.shanten.discard_outcomes``
and ``useful_counts``, are compared with the one-hand-at-a-time path in
tests/test_shanten_discards.py.)"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import mjenv
from mjenv.encoders import ENCODERS, ShantenEncoder, describe_channels, make_encoder
from mjenv.encoders.shanten_planes import ShantenPlanes
from mjenv.engine import MCR
from mjenv_agents.features import FEATURE_PLANES, augment
from tests.encoders.shanten_reference import reference_augment


def _expected(base: np.ndarray, mask: np.ndarray) -> np.ndarray:
    expected = reference_augment(base[None], mask[None].astype(bool))[0]
    assert np.array_equal(augment("shanten-v1", base[None], mask[None].astype(bool))[0],
                          expected)
    return expected


@pytest.mark.parametrize("options", [{}, {"rules": "botzone"}, {"false_win": "penalize"},
                                     {"episode": "match"}],
                         ids=["mcr", "botzone", "penalize", "match"])
def test_identical_to_the_agents_planes_in_random_games(options: dict[str, Any]) -> None:
    env = mjenv.raw_env(encoder="mjenv-v1+shanten", **options)
    base = mjenv.raw_env(**options)
    rng = random.Random(7)
    decisions = 0
    for hand in range(8 if options.get("episode") != "match" else 1):
        env.reset(seed=hand)
        base.reset(seed=hand)
        for agent in env.agent_iter(max_iter=1200):
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                base.step(None)
                continue
            want = base.observe(agent)
            assert np.array_equal(obs["observation"],
                                  _expected(want["observation"], want["action_mask"]))
            if decisions % 5 == 0:  # the seats not asked too (an all-zero mask)
                for other in env.agents:
                    got = env.observe(other)["observation"]
                    ref = base.observe(other)
                    assert np.array_equal(got, _expected(ref["observation"],
                                                         ref["action_mask"]))
            legal = np.flatnonzero(obs["action_mask"]).tolist()
            if len(legal) > 1 and 1 in legal and rng.random() < 0.99:
                legal.remove(1)  # (with false_win="penalize" Win is always offered)
            action = legal[rng.randrange(len(legal))]
            env.step(action)
            base.step(action)
            decisions += 1
    assert decisions > 300


def test_layout_registration_and_channels() -> None:
    assert "mjenv-v1+shanten" in ENCODERS
    enc = make_encoder("mjenv-v1+shanten")
    assert isinstance(enc, ShantenEncoder)
    assert enc.shape == (86 + FEATURE_PLANES["shanten-v1"], 34)
    names = [name for _, name, _ in ShantenEncoder.channels()]
    assert names[-11:] == ["shanten_discard_best", "shanten_discard_plus1",
                           "shanten_discard_plus2", "shanten_discard_ukeire", "shanten_level",
                           "shanten_ukeire_now", "shanten_pung_better", "shanten_pung_same",
                           "shanten_chow_better", "shanten_chow_same", "shanten_useful_now"]
    assert "| 90-94 | shanten_level |" in describe_channels("mjenv-v1+shanten")
    env = mjenv.raw_env(encoder="mjenv-v1+shanten")
    assert env.observation_space("player_0")["observation"].shape == (101, 34)


def test_the_memo_never_changes_a_result() -> None:
    """A memo of 3 entries (cleared all the time) and a fresh one give the same planes."""
    env = mjenv.raw_env()
    env.reset(seed=3)
    rng = random.Random(3)
    tiny, fresh = ShantenPlanes(capacity=3), ShantenPlanes
    for agent in env.agent_iter(max_iter=300):
        obs, _, term, _, _ = env.last()
        if term:
            env.step(None)
            continue
        view = env.view(agent)
        args = (list(view.hand), len(view.melds[view.seat]), view.unseen, obs["action_mask"])
        a, b = np.zeros(15 * 34, np.float32), np.zeros(15 * 34, np.float32)
        tiny.fill(a, *args)
        fresh().fill(b, *args)
        assert np.array_equal(a, b)
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.randrange(len(legal))]))


def test_mask_length_is_checked() -> None:
    enc = make_encoder("mjenv-v1+shanten", MCR)
    env = mjenv.raw_env()
    env.reset(seed=0)
    with pytest.raises(ValueError, match="235"):
        enc.encode(env.view(env.agent_selection), np.zeros(10, np.int8))


def test_meld_count_is_checked() -> None:
    hand = [0] * 34
    hand[0] = 2
    mask = np.zeros(235, np.int8)
    for n_melds in (-1, 5):
        with pytest.raises(ValueError, match="0 to 4 melds"):
            ShantenPlanes().fill(np.zeros(15 * 34, np.float32), hand, n_melds, [4] * 34, mask)

"""Illegal actions: ``illegal="raise"`` refuses the whole step and no game moves;
``illegal="penalize"`` ends those hands with the penalty (as ``raw_env.penalize``) and warns."""

from __future__ import annotations

import numpy as np
import pytest

from mjenv.vector import VectorMahjongEnv

from .helpers import Reference, choose


def test_raise_moves_no_game() -> None:
    env = VectorMahjongEnv(3)
    batch = env.reset(seed=8)
    actions = choose(batch.action_mask, 0)
    bad = actions.copy()
    bad[1] = int(np.flatnonzero(batch.action_mask[1] == 0)[0])
    with pytest.raises(ValueError, match="illegal action .* game 1"):
        env.step(bad)
    after = env.step(actions).observation.copy()
    fresh = VectorMahjongEnv(3)
    untouched = fresh.reset(seed=8)
    assert np.array_equal(fresh.step(choose(untouched.action_mask, 0)).observation, after)


@pytest.mark.parametrize("actions", [[0, 0], [0.5, 1.0], [[1], [2]]])
def test_actions_must_be_one_int_per_game(actions: object) -> None:
    env = VectorMahjongEnv(3)
    env.reset(seed=1)
    with pytest.raises(ValueError, match="3 integer action ids"):
        env.step(actions)  # type: ignore[arg-type]


def test_penalize_ends_the_hand_with_the_penalty() -> None:
    n = 3
    env = VectorMahjongEnv(n, illegal="penalize")
    ref = Reference(n, 4)
    batch = env.reset(seed=4)
    actions = choose(batch.action_mask, 0)
    actions[2] = 300  # not an action id at all
    seat = int(batch.seat[2])
    with pytest.warns(UserWarning, match=r"illegal actions of the seat to act in games \[2\]"):
        batch = env.step(actions)
    for k in range(n):
        rewards, done, info = ref.step(k, int(actions[k]), penalize=(k == 2))
        assert batch.reward[k].tolist() == rewards
        assert bool(batch.terminated[k]) == done
        assert batch.infos.get(k) == info
    assert batch.reward[2, seat] == -30 and batch.terminated[2]
    assert batch.infos[2]["result"]["penalized"] == f"player_{seat}"


@pytest.mark.parametrize("n", [3, 40])  # the small-batch loop and the vectorised check
def test_the_check_finds_every_illegal_game(n: int) -> None:
    from mjenv.vector.checks import check_actions

    env = VectorMahjongEnv(n)
    batch = env.reset(seed=9)
    actions = choose(batch.action_mask, 0)
    actions[n - 1] = -1
    actions[1] = int(np.flatnonzero(batch.action_mask[1] == 0)[0])
    _, bad = check_actions(actions, batch.action_mask)
    assert bad == [1, n - 1]
    live = np.ones(n, dtype=bool)
    live[1] = False
    assert check_actions(actions, batch.action_mask, live)[1] == [n - 1]
    with pytest.raises(ValueError, match=f"illegal action .* game 1 .*{n - 1}"):
        env.step(actions)

"""The batch's prefetch (mjenv.vector.prefetch, mjenv/_prefetch.c): it changes nothing, it is
built wherever the engine is compiled, and each game's working set names the state a step
reads, refilled at each hand."""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
import pytest

import mjenv.engine.game as game_module
import mjenv.vector.shard as shard_module
from mjenv.engine.seat_view import PUBLIC_LISTS, SeatView
from mjenv.vector import VectorMahjongEnv
from mjenv.vector.options import EnvOptions
from mjenv.vector.prefetch import AHEAD, prefetch
from mjenv.vector.slot import GameSlot
from mjenv.vector.timing import random_legal_actions


def _samples() -> list[Any]:
    view = SeatView(1)
    return [[1, 2, 3], list(range(1_000)), [], bytearray(b"abc" * 50), b"xyz" * 300,
            (1, "a", None), tuple(range(200)), {"a": [1]}, 10**40, "text", 1.5, None,
            view, view.hand, EnvOptions(), GameSlot(EnvOptions())]


def test_prefetch_changes_nothing() -> None:
    objects = _samples()
    before = [(sys.getrefcount(o), repr(o)) for o in objects]
    prefetch(objects)
    prefetch([])
    assert [(sys.getrefcount(o), repr(o)) for o in objects] == before


def test_the_c_prefetch_refuses_what_is_not_a_list() -> None:
    c = pytest.importorskip("mjenv._prefetch")
    with pytest.raises(TypeError, match="a list of objects"):
        c.prefetch((1, 2))


def test_a_compiled_engine_comes_with_the_c_prefetch() -> None:
    """setup.py builds mjenv/_prefetch.c wherever it compiles the engine: a build that lost it
    would still pass every other test, only slower."""
    if not (game_module.__file__ or "").endswith(".so"):
        pytest.skip("the plain-Python install: the prefetch does nothing there")
    assert prefetch.__module__ == "mjenv._prefetch"


def _ids(objects: list[object]) -> set[int]:
    return {id(o) for o in objects}


def test_a_slots_working_set_names_its_state_and_follows_its_hands() -> None:
    slot = GameSlot(EnvOptions(episode="match"))
    slot.start(7)
    working = slot.working_set
    game, views = slot.game, slot.views
    assert game is not None and views is not None
    have = _ids(working)
    assert id(slot) not in have  # no cycle: a dropped batch is freed at once
    wanted: list[object] = [game, game.events, game.actions, game.visible, game.wall.counts,
                            *game.hands, *game.melds, *game.discards, *game.flowers,
                            views, *views.views, slot.encoder]
    for v in views.views:
        wanted += [v.hand, v.unseen, *v.melds]
    first = views.views[0]
    for name in PUBLIC_LISTS:
        wanted.append(getattr(first, name))
    wanted += [*first.river, *first.river_counts, *first.claimed_counts, *first.claimed_by]
    assert [o for o in wanted if id(o) not in have] == []
    assert len(have) == len(working), "each object once (the views share their public lists)"
    # the same list, refilled for the next hand of the match: the new game's, not the old one's
    old = game
    rng = np.random.default_rng(0)
    while slot.game is old:
        legal = list(slot.legal(slot.seat))
        slot.step(legal[int(rng.integers(len(legal)))])
    assert slot.working_set is working
    assert slot.game is not None and id(slot.game) in _ids(working)
    assert id(old) not in _ids(working) and id(old.events) not in _ids(working)


def test_a_lone_views_state_objects_include_every_public_list() -> None:
    view = SeatView(2)
    have = _ids(view.state_objects())
    for name in PUBLIC_LISTS:
        field = getattr(view, name)
        assert id(field) in have, name
        if isinstance(field[0], (list, bytearray)):
            assert all(id(row) in have for row in field), name


def test_the_batch_prefetches_each_game_ahead_of_its_step(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[int] = []
    monkeypatch.setattr(shard_module, "prefetch", lambda objects: seen.append(id(objects)))
    n = 2 * AHEAD + 3
    with VectorMahjongEnv(n) as env:
        batch = env.reset(seed=3)
        sets = env._runner.shard.working_sets  # type: ignore[union-attr]
        assert len(sets) == n and all(s for s in sets)
        for _ in range(3):
            seen.clear()
            batch = env.step(random_legal_actions(np.random.default_rng(0), batch.action_mask))
            assert seen == [id(s) for s in sets]  # every game once, in order


def test_the_same_games_with_and_without_the_prefetch(monkeypatch: pytest.MonkeyPatch) -> None:
    def play() -> list[np.ndarray]:
        rng = np.random.default_rng(5)
        out = []
        with VectorMahjongEnv(2 * AHEAD + 2, encoder="mjenv-v1+shanten") as env:
            batch = env.reset(seed=11)
            for _ in range(60):
                batch = env.step(random_legal_actions(rng, batch.action_mask))
                out += [batch.observation.copy(), batch.action_mask.copy(), batch.reward.copy()]
        return out

    with_it = play()
    monkeypatch.setattr(shard_module, "prefetch", len)
    without = play()
    assert all(np.array_equal(a, b) for a, b in zip(with_it, without, strict=True))

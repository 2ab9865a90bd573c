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
from mjenv.encoders import make_encoder
from mjenv.engine.seat_view import PUBLIC_LISTS, SeatView
from mjenv.vector import VectorMahjongEnv
from mjenv.vector.options import EnvOptions
from mjenv.vector.prefetch import AHEAD, prefetch, prefetch_items
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
    prefetch_items([objects, [], objects[:3]])
    prefetch_items([])
    assert [(sys.getrefcount(o), repr(o)) for o in objects] == before


def test_the_c_prefetch_refuses_what_is_not_a_list() -> None:
    c = pytest.importorskip("mjenv._prefetch")
    with pytest.raises(TypeError, match="a list of objects"):
        c.prefetch((1, 2))
    for bad in ((1, 2), [[1], (2,)], [None]):
        with pytest.raises(TypeError, match="a list of lists"):
            c.prefetch_items(bad)


def test_a_compiled_engine_comes_with_the_c_prefetch() -> None:
    """setup.py builds mjenv/_prefetch.c wherever it compiles the engine: a build that lost it
    would still pass every other test, only slower."""
    if not (game_module.__file__ or "").endswith(".so"):
        pytest.skip("the plain-Python install: the prefetch does nothing there")
    assert prefetch.__module__ == "mjenv._prefetch"
    assert prefetch_items.__module__ == "mjenv._prefetch"


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


@pytest.mark.parametrize("encoder", ["mjenv-v1", "mjenv-v1+shanten"])
def test_the_encoders_state_lists_hold_what_its_memos_hold(encoder: str) -> None:
    """The lists whose items the batch prefetches a game ahead are in the working set (so they
    are in the cache by then), and after every step they hold every block and meld key the
    encoder's memos hold: what the next encoding joins and compares."""
    slot = GameSlot(EnvOptions(encoder=encoder))
    slot.start(3)
    base: Any = slot.encoder
    base = base if encoder == "mjenv-v1" else base._base
    assert [id(x) for x in slot.item_lists] == [id(base._meld_memo), id(base._river_memo),
                                                 id(base._memo_parts)]
    assert all(id(x) in _ids(slot.working_set) for x in slot.item_lists)
    rng = np.random.default_rng(1)
    checked = 0
    while not slot.over:
        slot.observe(slot.seat)
        parts = {id(x) for x in base._memo_parts}
        held = [entry[1] for entry in base._meld_memo if entry is not None]
        held += [entry[0] for entry in base._meld_memo if entry is not None]
        held += [entry[3] for entry in base._river_memo if entry is not None]
        assert all(id(x) in parts for x in held)
        checked += len(held)
        legal = list(slot.legal(slot.seat))
        slot.step(legal[int(rng.integers(len(legal)))])
    assert checked > 100
    assert make_encoder("ijcai-v1").state_lists() == []


def test_a_lone_views_state_objects_include_every_public_list() -> None:
    view = SeatView(2)
    have = _ids(view.state_objects())
    for name in PUBLIC_LISTS:
        field = getattr(view, name)
        assert id(field) in have, name
        if isinstance(field[0], (list, bytearray)):
            assert all(id(row) in have for row in field), name


def test_the_batch_prefetches_each_game_ahead_of_its_step(monkeypatch: pytest.MonkeyPatch) -> None:
    """Game ``i + AHEAD``'s working set, then game ``i + 1``'s item lists, before game ``i``
    steps: every game's once a step, in order, each game's items after its working set."""
    seen: list[tuple[str, int]] = []
    monkeypatch.setattr(shard_module, "prefetch", lambda x: seen.append(("set", id(x))))
    monkeypatch.setattr(shard_module, "prefetch_items", lambda x: seen.append(("items", id(x))))
    n = 2 * AHEAD + 3
    with VectorMahjongEnv(n) as env:
        batch = env.reset(seed=3)
        shard: Any = env._runner.shard  # type: ignore[union-attr]
        sets, items = shard.working_sets, shard.item_lists
        assert len(sets) == len(items) == n and all(s for s in sets) and all(items)
        for _ in range(3):
            seen.clear()
            batch = env.step(random_legal_actions(np.random.default_rng(0), batch.action_mask))
            assert [x for kind, x in seen if kind == "set"] == [id(s) for s in sets]
            assert [x for kind, x in seen if kind == "items"] == [id(s) for s in items[1:]]
            for i in range(1, n):
                assert seen.index(("set", id(sets[i]))) < seen.index(("items", id(items[i])))


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
    monkeypatch.setattr(shard_module, "prefetch_items", len)
    without = play()
    assert all(np.array_equal(a, b) for a, b in zip(with_it, without, strict=True))

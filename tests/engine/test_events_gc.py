"""Events are not tracked by the cyclic garbage collector where the engine is compiled.

mjenv.engine.events marks every event class ``acyclic`` for mypyc: an event holds numbers,
flags and tuples of them, never anything that leads back to it. A hand keeps about a hundred
events, so in a batch of a thousand games they were 38% of what the collector walked
(docs/vector.md). The plain-Python build keeps ordinary dataclasses, which the collector tracks:
the decorator changes nothing there.
"""

from __future__ import annotations

import gc
import pickle
import random

import pytest

from mjenv.engine import Game, events
from tests.engine.test_random_play import play

COMPILED = not str(events.__file__).endswith(".py")


@pytest.mark.skipif(not COMPILED, reason="plain Python: events are ordinary dataclasses")
def test_the_events_of_a_hand_are_not_tracked() -> None:
    game = Game(seed=5)
    play(game, random.Random(5), check=False)
    kinds = {type(e).__name__ for e in game.events}
    assert {"Deal", "Draw", "Discard"} <= kinds
    assert not any(gc.is_tracked(e) for e in game.events)
    for event in game.events:  # copies too (pickling rebuilds them through the constructor)
        assert not gc.is_tracked(pickle.loads(pickle.dumps(event)))
    assert not gc.is_tracked(events.view(game.events[0], viewer=1))


def test_a_played_hand_leaves_no_cycle_for_the_collector() -> None:
    """Untracked objects inside a reference cycle would never be freed; play makes none."""
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        for seed in range(8):
            game = Game(seed=seed)
            play(game, random.Random(seed), check=False)
            assert game.result is not None
            del game
        assert gc.collect() == 0
    finally:
        if enabled:
            gc.enable()


def test_the_action_log_holds_shared_entries() -> None:
    """``Game.actions`` logs ``(seat, action)`` pairs made once per module (a new tuple per
    step counted towards every collection: issue 15), compiled or not; the values are those
    played."""
    a, b = Game(seed=5), Game(seed=6)
    play(a, random.Random(5), check=False)
    play(b, random.Random(6), check=False)
    assert all(type(x) is tuple and len(x) == 2 for x in a.actions)
    shared = {x: x for x in a.actions}
    common = [x for x in b.actions if x in shared]
    assert common and all(shared[x] is x for x in common)

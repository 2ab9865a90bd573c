"""Games, seat views and events survive pickling and deep copies, compiled with mypyc or not
(their ``__reduce__``: a compiled class has no ``__dict__``, and its ``__new__`` runs
``__init__``), and the copies play on exactly as the originals."""

from __future__ import annotations

import copy
import pickle
import random
from collections.abc import Callable
from typing import Any

import pytest

from mjenv.engine import BOTZONE, MCR, Game, SeatView
from mjenv.engine.seat_view import fold

from .test_clone import play, state

COPIES: dict[str, Callable[[Any], Any]] = {
    "pickle": lambda x: pickle.loads(pickle.dumps(x)),
    "deepcopy": copy.deepcopy,
}


def _stopped_games() -> list[Game]:
    """Games at random points of random hands, none holding the fans of a possible win (those
    results are not copied deep by the engine's own clone either: they are immutable)."""
    out = []
    for seed in range(40):
        rules = BOTZONE if seed % 2 else MCR
        dealer = seed % 4 if rules.fixed_dealer is None else rules.fixed_dealer
        g = Game(rules, seed=seed, dealer=dealer, prevalent_wind=seed % 4)
        play(g, random.Random(seed), steps=random.Random(-seed).randrange(120))
        if not g._wins:
            out.append(g)
    return out


@pytest.mark.parametrize("how", sorted(COPIES))
def test_a_copied_game_plays_on_as_the_original(how: str) -> None:
    games = _stopped_games()
    assert len(games) > 20
    for seed, g in enumerate(games):
        before = state(g)
        c = COPIES[how](g)
        assert state(c) == before
        actions = play(c, random.Random(seed))
        assert state(g) == before  # the copy is independent
        for seat, action in actions:
            g.step(seat, action)
        assert g.events == c.events and g.result == c.result and g.actions == c.actions


@pytest.mark.parametrize("how", sorted(COPIES))
def test_a_copied_view_equals_the_original_and_folds_on(how: str) -> None:
    g = Game(MCR, seed=3)
    rng = random.Random(3)
    views = [SeatView.of_game(g, s) for s in range(4)]
    while not g.is_over:
        seat = g.to_act()[0]
        g.step(seat, rng.choice(g.legal_actions(seat)))
        for v in views:
            c = COPIES[how](v)  # a view one step behind, copied, then both fold the step
            assert c == v and c is not v and c.hand is not v.hand and c.river is not v.river
            c.extend(g.events[c.num_events:])
            v.extend(g.events[v.num_events:])
            assert c == v
    assert views == [fold(g.events, s, dealer=g.dealer, prevalent_wind=g.prevalent_wind)
                     for s in range(4)]
    events = COPIES[how](g.events)
    assert events == g.events and events is not g.events

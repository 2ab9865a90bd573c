"""``mjenv-v1`` reuses blocks between calls (meld blocks memoised by content, river blocks by the
river list and its stamp, a river block grown from the one before it by one more discard):
whatever the order of the calls and whichever view they come from (separate views, clones, or
one table's views reused from hand to hand as a batch reuses them), an observation is exactly
what a fresh encoder, with nothing remembered, makes from a view folded afresh."""

from __future__ import annotations

import random

import numpy as np
import pytest

from mjenv import actions as A
from mjenv.encoders import make_encoder
from mjenv.engine import BOTZONE, MCR, Game, RuleConfig, SeatView
from mjenv.engine.seat_view import TableViews, fold

RULES = {"mcr": MCR, "botzone": BOTZONE, "penalize": RuleConfig(false_win="penalize")}


def _mask(legal: list[int]) -> np.ndarray:
    m = np.zeros(A.NUM_ACTIONS, dtype=np.int8)
    m[legal] = 1
    return m


@pytest.mark.parametrize("views_from", ["separate", "table"])
@pytest.mark.parametrize("name", sorted(RULES))
def test_remembered_blocks_give_what_a_fresh_encoder_gives(name: str, views_from: str) -> None:
    rules = RULES[name]
    kept = make_encoder("mjenv-v1", rules)  # one encoder for the whole run, as an env holds
    checked = 0
    table: TableViews | None = None
    for seed in range(25):
        rng = random.Random(seed)
        dealer = seed % 4 if rules.fixed_dealer is None else rules.fixed_dealer
        g = Game(rules, seed=seed, dealer=dealer, prevalent_wind=seed % 4)
        views = [SeatView(s, dealer=g.dealer, prevalent_wind=g.prevalent_wind,
                          num_tiles=rules.num_tiles) for s in range(4)]
        if table is None:
            table = TableViews.of_game(g)
        else:  # the same lists, emptied: only their stamps tell the new hand's rivers apart
            table.restart(dealer=g.dealer, prevalent_wind=g.prevalent_wind)
        while True:
            # every seat, in a shuffled order, some through a clone: the memo meets contents
            # out of order and from other objects, as a vector of envs or a critic's state does
            for s in rng.sample(range(4), 4):
                if views_from == "table":
                    v = table.view(s, g.events)
                else:
                    v = views[s]
                    v.extend(g.events[v.num_events:])
                if rng.random() < 0.2:
                    v = v.clone()
                mask = _mask(g.legal_actions(s))
                fresh = make_encoder("mjenv-v1", rules).encode(
                    fold(g.events, s, dealer=g.dealer, prevalent_wind=g.prevalent_wind,
                         num_tiles=rules.num_tiles), mask)
                assert np.array_equal(kept.encode(v, mask), fresh), (name, seed, s)
                checked += 1
            if g.is_over:
                break
            seat = g.to_act()[0]
            g.step(seat, rng.choice(g.legal_actions(seat)))
    assert checked > 500


def _play_until_river(seed: int, seat: int, length: int) -> tuple[Game, SeatView] | None:
    """A game of random play stopped when ``seat``'s river first holds ``length`` discards (None
    if it never does), with ``seat``'s view of it."""
    rng = random.Random(seed)
    g = Game(MCR, seed=seed)
    while not g.is_over:
        view = fold(g.events, seat, dealer=g.dealer, prevalent_wind=g.prevalent_wind,
                    num_tiles=MCR.num_tiles)
        if len(view.river[seat]) == length:
            return g, view
        s = g.to_act()[0]
        g.step(s, rng.choice(g.legal_actions(s)))
    return None


def test_a_river_one_longer_from_another_game_is_not_grown_from_the_remembered_one() -> None:
    """One encoder encodes a view of one game, then of another game whose river is one discard
    longer (other lists, whose stamps may be the same numbers): the second observation is made
    afresh, not from the first game's block."""
    differ = 0
    for seed in range(12):
        first = _play_until_river(seed, 0, 5)
        second = _play_until_river(seed + 100, 0, 6)
        if first is None or second is None:
            continue
        (_, a), (g, b) = first, second
        differ += a.river[0] != b.river[0][:5]
        kept = make_encoder("mjenv-v1", MCR)
        mask = _mask(g.legal_actions(0))
        kept.encode(a, mask)
        fresh = make_encoder("mjenv-v1", MCR).encode(b, mask)
        assert np.array_equal(kept.encode(b, mask), fresh), seed
    assert differ >= 5

"""``Game.clone`` copies every field by its declared kind (game.CLONE_FIELDS, REBUILT_FIELDS).

A field added to Game but not declared fails the first test, so a new mutable field cannot be
shared between a game and its clone by accident. The others clone in every phase of random
hands (both wall layouts, both false_win modes) and play the clone and the original on apart:
neither changes the other, and the clone plays exactly as the original would.
"""

from __future__ import annotations

import copy
import random
from dataclasses import replace
from typing import Any

import pytest

from mjenv.engine import BOTZONE, MCR, Game, RuleConfig
from mjenv.engine.game import CLAIM, CLONE_FIELDS, OVER, PLAY, REBUILT_FIELDS, ROB

from .helpers import game_fields
from .test_seat_view import to_added_kong

PROFILES = {"mcr": MCR, "botzone": BOTZONE, "penalize": replace(MCR, false_win="penalize")}


def state(game: Game) -> dict[str, Any]:
    """Everything in ``game``, copied deep (FanResults and melds are immutable and compared
    as they are), and what it answers; not the scratch (the legal actions' cache, the events
    of the latest step)."""
    out = {k: dict(v) if k == "_wins" else copy.deepcopy(v) for k, v in game_fields(game).items()
           if k not in ("wall", "_play_legal", "_out", *REBUILT_FIELDS)}
    out["wall"] = (game.wall.tiles, game.wall.remaining_tiles(),
                   [game.wall.left(s) for s in range(4)])
    out["waits"] = [game.waiting_tiles(s) for s in range(4)]
    out["legal"] = [game.legal_actions(s) for s in range(4)]
    out["to_act"] = game.to_act()
    return out


def play(game: Game, rng: random.Random, steps: int | None = None) -> list[tuple[int, int]]:
    """Random legal steps (at most ``steps``; taking a real win half the time); the actions."""
    done: list[tuple[int, int]] = []
    while not game.is_over and (steps is None or len(done) < steps):
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        real_win = 1 in legal and game.rules.false_win == "mask"
        action = 1 if real_win and rng.random() < 0.5 else rng.choice(legal)
        game.step(seat, action)
        done.append((seat, action))
    return done


def games(rules: RuleConfig, count: int) -> list[Game]:
    """Games stopped at random points of random hands, in every phase (a robbing window,
    which random play hardly opens, from a scripted hand)."""
    out = [to_added_kong()] if rules == MCR else []
    for seed in range(count):
        dealer = seed % 4 if rules.fixed_dealer is None else rules.fixed_dealer
        g = Game(rules, seed=seed, dealer=dealer, prevalent_wind=seed % 4)
        play(g, random.Random(seed), steps=random.Random(-seed).randrange(140))
        out.append(g)
    return out


def test_every_field_of_a_game_is_declared_for_clone() -> None:
    declared = set(CLONE_FIELDS) | set(REBUILT_FIELDS)
    assert not set(CLONE_FIELDS) & set(REBUILT_FIELDS)
    phases = set()
    for rules in PROFILES.values():
        for g in games(rules, 30):
            phases.add(g.phase)
            assert set(game_fields(g)) == declared, set(game_fields(g)) ^ declared
            assert set(game_fields(g.clone())) == declared
    assert phases == {PLAY, CLAIM, ROB, OVER}, phases


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_a_clone_and_its_original_play_on_apart(profile: str) -> None:
    for seed, g in enumerate(games(PROFILES[profile], 25)):
        if not g.is_over:
            g.legal_actions(g.to_act()[0])  # fill the legal actions' cache (clones share it)
        before = state(g)
        c = g.clone()
        assert state(c) == before
        actions = play(c, random.Random(seed))
        assert state(g) == before  # playing the clone changed nothing in the original
        after = state(c)
        for seat, action in actions:  # the original plays on exactly as the clone did
            g.step(seat, action)
        assert g.events == c.events and g.result == c.result and g.actions == c.actions
        assert state(c) == after  # and playing the original changed nothing in the clone

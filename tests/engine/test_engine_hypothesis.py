"""Property tests of the engine: random hands in every profile, driven by hypothesis.

An example is a profile, a wall seed and a list of choice numbers. Each choice picks a seat
among ``to_act()`` and one of its legal actions (:func:`pick`); when the list runs out, the
choices continue from ``random.Random(seed)`` so that every hand can be played to its end.
Uniform choices would end most ``penalize`` hands within a few steps with a false Win and
would almost never win a hand, so :func:`pick` declares a false Win rarely, takes most real
wins and mostly discards towards a win.

Properties: (a) the invariants hold after every step; (b) an illegal call (an action not in
``legal_actions``, a seat not to act, a value that is not an action id, any call after the
end) raises ValueError and leaves the game exactly as it was; (c) a clone is independent of its
original both ways, and the two continued alike end alike; (d) the same seed and choices give
the same hand; (e) ``legal_actions`` is sorted, within the 235 ids, non-empty exactly for the
seats in ``to_act()``, and a copy.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mjenv import actions as A
from mjenv.engine import BOTZONE, MCR, NUM_ACTIONS, Game, RuleConfig, check_invariants
from mjenv.engine.record import record_of, to_json

from .helpers import game_fields
from .test_play_acceptance import is_real_win, steered

RULES: dict[str, RuleConfig] = {
    "mcr": MCR,
    "mcr+penalize": dataclasses.replace(MCR, false_win="penalize"),
    "botzone": BOTZONE,
    "botzone+flowers": dataclasses.replace(BOTZONE, flowers=True),
    "botzone+penalize": dataclasses.replace(BOTZONE, false_win="penalize"),
}

SETTINGS = settings(max_examples=15, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
profiles = st.sampled_from(list(RULES))
seeds = st.integers(0, 2**32 - 1)
choice_lists = st.lists(st.integers(0, 2**16 - 1), max_size=150)


def new_game(name: str, seed: int) -> Game:
    rules = RULES[name]
    dealer = rules.fixed_dealer if rules.fixed_dealer is not None else seed % 4
    return Game(rules, seed=seed, dealer=dealer, prevalent_wind=(seed >> 2) % 4)


def stream(seed: int, choices: Sequence[int]) -> Iterator[int]:
    """``choices``, then choices from ``random.Random(seed)`` for ever."""
    yield from choices
    rng = random.Random(seed)
    while True:
        yield rng.randrange(2**16)


def pick(game: Game, c: int) -> tuple[int, int]:
    """The (seat, action) that choice ``c`` names in ``game``: a seat to act, then a real win
    three times in four, a false Win (penalize mode) once in 256, else one of the other legal
    actions, the discard steered towards a win (:func:`steered`) three times in four."""
    seats = game.to_act()
    seat = seats[c % len(seats)]
    legal = game.legal_actions(seat)
    if A.WIN in legal:
        if is_real_win(game, seat):
            if (c >> 10) % 4 != 3:
                return seat, A.WIN
        elif (c >> 8) % 256 == 137:
            return seat, A.WIN
        legal = [a for a in legal if a != A.WIN]
    if (c >> 13) % 4 != 3:
        legal = steered(game, seat, legal)
    return seat, legal[(c >> 2) % len(legal)]


def advance(game: Game, choices: Iterator[int], steps: int | None = None, *,
            check: bool = False) -> None:
    """Step ``game`` with ``choices`` to its end, or for at most ``steps`` steps."""
    n = 0
    while not game.is_over and (steps is None or n < steps):
        game.step(*pick(game, next(choices)))
        n += 1
        if check:
            check_invariants(game)


def snapshot(game: Game) -> dict[str, Any]:
    """Everything in the game's state, copied (the wall by its remaining tiles), plus the
    public views of it. Left out: the lazily filled cache of the legal actions, the events
    buffer of the last step (scratch, not state) and the seats' facts (views of the lists
    above, and the waits, kept below). The FanResults of ``_wins`` are immutable (and cannot
    be deep-copied): that dict is copied one level deep."""
    state = {k: dict(v) if k == "_wins" else copy.deepcopy(v) for k, v in game_fields(game).items()
             if k not in ("wall", "_play_legal", "_out", "_facts", "_windows")}
    state["wall"] = (type(game.wall), game.wall.tiles, game.wall.remaining_tiles(),
                     game.wall.seed)
    state["record"] = to_json(record_of(game))
    state["to_act"] = game.to_act()
    state["legal"] = [game.legal_actions(s) for s in range(4)]
    state["waits"] = [game.waiting_tiles(s) for s in range(4)]
    return state


def outcome(game: Game) -> tuple[object, ...]:
    return (game.events, game.actions, game.result, game.scores, to_json(record_of(game)))


def check_legal_actions(game: Game) -> None:
    to_act = game.to_act()
    assert len(set(to_act)) == len(to_act)
    assert all(0 <= s <= 3 for s in to_act)
    if game.is_over:
        assert to_act == ()
    else:
        assert to_act
    for s in range(4):
        legal = game.legal_actions(s)
        assert legal == sorted(set(legal)), legal
        assert all(0 <= a < NUM_ACTIONS for a in legal), legal
        assert bool(legal) == (s in to_act), (s, to_act, legal)
        assert legal != [A.PASS]
        legal.append(-1)  # the caller's list is a copy
        assert -1 not in game.legal_actions(s)


# ---------------------------------------------------------------- (a) invariants
@SETTINGS
@given(name=profiles, seed=seeds, choices=choice_lists)
def test_invariants_hold_after_every_step(name: str, seed: int, choices: list[int]) -> None:
    game = new_game(name, seed)
    check_invariants(game)
    advance(game, stream(seed, choices), check=True)
    assert game.result is not None
    if game.rules.false_win == "mask":
        assert game.result.penalized is None  # only a false Win is penalized, never masked


# ---------------------------------------------------------------- (b) illegal actions
NOT_ACTIONS: list[object] = [None, "1", 1.0, 1.5, [1], (A.WIN,), object()]


@SETTINGS
@given(name=profiles, seed=seeds, choices=choice_lists, data=st.data())
def test_an_illegal_call_raises_and_changes_nothing(name: str, seed: int, choices: list[int],
                                                   data: st.DataObject) -> None:
    game = new_game(name, seed)
    prefix = data.draw(st.integers(0, 120), label="steps before the illegal call")
    advance(game, stream(seed, choices), prefix)
    before = snapshot(game)
    if game.is_over:
        seat = data.draw(st.integers(0, 3), label="seat")
        with pytest.raises(ValueError, match="over"):
            game.step(seat, data.draw(st.integers(0, NUM_ACTIONS - 1), label="action"))
        with pytest.raises(ValueError, match="over"):
            game.penalize(seat)
        assert snapshot(game) == before
        return
    to_act = game.to_act()
    how = data.draw(st.sampled_from(["illegal id", "seat not to act", "not an id"]),
                    label="how")
    if how == "illegal id":
        seat = data.draw(st.sampled_from(to_act), label="seat")
        legal = game.legal_actions(seat)
        action: object = data.draw(st.integers(-3, NUM_ACTIONS + 3).filter(
            lambda a: a not in legal), label="action")
    elif how == "seat not to act":
        seat = data.draw(st.integers(-2, 6).filter(lambda s: s not in to_act), label="seat")
        action = data.draw(st.integers(0, NUM_ACTIONS - 1), label="action")
    else:
        seat = data.draw(st.sampled_from(to_act), label="seat")
        action = data.draw(st.sampled_from(NOT_ACTIONS), label="action")
    with pytest.raises(ValueError):
        game.step(seat, action)  # type: ignore[arg-type]
    assert snapshot(game) == before
    # and the hand goes on exactly as one that never saw the call
    control = new_game(name, seed)
    advance(control, stream(seed, choices), prefix)
    tail = data.draw(seeds, label="seed of the rest")
    advance(game, stream(tail, []), check=True)
    advance(control, stream(tail, []))
    assert outcome(game) == outcome(control)


# ---------------------------------------------------------------- (c) clones
@SETTINGS
@given(name=profiles, seed=seeds, choices=choice_lists, prefix=st.integers(0, 120),
       tail=seeds)
def test_clones_are_independent_and_end_alike(name: str, seed: int, choices: list[int],
                                              prefix: int, tail: int) -> None:
    game = new_game(name, seed)
    advance(game, stream(seed, choices), prefix)
    first, second = game.clone(), game.clone()
    before = snapshot(game)
    assert snapshot(first) == before
    advance(first, stream(tail, []), check=True)  # stepping a clone ...
    assert snapshot(game) == before               # ... never changes the original
    assert snapshot(second) == before             # ... nor a sibling clone
    advance(game, stream(tail, []), check=True)   # stepping the original ...
    assert snapshot(second) == before             # ... never changes a clone
    assert outcome(game) == outcome(first)
    third = second.clone()
    advance(second, stream(tail, []))
    advance(third, stream(tail, []))
    assert outcome(second) == outcome(game) == outcome(third)


# ---------------------------------------------------------------- (d) reproducibility
@SETTINGS
@given(name=profiles, seed=seeds, choices=choice_lists)
def test_same_seed_and_choices_same_hand(name: str, seed: int, choices: list[int]) -> None:
    one, two = new_game(name, seed), new_game(name, seed)
    assert one.events == two.events and one.wall.tiles == two.wall.tiles
    advance(one, stream(seed, choices))
    advance(two, stream(seed, choices))
    assert outcome(one) == outcome(two)
    # the same wall given explicitly (without the seed) plays the same hand too
    three = Game(one.rules, wall=list(one.wall.tiles), dealer=one.dealer,
                 prevalent_wind=one.prevalent_wind)
    for seat, a in one.actions:
        three.step(seat, a)
    assert three.events == one.events and three.result == one.result


# ---------------------------------------------------------------- (e) legal actions
@SETTINGS
@given(name=profiles, seed=seeds, choices=choice_lists)
def test_legal_actions_are_sorted_and_given_exactly_to_the_seats_to_act(
        name: str, seed: int, choices: list[int]) -> None:
    game = new_game(name, seed)
    it = stream(seed, choices)
    check_legal_actions(game)
    while not game.is_over:
        advance(game, it, 1)
        check_legal_actions(game)

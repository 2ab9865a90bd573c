"""Random legal play: invariants after every step, reproducibility, clones, events, matches."""

from __future__ import annotations

import random

import pytest

from mjenv import actions as A
from mjenv.engine import Game, Match, RuleConfig, check_invariants
from mjenv.engine.events import HIDDEN, ConcealedKong, Deal, Draw, Event, view


def play(g: Game, rng: random.Random, *, check: bool = True, take_wins: bool = True) -> int:
    """Random legal play to the end (taking every legal win when ``take_wins``); returns steps."""
    steps = 0
    while not g.is_over:
        seat = g.to_act()[0]
        legal = g.legal_actions(seat)
        if take_wins and A.WIN in legal and g.rules.false_win == "mask":
            action = A.WIN
        else:
            action = rng.choice(legal)
        g.step(seat, action)
        steps += 1
        if check:
            check_invariants(g)
    return steps


def test_random_play_keeps_the_invariants() -> None:
    outcomes = {"win": 0, "draw": 0}
    kinds: set[str] = set()
    for seed in range(300):
        g = Game(seed=seed, dealer=seed % 4, prevalent_wind=(seed // 4) % 4)
        check_invariants(g)
        play(g, random.Random(seed), take_wins=seed % 2 == 0)
        r = g.result
        assert r is not None and sum(r.payments) == 0 and r.penalized is None
        outcomes["win" if r.winner is not None else "draw"] += 1
        if r.winner is not None:
            assert r.payments[r.winner] > 0
            assert r.fan_total - len(g.flowers[r.winner]) >= 8
        kinds.update(type(e).__name__ for e in g.events)
    assert outcomes["win"] > 0 and outcomes["draw"] > 0
    assert {"Chow", "Pung", "Kong", "ConcealedKong", "AddedKong", "Flower", "Win"} <= kinds


def test_random_play_in_penalize_mode() -> None:
    rules = RuleConfig(false_win="penalize")
    penalties = 0
    for seed in range(60):
        g = Game(rules=rules, seed=seed)
        play(g, random.Random(seed))
        assert g.result is not None
        penalties += g.result.penalized is not None
    assert penalties > 0


def _events(seed: int) -> list[Event]:
    g = Game(seed=seed)
    play(g, random.Random(seed), check=False)
    return g.events


def test_same_seed_same_events() -> None:
    for seed in (1, 2, 3):
        assert _events(seed) == _events(seed)
    assert _events(1) != _events(2)


def test_clone_is_independent_and_plays_the_same() -> None:
    g = Game(seed=11)
    rng = random.Random(11)
    for _ in range(30):
        seat = g.to_act()[0]
        g.step(seat, rng.choice(g.legal_actions(seat)))
        if g.is_over:
            break
    c = g.clone()
    state = rng.getstate()
    play(c, rng, check=True)
    rng.setstate(state)
    assert len(g.events) < len(c.events)  # playing the clone did not touch the original
    play(g, rng, check=True)
    assert g.events == c.events and g.scores == c.scores


def test_every_seat_with_a_choice_is_asked_and_pass_only_seats_are_not() -> None:
    for seed in range(40):
        g = Game(seed=seed)
        rng = random.Random(seed)
        while not g.is_over:
            asked = g.to_act()
            for s in range(4):
                legal = g.legal_actions(s)
                assert (s in asked) == bool(legal)
                assert legal != [A.PASS]
            seat = asked[0]
            g.step(seat, rng.choice(g.legal_actions(seat)))


def test_private_events_are_hidden_from_other_seats_until_the_end() -> None:
    g = Game(seed=3)
    for e in g.events:
        if isinstance(e, Deal):
            assert view(e, e.seat) == e
            assert view(e, (e.seat + 1) % 4) == Deal(e.seat, ())
            assert view(e, (e.seat + 1) % 4, over=True) == e
        if isinstance(e, Draw):
            assert view(e, (e.seat + 2) % 4) == Draw(e.seat, HIDDEN, e.replacement)
    ck = ConcealedKong(1, 5)
    assert view(ck, 0) == ConcealedKong(1, HIDDEN) and view(ck, 1) == ck


def test_a_match_rotates_dealer_and_wind_and_adds_up() -> None:
    m = Match(seed=5)
    rng = random.Random(5)
    dealers, winds = [], []
    while not m.is_over:
        g = m.game
        dealers.append(g.dealer)
        winds.append(g.prevalent_wind)
        play(g, rng, check=False)
        m.next_hand()
    assert dealers == [h % 4 for h in range(16)]
    assert winds == [h // 4 for h in range(16)]
    assert len(m.results) == 16 and sum(m.scores) == 0
    assert m.scores == [sum(r.payments[s] for r in m.results) for s in range(4)]
    with pytest.raises(ValueError, match="over"):
        m.next_hand()
    again = Match(seed=5)
    assert again.hand_seeds == m.hand_seeds


def test_next_hand_needs_a_finished_hand() -> None:
    m = Match(seed=1)
    with pytest.raises(ValueError, match="not over"):
        m.next_hand()

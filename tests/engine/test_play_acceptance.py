"""Random legal play at scale, per rule profile (the engine issue's acceptance check).

``check_invariants`` runs after every step of every hand, and every finished hand's record
replays to identical events and result: ``replay(from_json(to_json(record_of(game))))``. The
default suite plays :data:`DEFAULT_HANDS` hands per profile and two 16-hand matches;
``pytest -m acceptance`` (``make acceptance``) plays :data:`ACCEPTANCE_HANDS` per profile and
:data:`ACCEPTANCE_MATCHES` matches per match profile.

The policy (:func:`play_hand`) is seeded and plays uniformly among the legal actions of a
random seat to act, except that: half the hands take every real win as soon as one is legal
and mostly discard a tile that keeps the regular shanten lowest (uniform play alone almost
never reaches 8 points; this way about a quarter of the hands are won and the rest end in
exhaustive draws), in ``penalize`` mode a false Win is declared only rarely (else nearly every
hand would end in a penalty), and one hand in :data:`ARBITER_EVERY` is ended early through
``Game.penalize`` (an arbiter's penalty, legal in every mode).

At full size (2,000 hands per profile, 10,000 in all, plus 800 match hands) every path of the
engine is taken: wins self-drawn and on a discard, draws, penalties from false wins and from
the arbiter, chows, pungs, kongs of every kind, and flowers where the profile has them.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from dataclasses import dataclass, field

import pytest

from mjenv import actions as A
from mjenv.engine import BOTZONE, MCR, Game, Match, RuleConfig, check_invariants
from mjenv.engine.events import Win
from mjenv.engine.game import PLAY
from mjenv.engine.record import (
    from_json,
    match_record,
    record_of,
    replay,
    replay_match,
    to_json,
)

from .helpers import lowest_shanten_discards

PROFILES: dict[str, RuleConfig] = {
    "mcr": MCR,
    "mcr+penalize": dataclasses.replace(MCR, false_win="penalize"),
    "botzone": BOTZONE,
    "botzone+flowers": dataclasses.replace(BOTZONE, flowers=True),
    "botzone+penalize": dataclasses.replace(BOTZONE, false_win="penalize"),
}
MATCH_PROFILES = ("mcr", "mcr+penalize")

DEFAULT_HANDS = 50
ACCEPTANCE_HANDS = 2_000
DEFAULT_MATCHES = 2
ACCEPTANCE_MATCHES = 25

GREEDY_SHARE = 0.5
"""The share of hands that take every real win as soon as it is legal and mostly discard
towards a win (:func:`steered`)."""
STEER_RATE = 0.9
"""In those hands, the chance that a discard is steered (else it is uniform)."""
FALSE_WIN_RATE = 0.004
"""In penalize mode: the chance, per decision offering Win, of declaring it when it is false."""
ARBITER_EVERY = 25
"""One hand in this many is ended at a random early step by ``Game.penalize``."""


@dataclass
class Tally:
    hands: int = 0
    steps: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    events: Counter[str] = field(default_factory=Counter)

    def add(self, game: Game, steps: int) -> None:
        r = game.result
        assert r is not None
        self.hands += 1
        self.steps += steps
        if r.winner is not None:
            self.outcomes["self-drawn win" if r.self_drawn else "discard win"] += 1
            self.outcomes["robbed kong"] += r.robbed
        elif r.penalized is not None:
            self.outcomes["penalty"] += 1
        else:
            self.outcomes["draw"] += 1
        self.events.update(type(e).__name__ for e in game.events)


def is_real_win(game: Game, seat: int) -> bool:
    """Whether Win (legal for ``seat`` now) would be a real win, tried on a clone (unless the
    tile is not even among the seat's waits)."""
    tile = game.drawn_tile if game.phase == PLAY else game.claim_tile
    if tile not in game.waiting_tiles(seat):
        return False
    c = game.clone()
    c.step(seat, A.WIN)
    if c.is_over:
        assert c.result is not None
        return c.result.penalized is None
    # in a window the answer is only recorded: let the other seats pass to resolve it
    for s in c.to_act():
        c.step(s, A.PASS)
    assert c.result is not None
    return c.result.winner == seat


def steered(game: Game, seat: int, legal: list[int]) -> list[int]:
    """The discards among ``legal`` that leave the lowest regular shanten (all of ``legal``
    when it offers no discard): steers a hand towards a win, so that wins are common."""
    discards = [a for a in legal if A.DISCARD_BASE <= a < A.CHOW_BASE]
    if not discards:
        return legal
    return lowest_shanten_discards(discards, game.hands[seat], len(game.melds[seat]))


def play_hand(game: Game, rng: random.Random, *, arbiter: bool = False) -> int:
    """Seeded random legal play to the end, with the invariants after every step; returns
    the number of steps (``Game.penalize`` included). With ``arbiter`` the hand is ended by
    ``Game.penalize`` at a random early step (if it lasts that long)."""
    greedy = rng.random() < GREEDY_SHARE
    penalize_mode = game.rules.false_win == "penalize"
    stop_at = rng.randrange(60) if arbiter else -1
    check_invariants(game)
    steps = 0
    while not game.is_over:
        if steps == stop_at:
            game.penalize(rng.randrange(4))
        else:
            seat = rng.choice(game.to_act())
            legal = game.legal_actions(seat)
            if A.WIN in legal:
                real = not penalize_mode or is_real_win(game, seat)
                if real and greedy:
                    legal = [A.WIN]
                elif not real and rng.random() >= FALSE_WIN_RATE:
                    legal = [a for a in legal if a != A.WIN]
            if greedy and legal[-1] != A.WIN and rng.random() < STEER_RATE:
                legal = steered(game, seat, legal)
            game.step(seat, rng.choice(legal))
        steps += 1
        check_invariants(game)
    return steps


def check_result(game: Game) -> None:
    """Payments, scores and the winner's minimum, from the result alone."""
    r = game.result
    assert r is not None
    rules = game.rules
    assert sum(r.payments) == 0 and list(r.payments) == game.scores
    if r.winner is not None:
        w, f, base = r.winner, r.fan_total, rules.base_points
        assert r.penalized is None and r.win_tile is not None
        assert f - len(game.flowers[w]) >= rules.min_points
        assert f == sum(e.fan_total for e in game.events if isinstance(e, Win))
        for s in range(4):
            if s == w:
                continue
            owed = base + f if r.from_seat is None or s == r.from_seat else base
            assert r.payments[s] == -owed
        assert r.self_drawn == (r.from_seat is None)
        assert not r.robbed or r.from_seat is not None
    elif r.penalized is not None:
        assert r.payments == tuple(rules.penalty_offender if s == r.penalized
                                   else rules.penalty_others for s in range(4))
    else:
        assert r.payments == (0, 0, 0, 0) and r.fan_total == 0 and r.fans == ()


def check_round_trip(game: Game) -> None:
    """The finished hand's record replays to identical events, result and scores."""
    rec = record_of(game)
    again = replay(from_json(to_json(rec)))
    assert again.events == game.events
    assert again.result == game.result
    assert again.scores == game.scores
    assert again.actions == game.actions
    assert record_of(again) == rec
    check_invariants(again)


def run_hands(rules: RuleConfig, n: int, seed0: int) -> Tally:
    tally = Tally()
    for i in range(n):
        seed = seed0 + i
        dealer = rules.fixed_dealer if rules.fixed_dealer is not None else seed % 4
        game = Game(rules, seed=seed, dealer=dealer, prevalent_wind=(seed // 4) % 4)
        steps = play_hand(game, random.Random(seed), arbiter=i % ARBITER_EVERY == 1)
        check_result(game)
        check_round_trip(game)
        tally.add(game, steps)
    return tally


def check_tally(rules: RuleConfig, tally: Tally, *, full: bool) -> None:
    o, ev = tally.outcomes, tally.events
    assert o["self-drawn win"] + o["discard win"] > 0 and o["draw"] > 0, o
    assert o["penalty"] > 0, o  # Game.penalize in every mode; false wins too in penalize
    must = {"Deal", "Draw", "Discard", "Chow", "Pung", "Kong", "Win", "DrawGame", "Penalty"}
    if rules.flowers:
        must.add("Flower")
    if full:
        must |= {"ConcealedKong", "AddedKong"}
        assert o["self-drawn win"] > 0 and o["discard win"] > 0, o
    assert must <= set(ev), sorted(must - set(ev))
    if rules.false_win == "mask":
        # the only penalties are the arbiter's (Game.penalize), never from a step
        assert o["penalty"] <= -(-tally.hands // ARBITER_EVERY), o
    elif full:  # false wins were penalized too (too rare to require in 50 hands)
        assert o["penalty"] > tally.hands // ARBITER_EVERY + 1, o


def summary(name: str, tally: Tally) -> str:
    o = tally.outcomes
    ev = tally.events
    return (f"{name}: {tally.hands} hands, {tally.steps} steps; "
            + ", ".join(f"{k} {o[k]}" for k in sorted(o)) + "; "
            + ", ".join(f"{k} {ev[k]}" for k in ("Chow", "Pung", "Kong", "ConcealedKong",
                                                    "AddedKong", "Flower")))


@pytest.mark.parametrize("name", list(PROFILES))
def test_random_play_per_profile(name: str) -> None:
    rules = PROFILES[name]
    tally = run_hands(rules, DEFAULT_HANDS, seed0=1_000)
    print(summary(name, tally))
    check_tally(rules, tally, full=False)


@pytest.mark.acceptance
@pytest.mark.slow
@pytest.mark.parametrize("name", list(PROFILES))
def test_random_play_per_profile_acceptance(name: str) -> None:
    rules = PROFILES[name]
    tally = run_hands(rules, ACCEPTANCE_HANDS, seed0=100_000)
    print(summary(name, tally))
    assert tally.hands >= 2_000
    check_tally(rules, tally, full=True)


# --------------------------------------------------------------------------- matches
def run_matches(rules: RuleConfig, n: int, seed0: int) -> Tally:
    tally = Tally()
    for i in range(n):
        seed = seed0 + i
        match = Match(rules, seed=seed)
        rng = random.Random(seed)
        while not match.is_over:
            game = match.game
            tally.add(game, play_hand(game, rng, arbiter=rng.randrange(ARBITER_EVERY) == 0))
            check_result(game)
            match.next_hand()
        assert len(match.games) == rules.hands_per_match
        assert sum(match.scores) == 0
        rec = match_record(match)
        games = replay_match(from_json(to_json(rec)))
        assert [g.events for g in games] == [g.events for g in match.games]
        assert [g.result for g in games] == match.results
        assert [sum(g.result.payments[s] for g in games if g.result) for s in range(4)] \
            == match.scores
        assert match_record(_rebuilt(rules, seed, games)) == rec
    return tally


def _rebuilt(rules: RuleConfig, seed: int, games: list[Game]) -> Match:
    """A Match holding the replayed hands, to compare its record with the original's."""
    m = Match(rules, seed=seed)
    for g in games:
        m.game = g
        m.next_hand()
    return m


@pytest.mark.parametrize("name", ["mcr"])
def test_random_matches(name: str) -> None:
    rules = PROFILES[name]
    tally = run_matches(rules, DEFAULT_MATCHES, seed0=2_000)
    print(summary(f"{name} matches", tally))
    assert tally.hands == DEFAULT_MATCHES * 16


@pytest.mark.acceptance
@pytest.mark.slow
@pytest.mark.parametrize("name", MATCH_PROFILES)
def test_random_matches_acceptance(name: str) -> None:
    rules = PROFILES[name]
    tally = run_matches(rules, ACCEPTANCE_MATCHES, seed0=200_000)
    print(summary(f"{name} matches", tally))
    assert tally.hands == ACCEPTANCE_MATCHES * 16
    o = tally.outcomes
    assert o["self-drawn win"] and o["discard win"] and o["draw"], o

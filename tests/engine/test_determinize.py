"""mjenv.engine.determinize: a sampled hand agrees with everything its seat has seen, and only
with that."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from mjenv.engine import BOTZONE, MCR, Game, RuleConfig, SeatView
from mjenv.engine.determinize import KongSampler, sample_game
from mjenv.engine.events import ConcealedKong, Discard, Event, view


def _hidden(game: Game, seat: int) -> Counter[int]:
    """The tiles ``seat`` cannot see: the other concealed hands and the wall."""
    out: Counter[int] = Counter(game.wall.remaining_tiles())
    for s in range(4):
        if s != seat:
            out.update({t: n for t, n in enumerate(game.hands[s]) if n})
            out.update(m.tiles[0] for m in game.melds[s] if m.kind == "concealed_kong"
                       for _ in range(4))
    return out


def _positions(rules: RuleConfig, games: int, seed: int):  # type: ignore[no-untyped-def]
    """Every decision of every asked seat in ``games`` hands of random play."""
    for g in range(games):
        r = random.Random(seed + g)
        dealer = rules.fixed_dealer if rules.fixed_dealer is not None else r.randrange(4)
        game = Game(rules, seed=seed + g, dealer=dealer, prevalent_wind=r.randrange(4))
        while not game.is_over:
            for seat in game.to_act():
                yield game, seat
            seat = game.to_act()[0]
            legal = game.legal(seat)
            game.step(seat, legal[r.randrange(len(legal))])


def _sample(game: Game, seat: int, rng: np.random.Generator) -> Game:
    return sample_game([view(e, seat) for e in game.events], seat, rng, rules=game.rules,
                       dealer=game.dealer, prevalent_wind=game.prevalent_wind)


@pytest.mark.parametrize("rules", [MCR, BOTZONE], ids=["mcr", "botzone"])
def test_a_sampled_hand_is_what_the_seat_saw(rules: RuleConfig) -> None:
    rng = np.random.default_rng(0)
    checked = 0
    for game, seat in _positions(rules, 8, 100):
        world = _sample(game, seat, rng)
        checked += 1
        assert SeatView.of_game(world, seat) == SeatView.of_game(game, seat)
        assert list(world.legal(seat)) == list(game.legal(seat))
        assert world.phase == game.phase and seat in world.to_act()
        assert [sum(h) for h in world.hands] == [sum(h) for h in game.hands]
        assert world.wall.counts == game.wall.counts
        # the unseen tiles are the same tiles, rearranged; no concealed hand holds a flower
        assert _hidden(world, seat) == _hidden(game, seat)  # flowers included: in the wall
    assert checked > 500


def _played(seed: int, steps: int) -> Game:
    """Hand ``seed`` after ``steps`` random legal actions."""
    game = Game(MCR, seed=seed)
    r = random.Random(seed)
    for _ in range(steps):
        seat = game.to_act()[0]
        legal = game.legal(seat)
        game.step(seat, legal[r.randrange(len(legal))])
    return game


def test_the_hidden_tiles_are_redrawn_and_the_rng_decides() -> None:
    game = _played(5, 40)
    seat = game.to_act()[0]
    a, b, c = (_sample(game, seat, np.random.default_rng(k)) for k in (1, 2, 1))
    assert a.hands == c.hands and a.wall.tiles == c.wall.tiles  # same rng seed, same world
    assert a.hands[seat] == b.hands[seat] == game.hands[seat]
    others = [s for s in range(4) if s != seat]
    assert [a.hands[s] for s in others] != [b.hands[s] for s in others]
    assert a.wall.remaining_tiles() != b.wall.remaining_tiles()


def _given(kinds: list[int]) -> KongSampler:
    """A kong prior that answers ``kinds`` whatever it is asked."""
    def given(unseen: list[int], seats: list[int], rng: np.random.Generator) -> list[int]:
        return kinds
    return given


def test_another_seats_concealed_kong_gets_a_kind_the_seat_has_not_seen() -> None:
    """Its kind is drawn among the kinds with four unseen copies: the sample agrees with the
    seat's view, and over samples the kind varies."""
    rng = np.random.default_rng(0)
    positions = several = 0
    for game, seat in _positions(MCR, 400, 0):
        if not any(isinstance(e, ConcealedKong) and e.seat != seat for e in game.events):
            continue
        kinds: set[int] = set()
        for _ in range(12):
            world = _sample(game, seat, rng)
            assert SeatView.of_game(world, seat) == SeatView.of_game(game, seat)
            assert list(world.legal(seat)) == list(game.legal(seat))
            assert _hidden(world, seat) == _hidden(game, seat)
            kinds |= {m.tiles[0] for s in range(4) if s != seat for m in world.melds[s]
                      if m.kind == "concealed_kong"}
        hidden = _unseen_plain(game, seat)
        fours = {t for t in range(34) if hidden[t] == 4}
        assert kinds <= fours
        assert len(kinds) > 1 or len(fours) == 1  # 12 draws of one kind among several: 2**-11
        several += len(fours) > 1
        # a prior over the kinds: the real ones, and refused when it draws a seen kind
        real = [e.tile for e in game.events if isinstance(e, ConcealedKong) and e.seat != seat]
        seen_kind = next(t for t in range(34) if hidden[t] < 4)
        events = [view(e, seat) for e in game.events]
        world = sample_game(events, seat, rng, dealer=game.dealer,
                            prevalent_wind=game.prevalent_wind, kongs=_given(real))
        assert sorted(m.tiles[0] for s in range(4) if s != seat for m in world.melds[s]
                      if m.kind == "concealed_kong") == sorted(real)
        with pytest.raises(ValueError, match="kong sampler drew kind"):
            sample_game(events, seat, rng, dealer=game.dealer,
                        prevalent_wind=game.prevalent_wind,
                        kongs=_given([seen_kind] * len(real)))
        positions += 1
        if positions == 5 and several:
            return
    pytest.fail(f"{positions} positions with another seat's concealed kong in 400 hands")


def _events(seat: int) -> tuple[Game, list[Event]]:
    game = _played(3, 20)
    return game, [view(e, seat) for e in game.events]


def test_bad_events_are_refused_in_one_line() -> None:
    rng = np.random.default_rng(0)
    game, events = _events(0)
    with pytest.raises(ValueError, match="seat must be 0..3"):
        sample_game(events, 4, rng, dealer=game.dealer, prevalent_wind=game.prevalent_wind)
    with pytest.raises(ValueError, match="before the first draw"):
        sample_game(events[:4], 0, rng, dealer=game.dealer)
    # one tile discarded five times: more copies than the wall holds
    other = next(e.seat for e in events if isinstance(e, Discard) and e.seat != 0)
    with pytest.raises(ValueError, match="more often than the wall holds|more tiles than"):
        sample_game([*events, *[Discard(other, 5)] * 5], 0, rng, dealer=game.dealer,
                    prevalent_wind=game.prevalent_wind)
    # a discard out of turn: no hand plays it
    last = max(i for i, e in enumerate(events) if isinstance(e, Discard))
    wrong = Discard((events[last].seat + 2) % 4, events[last].tile)  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="not a hand of the mcr rules"):
        sample_game([*events[:last], wrong, *events[last + 1:]], 0, rng, dealer=game.dealer,
                    prevalent_wind=game.prevalent_wind)
    with pytest.raises(ValueError, match="mjenv.engine.events objects"):
        sample_game([*events, "discard 5"], 0, rng, dealer=game.dealer)  # type: ignore[list-item]
    finished = Game(MCR, seed=3)
    while not finished.is_over:
        s = finished.to_act()[0]
        finished.step(s, finished.legal(s)[0])
    with pytest.raises(ValueError, match="the hand is over"):
        sample_game([view(e, 0) for e in finished.events], 0, rng, dealer=finished.dealer)


def test_a_prior_draws_the_other_hands() -> None:
    game, _ = _events(0)
    seat = game.to_act()[0]
    events = [view(e, seat) for e in game.events]
    asked: list[dict[int, int]] = []

    def lowest(unseen: list[int], sizes: dict[int, int],
               rng: np.random.Generator) -> dict[int, list[int]]:
        """Each other seat gets the lowest unseen tiles, in seat order."""
        asked.append(dict(sizes))
        left = unseen[:]
        out: dict[int, list[int]] = {}
        for s, n in sizes.items():
            out[s] = []
            for _ in range(n):
                t = next(t for t in range(len(left)) if left[t])
                left[t] -= 1
                out[s].append(t)
        return out

    world = sample_game(events, seat, np.random.default_rng(0), dealer=game.dealer,
                        prevalent_wind=game.prevalent_wind, hands=lowest)
    assert asked == [{s: sum(game.hands[s]) for s in range(4) if s != seat}]
    drawn = lowest(_unseen_plain(game, seat), asked[0], np.random.default_rng(0))
    for s, tiles in drawn.items():
        assert world.hands[s] == [tiles.count(t) for t in range(34)]
    assert SeatView.of_game(world, seat) == SeatView.of_game(game, seat)

    def short(unseen: list[int], sizes: dict[int, int],
              rng: np.random.Generator) -> dict[int, list[int]]:
        return {s: [] for s in sizes}

    def seen(unseen: list[int], sizes: dict[int, int],
             rng: np.random.Generator) -> dict[int, list[int]]:
        """Five copies of one kind to every seat: more than the wall holds."""
        return {s: [0] * n for s, n in sizes.items()}

    for bad, message in ((short, "gave seat"), (seen, "not unseen")):
        with pytest.raises(ValueError, match=message):
            sample_game(events, seat, np.random.default_rng(0), dealer=game.dealer,
                        prevalent_wind=game.prevalent_wind, hands=bad)


def _unseen_plain(game: Game, seat: int) -> list[int]:
    """34 counts of the tiles ``seat`` has not seen that may stand in a hand."""
    hidden = _hidden(game, seat)
    return [hidden.get(t, 0) for t in range(34)]

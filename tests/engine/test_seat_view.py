"""Per-seat views folded from events: they agree with the engine on everything public or the
seat's own, after every step, and no hidden tile of another seat can change them."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mjenv import actions as A
from mjenv.engine import BOTZONE, Game, RuleConfig
from mjenv.engine.events import (
    HIDDEN,
    ConcealedKong,
    Deal,
    Draw,
    DrawGame,
    Event,
    Penalty,
    Win,
    view,
)
from mjenv.engine.game import CLAIM, PLAY, ROB, TURN_DRAW
from mjenv.engine.seat_view import HIDDEN_KONG, PUBLIC_LISTS, SeatView, TableViews, fold
from mjenv.engine.wall import LAYOUTS
from mjenv.melds import ADDED_KONG, CONCEALED_KONG, Meld
from mjenv.tiles import NUM_KINDS

from .helpers import answer, game, t

NO_FLOWERS = RuleConfig(flowers=False)
PENALIZE = RuleConfig(false_win="penalize")


def views_of(g: Game) -> list[SeatView]:
    return [SeatView.of_game(g, s) for s in range(4)]


def expected_melds(g: Game, viewer: int, s: int) -> list[Meld]:
    if s == viewer or g.is_over:
        return g.melds[s]
    return [HIDDEN_KONG if m.kind == CONCEALED_KONG else m for m in g.melds[s]]


def expected_unseen(g: Game, viewer: int, melds: list[list[Meld]]) -> list[int]:
    """4 minus the copies ``viewer`` has seen, recomputed from the engine's state (``melds``:
    the melds ``viewer`` sees)."""
    seen = g.hands[viewer][:]
    for s in range(4):
        for m in melds[s]:
            if m is not HIDDEN_KONG:
                for x in m.tiles:
                    seen[x] += 1
        for x in g.discards[s]:
            seen[x] += 1
    if g.phase == ROB and g.current != viewer:  # the added kong's tile, announced
        seen[g.claim_tile] += 1
    r = g.result
    if r is not None and r.winner is not None and r.winner != viewer:
        assert r.win_tile is not None
        seen[r.win_tile] += 1  # shown by the winner (self-drawn, a discard, a robbed kong)
    return [4 - n for n in seen]


def check(g: Game, v: SeatView) -> None:
    """``v`` agrees with ``g`` on everything ``v.seat`` may know."""
    me = v.seat
    assert v.num_events == len(g.events)
    assert v.hand == g.hands[me]
    assert v.tiles_left == g.wall.remaining
    assert sum(v.wall_taken) == g.rules.num_tiles - g.wall.remaining
    # what the seat counts of each seat's source (its part, or the shared wall) is the wall's
    counted = LAYOUTS[g.rules.wall_layout].counts_seen(v)
    assert [counted.left(s) for s in range(4)] == [g.wall.left(s) for s in range(4)]
    assert v.discards == g.discards
    assert v.flowers == g.flowers
    melds = [expected_melds(g, me, s) for s in range(4)]
    assert v.melds == melds
    for s in range(4):
        assert len(v.river[s]) == len(v.claimed_by[s])
        assert [x for x, c in zip(v.river[s], v.claimed_by[s], strict=True) if c < 0] \
            == g.discards[s]
        assert all(c not in (-1, s) for c in v.claimed_by[s] if c >= 0)
    assert v.unseen == expected_unseen(g, me, melds)
    assert min(v.unseen) >= 0
    fresh = g.phase == PLAY and g.current == me and g.turn_kind == TURN_DRAW
    assert v.drawn == (g.drawn_tile if fresh else -1)
    if g.phase in (CLAIM, ROB):
        assert (v.claim_tile, v.claim_from, v.claim_rob) == (g.claim_tile, g.current,
                                                               g.phase == ROB)
    else:
        assert (v.claim_tile, v.claim_from, v.claim_rob) == (-1, -1, False)
    assert v.over == g.is_over
    assert v.result == g.result
    if g.is_over:
        last = g.events[-1]
        assert isinstance(last, (Win, DrawGame, Penalty))
        assert v.revealed == last.revealed
        assert HIDDEN_KONG not in [m for ms in v.melds for m in ms]
    else:
        assert v.revealed is None


def play_checked(g: Game, rng: random.Random, *, take_wins: bool, seats: tuple[int, ...] = (
        0, 1, 2, 3), stats: Counter[str] | None = None) -> list[SeatView]:
    """Random legal play to the end; every view is caught up and checked after every step."""
    views = [SeatView(s, dealer=g.dealer, prevalent_wind=g.prevalent_wind,
                      num_tiles=g.rules.num_tiles) for s in seats]

    def catch_up() -> None:
        for v in views:
            v.extend(g.events[v.num_events:])
            check(g, v)

    catch_up()
    while not g.is_over:
        seat = g.to_act()[0]
        legal = g.legal_actions(seat)
        if take_wins and A.WIN in legal and g.rules.false_win == "mask":
            action = A.WIN
        else:
            action = rng.choice(legal)
        g.step(seat, action)
        catch_up()
        if stats is not None:
            stats["claim window"] += g.phase == CLAIM
    if stats is not None:
        for e in g.events:
            stats[type(e).__name__] += 1
        for v in views:
            for s in range(4):
                if s != v.seat:
                    stats["revealed kong"] += sum(m.kind == CONCEALED_KONG for m in v.melds[s])
                stats["added kong"] += sum(m.kind == ADDED_KONG for m in v.melds[s])
                stats["claimed"] += sum(c >= 0 for c in v.claimed_by[s])
    return views


# ---------------------------------------------------------------- agreement with the engine


def test_views_agree_with_the_engine_after_every_step() -> None:
    stats: Counter[str] = Counter()
    for seed in range(150):
        rules = NO_FLOWERS if seed % 10 == 7 else PENALIZE if seed % 25 == 3 else RuleConfig()
        g = Game(rules, seed=seed, dealer=seed % 4, prevalent_wind=(seed // 4) % 4)
        play_checked(g, random.Random(seed), take_wins=seed % 3 != 0, stats=stats)
    # the paths of the fold were all exercised
    for what in ("Win", "DrawGame", "Penalty", "Chow", "Pung", "Kong", "ConcealedKong",
                 "AddedKong", "Flower", "revealed kong", "added kong", "claimed"):
        assert stats[what] > 0, (what, stats)


def test_views_agree_with_the_engine_on_per_seat_walls() -> None:
    for seed in range(12):
        g = Game(BOTZONE, seed=seed, dealer=0, prevalent_wind=seed % 4)
        play_checked(g, random.Random(seed), take_wins=seed % 2 == 0)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rng=st.randoms(use_true_random=False),
       viewer=st.integers(0, 3), take_wins=st.booleans(), flowers=st.booleans())
def test_views_agree_with_the_engine_property(seed: int, rng: random.Random, viewer: int,
                                              take_wins: bool, flowers: bool) -> None:
    g = Game(RuleConfig(flowers=flowers), seed=seed, dealer=seed % 4,
             prevalent_wind=(seed // 7) % 4)
    (v,) = play_checked(g, rng, take_wins=take_wins, seats=(viewer,))
    assert v == fold(g.events, viewer, dealer=g.dealer, prevalent_wind=g.prevalent_wind,
                     num_tiles=g.rules.num_tiles)


# ---------------------------------------------------------------- hidden information


def random_hand(seed: int) -> Game:
    g = Game(seed=seed, dealer=seed % 4, prevalent_wind=seed % 3)
    rng = random.Random(seed)
    while not g.is_over:
        seat = g.to_act()[0]
        legal = g.legal_actions(seat)
        g.step(seat, A.WIN if A.WIN in legal and seed % 2 else rng.choice(legal))
    return g


def disguise(e: Event, viewer: int) -> Event:
    """``e`` with every tile ``viewer`` may not see changed (a different hand for the others)."""
    if e.seat == viewer:
        return e
    if isinstance(e, Draw):
        return dataclasses.replace(e, tile=(e.tile + 5) % NUM_KINDS)
    if isinstance(e, Deal):
        return dataclasses.replace(e, tiles=tuple((x + 1) % NUM_KINDS for x in e.tiles))
    if isinstance(e, ConcealedKong):
        return dataclasses.replace(e, tile=(e.tile + 1) % NUM_KINDS)
    return e


@pytest.mark.parametrize("seed", range(20))
def test_raw_and_redacted_events_fold_the_same(seed: int) -> None:
    g = random_hand(seed)
    kw = {"dealer": g.dealer, "prevalent_wind": g.prevalent_wind}
    for viewer in range(4):
        raw = SeatView(viewer, **kw)
        redacted = SeatView(viewer, **kw)
        disguised = SeatView(viewer, **kw)
        for e in g.events:
            raw.apply(e)
            redacted.apply(view(e, viewer))
            disguised.apply(disguise(e, viewer))
            assert raw == redacted == disguised
        assert raw == fold([view(e, viewer) for e in g.events], viewer, **kw)
        # the disguise does change what the other seats see of their own hands
        other = (viewer + 1) % 4
        assert fold([disguise(e, viewer) for e in g.events], other, **kw).hand != \
            SeatView.of_game(g, other).hand


def test_a_concealed_kong_is_hidden_from_the_others_until_the_end() -> None:
    g = game({0: "111m 123s 456s 789s 5p"}, draws="1m", tail="5p")
    g.step(0, A.concealed_kong(t("1m")))
    before = views_of(g)
    assert before[0].melds[0] == [Meld.concealed_kong(t("1m"))]
    for v in before[1:]:
        assert v.melds[0] == [HIDDEN_KONG] and HIDDEN_KONG.first == HIDDEN
        check(g, v)
    # which tile the kong was cannot matter to seats 1..3 before the end
    fake = [ConcealedKong(0, t("9p")) if isinstance(e, ConcealedKong) else e for e in g.events]
    for v in before[1:]:
        assert fold(fake, v.seat) == v
    g.step(0, A.WIN)
    for v in views_of(g):
        check(g, v)
        assert v.melds[0] == [Meld.concealed_kong(t("1m"))]
        assert v.revealed is not None and v.revealed[0] == (t("1m"),)
        if v.seat:
            assert v.unseen[t("1m")] == 0 == before[v.seat].unseen[t("1m")] - 4


# ---------------------------------------------------------------- added kongs, robbing

ROBBING = {0: "9m 5m 19s 19p 1234567z", 1: "99m 1357s 2468p 1z 5z 6z",
           2: "78m 234s 345p 678p 22z", 3: "78m 234s 567s 234p 55p"}


def to_added_kong() -> Game:
    """Seat 1 pungs 9m, then draws the fourth 9m and adds it (the robbing window opens)."""
    g = game(ROBBING, draws="1m 1s 2s 3s 9m")
    g.step(0, A.discard(t("9m")))
    g.step(1, A.pung(t("9m")))
    g.step(1, A.discard(t("1z")))
    for s in (2, 3, 0):
        answer(g)
        g.step(s, A.discard(g.drawn_tile))
    answer(g)
    g.step(1, A.added_kong(t("9m")))
    assert g.phase == ROB
    return g


def test_an_added_kong_waits_for_the_robbing_window() -> None:
    g = to_added_kong()
    for v in views_of(g):
        check(g, v)
        assert v.claim_rob and v.claim_tile == t("9m") and v.claim_from == 1
        assert v.melds[1] == [Meld.pung(t("9m"), from_offset=3)]
        assert v.claimed_by[0][0] == 1  # seat 1 punged seat 0's first discard
        assert v.unseen[t("9m")] == 0
    answer(g)  # nobody robs: the kong completes with the replacement draw
    for v in views_of(g):
        check(g, v)
        assert v.melds[1] == [Meld.added_kong(t("9m"), from_offset=3)]
        assert not v.claim_rob


def test_a_robbed_kong_moves_the_tile_to_the_winner() -> None:
    g = to_added_kong()
    g.step(3, A.WIN)
    g.step(2, A.WIN)
    views = views_of(g)
    for v in views:
        check(g, v)
        assert v.melds[1] == [Meld.pung(t("9m"), from_offset=3)]
        assert v.result is not None and v.result.robbed and v.result.winner == 2
    assert views[1].hand[t("9m")] == 0 and views[2].hand[t("9m")] == 1


# ---------------------------------------------------------------- misuse, copies


def test_misuse_is_refused() -> None:
    g = random_hand(1)
    with pytest.raises(ValueError, match="over"):
        SeatView.of_game(g, 0).apply(g.events[-1])
    with pytest.raises(ValueError, match="dealer"):
        fold(g.events, 0, dealer=(g.dealer + 1) % 4)
    with pytest.raises(ValueError, match="num_tiles"):
        SeatView(0, num_tiles=100)
    with pytest.raises(ValueError, match="seat"):
        SeatView(4)


def test_clone_is_independent_and_views_are_unhashable() -> None:
    g = Game(seed=9)
    v = SeatView.of_game(g, 0)
    c = v.clone()
    assert c == v and c is not v
    seat = g.to_act()[0]
    g.step(seat, g.legal_actions(seat)[-1])
    c.extend(g.events[c.num_events:])
    assert c != v and v == fold(g.events[:v.num_events], 0)
    with pytest.raises(TypeError):
        hash(v)
    assert "SeatView(seat=0" in repr(v) and v.seat_wind == 0
    assert c.hand_tiles() == g.hand_tiles(0)


@pytest.mark.parametrize("seat", range(4))
def test_a_restarted_view_is_a_new_view_of_the_next_hand(seat: int) -> None:
    """``restart`` empties a used view in place (the batch's game slots reuse their four views
    from hand to hand): after it the view equals a new one, and folding the next hand gives
    what a fresh fold gives, whatever the previous hand left (melds, a hidden kong, a result)."""
    old = random_hand(3)
    view = SeatView.of_game(old, seat)
    assert view.over and any(view.melds) and any(view.river)
    hand, melds, rivers = view.hand, view.melds, view.river
    nxt = random_hand(6)
    d, w = nxt.dealer, nxt.prevalent_wind
    view.restart(dealer=d, prevalent_wind=w)
    assert view == SeatView(seat, dealer=d, prevalent_wind=w)
    assert view.hand is hand and view.melds is melds and view.river is rivers  # the same lists
    view.extend(nxt.events)
    assert view == fold(nxt.events, seat, dealer=d, prevalent_wind=w)
    with pytest.raises(ValueError, match="dealer"):
        view.restart(dealer=4, prevalent_wind=0)


# ---------------------------------------------------------------- the four views of a table


def assert_shares_public(table: TableViews) -> None:
    first = table.views[0]
    assert [v.seat for v in table.views] == [0, 1, 2, 3]
    for v in table.views[1:]:
        assert all(getattr(v, name) is getattr(first, name) for name in PUBLIC_LISTS)
        assert v.melds is not first.melds and v.hand is not first.hand


@pytest.mark.parametrize("rules", [RuleConfig(), BOTZONE, NO_FLOWERS], ids=["mcr", "botzone",
                                                                             "no-flowers"])
def test_a_table_folds_each_view_as_fold_does(rules: RuleConfig) -> None:
    """One table's views, caught up at random moments for a random seat and reused from hand to
    hand (restart), copied and pickled halfway, are every seat's own fold of the events."""
    rng = random.Random(5)
    stats: Counter[str] = Counter()
    table: TableViews | None = None
    for seed in range(150):
        g = Game(rules, seed=seed, dealer=seed % 4 if rules.fixed_dealer is None else 0,
                 prevalent_wind=seed % 4)
        if table is None:
            table = TableViews.of_game(g)
        else:
            table.restart(dealer=g.dealer, prevalent_wind=g.prevalent_wind)
        kw = {"dealer": g.dealer, "prevalent_wind": g.prevalent_wind,
              "num_tiles": rules.num_tiles}
        while True:
            if rng.random() < 0.3 or g.is_over:
                seat = rng.randrange(4)
                assert table.view(seat, g.events) is table.views[seat]
                assert table.num_events == len(g.events)
                for s in range(4):
                    assert table.views[s] == fold(g.events, s, **kw), (seed, s)
                if rng.random() < 0.02:  # a copy folds on as the table does
                    table = copy.deepcopy(table) if seed % 2 else pickle.loads(
                        pickle.dumps(table))
                    stats["copied"] += 1
                assert_shares_public(table)
            if g.is_over:
                break
            seat = g.to_act()[0]
            legal = g.legal_actions(seat)
            g.step(seat, A.WIN if A.WIN in legal else rng.choice(legal))
        stats.update(type(e).__name__ for e in g.events)
    for what in ("copied", "Discard", "Chow", "Pung", "Win", "DrawGame"):
        assert stats[what] > 0, (what, stats)


def test_a_view_of_a_table_folds_only_through_the_table() -> None:
    g = random_hand(2)
    table = TableViews.of_game(g)
    n = len(g.events) // 2
    table.catch_up(g.events[:n])
    for seat in range(4):  # every view, the first (which folds the shared lists) included
        view = table.views[seat]
        with pytest.raises(ValueError, match="one of a TableViews: fold the table's events"):
            view.apply(g.events[n])
        with pytest.raises(ValueError, match="one of a TableViews: restart the table"):
            view.restart(dealer=g.dealer, prevalent_wind=g.prevalent_wind)
    for seat in range(4):  # refused: every view unchanged
        assert table.views[seat] == fold(g.events[:n], seat, dealer=g.dealer,
                                         prevalent_wind=g.prevalent_wind)
    copied = pickle.loads(pickle.dumps(table))
    with pytest.raises(ValueError, match="TableViews"):  # a table copied refuses as well
        copied.views[0].apply(g.events[n])
    alone = table.views[1].clone()  # a clone is the seat's own view again, folded alone
    alone.extend(g.events[n:])
    assert alone == SeatView.of_game(g, 1)
    assert table.views[0].num_events == n  # the table did not move
    lone = pickle.loads(pickle.dumps(table.views[2]))  # so is a view pickled alone
    lone.extend(g.events[n:])
    assert lone == SeatView.of_game(g, 2)

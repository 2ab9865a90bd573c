"""More scripted-wall scenarios (rules: docs/rules.md §1.4–§1.7, §2.2–§2.3, §3.1).

Each test names the rule it checks. The hands are laid out with :func:`helpers.build_wall`;
tiles of unlisted seats come from a fixed shuffle, so a test only relies on tiles it places.
"""

from __future__ import annotations

import pytest

from mjenv import actions as A
from mjenv.engine import Game, RuleConfig, check_invariants
from mjenv.engine.events import AddedKong, ConcealedKong, Kong, Penalty
from mjenv.engine.events import Draw as DrawEvent
from mjenv.engine.game import PLAY
from mjenv.fans import FAN_BY_ZH, calculate

from .helpers import answer, build_wall, game, t, tsumogiri

PENALIZE = RuleConfig(false_win="penalize")

# 清龙 in dots, waiting on 6m / 9m: at least 16 points, on a discard or self-drawn
DRAGON = "123p 456p 789p 78m 22z"
# dealer hands without 6m, 9m or dots other than 1p 9p; the tiles to discard come first
DEALER_9M = "9m 6m 19s 19p 1234567z"
DEALER_99M = "99m 19s 19p 1234567z"


def names(result_fans: tuple[tuple[str, int], ...]) -> set[str]:
    return {name for name, _ in result_fans}


def discard(g: Game, seat: int, code: str | None = None) -> None:
    """``seat`` (to play) discards ``code``, or the tile it has just drawn."""
    assert g.phase == PLAY and g.current == seat, (g.phase, g.current, seat)
    tile = t(code) if code else g.drawn_tile
    assert tile >= 0
    g.step(seat, A.discard(tile))


def expected_payments(winner: int, from_seat: int | None, f: int) -> tuple[int, ...]:
    """§2.3: self-drawn, every other seat pays 8 + F; on a discard the discarder pays 8 + F and
    the two others 8."""
    pay = [0, 0, 0, 0]
    for o in range(4):
        if o != winner:
            pay[o] = -(8 + f) if from_seat is None or o == from_seat else -8
    pay[winner] = -sum(pay)
    return tuple(pay)


def check_win(g: Game, winner: int, from_seat: int | None) -> None:
    """The result is a win by ``winner`` paid as in §2.3, zero-sum, and the fan total is the
    calculator's (flowers included)."""
    r = g.result
    assert r is not None and r.winner == winner and r.from_seat == from_seat
    assert r.self_drawn == (from_seat is None) and r.penalized is None
    assert r.payments == expected_payments(winner, from_seat, r.fan_total)
    assert sum(r.payments) == 0 and g.scores == list(r.payments)
    assert r.fan_total == sum(count * FAN_BY_ZH[name].points for name, count in r.fans)
    check_invariants(g)


# ---------------------------------------------------------------- §1.6: no furiten

def test_no_furiten_a_passed_winning_discard_can_be_won_later() -> None:
    """§1.6: there is no furiten / missed-win rule. Seat 1 passes a win on seat 0's 9m and
    later wins on seat 3's 9m (and is offered the win both times)."""
    g = game({0: DEALER_9M, 1: DRAGON}, draws="3s 4s 5s 9m")
    discard(g, 0, "9m")
    assert A.WIN in g.legal_actions(1)
    answer(g)  # seat 1 passes the win
    discard(g, 1)
    answer(g)
    discard(g, 2)
    answer(g)
    assert g.drawn_tile == t("9m")
    discard(g, 3)
    assert A.WIN in g.legal_actions(1)
    g.step(1, A.WIN)
    check_win(g, 1, 3)
    assert g.result is not None and "清龙" in names(g.result.fans)


@pytest.mark.parametrize("later", ["self_drawn", "discard"])
def test_no_furiten_after_discarding_the_own_winning_tile(later: str) -> None:
    """§1.6: seat 1 draws its winning 6m, declines the self-drawn win and discards it; it may
    still win on 6m later, self-drawn or on a discard."""
    draws = "3s 6m 4s 5s 6s 6m" if later == "self_drawn" else "3s 6m 4s 6m"
    g = game({0: DEALER_99M, 1: DRAGON}, draws=draws)
    discard(g, 0)
    answer(g)
    assert g.current == 1 and g.drawn_tile == t("6m") and A.WIN in g.legal_actions(1)
    discard(g, 1)  # its own winning tile
    answer(g)
    discard(g, 2)
    answer(g)
    if later == "discard":
        assert g.drawn_tile == t("6m")
        discard(g, 3)
        assert A.WIN in g.legal_actions(1)
        g.step(1, A.WIN)
        check_win(g, 1, 3)
        return
    discard(g, 3)
    answer(g)
    discard(g, 0)
    answer(g)
    assert g.current == 1 and g.drawn_tile == t("6m")
    assert A.WIN in g.legal_actions(1)
    g.step(1, A.WIN)
    check_win(g, 1, None)


# ---------------------------------------------------------------- §3.1: 和绝张 (last copy)

def _last_copy_game(shown: int, how: str) -> Game:
    """Seat 1 (DRAGON) waits on 9m. Seat 0 discards 9m twice; with ``shown == 3`` seat 2 also
    draws and discards a 9m (three in the pools), with ``shown == 2`` seat 2 holds that 9m
    standing. The fourth 9m is then self-drawn by seat 1 or discarded by seat 3."""
    hands = {0: DEALER_99M, 1: DRAGON}
    if shown == 3:
        first_round = "3s 4s 9m 5s"
    else:
        hands[2] = "9m 1s 2s 3s 4s 5s 6s 7s 8s 5z 6z 7z 4z"
        first_round = "3s 4s 5s 6s"
    last = "9m" if how == "self_drawn" else "7s 8s 9m"
    g = game(hands, draws=f"{first_round} 5p {last}")
    # round 1: seat 0 discards 9m, seat 2 discards its draw (9m when shown == 3)
    discard(g, 0, "9m")
    assert A.WIN in g.legal_actions(1)
    answer(g)
    for s in (1, 2, 3):
        discard(g, s)
        answer(g)
    # round 2: seat 0 discards its second 9m
    discard(g, 0, "9m")
    answer(g)
    assert g.visible[t("9m")] == shown
    if how == "self_drawn":
        assert g.current == 1 and g.drawn_tile == t("9m")
    else:
        for s in (1, 2):
            discard(g, s)
            answer(g)
        assert g.current == 3 and g.drawn_tile == t("9m")
        discard(g, 3)
    assert A.WIN in g.legal_actions(1)
    g.step(1, A.WIN)
    return g


@pytest.mark.parametrize("how", ["self_drawn", "discard"])
def test_last_copy_when_three_copies_lie_in_the_pools(how: str) -> None:
    """§3.1 (is4thTile): three 9m shown face up in the discard pools: winning on the fourth,
    self-drawn or on a discard, scores 和绝张."""
    g = _last_copy_game(3, how)
    check_win(g, 1, None if how == "self_drawn" else 3)
    assert g.result is not None and "和绝张" in names(g.result.fans)


@pytest.mark.parametrize("how", ["self_drawn", "discard"])
def test_no_last_copy_when_a_copy_is_standing_in_another_hand(how: str) -> None:
    """§3.1 (is4thTile): only face-up copies count. Two 9m in the pools and one standing in
    seat 2's hand: winning on the fourth is not 和绝张."""
    g = _last_copy_game(2, how)
    check_win(g, 1, None if how == "self_drawn" else 3)
    assert g.result is not None and "和绝张" not in names(g.result.fans)


def test_last_copy_counts_the_winners_own_exposed_pung() -> None:
    """§3.1: the winner's own melds are face up too: with an exposed pung of 4p, winning on the
    fourth 4p (for a chow 23p + 4p) scores 和绝张."""
    # seat 1 pungs seat 0's 4p, then waits on 1p / 4p with 23p
    hands = {0: "4p 9m 19s 19p 1234567z", 1: "44p 23p 456s 789s 1m 55z"}
    g = game(hands, draws="1z 3s 4s 4p")
    discard(g, 0, "4p")
    g.step(1, A.pung(t("4p")))
    discard(g, 1, "1m")
    answer(g)
    discard(g, 2)
    answer(g)
    discard(g, 3)
    answer(g)
    assert g.current == 0 and g.drawn_tile == t("4p") and g.visible[t("4p")] == 3
    discard(g, 0)
    assert A.WIN in g.legal_actions(1)
    g.step(1, A.WIN)
    check_win(g, 1, 0)
    assert g.result is not None and "和绝张" in names(g.result.fans)


def test_concealed_kong_tiles_are_not_shown_but_exposed_kongs_are() -> None:
    """§1.7 / §3.1: concealed kongs stay face down (they never count as shown tiles for
    和绝张); an exposed kong shows all four tiles. (A concealed kong of the winning tile itself
    cannot exist: it holds all four copies.)"""
    hands = {0: "1111m 9m 19s 19p 234z 5z", 2: "999m 123p 456p 789p 5s"}
    g = game(hands, draws="6z", tail="1s 5s")
    g.step(0, A.concealed_kong(t("1m")))
    assert g.visible[t("1m")] == 0
    discard(g, 0, "9m")
    g.step(2, A.kong(t("9m")))
    answer(g)
    assert g.visible[t("9m")] == 4 and g.current == 2
    check_invariants(g)


# ---------------------------------------------------------------- §2.2: the 8-point minimum

# seat 1: 平和 + 断幺 + 门前清 = 6 on a discard; self-drawn 不求人 replaces 门前清: 8.
# It holds two flowers (replaced by 5s 5s from the tail), which do not count for the minimum.
SIX = {0: "2m 5m 19s 19p 1234567z", 1: "H1 H2 34m 678m 345s 567p"}


def test_below_eight_points_is_not_offered_flowers_do_not_count() -> None:
    """§2.2: seat 1's hand is complete with 2m but scores 6 on a discard; its two flowers would
    make 8 but are excluded: no Win in the mask mode (the chow is offered)."""
    g = game(SIX, draws="1z", tail="5s 5s")
    assert len(g.flowers[1]) == 2 and t("2m") in g.waiting_tiles(1)
    res = calculate(g.hand_tiles(1), g.melds[1], t("2m"), flowers=2)
    assert res.total == 8 and res.flowers == 2 and not res.meets_minimum
    discard(g, 0, "2m")
    assert g.legal_actions(1) == [A.PASS, A.chow(t("3m"), t("2m"))]


def test_the_same_shape_self_drawn_reaches_eight_and_flowers_are_paid() -> None:
    """§2.2 / §2.3: the same hand self-drawn scores 8 without flowers and is a win; the fan total
    then includes the two flowers (F = 10) and each other seat pays 8 + F = 18."""
    g = game(SIX, draws="1z 2m", tail="5s 5s")
    discard(g, 0, "5m")
    answer(g)
    assert g.current == 1 and g.drawn_tile == t("2m")
    assert A.WIN in g.legal_actions(1)
    g.step(1, A.WIN)
    check_win(g, 1, None)
    r = g.result
    assert r is not None and r.fan_total == 10 and ("花牌", 2) in r.fans
    assert r.payments == (-18, 54, -18, -18)


# ---------------------------------------------------------------- §1.7: false win, penalize mode

def test_penalize_mode_a_false_self_drawn_declaration_ends_the_hand() -> None:
    """§1.7 (诈和, false_win="penalize"): the dealer declares Win on its first draw with a
    hand that is not complete: −30 for it, +10 to each other seat, the hand ends."""
    g = game({0: DEALER_9M}, draws="1z", rules=PENALIZE)
    assert A.WIN in g.legal_actions(0)
    events = g.step(0, A.WIN)
    assert [type(e) for e in events] == [Penalty]
    r = g.result
    assert r is not None and r.penalized == 0 and r.winner is None and not r.is_draw
    assert r.payments == (-30, 10, 10, 10) and g.scores == [-30, 10, 10, 10]
    assert g.is_over and g.to_act() == ()
    check_invariants(g)


def test_penalize_mode_a_real_win_is_scored_normally() -> None:
    """§1.7: in the penalize mode a legal win is an ordinary win (§2.3 payments)."""
    g = game(SIX, draws="1z 2m", tail="5s 5s", rules=PENALIZE)
    discard(g, 0, "5m")
    answer(g)
    g.step(1, A.WIN)
    check_win(g, 1, None)


def test_penalize_mode_a_below_minimum_discard_win_is_penalized() -> None:
    """§1.7 / §2.2: a complete hand below 8 points (6 + 2 flowers) declared on a discard is a
    false win: −30 for seat 1, +10 to the others."""
    g = game(SIX, draws="1z", tail="5s 5s", rules=PENALIZE)
    discard(g, 0, "2m")
    assert g.to_act() == (1,) and A.WIN in g.legal_actions(1)
    g.step(1, A.WIN)
    r = g.result
    assert r is not None and r.penalized == 1 and r.payments == (10, -30, 10, 10)
    assert sum(r.payments) == 0
    check_invariants(g)


def test_penalize_mode_a_real_win_first_counter_clockwise_beats_a_false_one() -> None:
    """§1.6 single winner: seat 1 really wins on seat 0's 9m; seat 2 (asked for its pung)
    declares a false win too; seat 1 comes first counter-clockwise and wins; nobody is
    penalized."""
    hands = {0: DEALER_9M, 1: DRAGON, 2: "99m 1s 2s 3s 4s 5s 6s 7s 8s 5z 6z 7z"}
    g = game(hands, draws="1z", rules=PENALIZE)
    discard(g, 0, "9m")
    assert g.to_act() == (1, 2)
    g.step(2, A.WIN)
    g.step(1, A.WIN)
    check_win(g, 1, 0)


def test_penalize_mode_a_false_win_first_counter_clockwise_is_penalized() -> None:
    """§1.6 single winner with §1.7 (the ruling in mjenv.engine.game's docstring): the Win answers
    are examined counter-clockwise from the discarder and the first decides. Seat 1 (asked for
    its chow) declares a false win before seat 2's real one: seat 1 is penalized."""
    hands = {0: DEALER_9M, 1: "78m 1s 2s 3s 4s 5s 6s 7s 8s 5z 6z 7z", 2: DRAGON}
    g = game(hands, draws="1z", rules=PENALIZE)
    discard(g, 0, "9m")
    assert g.to_act() == (1, 2)
    g.step(2, A.WIN)
    g.step(1, A.WIN)
    r = g.result
    assert r is not None and r.penalized == 1 and r.winner is None
    assert r.payments == (10, -30, 10, 10)


# ---------------------------------------------------------------- §2.3: payments

def test_payment_self_drawn_with_another_dealer_and_winds() -> None:
    """§2.3 self-drawn: each other seat pays 8 + F. Dealer is seat 2 and the prevalent wind
    South, so seat 0 sits West: its pung of West wind is 门风刻, its South pair no 圈风刻."""
    hands = {2: "5z 19s 19p 1234567z 9m", 0: "123p 456p 789p 333z 2z"}
    g = game(hands, draws="6z 7z 2z", dealer=2, prevalent_wind=1)
    assert g.seat_wind(0) == 2
    discard(g, 2)
    answer(g)
    discard(g, 3)
    answer(g)
    assert g.current == 0 and g.drawn_tile == t("2z")
    g.step(0, A.WIN)
    check_win(g, 0, None)
    r = g.result
    assert r is not None and "门风刻" in names(r.fans)
    res = calculate("123p 456p 789p 333z 2z", [], "2z", self_drawn=True, seat_wind=2,
                    prevalent_wind=1)
    assert r.fan_total == res.total
    f = r.fan_total
    assert r.payments == (3 * (8 + f), -(8 + f), -(8 + f), -(8 + f))


def test_payment_discard_win_flowers_included() -> None:
    """§2.3 discard win: the discarder pays 8 + F (F includes flowers), the two others 8."""
    hands = {0: DEALER_9M, 1: "H3 H4 H5 123p 456p 789p 7m"}
    g = game(hands, draws="1z", tail="8m 2z 2z")
    assert len(g.flowers[1]) == 3
    discard(g, 0, "9m")
    answer(g, {1: A.WIN})  # seat 2 (two 9m in its shuffled hand) passes its pung
    check_win(g, 1, 0)
    r = g.result
    assert r is not None and ("花牌", 3) in r.fans
    res = calculate(DRAGON, [], "9m", flowers=3, seat_wind=1)
    f = res.total
    assert r.fan_total == f and r.payments == (-(8 + f), 24 + f, -8, -8)


def test_payment_robbing_a_kong_the_robbed_seat_pays_as_discarder() -> None:
    """§1.6 / §2.3: seat 1 passes a win on seat 0's 9m (no furiten) and seat 2 pungs it; when
    seat 2 adds the drawn fourth 9m, seat 1 robs it: 抢杠和 (no 和绝张), seat 2 pays 8 + F,
    the others 8, and the kong is not completed."""
    hands = {0: DEALER_9M, 1: "H1 123p 456p 789p 78m 2z",
             2: "99m 1s 2s 3s 4s 5s 6s 7s 8s 5z 6z 7z"}
    g = game(hands, draws="3z 4z 5p 6p 9m", tail="2z")
    discard(g, 0, "9m")
    assert g.to_act() == (1, 2) and A.WIN in g.legal_actions(1)
    g.step(1, A.PASS)
    g.step(2, A.pung(t("9m")))
    discard(g, 2, "1s")
    answer(g)
    for s in (3, 0, 1):
        assert g.current == s
        discard(g, s)
        answer(g)
    assert g.current == 2 and g.drawn_tile == t("9m")
    g.step(2, A.added_kong(t("9m")))
    assert g.legal_actions(1) == [A.PASS, A.WIN]
    g.step(1, A.WIN)
    check_win(g, 1, 2)
    r = g.result
    assert r is not None and r.robbed and ("花牌", 1) in r.fans
    assert "抢杠和" in names(r.fans) and "和绝张" not in names(r.fans)
    assert [m.kind for m in g.melds[2]] == ["pung"]


# ---------------------------------------------------------------- §1.4 step 3: the first turn

def test_dealer_first_draw_is_the_head_tile_after_the_deal_and_may_win() -> None:
    """§1.4 step 3: after the 52-tile deal the dealer draws the 53rd head tile as an ordinary
    draw and may win self-drawn on it (a plain 自摸 win, §3.1: no 天和)."""
    g = game({0: DRAGON}, draws="9m")
    assert g.wall.tiles[52] == t("9m")
    assert g.events[-1] == DrawEvent(0, t("9m"))
    assert sum(g.hands[0]) == 14 and all(sum(g.hands[s]) == 13 for s in (1, 2, 3))
    assert g.to_act() == (0,) and A.WIN in g.legal_actions(0)
    g.step(0, A.WIN)
    check_win(g, 0, None)
    assert g.result is not None and "不求人" in names(g.result.fans)


def test_first_turns_allow_concealed_kongs_of_any_held_group() -> None:
    """§1.4 step 3 / §1.5 step 1: the dealer's first turn may declare a concealed kong of four
    tiles it was dealt (not the drawn tile), and so may a non-dealer on its first turn."""
    hands = {0: "1111m 9m 19s 19p 234z 5z", 1: "2222m 123p 456p 78p 2z"}
    g = game(hands, draws="6z 7z")
    assert A.concealed_kong(t("1m")) in g.legal_actions(0)
    discard(g, 0)
    answer(g)
    assert g.current == 1 and g.drawn_tile == t("7z")
    assert A.concealed_kong(t("2m")) in g.legal_actions(1)
    events = g.step(1, A.concealed_kong(t("2m")))
    assert isinstance(events[0], ConcealedKong) and isinstance(events[-1], DrawEvent)
    assert events[-1].replacement and g.current == 1


def test_a_win_on_a_flower_replacement_is_a_plain_self_draw() -> None:
    """§2.2 / §3.1: the dealer draws a flower, the tail replacement completes the hand: a plain
    self-drawn win (no 杠上开花), the flower counted as 花牌."""
    g = game({0: DRAGON}, draws="H5", tail="9m")
    assert g.drawn_tile == t("9m") and not g.kong_draw
    g.step(0, A.WIN)
    check_win(g, 0, None)
    r = g.result
    assert r is not None and "杠上开花" not in names(r.fans) and ("花牌", 1) in r.fans


# ---------------------------------------------------------------- §1.5: claims and kongs

def test_after_a_chow_only_discards_even_the_claimed_tile() -> None:
    """§1.5 step 2: after a chow the claimer may not kong (it holds four 5p) nor win; it must
    discard, and may discard a tile identical to the one it claimed."""
    hands = {0: "4m 9m 19s 19p 1234567z", 1: "23m 4m 5555p 123s 67s 9s"}
    g = game(hands, draws="1z")
    discard(g, 0, "4m")
    g.step(1, A.chow(t("3m"), t("4m")))
    legal = g.legal_actions(1)
    assert all(A.DISCARD_BASE <= a < A.CHOW_BASE for a in legal)
    assert A.discard(t("4m")) in legal
    discard(g, 1, "4m")
    assert g.discards[1] == [t("4m")]
    check_invariants(g)


def test_pung_holding_the_fourth_then_added_kong_only_at_a_later_turn() -> None:
    """§1.5 steps 2 and 4: a seat that pungs while holding the fourth copy may not add it in the
    claim turn; at its next own turn (after a draw of an unrelated tile) it may add the held
    tile. The seats between the discarder and the claimer lose their turn."""
    hands = {0: "4m 9m 19s 19p 1234567z", 2: "444m 1s 2s 3s 4s 5s 6s 7s 8s 5z 6z"}
    g = game(hands, draws="1z 3z 4z 5p 6p")
    discard(g, 0, "4m")
    g.step(2, A.pung(t("4m")))
    answer(g)  # seat 1 may have been asked for a chow
    assert g.current == 2 and g.melds[2][0].kind == "pung"
    assert A.added_kong(t("4m")) not in g.legal_actions(2)
    assert all(A.DISCARD_BASE <= a < A.CHOW_BASE for a in g.legal_actions(2))
    discard(g, 2, "1s")
    answer(g)
    for s in (3, 0, 1):  # seat 3 (after the claimer) draws next, not seat 1
        assert g.current == s
        discard(g, s)
        answer(g)
    assert g.current == 2 and g.drawn_tile == t("6p")
    assert A.added_kong(t("4m")) in g.legal_actions(2)


def test_a_win_beats_a_pung_from_an_earlier_seat() -> None:
    """§1.6 priority win > pung: seat 1 (first counter-clockwise) pungs 9m, seat 2 wins on it:
    seat 2 wins."""
    hands = {0: DEALER_9M, 1: "99m 1s 2s 3s 4s 5s 6s 7s 8s 5z 6z 7z", 2: DRAGON}
    g = game(hands, draws="1z")
    discard(g, 0, "9m")
    assert g.to_act() == (1, 2)
    g.step(1, A.pung(t("9m")))
    g.step(2, A.WIN)
    check_win(g, 2, 0)
    assert g.melds[1] == []


def test_an_exposed_kong_beats_a_chow() -> None:
    """§1.6 priority kong > chow: seat 1 may chow 4m, seat 3 holds three 4m and kongs it."""
    hands = {0: "4m 9m 19s 19p 1234567z", 1: "23m 1s 2s 3s 4s 5s 6s 7s 8s 5z 6z 7z",
             3: "444m 1p 2p 3p 4p 5p 6p 7p 8p 5z 6z"}
    g = game(hands, draws="1z")
    discard(g, 0, "4m")
    assert g.to_act() == (1, 3)
    g.step(1, A.chow(t("3m"), t("4m")))
    events = g.step(3, A.kong(t("4m")))
    assert isinstance(events[0], Kong) and events[0].seat == 3
    assert g.melds[1] == [] and g.current == 3


def test_several_chows_are_offered_by_name() -> None:
    """§1.6: with 2m 3m 5m 6m and a discarded 4m the next seat is offered the chows 234, 345
    and 456, each its own action."""
    hands = {0: "4m 9m 19s 19p 1234567z", 1: "2356m 1s 2s 3s 4s 5s 6s 7s 5z 6z"}
    g = game(hands, draws="1z")
    discard(g, 0, "4m")
    chows = [a for a in g.legal_actions(1) if A.CHOW_BASE <= a < A.PUNG_BASE]
    assert chows == sorted(A.chow(t(m), t("4m")) for m in ("3m", "4m", "5m"))


def test_a_concealed_kong_cannot_be_robbed() -> None:
    """§1.6: seat 1 waits on 9m (清龙); the dealer declares a concealed kong of 9m: no robbing
    window opens and the dealer draws its replacement."""
    g = game({0: "9999m 19s 19p 1234z 5z", 1: DRAGON}, draws="6z", tail="7z")
    assert t("9m") in g.waiting_tiles(1)
    events = g.step(0, A.concealed_kong(t("9m")))
    assert [type(e) for e in events] == [ConcealedKong, DrawEvent]
    assert g.phase == PLAY and g.current == 0 and g.drawn_tile == t("7z")


def test_an_exposed_kong_of_a_discard_cannot_be_robbed() -> None:
    """§1.6: seat 3 waits on 9m and passes it; seat 2 makes an exposed kong of the 9m discard:
    no robbing window opens, seat 2 draws its replacement."""
    g = game({0: DEALER_9M, 2: "999m 1s 2s 3s 4s 5s 6s 7s 8s 5z 6z", 3: DRAGON}, draws="1z")
    discard(g, 0, "9m")
    assert g.to_act() == (2, 3) and A.WIN in g.legal_actions(3)
    g.step(3, A.PASS)
    events = g.step(2, A.kong(t("9m")))
    assert [type(e) for e in events] == [Kong, DrawEvent]
    assert g.phase == PLAY and g.current == 2 and g.kong_draw


def test_a_second_concealed_kong_after_the_replacement() -> None:
    """§1.5 step 1: after a concealed kong and its replacement the player acts again, and may
    declare another concealed kong."""
    g = game({0: "1111m 2222m 19s 19p 5z", 1: DRAGON}, draws="6z", tail="7z 7z")
    g.step(0, A.concealed_kong(t("1m")))
    assert A.concealed_kong(t("2m")) in g.legal_actions(0)
    events = g.step(0, A.concealed_kong(t("2m")))
    assert events[-1] == DrawEvent(0, t("7z"), replacement=True)
    assert [m.kind for m in g.melds[0]] == ["concealed_kong", "concealed_kong"]
    check_invariants(g)


def test_kong_flower_after_an_exposed_kong_of_a_discard() -> None:
    """§1.5 step 3 / §2.2: the replacement of an exposed kong completes the hand: 杠上开花, a
    self-drawn win (every other seat pays 8 + F)."""
    g = game({0: DEALER_9M, 2: "999m 123p 456p 789p 5s"}, draws="1z", tail="5s")
    discard(g, 0, "9m")
    g.step(2, A.kong(t("9m")))
    answer(g)
    assert g.current == 2 and A.WIN in g.legal_actions(2)
    g.step(2, A.WIN)
    check_win(g, 2, None)
    assert g.result is not None and {"杠上开花", "明杠"} <= names(g.result.fans)


def test_kong_flower_after_an_added_kong() -> None:
    """§1.5 steps 1 and 4 / §3.1: seat 2 pungs 4m keeping the fourth, later adds it (nobody
    can rob) and the replacement completes the hand: 杠上开花, self-drawn."""
    hands = {0: "4m 9m 19s 19p 1234567z", 2: "444m 123p 456p 789p 5s"}
    g = game(hands, draws="1z 3z 4z 6z 5s", tail="5s")
    discard(g, 0, "4m")
    g.step(2, A.pung(t("4m")))
    answer(g)
    discard(g, 2, "5s")
    answer(g)
    for s in (3, 0, 1):
        discard(g, s)
        answer(g)
    assert g.current == 2 and g.drawn_tile == t("5s")
    events = g.step(2, A.added_kong(t("4m")))
    assert isinstance(events[0], AddedKong)
    assert [m.kind for m in g.melds[2]] == ["added_kong"]
    assert g.current == 2 and g.drawn_tile == t("5s") and g.kong_draw
    assert A.WIN in g.legal_actions(2)
    g.step(2, A.WIN)
    check_win(g, 2, None)
    assert g.result is not None and "杠上开花" in names(g.result.fans)


def test_kong_flower_and_last_tile_together() -> None:
    """§3.1 ruling: a kong replacement that completes the hand and is also the last tile of the
    wall scores both 杠上开花 and 妙手回春.

    All eight flowers are dealt to seat 2 (so the tail gives its other 8 tiles); play takes the
    84 head tiles 52..135 in turn and seat 2 makes the 83rd draw (index 134, a 9p). Its concealed
    kong's replacement is then the last tile, index 135 (a 9m)."""
    hands = {2: "H1 H2 H3 H4 H5 H6 H7 H8 999p 12s"}
    wall = build_wall(hands, draws="9p 9m", tail="3s 4s 5s 6s 7s 8s 9s 9m")
    wall[52], wall[134] = wall[134], wall[52]
    wall[53], wall[135] = wall[135], wall[53]
    g = Game(wall=wall)
    tsumogiri(g, lambda g: g.phase == PLAY and g.current == 2 and g.wall.remaining == 1)
    assert g.drawn_tile == t("9p")
    g.step(2, A.concealed_kong(t("9p")))
    assert g.wall.remaining == 0 and g.drawn_tile == t("9m") and g.kong_draw
    g.step(2, A.WIN)
    check_win(g, 2, None)
    assert g.result is not None
    assert {"杠上开花", "妙手回春", "暗杠"} <= names(g.result.fans)
    assert ("花牌", 8) in g.result.fans

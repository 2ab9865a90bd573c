"""Scripted-wall scenarios, one rule each (rules: docs/rules.md §1.4–§1.7, §2.3)."""

from __future__ import annotations

import pytest

from mjenv import actions as A
from mjenv.engine import Game, RuleConfig, check_invariants
from mjenv.engine.events import Chow, DrawGame, Flower, Penalty, Pung, Win
from mjenv.engine.events import Draw as DrawEvent
from mjenv.engine.game import PLAY, ROB
from mjenv.fans import calculate

from .helpers import answer, game, t, tsumogiri

CLAIMS = {0: "4m 147s 369p 1234z 56z", 1: "23m 369s 369p 1234z 7z",
          2: "44m 58m 9m 5555p 1234z", 3: "23m 69m 258s 1234z 5z 7z"}


def names(result_fans: tuple[tuple[str, int], ...]) -> set[str]:
    return {name for name, _ in result_fans}


# ---------------------------------------------------------------- claims on a discard

def test_chow_is_offered_only_to_the_next_player() -> None:
    g = game(CLAIMS, draws="7z")
    g.step(0, A.discard(t("4m")))
    assert g.to_act() == (1, 2)
    assert g.legal_actions(1) == [A.PASS, A.chow(t("3m"), t("4m"))]
    assert g.legal_actions(3) == []  # seat 3 holds 2m 3m too, but sits before the discarder


def test_pung_beats_chow_and_the_claimer_must_discard_at_once() -> None:
    g = game(CLAIMS, draws="7z")
    g.step(0, A.discard(t("4m")))
    g.step(1, A.chow(t("3m"), t("4m")))  # answered first: the order of answers does not matter
    events = g.step(2, A.pung(t("4m")))
    assert [type(e) for e in events] == [Pung]
    assert g.phase == PLAY and g.current == 2
    assert [m.kind for m in g.melds[2]] == ["pung"] and g.melds[1] == []
    assert g.discards[0] == []
    # no kong (it holds four 5p) and no win in the turn of a claim: discards only
    assert all(A.DISCARD_BASE <= a < A.CHOW_BASE for a in g.legal_actions(2))
    check_invariants(g)


def test_chow_when_nobody_pungs() -> None:
    g = game(CLAIMS, draws="7z")
    g.step(0, A.discard(t("4m")))
    g.step(2, A.PASS)
    events = g.step(1, A.chow(t("3m"), t("4m")))
    assert events == [Chow(1, 0, (t("2m"), t("3m"), t("4m")), t("4m"))]
    assert g.current == 1 and g.melds[1][0].from_offset == 3
    check_invariants(g)


def test_no_claim_passes_the_turn_to_the_next_player() -> None:
    g = game(CLAIMS, draws="7z 1s")
    g.step(0, A.discard(t("4m")))
    events = answer(g)
    assert events == [DrawEvent(1, t("1s"))]
    assert g.to_act() == (1,)


TWO_WINNERS = {0: "9m 5m 19s 19p 1234567z", 1: "1357s 2468p 3z 4z 5z 6z 7z",
               2: "123p 456p 789p 78m 22z", 3: "123s 456s 789s 78m 33z"}


@pytest.mark.parametrize("order", [(2, 3), (3, 2)])
def test_two_wins_on_one_discard_go_to_the_first_counter_clockwise(order: tuple[int, ...]) -> None:
    g = game(TWO_WINNERS, draws="1m")
    g.step(0, A.discard(t("9m")))
    assert g.to_act() == (2, 3)
    for s in order:
        g.step(s, A.WIN)
    r = g.result
    assert r is not None and r.winner == 2 and r.from_seat == 0 and not r.self_drawn
    # discard win: the discarder pays 8 + F, the others 8
    f = r.fan_total
    assert "清龙" in names(r.fans)
    assert r.payments == (-(8 + f), -8, 24 + f, -8)
    assert g.scores == list(r.payments)
    assert isinstance(g.events[-1], Win)
    check_invariants(g)


def test_a_later_seat_wins_when_the_first_passes() -> None:
    g = game(TWO_WINNERS, draws="1m")
    g.step(0, A.discard(t("9m")))
    g.step(3, A.WIN)
    g.step(2, A.PASS)
    assert g.result is not None and g.result.winner == 3


# ---------------------------------------------------------------- kongs

KONG_HAND = {0: "111m 123s 456s 789s 5p"}


def test_concealed_kong_replacement_comes_from_the_tail_and_wins_kong_flower() -> None:
    g = game(KONG_HAND, draws="1m", tail="5p")
    assert A.concealed_kong(t("1m")) in g.legal_actions(0)
    tail_tile = g.wall.tiles[-1]
    events = g.step(0, A.concealed_kong(t("1m")))
    assert events[-1] == DrawEvent(0, tail_tile, replacement=True)
    assert g.wall.tail == len(g.wall.tiles) - 1
    assert A.WIN in g.legal_actions(0)
    g.step(0, A.WIN)
    r = g.result
    assert r is not None and r.winner == 0 and r.self_drawn
    assert {"杠上开花", "清龙", "暗杠"} <= names(r.fans)
    f = r.fan_total
    assert r.payments == (3 * (8 + f), -(8 + f), -(8 + f), -(8 + f))
    win = g.events[-1]
    assert isinstance(win, Win) and win.revealed[0] == (t("1m"),)
    check_invariants(g)


def test_exposed_kong_from_a_discard_draws_from_the_tail() -> None:
    hands = {**CLAIMS, 2: "444m 58m 5555p 1234z"}
    g = game(hands, draws="7z", tail="9s")
    g.step(0, A.discard(t("4m")))
    assert g.legal_actions(2) == [A.PASS, A.pung(t("4m")), A.kong(t("4m"))]
    g.step(1, A.PASS)
    events = g.step(2, A.kong(t("4m")))
    assert [type(e).__name__ for e in events] == ["Kong", "Draw"]
    assert events[-1] == DrawEvent(2, t("9s"), replacement=True)
    assert g.melds[2][0].kind == "kong" and g.melds[2][0].from_offset == 2
    assert g.current == 2 and g.kong_draw and g.visible[t("4m")] == 4
    # after a kong (not a claim turn) the seat may kong again: it holds four 5p
    assert A.concealed_kong(t("5p")) in g.legal_actions(2)
    check_invariants(g)


def test_kong_then_flower_then_replacement_win_is_not_kong_flower() -> None:
    g = game(KONG_HAND, draws="1m", tail="H1 5p")
    events = g.step(0, A.concealed_kong(t("1m")))
    assert [type(e) for e in events][-2:] == [Flower, DrawEvent]
    assert g.kong_draw is False
    g.step(0, A.WIN)
    r = g.result
    assert r is not None and "杠上开花" not in names(r.fans)
    assert {"清龙", "花牌"} <= names(r.fans)


ROBBING = {0: "9m 5m 19s 19p 1234567z", 1: "99m 1357s 2468p 1z 5z 6z",
           2: "78m 234s 345p 678p 22z", 3: "78m 234s 567s 234p 55p"}
# seat 0 discards 9m (too few points for seats 2 and 3 to win on it), seat 1 pungs and
# discards 1z; seats 2, 3, 0 draw and discard 1s, 2s, 3s; seat 1 draws the fourth 9m.


def _to_added_kong() -> Game:
    g = game(ROBBING, draws="1m 1s 2s 3s 9m")
    g.step(0, A.discard(t("9m")))
    assert g.to_act() == (1,)  # 2 and 3 wait on 9m but would score below 8
    g.step(1, A.pung(t("9m")))
    g.step(1, A.discard(t("1z")))
    for s in (2, 3, 0):
        answer(g)
        assert g.current == s
        g.step(s, A.discard(g.drawn_tile))
    answer(g)
    assert g.current == 1 and g.drawn_tile == t("9m")
    return g


def test_robbing_a_kong_first_counter_clockwise_from_the_declarer() -> None:
    g = _to_added_kong()
    assert A.added_kong(t("9m")) in g.legal_actions(1)
    g.step(1, A.added_kong(t("9m")))
    assert g.phase == ROB and g.to_act() == (2, 3)
    assert g.legal_actions(2) == [A.PASS, A.WIN]
    g.step(3, A.WIN)
    g.step(2, A.WIN)
    r = g.result
    assert r is not None and r.winner == 2 and r.from_seat == 1 and r.robbed
    assert "抢杠和" in names(r.fans) and "和绝张" not in names(r.fans)
    f = r.fan_total
    assert r.payments == (-8, -(8 + f), 24 + f, -8)
    assert [m.kind for m in g.melds[1]] == ["pung"]  # the kong is not completed
    check_invariants(g)


def test_an_unrobbed_added_kong_completes_with_a_tail_replacement() -> None:
    g = _to_added_kong()
    tail_tile = g.wall.tiles[-1]
    g.step(1, A.added_kong(t("9m")))
    answer(g)
    assert [m.kind for m in g.melds[1]] == ["added_kong"]
    assert g.events[-1] == DrawEvent(1, tail_tile, replacement=True)
    assert g.phase == PLAY and g.current == 1 and g.kong_draw
    check_invariants(g)


def test_last_copy_from_visible_tiles() -> None:
    # the 9m pung shows three copies; seat 2 draws the fourth and discards it; seat 3 wins
    hands = {**TWO_WINNERS, 1: "99m 1357s 2468p 1z 5z 6z", 0: "9m 5m 19s 19p 234567z 4s"}
    g = game(hands, draws="1m 9m")
    g.step(0, A.discard(t("9m")))
    g.step(2, A.PASS)
    g.step(3, A.PASS)
    g.step(1, A.pung(t("9m")))
    g.step(1, A.discard(t("1z")))
    answer(g)
    assert g.current == 2 and g.drawn_tile == t("9m")
    g.step(2, A.discard(t("9m")))
    g.step(3, A.WIN)
    r = g.result
    assert r is not None and r.winner == 3 and "和绝张" in names(r.fans)


# ---------------------------------------------------------------- flowers

def test_initial_flower_replacement_in_rounds_with_chains() -> None:
    # seat 0 holds H1 H2, seat 1 holds H4; the first tail tile is H3 (replaced next round)
    hands = {0: "H1 H2 123m 456m 789m 11z", 1: "H4 123s 456s 789s 22z 3z"}
    g = game(hands, tail="H3 5p 6p 7p")
    flowers = [(e.seat, e.tile) for e in g.events if isinstance(e, Flower)]
    assert flowers == [(0, t("H1")), (0, t("H2")), (1, t("H4")), (0, t("H3"))]
    replacements = [(e.seat, e.tile) for e in g.events
                    if isinstance(e, DrawEvent) and e.replacement]
    assert replacements == [(0, t("H3")), (0, t("5p")), (1, t("6p")), (0, t("7p"))]
    assert sorted(g.flowers[0]) == [t("H1"), t("H2"), t("H3")]
    assert g.hands[0][t("5p")] == 1 and g.hands[0][t("7p")] == 1 and g.hands[1][t("6p")] == 1
    check_invariants(g)


def test_flower_chain_in_play() -> None:
    g = game({0: "123m 456m 789m 11z 2z 3z"}, draws="H5", tail="H6 9p")
    kinds = [(type(e).__name__, e.seat) for e in g.events[-3:]]
    assert kinds == [("Flower", 0), ("Flower", 0), ("Draw", 0)]
    assert g.drawn_tile == t("9p") and g.events[-1] == DrawEvent(0, t("9p"), replacement=True)
    check_invariants(g)


# ---------------------------------------------------------------- the end of the wall

# All eight flowers are dealt (seat 2), so play takes the head tiles 52..135 in turn: seat
# 83 % 4 = 3 draws the last tile, index 135.
END = {0: "55m 46m 123s 456s 11z 2z", 1: "46m 123p 678p 789s 33z",
       2: "H1 H2 H3 H4 H5 H6 H7 H8 44z 5z 6z 7z", 3: "999p 123s 456s 789s 9m"}
END_TAIL = "1m 2m 3m 7m 8m 9m 1s 2s"


def _end_game(last: str) -> Game:
    g = game(END, tail=END_TAIL)
    wall = list(g.wall.tiles)
    i = wall.index(t(last), 52)
    wall[i], wall[135] = wall[135], wall[i]
    g = Game(wall=wall)
    assert g.wall.remaining == 135 - 52 + 1 - 1
    tsumogiri(g, lambda g: g.wall.remaining == 0)
    assert g.current == 3 and g.drawn_tile == t(last)
    return g


def test_final_discard_may_be_claimed_only_for_a_win_sea_bottom() -> None:
    g = _end_game("5m")
    assert A.WIN not in g.legal_actions(3)
    g.step(3, A.discard(t("5m")))
    # seat 0 holds 55m and 46m: no pung, no chow on the final discard; seat 1 may win (海底捞月)
    assert g.to_act() == (1,) and g.legal_actions(1) == [A.PASS, A.WIN]
    g.step(1, A.WIN)
    r = g.result
    assert r is not None and r.winner == 1 and "海底捞月" in names(r.fans)


def test_exhaustive_draw_after_the_final_discard() -> None:
    g = _end_game("5m")
    g.step(3, A.discard(t("5m")))
    events = g.step(1, A.PASS)
    assert events == [DrawGame(3, ((), (), (), ()))]
    assert g.result is not None and g.result.is_draw and g.result.payments == (0, 0, 0, 0)
    assert g.scores == [0, 0, 0, 0]
    check_invariants(g)


def test_no_kong_when_the_wall_is_empty_and_last_tile_self_drawn() -> None:
    g = _end_game("9p")
    legal = g.legal_actions(3)
    assert A.concealed_kong(t("9p")) not in legal
    g2 = _end_game("9m")
    assert A.WIN in g2.legal_actions(3)
    g2.step(3, A.WIN)
    assert g2.result is not None and "妙手回春" in names(g2.result.fans)


def test_kong_is_offered_while_the_wall_has_tiles() -> None:
    g = game({0: "999p 123s 456s 789s 9m"}, draws="9p")
    assert A.concealed_kong(t("9p")) in g.legal_actions(0)


def test_a_flower_as_the_last_tile_ends_the_hand_as_a_draw() -> None:
    # seven flowers dealt: the head runs to index 136, drawn by seat 0, and it is H8
    hands = {**END, 2: "H1 H2 H3 H4 H5 H6 H7 44z 5z 6z 7z 8p"}
    wall = list(game(hands, tail="1m 2m 3m 7m 8m 9m 1s").wall.tiles)
    i = wall.index(t("H8"))
    wall[i], wall[136] = wall[136], wall[i]
    g = Game(wall=wall)
    tsumogiri(g, lambda g: False)
    assert isinstance(g.events[-2], Flower) and g.events[-2].tile == t("H8")
    assert isinstance(g.events[-1], DrawGame) and g.events[-1].seat == 0
    assert g.result is not None and g.result.is_draw
    check_invariants(g)


# ---------------------------------------------------------------- the minimum

LOW = {0: "5p 1s 9s 19p 9m 1234567z", 1: "H1 H2 H3 H4 H5 H6 H7 123m 456m",
       2: "147m 258s 369p 5z 6z 7z 4z"}
LOW_TAIL = "2p 3p 4p 7s 8s 9s 5p"  # seat 1: 123m 456m 234p 789s 5p: waits on 5p


def test_a_complete_hand_below_eight_points_is_not_a_win_flowers_excluded() -> None:
    g = game(LOW, draws="1m", tail=LOW_TAIL)
    assert len(g.flowers[1]) == 7
    res = calculate(g.hand_tiles(1), g.melds[1], t("5p"), flowers=7)
    assert res.total >= 8 and not res.meets_minimum  # 8+ only with the flowers
    assert t("5p") in g.waiting_tiles(1)
    g.step(0, A.discard(t("5p")))
    assert g.legal_actions(1) == [A.PASS, A.chow(t("4p"), t("5p"))]  # a chow, but no win


def test_penalize_mode_offers_win_and_punishes_a_false_one() -> None:
    rules = RuleConfig(false_win="penalize")
    g = game(LOW, draws="1m", tail=LOW_TAIL, rules=rules)
    assert A.WIN in g.legal_actions(0)
    g.step(0, A.discard(t("5p")))
    # only seat 1 is asked (it may chow 5p); no extra decision is created for a false win,
    # but a seat that is asked may declare one
    assert g.to_act() == (1,)
    assert A.WIN in g.legal_actions(1)
    g.step(1, A.WIN)
    assert isinstance(g.events[-1], Penalty)
    assert g.result is not None and g.result.penalized == 1
    assert g.result.payments == (10, -30, 10, 10)
    check_invariants(g)


def test_penalize_method_ends_the_hand() -> None:
    g = game(CLAIMS, draws="7z")
    g.penalize(2)
    assert g.is_over and g.scores == [10, 10, -30, 10] and g.to_act() == ()
    with pytest.raises(ValueError, match="over"):
        g.step(0, A.discard(t("4m")))


# ---------------------------------------------------------------- illegal actions

def _snapshot(g: Game) -> tuple[object, ...]:
    return (len(g.events), [h[:] for h in g.hands], g.wall.head, g.wall.tail, g.phase,
            g.current, g.to_act(), {s: g.legal_actions(s) for s in range(4)},
            [d[:] for d in g.discards], [m[:] for m in g.melds])


def test_an_illegal_action_raises_naming_the_legal_ones_and_changes_nothing() -> None:
    g = game(CLAIMS, draws="7z")
    before = _snapshot(g)
    with pytest.raises(ValueError, match=r"legal: .*Discard W4"):
        g.step(0, A.discard(t("9m")))
    with pytest.raises(ValueError, match="not to act"):
        g.step(1, A.PASS)
    with pytest.raises(ValueError, match="int id"):
        g.step(0, "Discard W4")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        g.step(0, 999)
    assert _snapshot(g) == before
    g.step(0, A.discard(t("4m")))
    before = _snapshot(g)
    with pytest.raises(ValueError, match="Chow W2W3W4"):
        g.step(1, A.pung(t("4m")))
    with pytest.raises(ValueError, match="not to act"):
        g.step(3, A.PASS)
    assert _snapshot(g) == before

"""Two or more faults in one turn: which seat the judge penalizes (issue 19).

Botzone's judge reads a seat's verdict together with its answer, one seat after the other, and
stops at the first fault (``roundInput`` in ``judge/main.cpp``): in the deal turns and a draw
turn seats 0, 1, 2, 3; after a discard the discarder first, then the others counter-clockwise
for a win, then the claims in seat order; after a kong its owner first, then counter-clockwise.
A winning ``HU`` ends the reading, so a fault of a seat read after it is never seen, and a fault
read before it wins over it. Each case below sets a turn up on a scripted wall
(tests/botzone/scripted.py), answers it with two or more faults and asserts how the game ends.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from mjenv import actions as A
from mjenv.botzone import Judge, Reply
from mjenv.engine import check_invariants
from mjenv.engine.record import record_of, replay
from mjenv.tiles import CODES, parse_tiles
from tests.botzone.scripted import replies, seat_walltiles, tsumogiri

TLE, RE, MLE = Reply("", "TLE"), Reply("", "RE"), Reply("", "MLE")
NINE_GATES_W = "W1 W1 W1 W2 W3 W4 W5 W6 W7 W8 W9 W9 W9"
"""九莲宝灯: wins on any character tile, self-drawn or on a discard."""


def init_turn() -> Judge:
    return Judge(seat_walltiles(), 0)


def deal_turn() -> Judge:
    judge = init_turn()
    judge.respond(replies({}))
    return judge


def dealer_draw() -> Judge:
    """Seat 0's first draw, F3 (not a win)."""
    judge = Judge(seat_walltiles(takes={(0, 1): "F3"}), 0)
    tsumogiri(judge, lambda j: j.requests()[0] == "2 F3")
    assert A.WIN not in judge.game.legal_actions(0)
    return judge


def winning_draw() -> Judge:
    """Seat 2 draws W5 to 九莲宝灯: its HU is a win."""
    judge = Judge(seat_walltiles(hands={2: NINE_GATES_W}, takes={(2, 1): "W5"}), 0)
    tsumogiri(judge, lambda j: j.requests()[2] == "2 W5")
    assert A.WIN in judge.game.legal_actions(2)
    return judge


def discard_two_wins() -> Judge:
    """Seat 0 discards W5; seat 1 (九莲宝灯) and seat 2 (pungs and a pair waiting on W3 / W5)
    may both win on it."""
    walls = seat_walltiles(hands={1: NINE_GATES_W,
                                  2: "W5 W5 F1 F1 F1 J1 J1 J1 J2 J2 J2 W3 W3"},
                           takes={(0, 1): "W5"})
    judge = Judge(walls, 0)
    tsumogiri(judge, lambda j: j.requests()[0] == "2 W5")
    judge.respond(replies({0: "PLAY W5"}))
    assert A.WIN in judge.game.legal_actions(1) and A.WIN in judge.game.legal_actions(2)
    return judge


def discard_claims() -> Judge:
    """Seat 3 discards T5; seat 1 may pung it, seat 0 (the next seat) chow it."""
    walls = seat_walltiles(hands={0: "T4 T6 W1", 1: "T5 T5 W1"}, takes={(3, 1): "T5"})
    judge = Judge(walls, 0)
    tsumogiri(judge, lambda j: j.requests()[3] == "2 T5")
    judge.respond(replies({3: "PLAY T5"}))
    t5 = parse_tiles("T5")[0]
    assert A.pung(t5) in judge.game.legal_actions(1)
    assert A.chow(t5, t5) in judge.game.legal_actions(0)
    return judge


def concealed_kong() -> Judge:
    """Seat 0 declares a concealed kong of T7 on its first draw."""
    judge = Judge(seat_walltiles(hands={0: "T7 T7 T7"}, takes={(0, 1): "T7"}), 0)
    tsumogiri(judge, lambda j: j.requests()[0] == "2 T7")
    judge.respond(replies({0: "GANG T7"}))
    assert judge.requests() == ("3 0 GANG",) * 4
    return judge


def exposed_kong() -> Judge:
    """Seat 2 kongs seat 0's discard T7."""
    judge = Judge(seat_walltiles(hands={2: "T7 T7 T7"}, takes={(0, 1): "T7"}), 0)
    tsumogiri(judge, lambda j: j.requests()[0] == "2 T7")
    judge.respond(replies({0: "PLAY T7"}))
    judge.respond(replies({2: "GANG"}))
    assert judge.requests() == ("3 2 GANG",) * 4
    return judge


def added_kong() -> Judge:
    """Seat 1 pungs seat 0's B5, then draws the fourth and adds it: seat 2 (waiting on B2 / B5)
    and seat 3 (B5 / B8) may rob it."""
    walls = seat_walltiles(hands={1: "B5 B5", 2: "B3 B4 W1 W2 W3 W4 W5 W6 T1 T2 T3 J1 J1",
                                  3: "B6 B7 T4 T5 T6 T7 T8 T9 W7 W8 W9 J2 J2"},
                           takes={(0, 1): "B5", (1, 1): "B5"})
    judge = Judge(walls, 0)
    tsumogiri(judge, lambda j: j.requests()[0] == "2 B5")
    judge.respond(replies({0: "PLAY B5"}))
    b5 = parse_tiles("B5")[0]
    out = next(t for t in judge.game.hand_tiles(1) if t != b5)
    judge.respond(replies({1: f"PENG {CODES[out]}"}))
    tsumogiri(judge, lambda j: j.requests()[1] == "2 B5")
    judge.respond(replies({1: "BUGANG B5"}))
    assert judge.requests() == ("3 1 BUGANG B5",) * 4
    assert A.WIN in judge.game.legal_actions(2) and A.WIN in judge.game.legal_actions(3)
    return judge


Setup = Callable[[], Judge]
CASES: list[tuple[str, Setup, dict[int, str | Reply], tuple[str, int]]] = [
    # the deal turns: seat order
    ("init: 0 read before 1", init_turn, {0: "GARBAGE", 1: TLE}, ("WA", 0)),
    ("init: 1 read before 2", init_turn, {2: "GARBAGE", 1: TLE}, ("TLE", 1)),
    ("init: 0 read before 3", init_turn, {0: RE, 3: "HU"}, ("RE", 0)),
    ("deal: 0 read before 1", deal_turn, {1: "PLAY W1", 0: MLE}, ("MLE", 0)),
    ("deal: 2 read before 3", deal_turn, {3: TLE, 2: "GANG"}, ("WA", 2)),
    # a draw turn: seat order, the drawer in its place
    ("draw: drawer's move, then 1", dealer_draw, {0: "PLAY F3", 1: TLE, 2: "GARBAGE"},
     ("TLE", 1)),
    ("draw: drawer read before 1", dealer_draw, {0: "PLAY", 1: TLE}, ("WA", 0)),
    ("draw: false win before 3", dealer_draw, {0: "HU", 3: TLE}, ("WH", 0)),
    ("draw: a win ends the reading", winning_draw, {2: "HU", 3: TLE}, ("HU", 2)),
    ("draw: 1 read before the win", winning_draw, {1: "GARBAGE", 2: "HU"}, ("WA", 1)),
    ("draw: 0 read before the win", winning_draw, {0: TLE, 2: "HU", 3: "X"}, ("TLE", 0)),
    # after a discard: the discarder, then wins counter-clockwise, then claims in seat order
    ("discard: discarder before a win", discard_two_wins, {0: "PLAY W5", 1: "HU"}, ("WA", 0)),
    ("discard: discarder's verdict first", discard_two_wins, {0: TLE, 2: "HU"}, ("TLE", 0)),
    ("discard: 1 read before 2's win", discard_two_wins, {1: TLE, 2: "HU"}, ("TLE", 1)),
    ("discard: 1's win before 2's fault", discard_two_wins, {1: "HU", 2: TLE}, ("HU", 1)),
    ("discard: two wins, the first", discard_two_wins, {1: "HU", 2: "HU"}, ("HU", 1)),
    ("discard: garbage is read after wins", discard_two_wins, {1: "GARBAGE", 2: "HU"},
     ("HU", 2)),
    ("discard: verdicts before garbage", discard_two_wins, {1: "GARBAGE", 3: TLE}, ("TLE", 3)),
    ("discard: claims in seat order", discard_claims, {0: "GARBAGE", 1: "PENG W1"}, ("WA", 0)),
    ("discard: 0's bad chow, 1's pung first", discard_claims, {0: "CHI T5 B9", 1: "PENG W1"},
     ("", -1)),
    ("discard: an accepted pung ends it", discard_claims, {1: "PENG W1", 2: "GARBAGE"},
     ("", -1)),
    # after a kong: its owner first, then counter-clockwise
    ("concealed kong: owner first", concealed_kong, {0: "GARBAGE", 1: TLE}, ("WA", 0)),
    ("concealed kong: no robbing", concealed_kong, {3: TLE, 1: "HU"}, ("WA", 1)),
    ("concealed kong: 1 before 2", concealed_kong, {2: "PASS ", 1: RE}, ("RE", 1)),
    ("exposed kong: owner first", exposed_kong, {2: TLE, 3: "GARBAGE"}, ("TLE", 2)),
    ("exposed kong: 3 before 0", exposed_kong, {3: "GARBAGE", 0: TLE}, ("WA", 3)),
    ("exposed kong: 0 before 1", exposed_kong, {1: TLE, 0: "HU"}, ("WA", 0)),
    ("added kong: owner before a robber", added_kong, {1: "GARBAGE", 2: "HU"}, ("WA", 1)),
    ("added kong: owner's verdict first", added_kong, {1: TLE, 3: "HU"}, ("TLE", 1)),
    ("added kong: 2 read before 3's win", added_kong, {2: TLE, 3: "HU"}, ("TLE", 2)),
    ("added kong: 2's win before 3's fault", added_kong, {2: "HU", 3: TLE}, ("HU", 2)),
    ("added kong: two robbers, the first", added_kong, {2: "HU", 3: "HU"}, ("HU", 2)),
    ("added kong: 3 read before 0", added_kong, {0: "HU", 3: "GARBAGE"}, ("WA", 3)),
    ("added kong: a win hides 0's fault", added_kong, {0: TLE, 3: "HU"}, ("HU", 3)),
]
"""(name, the turn, the faulty answers by seat (the others PASS), the end: (action, player),
or ("", -1) when the judge accepts a claim and the game goes on)."""


@pytest.mark.parametrize(("setup", "answers", "end"), [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_the_first_seat_read_decides(setup: Setup, answers: dict[int, str | Reply],
                                     end: tuple[str, int]) -> None:
    judge = setup()
    finish = judge.respond(replies(answers))
    check_invariants(judge.game)
    if end == ("", -1):
        assert finish is None
        return
    assert finish is not None and (finish.action, finish.player) == end
    result = judge.game.result
    assert result is not None and list(result.payments) == list(finish.scores)
    if end[0] == "HU":
        assert result.winner == end[1]
    else:
        assert result.penalized == end[1] and finish.scores[end[1]] == -30
    assert replay(record_of(judge.game)).events == judge.game.events


def test_robbing_pays_as_a_discard_win_from_the_kong_owner() -> None:
    judge = added_kong()
    finish = judge.respond(replies({2: "HU", 3: TLE}))
    assert finish is not None and finish.fan_count is not None
    assert "抢杠和" in {name for name, _, _ in finish.fans}
    f = finish.fan_count
    assert finish.scores == (-8, -(8 + f), 24 + f, -8)

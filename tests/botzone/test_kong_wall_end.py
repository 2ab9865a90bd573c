"""Kongs at the end of the per-seat walls, as Botzone's judge rules them (issue 19).

Every case is played through :class:`mjenv.botzone.Judge` on a scripted wall
(tests/botzone/scripted.py) and asserts what the real judge does (``judge/main.cpp``):

- a kong on a discard (``GANG``) is refused only when the discard is the last tile, i.e. the
  part of the seat after the discarder is empty (``roundOutput`` checks that part and nothing
  else); when the claimant's own part is empty the judge still sends the ``GANG`` turn and then
  ends the hand in a draw (``HUANG``), because the claimant is the next to draw; when the
  claimant has a tile left it is the replacement, the last tile if the claimant's next part is
  empty (so it may win with 杠上开花 and 妙手回春 together);
- a concealed or added kong (``GANG T`` / ``BUGANG T`` after a draw) needs the own and the next
  seat's parts non-empty (``checkInputDRAW``), else ``WA``.

The engine offers exactly the kongs the judge accepts, so the bot side (the same legality
module) never answers one the judge refuses, nor misses one it accepts.
"""

from __future__ import annotations

import pytest

from mjenv import actions as A
from mjenv.botzone import Judge, Reply
from mjenv.engine import check_invariants
from mjenv.engine.record import from_json, record_of, replay, to_json
from mjenv.tiles import CODES, parse_tiles
from tests.botzone.scripted import last_draw_of, replies, seat_walltiles, tsumogiri

J1 = parse_tiles("J1")[0]
W5 = parse_tiles("W5")[0]
B9 = parse_tiles("B9")[0]

# (discarder, claimant) -> what follows the claimant's GANG on the discarder's last draw,
# played with no claim before it: then the parts are empty up to the discarder and hold one tile
# after it (seat d's last discard: parts [0 if s <= d else 1]).
KONG_ON_LAST_DISCARDS = {
    (0, 1): "replacement", (0, 2): "replacement", (0, 3): "last replacement",
    (1, 2): "replacement", (1, 3): "last replacement", (1, 0): "draw",
    (2, 3): "last replacement", (2, 0): "draw", (2, 1): "draw",
    (3, 0): "WA", (3, 1): "WA", (3, 2): "WA",
}


def assert_replays(judge: Judge) -> None:
    check_invariants(judge.game)
    again = replay(from_json(to_json(record_of(judge.game))))
    assert again.events == judge.game.events and again.result == judge.game.result


def at_last_discard(discarder: int, claimant: int) -> Judge:
    """The claimant holds three J1; the discarder plays the fourth as its last tile."""
    walls = seat_walltiles(hands={claimant: "J1 J1 J1"},
                           takes={(discarder, -1): "J1", (claimant, -1): "F4"})
    judge = Judge(walls, 0)
    tsumogiri(judge, last_draw_of(discarder))
    judge.respond(replies({discarder: "PLAY J1"}))
    assert judge.requests() == (f"3 {discarder} PLAY J1",) * 4
    assert [judge.game.wall.left(s) for s in range(4)] == [int(s > discarder) for s in range(4)]
    return judge


@pytest.mark.parametrize(("discarder", "claimant"), list(KONG_ON_LAST_DISCARDS))
def test_a_kong_on_a_discard_at_the_wall_end(discarder: int, claimant: int) -> None:
    outcome = KONG_ON_LAST_DISCARDS[(discarder, claimant)]
    judge = at_last_discard(discarder, claimant)
    offered = A.kong(J1) in judge.game.legal_actions(claimant)
    assert offered == (outcome != "WA")
    finish = judge.respond(replies({claimant: "GANG"}))
    if outcome == "WA":
        assert finish is not None and (finish.action, finish.player) == ("WA", claimant)
        assert_replays(judge)
        return
    assert finish is None
    assert judge.requests() == (f"3 {claimant} GANG",) * 4
    finish = judge.respond(replies({}))
    if outcome == "draw":  # the claimant is to draw its replacement from an empty part
        assert finish is not None and finish.action == "HUANG" and finish.scores == (0,) * 4
        assert_replays(judge)
        return
    assert finish is None
    assert judge.requests()[claimant] == "2 F4"
    assert judge.game.wall.is_last(claimant) == (outcome == "last replacement")
    tsumogiri(judge, lambda j: j.is_over)
    assert judge.finish is not None and judge.finish.action == "HUANG"
    assert_replays(judge)


def test_the_last_tile_as_a_kong_replacement_wins_both_ways() -> None:
    """Seat 3 konged seat 1's last discard while seat 0's part is empty: its replacement is the
    last tile, and a win on it is 杠上开花 and 妙手回春 (the judge sets both flags)."""
    walls = seat_walltiles(hands={3: "J1 J1 J1 W1 W2 W3 W4 W5 W6 W7 W8 W9 B1"},
                           takes={(1, -1): "J1", (3, -1): "B1"})
    judge = Judge(walls, 0)
    tsumogiri(judge, last_draw_of(1))
    judge.respond(replies({1: "PLAY J1"}))
    judge.respond(replies({3: "GANG"}))
    judge.respond(replies({}))
    assert judge.requests()[3] == "2 B1" and A.WIN in judge.game.legal_actions(3)
    finish = judge.respond(replies({3: "HU"}))
    assert finish is not None and (finish.action, finish.player) == ("HU", 3)
    names = {name for name, _, _ in finish.fans}
    assert {"杠上开花", "妙手回春", "明杠"} <= names
    total = finish.fan_count
    assert total is not None and finish.scores == (-(8 + total),) * 3 + (3 * (8 + total),)
    assert_replays(judge)


def test_a_concealed_kong_needs_a_tile_in_the_own_part() -> None:
    """Seat 1 draws its fourth W5 as the last tile of its part: ``GANG W5`` is WA."""
    judge = Judge(seat_walltiles(hands={1: "W5 W5 W5"}, takes={(1, -1): "W5"}), 0)
    tsumogiri(judge, last_draw_of(1))
    assert judge.requests()[1] == "2 W5"
    assert A.concealed_kong(W5) not in judge.game.legal_actions(1)
    finish = judge.respond(replies({1: "GANG W5"}))
    assert finish is not None and (finish.action, finish.player) == ("WA", 1)
    assert_replays(judge)


@pytest.mark.parametrize("early_kong", [True, False])
def test_a_concealed_kong_needs_a_tile_in_the_next_part(early_kong: bool) -> None:
    """Seat 3 draws its fourth W5 with one tile left in its part. If seat 0 declared a concealed
    kong earlier (one more tile taken from part 0), part 0 is then empty and ``GANG W5`` is WA;
    otherwise part 0 holds one tile and the kong is accepted, its replacement the last of
    part 3."""
    walls = seat_walltiles(hands={0: "T7 T7 T7", 3: "W5 W5 W5"},
                           takes={(0, 1): "T7", (3, -2): "W5", (3, -1): "F4"})
    judge = Judge(walls, 0)
    tsumogiri(judge, lambda j: j.requests()[0] == "2 T7")
    if early_kong:
        judge.respond(replies({0: "GANG T7"}))
        assert judge.requests() == ("3 0 GANG",) * 4
    tsumogiri(judge, last_draw_of(3, left=1))
    assert judge.requests()[3] == "2 W5"
    assert judge.game.wall.left(0) == (0 if early_kong else 1)
    offered = A.concealed_kong(W5) in judge.game.legal_actions(3)
    assert offered != early_kong
    finish = judge.respond(replies({3: "GANG W5"}))
    if early_kong:
        assert finish is not None and (finish.action, finish.player) == ("WA", 3)
    else:
        assert finish is None and judge.requests() == ("3 3 GANG",) * 4
        judge.respond(replies({}))
        assert judge.requests()[3] == "2 F4"
    assert_replays(judge)


@pytest.mark.parametrize("draw_from_end", [-2, -3])
def test_an_added_kong_needs_a_tile_in_the_next_part(draw_from_end: int) -> None:
    """Seat 3 pungs seat 2's first discard (B9), so it takes one tile fewer than seat 0 and its
    last draw comes when part 0 is already empty: a ``BUGANG B9`` then is WA; one draw earlier
    part 0 still holds a tile and it is accepted."""
    walls = seat_walltiles(hands={3: "B9 B9"}, takes={(2, 1): "B9", (3, draw_from_end): "B9"})
    judge = Judge(walls, 0)
    tsumogiri(judge, lambda j: j.requests()[2] == "2 B9")
    judge.respond(replies({2: "PLAY B9"}))
    out = next(t for t in judge.game.hand_tiles(3) if t != B9)
    judge.respond(replies({3: f"PENG {CODES[out]}"}))
    assert judge.requests() == (f"3 3 PENG {CODES[out]}",) * 4
    tsumogiri(judge, lambda j: j.requests()[3] == "2 B9")
    left_after = -draw_from_end - 1
    assert judge.game.wall.left(3) == left_after
    assert judge.game.wall.left(0) == left_after - 1
    offered = A.added_kong(B9) in judge.game.legal_actions(3)
    assert offered == (left_after - 1 > 0)
    finish = judge.respond(replies({3: "BUGANG B9"}))
    if offered:
        assert finish is None and judge.requests() == ("3 3 BUGANG B9",) * 4
    else:
        assert finish is not None and (finish.action, finish.player) == ("WA", 3)
    assert_replays(judge)


def test_a_fault_after_a_kong_that_ends_the_hand_is_still_penalized() -> None:
    """The engine ends the hand at the kong (no replacement for the claimant), but the judge
    still reads the answers to the ``GANG`` turn: a fault there is penalized, on the state before
    the kong, and the hand's record ends with the penalty."""
    judge = at_last_discard(1, 0)
    judge.respond(replies({0: "GANG"}))
    assert judge.game.is_over  # the engine's hand ended in the draw already
    finish = judge.respond(replies({2: Reply("", "TLE")}))
    assert finish is not None and (finish.action, finish.player) == ("TLE", 2)
    result = judge.game.result
    assert result is not None and result.penalized == 2
    assert_replays(judge)

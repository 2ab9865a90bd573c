"""The Botzone judge's input checks and penalties (rules §1.8), beyond the real transcripts."""

from __future__ import annotations

import random

import pytest

from mjenv.botzone import Judge, Reply
from mjenv.engine import BOTZONE
from mjenv.tiles import CODES


def walltiles(seed: int = 0, flowers: bool = False) -> str:
    tiles = [CODES[t] for t in range(34) for _ in range(4)]
    if flowers:
        tiles += CODES[34:42]
    random.Random(seed).shuffle(tiles)
    return " ".join(tiles)


def test_bad_setup_is_refused() -> None:
    with pytest.raises(ValueError, match=r"walltiles\[3\]: not a Botzone tile code: 'w1'"):
        Judge("W1 W1 W1 w1", 0)
    with pytest.raises(ValueError, match="136 tiles"):
        Judge("W1 " * 135 + "W1", 0)
    with pytest.raises(ValueError, match="quan"):
        Judge(walltiles(), 4)


def test_the_profile_follows_the_wall_size() -> None:
    assert Judge(walltiles(), 1).game.rules == BOTZONE
    judge = Judge(walltiles(1, flowers=True), 2)
    assert judge.game.rules.flowers and judge.game.prevalent_wind == 2


def test_the_first_turns() -> None:
    judge = Judge(walltiles(), 3)
    assert judge.requests() == ("0 0 3", "0 1 3", "0 2 3", "0 3 3")
    judge.respond(["PASS"] * 4)
    deal = judge.requests()
    assert all(r.startswith("1 0 0 0 0 ") and len(r.split(" ")) == 18 for r in deal)
    judge.respond(["PASS"] * 4)
    first = judge.requests()
    assert first[0].startswith("2 ") and first[1:] == ("3 0 DRAW",) * 3


def test_replies_are_checked() -> None:
    judge = Judge(walltiles(), 0)
    with pytest.raises(ValueError, match="4 replies"):
        judge.respond(["PASS"] * 3)
    with pytest.raises(ValueError, match="response string"):
        judge.respond(["PASS", "PASS", "PASS", Reply(None)])  # type: ignore[arg-type]
    assert judge.requests()[0] == "0 0 0"  # nothing was consumed


@pytest.mark.parametrize(("replies", "action", "player"), [
    (["PASS", "PASS", "HU", "PASS"], "WA", 2),        # anything but PASS before the deal
    (["PASS", Reply("", "TLE"), "PASS", "PASS"], "TLE", 1),
    (["PASS", "PASS", "PASS", "pass"], "WA", 3),
])
def test_a_bad_reply_ends_the_game_with_the_penalty(replies: list[str | Reply], action: str,
                                                    player: int) -> None:
    judge = Judge(walltiles(), 0)
    finish = judge.respond(replies)
    assert finish is not None and (finish.action, finish.player) == (action, player)
    scores = [10, 10, 10, 10]
    scores[player] = -30
    assert list(finish.scores) == scores and judge.game.result is not None
    assert list(judge.game.result.payments) == scores
    with pytest.raises(ValueError, match="over"):
        judge.respond(["PASS"] * 4)
    with pytest.raises(ValueError, match="over"):
        judge.requests()


def test_drawer_replies() -> None:
    """The drawer's false HU is WH; a malformed or illegal move is WA; a good PLAY goes on."""
    def at_first_draw() -> Judge:
        judge = Judge(walltiles(5), 0)
        judge.respond(["PASS"] * 4)
        judge.respond(["PASS"] * 4)
        return judge

    judge = at_first_draw()
    hand = judge.game.hand_tiles(0)
    assert 1 not in judge.game.legal_actions(0)  # this deal is no win for the dealer
    finish = judge.respond(["HU", "PASS", "PASS", "PASS"])
    assert finish is not None and (finish.action, finish.player) == ("WH", 0)
    missing = next(c for t, c in enumerate(CODES[:34]) if t not in hand)
    for bad in (f"PLAY {missing}", f"PLAY  {CODES[hand[0]]}", "PLAY", f"GANG {CODES[hand[0]]}",
                f"BUGANG {CODES[hand[0]]}", f"PLAY {CODES[hand[0]]} "):
        judge = at_first_draw()
        finish = judge.respond([bad, "PASS", "PASS", "PASS"])
        assert finish is not None and (finish.action, finish.player) == ("WA", 0), bad
    judge = at_first_draw()
    assert judge.respond([f"PLAY {CODES[hand[0]]}", "PASS", "PASS", "PASS"]) is None
    assert judge.requests() == (f"3 0 PLAY {CODES[hand[0]]}",) * 4

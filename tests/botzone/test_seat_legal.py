"""The bot's view of its seat, rebuilt from requests only, against the engine.

Random legal games are played through :class:`mjenv.botzone.Judge`; every seat's
:class:`~mjenv.botzone.seat.BotSeat` is fed its request of every turn, and at every live turn
its legal actions must be exactly the engine's for that seat (empty when the engine does not
ask it) and its observation exactly what the env's encoder makes of the engine's own view of
the seat.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from mjenv import actions as A
from mjenv.botzone import Judge
from mjenv.botzone.seat import BotSeat, ProtocolError, action_of, response_of
from mjenv.encoders import make_encoder
from mjenv.engine.seat_view import SeatView
from mjenv.tiles import CODES


def walltiles(seed: int, flowers: bool = False) -> str:
    tiles = [CODES[t] for t in range(34) for _ in range(4)]
    if flowers:
        tiles += CODES[34:42]
    random.Random(seed).shuffle(tiles)
    return " ".join(tiles)


def check_game(seed: int, flowers: bool = False) -> Judge:
    rng = random.Random(seed)
    judge = Judge(walltiles(seed, flowers), quan=seed % 4)
    seats = [BotSeat() for _ in range(4)]
    while not judge.is_over:
        requests = judge.requests()
        for s in range(4):
            seats[s].feed(requests[s])
        game = judge.game
        live = judge._queue and len(judge._queue) == 1 and not game.is_over
        replies = []
        for s in range(4):
            bot = seats[s]
            legal = bot.legal()
            if live:
                want = game.legal_actions(s) if s in game.to_act() else []
                assert legal == want, (seed, requests[s], s)
            if not legal:
                replies.append("PASS")
                continue
            view = bot.view
            assert view is not None
            mask = np.zeros(A.NUM_ACTIONS, np.int8)
            mask[legal] = 1
            enc = make_encoder("mjenv-v1", bot.rules)
            want_obs = enc.encode(SeatView.of_game(game, s), mask)
            assert np.array_equal(enc.encode(view, mask), want_obs), (seed, s, requests[s])
            action = A.WIN if A.WIN in legal else rng.choice(legal)
            if A.decode(action)[0] in (A.K_CHOW, A.K_PUNG):
                _, discards = bot.after_claim(action)
                reply = response_of(action, rng.choice(discards))
            else:
                reply = response_of(action)
            bot.answered(reply)
            replies.append(reply)
        judge.respond(replies)
    return judge


@pytest.mark.parametrize("seed", range(12))
def test_seat_view_and_legality_match_the_engine(seed: int) -> None:
    judge = check_game(seed, flowers=seed % 4 == 3)
    assert judge.finish is not None and judge.finish.action in ("HU", "HUANG")


def test_responses_round_trip() -> None:
    assert response_of(A.pung(3), A.discard(5)) == "PENG W6"
    assert action_of("PENG W6", "claim", 3) == (A.pung(3), A.discard(5))
    assert action_of("CHI W3 W9", "claim", 1) == (A.chow(2, 1), A.discard(8))
    assert action_of("GANG", "claim", 7) == (A.kong(7), None)
    assert action_of("GANG T1", "draw") == (A.concealed_kong(9), None)
    for bad, decision in (("PLAY  W1", "draw"), ("play W1", "draw"), ("PENG", "claim"),
                          ("HU", "none"), ("PLAY W1", "claim"), ("CHI W9 W1", "claim")):
        with pytest.raises(ProtocolError):
            action_of(bad, decision, 1)


@pytest.mark.parametrize(("requests", "message"), [
    (["1 0 0 0 0"], "first request"),
    (["0 5 0"], "first request"),
    (["0 0 0", "1 0 0 0 0 W1"], "13 tiles"),
    (["0 0 0", "1 0 0 0 0 " + " ".join(["W1"] * 13)], "do not add up"),
    (["0 0 0", "1 0 0 0 0 " + " ".join(CODES[:13]), "3 1 PENG W1"], "no discard"),
    (["0 0 0", "1 0 0 0 0 " + " ".join(CODES[:13]), "2 X9"], "not a tile"),
])
def test_bad_requests_are_refused(requests: list[str], message: str) -> None:
    seat = BotSeat()
    with pytest.raises(ProtocolError, match=message):
        for r in requests:
            seat.feed(r)

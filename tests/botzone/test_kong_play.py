"""Random play in the botzone profile by bots that kong whenever they may (issue 19).

Each hand is played through :class:`mjenv.botzone.Judge` by four
:class:`~mjenv.botzone.seat.BotSeat` (the bot side, which knows only its requests). At every
live turn a seat's legal actions from its requests must be the engine's. A seat declares a kong
whenever one is legal (on a discard, concealed or added), wins half the times it may, passes
most other claims (so that hands reach the end of the walls, where the botzone profile's kong
rulings matter) and otherwise plays at random. After every turn the engine's invariants hold;
at the end the hand's record replays (through its JSON form) to the same events and result,
and its judge log (mjenv.botzone.logs) reads back through the Judge to the same record.

The tally shows the late kongs were played: a kong on a discard whose claimant had no tile
left (the hand then ends in a draw), and one whose replacement was the last tile. The default
suite plays :data:`DEFAULT_HANDS` hands; ``pytest -m acceptance`` plays
:data:`ACCEPTANCE_HANDS`.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from mjenv import actions as A
from mjenv.botzone import Judge
from mjenv.botzone.logs import log_json, log_of_record, record_of_log
from mjenv.botzone.seat import BotSeat, response_of
from mjenv.engine import check_invariants
from mjenv.engine.record import from_json, record_of, replay, to_json
from mjenv.tiles import CODES
from tests.engine.helpers import lowest_shanten_discards

DEFAULT_HANDS = 60
ACCEPTANCE_HANDS = 2_000
KONGS = (A.K_KONG, A.K_CONCEALED_KONG, A.K_ADDED_KONG)
WIN_RATE = 0.5
CLAIM_RATE = 0.2
"""The chance of taking a chow or a pung that is offered (kongs are always taken)."""
STEER_RATE = 0.9
"""The chance that a discard keeps the lowest shanten (else it is uniform)."""


def walltiles(seed: int) -> str:
    tiles = [CODES[t] for t in range(34) for _ in range(4)]
    random.Random(seed).shuffle(tiles)
    return " ".join(tiles)


def choose(rng: random.Random, legal: list[int], hand: list[int], melds: int) -> int:
    """Kong if possible; else win half the time; pass most claims; discard mostly towards a
    win (the lowest shanten: random discards almost never win on per-seat walls)."""
    kongs = [a for a in legal if A.decode(a)[0] in KONGS]
    if kongs:
        return rng.choice(kongs)
    if A.WIN in legal and rng.random() < WIN_RATE:
        return A.WIN
    rest = [a for a in legal if a != A.WIN]
    if A.PASS in rest:
        return A.PASS if rng.random() >= CLAIM_RATE else rng.choice(rest)
    if rng.random() < STEER_RATE:
        rest = lowest_shanten_discards(rest, hand, melds)
    return rng.choice(rest)


def play_hand(seed: int, tally: Counter[str]) -> Judge:
    rng = random.Random(seed)
    judge = Judge(walltiles(seed), quan=seed % 4)
    seats = [BotSeat() for _ in range(4)]
    while not judge.is_over:
        requests = judge.requests()
        game = judge.game
        live = len(judge._queue) == 1 and not game.is_over
        answers = []
        for s in range(4):
            bot = seats[s]
            bot.feed(requests[s])
            legal = bot.legal()
            if live:
                assert legal == (game.legal_actions(s) if s in game.to_act() else []), \
                    (seed, s, requests[s])
            if not legal:
                answers.append("PASS")
                continue
            view = bot.view
            assert view is not None
            action = choose(rng, legal, view.hand, len(view.melds[s]))
            kind = A.decode(action)[0]
            if kind in KONGS:
                _tally_kong(judge, s, kind, tally)
            if kind in (A.K_CHOW, A.K_PUNG):
                _, discards = bot.after_claim(action)
                reply = response_of(action, rng.choice(discards))
            else:
                reply = response_of(action)
            bot.answered(reply)
            answers.append(reply)
        judge.respond(answers)
        check_invariants(judge.game)
    return judge


def _tally_kong(judge: Judge, seat: int, kind: int, tally: Counter[str]) -> None:
    wall = judge.game.wall
    tally[{A.K_KONG: "kong", A.K_CONCEALED_KONG: "concealed kong",
           A.K_ADDED_KONG: "added kong"}[kind]] += 1
    if kind == A.K_KONG and not wall.can_draw(seat):
        tally["kong with the claimant's part empty"] += 1
    elif kind == A.K_KONG and not wall.can_draw((seat + 1) % 4):
        tally["kong whose replacement is the last tile"] += 1


def check_hand(judge: Judge) -> None:
    game = judge.game
    record = record_of(game)
    again = replay(from_json(to_json(record)))
    assert again.events == game.events and again.result == game.result
    back = record_of_log(json.loads(log_json(log_of_record(record))))
    back.pop("botzone", None)
    assert back == record


def run(hands: int, seed0: int) -> Counter[str]:
    tally: Counter[str] = Counter()
    for i in range(hands):
        judge = play_hand(seed0 + i, tally)
        check_hand(judge)
        assert judge.finish is not None
        tally[judge.finish.action] += 1
    return tally


def test_kong_happy_bots() -> None:
    tally = run(DEFAULT_HANDS, seed0=0)
    print(dict(tally))
    assert tally["kong"] and tally["concealed kong"] and tally["added kong"], tally
    assert tally["HU"] and tally["HUANG"], tally


@pytest.mark.acceptance
@pytest.mark.slow
def test_kong_happy_bots_acceptance() -> None:
    tally = run(ACCEPTANCE_HANDS, seed0=10_000)
    print(dict(tally))
    assert sum(tally[a] for a in ("HU", "HUANG")) == ACCEPTANCE_HANDS, tally
    assert tally["kong with the claimant's part empty"], tally
    assert tally["kong whose replacement is the last tile"], tally

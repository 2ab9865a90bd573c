"""The bot's view of its seat, rebuilt from requests only, against the engine.

Random legal games are played through :class:`mjenv.botzone.Judge`; every seat's
:class:`~mjenv.botzone.seat.BotSeat` is fed its request of every turn, and at every live turn
its legal actions must be exactly the engine's for that seat (empty when the engine does not
ask it) and its observation exactly what the env's encoder makes of the engine's own view of
the seat. The same legality rules over a seat's view (:class:`ViewFacts`) must also give the
engine's legal actions in the other profiles (the shared wall, flowers, ``false_win``).
"""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest

from mjenv import actions as A
from mjenv.botzone import Judge
from mjenv.botzone.seat import BotSeat, ProtocolError, action_of, response_of
from mjenv.botzone.seat_legal import ViewFacts
from mjenv.encoders import make_encoder
from mjenv.engine import BOTZONE, MCR, Game, RuleConfig
from mjenv.engine.legal import claim_options, play_actions, rob_options
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


def view_legal(view: SeatView, rules: RuleConfig, kong_draw: bool) -> list[int]:
    """The seat's legal actions from its view alone (``kong_draw``: its own kong's
    replacement, which it knows)."""
    me, t, d = view.seat, view.claim_tile, view.claim_from
    if view.over:
        return []
    facts = ViewFacts(view, rules)
    if t >= 0 and d != me:
        opts, _ = (rob_options((facts,), rules, t) if view.claim_rob
                   else claim_options((facts,), rules, t, d))
        return opts.get(me, [])
    if view.drawn >= 0 or (view.last_actor == me and t < 0):  # its draw, or its own claim
        return play_actions(facts, rules, view.drawn, kong_draw)
    return []


PROFILES = {"mcr": MCR, "mcr-penalize": replace(MCR, false_win="penalize"),
            "mcr-no-flowers": replace(MCR, flowers=False),
            "botzone-penalize": replace(BOTZONE, false_win="penalize"),
            "botzone-flowers": replace(BOTZONE, flowers=True)}


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_view_facts_give_the_engines_legal_actions(profile: str) -> None:
    rules = PROFILES[profile]
    kinds: set[int] = set()
    for seed in range(40):
        dealer = seed % 4 if rules.fixed_dealer is None else rules.fixed_dealer
        game = Game(rules, seed=seed, dealer=dealer, prevalent_wind=seed % 4)
        views = [SeatView(s, dealer=dealer, prevalent_wind=seed % 4,
                          num_tiles=rules.num_tiles) for s in range(4)]
        rng = random.Random(seed)
        fresh = True  # a new decision: no seat has answered yet (an answer is not in a view)
        while not game.is_over:
            for s, view in enumerate(views):
                view.extend(game.events[view.num_events:])
                kong_draw = game.kong_draw and game.current == s
                if fresh:
                    assert view_legal(view, rules, kong_draw) == game.legal_actions(s), \
                        (profile, seed, s, len(game.actions))
            seat = game.to_act()[0]
            legal = game.legal_actions(seat)
            kinds.update(A.decode(a)[0] for a in legal)
            real_win = A.WIN in legal and rules.false_win == "mask"
            fresh = bool(game.step(seat, A.WIN if real_win and seed % 2 else
                                   rng.choice([a for a in legal if a != A.WIN] or legal)))
    # chows, pungs and kongs were offered and checked, and wins where random play reaches
    # them (the per-seat walls end a hand when one part is empty: random hands rarely win)
    assert {A.K_CHOW, A.K_PUNG} <= kinds, (profile, kinds)
    assert kinds & {A.K_KONG, A.K_CONCEALED_KONG, A.K_ADDED_KONG}, (profile, kinds)
    assert A.K_WIN in kinds or rules.wall_layout == "per_seat", (profile, kinds)


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

"""A quick heuristic player, for finding seeded hands with a wanted property.

Tests and the viewer's screenshots need records of particular kinds (a robbed kong, a concealed
kong, a won hand with flowers ...). A fixed seed would break silently when the engine changes
how it deals or what it allows, so :func:`search` plays seeded hands until one has the property
and fails loudly when none has. The player wins whenever it can, takes every kong and pung,
chows half the time and otherwise discards its least connected tile: it reaches claims, kongs
and wins in few hands, at a few milliseconds per hand.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from mjenv import actions as A
from mjenv.engine.game import Game

TAKE = (A.K_KONG, A.K_PUNG, A.K_ADDED_KONG, A.K_CONCEALED_KONG)


def connection(hand: list[int], tile: int) -> int:
    """How much ``tile`` belongs with the others in ``hand`` (tile counts): its copies, and its
    neighbours in the same suit (closer counts more)."""
    score = 4 * (hand[tile] - 1)
    if tile < 27:
        for d in (-2, -1, 1, 2):
            u = tile + d
            if 0 <= u < 27 and u // 9 == tile // 9:
                score += hand[u] * (3 - abs(d))
    return score


def choose(game: Game, seat: int, rng: random.Random) -> int:
    """The heuristic's action for ``seat`` (which must be one of ``game.to_act()``). Under
    ``false_win="penalize"`` Win is legal even when false, so the player never declares it."""
    legal = game.legal_actions(seat)
    if A.WIN in legal and game.rules.false_win == "mask":
        return A.WIN
    for a in legal:
        if A.decode(a)[0] in TAKE:
            return a
    chows = [a for a in legal if A.decode(a)[0] == A.K_CHOW]
    if chows and rng.random() < 0.5:
        return rng.choice(chows)
    discards = [a for a in legal if A.decode(a)[0] == A.K_DISCARD]
    if not discards:
        return legal[0]
    hand = game.hands[seat]
    return min(discards, key=lambda a: (connection(hand, a - A.DISCARD_BASE), rng.random()))


def play(game: Game, seed: int) -> Game:
    """Play ``game`` to its end with the heuristic at every seat (choices seeded by ``seed``)."""
    rng = random.Random(seed)
    while not game.is_over:
        seat = game.to_act()[0]
        game.step(seat, choose(game, seat, rng))
    return game


def search(make: Callable[[int], Game], want: Callable[[Game], bool], what: str,
           seeds: range = range(600)) -> Game:
    """The first game ``make(seed)``, played out, for which ``want`` holds; ``what`` names the
    property in the error raised when no seed in ``seeds`` gives it."""
    for seed in seeds:
        game = play(make(seed), seed)
        if want(game):
            return game
    raise LookupError(f"no seed in {seeds} gives {what}: has the engine changed?")

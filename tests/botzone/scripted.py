"""Scripted per-seat walls and a judge driver for the botzone-profile scenario tests.

:func:`seat_walltiles` writes a judge ``walltiles`` in which chosen tiles sit where a seat will
take them. Seat ``s`` owns part ``s`` (34 tiles) and takes every tile from its end (rules
§1.8), so a tile is placed by *take*: the 13 tiles of the deal are takes 0..12, the seat's
``n``-th draw after the deal (replacements included) is take ``12 + n``, and ``n = -1`` is the
last tile of the part (``-2`` the one before): the tile a seat takes last is the same however
claims and kongs shift the turns, so ``-1`` / ``-2`` place a tile at the end of the wall
without counting turns. Everything not placed is a fixed shuffle of the rest.

:func:`tsumogiri` answers for the four bots until a condition holds: the drawer plays the tile
it drew and every other answer is ``PASS``, so no claim is made and the parts empty in turn
(after seat ``d``'s last draw the seats up to ``d`` have no tile left and the later ones one).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping

from mjenv.botzone import Judge, Reply
from mjenv.tiles import CODES, parse_tiles

PART = 34
"""Tiles per seat in a 136-tile wall."""


def seat_walltiles(hands: dict[int, str] | None = None,
                   takes: dict[tuple[int, int], str] | None = None, seed: int = 0) -> str:
    """A 136-tile ``walltiles``: ``hands[s]`` (up to 13 codes, the rest filled) is in seat
    ``s``'s deal and
    ``takes[(s, n)]`` the tile of its ``n``-th draw (``n`` < 0: counted from the part's end;
    see the module docstring)."""
    parts: list[list[int | None]] = [[None] * PART for _ in range(4)]

    def put(seat: int, take: int, tile: int) -> None:
        i = PART - 1 - take
        assert 0 <= i < PART and parts[seat][i] is None, (seat, take)
        parts[seat][i] = tile

    for s, text in (hands or {}).items():
        dealt = parse_tiles(text)
        assert len(dealt) <= 13, f"seat {s} is dealt 13 tiles"
        for k, t in enumerate(dealt):
            put(s, k, t)
    for (s, n), code in (takes or {}).items():
        put(s, 12 + n if n > 0 else PART + n, parse_tiles(code)[0])
    left = [t for t in range(34) for _ in range(4)]
    for part in parts:
        for placed in part:
            if placed is not None:
                assert placed in left, f"a fifth {CODES[placed]}"
                left.remove(placed)
    random.Random(seed).shuffle(left)
    rest = iter(left)
    return " ".join(CODES[t if t is not None else next(rest)] for part in parts for t in part)


def drawer(judge: Judge) -> int | None:
    """The seat sent ``2 T`` this turn (it has just drawn), or None."""
    for s, line in enumerate(judge.requests()):
        if line.startswith("2 "):
            return s
    return None


def tsumogiri(judge: Judge, until: Callable[[Judge], bool]) -> None:
    """Answer for every seat (the drawer plays its tile, everyone else passes) until
    ``until(judge)`` holds; AssertionError if the game ends first."""
    while not until(judge):
        assert not judge.is_over, f"the game ended first: {judge.finish}"
        replies = ["PASS"] * 4
        for s, line in enumerate(judge.requests()):
            if line.startswith("2 "):
                replies[s] = "PLAY " + line.split(" ")[1]
        judge.respond(replies)


def last_draw_of(seat: int, left: int = 0) -> Callable[[Judge], bool]:
    """The condition: ``seat`` has just drawn and ``left`` tiles remain in its part."""
    return lambda j: drawer(j) == seat and j.game.wall.left(seat) == left


def replies(answers: Mapping[int, str | Reply]) -> list[str | Reply]:
    """Four replies: ``answers`` by seat, ``PASS`` for the others."""
    return [answers.get(s, "PASS") for s in range(4)]

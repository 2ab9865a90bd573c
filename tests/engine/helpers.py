"""Scripted walls for scenario tests.

``build_wall(hands, draws, tail)`` lays out a full wall (index 0 = head) so that the deal gives
each listed seat exactly its 13 tiles (flowers included: they are replaced from ``tail``), the
head draws after the deal are ``draws`` in order, and the replacement draws from the tail are
``tail`` in order (``tail[0]`` is the last wall tile). The rest is filled with the remaining
tiles: hand tiles of unlisted seats and the middle of the wall come from a fixed shuffle of the
non-flowers; leftover flowers sit in the middle of the wall, far from both ends.

Also :func:`lowest_shanten_discards`, the steering of the random-play tests (engine, env,
Botzone) towards wins.
"""

from __future__ import annotations

import random
from typing import Any

from mjenv import actions as A
from mjenv.engine import Game
from mjenv.engine.rules import MCR, RuleConfig
from mjenv.shanten import regular_shanten_counts
from mjenv.tiles import CODES, FLOWER_BASE, parse_tiles


def game_fields(game: Game) -> dict[str, Any]:
    """Every field of ``game`` by name: ``vars(game)``, or, where the engine is compiled with
    mypyc (setup.py; a compiled object has no ``__dict__``), the fields its class declares."""
    names = getattr(type(game), "__mypyc_attrs__", None)
    if names is None:
        return dict(vars(game))
    return {name: getattr(game, name) for name in names}


def tiles(text: str) -> list[int]:
    return parse_tiles(text) if text else []


def build_wall(hands: dict[int, str] | None = None, draws: str = "", tail: str = "",
               dealer: int = 0, rules: RuleConfig = MCR, seed: int = 0) -> list[int]:
    n = rules.num_tiles
    slots: list[int | None] = [None] * n
    hand_ids = {s: tiles(h) for s, h in (hands or {}).items()}
    for s, h in hand_ids.items():
        assert len(h) == 13, f"seat {s} needs 13 tiles, got {len(h)}"
    pos = 0
    order = [(dealer + i) % 4 for i in range(4)]
    for r in range(3):
        for s in order:
            for k in range(4):
                if s in hand_ids:
                    slots[pos] = hand_ids[s][4 * r + k]
                pos += 1
    for s in order:
        if s in hand_ids:
            slots[pos] = hand_ids[s][12]
        pos += 1
    for t in tiles(draws):
        slots[pos] = t
        pos += 1
    for i, t in enumerate(tiles(tail)):
        assert slots[n - 1 - i] is None, "draws and tail overlap"
        slots[n - 1 - i] = t
    left = rules.tile_set()
    for t in slots:
        if t is not None:
            assert t in left, f"too many copies of {CODES[t]}"
            left.remove(t)
    plain = [t for t in left if t < FLOWER_BASE]
    random.Random(seed).shuffle(plain)
    flowers = [t for t in left if t >= FLOWER_BASE]
    free = [i for i, t in enumerate(slots) if t is None]
    # flowers go to the free slots nearest the middle of the wall
    middle = sorted(free, key=lambda i: (abs(i - n // 2), i))[: len(flowers)]
    for i, f in zip(sorted(middle), flowers, strict=True):
        slots[i] = f
    rest = iter(plain)
    for i in free:
        if slots[i] is None:
            slots[i] = next(rest)
    out = [t for t in slots if t is not None]
    assert len(out) == n
    return out


def game(hands: dict[int, str] | None = None, draws: str = "", tail: str = "", dealer: int = 0,
         rules: RuleConfig = MCR, prevalent_wind: int = 0) -> Game:
    wall = build_wall(hands, draws, tail, dealer, rules)
    return Game(rules=rules, wall=wall, dealer=dealer, prevalent_wind=prevalent_wind)


def t(code: str) -> int:
    return parse_tiles(code)[0]


def answer(g: Game, answers: dict[int, int] | None = None) -> list:
    """Answer the open window: each asked seat plays its entry of ``answers`` or Pass."""
    answers = answers or {}
    events: list = []
    if g.phase == 0:  # PLAY: nothing to answer
        return events
    for s in g.to_act():
        events += g.step(s, answers.get(s, A.PASS))
    return events


def tsumogiri(g: Game, stop) -> None:
    """Every seat discards its drawn tile (or its first tile) and passes every claim, until
    ``stop(g)`` is true or the hand is over."""
    while not g.is_over and not stop(g):
        if g.phase == 0:  # PLAY
            s = g.current
            tile = g.drawn_tile if g.drawn_tile >= 0 else g.hand_tiles(s)[0]
            g.step(s, A.discard(tile))
        else:
            answer(g)


def lowest_shanten_discards(discards: list[int], hand: list[int], melds: int) -> list[int]:
    """The discard actions among ``discards`` that leave ``hand`` (34 counts, with ``melds``
    melds; not changed) at the lowest regular shanten, in their order. One definition for the
    random-play tests that steer their hands towards wins, so that wins are common."""
    hand = hand[:]
    best: list[int] = []
    low = 99
    for a in discards:
        t = a - A.DISCARD_BASE
        hand[t] -= 1
        sh = regular_shanten_counts(hand, melds)
        hand[t] += 1
        if sh < low:
            best, low = [a], sh
        elif sh == low:
            best.append(a)
    return best

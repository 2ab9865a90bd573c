"""A seat's legal actions computed from its own view, as the engine would compute them.

A Botzone bot sees only its requests, never the game, yet its agent must get the same action
mask the env gives that seat. The engine's legality (mjenv.engine.game: ``_compute_play_legal``,
``_open_claims``, ``_open_rob``) reads only facts the seat knows: its own hand and melds, the
tiles face up, its flowers, the winds and how many tiles are left in each part of the per-seat
walls. This module asks the same questions of a :class:`~mjenv.engine.seat_view.SeatView`,
with the engine's own building blocks (the wait finder, the fan calculator, the action layout);
``tests/botzone/test_seat_legal.py`` checks it against the engine at every decision of many
games. Only the ``botzone`` profile's per-seat walls and ``false_win="mask"`` are supported.
"""

from __future__ import annotations

from mjenv import actions as A
from mjenv.decompose import waiting_counts
from mjenv.engine.rules import RuleConfig
from mjenv.engine.seat_view import SeatView
from mjenv.fans import NotWinError, calculate
from mjenv.melds import CONCEALED_KONG, PUNG
from mjenv.tiles import EAST, NUM_KINDS


def _visible(view: SeatView) -> list[int]:
    """Face-up copies per kind, as the engine's ``Game.visible``: the pools and every exposed
    meld (a concealed kong is not face up)."""
    seen = [0] * NUM_KINDS
    for s in range(4):
        for t in view.discards[s]:
            seen[t] += 1
        for m in view.melds[s]:
            if m.kind != CONCEALED_KONG:
                for t in m.tiles:
                    seen[t] += 1
    return seen


def _part_left(view: SeatView, seat: int) -> int:
    return view.seat_tiles_left(seat)


def is_last(view: SeatView, actor: int) -> bool:
    """The tile ``actor`` just drew or discarded is the last one: the next seat's part is empty
    (rules §1.8; SeatWalls.is_last)."""
    return _part_left(view, (actor + 1) % 4) <= 0


def can_kong(view: SeatView, actor: int) -> bool:
    """Both ``actor``'s part and the next seat's part hold a tile (SeatWalls.can_kong)."""
    return _part_left(view, actor) > 0 and _part_left(view, (actor + 1) % 4) > 0


def _wins(view: SeatView, rules: RuleConfig, hand: list[int], t: int, *, self_drawn: bool,
          last_copy: bool, last_tile: bool, kong_win: bool) -> bool:
    """Whether the seat's 13-form ``hand`` (counts) wins on ``t`` with at least the minimum
    (flowers excluded): the engine's wait filter, then the fan calculator."""
    me = view.seat
    melds = view.melds[me]
    if t not in waiting_counts(hand[:], len(melds)):
        return False
    tiles = [k for k in range(NUM_KINDS) for _ in range(hand[k])]
    try:
        res = calculate(tiles, melds, t, self_drawn=self_drawn, last_copy=last_copy,
                        last_tile=last_tile, kong_win=kong_win, seat_wind=view.seat_wind,
                        prevalent_wind=view.prevalent_wind, flowers=len(view.flowers[me]))
    except NotWinError:
        return False
    return res.total - res.flowers >= rules.min_points


def play_actions(view: SeatView, rules: RuleConfig, *, after_draw: bool,
                 kong_draw: bool = False) -> list[int]:
    """The legal actions (ascending) of the seat to discard: after its draw (``view.drawn``
    is the fresh tile; ``kong_draw``: a kong's replacement) or after its own claim."""
    me = view.seat
    h = view.hand
    legal: list[int] = []
    if after_draw:
        t = view.drawn
        if not 0 <= t < NUM_KINDS or h[t] <= 0:
            raise ValueError("the seat has no freshly drawn tile")
        h13 = h[:]
        h13[t] -= 1
        if _wins(view, rules, h13, t, self_drawn=True,
                 last_copy=_visible(view)[t] >= 3 and h13[t] == 0,
                 last_tile=is_last(view, me), kong_win=kong_draw):
            legal.append(A.WIN)
    legal.extend(A.DISCARD_BASE + t for t in range(NUM_KINDS) if h[t])
    if after_draw and can_kong(view, me):
        legal.extend(A.CONCEALED_KONG_BASE + t for t in range(NUM_KINDS) if h[t] == 4)
        legal.extend(sorted(A.ADDED_KONG_BASE + m.first for m in view.melds[me]
                            if m.kind == PUNG and h[m.first]))
    return legal


def _chows(view: SeatView, t: int) -> list[int]:
    h = view.hand
    out = []
    if t < EAST:
        for middle in (t - 1, t, t + 1):
            if middle // 9 == t // 9 and 1 <= middle % 9 <= 7:
                x, y = (u for u in (middle - 1, middle, middle + 1) if u != t)
                if h[x] and h[y]:
                    out.append(A.chow(middle, t))
    return out


def claim_actions(view: SeatView, rules: RuleConfig) -> list[int]:
    """The seat's options in the window open now (a discard, or an added kong to rob): empty
    when it has nothing but Pass (the engine does not ask it), else Pass and the rest,
    ascending."""
    me, t, d = view.seat, view.claim_tile, view.claim_from
    if t < 0 or d == me:
        return []
    h = view.hand
    if view.claim_rob:
        rob = _wins(view, rules, h, t, self_drawn=False, last_copy=False, last_tile=False,
                    kong_win=True)
        return [A.PASS, A.WIN] if rob else []
    last = is_last(view, d)
    acts: list[int] = []
    if _wins(view, rules, h, t, self_drawn=False,
             last_copy=_visible(view)[t] - 1 >= 3 and h[t] == 0, last_tile=last,
             kong_win=False):
        acts.append(A.WIN)
    if not last:
        if (me - d) % 4 == 1:
            acts.extend(_chows(view, t))
        if h[t] >= 2:
            acts.append(A.PUNG_BASE + t)
            if h[t] == 3 and can_kong(view, me):
                acts.append(A.KONG_BASE + t)
    return [A.PASS, *acts] if acts else []

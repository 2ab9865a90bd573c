"""The legal actions of a seat: MCR's discard, kong, claim and win rules, written once.

Two parties need them. The engine (mjenv.engine.game) knows every seat's state; a Botzone bot
knows only its own seat's view, rebuilt from its requests (mjenv.botzone.seat), and must still
give its agent exactly the mask the env would give. Both supply the same :class:`SeatFacts` —
the facts one seat knows that its legal actions depend on — and these functions read nothing
else, so the two cannot disagree (``tests/botzone/test_seat_legal.py`` plays random games and
compares them at every decision).

>>> from mjenv.engine import Game
>>> g = Game(seed=1)
>>> list(g.legal(g.current)) == g.legal_actions(g.current)
True

The rulings (docs/engine.md, Rulings): after a draw the seat may win (self-drawn), discard any
kind it holds, or declare a concealed or added kong when the wall allows one
(``WallFacts.can_kong``: a replacement for it, and not the last tile); after its own chow or
pung it may only discard. On a discard the next seat may chow, any other seat pung or kong, and
any seat win; the last tile may be claimed only for a win. A kong on a discard asks nothing more
of the wall than a pung: Botzone's judge checks only the part of the seat after the discarder
(``judge/main.cpp``, ``roundOutput``), so with per-seat walls the claimant's own part may be
empty, and the hand then ends in a draw where the replacement would come (mjenv.engine.game;
docs/rules.md, the botzone profile). With one shared wall "not the last tile" already means a
replacement exists, so the mcr profile's rule is unchanged. An added kong may be robbed only for
a win. A win needs the 8-point minimum without the flowers.
With ``false_win="penalize"`` Win is also offered wherever the seat is asked anyway (never in a
robbing window, which only a real robbery opens).
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Sequence
from itertools import compress
from typing import Protocol

from mjenv import actions as A
from mjenv.engine.rules import RuleConfig
from mjenv.fans import FanResult, NotWinError, calculate
from mjenv.melds import PUNG, Meld
from mjenv.tiles import EAST, NUM_KINDS


class WallFacts(Protocol):
    """What the wall still allows (mjenv.engine.wall.WallCounts: the engine's wall, or the
    counts a seat has kept)."""

    def is_last(self, actor: int) -> bool:
        """The tile ``actor`` just drew or discarded is the last one."""
        ...

    def can_kong(self, actor: int) -> bool:
        """``actor`` may declare a kong."""
        ...


class SeatFacts(Protocol):
    """The facts one seat knows that its legal actions depend on.

    ``hand`` is its standing tiles (34 counts; with the 14th tile when it is to discard);
    ``melds`` and ``flowers`` are its own; ``visible`` counts every copy face up (the pools, the
    latest discard included, and the exposed melds; a concealed kong is not face up) for 和绝张;
    ``waits`` are the kinds that complete the shape of its 13-tile hand (the hand without the
    tile just drawn; fans not checked); ``wall`` is what the wall still allows. The functions
    below never change any of them.
    """

    @property
    def seat(self) -> int: ...

    @property
    def hand(self) -> Sequence[int]: ...

    @property
    def melds(self) -> Sequence[Meld]: ...

    @property
    def flowers(self) -> Sequence[int]: ...

    @property
    def seat_wind(self) -> int: ...

    @property
    def prevalent_wind(self) -> int: ...

    @property
    def visible(self) -> Sequence[int]: ...

    @property
    def wall(self) -> WallFacts: ...

    @property
    def waits(self) -> Container[int]: ...


_DISCARD_IDS = tuple(A.DISCARD_BASE + t for t in range(NUM_KINDS))


def _chows(t: int) -> tuple[tuple[int, int, int], ...]:
    out = []
    for middle in (t - 1, t, t + 1):
        if t < EAST and middle // 9 == t // 9 and 1 <= middle % 9 <= 7:
            x, y = (u for u in (middle - 1, middle, middle + 1) if u != t)
            out.append((A.chow(middle, t), x, y))
    return tuple(out)


CHOWS = tuple(_chows(t) for t in range(NUM_KINDS))
"""By claimed tile: each chow it can make, as (action id, the two other tiles needed)."""


def is_last_copy(face_up: int, held: int) -> bool:
    """和绝张: the three other copies of the winning tile are face up (``face_up``, the winning
    tile itself not counted) and the winner holds none (``held``)."""
    return face_up >= 3 and held == 0


def win_fans(facts: SeatFacts, rules: RuleConfig, hand: Sequence[int], t: int, *,
             self_drawn: bool, last_copy: bool, last_tile: bool,
             kong_win: bool) -> FanResult | None:
    """The fans of the seat winning on ``t`` with the 13-tile ``hand`` (counts), or None when
    the hand is not complete or is below the minimum (flowers excluded)."""
    tiles = [k for k in range(NUM_KINDS) for _ in range(hand[k])]
    try:
        res = calculate(tiles, facts.melds, t, self_drawn=self_drawn, last_copy=last_copy,
                        last_tile=last_tile, kong_win=kong_win, seat_wind=facts.seat_wind,
                        prevalent_wind=facts.prevalent_wind, flowers=len(facts.flowers))
    except NotWinError:
        return None
    return res if res.total - res.flowers >= rules.min_points else None


def self_drawn_win(facts: SeatFacts, rules: RuleConfig, drawn: int,
                   kong_draw: bool) -> FanResult | None:
    """The fans of a self-drawn win on ``drawn`` (the tile just drawn; -1 after the seat's own
    claim, when there is none), or None. ``kong_draw``: a kong's replacement (杠上开花)."""
    if drawn < 0 or drawn not in facts.waits:
        return None
    h13 = list(facts.hand)
    h13[drawn] -= 1
    return win_fans(facts, rules, h13, drawn, self_drawn=True,
                    last_copy=is_last_copy(facts.visible[drawn], h13[drawn]),
                    last_tile=facts.wall.is_last(facts.seat), kong_win=kong_draw)


def play_actions(facts: SeatFacts, rules: RuleConfig, drawn: int, kong_draw: bool) -> list[int]:
    """The legal actions (ascending) of the seat to discard: after its draw of ``drawn``, or
    after its own chow or pung (``drawn`` = -1: only a discard, or a false win)."""
    h = facts.hand
    drew = drawn >= 0
    legal: list[int] = [A.WIN] if rules.false_win == "penalize" or (
        drew and self_drawn_win(facts, rules, drawn, kong_draw) is not None) else []
    legal += compress(_DISCARD_IDS, h)  # the kinds in hand
    if drew:
        four, melds = 4 in h, facts.melds
        if (four or melds) and facts.wall.can_kong(facts.seat):
            if four:
                legal.extend(A.CONCEALED_KONG_BASE + t for t in range(NUM_KINDS)
                             if h[t] == 4)
            if melds:
                legal.extend(sorted(A.ADDED_KONG_BASE + m.first for m in melds
                                    if m.kind == PUNG and h[m.first]))
    return legal


def claim_options(seats: Iterable[SeatFacts], rules: RuleConfig, t: int, discarder: int,
                  ) -> tuple[dict[int, list[int]], dict[int, FanResult | None]]:
    """The options of each of ``seats`` on ``discarder``'s discard ``t``, by seat: Pass and the
    rest, ascending, for every seat that may do more than pass (the others are not asked and
    are absent); and for each of those, the fans of its win on ``t`` (None when Win is not a
    real win). The engine asks for the three other seats at once, a Botzone seat for itself."""
    options: dict[int, list[int]] = {}
    wins: dict[int, FanResult | None] = {}
    chows = CHOWS[t]
    any_chow = bool(chows)
    last: bool | None = None  # asked of the wall only when some seat could claim
    for facts in seats:
        h = facts.hand
        n = h[t]
        win = t in facts.waits
        chow = any_chow and (facts.seat - discarder) & 3 == 1  # only the next seat chows
        # most seats can do nothing: no wait on t, and no pung or chow possible
        if not win and n < 2 and not chow:
            continue
        if last is None:
            last = facts.wall.is_last(discarder)
        if not win and last:
            continue
        acts: list[int] = []  # ascending: win, chows, pung, kong
        res = None
        if win:  # ``visible`` counts the discard itself
            res = win_fans(facts, rules, h, t, self_drawn=False,
                           last_copy=is_last_copy(facts.visible[t] - 1, n), last_tile=last,
                           kong_win=False)
            if res is not None:
                acts.append(A.WIN)
        if not last:  # the final discard may be claimed only for a win
            if chow:
                for a, x, y in chows:
                    if h[x] and h[y]:
                        acts.append(a)
            if n >= 2:
                acts.append(A.PUNG_BASE + t)
                if n == 3:  # the wall allows it as it allows a pung (see the module docstring)
                    acts.append(A.KONG_BASE + t)
        if acts:
            if rules.false_win == "penalize" and acts[0] != A.WIN:
                acts.insert(0, A.WIN)  # a seat asked anyway may also declare (penalized)
            options[facts.seat] = [A.PASS, *acts]
            wins[facts.seat] = res
    return options, wins


def rob_options(seats: Iterable[SeatFacts], rules: RuleConfig, t: int,
                ) -> tuple[dict[int, list[int]], dict[int, FanResult | None]]:
    """As :func:`claim_options`, on an added kong of ``t``: Pass and Win for each seat for which
    robbing it is a win (only a real robbery opens the window, in either ``false_win`` mode)."""
    options: dict[int, list[int]] = {}
    wins: dict[int, FanResult | None] = {}
    for facts in seats:
        if t in facts.waits:
            res = win_fans(facts, rules, facts.hand, t, self_drawn=False, last_copy=False,
                           last_tile=False, kong_win=True)
            if res is not None:
                options[facts.seat] = [A.PASS, A.WIN]
                wins[facts.seat] = res
    return options, wins

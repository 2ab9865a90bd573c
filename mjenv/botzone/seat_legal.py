"""A seat's legality facts from its own view: what mjenv.engine.legal needs, as a bot knows it.

A Botzone bot sees only its requests, never the game, yet its agent must get the same action
mask the env gives that seat. The legality rules (mjenv.engine.legal) read only facts the seat
knows — its hand, melds and flowers, the winds, the tiles face up and how many tiles are left
in each part of the wall — so the bot needs only to supply those facts from its
:class:`~mjenv.engine.seat_view.SeatView`; the engine supplies the same facts from its own
state. ``tests/botzone/test_seat_legal.py`` checks that the two agree at every decision of many
games.
"""

from __future__ import annotations

from functools import cached_property

from mjenv.decompose import waiting_counts
from mjenv.engine.rules import RuleConfig
from mjenv.engine.seat_view import SeatView
from mjenv.engine.wall import LAYOUTS, WallCounts
from mjenv.melds import CONCEALED_KONG, Meld
from mjenv.tiles import NUM_KINDS


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


class ViewFacts:
    """The :class:`~mjenv.engine.legal.SeatFacts` of ``view``'s seat, under ``rules`` (whose
    wall layout says how the seat counts the tiles left). A snapshot: make a new one after the
    view changes."""

    def __init__(self, view: SeatView, rules: RuleConfig) -> None:
        me = view.seat
        self.seat = me
        self.hand: list[int] = view.hand
        self.melds: list[Meld] = view.melds[me]
        self.flowers: list[int] = view.flowers[me]
        self.seat_wind = view.seat_wind
        self.prevalent_wind = view.prevalent_wind
        self.wall: WallCounts = LAYOUTS[rules.wall_layout].counts_seen(view)
        self._view = view

    @cached_property
    def visible(self) -> list[int]:
        return _visible(self._view)

    @cached_property
    def waits(self) -> list[int]:
        """The waits of the 13-tile hand: without the tile just drawn, if any."""
        hand = self.hand[:]
        if self._view.drawn >= 0:
            hand[self._view.drawn] -= 1
        return waiting_counts(hand, len(self.melds))

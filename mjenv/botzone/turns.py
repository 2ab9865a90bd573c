"""The judge's turns, written from a hand's events: what each seat is sent, turn by turn.

One writer serves three callers, so the request lines are built in one place:
:class:`mjenv.botzone.Judge` (the judge side, from its own game's events),
:mod:`mjenv.botzone.logs` (a game record turned into a judge log) and
:class:`mjenv.botzone.program_agent.BotzoneProgramAgent` (one seat's requests, from the events
that seat may see). A seat's line of a turn depends only on what that seat may see (its own
deal and draws; another seat's draw is ``3 p DRAW``, a concealed kong is ``GANG`` without its
tile), so feeding the writer one seat's redacted events (:func:`mjenv.engine.events.view`)
gives that seat's line exactly; the other seats' lines of such a turn are then meaningless.

Turns (rules §1.8): ``INIT`` (``0 seat quan``), ``DEAL`` (``1 …``: the deal after the initial
flower replacement), then per event ``DRAW`` (``2 T`` to the drawer, ``3 p DRAW`` to the
others), ``BUHUA``, ``PLAY`` (a discard, written ``PENG T`` / ``CHI M T`` when it follows the
seat's claim), ``GANG`` (exposed or concealed) and ``BUGANG``. A claim (``Pung``, ``Chow``)
makes no turn of its own: the judge shows it with the discard that follows.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from mjenv.botzone import protocol as P
from mjenv.engine.events import (
    AddedKong,
    Chow,
    ConcealedKong,
    Deal,
    Discard,
    Draw,
    Event,
    Flower,
    Kong,
    Pung,
)
from mjenv.tiles import CODES, FLOWER_BASE

TURN_KINDS = ("INIT", "DEAL", "DRAW", "BUHUA", "PLAY", "GANG", "BUGANG")


@dataclass(frozen=True, slots=True)
class Turn:
    """One judge turn: what happened (``kind``, ``actor``, ``tile``; -1 where none) and the
    request line of each seat."""

    kind: str
    actor: int
    tile: int
    requests: tuple[str, str, str, str]


def _same_to_all(actor: int, words: str) -> tuple[str, str, str, str]:
    line = P.action_request(actor, words)
    return (line, line, line, line)


def _is_deal_event(e: Event) -> bool:
    """The deal and the initial flower replacement (before the dealer's first draw)."""
    return isinstance(e, Deal) or (isinstance(e, Flower) and e.initial) or (
        isinstance(e, Draw) and e.replacement)


class TurnWriter:
    """Turns events (in order, possibly a few at a time) into judge turns.

    ``quan`` is the prevalent wind of the ``INIT`` turn. :meth:`feed` returns the turns the new
    events complete: the first call returns ``INIT`` and ``DEAL`` once the deal is over (the
    engine makes the deal and the dealer's first draw in one go, so they come together).
    The final event (``Win``, ``DrawGame``, ``Penalty``) makes no turn.
    """

    def __init__(self, quan: int) -> None:
        if isinstance(quan, bool) or not isinstance(quan, int) or not 0 <= quan <= 3:
            raise ValueError(f"quan must be 0..3, got {quan!r}")
        self.quan = quan
        self._dealing = True
        self._deal: list[Event] = []
        self._claim: tuple[str, int, int] | None = None  # ("PENG"|"CHI", seat, chow middle)

    def feed(self, events: Iterable[Event]) -> list[Turn]:
        out: list[Turn] = []
        for e in events:
            if self._dealing:
                if _is_deal_event(e):
                    self._deal.append(e)
                    continue
                self._dealing = False
                out.append(Turn("INIT", -1, -1, tuple(  # type: ignore[arg-type]
                    P.init_request(s, self.quan) for s in range(4))))
                out.append(self._deal_turn())
            turn = self._turn(e)
            if turn is not None:
                out.append(turn)
        return out

    def _deal_turn(self) -> Turn:
        hands: list[list[int]] = [[], [], [], []]
        flowers: list[list[int]] = [[], [], [], []]
        for e in self._deal:
            if isinstance(e, Deal):
                hands[e.seat].extend(t for t in e.tiles if 0 <= t < FLOWER_BASE)
            elif isinstance(e, Flower):
                flowers[e.seat].append(e.tile)
            elif isinstance(e, Draw) and 0 <= e.tile < FLOWER_BASE:
                hands[e.seat].append(e.tile)
        return Turn("DEAL", -1, -1, tuple(  # type: ignore[arg-type]
            P.deal_request(hands[s], flowers) for s in range(4)))

    def _turn(self, e: Event) -> Turn | None:
        s = e.seat
        if isinstance(e, Draw):
            reqs = tuple(P.draw_request(s, v, e.tile) for v in range(4))
            return Turn("DRAW", s, e.tile, reqs)  # type: ignore[arg-type]
        if isinstance(e, Flower):
            return Turn("BUHUA", s, e.tile, _same_to_all(s, f"BUHUA {CODES[e.tile]}"))
        if isinstance(e, Pung):
            self._claim = ("PENG", s, -1)
        elif isinstance(e, Chow):
            self._claim = ("CHI", s, e.tiles[1])
        elif isinstance(e, Discard):
            code = CODES[e.tile]
            if self._claim is not None and self._claim[1] == s:
                verb, _, middle = self._claim
                words = f"PENG {code}" if verb == "PENG" else f"CHI {CODES[middle]} {code}"
            else:
                words = f"PLAY {code}"
            self._claim = None
            return Turn("PLAY", s, e.tile, _same_to_all(s, words))
        elif isinstance(e, (Kong, ConcealedKong)):
            return Turn("GANG", s, -1, _same_to_all(s, "GANG"))
        elif isinstance(e, AddedKong):
            return Turn("BUGANG", s, e.tile, _same_to_all(s, f"BUGANG {CODES[e.tile]}"))
        return None  # Win, DrawGame, Penalty end the hand

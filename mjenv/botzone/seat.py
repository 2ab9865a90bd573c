"""One seat's side of the protocol: requests in, the seat's view and legal actions out, and the
translation between our action ids and Botzone's response words.

>>> seat = BotSeat()
>>> seat.feed("0 2 1")            # seat 2, prevalent wind South
>>> seat.view.seat, seat.view.prevalent_wind
(2, 1)

:meth:`BotSeat.feed` folds a request into a :class:`~mjenv.engine.seat_view.SeatView` as the
engine's events (the bot knows only what its requests say, so other seats' draws, deals and
concealed kongs are folded hidden, exactly as the env's own view of the seat has them), and
:meth:`BotSeat.legal` gives the legal actions of the decision the request opens, by the
engine's own rules (mjenv.engine.legal) over the facts the seat knows
(mjenv.botzone.seat_legal). A claim and the discard after it are one Botzone response (``PENG
T``, ``CHI M T``): :meth:`BotSeat.after_claim` gives the view and the legal discards as they
would be if the claim were taken, without changing the seat.

A request that does not fit the game so far raises :class:`ProtocolError` saying why.
"""

from __future__ import annotations

from dataclasses import replace

from mjenv import actions as A
from mjenv.botzone import protocol as P
from mjenv.botzone.seat_legal import ViewFacts
from mjenv.engine.events import (
    HIDDEN,
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
from mjenv.engine.legal import claim_options, play_actions, rob_options
from mjenv.engine.rules import BOTZONE, RuleConfig
from mjenv.engine.seat_view import SeatView
from mjenv.tiles import CODES, FLOWER_BASE

# the decisions a request can open
NONE, DRAW, CLAIM = "none", "draw", "claim"


class ProtocolError(ValueError):
    """A request (or a bot's response) that breaks the protocol."""


def _tile(code: str, what: str, *, flower: bool = False) -> int:
    t = P.tile_of(code)
    if t is None or (t >= FLOWER_BASE) != flower:
        kind = "flower" if flower else "tile"
        raise ProtocolError(f"{what}: not a {kind} code: {code!r}")
    return t


def response_of(action: int, discard: int | None = None) -> str:
    """The Botzone response for one of our actions. A chow or a pung needs the ``discard``
    action that follows it (both are one response)."""
    kind, t = A.decode(action)
    if kind == A.K_PASS:
        return "PASS"
    if kind == A.K_WIN:
        return "HU"
    if kind == A.K_DISCARD:
        return f"PLAY {CODES[t]}"
    if kind == A.K_KONG:
        return "GANG"
    if kind == A.K_CONCEALED_KONG:
        return f"GANG {CODES[t]}"
    if kind == A.K_ADDED_KONG:
        return f"BUGANG {CODES[t]}"
    if discard is None or A.decode(discard)[0] != A.K_DISCARD:
        raise ValueError(f"{A.action_to_string(action)} needs the discard that follows it")
    out = CODES[A.decode(discard)[1]]
    if kind == A.K_PUNG:
        return f"PENG {out}"
    middle, _ = A.decode_chow(action)
    return f"CHI {CODES[middle]} {out}"


def action_of(response: str, decision: str, claim_tile: int = -1) -> tuple[int, int | None]:
    """Our action for a response to a ``decision`` (``DRAW`` or ``CLAIM`` on ``claim_tile``),
    and the discard that follows a ``PENG`` / ``CHI`` (else None); ProtocolError if the
    response is not a well-formed answer to that decision (legality is not checked here).
    Words are split on single spaces, as the judge splits them."""
    words = P.tokens(response)
    head, n = words[0], len(words)
    if decision != NONE and words == ["HU"]:
        return A.WIN, None
    if decision == NONE or words == ["PASS"]:
        if words == ["PASS"]:
            return A.PASS, None
        raise ProtocolError(f"{response!r}: only PASS answers this request")
    if decision == DRAW:
        make = {"PLAY": A.discard, "GANG": A.concealed_kong, "BUGANG": A.added_kong}
        if n == 2 and head in make:
            return make[head](_tile(words[1], response)), None
    elif head == "GANG" and n == 1:
        return A.kong(claim_tile), None
    elif head == "PENG" and n == 2:
        return A.pung(claim_tile), A.discard(_tile(words[1], response))
    elif head == "CHI" and n == 3:
        middle = _tile(words[1], response)
        try:
            chow = A.chow(middle, claim_tile)
        except ValueError:
            raise ProtocolError(f"{response!r}: no chow of {CODES[claim_tile]} around "
                                f"{words[1]}") from None
        return chow, A.discard(_tile(words[2], response))
    raise ProtocolError(f"{response!r} is not an answer to this request")


class BotSeat:
    """What one bot knows, rebuilt from its requests (see the module docstring).

    ``rules``: the botzone profile; a 144-tile wall (flowers) is recognised by itself as soon
    as a flower shows (the deal's flowers or a ``BUHUA``), or given with ``flowers=True``.
    """

    def __init__(self, rules: RuleConfig = BOTZONE, *, flowers: bool | None = None) -> None:
        if rules.wall_layout != "per_seat" or rules.false_win != "mask":
            raise ValueError("a Botzone seat plays the botzone profile (per-seat walls, "
                             "false_win='mask')")
        if flowers is not None:
            rules = replace(rules, flowers=flowers)
        self.rules = rules
        self._flowers_fixed = flowers is not None
        self.view: SeatView | None = None
        self.events: list[Event] = []
        self.decision = NONE
        """What the latest request asks of this seat: ``DRAW`` (play after its draw),
        ``CLAIM`` (a discard or an added kong it may take), or ``NONE`` (PASS is the only
        answer)."""
        self.kong_draw = False
        self._quan = 0
        self._kong_tile = -1  # the tile of this seat's latest "GANG T" answer
        self.requests = 0

    # ---------------------------------------------------------------- requests
    @property
    def seat(self) -> int:
        return self._view().seat

    def _view(self) -> SeatView:
        if self.view is None:
            raise ProtocolError("the first request must be '0 seat quan'")
        return self.view

    def answered(self, response: str) -> None:
        """Note this seat's own answer (its concealed kong's tile is in no later request)."""
        words = P.tokens(response)
        if len(words) == 2 and words[0] == "GANG" and P.tile_of(words[1]) is not None:
            self._kong_tile = P.TILE_OF_CODE[words[1]]

    def feed(self, request: str) -> None:
        """Fold one request line; sets :attr:`decision`."""
        if not isinstance(request, str):
            raise ProtocolError(f"a request is a string, got {request!r}")
        words = request.split()
        n = self.requests
        self.requests += 1
        self.decision = NONE
        if not words:
            raise ProtocolError("empty request")
        what = f"request {n} {request!r}"
        if n == 0:
            if words[0] != "0" or len(words) != 3 or not all(w in "0123" for w in words[1:]):
                raise ProtocolError(f"{what}: the first request is '0 seat quan'")
            self._quan = int(words[2])
            self._start(int(words[1]))
            return
        if n == 1:
            self._apply(self._deal_events(words, what))
            return
        view = self._view()
        me = view.seat
        if words[0] == "2" and len(words) == 2:
            t = _tile(words[1], what)
            prev = self.events[-1] if self.events else None
            self.kong_draw = isinstance(prev, (Kong, ConcealedKong, AddedKong)) and \
                prev.seat == me
            self._apply([Draw(me, t)])
            self.decision = DRAW
            return
        if words[0] != "3" or len(words) < 3 or words[1] not in ("0", "1", "2", "3"):
            raise ProtocolError(f"{what}: expected '2 T' or '3 p ...'")
        p = int(words[1])
        verb, rest = words[2], words[3:]
        events = self._action_events(p, verb, rest, what)
        self._apply(events)
        if p != me and verb in ("PLAY", "PENG", "CHI", "BUGANG"):
            self.decision = CLAIM

    def _start(self, seat: int) -> None:
        self.view = SeatView(seat, dealer=0, prevalent_wind=self._quan,
                             num_tiles=self.rules.num_tiles)
        self.events = []

    def _deal_events(self, words: list[str], what: str) -> list[Event]:
        me = self._view().seat
        if words[0] != "1" or len(words) < 18 or not all(w.isdigit() for w in words[1:5]):
            raise ProtocolError(f"{what}: expected '1 f0 f1 f2 f3 <13 tiles> <flowers>'")
        counts = [int(w) for w in words[1:5]]
        hand = [_tile(c, what) for c in words[5:18]]
        codes = words[18:]
        if len(codes) != sum(counts):
            raise ProtocolError(f"{what}: {sum(counts)} flowers announced, {len(codes)} given")
        flowers = [_tile(c, what, flower=True) for c in codes]
        if flowers and not self._flowers_fixed and not self.rules.flowers:
            self.rules = replace(self.rules, flowers=True)
            self._start(me)
        events: list[Event] = []
        k = 0
        own = hand
        for s in range(4):
            mine = flowers[k:k + counts[s]]
            k += counts[s]
            if s == me:  # dealt: the tiles kept, then the flowers; each flower replaced
                kept = hand[:13 - len(mine)]
                own = hand[13 - len(mine):]
                events.append(Deal(s, tuple(kept + mine)))
            else:
                events.append(Deal(s, ()))
            for i, f in enumerate(mine):
                events.append(Flower(s, f, initial=True))
                events.append(Draw(s, own[i] if s == me else HIDDEN, replacement=True))
        return events

    def _action_events(self, p: int, verb: str, rest: list[str], what: str) -> list[Event]:
        view = self._view()
        me = view.seat
        n = len(rest)
        if verb == "DRAW" and n == 0:
            if p == me:
                raise ProtocolError(f"{what}: this seat's own draws come as '2 T'")
            return [Draw(p, HIDDEN)]
        if verb == "BUHUA" and n == 1:
            f = _tile(rest[0], what, flower=True)
            if not self.rules.flowers and not self._flowers_fixed:
                self.rules = replace(self.rules, flowers=True)
                self._refold()
            return [Flower(p, f)]
        if verb == "PLAY" and n == 1:
            return [Discard(p, _tile(rest[0], what))]
        if verb == "BUGANG" and n == 1:
            return [AddedKong(p, _tile(rest[0], what))]
        if verb in ("PENG", "CHI", "GANG"):
            d, t = view.claim_from, view.claim_tile
            open_discard = t >= 0 and not view.claim_rob and d != p
            if verb == "GANG" and n == 0:
                if open_discard:
                    return [Kong(p, d, t)]
                if p != me:
                    return [ConcealedKong(p, HIDDEN)]
                if self._kong_tile < 0:
                    raise ProtocolError(f"{what}: this seat declared no concealed kong")
                return [ConcealedKong(p, self._kong_tile)]
            if not open_discard:
                raise ProtocolError(f"{what}: there is no discard to claim")
            if verb == "PENG" and n == 1:
                return [Pung(p, d, t), Discard(p, _tile(rest[0], what))]
            if verb == "CHI" and n == 2:
                middle = _tile(rest[0], what)
                if middle >= 27 or middle % 9 in (0, 8) or abs(middle - t) > 1 \
                        or middle // 9 != t // 9:
                    raise ProtocolError(f"{what}: no chow of {CODES[t]} around {rest[0]}")
                tiles = (middle - 1, middle, middle + 1)
                return [Chow(p, d, tiles, t), Discard(p, _tile(rest[1], what))]
        raise ProtocolError(f"{what}: unknown request")

    def _apply(self, events: list[Event]) -> None:
        view = self._view()
        try:
            view.extend(events)
        except (ValueError, IndexError) as exc:
            raise ProtocolError(f"request {self.requests - 1}: {exc}") from None
        self.events.extend(events)
        me = view.seat
        if any(x < 0 for x in view.hand) or any(x < 0 for x in view.unseen) \
                or view.seat_tiles_left(me) < 0:
            raise ProtocolError(f"request {self.requests - 1}: the requests do not add up "
                                "(a tile this seat does not hold, a fifth copy, or more draws "
                                "than its wall)")

    def _refold(self) -> None:
        """The wall turned out to have flowers (144 tiles): fold everything again."""
        view = self._view()
        events = self.events
        self._start(view.seat)
        self._apply(events)

    # ---------------------------------------------------------------- decisions
    def legal(self) -> list[int]:
        """The legal actions of the decision the latest request opened (ascending); empty
        when PASS is the only answer (the env would not ask this seat)."""
        view = self._view()
        rules = self.rules
        if self.decision == DRAW:
            return play_actions(ViewFacts(view, rules), rules, view.drawn, self.kong_draw)
        me, t, d = view.seat, view.claim_tile, view.claim_from
        if self.decision != CLAIM or t < 0 or d == me:
            return []
        seats = (ViewFacts(view, rules),)
        if view.claim_rob:
            options, _ = rob_options(seats, rules, t)
        else:
            options, _ = claim_options(seats, rules, t, d)
        return options.get(me, [])

    def after_claim(self, action: int) -> tuple[SeatView, list[int]]:
        """The view after this seat takes the open discard with the chow or pung ``action``,
        and its legal discards then (the second half of a ``PENG`` / ``CHI`` answer)."""
        view = self._view()
        kind = A.decode(action)[0]
        me, d, t = view.seat, view.claim_from, view.claim_tile
        if kind == A.K_PUNG:
            event: Event = Pung(me, d, t)
        elif kind == A.K_CHOW:
            middle, _ = A.decode_chow(action)
            event = Chow(me, d, (middle - 1, middle, middle + 1), t)
        else:
            raise ValueError(f"{A.action_to_string(action)} is not a chow or a pung")
        after = view.clone()
        after.apply(event)
        return after, play_actions(ViewFacts(after, self.rules), self.rules, -1, False)

    @property
    def claim_tile(self) -> int:
        return self._view().claim_tile


__all__ = ["CLAIM", "DRAW", "NONE", "BotSeat", "ProtocolError", "action_of", "response_of"]


"""One hand of MCR as a state machine (rules: docs/rules.md §1.4–§1.7, §2.3).

>>> g = Game(seed=1)
>>> seat = g.to_act()[0]
>>> events = g.step(seat, g.legal_actions(seat)[-1])

The game deals, replaces flowers and draws by itself; it stops only where a seat has a real
decision: the seat to discard (``PLAY``), or every seat that may claim a discard (``CLAIM``)
or rob an added kong (``ROB``). In a window each seat answers without seeing the others'
answers; when the last one has answered, one resolver applies :data:`CLAIM_PRIORITY`
(win > kong = pung > chow > pass), ties going to the first seat counter-clockwise from the
discarder (only wins can tie). A seat whose only legal action would be Pass is not asked.

State is plain ints and lists: ``hands[s]`` are 34 counts of standing tiles, ``melds[s]``,
``discards[s]`` (the tiles still in the pool), ``flowers[s]``, and ``visible`` (34 counts of
face-up tiles: pools and exposed melds). Treat them as read-only.

What each seat may do is decided by mjenv.engine.legal, the one copy of the legality rules,
from each seat's facts (:class:`_SeatFacts`, views of the lists above); the same functions
serve a Botzone seat that knows only its own view.

With ``false_win="penalize"`` Win may be declared at every decision a seat is asked (every
turn to discard — after a draw or after its own claim, where no win is possible —, and every
claim window the seat is in for another reason: no extra decisions are created); a false
declaration ends the hand with the penalty. In a window, the Win answers are
examined in counter-clockwise order from the discarder and the first one decides (a real win,
or a false one that is penalized).
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any, Final, SupportsIndex

from mjenv import actions as A
from mjenv.decompose import waiting_counts
from mjenv.engine.events import (
    AddedKong,
    Chow,
    ConcealedKong,
    Deal,
    Discard,
    Draw,
    DrawGame,
    Event,
    Flower,
    Kong,
    Penalty,
    Pung,
    Win,
)
from mjenv.engine.legal import claim_options, play_actions, rob_options, self_drawn_win
from mjenv.engine.result import HandResult
from mjenv.engine.rules import MCR, RuleConfig
from mjenv.engine.wall import AnyWall, make_wall
from mjenv.fans import FanResult
from mjenv.melds import ADDED_KONG, CONCEALED_KONG, KONG, PUNG, Meld, shared_chow, shared_meld
from mjenv.tiles import FLOWER_BASE, NUM_KINDS, NUM_TILE_IDS

# Final (here and below): compiled with mypyc, the engine uses them as constants, not lookups
PLAY: Final = 0
CLAIM: Final = 1
ROB: Final = 2
OVER: Final = 3
PHASE_NAMES: Final = ("play", "claim", "rob", "over")
TURN_DRAW: Final = 0  # how the seat to discard got its tile: a draw ...
TURN_CLAIM: Final = 1  # ... or its own chow or pung
PENALIZE: Final = -1
"""The entry :meth:`Game.penalize` leaves in :attr:`Game.actions` (not an action id)."""

CLAIM_PRIORITY: Final[dict[int, int]] = {
    A.K_WIN: 3, A.K_KONG: 2, A.K_PUNG: 2, A.K_CHOW: 1, A.K_PASS: 0,
}
"""The one priority table for claims (kind -> rank); equal ranks go to the first seat
counter-clockwise from the discarder."""

_DECODED: Final[tuple[tuple[int, int], ...]] = tuple(A.decode(a) for a in range(A.NUM_ACTIONS))
"""``A.decode`` of every action id, by id: the engine decodes each step's action (already
checked legal) by indexing this instead of calling it (it checks its argument first)."""

_DRAWS: Final[tuple[tuple[Any, ...], ...]] = tuple(
    tuple(Draw(seat, t, replacement=r) for t in range(NUM_TILE_IDS) for r in (False, True))
    for seat in range(4))
"""Every :class:`Draw` event, made once and shared (``_DRAWS[seat][2 * tile + replacement]``;
events are frozen), as :data:`_DISCARDS` every :class:`Discard`: a draw and a discard happen
at nearly every turn, and a compiled frozen dataclass is still built through the ``__init__``
that :mod:`dataclasses` writes in Python (about 0.5 µs an event, issue 15)."""

_DISCARDS: Final[tuple[tuple[Any, ...], ...]] = tuple(
    tuple(Discard(seat, t) for t in range(NUM_KINDS)) for seat in range(4))

_SEAT_ACTIONS: Final[tuple[tuple[Any, ...], ...]] = tuple(
    tuple((seat, a) for a in range(A.NUM_ACTIONS)) for seat in range(4))
"""Every ``(seat, action)`` entry :meth:`Game.step` can log in :attr:`Game.actions`, made once:
the log then holds these, not a new tuple per step. Why: each new tuple counts towards the next
collection of Python's garbage collector until one untracks it, and a batch of a thousand
tables logs a thousand a step (issue 15: two thirds of the objects a batch step left behind).
Typed ``Any``: compiled with mypyc, a ``tuple[int, int]`` read from the table would be unpacked
and packed again into a new tuple."""


class _SeatFacts:
    """One seat's :class:`~mjenv.engine.legal.SeatFacts` as the engine knows them: references to
    the game's own lists and wall, which the game changes in place and never replaces, so the
    facts never go stale (:meth:`Game.clone` makes new ones for the copy), and the seat's
    cached waits."""

    __slots__ = ("seat", "hand", "melds", "flowers", "seat_wind", "prevalent_wind", "visible",
                 "wall", "waits")

    def __init__(self, game: Game, seat: int, waits: tuple[int, ...] = ()) -> None:
        self.seat = seat
        self.hand: list[int] = game.hands[seat]
        self.melds: list[Meld] = game.melds[seat]
        self.flowers: list[int] = game.flowers[seat]
        self.seat_wind = game.seat_wind(seat)
        self.prevalent_wind = game.prevalent_wind
        self.visible: list[int] = game.visible
        self.wall: AnyWall = game.wall
        self.waits = waits
        """The one piece of state here: the seat's waits, updated by the game after every change
        of its hand (so a draw turn's waits are those of the hand before the draw)."""


def _rows(rows: list[list[Any]]) -> list[list[Any]]:
    return [r[:] for r in rows]


def _share(value: Any) -> Any:
    return value


CLONE_FIELDS: dict[str, Callable[[Any], Any]] = {
    # shared: immutable, or replaced but never changed in place
    "rules": _share, "dealer": _share, "prevalent_wind": _share, "result": _share,
    "phase": _share, "current": _share, "holder": _share, "turn_kind": _share,
    "drawn_tile": _share, "kong_draw": _share, "claim_tile": _share,
    "_play_legal": _share,  # a cached list, replaced and never changed
    # copied: changed in place (the lists of immutable items and the dicts one level deep: the
    # option lists and FanResults in them are never changed)
    "wall": lambda w: w.clone(),
    "hands": _rows, "melds": _rows, "discards": _rows, "flowers": _rows,
    "visible": list.copy, "scores": list.copy, "events": list.copy, "actions": list.copy,
    "_options": dict.copy, "_answers": dict.copy, "_wins": dict.copy,
    "_out": lambda _: [],  # the events of the step in progress: scratch
}
"""Every field of a :class:`Game` but :data:`REBUILT_FIELDS`, and how :meth:`Game.clone`
copies it. A new field must be added here or there (tests/engine/test_clone.py checks)."""

REBUILT_FIELDS = ("_facts", "_windows")
"""The fields :meth:`Game.clone` builds anew for the copy: the seats' facts (views of the
copied lists, and each seat's waits) and their window orders."""


class Game:
    """One hand. See the module docstring."""

    def __init__(self, rules: RuleConfig = MCR, seed: int | None = None,
                 wall: list[int] | list[str] | tuple[int, ...] | None = None,
                 dealer: int = 0, prevalent_wind: int = 0) -> None:
        for name, value in (("dealer", dealer), ("prevalent_wind", prevalent_wind)):
            if not isinstance(value, int) or not 0 <= value <= 3:
                raise ValueError(f"{name} must be 0..3, got {value!r}")
        if rules.fixed_dealer is not None and dealer != rules.fixed_dealer:
            raise ValueError(f"the {rules.profile} profile fixes the dealer at seat "
                             f"{rules.fixed_dealer}, got dealer={dealer}")
        self.rules = rules
        self.wall = make_wall(rules, wall, seed)
        self.dealer = dealer
        self.prevalent_wind = prevalent_wind
        self.hands: list[list[int]] = [[0] * NUM_KINDS for _ in range(4)]
        self.melds: list[list[Meld]] = [[] for _ in range(4)]
        self.discards: list[list[int]] = [[] for _ in range(4)]
        self.flowers: list[list[int]] = [[] for _ in range(4)]
        self.visible: list[int] = [0] * NUM_KINDS
        self.scores: list[int] = [0, 0, 0, 0]
        self.events: list[Event] = []
        self.actions: list[tuple[int, int]] = []
        """Every applied ``(seat, action id)`` in order, ``(seat, PENALIZE)`` for a penalty:
        with the wall, dealer and wind this is the whole hand (see mjenv.engine.record)."""
        self.result: HandResult | None = None
        self.phase = PLAY
        self.current = dealer
        """The seat to discard (PLAY), the discarder (CLAIM) or the kong declarer (ROB)."""
        self.holder: int | None = None
        """The seat holding a 14th tile (to discard, declaring an added kong, or the winner)."""
        self.turn_kind = TURN_DRAW
        self.drawn_tile = -1
        self.kong_draw = False
        self.claim_tile = -1
        self._options: dict[int, list[int]] = {}
        self._answers: dict[int, int] = {}
        self._wins: dict[int, FanResult | None] = {}
        self._play_legal: list[int] | None = None
        self._out: list[Event] = []
        self._facts = tuple(_SeatFacts(self, s) for s in range(4))
        self._windows = self._window_seats()
        self._deal()
        self.events.extend(self._out)

    # ================================================================ public surface
    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    def seat_wind(self, seat: int) -> int:
        return (seat - self.dealer) % 4

    def to_act(self) -> tuple[int, ...]:
        """Seats with a pending decision (in a window, in counter-clockwise order)."""
        if self.phase == PLAY:
            return (self.current,)
        if self.phase == OVER:
            return ()
        return tuple(s for s in self._window_order() if s in self._options
                     and s not in self._answers)

    def state_objects(self) -> list[object]:
        """The objects holding this hand's state that a step reads or changes in place: the
        game, its wall's counts, the seats' lists and facts and the two logs. For a batch that
        prefetches a game's memory before stepping it (:mod:`mjenv.vector.prefetch`); they stay
        the same objects until the hand ends. A new list at each call, a hint about memory:
        the fields and methods above stay the way to the state."""
        out: list[object] = [self, self.wall, self.wall.counts, self.hands, self.melds,
                             self.discards, self.flowers, self.visible, self.events,
                             self.actions, self._facts]
        out.extend(self.hands)
        out.extend(self.melds)
        out.extend(self.discards)
        out.extend(self.flowers)
        out.extend(self._facts)
        return out

    def legal_actions(self, seat: int) -> list[int]:
        """The legal action ids of ``seat`` now, ascending (empty when it is not asked): a new
        list the caller may keep and change."""
        return list(self.legal(seat))

    def legal(self, seat: int) -> Sequence[int]:
        """:meth:`legal_actions` without the copy, for hot loops (an action mask, a membership
        test): the game's own list, valid until the next step and never to be changed."""
        if self.phase == PLAY:
            if seat != self.current:
                return ()
            legal = self._play_legal
            if legal is None:
                legal = self._play_legal = play_actions(
                    self._facts[seat], self.rules, self.drawn_tile, self.kong_draw)
            return legal
        if self.phase == OVER or seat in self._answers:
            return ()
        return self._options.get(seat, ())

    def step(self, seat: int, action: SupportsIndex) -> list[Event]:
        """Apply ``seat``'s ``action``; returns the events it produced (forced moves included).

        An illegal action raises ValueError naming the legal ones; the game is unchanged.
        ``action`` is an id (an int, or a numpy integer); anything else is refused with
        ValueError too (hence the loose annotation: compiled with mypyc, an ``int`` annotation
        would turn that into the call's TypeError).
        """
        if self.phase == OVER:
            raise ValueError("the hand is over")
        try:
            a = operator.index(action)
        except TypeError:
            raise ValueError(f"an action is an int id, got {action!r}") from None
        legal = self.legal(seat)
        if a not in legal:
            what = A.action_to_string(a) if 0 <= a < A.NUM_ACTIONS else repr(a)
            if not legal:
                raise ValueError(f"seat {seat} is not to act ({what}); seats to act: "
                                 f"{list(self.to_act())}")
            names = ", ".join(f"{x} {A.action_to_string(x)}" for x in legal)
            raise ValueError(f"illegal action {a} ({what}) for seat {seat}; legal: {names}")
        self._out = []
        if self.phase == PLAY:
            self._play(seat, a)
        else:
            self._answers[seat] = a
            if len(self._answers) == len(self._options):
                self._resolve()
        self.actions.append(_SEAT_ACTIONS[seat][a])
        self.events.extend(self._out)
        return self._out

    def penalize(self, seat: int) -> list[Event]:
        """End the hand with the profile's penalty: ``seat`` pays, each other seat receives."""
        if self.phase == OVER:
            raise ValueError("the hand is over")
        if not 0 <= seat <= 3:
            raise ValueError(f"seat must be 0..3, got {seat!r}")
        self._out = []
        self._penalty(seat)
        self.actions.append((seat, PENALIZE))
        self.events.extend(self._out)
        return self._out

    def clone(self) -> Game:
        """An independent copy (shares only immutable data): every field copied as
        :data:`CLONE_FIELDS` says."""
        return _restore({name: copy(getattr(self, name)) for name, copy in CLONE_FIELDS.items()},
                        tuple(f.waits for f in self._facts))

    def __reduce__(self) -> tuple[Callable[..., Game], tuple[object, ...]]:
        """Pickling and deep copies: the fields (all but :data:`REBUILT_FIELDS`) and the seats'
        waits, restored as :meth:`clone` restores its copy (see :func:`_restore`)."""
        return _restore, ({name: getattr(self, name) for name in CLONE_FIELDS},
                          tuple(f.waits for f in self._facts))

    def _window_seats(self) -> tuple[tuple[_SeatFacts, ...], ...]:
        """By discarder (or kong declarer): the facts of the three other seats in window order,
        counter-clockwise."""
        f = self._facts
        return tuple((f[(d + 1) % 4], f[(d + 2) % 4], f[(d + 3) % 4]) for d in range(4))

    def waiting_tiles(self, seat: int) -> tuple[int, ...]:
        """The cached winning kinds (shape only) of ``seat``'s last 13-form hand."""
        return self._facts[seat].waits

    def hand_tiles(self, seat: int) -> list[int]:
        """``seat``'s standing tiles as a sorted list of ids."""
        return [t for t in range(NUM_KINDS) for _ in range(self.hands[seat][t])]

    # ================================================================ dealing
    def _deal(self) -> None:
        wall = self.wall
        order = [(self.dealer + i) % 4 for i in range(4)]
        dealt = wall.deal(self.dealer)
        pending: list[list[int]] = [[], [], [], []]
        for s in order:
            self._out.append(Deal(s, tuple(dealt[s])))
            for t in dealt[s]:
                if t >= FLOWER_BASE:
                    pending[s].append(t)
                else:
                    self.hands[s][t] += 1
        while any(pending):  # initial replacement in rounds (§1.4 step 2)
            nxt: list[list[int]] = [[], [], [], []]
            for s in order:
                for f in pending[s]:
                    self.flowers[s].append(f)
                    self._out.append(Flower(s, f, initial=True))
                for _ in pending[s]:
                    t = wall.draw_replacement(s)
                    self._out.append(_DRAWS[s][2 * t + 1])
                    if t >= FLOWER_BASE:
                        nxt[s].append(t)
                    else:
                        self.hands[s][t] += 1
            pending = nxt
        for s in range(4):
            self._update_waits(s)
        self._draw(self.dealer, replacement=False, after_kong=False)

    def _update_waits(self, seat: int) -> None:
        self._facts[seat].waits = tuple(waiting_counts(self.hands[seat][:],
                                                       len(self.melds[seat])))

    def _draw(self, seat: int, replacement: bool, after_kong: bool) -> None:
        """Draw for ``seat`` (head, or tail for a replacement), replacing flowers. Where no tile
        is left for it the hand is a draw: a flower with nothing to replace it (§1.5 step 6),
        or, with per-seat walls, a kong on a discard made while the claimant's own part is
        empty (mjenv.engine.legal: the judge allows that kong)."""
        wall = self.wall
        while True:
            if not wall.can_draw(seat):
                self.holder = None
                self._end_draw(seat)
                return
            t = wall.draw_replacement(seat) if replacement else wall.draw(seat)
            if t >= FLOWER_BASE:
                self.flowers[seat].append(t)
                self._out.append(Flower(seat, t))
                replacement, after_kong = True, False
                continue
            self.hands[seat][t] += 1
            self._out.append(_DRAWS[seat][2 * t + replacement])
            self.phase = PLAY
            self.current = seat
            self.holder = seat
            self.turn_kind = TURN_DRAW
            self.drawn_tile = t
            self.kong_draw = after_kong
            self._play_legal = None
            return

    # ================================================================ the seat to discard
    def _play(self, seat: int, a: int) -> None:
        kind, t = _DECODED[a]
        h = self.hands[seat]
        if kind == A.K_DISCARD:
            h[t] -= 1
            self.discards[seat].append(t)
            self.visible[t] += 1
            self.holder = None
            self._out.append(_DISCARDS[seat][t])
            if self.turn_kind != TURN_DRAW or t != self.drawn_tile:
                self._update_waits(seat)
            # else the drawn tile went straight out: the hand is the one the waits were
            # last computed for (every draw follows an update), so they stand
            self._open_claims(seat, t)
        elif kind == A.K_WIN:
            res = self_drawn_win(self._facts[seat], self.rules, self.drawn_tile,
                                   self.kong_draw)
            if res is None:
                self._penalty(seat)
            else:
                self._finish_win(seat, self.drawn_tile, None, res, robbed=False)
        elif kind == A.K_CONCEALED_KONG:
            h[t] -= 4
            self.melds[seat].append(shared_meld(CONCEALED_KONG, t, None))
            self._out.append(ConcealedKong(seat, t))
            self._update_waits(seat)
            self._draw(seat, replacement=True, after_kong=True)
        else:  # added kong: open the robbing window
            self._out.append(AddedKong(seat, t))
            self._open_rob(seat, t)

    # ================================================================ windows
    def _window_order(self) -> tuple[int, int, int]:
        d = self.current
        return ((d + 1) % 4, (d + 2) % 4, (d + 3) % 4)

    def _open_claims(self, d: int, t: int) -> None:
        self.phase = CLAIM
        self.current = d
        self.claim_tile = t
        self._answers = {}
        self._options, self._wins = claim_options(self._windows[d], self.rules, t, d)
        if not self._options:
            self._no_claim()

    def _open_rob(self, k: int, t: int) -> None:
        self.phase = ROB
        self.current = k
        self.claim_tile = t
        self._answers = {}
        self._options, self._wins = rob_options(self._windows[k], self.rules, t)
        if not self._options:
            self._complete_added_kong()

    def _resolve(self) -> None:
        best_seat, best_action, best_rank = -1, A.PASS, 0
        for s in self._window_order():
            a = self._answers.get(s, A.PASS)
            rank = CLAIM_PRIORITY[_DECODED[a][0]]
            if rank > best_rank:
                best_seat, best_action, best_rank = s, a, rank
        d, t = self.current, self.claim_tile
        self._options, self._answers = {}, {}
        if best_action == A.PASS:
            if self.phase == ROB:
                self._complete_added_kong()
            else:
                self._no_claim()
            return
        s = best_seat
        if best_action == A.WIN:
            res = self._wins.get(s)
            if res is None:
                self._penalty(s)
                return
            robbed = self.phase == ROB
            if robbed:
                self.hands[d][t] -= 1
            else:
                self.discards[d].pop()
                self.visible[t] -= 1
            self._finish_win(s, t, d, res, robbed=robbed)
            return
        # a meld from the discard
        self.discards[d].pop()
        h = self.hands[s]
        kind = _DECODED[best_action][0]
        offset = (d - s) % 4
        if kind == A.K_KONG:
            h[t] -= 3
            self.visible[t] += 3
            self.melds[s].append(shared_meld(KONG, t, offset))
            self._out.append(Kong(s, d, t))
            self._update_waits(s)
            self._draw(s, replacement=True, after_kong=True)
            return
        if kind == A.K_PUNG:
            h[t] -= 2
            self.visible[t] += 2
            self.melds[s].append(shared_meld(PUNG, t, offset))
            self._out.append(Pung(s, d, t))
        else:
            middle, _ = A.decode_chow(best_action)
            for x in (middle - 1, middle, middle + 1):
                if x != t:
                    h[x] -= 1
                    self.visible[x] += 1
            self.melds[s].append(shared_chow(middle - 1, t))
            self._out.append(Chow(s, d, (middle - 1, middle, middle + 1), t))
        self.phase = PLAY
        self.current = s
        self.holder = s
        self.turn_kind = TURN_CLAIM
        self.drawn_tile = -1
        self.kong_draw = False
        self._play_legal = None

    def _no_claim(self) -> None:
        d = self.current
        nxt = (d + 1) % 4
        if self.wall.can_draw(nxt):
            self._draw(nxt, replacement=False, after_kong=False)
        else:
            self._end_draw(d)

    def _complete_added_kong(self) -> None:
        k, t = self.current, self.claim_tile
        melds = self.melds[k]
        for i, m in enumerate(melds):
            if m.kind == PUNG and m.first == t:
                melds[i] = shared_meld(ADDED_KONG, t, m.from_offset)
                break
        self.hands[k][t] -= 1
        self.visible[t] += 1
        self._update_waits(k)
        self._draw(k, replacement=True, after_kong=True)

    # ================================================================ endings
    def _revealed(self) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(m.first for m in ms if m.kind == CONCEALED_KONG) for ms in self.melds)

    def _finish_win(self, s: int, t: int, from_seat: int | None, res: FanResult,
                    robbed: bool) -> None:
        if from_seat is not None:
            self.hands[s][t] += 1
        f = res.total
        base = self.rules.base_points
        pay = [0, 0, 0, 0]
        for o in range(4):
            if o == s:
                continue
            if from_seat is None or o == from_seat:
                pay[o] = -(base + f)
            else:
                pay[o] = -base
        pay[s] = -sum(pay)
        payments = (pay[0], pay[1], pay[2], pay[3])
        fans = tuple((e.zh, e.count) for e in res.fans)
        self._settle(payments)
        self.holder = s
        self.result = HandResult(winner=s, from_seat=from_seat, self_drawn=from_seat is None,
                                 robbed=robbed, win_tile=t, fan_total=f, fans=fans,
                                 payments=payments, penalized=None)
        self._out.append(Win(s, t, from_seat, robbed, f, fans, payments, self._revealed()))

    def _end_draw(self, seat: int) -> None:
        self._settle((0, 0, 0, 0))
        self.result = HandResult(winner=None, from_seat=None, self_drawn=False, robbed=False,
                                 win_tile=None, fan_total=0, fans=(), payments=(0, 0, 0, 0),
                                 penalized=None)
        self._out.append(DrawGame(seat, self._revealed()))

    def _penalty(self, seat: int) -> None:
        other = self.rules.penalty_others
        pay = [other] * 4
        pay[seat] = self.rules.penalty_offender
        payments = (pay[0], pay[1], pay[2], pay[3])
        self._settle(payments)
        self.result = HandResult(winner=None, from_seat=None, self_drawn=False, robbed=False,
                                 win_tile=None, fan_total=0, fans=(), payments=payments,
                                 penalized=seat)
        self._out.append(Penalty(seat, payments, self._revealed()))

    def _settle(self, payments: tuple[int, int, int, int]) -> None:
        for s in range(4):
            self.scores[s] += payments[s]
        self.phase = OVER
        self._options, self._answers = {}, {}
        self._play_legal = None


def _restore(fields: dict[str, Any], waits: tuple[tuple[int, ...], ...]) -> Game:
    """A game holding ``fields`` (every field of :data:`CLONE_FIELDS`, taken as they are), with
    the seats' facts built anew over them and each seat's ``waits``.

    The game is made by the constructor (the same wall dealt again), then every field is
    replaced: a class compiled with mypyc has no ``__dict__`` to fill, and its ``__new__`` runs
    ``__init__`` anyway."""
    g = Game(fields["rules"], wall=fields["wall"].tiles, dealer=fields["dealer"],
             prevalent_wind=fields["prevalent_wind"])
    for name, value in fields.items():
        setattr(g, name, value)
    g._facts = tuple(_SeatFacts(g, s, w) for s, w in enumerate(waits))
    g._windows = g._window_seats()
    return g

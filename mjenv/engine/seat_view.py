"""What one seat knows of a hand, folded only from the events that seat may see.

>>> from mjenv.engine import Game
>>> g = Game(seed=1)
>>> v = fold(g.events, seat=2, dealer=g.dealer, prevalent_wind=g.prevalent_wind)
>>> v.hand == g.hands[2] and v.tiles_left == g.wall.remaining
True

Why a separate fold: an agent (or a feature encoder) must never be able to read another seat's
hidden tiles, so it should not look at :class:`~mjenv.engine.game.Game` at all. A
:class:`SeatView` is rebuilt from the event stream alone, and :meth:`SeatView.apply` reads
the hidden fields of a private event (a deal, a draw, a concealed kong's tile) only when it is
the viewer's own, exactly as if it had redacted the event first
(:func:`mjenv.engine.events.view`), so feeding it the game's full (referee's) event list is
safe: another seat's draws, deal and concealed kongs fold as their redacted copies. Already-
redacted events are accepted too (they fold the same), so the result is the same whichever
list a caller holds.

The fold mirrors the engine's own bookkeeping wherever the information is public or the seat's
own, so tests can compare it with the game after every step:

* ``hand`` equals ``Game.hands[seat]`` (34 counts); an added kong stays a pung (and its tile
  stays in the declarer's hand) until the replacement draw shows it was not robbed, exactly as
  the engine completes it;
* ``melds[s]`` equals ``Game.melds[s]``, except that another seat's concealed kong is the
  :data:`HIDDEN_KONG` placeholder until the final event reveals it;
* ``discards[s]`` (the pool) equals ``Game.discards[s]``; ``river[s]`` keeps every discard in
  order, with ``claimed_by[s]`` naming the seat that took each one (chow, pung, kong or a win);
* ``flowers[s]`` equals ``Game.flowers[s]``; ``tiles_left`` equals ``Game.wall.remaining``;
* ``result`` equals ``Game.result`` once the hand is over.

``tiles_left`` is counted, not read: the wall size minus 13 per deal (another seat's deal shows
no tiles but still took 13), one per draw (replacements included, and the replacement draws of
the initial flower replacement), and one per flower exposed during play (a flower drawn from
the wall appears only as a :class:`~mjenv.engine.events.Flower` event; an ``initial`` one came
from the deal or an earlier replacement draw that was already counted).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Final

from mjenv.engine.events import (
    HIDDEN,
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
from mjenv.engine.result import HandResult
from mjenv.melds import ADDED_KONG, CONCEALED_KONG, KONG, PUNG, Meld, shared_chow, shared_meld
from mjenv.tiles import NUM_KINDS

if TYPE_CHECKING:
    from mjenv.engine.game import Game

_KINDS: Final = NUM_KINDS
"""``NUM_KINDS`` as a constant of this module: compiled with mypyc, a Final name is read
directly, an imported one looked up at every use (``apply`` compares every drawn tile)."""


def _hidden_kong() -> Meld:
    # Meld validates its tiles (ids 0..41), and a hidden tile is -1, so build the placeholder
    # without __init__. It is one shared frozen object: compare with ``is`` or ``==``.
    m = Meld.__new__(Meld)
    object.__setattr__(m, "kind", CONCEALED_KONG)
    object.__setattr__(m, "tiles", (HIDDEN,) * 4)
    object.__setattr__(m, "claimed", None)
    object.__setattr__(m, "from_offset", None)
    return m


HIDDEN_KONG: Meld = _hidden_kong()
"""Another seat's concealed kong before the end: kind ``concealed_kong``, tiles ``(-1,) * 4``.
Its tiles are not real ids, so do not pass it to the fan calculator, ``describe`` or
``to_dict``; test ``m is HIDDEN_KONG`` (or ``m.first == HIDDEN``)."""


_FIELDS = (
    "seat", "dealer", "prevalent_wind", "num_tiles",
    "hand", "drawn", "melds", "river", "claimed_by", "river_counts", "claimed_counts",
    "discards", "flowers",
    "tiles_left", "wall_taken", "unseen", "last_discard", "last_discarder",
    "claim_tile", "claim_from", "claim_rob", "last_actor", "num_events",
    "over", "result", "revealed",
)
"""Every field of a :class:`SeatView`: its ``__slots__`` but the bookkeeping of
``of_table`` and ``river_stamps``, which equality and pickles leave out
(named here because a class compiled with mypyc has no ``__slots__`` attribute to read back)."""

PUBLIC_LISTS: Final = ("river", "claimed_by", "river_counts", "claimed_counts", "discards",
                       "flowers", "wall_taken", "river_stamps")
"""The fields that are the same for every seat of a table, whatever it sees: a
:class:`TableViews` keeps one copy of them for its four views."""


def _check_seat_number(name: str, value: object) -> None:
    if not isinstance(value, int) or not 0 <= value <= 3:
        raise ValueError(f"{name} must be 0..3, got {value!r}")


_NO_TILES: Final[list[int]] = [0] * NUM_KINDS
_NO_KINDS: Final = bytes(NUM_KINDS)
_ALL_UNSEEN: Final[list[int]] = [4] * NUM_KINDS


class SeatView:
    """One seat's knowledge of a hand; :meth:`apply` folds one event at a time.

    Built empty (before the deal) from what every seat knows before the first tile moves: its
    seat, the dealer, the prevalent wind and the wall size (144 with flowers, 136 without; use
    ``rules.num_tiles``). All list fields are owned by the view and mutated in place by
    :meth:`apply`; treat them as read-only (use :meth:`clone` to branch).

    Fields (seats are absolute, 0..3):

    ``hand``
        this seat's standing tiles, 34 counts.
    ``drawn``
        the tile this seat has just drawn, while that draw is the latest event (so: the fresh
        tile when this seat is to discard after a draw), else -1.
    ``melds[s]``
        every seat's melds in declaration order (``Meld`` with ``from_offset``); another
        seat's concealed kong is :data:`HIDDEN_KONG` until the end.
    ``river[s]``, ``claimed_by[s]``
        every tile ``s`` discarded, in order, and for each the seat that claimed it (chow, pung,
        kong, or a win on it) or -1.
    ``river_counts[s]``, ``claimed_counts[s]``
        34 counts (a ``bytearray``) of the tiles in ``river[s]``, and of those claimed: kept
        with the river so that encoders need not recount it.
    ``discards[s]``
        the pool: the tiles of ``river[s]`` still lying there.
    ``flowers[s]``
        the flowers ``s`` has exposed, in order.
    ``tiles_left``
        the tiles still in the wall (see the module docstring).
    ``wall_taken[s]``
        how many tiles ``s`` has taken from the wall (its deal, draws, replacements and flowers
        drawn in play); with per-seat walls (the botzone profile) :meth:`seat_tiles_left` turns
        it into the tiles left in ``s``'s part.
    ``river_stamps[s]``
        a number that changes whenever ``river[s]``, ``claimed_by[s]``, ``river_counts[s]``
        or ``claimed_counts[s]`` change, and never comes back while those lists live (a new
        hand, :meth:`restart`, moves it on too): a memo that holds the river list can tell it
        unchanged by its stamp, without comparing contents (the default encoder does). Not
        part of the view's content: equality and pickles leave it out.
    ``unseen``
        34 counts: 4 minus every copy this seat has seen (its own hand and melds, every face-up
        meld tile, every discard whether still in the pool or claimed, an added kong's tile, a
        self-drawn winning tile and the concealed kongs revealed at the end). Never negative.
    ``last_discard``, ``last_discarder``
        the most recent discard and its seat (-1 before the first).
    ``claim_tile``, ``claim_from``, ``claim_rob``
        while a window is open (the latest event is a discard or an added kong): the tile that
        may be claimed (or robbed, ``claim_rob``) and the seat that offered it; else -1, -1,
        False.
    ``last_actor``
        the seat of the latest event (-1 before the first).
    ``num_events``
        how many events were folded: ``view.extend(game.events[view.num_events:])`` catches up.
    ``over``, ``result``, ``revealed``
        whether the final event (Win, DrawGame or Penalty) was folded, the
        :class:`~mjenv.engine.result.HandResult` built from it, and its ``revealed`` concealed
        kongs per seat (None before the end).
    """

    __slots__ = (*_FIELDS, "of_table", "river_stamps")

    def __init__(self, seat: int, *, dealer: int = 0, prevalent_wind: int = 0,
                 num_tiles: int = 144) -> None:
        _check_seat_number("seat", seat)
        if num_tiles not in (136, 144):
            raise ValueError(f"num_tiles must be 136 or 144, got {num_tiles!r}")
        self.seat = seat
        self.num_tiles = num_tiles
        self.hand: list[int] = [0] * NUM_KINDS
        self.melds: list[list[Meld]] = [[] for _ in range(4)]
        self.river: list[list[int]] = [[] for _ in range(4)]
        self.claimed_by: list[list[int]] = [[] for _ in range(4)]
        self.river_counts: list[bytearray] = [bytearray(NUM_KINDS) for _ in range(4)]
        self.claimed_counts: list[bytearray] = [bytearray(NUM_KINDS) for _ in range(4)]
        self.discards: list[list[int]] = [[] for _ in range(4)]
        self.flowers: list[list[int]] = [[] for _ in range(4)]
        self.wall_taken: list[int] = [0, 0, 0, 0]
        self.unseen: list[int] = [4] * NUM_KINDS
        self.result: HandResult | None = None
        self.revealed: tuple[tuple[int, ...], ...] | None = None
        self.of_table = False
        """True for the four views of a :class:`TableViews`: only the table folds and restarts
        them (their :data:`PUBLIC_LISTS` are the first view's, which the table folds and empties
        once), so :meth:`apply` and :meth:`restart` refuse."""
        self.river_stamps: list[int] = [0, 0, 0, 0]
        self._restart(dealer, prevalent_wind, True)

    def state_objects(self) -> list[object]:
        """The view and the lists it folds into (its own and the :data:`PUBLIC_LISTS`, with
        the per-seat lists inside them), for a batch that prefetches a game's memory before
        stepping it (:mod:`mjenv.vector.prefetch`). A new list at each call, a hint about
        memory: the fields stay the way to the view's content."""
        out = self._own_objects()
        out += [self.river, self.claimed_by, self.river_counts, self.claimed_counts,
                self.discards, self.flowers, self.wall_taken, self.river_stamps]
        for s in range(4):
            out += [self.river[s], self.claimed_by[s], self.river_counts[s],
                    self.claimed_counts[s], self.discards[s], self.flowers[s]]
        return out

    def _own_objects(self) -> list[object]:
        """:meth:`state_objects` less the :data:`PUBLIC_LISTS` (a :class:`TableViews` gives
        those once)."""
        out: list[object] = [self, self.hand, self.unseen, self.melds]
        out.extend(self.melds)
        return out

    def restart(self, *, dealer: int, prevalent_wind: int) -> None:
        """Make this the view of a new hand before its first event, for the same seat and
        wall size, emptying the view's lists in place rather than making new ones. Why: a batch
        of a thousand tables starts a few hands every step, and the hundred-odd lists of four
        new views per hand fed the older generations of Python's garbage collector (with the
        engine's shared action-log entries, the collector's share of a step at N = 1,024 fell
        from 11-12% to 4-5%: docs/vector.md). A reference to a list of this view taken before
        the restart sees the new hand; :meth:`clone` when the old one must be kept.
        ValueError for a view of a :class:`TableViews` (restart the table)."""
        if self.of_table:
            raise ValueError("this view is one of a TableViews: restart the table with "
                             "TableViews.restart, or clone() the view to use it alone")
        self._restart(dealer, prevalent_wind, True)

    def _restart(self, dealer: int, prevalent_wind: int, public: bool) -> None:
        """:meth:`restart`, for the view itself or its table; the :data:`PUBLIC_LISTS` are
        emptied too where ``public`` (as :meth:`_fold` folds them)."""
        _check_seat_number("dealer", dealer)
        _check_seat_number("prevalent_wind", prevalent_wind)
        self.dealer = dealer
        self.prevalent_wind = prevalent_wind
        self.hand[:] = _NO_TILES
        self.drawn = -1
        for s in range(4):
            self.melds[s].clear()
            if public:
                self.river[s].clear()
                self.claimed_by[s].clear()
                self.river_counts[s][:] = _NO_KINDS
                self.claimed_counts[s][:] = _NO_KINDS
                self.discards[s].clear()
                self.flowers[s].clear()
                self.wall_taken[s] = 0
                self.river_stamps[s] += 1
        self.tiles_left = self.num_tiles
        self.unseen[:] = _ALL_UNSEEN
        self.last_discard = -1
        self.last_discarder = -1
        self.claim_tile = -1
        self.claim_from = -1
        self.claim_rob = False
        self.last_actor = -1
        self.num_events = 0
        self.over = False
        self.result = None
        self.revealed = None

    @classmethod
    def of_game(cls, game: Game, seat: int) -> SeatView:
        """``seat``'s view of ``game`` so far. Reads only public facts of the game (dealer,
        prevalent wind, wall size) and its event list, which :meth:`apply` folds as the seat
        sees it."""
        v = cls(seat, dealer=game.dealer, prevalent_wind=game.prevalent_wind,
                num_tiles=game.rules.num_tiles)
        v.extend(game.events)
        return v

    # ================================================================ derived facts
    @property
    def seat_wind(self) -> int:
        """This seat's wind (0 E .. 3 N): the dealer is East."""
        return (self.seat - self.dealer) % 4

    def seat_tiles_left(self, s: int) -> int:
        """The tiles left in seat ``s``'s part of a per-seat wall (``wall_layout="per_seat"``,
        a quarter of the tiles each); meaningless for the shared wall."""
        return self.num_tiles // 4 - self.wall_taken[s]

    def hand_tiles(self) -> list[int]:
        """This seat's standing tiles as a sorted list of ids."""
        return [t for t in range(NUM_KINDS) for _ in range(self.hand[t])]

    # ================================================================ folding
    def extend(self, events: Iterable[Event]) -> None:
        """:meth:`apply` each event in order."""
        for e in events:
            self.apply(e)

    def apply(self, event: Event) -> None:
        """Fold one event as this seat sees it.

        Another seat's private event (its deal, draw or concealed kong) is folded without
        reading its hidden fields, exactly as its redacted copy
        (:func:`~mjenv.engine.events.view`) would be: a raw event and its redacted copy fold
        identically. ValueError after the final event: a hand has no more, and for a view of
        a :class:`TableViews` (the table folds its four views together).
        """
        if self.of_table:
            raise ValueError("this view is one of a TableViews: fold the table's events "
                             "with TableViews.catch_up, or clone() the view to fold it alone")
        self._fold(event, True)

    def _fold(self, event: Event, public: bool) -> None:  # noqa: C901 (a branch per event kind)
        """:meth:`apply`, folding the :data:`PUBLIC_LISTS` too where ``public``."""
        if self.over:
            raise ValueError("the hand is over: no event follows the final one")
        e = event
        me = self.seat
        s = e.seat
        if not 0 <= s <= 3:
            raise ValueError(f"event seat must be 0..3, got {s!r}")
        if self.num_events == 0 and isinstance(e, Deal) and s != self.dealer:
            raise ValueError(f"the first deal goes to the dealer {self.dealer}, not seat {s}")
        # an added kong that was not robbed completes when its declarer gets the replacement
        if self.claim_rob:
            if s == self.claim_from and isinstance(e, (Draw, Flower)) \
                    and not (isinstance(e, Flower) and e.initial):
                self._complete_added_kong(s, self.claim_tile)
            self.claim_rob = False
        self.claim_tile = self.claim_from = self.drawn = -1
        self.last_actor = s
        self.num_events += 1

        # the branches test the commonest events first; only ``s == me`` reads private fields
        if isinstance(e, Draw):
            self.tiles_left -= 1
            if public:
                self.wall_taken[s] += 1
            if s == me:
                t = e.tile
                if 0 <= t < _KINDS:
                    self.hand[t] += 1
                    self.unseen[t] -= 1
                    self.drawn = t
        elif isinstance(e, Discard):
            t = e.tile
            if s == me:
                self.hand[t] -= 1
            else:
                self.unseen[t] -= 1
            if public:
                self.river[s].append(t)
                self.claimed_by[s].append(-1)
                self.river_counts[s][t] += 1
                self.discards[s].append(t)
                self.river_stamps[s] += 1
            self.last_discard = self.claim_tile = t
            self.last_discarder = self.claim_from = s
        elif isinstance(e, Flower):
            if not e.initial:  # drawn from the wall during play, with no Draw event
                self.tiles_left -= 1
                if public:
                    self.wall_taken[s] += 1
            if public:
                self.flowers[s].append(e.tile)
        elif isinstance(e, Deal):
            self.tiles_left -= 13
            if public:
                self.wall_taken[s] += 13
            if s == me:
                for t in e.tiles:
                    if t < _KINDS:
                        self._see_own(t)
        elif isinstance(e, Chow):
            if public:
                self._take_discard(s, e.from_seat, e.claimed)
            for x in e.tiles:
                if x != e.claimed:
                    self._move_to_meld(s, x, 1)
            self.melds[s].append(shared_chow(e.tiles[0], e.claimed))
        elif isinstance(e, Pung):
            if public:
                self._take_discard(s, e.from_seat, e.tile)
            self._move_to_meld(s, e.tile, 2)
            self.melds[s].append(shared_meld(PUNG, e.tile, (e.from_seat - s) % 4))
        elif isinstance(e, Kong):
            if public:
                self._take_discard(s, e.from_seat, e.tile)
            self._move_to_meld(s, e.tile, 3)
            self.melds[s].append(shared_meld(KONG, e.tile, (e.from_seat - s) % 4))
        elif isinstance(e, AddedKong):
            if s != me:
                self.unseen[e.tile] -= 1
            self.claim_tile, self.claim_from, self.claim_rob = e.tile, s, True
        elif isinstance(e, ConcealedKong):
            if s == me:
                self.hand[e.tile] -= 4
                self.melds[s].append(shared_meld(CONCEALED_KONG, e.tile, None))
            else:
                self.melds[s].append(HIDDEN_KONG)
        elif isinstance(e, Win):
            self._win(e, public)
        elif isinstance(e, DrawGame):
            self._finish(e.revealed, HandResult(
                winner=None, from_seat=None, self_drawn=False, robbed=False, win_tile=None,
                fan_total=0, fans=(), payments=(0, 0, 0, 0), penalized=None))
        elif isinstance(e, Penalty):
            self._finish(e.revealed, HandResult(
                winner=None, from_seat=None, self_drawn=False, robbed=False, win_tile=None,
                fan_total=0, fans=(), payments=e.payments, penalized=s))
        else:
            raise ValueError(f"unknown event {e!r}")

    # ---------------------------------------------------------------- helpers
    def _see_own(self, t: int) -> None:
        """A tile enters this seat's hand from the wall: seen for the first time."""
        self.hand[t] += 1
        self.unseen[t] -= 1

    def _take_discard(self, claimer: int, discarder: int, t: int) -> None:
        """The latest discard of ``discarder`` leaves the pool (it stays in the river)."""
        pool = self.discards[discarder]
        if not pool or pool[-1] != t:
            raise ValueError(f"seat {claimer} claims {t} but seat {discarder}'s latest pool "
                             f"tile is {pool[-1] if pool else None}")
        pool.pop()
        self.claimed_by[discarder][-1] = claimer
        self.claimed_counts[discarder][t] += 1
        self.river_stamps[discarder] += 1

    def _move_to_meld(self, s: int, t: int, n: int) -> None:
        """``n`` copies of ``t`` go from ``s``'s hand to a face-up meld."""
        if s == self.seat:
            self.hand[t] -= n
        else:
            self.unseen[t] -= n

    def _complete_added_kong(self, s: int, t: int) -> None:
        ms = self.melds[s]
        for i, m in enumerate(ms):
            if m.kind == PUNG and m.first == t:
                ms[i] = shared_meld(ADDED_KONG, t, m.from_offset)
                break
        else:
            raise ValueError(f"seat {s} adds {t} to a kong but has no such pung")
        if s == self.seat:
            self.hand[t] -= 1

    def _win(self, e: Win, public: bool) -> None:
        me, s, t = self.seat, e.seat, e.tile
        if e.from_seat is None:  # self-drawn: the tile is already in the winner's hand
            if s != me:
                self.unseen[t] -= 1
        else:
            if e.robbed:  # the added kong's tile (already seen) moves to the winner
                if e.from_seat == me:
                    self.hand[t] -= 1
            elif public:
                self._take_discard(s, e.from_seat, t)
            if s == me:
                self.hand[t] += 1
        self._finish(e.revealed, HandResult(
            winner=s, from_seat=e.from_seat, self_drawn=e.from_seat is None, robbed=e.robbed,
            win_tile=t, fan_total=e.fan_total, fans=e.fans, payments=e.payments,
            penalized=None))

    def _finish(self, revealed: tuple[tuple[int, ...], ...], result: HandResult) -> None:
        """The final event: fill in the other seats' concealed kongs, store the result."""
        for s, tiles in enumerate(revealed):
            if s == self.seat:
                continue
            shown = iter(tiles)
            ms = self.melds[s]
            for i, m in enumerate(ms):
                if m is HIDDEN_KONG:
                    t = next(shown, None)
                    if t is None:
                        raise ValueError(f"seat {s}'s concealed kongs are not all revealed")
                    ms[i] = shared_meld(CONCEALED_KONG, t, None)
                    self.unseen[t] -= 4
        self.over = True
        self.result = result
        self.revealed = revealed

    # ================================================================ copying, comparing
    def clone(self) -> SeatView:
        """An independent copy (melds and the result are immutable and shared)."""
        # through __init__: a class compiled with mypyc cannot be made by ``__new__`` alone
        v = SeatView(self.seat, dealer=self.dealer, prevalent_wind=self.prevalent_wind,
                     num_tiles=self.num_tiles)
        for name in _FIELDS:
            setattr(v, name, getattr(self, name))
        v.hand = self.hand[:]
        v.unseen = self.unseen[:]
        v.wall_taken = self.wall_taken[:]
        v.melds = [m[:] for m in self.melds]
        v.river = [r[:] for r in self.river]
        v.claimed_by = [c[:] for c in self.claimed_by]
        v.river_counts = [c[:] for c in self.river_counts]
        v.claimed_counts = [c[:] for c in self.claimed_counts]
        v.discards = [d[:] for d in self.discards]
        v.flowers = [f[:] for f in self.flowers]
        v.river_stamps = self.river_stamps[:]
        return v

    def __reduce__(self) -> tuple[Callable[[tuple[object, ...]], SeatView],
                                  tuple[tuple[object, ...]]]:
        """Pickling and deep copies: every field, set again on a view made by ``__init__`` (a
        class compiled with mypyc is not rebuilt otherwise: its ``__new__`` runs ``__init__``,
        which needs the seat)."""
        return _restore, (tuple(getattr(self, name) for name in _FIELDS),)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SeatView):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in _FIELDS)

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return (f"SeatView(seat={self.seat}, events={self.num_events}, "
                f"tiles_left={self.tiles_left}, over={self.over})")


def _restore(fields: tuple[object, ...]) -> SeatView:
    """The view whose fields are ``fields`` (in :data:`_FIELDS` order; see
    :meth:`SeatView.__reduce__`). A copied or unpickled :data:`HIDDEN_KONG` is a new object, and
    the fold finds the placeholders by identity: they become the one placeholder again."""
    v = SeatView(0)
    for name, value in zip(_FIELDS, fields, strict=True):
        setattr(v, name, value)
    v.melds = [[HIDDEN_KONG if m.first == HIDDEN else m for m in ms] for ms in v.melds]
    return v


def fold(events: Iterable[Event], seat: int, *, dealer: int = 0, prevalent_wind: int = 0,
         num_tiles: int = 144) -> SeatView:
    """``seat``'s view after ``events`` (raw or already redacted: both fold the same)."""
    v = SeatView(seat, dealer=dealer, prevalent_wind=prevalent_wind, num_tiles=num_tiles)
    v.extend(events)
    return v


class TableViews:
    """The four seats' views of one table, folded together from the table's events.

    Why: most events are public (a discard, a claim, a flower, a draw's count), and folded into
    four separate views each was folded four times, into four copies of the same lists. Here
    the views share one copy of the :data:`PUBLIC_LISTS` (the first view's), which the first
    view folds; every view folds its own part (its hand, its unseen counts, its melds, where
    another seat's concealed kong stays hidden, and its scalars). A batch of a thousand tables
    steps every table each step, so each table's state has left the CPU caches by its next
    turn, and the copies cost as much in cache misses as in work (docs/vector-performance.md).

    Each view is exactly the :class:`SeatView` that :func:`fold` makes from the same events
    (tests/engine compare them). The views are the table's own objects: read them,
    :meth:`SeatView.clone` one to keep or fold it alone (a view of the table refuses
    :meth:`SeatView.apply`).
    """

    __slots__ = ("views",)

    def __init__(self, *, dealer: int = 0, prevalent_wind: int = 0,
                 num_tiles: int = 144) -> None:
        first = SeatView(0, dealer=dealer, prevalent_wind=prevalent_wind, num_tiles=num_tiles)
        self.views: list[SeatView] = [first]
        for s in range(1, 4):
            v = SeatView(s, dealer=dealer, prevalent_wind=prevalent_wind, num_tiles=num_tiles)
            _share_public(v, first)
            self.views.append(v)
        first.of_table = True

    @classmethod
    def of_game(cls, game: Game) -> TableViews:
        """The views of a new ``game`` (before catching up with its events)."""
        return cls(dealer=game.dealer, prevalent_wind=game.prevalent_wind,
                   num_tiles=game.rules.num_tiles)

    def restart(self, *, dealer: int, prevalent_wind: int) -> None:
        """The views of a new hand at the same table (:meth:`SeatView.restart`: the lists are
        emptied in place)."""
        for v in self.views:
            v._restart(dealer, prevalent_wind, v is self.views[0])

    def state_objects(self) -> list[object]:
        """The table, its four views and their lists, each shared list once
        (:meth:`SeatView.state_objects`)."""
        views = self.views
        out: list[object] = [self, views]
        out.extend(views[0].state_objects())
        for v in views[1:]:
            out.extend(v._own_objects())
        return out

    @property
    def num_events(self) -> int:
        """How many events the views have folded."""
        return self.views[0].num_events

    def catch_up(self, events: Sequence[Event]) -> None:
        """Fold ``events[num_events:]`` (``events``: the table's whole list so far)."""
        views = self.views
        first, second, third, fourth = views[0], views[1], views[2], views[3]
        for i in range(first.num_events, len(events)):
            e = events[i]
            first._fold(e, True)
            second._fold(e, False)
            third._fold(e, False)
            fourth._fold(e, False)

    def view(self, seat: int, events: Sequence[Event]) -> SeatView:
        """``seat``'s view, caught up with ``events`` (the table's whole list so far)."""
        if self.views[0].num_events < len(events):
            self.catch_up(events)
        return self.views[seat]

    def __reduce__(self) -> tuple[Callable[[list[SeatView]], TableViews],
                                  tuple[list[SeatView]]]:
        """Pickling and deep copies: the four views, sharing again once restored."""
        return _restore_table, (self.views,)


def _share_public(view: SeatView, first: SeatView) -> None:
    """Make ``view`` read ``first``'s :data:`PUBLIC_LISTS`, which ``first`` folds for both."""
    for name in PUBLIC_LISTS:
        setattr(view, name, getattr(first, name))
    view.of_table = True


def _restore_table(views: list[SeatView]) -> TableViews:
    """The table of ``views`` (see :meth:`TableViews.__reduce__`)."""
    table = TableViews()
    first = views[0]
    for v in views[1:]:
        _share_public(v, first)
    first.of_table = True
    table.views = list(views)
    return table
